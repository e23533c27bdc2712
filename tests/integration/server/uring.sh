#!/bin/sh
# uring.sh CMD [ARGS...]: CMD (a test that runs the server through
# tests/lib/with-server.sh) with the fuse module's io_uring transport on
# (its enable_uring parameter, restored afterwards), and with-server.sh's
# check that the server served through it (WITH_SERVER_URING=1).  The
# tests that use it are not run in parallel with others: the parameter
# is the whole machine's.  77 (a skip) where the kernel has no such
# transport (before Linux 6.14, or built without it) or we are not root.
set -u
p=/sys/module/fuse/parameters/enable_uring
# (no id(1): it links libselinux, which in a sanitized build's test
# environment is the sanitized one; writing the parameter needs root)
if [ ! -e "$p" ] || ! [ -w "$p" ]; then
	echo "uring.sh: no FUSE io_uring transport here; skipping" >&2
	exit 77
fi
old=$(cat "$p")
trap 'echo "$old" > "$p"' EXIT
trap 'exit 1' INT TERM
echo Y > "$p" || exit 77
WITH_SERVER_URING=1 "$@"
