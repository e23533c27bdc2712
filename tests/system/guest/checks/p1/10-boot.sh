# 1. systemd loaded the policy itself (selinux_init_load_policy) and the
# boot reached multi-user.target, enforcing, with no failed unit.
. $S/lib.sh
info "runner: $(id -Z)"
lib=/usr/lib/x86_64-linux-gnu/libselinux.so.1
# Which library is in place: ours (the host's build) or Debian's intact.
if cmp -s $lib $S/ours-libselinux.so.1; then
	side=ours
elif dpkg --verify libselinux1 2>&1 | grep -q .; then
	side="neither: $(dpkg --verify libselinux1 2>&1)"
else
	side=debian
fi
value library "$side"
# The generation booted: its release, systemd and kernel (expected/:
# Debian 12's; expected-trixie/: Debian 13's).
value generation "$(. /etc/os-release && echo "$VERSION_CODENAME") systemd $(systemctl --version | awk 'NR == 1 {print $2}') kernel $(uname -r | cut -d. -f1-2)"
# The kernel's policy version and the policy files the system has: Debian
# 13's refpolicy is policy.34, beyond 6.12's 33, which the library loading
# it (systemd's selinux_init_load_policy, load_policy) must rewrite.
value policy-versions "kernel $(cat /sys/fs/selinux/policyvers) files $(cd /etc/selinux/default/policy && echo policy.*)"
# Which packages: ours (the host's build, installed by the initramfs) or
# Debian's; policycoreutils stays installed with its files as packaged.
value packages "$(for p in libselinux1 selinux-utils python3-selinux; do
	v=$(dpkg-query -W -f '${db:Status-Abbrev}${Version}' $p)
	case $v in
	"ii $(cat $S/ours-version)") echo "$p ours" ;;
	"ii "*) echo "$p debian" ;;
	*) echo "$p $v" ;;
	esac
done)"
value policycoreutils "$(dpkg-query -W -f '${db:Status-Abbrev}' policycoreutils | tr -d ' ') verify:$(dpkg --verify policycoreutils 2>&1)"
# PID 1 maps that file (not a copy elsewhere).
value pid1-maps-libselinux "$(awk '$6 ~ /libselinux/ {print $6}' /proc/1/maps | sort -u)"
# systemd[1] logs it before journald runs, in the kernel's log; Debian
# 13's journal lacks that line (the console shows it): the journal, then
# the kernel's ring buffer (dmesg; initrc_t may read it in both policies).
value policy-loaded-by-systemd "$( { journalctl -b -o cat; dmesg 2>/dev/null; } |
	grep -o 'Successfully loaded SELinux policy in' | head -n1)"
value enforce "$(cat /sys/fs/selinux/enforce) $(getenforce)"
value pid1-context "$(ps -o label= -p 1)"
value system-state "$(systemctl is-system-running)"
value multi-user "$(systemctl is-active multi-user.target)"
report failed-units <<X
$(systemctl --failed --plain --no-legend)
X
