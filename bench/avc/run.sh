#!/bin/sh
# The userspace AVC's cached paths, ours and Debian's libselinux side by
# side on the same server (kernel/'s, on POLICY), as ratios.
#
#   bench/avc/run.sh [POLICY [N]]
#
# hit_ns: avc_has_perm_noaudit on a cached decision (no entry reference);
# check_ns: selinux_check_access with strings, cached (the same buffers
# each call; check_copies_ns: copies of them in turn); t1/t2: calls per
# second in one thread and in two at once on that decision, the AVC
# opened with lock callbacks (Debian's library needs them to be
# thread-safe; ours takes them and does not need them on a hit).
# Single-thread figures are taken on the first CPU, for both libraries;
# t2's threads run one per CPU, and are also compared with the sum of
# what each CPU does alone (the cores of a VM may differ in speed: on
# this project's 2-core machine the second runs this code at half speed).
# POLICY defaults to the refpolicy (selinux-policy-default); the decision
# asked is sshd_t reading sshd_exec_t files.  N: calls per measurement
# (default 20 000 000); each figure is the best of 5 runs of N/5 calls.
# Run from the source tree after a build.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$top/build}
policy=${1:-/etc/selinux/default/policy/policy.33}
n=${2:-20000000}
bench=$B/bench/avc/avc_bench
[ -x "$bench" ] || { echo "run.sh: build first (ninja -C $B)" >&2; exit 1; }
s=system_u:system_r:sshd_t:s0
t=system_u:object_r:sshd_exec_t:s0
run() { # env...
	"$top/tests/lib/with-server.sh" -e 1 "$policy" sh -c \
		"$* '$bench' \"\$SELINUXFS_MNT\" '$s' '$t' file read $n"
}
deb=$(run env)
ours=$(run env LD_LIBRARY_PATH="$B/libselinux")
printf '%-16s %14s %14s %9s\n' "" "Debian 3.4" "ours" "Debian/ours"
for k in hit_ns check_ns check_copies_ns; do
	d=$(echo "$deb" | awk -v k=$k '$1==k{print $2}')
	o=$(echo "$ours" | awk -v k=$k '$1==k{print $2}')
	printf '%-16s %11s ns %11s ns %8.2fx\n' "$k" "$d" "$o" \
		"$(echo "$d $o" | awk '{print $1/$2}')"
done
for k in t1_per_s t2_per_s; do
	d=$(echo "$deb" | awk -v k=$k '$1==k{print $2}')
	o=$(echo "$ours" | awk -v k=$k '$1==k{print $2}')
	printf '%-16s %12s/s %12s/s %8.2fx\n' "$k" "$d" "$o" \
		"$(echo "$o $d" | awk '{print $1/$2}')"
done
d1=$(echo "$deb" | awk '$1=="t1_per_s"{print $2}')
d2=$(echo "$deb" | awk '$1=="t2_per_s"{print $2}')
o1=$(echo "$ours" | awk '$1=="t1_per_s"{print $2}')
o2=$(echo "$ours" | awk '$1=="t2_per_s"{print $2}')
echo "2 threads / 1 thread: Debian $(echo "$d2 $d1" | awk '{printf "%.2f", $1/$2}')x, ours $(echo "$o2 $o1" | awk '{printf "%.2f", $1/$2}')x"
d1b=$(echo "$deb" | awk '$1=="t1b_per_s"{print $2}')
o1b=$(echo "$ours" | awk '$1=="t1b_per_s"{print $2}')
if [ -n "$o1b" ]; then
	# What the two cores do alone, added up: the most two threads can do.
	echo "1 thread on the second CPU: Debian ${d1b}/s, ours ${o1b}/s"
	echo "2 threads / (1 thread on each CPU, added): Debian $(echo "$d2 $d1 $d1b" | awk '{printf "%.2f", $1/($2+$3)}'), ours $(echo "$o2 $o1 $o1b" | awk '{printf "%.2f", $1/($2+$3)}')"
fi
