/* label/jit.c: may this process JIT-compile its regexes? */
#include <stdio.h>

#include "node.h"
#include "../../compute/internal.h"

/*
 * PCRE2's JIT maps anonymous memory writable and executable, which SELinux
 * checks as process:execmem.  Confined domains that link libselinux
 * mostly lack it (refpolicy: init_t, systemd_tmpfiles_t, udev_t ...): a
 * JIT attempt there logs an AVC denial at every handle, and the regex runs
 * interpreted anyway.  Debian's library never JITs, so a system booted on
 * ours would show denials the reference does not (found by the system
 * test, tests/system).  So: JIT only when the policy grants this process
 * execmem (asked without auditing, once per handle), or when there is no
 * SELinux to ask.
 */
bool lbl_jit_allowed(void)
{
	_cleanup_free_ char *con = NULL, *ans = NULL;
	access_vector_t execmem;
	unsigned int allowed;
	int kclass;

	if (!selinux_mnt)
		return true;
	if (core_procattr_get(0, "current", &con) < 0 || !con)
		return false;
	kclass = comp_class_value("process");
	if (kclass <= 0 || comp_perm_value(kclass, "execmem", &execmem) < 0)
		return false;
	/* The access file answers "allowed decided auditallow auditdeny
	 * seqno flags" and audits nothing: a query, not an access. */
	if (comp_query("access", &ans, "%s %s %d %x", con, con, kclass,
		       execmem) < 0 ||
	    sscanf(ans, "%x", &allowed) != 1)
		return false;
	return (allowed & execmem) != 0;
}
