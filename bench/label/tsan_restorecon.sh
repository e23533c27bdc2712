#!/bin/sh
# ThreadSanitizer over selinux_restorecon_parallel: the label sources
# compiled again with -fsanitize=thread (the rest of the library from
# BUILDDIR's libselinux.a), tsan_restorecon.c run with THREADS threads on
# a tree with hard links, symlinks, a fifo, an excluded directory and a
# bind mount.  The bind mount is made in a mount namespace of its own
# (unshare -m, private propagation): nothing reaches the host's mounts.
# Any data race report fails (halt_on_error), and so do labels that
# differ from a one-thread walk's.  Needs root (security.* attributes,
# mount); skips (77) without it.
#   bench/label/tsan_restorecon.sh [BUILDDIR] [THREADS]
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
threads=${2:-4}
cc=${CC:-gcc}
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "needs root and unshare -m: skipped"
	exit 77
fi
tmp=$(mktemp -d /tmp/rc-tsan.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$cc" -g -O1 -fsanitize=thread -D_GNU_SOURCE -pthread \
	-I"$src/include" -I"$build/include" -I"$src/libselinux/src" \
	"$src/bench/label/tsan_restorecon.c" $(find "$src/libselinux/src/label" "$src/libselinux/src/restore" -name '*.c') \
	"$build/libselinux/libselinux.a" -lpcre2-8 -o "$tmp/tsan_restorecon"

t=$tmp/t
mkdir -p "$t/hl" "$t/lnk" "$t/excl/e" "$t/src/s" "$t/bnd"
for d in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
	mkdir -p "$t/d$d/sub/deeper"
	for f in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
		: >"$t/d$d/f$f"
		: >"$t/d$d/sub/deeper/g$f"
	done
	ln -s "../d$d/f1" "$t/lnk/l$d"
	: >"$t/excl/e/x$d"
	: >"$t/src/s/y$d"
done
# Hard links: an inode under two names with different specs, and one
# under three.
ln "$t/d0/f0" "$t/hl/h1"
ln "$t/d1/f12" "$t/hl/h2"
ln "$t/d1/f12" "$t/d2/f99"
mkfifo "$t/fifo"
cat >"$tmp/fc" <<EOF
$t(/.*)?	system_u:object_r:t_t:s0
$t/d[0-9]+(/.*)?	system_u:object_r:d_t:s0
$t/d[0-9]+/f1[0-9]	--	system_u:object_r:f1_t:s0
$t/d[0-9]+/sub/deeper/.*	system_u:object_r:deep_t:s0
$t/hl(/.*)?	system_u:object_r:hl_t:s0
$t/lnk/.*	-l	system_u:object_r:lnk_t:s0
$t/excl(/.*)?	system_u:object_r:excl_t:s0
$t/src(/.*)?	system_u:object_r:src_t:s0
$t/bnd(/.*)?	system_u:object_r:bnd_t:s0
$t/fifo	-p	system_u:object_r:fifo_t:s0
EOF
# The same directory also seen through a bind mount (same device: the
# walk descends into it, and ADD_ASSOC meets its inodes twice).
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
	unshare -m --propagation private sh -c '
		mount --bind "$1/src" "$1/bnd" &&
		"$2" "$3" "$1" "$4" "$1/excl"' \
	sh "$t" "$tmp/tsan_restorecon" "$tmp/fc" "$threads"
