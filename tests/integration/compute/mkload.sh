#!/bin/sh
# tests/integration/compute/mkload.sh CPROBE OURS_LIBDIR
#
# selinux_mkload_policy() on Debian's libselinux.so.1 and on ours, with
# the host's refpolicy (policy.33, /etc/selinux/config) and a selinuxfs
# of plain files (cprobe's "mnt DIR": set_selinuxmnt) whose policyvers
# says 33, 31 or 20: a kernel older than the policy file makes both have
# libsepol rewrite it to the kernel's version (Debian 13's refpolicy is
# version 34, its 6.12 kernel takes 33).  What each writes to "load", its
# exit status and messages must be the same; below 33 the image must not
# be the file's.  Skips (77) without the refpolicy.
set -u
CPROBE=$1 OURS=$2
POL=/etc/selinux/default/policy/policy.33
[ -r "$POL" ] || { echo "no $POL here: skipped"; exit 77; }
grep -q '^SELINUXTYPE=default' /etc/selinux/config 2>/dev/null ||
	{ echo "/etc/selinux/config does not name the default policy: skipped"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail=0
for v in 33 31 20; do
	for side in ref ours; do
		mkdir "$W/$side-$v"
		printf %s "$v" > "$W/$side-$v/policyvers"
		: > "$W/$side-$v/load"
		if [ $side = ours ]; then
			LD_LIBRARY_PATH=$OURS "$CPROBE" mnt "$W/$side-$v" mkload
		else
			env -u LD_LIBRARY_PATH "$CPROBE" mnt "$W/$side-$v" mkload
		fi > "$W/$side-$v.out" 2>&1
		echo $? >> "$W/$side-$v.out"
	done
	if ! cmp -s "$W/ref-$v.out" "$W/ours-$v.out"; then
		echo "policyvers $v: the output differs:"
		diff "$W/ref-$v.out" "$W/ours-$v.out"
		fail=1
	fi
	if ! cmp -s "$W/ref-$v/load" "$W/ours-$v/load"; then
		echo "policyvers $v: the loaded images differ ($(stat -c %s "$W/ref-$v/load") and $(stat -c %s "$W/ours-$v/load") bytes)"
		fail=1
	fi
	if [ ! -s "$W/ours-$v/load" ]; then
		echo "policyvers $v: nothing loaded"
		fail=1
	elif [ $v = 33 ] && ! cmp -s "$POL" "$W/ours-$v/load"; then
		echo "policyvers 33: the image is not the file's"
		fail=1
	elif [ $v != 33 ] && cmp -s "$POL" "$W/ours-$v/load"; then
		echo "policyvers $v: the file loaded as it is, not rewritten"
		fail=1
	fi
	echo "policyvers $v: $(tr '\n' ' ' < "$W/ours-$v.out")($(stat -c %s "$W/ours-$v/load") bytes loaded)"
done
exit $fail
