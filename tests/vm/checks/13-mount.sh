# Where the library finds selinuxfs, and what it says without it:
# selinuxfs_exists, set_selinuxmnt, fini_selinuxmnt.
. /vm/lib.sh

agree selinuxfs_exists "selinuxfs_exists = 1" vmprobe fsexists
# Pointed elsewhere: nothing answers there.  is_selinux_enabled looks
# only at whether a mount point is set; security_policyvers falls back to
# policy version 15 when policyvers cannot be read (both as the
# reference does).
agree set_selinuxmnt-elsewhere "is_selinux_enabled = 1
is_selinux_mls_enabled = 0
security_getenforce = -1 errno=ENOENT
security_policyvers = 15
security_deny_unknown = -1 errno=ENOENT
security_reject_unknown = -1 errno=ENOENT
security_get_checkreqprot = -1 errno=ENOENT
selinux_mnt = /nonexistent" vmprobe mnt /nonexistent kernel
# pointed back at the real one
agree set_selinuxmnt-back "is_selinux_enabled = 1
is_selinux_mls_enabled = $MLS
security_getenforce = 1
security_policyvers = 33
security_deny_unknown = $DENY_UNKNOWN
security_reject_unknown = $REJECT_UNKNOWN
security_get_checkreqprot = 0
selinux_mnt = /sys/fs/selinux" vmprobe nomnt mnt /sys/fs/selinux kernel
same fini_selinuxmnt vmprobe nomnt kernel
