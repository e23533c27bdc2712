# After the reboot: the boot is as healthy, and what policycoreutils
# changed persisted (setsebool -P, semodule -i).
. $S/lib.sh
value phase2-enforce "$(cat /sys/fs/selinux/enforce) $(getenforce)"
value phase2-system-state "$(systemctl is-system-running)"
report phase2-failed-units <<X
$(systemctl --failed --plain --no-legend)
X
value setsebool-P-persisted "$(getsebool xdm_sysadm_login)"
value semodule-persisted "$(semodule -l | grep -x systest)"
value phase2-dbus-to-systemd "$(ssh_as carol 'dbus-send --system --print-reply \
	--dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 \
	org.freedesktop.DBus.Peer.Ping 2>&1 | head -n1' | awk '{print $1, $2}')"
