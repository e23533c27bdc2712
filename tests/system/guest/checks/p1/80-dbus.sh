# 9. dbus-daemon's SELinux mediation, and systemd's: carol (xguest_t) may
# call the bus itself but may not send to systemd (init_t; Debian 13's
# policy allows it) nor to systemd-logind (systemd_logind_t); alice
# (user_t) may not ask systemd for a system unit's status.  The same
# outcome and the same USER_AVC records in both boots.  Then semodule -i
# of a module that allows both, and both daemons must notice.
. $S/lib.sh
dbus_calls() { # NAME
	value dbus-allowed-$1 "$(ssh_as carol 'dbus-send --system --print-reply \
		--dest=org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus.ListNames >/dev/null 2>&1; echo "exit $?"')"
	r=$(ssh_as carol 'dbus-send --system --print-reply \
		--dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 \
		org.freedesktop.DBus.Peer.Ping 2>&1 | head -n1' | mask_ids)
	# the outcome ("method return" or the error's name), then all of it
	value dbus-to-systemd-$1 "$(echo "$r" | awk '{print $1, $2}')"
	value dbus-to-systemd-message-$1 "$r"
	# Debian 13's policy lets xguest_t send to systemd (init_t): there
	# dbus-daemon's denial is seen on systemd-logind (systemd_logind_t),
	# which neither generation's policy lets xguest_t call, nor systest.te
	r=$(ssh_as carol 'dbus-send --system --print-reply \
		--dest=org.freedesktop.login1 /org/freedesktop/login1 \
		org.freedesktop.DBus.Peer.Ping 2>&1 | head -n1' | mask_ids)
	value dbus-to-logind-$1 "$(echo "$r" | awk '{print $1, $2}')"
	value systemd-unit-status-$1 "$(ssh_as alice 'systemctl --no-pager status \
		cron.service >/dev/null 2>&1; echo "exit $?"; systemctl --no-pager \
		show -p Id cron.service 2>&1')"
}
# The object managers' USER_AVC records (classes dbus and service) since
# a mark, pids and times masked, once the journal has them all: they go
# from the daemon through the kernel's audit netlink to journald, which
# under emulation can take seconds.  Settled: the same answer three
# seconds running (at most 40 s).
user_avcs() {
	prev=x same=0 i=0
	while [ $i -lt 40 ]; do
		cur=$(journalctl -o cat --after-cursor="$1" 2>/dev/null |
			grep -o 'avc:  denied .*' |
			grep -E 'tclass=(dbus|service) ' | mask_ids | sort -u)
		if [ "$cur" = "$prev" ]; then
			same=$((same + 1))
			[ $same -ge 3 ] && break
		else
			same=0
		fi
		prev=$cur
		sleep 1
		i=$((i + 1))
	done
	printf '%s\n' "$cur" | sed '/^$/d'
}
mark=$(journalctl -n 1 --show-cursor -o cat | sed -n 's/^-- cursor: //p')
dbus_calls before
user_avcs "$mark" | report user-avc-before
cp $S/systest.te /tmp/systest.te
cd /tmp
value semodule-i "$(checkmodule -M -m -o systest.mod systest.te 2>&1 &&
	semodule_package -o systest.pp -m systest.mod 2>&1 &&
	semodule -i systest.pp 2>&1; echo "exit $?") $(semodule -l | grep -x systest)"
cd /
mark=$(journalctl -n 1 --show-cursor -o cat | sed -n 's/^-- cursor: //p')
dbus_calls after
user_avcs "$mark" | report user-avc-after
