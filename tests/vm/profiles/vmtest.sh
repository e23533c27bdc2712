# Facts of tests/vm/policy/vmtest.conf, written by hand from its source.
# Sourced inside the VM by guest/lib.sh (and by run-vm.sh for POLICYTYPE).
# A check that needs a variable this file does not set is skipped.

# /etc/selinux/config's SELINUXTYPE and the checks' view of the policy
POLICYTYPE=vmtest
MLS=0
DENY_UNKNOWN=0		# compiled with -U allow
REJECT_UNKNOWN=0
# capability2 is not declared, so -U allow grants mac_admin: the kernel
# accepts invalid file contexts (fscreate, setxattr) from root as they are
MAC_ADMIN=1

# the context the checks run in: the kernel initial SID
KERNEL_CON=system_u:system_r:kernel_t
# pid 1 is the kernel's first task, same SID
INIT_CON=system_u:system_r:kernel_t

# A file of type ENTRY_FILE_CON run from KERNEL_CON enters AUTO_DOMAIN
# (type_transition kernel_t probe_exec_t:process probe_t); with setexeccon
# EXEC_DOMAIN it enters that instead.  Both keep noatsecure (kernel_t has
# every process permission), so LD_LIBRARY_PATH survives the exec.
ENTRY_FILE_CON=system_u:object_r:probe_exec_t
AUTO_DOMAIN=system_u:system_r:probe_t
EXEC_DOMAIN=system_u:system_r:other_t
# not a valid context (user_u has no system_r): setexeccon fails EINVAL
EXEC_INVALID=user_u:system_r:other_t
# other_t's only entrypoint is probe_exec_t: running a root_t file (the
# initramfs' busybox) in it fails with EACCES
EXEC_DOMAIN_NO_ROOT_ENTRY=1

# New files in /tmp (tmpfs: fs_use_trans tmp_t) made by KERNEL_CON
TMP_FILE_CON=system_u:object_r:tmp_t
# type_transition kernel_t tmp_t:file etc_t "passwd"
NAMED_FILE=passwd
NAMED_FILE_CON=system_u:object_r:etc_t
# made by AUTO_DOMAIN: type_transition probe_t tmp_t:file probe_tmp_t
AUTO_TMP_FILE_CON=system_u:object_r:probe_tmp_t
# AUTO_DOMAIN lacks process setfscreate
AUTO_DOMAIN_NO_FSCREATE=1
# AUTO_DOMAIN lacks security setenforce
AUTO_DOMAIN_NO_SETENFORCE=1
# AUTO_DOMAIN has dyntransition only to itself: setcon to KERNEL_CON fails
AUTO_DOMAIN_NO_DYNTRANSITION=1

# a boolean, false in the policy (if (probe_write_etc) ...)
BOOL_NAME=probe_write_etc

# type_change probe_t tmp_t:file label_a_t; type_member probe_t tmp_t:dir
RELABEL_CON=system_u:object_r:label_a_t
MEMBER_CON=system_u:object_r:label_b_t

# labels a check may set on a tmpfs file
LABEL_A=system_u:object_r:label_a_t
LABEL_B=system_u:object_r:label_b_t
# kernel_t lacks relabelto on it: EACCES
LABEL_NO_RELABELTO=system_u:object_r:noreloc_t
# validatetrans: to etc_t only from label_a_t, so LABEL_B -> it is EPERM
VALIDATETRANS_TO=system_u:object_r:etc_t

# contexts security_check_context accepts and refuses
VALID_CONS="system_u:object_r:etc_t user_u:user_r:probe_t staff_u:system_r:other_t root:user_r:other_t"
# unknown type; role not for that user; type not in that role; no type;
# a level on a non-MLS policy; not a context at all
INVALID_CONS="system_u:object_r:no_such_t user_u:system_r:probe_t user_u:user_r:kernel_t system_u:object_r system_u:object_r:etc_t:s0 hello"
# canonicalization: "IN=>OUT" pairs (non-MLS: nothing to reorder)
CANON_PAIRS="system_u:object_r:etc_t=>system_u:object_r:etc_t"

