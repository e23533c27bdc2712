# Facts of Debian 12's refpolicy binary (selinux-policy-default,
# /etc/selinux/default/policy/policy.33), read from its rules with setools
# (seinfo, sesearch): a sample, not a model.  Checks that need a fact not
# listed here skip.
POLICYTYPE=default
# copied into the guest at the same path: the label lookups' specs
HOST_FILES=/etc/selinux/default/contexts/files
# the server comparison: about this many queries of each kind (a sample:
# the whole product of types and classes is far larger)
SERVER_QUERIES=30000
MLS=1			# one sensitivity s0, categories c0.c1023
DENY_UNKNOWN=0		# "Handle unknown classes: allow"
REJECT_UNKNOWN=0
# kernel_t's capability2 rules do not include mac_admin
MAC_ADMIN=0

# sid kernel system_u:system_r:kernel_t:s0
KERNEL_CON=system_u:system_r:kernel_t:s0
INIT_CON=$KERNEL_CON

# type_transition kernel_t init_exec_t:process init_t; init_t's entrypoint
# is init_exec_t; kernel_t (unconfined_domain_type) has noatsecure
ENTRY_FILE_CON=system_u:object_r:init_exec_t:s0
AUTO_DOMAIN=system_u:system_r:init_t:s0
EXEC_DOMAIN=system_u:system_r:init_t:s0
# user_u's only role is user_r
EXEC_INVALID=user_u:system_r:init_t:s0

# fs_use_trans tmpfs system_u:object_r:tmpfs_t:s0, no type_transition of
# kernel_t on tmpfs_t files
TMP_FILE_CON=system_u:object_r:tmpfs_t:s0
# file types kernel_t may relabel to (files_unconfined_type) and that may
# live on tmpfs (allow file_type tmpfs_t:filesystem associate)
LABEL_A=system_u:object_r:etc_t:s0
LABEL_B=system_u:object_r:tmp_t:s0

VALID_CONS="system_u:object_r:etc_t:s0 system_u:system_r:kernel_t:s0-s0:c0.c1023 user_u:user_r:user_t:s0 staff_u:staff_r:staff_t:s0-s0:c0.c1023"
# no level on an MLS policy; above user_u's range (s0); no such
# sensitivity; no such category; role not for that user; no such type
INVALID_CONS="system_u:object_r:etc_t user_u:user_r:user_t:s0:c1 system_u:object_r:etc_t:s1 system_u:object_r:etc_t:s0:c1024 user_u:system_r:kernel_t:s0 system_u:object_r:no_such_t:s0 hello"
# the kernel writes categories in order, a run of three or more as cX.cY,
# two as cX,cY, and a range whose ends are equal as one level
CANON_PAIRS="system_u:object_r:etc_t:s0:c1,c0=>system_u:object_r:etc_t:s0:c0,c1 system_u:object_r:etc_t:s0:c2,c0,c1=>system_u:object_r:etc_t:s0:c0.c2 system_u:object_r:etc_t:s0-s0=>system_u:object_r:etc_t:s0 system_u:object_r:etc_t:s0:c5-s0:c5=>system_u:object_r:etc_t:s0:c5 system_u:system_r:kernel_t:s0-s0:c0.c1023=>system_u:system_r:kernel_t:s0-s0:c0.c1023"

# Raw selinuxfs answers (checks/45-selinuxfs.sh), a sample: NAME|OP|ARG|WANT
K=$KERNEL_CON
SFS_FACTS="
policyvers|read|policyvers|33
mls|read|mls|1
deny_unknown|read|deny_unknown|0
reject_unknown|read|reject_unknown|0
initial-kernel|read|initial_contexts/kernel|$K\x00
initial-devnull|read|initial_contexts/devnull|system_u:object_r:null_device_t:s0\x00
bool-secure_mode_policyload|read|booleans/secure_mode_policyload|0 0
bool-allow_execmem|read|booleans/allow_execmem|0 0
create-process|create|$K system_u:object_r:init_exec_t:s0 2|system_u:system_r:init_t:s0\x00
context-canonical|context|system_u:object_r:etc_t:s0:c2,c0,c1|system_u:object_r:etc_t:s0:c0.c2\x00
context-no-level|context|system_u:object_r:etc_t|!write:EINVAL
"
# checks/60-compute.sh: a permission the policy denies (avc_has_perm)
AVC_DENIED="user_u:user_r:user_t:s0|system_u:object_r:shadow_t:s0|file|read"
# checks/62-avc-audit.sh: a permission the policy denies and audits (no
# dontaudit rule: AVC_DENIED's are silent)
AVC_AUDITED="user_u:user_r:user_t:s0|system_u:object_r:security_t:s0|security|setenforce"
