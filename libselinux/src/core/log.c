/* core/log.c: the callbacks through which the library logs and reports. */
#include <stdarg.h>
#include <stdio.h>

#include <selinux/selinux.h>

#include "internal.h"

static int default_log(int type _unused_, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	return 0;
}

static int default_audit(void *data _unused_, security_class_t cls _unused_,
			 char *buf _unused_, size_t len _unused_)
{
	return 0;
}

static int default_validate(char **ctx)
{
	return security_check_context(*ctx);
}

static int default_setenforce(int enforcing _unused_)
{
	return 0;
}

static int default_policyload(int seqno _unused_)
{
	return 0;
}

/*
 * The installed callbacks.  Like the established library, these are plain
 * pointers with no lock: selinux_set_callback() is meant to be called
 * during start-up, before threads exist (documented in selinux.h).
 */
static int (*log_cb)(int, const char *, ...) = default_log;
static int (*audit_cb)(void *, security_class_t, char *, size_t) =
	default_audit;
static int (*validate_cb)(char **) = default_validate;
static int (*setenforce_cb)(int) = default_setenforce;
static int (*policyload_cb)(int) = default_policyload;

_public_ void selinux_set_callback(int type, union selinux_callback cb)
{
	switch (type) {
	case SELINUX_CB_LOG:
		log_cb = cb.func_log;
		break;
	case SELINUX_CB_AUDIT:
		audit_cb = cb.func_audit;
		break;
	case SELINUX_CB_VALIDATE:
		validate_cb = cb.func_validate;
		break;
	case SELINUX_CB_SETENFORCE:
		setenforce_cb = cb.func_setenforce;
		break;
	case SELINUX_CB_POLICYLOAD:
		policyload_cb = cb.func_policyload;
		break;
	default:
		break;
	}
}

_public_ union selinux_callback selinux_get_callback(int type)
{
	union selinux_callback cb = { 0 };

	switch (type) {
	case SELINUX_CB_LOG:
		cb.func_log = log_cb;
		break;
	case SELINUX_CB_AUDIT:
		cb.func_audit = audit_cb;
		break;
	case SELINUX_CB_VALIDATE:
		cb.func_validate = validate_cb;
		break;
	case SELINUX_CB_SETENFORCE:
		cb.func_setenforce = setenforce_cb;
		break;
	case SELINUX_CB_POLICYLOAD:
		cb.func_policyload = policyload_cb;
		break;
	default:
		break;
	}
	return cb;
}

/*
 * Every message of the library goes through here, never to stderr.
 * Formatted once (the callback gets "%s"), on the stack when it fits; a
 * longer one (a file_contexts line of 100 KiB quoted back) is allocated
 * rather than cut, as the established library passes it whole.
 */
void core_log(int type, const char *fmt, ...)
{
	char msg[4096], *big = NULL;
	va_list ap;
	int saved = errno;

	if (!log_cb)
		return;
	va_start(ap, fmt);
	core_log_format(msg, sizeof(msg), &big, fmt, ap);
	va_end(ap);
	log_cb(type, "%s", big ? big : msg);
	free(big);
	errno = saved;
}

void core_log_format(char *buf, size_t size, char **big, const char *fmt,
		     va_list ap)
{
	va_list again;
	int n;

	*big = NULL;
	va_copy(again, ap);
	n = vsnprintf(buf, size, fmt, ap);
	if (n >= (int)size && vasprintf(big, fmt, again) < 0)
		*big = NULL; /* out of memory: the cut message */
	va_end(again);
}

void core_log_str(int type, const char *msg)
{
	int saved = errno;

	if (!log_cb)
		return;
	log_cb(type, "%s", msg);
	errno = saved;
}

int core_validate(char **ctx)
{
	int r;

	if (!validate_cb)
		return 0;
	r = validate_cb(ctx);
	return r < 0 ? -(errno ? errno : EINVAL) : 0;
}

/* The AVC and status layers call these when the kernel reports a change. */
int core_notify_setenforce(int enforcing)
{
	return setenforce_cb ? setenforce_cb(enforcing) : 0;
}

int core_notify_policyload(int seqno)
{
	return policyload_cb ? policyload_cb(seqno) : 0;
}

int core_audit(void *data, security_class_t cls, char *buf, size_t len)
{
	if (!audit_cb)
		return 0;
	return audit_cb(data, cls, buf, len);
}
