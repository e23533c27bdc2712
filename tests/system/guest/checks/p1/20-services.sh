# 2. The context of every service's processes (expected/: each
# daemon's exec type transitions from init_t to its domain, at s0).
. $S/lib.sh
ps -eo label=,comm= | awk '
	$2 ~ /^(systemd|systemd-journal|systemd-udevd|systemd-logind|sshd|cron|dbus-daemon|agetty|auditd|mcstransd)$/ {
		print $2, $1
	}' | sort -u | report service-contexts
