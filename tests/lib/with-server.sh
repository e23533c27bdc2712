#!/bin/sh
# with-server.sh [-e 0|1] POLICY CMD [ARGS...]
#
# Runs CMD with kernel/'s security server (selinuxfsd) mounted on a fresh
# temporary directory and serving POLICY (a binary policy file, or "-n"
# for none loaded).  CMD sees SELINUXFS_MNT (the mount point) and
# SELINUXFSD (the daemon's path); the server is stopped and unmounted
# afterwards, whatever CMD did.  Exit status: CMD's; 77 (a skip for meson)
# when FUSE is not usable here; 99 when the server does not start.
#
# WITH_SERVER_URING=1 (tests/integration/server/uring.sh sets it): the
# server must have served over FUSE's io_uring transport: its log says it
# took the kernel's offer and (when CMD left it alive) its rings
# completed requests.  A test that passes over /dev/fuse alone fails.
#
# CMD also sees SELINUXFSD_PID; a test that kills the server on purpose
# sets WITH_SERVER_KILLED=1: its death and the dead mount are then not
# errors (the mount is detached).
#
# SELINUXFSD may be set to the daemon; otherwise it is looked for in the
# build tree next to this script's (MESON_BUILD_ROOT or ../../build).
set -u
# A mount namespace of our own: the library under test finds this server
# (the first fuse.selinuxfs of mountinfo) and no other, even when tests run
# in parallel.  The other selinuxfs mounts leave this namespace only.
if [ -z "${WITH_SERVER_NS:-}" ] && command -v unshare > /dev/null &&
	[ "$(id -u)" = 0 ]; then
	WITH_SERVER_NS=1 exec unshare -m --propagation private "$0" "$@"
fi
if [ -n "${WITH_SERVER_NS:-}" ]; then
	grep ' - fuse.selinuxfs ' /proc/self/mountinfo | cut -d' ' -f5 |
		while read -r o; do umount -l "$o" 2>/dev/null || true; done
fi
enf=0
if [ "${1:-}" = -e ]; then
	enf=$2
	shift 2
fi
[ $# -ge 2 ] || { echo "usage: with-server.sh [-e 0|1] POLICY CMD..." >&2; exit 2; }
policy=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${SELINUXFSD:-}" ]; then
	for b in "${MESON_BUILD_ROOT:-}" "$here/../../build"; do
		[ -n "$b" ] && [ -x "$b/kernel/server/selinuxfsd" ] &&
			{ SELINUXFSD=$b/kernel/server/selinuxfsd; break; }
	done
fi
[ -n "${SELINUXFSD:-}" ] || { echo "with-server.sh: selinuxfsd not built" >&2; exit 99; }
if [ ! -c /dev/fuse ] || [ "$(id -u)" != 0 ]; then
	echo "with-server.sh: FUSE needs /dev/fuse and root here; skipping" >&2
	exit 77
fi
mnt=$(mktemp -d "${TMPDIR:-/tmp}/selinuxfs.XXXXXX")
log=$mnt.log
if [ "$policy" = -n ]; then
	"$SELINUXFSD" -f -v -e "$enf" -n "$mnt" > /dev/null 2> "$log" &
else
	"$SELINUXFSD" -f -v -e "$enf" "$policy" "$mnt" > /dev/null 2> "$log" &
fi
pid=$!
up=0
for _ in $(seq 200); do
	if grep -q " $mnt .* fuse.selinuxfs " /proc/self/mountinfo; then
		up=1
		break
	fi
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
if [ $up = 0 ]; then
	echo "with-server.sh: the server did not start:" >&2
	cat "$log" >&2
	kill $pid 2>/dev/null
	rmdir "$mnt" 2>/dev/null
	rm -f "$log"
	exit 99
fi
export SELINUXFS_MNT="$mnt" SELINUXFSD SELINUXFSD_PID=$pid
"$@"
rc=$?
if [ "${WITH_SERVER_URING:-0}" = 1 ]; then
	# the completions of the server's rings (fdinfo's CqHead)
	done_=0
	for f in /proc/$pid/fd/*; do
		case $(readlink "$f" 2>/dev/null) in
		*io_uring*)
			n=$(sed -n 's/^CqHead:[[:space:]]*//p' \
				"/proc/$pid/fdinfo/${f##*/}" 2>/dev/null)
			done_=$((done_ + ${n:-0})) ;;
		esac
	done
	if ! grep -q "io_uring: the kernel's offer taken" "$log"; then
		echo "with-server.sh: the server did not take io_uring" >&2
		[ $rc = 0 ] && rc=1
	elif [ "${WITH_SERVER_KILLED:-0}" != 1 ] && [ $done_ = 0 ]; then
		echo "with-server.sh: no request served through io_uring" >&2
		[ $rc = 0 ] && rc=1
	else
		echo "with-server.sh: io_uring: $done_ completions" >&2
	fi
fi
kill $pid 2>/dev/null
# the server's own status: a sanitizer's report fails the test too
wait $pid
srv=$?
if [ "${WITH_SERVER_KILLED:-0}" = 1 ]; then
	umount -l "$mnt" 2>/dev/null
	srv=0
fi
if [ $srv != 0 ]; then
	echo "with-server.sh: selinuxfsd exited with status $srv" >&2
	[ $rc = 0 ] && rc=1
fi
# SIGTERM must leave nothing mounted
if grep -q " $mnt .* fuse.selinuxfs " /proc/self/mountinfo; then
	echo "with-server.sh: selinuxfsd left $mnt mounted after SIGTERM" >&2
	[ $rc = 0 ] && rc=1
	umount "$mnt" 2>/dev/null || fusermount3 -u "$mnt" 2>/dev/null
fi
rmdir "$mnt" 2>/dev/null
if [ $rc != 0 ] && [ -s "$log" ]; then
	echo "--- selinuxfsd's log" >&2
	tail -n 50 "$log" >&2
fi
rm -f "$log"
exit $rc
