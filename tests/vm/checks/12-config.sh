# The guest's /etc/selinux/config (SELINUX=enforcing,
# SELINUXTYPE=$POLICYTYPE, written by run-vm.sh).
. /vm/lib.sh

agree config "selinux_getenforcemode = 0 enforce=1
selinux_getpolicytype = 0 type=\"$POLICYTYPE\"
selinux_policy_root = /etc/selinux/$POLICYTYPE
selinux_path = /etc/selinux/" vmprobe config
