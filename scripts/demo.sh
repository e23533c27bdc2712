#!/bin/sh
# The demo: builds the library and shows it at work on this machine.
# Everything runs from the build tree; the system's libselinux is untouched
# (LD_LIBRARY_PATH is given to single programs only, never exported).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/scripts/setup.sh"
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null

B=$top/build
LIB=$B/libselinux
U=$B/utils
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@" || printf '(exit status %d)\n' "$?"; }
ours() { env LD_LIBRARY_PATH="$LIB" "$@"; }

step "libselinux.so.1 from this tree: soname and ABI"
readelf -d "$LIB/libselinux.so.1" | grep SONAME
abi=$(python3 tests/abi/check-abi.py "$LIB/libselinux.so.1" tests/data/libselinux-abi.txt || true)
echo "$abi" | sed -n 1p

step "this host kernel has no SELinux: the utilities say so"
show "$U/getenforce"
show "$U/selinuxenabled"
show "$U/policyvers"

step "real security.selinux xattrs on a tmpfs, set and read by our utilities"
d=$(mktemp -d /dev/shm/selinux-demo.XXXXXX)
trap 'rm -rf "$d"' EXIT
echo hello >"$d/motd"
echo secret >"$d/shadow"
ln -s motd "$d/link"
show "$U/setfilecon" system_u:object_r:etc_t:s0 "$d/motd"
show "$U/setfilecon" system_u:object_r:shadow_t:s0 "$d/shadow"
show "$U/getfilecon" "$d/motd" "$d/shadow" "$d/link"

step "Debian's own ls -Z, stat and getfilecon, running on our library"
show ours ls -Z "$d/motd" "$d/shadow"
show ours stat -c '%C %n' "$d/motd"
show ours /usr/sbin/getfilecon "$d/shadow"
echo "(the same commands on the system library print the same:)"
show ls -Z "$d/motd" "$d/shadow"

step "which file_contexts rule labels a path: matchpathcon -x (our extension)"
fc=/etc/selinux/default/contexts/files/file_contexts
if [ -f "$fc" ]; then
	show "$U/matchpathcon" /etc/httpd/conf/httpd.conf
	show "$U/matchpathcon" -x /etc/httpd/conf/httpd.conf /var/run/sshd.pid
else
	echo "(no Debian refpolicy at $fc: skipped)"
fi

# The server part runs under with-server.sh: the server on the bundled
# policy, in a mount namespace of its own, so that the library finds this
# demo's server and no other selinuxfs mounted on the machine.
export B LIB U
SELINUXFSD=$B/kernel/server/selinuxfsd "$top/tests/lib/with-server.sh" \
	"$B/kernel/policy/bundled.33" sh "$top/scripts/demo-server.sh"
