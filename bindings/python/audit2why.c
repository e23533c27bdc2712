/*
 * selinux.audit2why: why a policy denied an access, for audit2allow and
 * audit2why (policycoreutils-python-utils' sepolgen), with the interface of
 * the extension Debian's python3-selinux ships.
 *
 *   init([path])   load a binary policy (default: selinux_current_policy_path)
 *                  and return 0; ValueError if it cannot, RuntimeError if a
 *                  policy is already loaded (finish() first)
 *   analyze(scontext, tcontext, tclass, [perm, ...])
 *                  -> (code, data): ALLOW, DONTAUDIT, TERULE, RBAC, BOUNDS
 *                  with None; BOOLEAN with [(name, value), ...], the
 *                  booleans each of which, set to value alone, would allow
 *                  every permission; CONSTRAINT with the constraint text
 *                  libsepol explains the denial with; a negative code
 *                  (BADSCON, BADTCON, BADTCLASS, BADPERM, BADCOMPUTE, or
 *                  NOPOLICY before init) with None
 *   finish()       forget the policy
 *
 * libsepol decides: the policy is read into a policydb that its services
 * (sepol_compute_av_reason_buffer) use, with a SID table of their own.  The
 * services keep that policydb in a file-scope pointer, hence the static
 * libsepol linked in with its symbols hidden (another libsepol in the
 * process, python3-setools' for one, keeps its own), and one policy at a
 * time per process, as in Debian's module.
 *
 * Differences from Debian's module, on purpose: a failed init() raises its
 * ValueError (Debian's returns -1 with the error set, which Python turns
 * into a SystemError) and leaves no half-loaded policy behind (Debian's
 * then answers "init called multiple times"); a list of permissions with a
 * non-string in it raises TypeError (Debian's crashes).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/selinux.h>
#include <sepol/policydb.h>
#include <sepol/policydb/conditional.h>
#include <sepol/policydb/policydb.h>
#include <sepol/policydb/services.h>
#include <sepol/policydb/sidtab.h>

/* The codes analyze() answers with; their values are Debian's. */
enum {
	A2W_NOPOLICY = -7,
	A2W_BADCOMPUTE = -6,
	A2W_BADPERM = -5,
	A2W_BADTCLASS = -4,
	A2W_BADTCON = -3,
	A2W_BADSCON = -2,
	A2W_UNKNOWN = -1,
	A2W_ALLOW = 0,
	A2W_DONTAUDIT = 1,
	A2W_TERULE = 2,
	A2W_BOOLEAN = 3,
	A2W_CONSTRAINT = 4,
	A2W_RBAC = 5,
	A2W_BOUNDS = 6,
};

/*
 * The loaded policy and the SID table libsepol's services fill as contexts
 * are named; policy is NULL when none is loaded.  Guarded by the GIL: every
 * entry point holds it throughout (the services' own state is global too).
 */
static sepol_policydb_t *policy;
static sidtab_t sids;

static void policy_free(void)
{
	if (!policy)
		return;
	sepol_set_policydb(NULL);
	sepol_set_sidtab(NULL);
	sepol_sidtab_destroy(&sids);
	sepol_policydb_free(policy);
	policy = NULL;
}

/* Reads the binary policy at path into a new policydb; -errno, or -EINVAL
 * when the file is not a policy libsepol can read. */
static int policy_read(const char *path, sepol_policydb_t **out)
{
	sepol_policy_file_t *pf = NULL;
	sepol_policydb_t *p = NULL;
	FILE *f;
	int r;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (sepol_policy_file_create(&pf) < 0 ||
	    sepol_policydb_create(&p) < 0) {
		r = -ENOMEM;
		goto out;
	}
	sepol_policy_file_set_fp(pf, f);
	if (sepol_policydb_read(p, pf) < 0) {
		r = -EINVAL;
		goto out;
	}
	*out = p;
	p = NULL;
	r = 0;
out:
	sepol_policydb_free(p);
	sepol_policy_file_free(pf);
	fclose(f);
	return r;
}

