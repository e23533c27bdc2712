/* avc/audit.c: avc_audit, the kernel's "avc:  denied  { ... }" message. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The message is built in a buffer of our own per call (no shared buffer,
 * so no log lock); a longer one is cut, as the kernel's would be. */
#define AUDIT_BUFSIZE 4096

struct msg {
	char buf[AUDIT_BUFSIZE];
	size_t len;
};

static void append(struct msg *m, const char *fmt, ...) _printf_(2, 3);

static void append(struct msg *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->len >= sizeof(m->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, sizeof(m->buf) - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len += (size_t)n;
	if (m->len > sizeof(m->buf) - 1)
		m->len = sizeof(m->buf) - 1;
}

/* " { read write }", a bit without a name in hex, " null" for none. */
static void append_perms(struct msg *m, security_class_t tclass,
			 access_vector_t av)
{
	if (!av) {
		append(m, " null");
		return;
	}
	append(m, " {");
	for (access_vector_t bit = 1; av && bit; bit <<= 1) {
		const char *name;

		if (!(av & bit))
			continue;
		name = security_av_perm_to_string(tclass, bit);
		if (!name)
			break;
		append(m, " %s", name);
		av &= ~bit;
	}
	if (av)
		append(m, " 0x%x", av);
	append(m, " }");
}

static void supplementary(struct msg *m, void *auditdata,
			  security_class_t tclass)
{
	size_t room = sizeof(m->buf) - m->len;

	if (room <= 1)
		return;
	m->buf[m->len] = '\0';
	if (cache_avc.log.func_audit)
		cache_avc.log.func_audit(auditdata, tclass, m->buf + m->len,
					 room);
	else
		core_audit(auditdata, tclass, m->buf + m->len, room);
	m->buf[sizeof(m->buf) - 1] = '\0';
	m->len += strlen(m->buf + m->len);
}

/*
 * What is logged, as the kernel's avc_audit decides it: denied
 * permissions that auditdeny covers; for a success, granted ones that
 * auditallow covers; a failure with nothing denied (an error, or nothing
 * requested) logs everything requested as denied.
 */
_public_ void avc_audit(security_id_t ssid, security_id_t tsid,
			security_class_t tclass, access_vector_t requested,
			struct av_decision *avd, int result, void *auditdata)
{
	access_vector_t denied, audited;
	const char *cls;
	struct msg m;
	int saved = errno;

	if (!avd || !ssid || !tsid)
		return;
	denied = requested & ~avd->allowed;
	if (denied)
		audited = denied & avd->auditdeny;
	else if (!requested || result)
		audited = denied = requested;
	else
		audited = requested & avd->auditallow;
	if (!audited)
		return;

	m.len = 0;
	m.buf[0] = '\0';
	append(&m, "%s:  %s ", cache_avc.prefix,
	       denied || !requested ? "denied" : "granted");
	/* The names are the class cache's, which another thread's policy
	 * load may flush: held while they are copied into the message. */
	comp_names_hold();
	append_perms(&m, tclass, audited);
	comp_names_release();
	append(&m, " for ");
	supplementary(&m, auditdata, tclass);
	append(&m, " scontext=%s tcontext=%s", ssid->ctx, tsid->ctx);
	comp_names_hold();
	cls = security_class_to_string(tclass);
	append(&m, " tclass=%s", cls ? cls : "(null)");
	comp_names_release();
	if (denied)
		append(&m, " permissive=%u", result ? 0 : 1);
	append(&m, "\n");
	if (!cache_audit_send(m.buf))
		cache_log(SELINUX_AVC, "%s", m.buf);
	errno = saved;
}
