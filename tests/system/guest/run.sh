#!/bin/sh
# The system test in the guest: runs the checks of this phase
# (checks/pPHASE/*.sh, in name order) once the boot has settled, with
# their reports on the second serial port (/dev/ttyS1, a file on the
# host); then reboots into phase 2, or powers off after it.  The phase
# survives the reboot in /var/lib/systest (the disk is a snapshot the
# host throws away).
set -u
S=/run/systest
STATE=/var/lib/systest
out=/dev/ttyS1
stty -F $out raw -echo 2>/dev/null
mkdir -p $STATE
PHASE=$(cat $STATE/phase 2>/dev/null || echo 1)
export S STATE PHASE PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
cd /
{
	echo "@@PHASE $PHASE"
	# running or degraded: every boot job has finished
	state=$(timeout 600 systemctl is-system-running --wait 2>&1)
	echo "@@STATE $state"
	for c in $S/checks/p$PHASE/*.sh; do
		n=${c##*/}
		if [ -f $S/only ]; then
			hit=
			for p in $(cat $S/only); do
				case $n in $p) hit=1 ;; esac
			done
			[ -n "$hit" ] || continue
		fi
		echo "@@RUN $n uptime=$(cut -d" " -f1 /proc/uptime)"
		timeout 600 /bin/sh $c
		rc=$?
		[ $rc = 0 ] || echo "@@CRASH $n exit $rc"
	done
	echo "@@PHASE-DONE $PHASE"
} > $out 2>&1 < /dev/null
sync
if [ "$PHASE" = 1 ]; then
	echo 2 > $STATE/phase
	sync
	systemctl reboot
else
	echo "@@SYSTEST-DONE" > $out
	systemctl poweroff
fi
