/*
 * selinuxswig.i: the `selinux` Python module over this tree's
 * libselinux.so.1, with the interface of Debian's python3-selinux.
 *
 * Calling conventions (those of the established module, which scripts
 * such as semanage and sepolicy rely on):
 *
 *  - an output parameter is not passed; the function returns a list of
 *    its int result followed by the outputs: getfilecon(path) ->
 *    [length, context], security_compute_user(scon, user) -> [0, [ctx...]];
 *  - a function returning int that fails (a negative result) raises
 *    OSError(errno, strerror(errno)), which Python turns into its errno
 *    subclass (FileNotFoundError for ENOENT ...).  Only
 *    selinux_file_context_cmp, whose -1 means "a sorts before b", returns
 *    it as is;
 *  - pid_t and mode_t are unsigned: a negative one raises OverflowError;
 *  - structures (av_decision, selinux_opt, SELboolean ...) are proxy
 *    classes with one property per field; handles (selabel_handle) are
 *    opaque SWIG pointers.
 *
 * Only functions libselinux.so.1 exports are declared here: SWIG would
 * otherwise leave an undefined symbol in _selinux and the import would
 * fail: add a function here when the library exports it (the 'bindings'
 * suite's interface test fails for a function of the reference module
 * that the library exports and this module lacks).
 *
 * Parameter names are the established module's (they are the keyword
 * names of the Python wrappers), not always our headers'.
 */
%module selinux

%{
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include <selinux/selinux.h>
#include <selinux/context.h>
#include <selinux/label.h>
#include <selinux/get_default_type.h>
#include <selinux/avc.h>
#include <selinux/get_context_list.h>
#include <selinux/restorecon.h>
%}

/* The pure-Python helpers go to the top of the generated __init__.py. */
%pythonbegin %{
import os
import errno
import shutil
import sys
%}

/* ------------------------------------------------------------------ */
/* Types                                                              */
/* ------------------------------------------------------------------ */

/*
 * Unsigned on purpose: the established module declares them so (a
 * negative pid or mode raises OverflowError), and we keep its behaviour.
 * ino_t is an integer here; the established module leaves it opaque, so
 * that matchpathcon_filespec_add() cannot be called there at all.
 */
typedef unsigned int pid_t;
typedef unsigned int mode_t;
typedef unsigned long ino_t;
typedef unsigned int access_vector_t;
typedef unsigned short security_class_t;

/*
 * Setting a const char * field (selinux_opt.value ...) copies the string
 * and never frees it, as in the established module: options live as long
 * as the handles they open.
 */
#pragma SWIG nowarn=451

/*
 * Structures first, before the error typemap below: their int fields
 * (selinux_opt.type, SELboolean.value) may hold negative values, which a
 * getter returns rather than raises.
 */
struct av_decision {
	access_vector_t allowed;
	access_vector_t decided;
	access_vector_t auditallow;
	access_vector_t auditdeny;
	unsigned int seqno;
	unsigned int flags;
};

struct selinux_opt {
	int type;
	const char *value;
};

union selinux_callback {
	int (*func_log)(int type, const char *fmt, ...);
	int (*func_audit)(void *auditdata, security_class_t cls, char *msgbuf,
			  size_t msgbufsize);
	int (*func_validate)(char **ctx);
	int (*func_setenforce)(int enforcing);
	int (*func_policyload)(int seqno);
};

typedef struct {
	char *name;
	int value;
} SELboolean;

struct security_class_mapping {
	const char *name;
	const char *perms[sizeof(access_vector_t) * 8 + 1];
};

typedef struct {
	void *ptr;
} context_s_t;

typedef context_s_t *context_t;

/* avc.h */
struct security_id {
	char *ctx;
	unsigned int refcnt;
};
typedef struct security_id *security_id_t;

struct avc_entry;
struct avc_entry_ref {
	struct avc_entry *ae;
};

struct avc_memory_callback {
	void *(*func_malloc)(size_t size);
	void (*func_free)(void *ptr);
};

struct avc_log_callback {
	void (*func_log)(const char *fmt, ...);
	void (*func_audit)(void *auditdata, security_class_t cls,
			   char *msgbuf, size_t msgbufsize);
};

