# The kernel's status files through the library: is_selinux_enabled,
# is_selinux_mls_enabled, security_getenforce, security_policyvers,
# security_deny_unknown, security_reject_unknown, security_get_checkreqprot.
. /vm/lib.sh

# checkreqprot: Debian's kernel has CONFIG_SECURITY_SELINUX_CHECKREQPROT_VALUE=0
agree kernel-status "is_selinux_enabled = 1
is_selinux_mls_enabled = $MLS
security_getenforce = 1
security_policyvers = 33
security_deny_unknown = $DENY_UNKNOWN
security_reject_unknown = $REJECT_UNKNOWN
security_get_checkreqprot = 0
selinux_mnt = /sys/fs/selinux" vmprobe kernel