static PyObject *a2w_init(PyObject *self, PyObject *args)
{
	const char *path = NULL;
	sepol_policydb_t *p = NULL;
	int r;

	(void)self;
	/* Before the arguments, as in Debian's module. */
	if (policy) {
		PyErr_SetString(PyExc_RuntimeError,
				"init called multiple times");
		return NULL;
	}
	if (!PyArg_ParseTuple(args, "|s:policy_init", &path))
		return NULL;
	if (!path)
		path = selinux_current_policy_path();
	if (!path) {
		PyErr_SetString(PyExc_ValueError,
				"You must specify the -p option with the path "
				"to the policy file.\n");
		return NULL;
	}

	r = policy_read(path, &p);
	if (r == -ENOMEM)
		return PyErr_NoMemory();
	if (r == -EINVAL) {
		PyErr_Format(PyExc_ValueError, "invalid binary policy %s\n",
			     path);
		return NULL;
	}
	if (r < 0) {
		/* Debian's text, two spaces included. */
		PyErr_Format(PyExc_ValueError, "unable to open %s:  %s\n", path,
			     strerror(-r));
		return NULL;
	}

	/* The services answer from this policydb and this SID table;
	 * policydb_load_isids makes the table (sepol_sidtab_init) and puts
	 * the policy's initial SIDs in it. */
	policy = p;
	sepol_set_policydb(&policy->p);
	sepol_set_sidtab(&sids);
	if (policydb_load_isids(&policy->p, &sids) < 0) {
		policy_free();
		PyErr_Format(PyExc_ValueError, "invalid binary policy %s\n",
			     path);
		return NULL;
	}
	return PyLong_FromLong(0);
}

static PyObject *a2w_finish(PyObject *self, PyObject *args)
{
	(void)self;
	if (!PyArg_ParseTuple(args, ":finish"))
		return NULL;
	policy_free();
	Py_RETURN_NONE;
}

/* Whether libsepol allows all of av now. */
static int allowed_now(sepol_security_id_t ssid, sepol_security_id_t tsid,
		       sepol_security_class_t tclass, sepol_access_vector_t av)
{
	struct sepol_av_decision avd;
	unsigned int reason = 0;

	if (sepol_compute_av_reason(ssid, tsid, tclass, av, &avd, &reason) < 0)
		return 0;
	return (avd.allowed & av) == av;
}

/*
 * The booleans each of which, flipped alone, makes libsepol allow all of av
 * (its whole decision: a boolean that lifts the TE denial while a
 * constraint still denies does not count), as a list of (name, new value)
 * in the policy's boolean order; an empty list when none does, NULL with a
 * Python error.  Each boolean is flipped in the policydb, the conditional
 * rules re-evaluated, the access computed, and the boolean put back.
 */
static PyObject *booleans_allowing(sepol_security_id_t ssid,
				   sepol_security_id_t tsid,
				   sepol_security_class_t tclass,
				   sepol_access_vector_t av)
{
	policydb_t *pdb = &policy->p;
	PyObject *list = PyList_New(0);
	uint32_t i;

	if (!list)
		return NULL;
	for (i = 0; i < pdb->p_bools.nprim; i++) {
		cond_bool_datum_t *b = pdb->bool_val_to_struct[i];
		int allows;

		if (!b)
			continue;
		b->state = !b->state;
		evaluate_conds(pdb);
		allows = allowed_now(ssid, tsid, tclass, av);
		b->state = !b->state;
		evaluate_conds(pdb);
		if (allows) {
			PyObject *t = Py_BuildValue(
			    "(si)", pdb->p_bool_val_to_name[i], !b->state);

			if (!t || PyList_Append(list, t) < 0) {
				Py_XDECREF(t);
				Py_DECREF(list);
				return NULL;
			}
			Py_DECREF(t);
		}
	}
	return list;
}

static PyObject *code_only(int code)
{
	return Py_BuildValue("(iO)", code, Py_None);
}

