# 9. dbus-daemon's SELinux mediation, and systemd's: carol (xguest_t) may
# call the bus itself but may not send to systemd (init_t); alice
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
	value systemd-unit-status-$1 "$(ssh_as alice 'systemctl --no-pager status \
		cron.service >/dev/null 2>&1; echo "exit $?"; systemctl --no-pager \
		show -p Id cron.service 2>&1')"
}
# The USER_AVC records since a mark, pids and times masked.
user_avcs() {
	journalctl -o cat --after-cursor="$1" 2>/dev/null |
		grep -o 'avc:  denied .*' | mask_ids | sort -u
}
mark=$(journalctl -n 1 --show-cursor -o cat | sed -n 's/^-- cursor: //p')
dbus_calls before
sleep 2
user_avcs "$mark" | report user-avc-before
cp $S/systest.te /tmp/systest.te
cd /tmp
value semodule-i "$(checkmodule -M -m -o systest.mod systest.te 2>&1 &&
	semodule_package -o systest.pp -m systest.mod 2>&1 &&
	semodule -i systest.pp 2>&1; echo "exit $?") $(semodule -l | grep -x systest)"
cd /
mark=$(journalctl -n 1 --show-cursor -o cat | sed -n 's/^-- cursor: //p')
dbus_calls after
sleep 2
user_avcs "$mark" | report user-avc-after
