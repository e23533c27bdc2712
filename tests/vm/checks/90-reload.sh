# The status page (/sys/fs/selinux/status) and a policy reload, read raw:
# what the AVC and selinux_status_* will rely on, and what kernel/'s
# server must mimic.  Last, since a reload moves every sequence number.
# The page: u32 version, sequence, enforcing, policyload, deny_unknown.
# The kernel bumps sequence by 2 around each change (odd while writing);
# policyload is the policy sequence number (the access answers' seqno) of
# the last policy change - a reload or a boolean commit.  The kernel
# makes the page on its first open, with both at 0: changes before that
# are not counted.  So the expectations start from what is there.
. /vm/lib.sh

status() { od -An -tu4 -v /sys/fs/selinux/status | tr -s ' \n' '  ' |
	sed 's/^ //; s/ $//'; }
seqno() { # the seqno field of an access answer
	printf 'access\t%s %s 1\n' "$KERNEL_CON" "$KERNEL_CON" > /tmp/.q
	sfsquery /tmp/.q | cut -d' ' -f5
}

# shellcheck disable=SC2046
set -- $(status)
expect status-fields 5 $#
expect status-version 1 "$1"
expect status-enforcing 1 "$3"
expect status-deny_unknown "$DENY_UNKNOWN" "$5"
expect status-sequence-even 0 $(($2 % 2))
seq=$2 load=$4
n=$(seqno)
# 0 if no policy change came since the page was made (on its first open,
# with sequence and policyload 0), else the last change's seqno
[ "$load" = 0 ] || expect status-policyload "$n" "$load"
D=$DENY_UNKNOWN

echo 0 > /sys/fs/selinux/enforce
expect status-setenforce-0 "1 $((seq + 2)) 0 $load $D" "$(status)"
echo 0 > /sys/fs/selinux/enforce
expect status-setenforce-same "1 $((seq + 2)) 0 $load $D" "$(status)"
echo 1 > /sys/fs/selinux/enforce
expect status-setenforce-1 "1 $((seq + 4)) 1 $load $D" "$(status)"
seq=$((seq + 4))

# a boolean commit is a policy change; the value survives a reload (the
# kernel carries booleans over into the new policy)
if profile_has BOOL_NAME; then
	echo 1 > "/sys/fs/selinux/booleans/$BOOL_NAME"
	expect status-bool-pending "1 $seq 1 $load $D" "$(status)"
	echo 1 > /sys/fs/selinux/commit_pending_bools
	n=$((n + 1)) seq=$((seq + 2))
	expect status-bool-commit "1 $seq 1 $n $D" "$(status)"
	expect access-seqno-bool-commit "$n" "$(seqno)"
fi
policy=/etc/selinux/$POLICYTYPE/policy/policy.33
dd if="$policy" of=/sys/fs/selinux/load bs=64M 2>/dev/null
n=$((n + 1)) seq=$((seq + 2))
expect reload-status "1 $seq 1 $n $D" "$(status)"
expect reload-access-seqno "$n" "$(seqno)"
if profile_has BOOL_NAME; then
	expect reload-keeps-boolean "1 1" \
		"$(cat "/sys/fs/selinux/booleans/$BOOL_NAME")"
	echo 0 > "/sys/fs/selinux/booleans/$BOOL_NAME"
	echo 1 > /sys/fs/selinux/commit_pending_bools
fi
# the library after the reload: the same kernel state as before
agree reload-kernel-status "is_selinux_enabled = 1
is_selinux_mls_enabled = $MLS
security_getenforce = 1
security_policyvers = 33
security_deny_unknown = $DENY_UNKNOWN
security_reject_unknown = $REJECT_UNKNOWN
security_get_checkreqprot = 0
selinux_mnt = /sys/fs/selinux" vmprobe kernel
agree reload-getcon "getcon = 0 con=\"$KERNEL_CON\"
getprevcon = 0 con=\"$KERNEL_CON\"" vmprobe cur
