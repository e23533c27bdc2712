# selinux/avc_audit.h (our extension) on the real kernel: with it on, a
# denial of avc_has_perm (the profile's AVC_AUDITED) becomes a USER_AVC
# record (type 1107) in the kernel's audit stream, its msg='...' the AVC's
# message followed by libaudit's fields, as dbus-daemon's records are;
# without CAP_AUDIT_WRITE the kernel refuses it (EPERM) and the message
# reaches the log callback instead.  The check's result is the same both
# ways.  vmaudit -r reads the stream as the audit daemon would (see
# probe/vmaudit.c); the record is copied to the log as "# record".
. /vm/lib.sh

if ! profile_has AVC_AUDITED KERNEL_CON; then
	skip avc-audit "the profile states no AVC_AUDITED"
	exit 0
fi
IFS='|' read -r as at ac ap <<EOF
$AVC_AUDITED
EOF
# The message of Debian's avc_audit (auditdata NULL: "for" then two
# spaces), its final newline included, as the log callback gets it; the
# kernel puts it between msg='...' as it comes.  libaudit adds exe=, the
# real uid as sauid=, and "?" for the NULL hostname and addr and for the
# terminal (no tty on stdin, stdout or stderr here).  Nobody has logged
# in: auid and ses are unset.
msg="avc:  denied  { $ap } for  scontext=$as tcontext=$at tclass=$ac permissive=0\\n"
fields='exe="/opt/tests/bin/vmaudit" sauid=0 hostname=? addr=? terminal=?'

# keep the "# raw" line for the log, compare the rest
run_vmaudit() {
	capture ours vmaudit "$@"
	printf '%s\n' "$out" | grep '^# raw: ' | sed 's/^# raw:/# record:/'
	out=$(printf '%s\n' "$out" | grep -v '^# raw: ')
}

run_vmaudit -r "$as" "$at" "$ac" "$ap"
expect avc-audit-user-avc "reader = 0
avc_open = 0
selinux_avc_audit_open = 1
avc_has_perm = -1 errno=EACCES
record: type=1107 pid=SELF uid=0 auid=4294967295 ses=4294967295 subj=$KERNEL_CON msg='$msg $fields'" "$out"

run_vmaudit -r -d "$as" "$at" "$ac" "$ap"
expect avc-audit-eperm-to-log "reader = 0
drop CAP_AUDIT_WRITE = 0
avc_open = 0
selinux_avc_audit_open = 1
log warning: avc:  audit refused an AVC message (Operation not permitted); AVC messages go to the log from now on\\n
log avc: $msg
avc_has_perm = -1 errno=EACCES
record: none" "$out"
