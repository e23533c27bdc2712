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
