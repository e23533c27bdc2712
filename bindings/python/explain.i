/*
 * bindings/python/explain.i: selabel_lookup_explain() (selinux/
 * label_explain.h, our extension), included by selinuxswig.i.
 *
 *   rc, e = selinux.selabel_lookup_explain(handle, path, mode)
 *
 * rc is 0 and e a dict (a failure raises OSError with the call's errno,
 * as the module's other calls do):
 *   key, lookup_key   str
 *   type              int (S_IFMT bits asked, 0 for any)
 *   error             int (0, or selabel_lookup()'s errno: ENOENT)
 *   subs, subs_dist   None or {'alias', 'original', 'file'}
 *   winner, blocked   None or a spec
 *   overridden        [spec, ...] strongest first
 *   other_types       [spec, ...]
 * a spec: {'regex', 'type', 'context', 'file', 'line', 'literal' (bool),
 * 'source' (str or None), 'source_line'}.
 */
%{
#include <selinux/label_explain.h>

/* d[k] = v, v's reference given away; -1 (exception set) on failure. */
static int ex_set(PyObject *d, const char *k, PyObject *v)
{
	int r = v ? PyDict_SetItemString(d, k, v) : -1;

	Py_XDECREF(v);
	return r;
}

static PyObject *ex_str(const char *s)
{
	if (!s)
		Py_RETURN_NONE;
	return PyUnicode_DecodeFSDefault(s);
}

static PyObject *ex_spec(const struct selabel_spec_origin *s)
{
	PyObject *d;

	if (!s)
		Py_RETURN_NONE;
	d = PyDict_New();
	if (!d || ex_set(d, "regex", ex_str(s->regex)) ||
	    ex_set(d, "type", ex_str(s->type)) ||
	    ex_set(d, "context", ex_str(s->context)) ||
	    ex_set(d, "file", ex_str(s->file)) ||
	    ex_set(d, "line", PyLong_FromUnsignedLong(s->line)) ||
	    ex_set(d, "literal", PyBool_FromLong(s->literal)) ||
	    ex_set(d, "source", ex_str(s->source)) ||
	    ex_set(d, "source_line", PyLong_FromUnsignedLong(s->source_line))) {
		Py_XDECREF(d);
		return NULL;
	}
	return d;
}

static PyObject *ex_specs(const struct selabel_spec_origin *v, size_t n)
{
	PyObject *l = PyList_New(0);

	for (size_t i = 0; l && i < n; i++) {
		PyObject *s = ex_spec(&v[i]);

		if (!s || PyList_Append(l, s) < 0)
			Py_CLEAR(l);
		Py_XDECREF(s);
	}
	return l;
}

static PyObject *ex_subs(const struct selabel_subs_origin *s)
{
	PyObject *d;

	if (!s)
		Py_RETURN_NONE;
	d = PyDict_New();
	if (!d || ex_set(d, "alias", ex_str(s->alias)) ||
	    ex_set(d, "original", ex_str(s->original)) ||
	    ex_set(d, "file", ex_str(s->file))) {
		Py_XDECREF(d);
		return NULL;
	}
	return d;
}

static PyObject *ex_dict(const struct selabel_explanation *e)
{
	PyObject *d;

	if (!e)
		Py_RETURN_NONE;
	d = PyDict_New();
	if (!d || ex_set(d, "key", ex_str(e->key)) ||
	    ex_set(d, "lookup_key", ex_str(e->lookup_key)) ||
	    ex_set(d, "type", PyLong_FromUnsignedLong(e->type)) ||
	    ex_set(d, "error", PyLong_FromLong(e->error)) ||
	    ex_set(d, "subs", ex_subs(e->subs)) ||
	    ex_set(d, "subs_dist", ex_subs(e->subs_dist)) ||
	    ex_set(d, "winner", ex_spec(e->winner)) ||
	    ex_set(d, "blocked", ex_spec(e->blocked)) ||
	    ex_set(d, "overridden", ex_specs(e->overridden, e->n_overridden)) ||
	    ex_set(d, "other_types",
		   ex_specs(e->other_types, e->n_other_types))) {
		Py_XDECREF(d);
		return NULL;
	}
	return d;
}
%}

%typemap(in, numinputs=0) struct selabel_explanation **exp
	(struct selabel_explanation *temp = NULL) {
	$1 = &temp;
}
%typemap(argout) struct selabel_explanation **exp {
	PyObject *d = ex_dict(*$1);

	selabel_explanation_free(*$1);
	if (!d)
		SWIG_fail;
	$result = SWIG_AppendOutput($result, d);
}

extern int selabel_lookup_explain(struct selabel_handle *h,
				  struct selabel_explanation **exp,
				  const char *key, int type);