struct avc_thread_callback {
	void *(*func_create_thread)(void (*run)(void));
	void (*func_stop_thread)(void *thread);
};

struct avc_lock_callback {
	void *(*func_alloc_lock)(void);
	void (*func_get_lock)(void *lock);
	void (*func_release_lock)(void *lock);
	void (*func_free_lock)(void *lock);
};

/*
 * Only the structure: the established module has no avc_cache_stats()
 * function (the class takes its name).
 */
struct avc_cache_stats {
	unsigned entry_lookups;
	unsigned entry_hits;
	unsigned entry_misses;
	unsigned entry_discards;
	unsigned cav_lookups;
	unsigned cav_hits;
	unsigned cav_probes;
	unsigned cav_misses;
};

/* ------------------------------------------------------------------ */
/* Typemaps                                                           */
/* ------------------------------------------------------------------ */

/*
 * Failure is a negative result with errno set.  The check sits right
 * after the call, with nothing in between that could change errno (the
 * module does not release the GIL).
 */
%typemap(out) int {
	if ($1 < 0) {
		PyErr_SetFromErrno(PyExc_OSError);
		SWIG_fail;
	}
	$result = PyLong_FromLong($1);
}

/* Its -1 is an ordering, not an error. */
%typemap(out) int selinux_file_context_cmp {
	$result = PyLong_FromLong($1);
}

/* A context (or any string) the library allocates: returned, then freed. */
%typemap(in, numinputs=0) char ** (char *temp = NULL) {
	$1 = &temp;
}
%typemap(argout, fragment="SWIG_FromCharPtr") char ** {
	$result = SWIG_AppendOutput($result, SWIG_FromCharPtr(*$1));
	freecon(*$1);
}

/*
 * selabel_lookup_best_match's aliases: not passed from Python (NULL
 * aliases); the established module returns the pointer it passed, hence
 * a trailing None.
 */
/* selinux_restorecon_set_exclude_list() takes no argument in the
 * established module: it installs an empty list. */
%typemap(in, numinputs=0) const char **exclude_list (char *temp = NULL) {
	$1 = &temp;
}
%typemap(in, numinputs=0) const char **aliases (const char *temp = NULL) {
	$1 = ($1_ltype)&temp;
}
%typemap(argout) const char **aliases {
	Py_INCREF(Py_None);
	$result = SWIG_AppendOutput($result, Py_None);
}

/* A NULL-terminated array of contexts: a list, then freeconary(). */
%fragment("swig_conary_to_list", "header", fragment="SWIG_FromCharPtr") {
/* The contexts of a (which is freed) as a new list; NULL with a Python
 * error. */
static PyObject *swig_conary_to_list(char **a)
{
	PyObject *list = PyList_New(0);
	char **p;

	for (p = a; list && p && *p; p++) {
		PyObject *s = SWIG_FromCharPtr(*p);

		if (!s || PyList_Append(list, s) < 0) {
			Py_XDECREF(s);
			Py_CLEAR(list);
		} else {
			Py_DECREF(s);
		}
	}
	freeconary(a);
	return list;
}
}
%typemap(in, numinputs=0) char *** (char **temp = NULL) {
	$1 = &temp;
}
%typemap(argout, fragment="swig_conary_to_list") char *** {
	PyObject *list = swig_conary_to_list(*$1);

	if (!list)
		SWIG_fail;
	$result = SWIG_AppendOutput($result, list);
}
/*
 * get_ordered_context_list(_with_level): the list alone, without the
 * count the function returns (Debian's module returns just the list;
 * failure still raises OSError).
 */
%typemap(argout, fragment="swig_conary_to_list") char ***list {
	PyObject *list = swig_conary_to_list(*$1);

	if (!list)
		SWIG_fail;
	Py_XDECREF($result);
	$result = list;
}

