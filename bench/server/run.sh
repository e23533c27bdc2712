#!/bin/bash
# The security server (kernel/server) against the kernel it stands in for,
# on the same queries, and against itself with one and two clients.
#
#   bench/server/run.sh [POLICY [N]]
#
# POLICY defaults to Debian's refpolicy built MLS (selinux-policy-mls,
# 16 sensitivities, 1024 categories, ~4 900 types); N (default 4000) is
# sfsgen's -n: about N queries of each kind, ~27 000 in all (access,
# create, relabel, member, user from process contexts, context, the
# malformed and out-of-range ones, file reads).
#
# 1. The same query set answered by Debian 12's kernel (booted under qemu,
#    TCG, by tests/vm/run-vm.sh with only the server comparison) and by
#    kernel/'s server on this host (host/server.sh); both sides time every
#    query with sfsquery -t.  The answers are compared byte for byte too
#    (the check's result is printed).  Printed: per kind, the count, the
#    mean and the longest query of each side, and the kernel's mean over
#    the server's.
# 2. Cached access decisions per second through the server with one
#    client and with two at once (sfsquery processes), and the ratio;
#    beside it the floor: the same clients against nullfs.c (a FUSE
#    server of the same shape that decides nothing) and pipe ping-pong
#    pairs (pingpong.c); then the same over FUSE's io_uring transport
#    where the kernel has it (the server's kernel/server/uring.c, and
#    nullfs_uring.c).  ONLY=2 runs this part alone (no VM).
#
# Run from the source tree after a build; the VM part needs what the VM
# suite needs (tests/vm/README.md) and takes about a minute.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$top/build}
policy=${1:-/etc/selinux/mls/policy/policy.33}
n=${2:-4000}
for f in "$B/tests/vm/sfsquery" "$B/tests/vm/sfsgen" "$B/kernel/server/selinuxfsd" \
	"$B/bench/server/nullfs" "$B/bench/server/pingpong"; do
	[ -x "$f" ] || { echo "run.sh: build first ($f)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "${ONLY:-}" != 2 ]; then
echo "== 1. the kernel (qemu TCG) and the server (host), $policy, sfsgen -n $n"
VM_ONLY=refpolicy-mls VM_CHECKS='35-*' VM_SERVER_QUERIES=$n \
	"$top/tests/vm/run-vm.sh" --build "$B" --source "$top" \
	--profile "refpolicy-mls=$policy" > "$tmp/vm.log" 2>&1 || true
grep -E '^(ok|FAIL) .*server' "$tmp/vm.log" | sed 's/^/   /' | head -20
if ! grep -q '^# time ' "$tmp/vm.log"; then
	echo "   no timings from the VM:"; tail -20 "$tmp/vm.log"; exit 1
fi
printf '   %-14s %7s %12s %12s %8s %11s %11s\n' kind n "kernel mean" \
	"server mean" ratio "kernel max" "server max"
grep '^# time ' "$tmp/vm.log" | while read -r _ _ kind _ kn ks kmax _ sn ss smax; do
	[ -n "${sn:-}" ] || continue
	awk -v k="$kind" -v kn="$kn" -v ks="$ks" -v km="$kmax" -v sn="$sn" \
	    -v ss="$ss" -v sm="$smax" 'BEGIN {
		km_ = ks / kn * 1e3; sm_ = ss / sn * 1e3
		printf "   %-14s %7d %9.3f ms %9.3f ms %7.2fx %8.2f ms %8.2f ms\n",
			k, kn, km_, sm_, km_ / sm_, km * 1e3, sm * 1e3 }'
done
grep '^# time all ' "$tmp/vm.log" | while read -r _ _ _ _ kn ks _ _ sn ss _; do
	echo "   total: the kernel ${ks} s, the server ${ss} s for $kn queries"
done
fi

echo "== 2. cached access decisions through the server: 1 and 2 clients"
# Each round times 1 client, then 2 at once, against the server and
# against nullfs (bench/server/nullfs.c: the same FUSE file, loop and
# options, a fixed answer, no decision): what the machine gives any FUSE
# server of this shape.  Best of 5 rounds each.  pingpong: pipe round
# trips of 1 and 2 client/server process pairs.
q="system_u:system_r:kernel_t:s0 system_u:object_r:etc_t:s0 6"
yes "access	$q" | head -n 20000 > "$tmp/acc"
cat > "$tmp/clients.sh" <<'SH'
# clients.sh NAME MNT K: K sfsquery processes at once, each 20000 decisions
t0=$(date +%s%N)
for i in $(seq 1 "$3"); do "$SFSQUERY" -m "$2" "$ACC" > /dev/null & done
wait
echo "$1 $3 $(( $(date +%s%N) - t0 ))"
SH
cat > "$tmp/rounds.sh" <<'SH'
# inside with-server.sh's mount namespace: nullfs beside the server
mkdir -p "$TMPD/null"
"$NULLFS" "$TMPD/null" & np=$!
for _ in $(seq 100); do
	grep -q " $TMPD/null fuse" /proc/self/mountinfo && break
	sleep 0.05
done
for r in 1 2 3 4 5; do
	for k in 1 2; do sh "$TMPD/clients.sh" server "$SELINUXFS_MNT" $k; done
	for k in 1 2; do sh "$TMPD/clients.sh" nullfs "$TMPD/null" $k; done
done
kill -INT $np; umount "$TMPD/null" 2>/dev/null; wait $np 2>/dev/null
true
SH
# part2 LABEL NULLFS: the rounds with the transport the module offers now
part2() {
	SFSQUERY=$B/tests/vm/sfsquery ACC=$tmp/acc SELINUXFSD=$B/kernel/server/selinuxfsd \
	NULLFS=$2 TMPD=$tmp \
		"$top/tests/lib/with-server.sh" "$policy" sh "$tmp/rounds.sh" \
		> "$tmp/par" 2>&1 || { cat "$tmp/par"; exit 1; }
	awk -v t="$1" '$1 == "server" || $1 == "nullfs" {
		n = $1; k = $2; rate = k * 20000 / ($3 / 1e9)
		if (rate > best[n, k]) best[n, k] = rate }
	     END { for (i = 1; i <= 2; i++) {
			n = i == 1 ? "server" : "nullfs"
			printf "   %-9s %-6s 1 client %6.0f/s, 2 clients %6.0f/s: %.2fx (best of 5)\n",
				t, n, best[n, 1], best[n, 2], best[n, 2] / best[n, 1] } }' "$tmp/par"
}
# /dev/fuse, then FUSE's io_uring transport where the kernel has it (the
# fuse module's enable_uring, restored afterwards; kernel/server/uring.c)
up=/sys/module/fuse/parameters/enable_uring
old_up=
if [ -w "$up" ]; then
	old_up=$(cat "$up")
	trap 'echo "$old_up" > "$up"; rm -rf "$tmp"' EXIT
	echo N > "$up"
fi
part2 /dev/fuse "$B/bench/server/nullfs"
if [ -n "$old_up" ] && [ -x "$B/bench/server/nullfs_uring" ]; then
	echo Y > "$up"
	part2 io_uring "$B/bench/server/nullfs_uring"
	echo "$old_up" > "$up"
else
	echo "   (no FUSE io_uring transport here: Linux >= 6.14 and liburing)"
fi
"$B/bench/server/pingpong" | awk '{ r[$1] = $2 }
     END { printf "   pipes   1 pair %8.0f/s, 2 pairs %8.0f/s: %.2fx\n", r[1], r[2], r[2] / r[1] }'
