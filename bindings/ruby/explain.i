/*
 * bindings/ruby/explain.i: selabel_lookup_explain() (selinux/
 * label_explain.h, our extension), included by selinuxswig.i.
 *
 *   rc, e = Selinux.selabel_lookup_explain(handle, path, mode)
 *
 * As the extension's other calls: -1 alone on failure (errno not
 * reported); 0 and e, a Hash with String keys, on success:
 *   "key", "lookup_key"       String
 *   "type"                    Integer (S_IFMT bits asked, 0 for any)
 *   "error"                   Integer (0, or selabel_lookup()'s errno)
 *   "subs", "subs_dist"       nil or {"alias", "original", "file"}
 *   "winner", "blocked"       nil or a spec
 *   "overridden"              [spec, ...] strongest first
 *   "other_types"             [spec, ...]
 * a spec: {"regex", "type", "context", "file", "line", "literal" (true or
 * false), "source" (String or nil), "source_line"}.
 */
%{
#include <selinux/label_explain.h>

static VALUE ex_str(const char *s)
{
	return s ? rb_str_new_cstr(s) : Qnil;
}

static void ex_set(VALUE h, const char *k, VALUE v)
{
	rb_hash_aset(h, rb_str_new_cstr(k), v);
}

static VALUE ex_spec(const struct selabel_spec_origin *s)
{
	VALUE h;

	if (!s)
		return Qnil;
	h = rb_hash_new();
	ex_set(h, "regex", ex_str(s->regex));
	ex_set(h, "type", ex_str(s->type));
	ex_set(h, "context", ex_str(s->context));
	ex_set(h, "file", ex_str(s->file));
	ex_set(h, "line", UINT2NUM(s->line));
	ex_set(h, "literal", s->literal ? Qtrue : Qfalse);
	ex_set(h, "source", ex_str(s->source));
	ex_set(h, "source_line", UINT2NUM(s->source_line));
	return h;
}

static VALUE ex_specs(const struct selabel_spec_origin *v, size_t n)
{
	VALUE a = rb_ary_new();

	for (size_t i = 0; i < n; i++)
		rb_ary_push(a, ex_spec(&v[i]));
	return a;
}

static VALUE ex_subs(const struct selabel_subs_origin *s)
{
	VALUE h;

	if (!s)
		return Qnil;
	h = rb_hash_new();
	ex_set(h, "alias", ex_str(s->alias));
	ex_set(h, "original", ex_str(s->original));
	ex_set(h, "file", ex_str(s->file));
	return h;
}

/* The Hash of e (which the caller frees: Ruby's allocations may raise,
 * so e is freed by an ensure, see the typemap). */
static VALUE ex_hash(VALUE arg)
{
	const struct selabel_explanation *e = (const void *)arg;
	VALUE h = rb_hash_new();

	ex_set(h, "key", ex_str(e->key));
	ex_set(h, "lookup_key", ex_str(e->lookup_key));
	ex_set(h, "type", UINT2NUM(e->type));
	ex_set(h, "error", INT2NUM(e->error));
	ex_set(h, "subs", ex_subs(e->subs));
	ex_set(h, "subs_dist", ex_subs(e->subs_dist));
	ex_set(h, "winner", ex_spec(e->winner));
	ex_set(h, "blocked", ex_spec(e->blocked));
	ex_set(h, "overridden", ex_specs(e->overridden, e->n_overridden));
	ex_set(h, "other_types", ex_specs(e->other_types, e->n_other_types));
	return h;
}

static VALUE ex_free(VALUE arg)
{
	selabel_explanation_free((struct selabel_explanation *)arg);
	return Qnil;
}
%}

%typemap(in, numinputs=0) struct selabel_explanation **exp
	(struct selabel_explanation *temp = NULL) {
	$1 = &temp;
}
%typemap(argout) struct selabel_explanation **exp {
	if (*$1)
		$result = SWIG_AppendOutput($result,
			rb_ensure(ex_hash, (VALUE)*$1, ex_free, (VALUE)*$1));
}

extern int selabel_lookup_explain(struct selabel_handle *h,
				  struct selabel_explanation **exp,
				  const char *key, int type);