/* security_get_boolean_names: an array and its length, one list. */
%typemap(in, numinputs=0) (char ***names, int *len)
	(char **temp_names = NULL, int temp_len = 0) {
	$1 = &temp_names;
	$2 = &temp_len;
}
%typemap(argout, fragment="SWIG_FromCharPtr") (char ***names, int *len) {
	PyObject *list = PyList_New(0);
	int i;

	for (i = 0; list && i < *$2; i++) {
		PyObject *s = SWIG_FromCharPtr((*$1)[i]);

		if (!s || PyList_Append(list, s) < 0) {
			Py_XDECREF(s);
			Py_CLEAR(list);
		} else {
			Py_DECREF(s);
		}
	}
	for (i = 0; i < *$2; i++)
		free((*$1)[i]);
	free(*$1);
	if (!list)
		SWIG_fail;
	$result = SWIG_AppendOutput($result, list);
}

/*
 * A SID out of avc_context_to_sid() and avc_get_initial_sid(): returned,
 * a security_id proxy that does not own it (SIDs live until
 * avc_destroy()).
 */
%typemap(in, numinputs=0) security_id_t *sid (security_id_t temp = NULL) {
	$1 = &temp;
}
%typemap(argout) security_id_t *sid {
	$result = SWIG_AppendOutput($result,
		SWIG_NewPointerObj(*$1, $*1_descriptor, 0));
}

/*
 * avc_compute_create/member's newsid: not passed, and not returned either,
 * as in the established module (whose callers get only the result).
 */
%typemap(in, numinputs=0) security_id_t *newsid (security_id_t temp = NULL) {
	$1 = &temp;
}

/* The audit data of avc_has_perm(), avc_audit(), selinux_check_access():
 * not passed from Python (NULL), as in the established module. */
%typemap(in, numinputs=0) void *auditdata {
	$1 = NULL;
}

/* An int result parameter (selinux_getenforcemode's enforce ...). */
%typemap(in, numinputs=0) int *enforce (int temp = 0) {
	$1 = &temp;
}
%typemap(argout) int *enforce {
	$result = SWIG_AppendOutput($result, PyLong_FromLong(*$1));
}

/* selabel_digest's sizes, hidden and returned (see selabel_digest). */
%typemap(in, numinputs=0) size_t *digest_len (size_t temp = 0),
			  size_t *num_specfiles (size_t temp = 0) {
	$1 = &temp;
}
%typemap(argout) size_t *digest_len, size_t *num_specfiles {
	$result = SWIG_AppendOutput($result, PyLong_FromSize_t(*$1));
}

/*
 * realpath_not_final's buffer: the established module writes the result
 * into the memory of the Python string passed as resolved_path (which
 * Python strings do not allow).  We keep the call's shape and write into
 * a buffer of our own of the PATH_MAX bytes the function needs.
 */
%typemap(in) char *resolved_path (char temp[PATH_MAX]) {
	$1 = temp;
}

/*
 * security_load_policy's policy image: one bytes-like object.  (The
 * established module hides data and takes len alone, so that it cannot
 * load anything.)  The buffer starts zeroed: releasing it is a no-op on
 * the failure paths that come before PyObject_GetBuffer() fills it.
 */
%typemap(in) (void *data, size_t len) (Py_buffer view = { 0 }) {
	if (PyObject_GetBuffer($input, &view, PyBUF_SIMPLE) < 0)
		SWIG_fail;
	$1 = view.buf;
	$2 = view.len;
}
%typemap(freearg) (void *data, size_t len) {
	PyBuffer_Release(&view$argnum);
}

/* Strings the caller must free. */
%newobject selinux_boolean_sub;

/* ------------------------------------------------------------------ */
/* Constants                                                          */
/* ------------------------------------------------------------------ */

/* selinux.h */
#define SELINUX_AVD_FLAGS_PERMISSIVE 0x0001
#define SELINUX_CB_LOG 0
#define SELINUX_CB_AUDIT 1
#define SELINUX_CB_VALIDATE 2
#define SELINUX_CB_SETENFORCE 3
#define SELINUX_CB_POLICYLOAD 4
#define SELINUX_ERROR 0
#define SELINUX_WARNING 1
#define SELINUX_INFO 2
#define SELINUX_AVC 3
#define SELINUX_POLICYLOAD 4
#define SELINUX_SETENFORCE 5
#define SELINUX_TRANS_DIR "/var/run/setrans"
#define MATCHPATHCON_BASEONLY 1
#define MATCHPATHCON_NOTRANS 2
#define MATCHPATHCON_VALIDATE 4