# Raw selinuxfs answers (checks/45-selinuxfs.sh): NAME|OP|ARG|WANT.
# Class values are the order of declaration (security 1 ... file 6, dir 7,
# key 16); a permission's value is its bit + 1: file's common perms take
# 0..24, then execute_no_trans 25, entrypoint 26.  access answers
# "allowed decided auditallow auditdeny seqno flags" in hex (seqno in
# decimal): the first load is seqno 1, each boolean commit adds one.
# "allow ... *" grants all 32 bits, not only the declared permissions.
# Context answers end in the NUL; "user" answers "N\0" and N contexts, in
# the order of the binary's role and type values (checkpolicy numbers
# them itself: user_r before system_r, probe_t before kernel_t before
# other_t), keeping those kernel_t may transition to.  validatetrans takes
# "oldcon newcon class taskcon" and answers with the write's status.
K=system_u:system_r:kernel_t
P=system_u:system_r:probe_t
ETC=system_u:object_r:etc_t
TMP=system_u:object_r:tmp_t
SEC=system_u:object_r:security_t
SFS_FACTS="
enforce|read|enforce|1
policyvers|read|policyvers|33
mls|read|mls|0
deny_unknown|read|deny_unknown|0
reject_unknown|read|reject_unknown|0
checkreqprot|read|checkreqprot|0
class-file-index|read|class/file/index|6
class-key-index|read|class/key/index|16
perm-file-read|read|class/file/perms/read|2
perm-file-entrypoint|read|class/file/perms/entrypoint|27
perm-dir-search|read|class/dir/perms/search|29
initial-kernel|read|initial_contexts/kernel|$K\x00
initial-devnull|read|initial_contexts/devnull|system_u:object_r:null_device_t\x00
bool|read|booleans/probe_write_etc|0 0
access-kernel-security|access|$K $SEC 1|ffffffff ffffffff 0 ffffffff 1 0
access-probe-security|access|$P $SEC 1|106f ffffffff 0 ffffffff 1 0
access-probe-etc-file|access|$P $ETC 6|40012 ffffffff 2 fffffffb 1 0
access-probe-kernel-process|access|$P $K 2|4 ffffffff 0 ffffffff 1 0
create-type-transition|create|$P $TMP 6|system_u:object_r:probe_tmp_t\x00
create-named|create|$K $TMP 6 passwd|$ETC\x00
create-named-other-name|create|$K $TMP 6 shadow|$TMP\x00
create-process|create|$K system_u:object_r:probe_exec_t 2|$P\x00
relabel-type-change|relabel|$P $TMP 6|system_u:object_r:label_a_t\x00
relabel-none|relabel|$K $TMP 6|$TMP\x00
member-type-member|member|$P $TMP 7|system_u:object_r:label_b_t\x00
user-staff-from-kernel|user|$K staff_u|5\x00staff_u:user_r:probe_t\x00staff_u:user_r:other_t\x00staff_u:system_r:probe_t\x00staff_u:system_r:kernel_t\x00staff_u:system_r:other_t\x00
user-staff-from-probe-constrained|user|$P staff_u|0\x00
context-valid|context|$ETC|$ETC\x00
context-invalid|context|system_u:object_r:no_such_t|!write:EINVAL
validatetrans-denied|validatetrans|system_u:object_r:label_b_t $ETC 6 $K|!write:EPERM
validatetrans-allowed|validatetrans|system_u:object_r:label_a_t $ETC 6 $K|ok
bool-set|write|booleans/probe_write_etc 1|ok
bool-pending|read|booleans/probe_write_etc|0 1
bool-commit|write|commit_pending_bools 1|ok
bool-committed|read|booleans/probe_write_etc|1 1
access-after-commit|access|$P $ETC 6|40216 ffffffff 2 fffffffb 2 0
bool-reset|write|booleans/probe_write_etc 0|ok
bool-commit-reset|write|commit_pending_bools 1|ok
access-after-reset|access|$P $ETC 6|40012 ffffffff 2 fffffffb 3 0
"

# The library's view of the same decisions (checks/60-compute.sh).
CLASS_VALUES="security=1 process=2 file=6 dir=7"
# vmcompute class file read getattr entrypoint no_such_perm
CLASS_MAPPING_FACT="string_to_security_class(file) = 6
security_class_to_string(6) = file
string_to_av_perm(read) = 2
string_to_av_perm(getattr) = 10
string_to_av_perm(entrypoint) = 4000000
string_to_av_perm(no_such_perm) = 0"
# S|T|CLASS|PERMS|requested|allowed|auditallow|auditdeny, in hex; the
# requested bits are the permission values' bits (read 1<<1, write 1<<2,
# getattr 1<<4, open 1<<18; process sigchld 1<<2, transition 1<<1)
AV_FACTS="
$P|$ETC|file|read,write,getattr,open|40016|40012|2|fffffffb
$P|$SEC|security|compute_av,setenforce|81|106f|0|ffffffff
$P|$K|process|sigchld,transition|6|4|0|ffffffff
$K|$SEC|security|setenforce|80|ffffffff|0|ffffffff
"
# security_compute_user from KERNEL_CON, in the kernel's order (45's user
# fact); the library lists one context a line, after the warning its
# default log callback writes to stderr
USER_FACT_USER=staff_u
USER_FACT="Direct use of security_compute_user() is deprecated, switch to get_ordered_context_list()
security_compute_user = 0
  staff_u:user_r:probe_t
  staff_u:user_r:other_t
  staff_u:system_r:probe_t
  staff_u:system_r:kernel_t
  staff_u:system_r:other_t"
# checks/60-compute.sh: a permission the policy denies (avc_has_perm)
AVC_DENIED="$P|$ETC|file|write"
# checks/62-avc-audit.sh: a permission the policy denies and audits (no
# dontaudit rule: AVC_DENIED's are silent)
AVC_AUDITED="$P|$SEC|security|setenforce"
