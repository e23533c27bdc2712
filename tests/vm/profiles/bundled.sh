# Facts of the bundled policy (kernel/policy/bundled.conf.in, non-MLS),
# written by hand from its source.  Sourced inside the VM by guest/lib.sh
# (and by run-vm.sh for POLICYTYPE).  A check that needs a variable this
# file does not set is skipped; the server comparison (35-server.sh) asks
# every (source, target, class) of the policy either way.
POLICYTYPE=bundled
# the server comparison: about this many queries of each kind (a sample:
# the whole product of types and classes is far larger)
SERVER_QUERIES=30000
# its /etc/selinux tree (file_contexts, seusers, ...), from the build
POLICY_TREE=kernel/policy/root/etc/selinux/bundled
MLS=0
DENY_UNKNOWN=1		# compiled with -U deny
REJECT_UNKNOWN=0
# unconfined_domain (kernel_t) has self:capability2 *, mac_admin included
MAC_ADMIN=1

# sid kernel system_u:system_r:kernel_t; the guest runs as it
KERNEL_CON=system_u:system_r:kernel_t
INIT_CON=$KERNEL_CON

# type_transition kernel_t init_exec_t:process init_t; with setexeccon the
# program enters EXEC_DOMAIN instead (kernel_t may change user and role,
# system_r may become unconfined_r); both keep noatsecure (unconfined)
ENTRY_FILE_CON=system_u:object_r:init_exec_t
AUTO_DOMAIN=system_u:system_r:init_t
EXEC_DOMAIN=root:unconfined_r:unconfined_t
# user_u's only role is user_r
EXEC_INVALID=user_u:system_r:init_t

# fs_use_trans tmpfs tmpfs_t; kernel_t has no type_transition on tmpfs_t
TMP_FILE_CON=system_u:object_r:tmpfs_t
# file types (file_type: associate with tmpfs_t) kernel_t relabels freely
LABEL_A=system_u:object_r:etc_t
LABEL_B=system_u:object_r:tmp_t

# a boolean, false in the policy (if (ssh_sysadm_login) ...)
BOOL_NAME=ssh_sysadm_login
# every boolean, in the kernel's order (the binary's, by name)
BOOL_LIST="  allow_user_exec_tmp active=1 pending=1
  ssh_sysadm_login active=0 pending=0"

VALID_CONS="system_u:object_r:etc_t user_u:user_r:user_t staff_u:sysadm_r:sysadm_t root:unconfined_r:unconfined_t"
# unknown type; role not for that user; type not in that role; no type;
# a level on a non-MLS policy; not a context at all
INVALID_CONS="system_u:object_r:no_such_t user_u:system_r:sshd_t user_u:user_r:sshd_t system_u:object_r system_u:object_r:etc_t:s0 hello"
CANON_PAIRS="system_u:object_r:etc_t=>system_u:object_r:etc_t"

# Raw selinuxfs answers (checks/45-selinuxfs.sh): NAME|OP|ARG|WANT.
# Classes are numbered in declaration order (security 1, process 2,
# file 6, dir 7, chr_file 10); a permission's value is its bit + 1 (file:
# ioctl 1, read 2, write 3, getattr 5, setattr 6, lock 7, map 11, open 19,
# then execute_no_trans 26, entrypoint 27).  The first load is seqno 1,
# each boolean commit adds one.
K=system_u:system_r:kernel_t
S=system_u:system_r:sshd_t
U=user_u:user_r:user_t
ETC=system_u:object_r:etc_t
SH=system_u:object_r:shadow_t
TMP=system_u:object_r:tmp_t
SFS_FACTS="
policyvers|read|policyvers|33
mls|read|mls|0
deny_unknown|read|deny_unknown|1
reject_unknown|read|reject_unknown|0
class-file-index|read|class/file/index|6
class-chr_file-index|read|class/chr_file/index|10
perm-file-read|read|class/file/perms/read|2
perm-file-open|read|class/file/perms/open|19
perm-file-entrypoint|read|class/file/perms/entrypoint|27
perm-dir-search|read|class/dir/perms/search|29
initial-kernel|read|initial_contexts/kernel|$K\x00
initial-devnull|read|initial_contexts/devnull|system_u:object_r:null_device_t\x00
bool-ssh|read|booleans/ssh_sysadm_login|0 0
bool-exec-tmp|read|booleans/allow_user_exec_tmp|1 1
access-sshd-etc|access|$S $ETC 6|40453 ffffffff 0 ffffffdb 1 0
access-sshd-shadow|access|$S $SH 6|40012 ffffffff 2 ffffffff 1 0
access-user-shadow|access|$U $SH 6|0 ffffffff 0 fffbffed 1 0
access-sshd-sysadm|access|$S staff_u:sysadm_r:sysadm_t 2|0 ffffffff 0 ffffffff 1 0
create-process|create|system_u:system_r:init_t system_u:object_r:sshd_exec_t 2|$S\x00
create-type-transition|create|$S $TMP 6|system_u:object_r:sshd_tmp_t\x00
create-named|create|$S $TMP 6 sshd.pid|system_u:object_r:sshd_pid_t\x00
member-type-member|member|$U $TMP 7|system_u:object_r:user_tmp_t\x00
relabel-type-change|relabel|$U system_u:object_r:devpts_t 10|user_u:object_r:user_devpts_t\x00
user-staff-from-sshd|user|$S staff_u|1\x00staff_u:staff_r:staff_t\x00
context-valid|context|$ETC|$ETC\x00
context-invalid|context|system_u:object_r:no_such_t|!write:EINVAL
validatetrans-denied|validatetrans|$ETC $SH 6 $U|!write:EPERM
validatetrans-allowed|validatetrans|$ETC $SH 6 $K|ok
bool-set|write|booleans/ssh_sysadm_login 1|ok
bool-pending|read|booleans/ssh_sysadm_login|0 1
bool-commit|write|commit_pending_bools 1|ok
bool-committed|read|booleans/ssh_sysadm_login|1 1
access-after-commit|access|$S staff_u:sysadm_r:sysadm_t 2|580046 ffffffff 0 ffffffff 2 0
bool-reset|write|booleans/ssh_sysadm_login 0|ok
bool-commit-reset|write|commit_pending_bools 1|ok
access-after-reset|access|$S staff_u:sysadm_r:sysadm_t 2|0 ffffffff 0 ffffffff 3 0
"

# The library's view of the same decisions (checks/60-compute.sh).
CLASS_VALUES="security=1 process=2 file=6 dir=7"
CLASS_MAPPING_FACT="string_to_security_class(file) = 6
security_class_to_string(6) = file
string_to_av_perm(read) = 2
string_to_av_perm(getattr) = 10
string_to_av_perm(entrypoint) = 4000000
string_to_av_perm(no_such_perm) = 0"
# S|T|CLASS|PERMS|requested|allowed|auditallow|auditdeny, in hex
AV_FACTS="
$S|$ETC|file|read,write,getattr,open|40016|40453|0|ffffffdb
$S|$SH|file|read|2|40012|2|ffffffff
$U|$SH|file|read,getattr|12|0|0|fffbffed
"
# checks/60-compute.sh: a permission the policy denies (avc_has_perm)
AVC_DENIED="$S|$ETC|file|write"
# checks/62-avc-audit.sh: a permission the policy denies and audits (no
# dontaudit rule: AVC_DENIED's are silent)
AVC_AUDITED="$U|system_u:object_r:security_t|security|setenforce"