/* label.h */
#define SELABEL_CTX_FILE 0
#define SELABEL_CTX_MEDIA 1
#define SELABEL_CTX_X 2
#define SELABEL_CTX_DB 3
#define SELABEL_CTX_ANDROID_PROP 4
#define SELABEL_CTX_ANDROID_SERVICE 5
#define SELABEL_OPT_UNUSED 0
#define SELABEL_OPT_VALIDATE 1
#define SELABEL_OPT_BASEONLY 2
#define SELABEL_OPT_PATH 3
#define SELABEL_OPT_SUBSET 4
#define SELABEL_OPT_DIGEST 5
#define SELABEL_NOPT 6
enum selabel_cmp_result {
	SELABEL_SUBSET,
	SELABEL_EQUAL,
	SELABEL_SUPERSET,
	SELABEL_INCOMPARABLE
};
#define SELABEL_X_PROP 1
#define SELABEL_X_EXT 2
#define SELABEL_X_CLIENT 3
#define SELABEL_X_EVENT 4
#define SELABEL_X_SELN 5
#define SELABEL_X_POLYPROP 6
#define SELABEL_X_POLYSELN 7
#define SELABEL_DB_DATABASE 1
#define SELABEL_DB_SCHEMA 2
#define SELABEL_DB_TABLE 3
#define SELABEL_DB_COLUMN 4
#define SELABEL_DB_SEQUENCE 5
#define SELABEL_DB_VIEW 6
#define SELABEL_DB_PROCEDURE 7
#define SELABEL_DB_BLOB 8
#define SELABEL_DB_TUPLE 9
#define SELABEL_DB_LANGUAGE 10
#define SELABEL_DB_EXCEPTION 11
#define SELABEL_DB_DATATYPE 12

/*
 * Constants of headers this tree does not have yet (get_context_list.h,
 * restorecon.h), and avc.h's: part of the established module's interface, and
 * scripts test them even where the functions are missing.  The values
 * are those of the ABI.
 */
#define SELINUX_DEFAULTUSER "user_u"
#define AVC_OPT_UNUSED 0
#define AVC_OPT_SETENFORCE 1
#define AVC_CALLBACK_GRANT 1
#define AVC_CALLBACK_TRY_REVOKE 2
#define AVC_CALLBACK_REVOKE 4
#define AVC_CALLBACK_RESET 8
#define AVC_CALLBACK_AUDITALLOW_ENABLE 16
#define AVC_CALLBACK_AUDITALLOW_DISABLE 32
#define AVC_CALLBACK_AUDITDENY_ENABLE 64
#define AVC_CALLBACK_AUDITDENY_DISABLE 128
#define AVC_CACHE_STATS 1
#define SELINUX_RESTORECON_IGNORE_DIGEST 0x00001
#define SELINUX_RESTORECON_NOCHANGE 0x00002
#define SELINUX_RESTORECON_SET_SPECFILE_CTX 0x00004
#define SELINUX_RESTORECON_RECURSE 0x00008
#define SELINUX_RESTORECON_VERBOSE 0x00010
#define SELINUX_RESTORECON_PROGRESS 0x00020
#define SELINUX_RESTORECON_REALPATH 0x00040
#define SELINUX_RESTORECON_XDEV 0x00080
#define SELINUX_RESTORECON_ADD_ASSOC 0x00100
#define SELINUX_RESTORECON_ABORT_ON_ERROR 0x00200
#define SELINUX_RESTORECON_SYSLOG_CHANGES 0x00400
#define SELINUX_RESTORECON_LOG_MATCHES 0x00800
#define SELINUX_RESTORECON_IGNORE_NOENTRY 0x01000
#define SELINUX_RESTORECON_IGNORE_MOUNTS 0x02000
#define SELINUX_RESTORECON_MASS_RELABEL 0x04000
#define SELINUX_RESTORECON_SKIP_DIGEST 0x08000
#define SELINUX_RESTORECON_CONFLICT_ERROR 0x10000
#define SELINUX_RESTORECON_COUNT_ERRORS 0x20000
#define SELINUX_RESTORECON_XATTR_RECURSE 0x0001
#define SELINUX_RESTORECON_XATTR_DELETE_NONMATCH_DIGESTS 0x0002
#define SELINUX_RESTORECON_XATTR_DELETE_ALL_DIGESTS 0x0004
#define SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS 0x0008
/* enum digest_result */
%constant int MATCH = 0;
%constant int NOMATCH = 1;
%constant int DELETED_MATCH = 2;
%constant int DELETED_NOMATCH = 3;
%constant int ERROR = 4;

