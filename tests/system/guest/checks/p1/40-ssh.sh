# 5. ssh logins (key authentication, to localhost): sshd and pam_selinux
# pick each user's context and relabel the pty.
. $S/lib.sh
for u in root alice bob; do
	value ssh-$u "$(ssh_as $u 'echo "$(id -Z) $(stat -c %C "$(tty)")"')"
done
