#!/bin/sh
# Decisions per second through the library and kernel/'s server, ours and
# Debian's libselinux side by side on the same server, as a ratio.
#
#   bench/compute/run.sh [POLICY [N]]
#
# uncached: every (source, target) pair new to the server's decision
# cache; cached: the same 64 pairs again (the server's cache answers, each
# still a round trip through FUSE); avc: avc_has_perm on those 64 pairs
# (the library's AVC answers, no round trip).
#
# POLICY defaults to the refpolicy (selinux-policy-default's policy.33,
# 4000 types), N to 20000 decisions per measurement.  Run from the source
# tree after a build (scripts/test.sh or ninja -C build).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$top/build}
policy=${1:-/etc/selinux/default/policy/policy.33}
n=${2:-20000}
bench=$B/bench/compute/compute_bench
[ -x "$bench" ] || { echo "run.sh: build first (ninja -C $B)" >&2; exit 1; }
types=$(mktemp)
trap 'rm -f "$types"' EXIT
# the types of the policy, as object contexts the policy accepts
python3 - "$policy" > "$types" <<'PY'
import subprocess, sys, re
def decompile(mls):
    r = subprocess.run(["checkpolicy"] + (["-M"] if mls else []) +
                       ["-b", "-F", "-o", "/dev/stdout", sys.argv[1]],
                       capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else ""
out = decompile(True) or decompile(False)
mls = "\nsensitivity " in out or "\nlevel " in out
types = re.findall(r"^type (\w+)", out, re.M)
for t in types[:400]:
    print("system_u:object_r:%s%s" % (t, ":s0" if mls else ""))
PY
run() { # label env...
	"$top/tests/lib/with-server.sh" "$policy" sh -c \
		"$* '$bench' \"\$SELINUXFS_MNT\" '$types' $n"
}
deb=$(run env)
ours=$(run env LD_LIBRARY_PATH="$B/libselinux")
printf '%-10s %14s %14s %8s\n' "" "Debian 3.4" "ours" "ratio"
for k in uncached cached avc; do
	d=$(echo "$deb" | awk -v k=$k '$1==k{print $2}')
	o=$(echo "$ours" | awk -v k=$k '$1==k{print $2}')
	printf '%-10s %12s/s %12s/s %7.2fx\n' "$k" "$d" "$o" \
		"$(echo "$o $d" | awk '{print $1/$2}')"
done