/* ------------------------------------------------------------------ */
/* Functions (selinux.h)                                              */
/* ------------------------------------------------------------------ */

extern int is_selinux_enabled(void);
extern int is_selinux_mls_enabled(void);

extern int getcon(char **con);
extern int getcon_raw(char **con);
extern int setcon(const char *con);
extern int setcon_raw(const char *con);
extern int getpidcon(pid_t pid, char **con);
extern int getpidcon_raw(pid_t pid, char **con);
extern int getprevcon(char **con);
extern int getprevcon_raw(char **con);
extern int getexeccon(char **con);
extern int getexeccon_raw(char **con);
extern int setexeccon(const char *con);
extern int setexeccon_raw(const char *con);
extern int getfscreatecon(char **con);
extern int getfscreatecon_raw(char **con);
extern int setfscreatecon(const char *context);
extern int setfscreatecon_raw(const char *context);
extern int getkeycreatecon(char **con);
extern int getkeycreatecon_raw(char **con);
extern int setkeycreatecon(const char *context);
extern int setkeycreatecon_raw(const char *context);
extern int getsockcreatecon(char **con);
extern int getsockcreatecon_raw(char **con);
extern int setsockcreatecon(const char *context);
extern int setsockcreatecon_raw(const char *context);

extern int getfilecon(const char *path, char **con);
extern int getfilecon_raw(const char *path, char **con);
extern int lgetfilecon(const char *path, char **con);
extern int lgetfilecon_raw(const char *path, char **con);
extern int fgetfilecon(int fd, char **con);
extern int fgetfilecon_raw(int fd, char **con);
extern int setfilecon(const char *path, const char *con);
extern int setfilecon_raw(const char *path, const char *con);
extern int lsetfilecon(const char *path, const char *con);
extern int lsetfilecon_raw(const char *path, const char *con);
extern int fsetfilecon(int fd, const char *con);
extern int fsetfilecon_raw(int fd, const char *con);
extern int getpeercon(int fd, char **con);
extern int getpeercon_raw(int fd, char **con);

extern union selinux_callback selinux_get_callback(int type);
extern void selinux_set_callback(int type, union selinux_callback cb);

extern int security_compute_av(const char *scon, const char *tcon,
			       security_class_t tclass,
			       access_vector_t requested,
			       struct av_decision *avd);
extern int security_compute_av_raw(const char *scon, const char *tcon,
				   security_class_t tclass,
				   access_vector_t requested,
				   struct av_decision *avd);
extern int security_compute_av_flags(const char *scon, const char *tcon,
				     security_class_t tclass,
				     access_vector_t requested,
				     struct av_decision *avd);
extern int security_compute_av_flags_raw(const char *scon, const char *tcon,
					 security_class_t tclass,
					 access_vector_t requested,
					 struct av_decision *avd);
extern int security_compute_create(const char *scon, const char *tcon,
				   security_class_t tclass, char **newcon);
extern int security_compute_create_raw(const char *scon, const char *tcon,
				       security_class_t tclass,
				       char **newcon);
extern int security_compute_create_name(const char *scon, const char *tcon,
					security_class_t tclass,
					const char *objname, char **newcon);
extern int security_compute_create_name_raw(const char *scon,
					    const char *tcon,
					    security_class_t tclass,
					    const char *objname,
					    char **newcon);
extern int security_compute_relabel(const char *scon, const char *tcon,
				    security_class_t tclass, char **newcon);
extern int security_compute_relabel_raw(const char *scon, const char *tcon,
					security_class_t tclass,
					char **newcon);
extern int security_compute_member(const char *scon, const char *tcon,
				   security_class_t tclass, char **newcon);
extern int security_compute_member_raw(const char *scon, const char *tcon,
				       security_class_t tclass,
				       char **newcon);
extern int security_compute_user(const char *scon, const char *username,
				 char ***con);
extern int security_compute_user_raw(const char *scon, const char *username,
				     char ***con);
