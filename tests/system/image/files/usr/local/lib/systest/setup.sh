# Run by build.sh inside the image (chroot, no SELinux): users, keys,
# login mappings, crontabs, services.
useradd -m -s /bin/bash alice
useradd -m -s /bin/bash bob
useradd -m -s /bin/bash carol
# root logs in to localhost as each of them (and as root) with one key.
mkdir -p -m 700 /root/.ssh
ssh-keygen -q -t ed25519 -N '' -C systest -f /root/.ssh/id_ed25519
for u in root alice bob carol; do
	h=$(getent passwd $u | cut -d: -f6)
	mkdir -p -m 700 "$h/.ssh"
	cp /root/.ssh/id_ed25519.pub "$h/.ssh/authorized_keys"
	chown -R $u:$u "$h/.ssh"
done
# The SELinux users of the two test users (refpolicy: user_u is
# unprivileged, staff_u may become sysadm through sudo/newrole).
semanage login -a -s user_u -r s0 alice
semanage login -a -s staff_u -r s0-s0:c0.c1023 bob
# carol: xguest_u, whose domain may use the system bus but may not send
# to systemd (the D-Bus mediation check).  Debian's policy has the role
# (xguest_r) and its contexts file but no SELinux user for it.
semanage user -a -R xguest_r -r s0 -L s0 -P user xguest_u
semanage login -a -s xguest_u -r s0 carol
crontab -u alice /usr/local/lib/systest/alice.crontab
systemctl enable systest.service
# The journal kept on disk, so that a reboot keeps the first boot's.
mkdir -p /var/log/journal
# root logs in on the serial console without a password (run-system.sh
# SYS_SHELL=..., for debugging); ssh still refuses empty passwords.
passwd -d root
