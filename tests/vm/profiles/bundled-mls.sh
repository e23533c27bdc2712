# Facts of the bundled policy's MLS variant (kernel/policy/bundled.conf.in
# through gen.py --mls), written by hand from its source: sensitivities
# s0..s3, categories c0..c255; files are read at a dominated level and
# written at an equal one (mlsconstrain), mlsfile* types excepted.
POLICYTYPE=bundled-mls
# the server comparison: about this many queries of each kind (a sample:
# the whole product of types and classes is far larger)
SERVER_QUERIES=30000
# its /etc/selinux tree (file_contexts, seusers, ...), from the build
POLICY_TREE=kernel/policy/root/etc/selinux/bundled-mls
MLS=1
DENY_UNKNOWN=1		# compiled with -U deny
REJECT_UNKNOWN=0
MAC_ADMIN=1

# sid kernel system_u:system_r:kernel_t:s0 - s3:c0.c255
KERNEL_CON=system_u:system_r:kernel_t:s0-s3:c0.c255
INIT_CON=$KERNEL_CON

# type_transition kernel_t init_exec_t:process init_t; with setexeccon the
# program enters EXEC_DOMAIN instead (kernel_t may change user and role,
# system_r may become unconfined_r); both keep noatsecure (unconfined)
ENTRY_FILE_CON=system_u:object_r:init_exec_t:s0
AUTO_DOMAIN=system_u:system_r:init_t:s0-s3:c0.c255
EXEC_DOMAIN=root:unconfined_r:unconfined_t:s0
# user_u's only role is user_r
EXEC_INVALID=user_u:system_r:init_t:s0
# fs_use_trans tmpfs tmpfs_t:s0; a new file takes the creator's low level
TMP_FILE_CON=system_u:object_r:tmpfs_t:s0
LABEL_A=system_u:object_r:etc_t:s0
LABEL_B=system_u:object_r:tmp_t:s0
BOOL_NAME=ssh_sysadm_login
# every boolean, in the kernel's order (the binary's, by name)
BOOL_LIST="  allow_user_exec_tmp active=1 pending=1
  ssh_sysadm_login active=0 pending=0"

VALID_CONS="system_u:object_r:etc_t:s0 user_u:user_r:user_t:s0-s2:c0.c127 staff_u:staff_r:staff_t:s0-s3:c0.c255 system_u:object_r:etc_t:s3:c255"
# no level; above user_u's range (s0-s2:c0.c127); no such sensitivity;
# no such category; role not for that user; no such type
INVALID_CONS="system_u:object_r:etc_t user_u:user_r:user_t:s3 system_u:object_r:etc_t:s4 system_u:object_r:etc_t:s0:c256 user_u:system_r:sshd_t:s0 system_u:object_r:no_such_t:s0 hello"
# the kernel writes categories in order, a run of three or more as cX.cY,
# two as cX,cY, and a range whose ends are equal as one level
CANON_PAIRS="system_u:object_r:etc_t:s0:c1,c0=>system_u:object_r:etc_t:s0:c0,c1 system_u:object_r:etc_t:s0:c2,c0,c1=>system_u:object_r:etc_t:s0:c0.c2 system_u:object_r:etc_t:s0-s0=>system_u:object_r:etc_t:s0 system_u:object_r:etc_t:s1:c5-s1:c5=>system_u:object_r:etc_t:s1:c5"

# Raw selinuxfs answers (checks/45-selinuxfs.sh), numbered as in
# bundled.sh.  create/relabel/member of a file take the source's low
# level; a process the range_transition's (init_t sshd_exec_t: s0-s3:c0.c255).
K=$KERNEL_CON
S=system_u:system_r:sshd_t:s0
U=user_u:user_r:user_t:s0
ETC=system_u:object_r:etc_t:s0
SH=system_u:object_r:shadow_t:s0
TMP=system_u:object_r:tmp_t:s0
SFS_FACTS="
mls|read|mls|1
deny_unknown|read|deny_unknown|1
initial-kernel|read|initial_contexts/kernel|$K\x00
initial-devnull|read|initial_contexts/devnull|system_u:object_r:null_device_t:s0\x00
access-sshd-etc|access|$S $ETC 6|40453 ffffffff 0 ffffffdb 1 0
access-user-home-equal|access|$U user_u:object_r:user_home_t:s0 6|43fff ffffffff 0 ffffffff 1 0
access-user-home-above|access|$U user_u:object_r:user_home_t:s1 6|0 ffffffff 0 ffffffff 1 0
create-process|create|system_u:system_r:init_t:s0-s3:c0.c255 system_u:object_r:sshd_exec_t:s0 2|system_u:system_r:sshd_t:s0-s3:c0.c255\x00
create-type-transition|create|$S $TMP 6|system_u:object_r:sshd_tmp_t:s0\x00
create-named|create|$S $TMP 6 sshd.pid|system_u:object_r:sshd_pid_t:s0\x00
member-type-member|member|$U $TMP 7|system_u:object_r:user_tmp_t:s0\x00
relabel-type-change|relabel|$U system_u:object_r:devpts_t:s0 10|user_u:object_r:user_devpts_t:s0\x00
user-staff-from-sshd|user|$S staff_u|1\x00staff_u:staff_r:staff_t:s0\x00
context-canonical|context|system_u:object_r:etc_t:s0:c2,c0,c1|system_u:object_r:etc_t:s0:c0.c2\x00
context-no-level|context|system_u:object_r:etc_t|!write:EINVAL
validatetrans-denied|validatetrans|$ETC $SH 6 $U|!write:EPERM
"
CLASS_VALUES="security=1 process=2 file=6 dir=7"
AV_FACTS="
$S|$ETC|file|read,write,getattr,open|40016|40453|0|ffffffdb
$U|user_u:object_r:user_home_t:s1|file|read,getattr|12|0|0|ffffffff
"
# checks/60-compute.sh: a permission the policy denies (avc_has_perm)
AVC_DENIED="$S|$ETC|file|write"
# checks/62-avc-audit.sh: a permission the policy denies and audits (no
# dontaudit rule: AVC_DENIED's are silent)
AVC_AUDITED="$U|system_u:object_r:security_t:s0|security|setenforce"