extern int security_validatetrans(const char *scon, const char *tcon,
				  security_class_t tclass,
				  const char *newcon);
extern int security_validatetrans_raw(const char *scon, const char *tcon,
				      security_class_t tclass,
				      const char *newcon);

extern int security_load_policy(void *data, size_t len);
extern int security_get_initial_context(const char *name, char **con);
extern int security_get_initial_context_raw(const char *name, char **con);
extern int selinux_mkload_policy(int preservebools);
extern int selinux_init_load_policy(int *enforce);
extern int security_set_boolean_list(size_t boolcnt, SELboolean *boollist,
				     int permanent);
extern int security_load_booleans(char *path);
extern int security_check_context(const char *con);
extern int security_check_context_raw(const char *con);
extern int security_canonicalize_context(const char *con, char **canoncon);
extern int security_canonicalize_context_raw(const char *con,
					     char **canoncon);
extern int security_getenforce(void);
extern int security_setenforce(int value);
extern int security_reject_unknown(void);
extern int security_deny_unknown(void);
extern int security_get_checkreqprot(void);
extern int security_disable(void);
extern int security_policyvers(void);
extern int security_get_boolean_names(char ***names, int *len);
extern int security_get_boolean_pending(const char *name);
extern int security_get_boolean_active(const char *name);
extern int security_set_boolean(const char *name, int value);
extern int security_commit_booleans(void);

extern int selinux_set_mapping(struct security_class_mapping *map);
extern security_class_t mode_to_security_class(mode_t mode);
extern security_class_t string_to_security_class(const char *name);
extern const char *security_class_to_string(security_class_t cls);
extern const char *security_av_perm_to_string(security_class_t tclass,
					      access_vector_t perm);
extern access_vector_t string_to_av_perm(security_class_t tclass,
					 const char *name);
extern int security_av_string(security_class_t tclass, access_vector_t av,
			      char **result);
extern void print_access_vector(security_class_t tclass, access_vector_t av);
extern void selinux_flush_class_cache(void);

extern void set_matchpathcon_flags(unsigned int flags);
extern int matchpathcon_init(const char *path);
extern int matchpathcon_init_prefix(const char *path, const char *prefix);
extern void matchpathcon_fini(void);
extern int realpath_not_final(const char *name, char *resolved_path);
extern int matchpathcon(const char *path, mode_t mode, char **con);
extern int matchpathcon_index(const char *path, mode_t mode, char **con);
extern int matchpathcon_filespec_add(ino_t ino, int specind, const char *file);
extern void matchpathcon_filespec_destroy(void);
extern void matchpathcon_filespec_eval(void);
extern void matchpathcon_checkmatches(char *str);
extern int matchmediacon(const char *media, char **con);

extern int selinux_getenforcemode(int *enforce);
extern char *selinux_boolean_sub(const char *boolean_name);
extern int selinux_getpolicytype(char **policytype);
extern const char *selinux_policy_root(void);
extern int selinux_set_policy_root(const char *rootpath);
extern const char *selinux_current_policy_path(void);
extern const char *selinux_binary_policy_path(void);
extern const char *selinux_failsafe_context_path(void);
extern const char *selinux_removable_context_path(void);
extern const char *selinux_default_context_path(void);
extern const char *selinux_user_contexts_path(void);
extern const char *selinux_file_context_path(void);
extern const char *selinux_file_context_homedir_path(void);
extern const char *selinux_file_context_local_path(void);
extern const char *selinux_file_context_subs_path(void);
extern const char *selinux_file_context_subs_dist_path(void);
extern const char *selinux_homedir_context_path(void);
extern const char *selinux_media_context_path(void);
extern const char *selinux_virtual_domain_context_path(void);
extern const char *selinux_virtual_image_context_path(void);
extern const char *selinux_lxc_contexts_path(void);
extern const char *selinux_x_context_path(void);
extern const char *selinux_sepgsql_context_path(void);
extern const char *selinux_openrc_contexts_path(void);
extern const char *selinux_openssh_contexts_path(void);
extern const char *selinux_snapperd_contexts_path(void);
extern const char *selinux_systemd_contexts_path(void);
extern const char *selinux_contexts_path(void);
extern const char *selinux_securetty_types_path(void);
extern const char *selinux_booleans_subs_path(void);
extern const char *selinux_booleans_path(void);
extern const char *selinux_customizable_types_path(void);
extern const char *selinux_users_path(void);
extern const char *selinux_usersconf_path(void);
extern const char *selinux_translations_path(void);
extern const char *selinux_colors_path(void);
extern const char *selinux_netfilter_context_path(void);
extern const char *selinux_default_type_path(void);
extern const char *selinux_path(void);