static PyObject *a2w_analyze(PyObject *self, PyObject *args)
{
	const char *scon, *tcon, *tclass_name;
	PyObject *perms;
	sepol_security_id_t ssid, tsid;
	sepol_security_class_t tclass;
	sepol_access_vector_t av = 0;
	struct sepol_av_decision avd;
	unsigned int reason = 0;
	char *why = NULL;
	Py_ssize_t i, n;

	(void)self;
	if (!PyArg_ParseTuple(args, "sssO!:audit2why", &scon, &tcon,
			      &tclass_name, &PyList_Type, &perms))
		return NULL;
	/* Checked before the policy, so that a bad call is a TypeError
	 * whether a policy is loaded or not. */
	n = PyList_Size(perms);
	for (i = 0; i < n; i++)
		if (!PyUnicode_Check(PyList_GET_ITEM(perms, i))) {
			PyErr_SetString(PyExc_TypeError,
					"audit2why() argument 4 must be a "
					"list of str");
			return NULL;
		}
	if (!policy)
		return code_only(A2W_NOPOLICY);

	if (sepol_context_to_sid(scon, strlen(scon) + 1, &ssid) < 0)
		return code_only(A2W_BADSCON);
	if (sepol_context_to_sid(tcon, strlen(tcon) + 1, &tsid) < 0)
		return code_only(A2W_BADTCON);
	if (sepol_string_to_security_class(tclass_name, &tclass) < 0)
		return code_only(A2W_BADTCLASS);
	for (i = 0; i < n; i++) {
		const char *name = PyUnicode_AsUTF8(PyList_GET_ITEM(perms, i));
		sepol_access_vector_t bit;

		if (!name)
			return NULL;
		if (sepol_string_to_av_perm(tclass, name, &bit) < 0)
			return code_only(A2W_BADPERM);
		av |= bit;
	}

	if (sepol_compute_av_reason_buffer(ssid, tsid, tclass, av, &avd,
					   &reason, &why, 0) < 0) {
		free(why);
		return code_only(A2W_BADCOMPUTE);
	}
	if ((avd.allowed & av) == av) {
		free(why);
		return code_only(A2W_ALLOW);
	}

	if (reason & SEPOL_COMPUTEAV_TE) {
		PyObject *bools;

		free(why);
		bools = booleans_allowing(ssid, tsid, tclass, av);
		if (!bools)
			return NULL;
		if (PyList_GET_SIZE(bools) > 0)
			return Py_BuildValue("(iN)", A2W_BOOLEAN, bools);
		Py_DECREF(bools);
		/* Any permission asked for that the policy does not audit
		 * (dontaudit), allowed or not, makes the denial a dontaudit
		 * one, as in Debian's module. */
		return code_only((av & ~avd.auditdeny) ? A2W_DONTAUDIT
						       : A2W_TERULE);
	}
	if (reason & SEPOL_COMPUTEAV_CONS) {
		PyObject *ret;

		if (!why)
			return PyErr_NoMemory();
		ret = Py_BuildValue("(is)", A2W_CONSTRAINT, why);
		free(why);
		return ret;
	}
	free(why);
	if (reason & SEPOL_COMPUTEAV_RBAC)
		return code_only(A2W_RBAC);
	if (reason & SEPOL_COMPUTEAV_BOUNDS)
		return code_only(A2W_BOUNDS);
	/* Denied for no reason libsepol names: nothing to explain. */
	return code_only(A2W_BADCOMPUTE);
}

static PyMethodDef a2w_methods[] = {
    {"init", a2w_init, METH_VARARGS, "Initialize policy database."},
    {"analyze", a2w_analyze, METH_VARARGS, "Analyze AVC."},
    {"finish", a2w_finish, METH_VARARGS, "Finish using policy, free memory."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef a2w_module = {
    PyModuleDef_HEAD_INIT, .m_name = "audit2why",    .m_doc = NULL,
    .m_size = -1,	   .m_methods = a2w_methods,
};

PyMODINIT_FUNC PyInit_audit2why(void);

PyMODINIT_FUNC PyInit_audit2why(void)
{
	static const struct {
		const char *name;
		int value;
	} codes[] = {
	    {"UNKNOWN", A2W_UNKNOWN},	  {"BADSCON", A2W_BADSCON},
	    {"BADTCON", A2W_BADTCON},	  {"BADTCLASS", A2W_BADTCLASS},
	    {"BADPERM", A2W_BADPERM},	  {"BADCOMPUTE", A2W_BADCOMPUTE},
	    {"NOPOLICY", A2W_NOPOLICY},	  {"ALLOW", A2W_ALLOW},
	    {"DONTAUDIT", A2W_DONTAUDIT}, {"TERULE", A2W_TERULE},
	    {"BOOLEAN", A2W_BOOLEAN},	  {"CONSTRAINT", A2W_CONSTRAINT},
	    {"RBAC", A2W_RBAC},		  {"BOUNDS", A2W_BOUNDS},
	};
	PyObject *m = PyModule_Create(&a2w_module);
	size_t i;

	if (!m)
		return NULL;
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (PyModule_AddIntConstant(m, codes[i].name, codes[i].value) <
		    0) {
			Py_DECREF(m);
			return NULL;
		}
	return m;
}
