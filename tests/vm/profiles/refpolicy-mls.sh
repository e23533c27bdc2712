# Debian 12's refpolicy built MLS (selinux-policy-mls,
# /etc/selinux/mls/policy/policy.33): 16 sensitivities s0..s15, 1024
# categories c0..c1023, about 4 900 types.  Booted for the security
# server's comparison only (checks/35-server.sh: the kernel's grammar for
# MLS fields, class numbers, user SIDs on a large MLS policy); the other
# checks have their facts in refpolicy.sh, the same source built MCS.
POLICYTYPE=mls
CHECKS='00-* 35-*'
SERVER_QUERIES=20000
MLS=1
DENY_UNKNOWN=1		# "handle_unknown deny"
REJECT_UNKNOWN=0
# sid kernel gen_context(system_u:system_r:kernel_t, mls_systemhigh)
KERNEL_CON=system_u:system_r:kernel_t:s15:c0.c1023
INIT_CON=$KERNEL_CON
