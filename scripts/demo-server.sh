#!/bin/sh
# The second half of scripts/demo.sh: kernel/'s security server on the
# bundled policy, and the utilities working through it.  demo.sh runs it
# under tests/lib/with-server.sh (the server mounted on $SELINUXFS_MNT, in
# a mount namespace of its own) with B, LIB and U set.
set -eu
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@" || printf '(exit status %d)\n' "$?"; }
ours() { env LD_LIBRARY_PATH="$LIB" "$@"; }

step "kernel/'s security server: the bundled policy, served as a selinuxfs"
m=$SELINUXFS_MNT
printf '$ %s\n' "selinuxfsd -f $B/kernel/policy/bundled.33 $m &   (by tests/lib/with-server.sh)"
show grep fuse.selinuxfs /proc/self/mountinfo
echo "(our library finds it through /proc/self/mountinfo, as it finds a kernel's)"
show "$U/selinuxenabled"
show "$U/getenforce"
show "$U/setenforce" 1
show "$U/getenforce"
show "$U/policyvers"
have() { [ -x "$U/$1" ]; }
sshd=system_u:system_r:sshd_t
if have compute_av; then
	show "$U/compute_av" $sshd system_u:object_r:shadow_t file
	show "$U/compute_av" user_u:user_r:user_t system_u:object_r:shadow_t file
fi
have compute_create && show "$U/compute_create" $sshd system_u:object_r:tmp_t file
have compute_user && show "$U/compute_user" $sshd staff_u
if have getsebool; then
	show "$U/getsebool" -a
	have togglesebool && show "$U/togglesebool" allow_user_exec_tmp
	show "$U/getsebool" allow_user_exec_tmp
	have togglesebool && show "$U/togglesebool" allow_user_exec_tmp
fi
have getpolicyload && show "$U/getpolicyload"
echo "(Debian's own utilities, on our library, see the same server:)"
show ours /usr/sbin/getenforce
show ours /usr/sbin/getsebool -a
show cat "$m/avc/cache_stats"
if [ -d "$B/bindings/python/selinux" ]; then
	echo "(Python, import selinux on our library:)"
	show env PYTHONPATH="$B/bindings/python" /usr/bin/python3 -c \
		'import selinux; print(selinux.security_getenforce(), selinux.security_compute_create("system_u:system_r:sshd_t", "system_u:object_r:tmp_t", selinux.string_to_security_class("file")))'
fi
