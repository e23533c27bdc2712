# 2. The context of every service's processes.
. $S/lib.sh
ps -eo label=,comm= | awk '
	$2 ~ /^(systemd|systemd-journal|systemd-udevd|systemd-logind|sshd|cron|dbus-daemon|agetty|auditd|mcstransd)$/ {
		print $2, $1
	}' | sort -u | report service-contexts