extern void set_selinuxmnt(const char *mnt);
extern int selinuxfs_exists(void);
extern void fini_selinuxmnt(void);

extern int selinux_trans_to_raw_context(const char *trans, char **rawp);
extern int selinux_raw_to_trans_context(const char *raw, char **transp);
extern int selinux_file_context_cmp(const char *a, const char *b);
extern int selinux_file_context_verify(const char *path, mode_t mode);
extern int selinux_lsetfilecon_default(const char *path);
extern void selinux_reset_config(void);

extern int selinux_check_access(const char *scon, const char *tcon,
				const char *tclass, const char *perm,
				void *auditdata);
extern int selinux_check_passwd_access(access_vector_t requested);
extern int checkPasswdAccess(access_vector_t requested);

/* ------------------------------------------------------------------ */
/* Functions (avc.h)                                                  */
/* ------------------------------------------------------------------ */

extern int avc_sid_to_context(security_id_t sid, char **ctx);
extern int avc_sid_to_context_raw(security_id_t sid, char **ctx);
extern int avc_context_to_sid(const char *ctx, security_id_t *sid);
extern int avc_context_to_sid_raw(const char *ctx, security_id_t *sid);
extern int sidget(security_id_t sid);
extern int sidput(security_id_t sid);
extern int avc_get_initial_sid(const char *name, security_id_t *sid);
extern int avc_init(const char *msgprefix,
		    const struct avc_memory_callback *mem_callbacks,
		    const struct avc_log_callback *log_callbacks,
		    const struct avc_thread_callback *thread_callbacks,
		    const struct avc_lock_callback *lock_callbacks);
extern int avc_open(struct selinux_opt *opts, unsigned nopts);
extern void avc_cleanup(void);
extern int avc_reset(void);
extern void avc_destroy(void);
extern int avc_has_perm_noaudit(security_id_t ssid, security_id_t tsid,
				security_class_t tclass,
				access_vector_t requested,
				struct avc_entry_ref *aeref,
				struct av_decision *avd);
extern int avc_has_perm(security_id_t ssid, security_id_t tsid,
			security_class_t tclass, access_vector_t requested,
			struct avc_entry_ref *aeref, void *auditdata);
extern void avc_audit(security_id_t ssid, security_id_t tsid,
		      security_class_t tclass, access_vector_t requested,
		      struct av_decision *avd, int result, void *auditdata);
extern int avc_compute_create(security_id_t ssid, security_id_t tsid,
			      security_class_t tclass, security_id_t *newsid);
extern int avc_compute_member(security_id_t ssid, security_id_t tsid,
			      security_class_t tclass, security_id_t *newsid);
extern void avc_av_stats(void);
extern void avc_sid_stats(void);
extern int avc_netlink_open(int blocking);
extern void avc_netlink_loop(void);
extern void avc_netlink_close(void);

extern int selinux_status_open(int fallback);
extern void selinux_status_close(void);
extern int selinux_status_updated(void);
extern int selinux_status_getenforce(void);
extern int selinux_status_policyload(void);
extern int selinux_status_deny_unknown(void);

/* ------------------------------------------------------------------ */
/* Functions (context.h): parameters unnamed, as in the reference     */
/* ------------------------------------------------------------------ */

extern context_t context_new(const char *);
extern const char *context_str(context_t);
extern void context_free(context_t);
extern const char *context_type_get(context_t);
extern const char *context_range_get(context_t);
extern const char *context_role_get(context_t);
extern const char *context_user_get(context_t);
extern int context_type_set(context_t, const char *);
extern int context_range_set(context_t, const char *);
extern int context_role_set(context_t, const char *);
extern int context_user_set(context_t, const char *);

