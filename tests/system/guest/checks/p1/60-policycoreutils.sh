# 7. policycoreutils on the library (restorecon on the untouched image:
# 12-restorecon.sh): restorecon fixes a mislabelled file; setsebool -P persists
# (checked after the reboot, phase 2); semodule -i of a small module
# reloads the policy and systemd's and dbus-daemon's AVCs see the new
# rules (the dbus check, 80-dbus.sh, runs before and after); load_policy,
# getsebool -a, sestatus, secon.
. $S/lib.sh
f=/etc/systest-mislabelled
rm -f $f && echo x > $f
chcon system_u:object_r:tmp_t:s0 $f
value restorecon-fixes "$(restorecon -v $f 2>&1) | $(ls -Z $f)"
rm -f $f
value setsebool-P "$(setsebool -P xdm_sysadm_login on 2>&1; echo "exit $?") $(getsebool xdm_sysadm_login)"
value load_policy "$(load_policy 2>&1; echo "exit $?") $(getenforce)"
getsebool -a | report getsebool-a
# sestatus: the lines that do not depend on the boot
sestatus | grep -vE '^(Policy from config|Memory protection|Max kernel)' |
	report sestatus
value secon "$(secon -urtl -p 1 2>&1) | $(secon -t -f /etc/passwd 2>&1)"
