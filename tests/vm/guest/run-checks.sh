#!/bin/sh
# Runs every check in /vm/checks in name order (inside the VM).  A *.sh
# file runs under busybox sh, any other executable directly; each prints
# "ok   NAME", "FAIL NAME: why" or "skip NAME: why" lines (guest/lib.sh)
# which run-vm.sh counts on the host.  A check that exits non-zero has
# crashed: that is reported as a failure of its own.
# /vm/only, if present, holds shell patterns: only matching checks run;
# else the profile's CHECKS (a profile booted for a few checks), else all.
. /vm/profile.sh
only=${CHECKS:-*}
[ -s /vm/only ] && only=$(cat /vm/only)
for c in /vm/checks/*; do
	name=${c##*/}
	match=
	set -f # the patterns are for case, not for the shell's globbing
	for p in $only; do
		# shellcheck disable=SC2254
		case $name in $p) match=1 ;; esac
	done
	set +f
	[ -n "$match" ] || continue
	t0=$(cut -d' ' -f1 /proc/uptime)
	case $c in
	*.sh) /bin/sh "$c" ;;
	*) [ -x "$c" ] || continue; "$c" ;;
	esac
	st=$?
	[ $st = 0 ] || echo "FAIL $VM_PROFILE/$name: exited with status $st"
	# every check starts enforcing; one that leaves it permissive is a bug
	# of its own and must not weaken the checks after it
	if [ "$(cat /sys/fs/selinux/enforce)" != 1 ]; then
		echo "FAIL $VM_PROFILE/$name: left the kernel permissive"
		echo 1 > /sys/fs/selinux/enforce
	fi
	echo "# $name: $t0 -> $(cut -d' ' -f1 /proc/uptime) s uptime"
done
exit 0