/* ------------------------------------------------------------------ */
/* Functions (label.h)                                                */
/* ------------------------------------------------------------------ */

extern struct selabel_handle *selabel_open(unsigned int backend,
					   const struct selinux_opt *opts,
					   unsigned nopts);
extern void selabel_close(struct selabel_handle *handle);
extern int selabel_lookup(struct selabel_handle *handle, char **con,
			  const char *key, int type);
extern int selabel_lookup_raw(struct selabel_handle *handle, char **con,
			      const char *key, int type);
extern bool selabel_partial_match(struct selabel_handle *handle,
				  const char *key);
extern bool selabel_get_digests_all_partial_matches(struct selabel_handle *rec,
						    const char *key,
						    unsigned char **calculated_digest,
						    unsigned char **xattr_digest,
						    size_t *digest_len);
extern bool selabel_hash_all_partial_matches(struct selabel_handle *rec,
					     const char *key,
					     unsigned char *digest);
extern int selabel_lookup_best_match(struct selabel_handle *rec, char **con,
				     const char *key, const char **aliases,
				     int type);
extern int selabel_lookup_best_match_raw(struct selabel_handle *rec,
					 char **con, const char *key,
					 const char **aliases, int type);
extern int selabel_digest(struct selabel_handle *rec, unsigned char **digest,
			  size_t *digest_len, char ***specfiles,
			  size_t *num_specfiles);
extern enum selabel_cmp_result selabel_cmp(struct selabel_handle *h1,
					   struct selabel_handle *h2);
extern void selabel_stats(struct selabel_handle *handle);

/* ------------------------------------------------------------------ */
/* get_context_list.h, get_default_type.h: the login layer            */
/* ------------------------------------------------------------------ */

extern int get_ordered_context_list(const char *user, const char *fromcon,
				    char ***list);
extern int get_ordered_context_list_with_level(const char *user,
					       const char *level,
					       const char *fromcon,
					       char ***list);
extern int get_default_context(const char *user, const char *fromcon,
			       char **newcon);
extern int get_default_context_with_level(const char *user, const char *level,
					  const char *fromcon, char **newcon);
extern int get_default_context_with_role(const char *user, const char *role,
					 const char *fromcon, char **newcon);
extern int get_default_context_with_rolelevel(const char *user,
					      const char *role,
					      const char *level,
					      const char *fromcon,
					      char **newcon);
extern int query_user_context(char **list, char **newcon);
extern int manual_user_enter_context(const char *user, char **newcon);
extern int get_default_type(const char *role, char **type);
extern int getseuserbyname(const char *linuxuser, char **seuser, char **level);
extern int getseuser(const char *username, const char *service,
		     char **r_seuser, char **r_level);
extern int is_context_customizable(const char *scontext);
extern int selinux_check_securetty_context(const char *tty_context);
extern int selinux_raw_context_to_color(const char *raw, char **color_str);
extern int setexecfilecon(const char *filename, const char *fallback_type);

/* ------------------------------------------------------------------ */
/* restorecon.h                                                       */
/* ------------------------------------------------------------------ */

struct dir_xattr {
	char *directory;
	char *digest;
	int result;
	struct dir_xattr *next;
};

extern int selinux_restorecon(const char *pathname,
			      unsigned int restorecon_flags);
extern int selinux_restorecon_parallel(const char *pathname,
				       unsigned int restorecon_flags,
				       size_t nthreads);
extern void selinux_restorecon_set_sehandle(struct selabel_handle *hndl);
extern struct selabel_handle *selinux_restorecon_default_handle(void);
extern void selinux_restorecon_set_exclude_list(const char **exclude_list);
extern int selinux_restorecon_set_alt_rootpath(const char *alt_rootpath);
extern int selinux_restorecon_xattr(const char *pathname,
				    unsigned int xattr_flags,
				    struct dir_xattr ***xattr_list);
extern long selinux_restorecon_get_skipped_errors(void);

/* selabel_lookup_explain(): our extension, in a file of its own */
%include "explain.i"

/* ------------------------------------------------------------------ */
/* Python helpers                                                     */
/* ------------------------------------------------------------------ */

%pythoncode %{
DISABLED = -1
PERMISSIVE = 0
ENFORCING = 1
%}

%pythoncode "helpers.py"
