#!/bin/sh
# Line and branch coverage of the library (per layer of libselinux/src),
# the security server (kernel/server) and the utilities (utils), from the
# test suites that run on this host.
#
#   scripts/coverage.sh              build, run the suites, report
#   scripts/coverage.sh SUITE...     only these meson suites
#   scripts/coverage.sh --report     report the data of the last run again
#
# Builds into build-cov/ (-Db_coverage=true, debug: -O0, so that lines and
# branches are the source's), never installs anything.  Every process that
# runs instrumented code writes its counts next to the objects in build-cov/
# (gcc's .gcda files; the paths are absolute, so no GCOV_PREFIX): the unit
# tests, the utilities the integration tests start, Debian's binaries the
# drop-in suite runs on our libselinux.so.1 (LD_LIBRARY_PATH), and
# selinuxfsd under tests/lib/with-server.sh all count.
#
# Suites left out by default (pass them as arguments to include them):
#   vm, system  boot Debian's kernel under qemu (minutes each), and the
#               library runs inside the guest, whose counts never reach
#               build-cov/: they cover the real-kernel paths, see README.md
#   tsan        recompiles the sources with -fsanitize=thread: not counted
#   pip         builds its own wheel (meson-python) outside build-cov/
#   deb         packages and installs into a debootstrap chroot (minutes)
#   install     file layout and pkg-config of an installed tree
#   man, policy manual pages, the bundled policy: no code of ours runs
#
# Output: the table on stdout; per file, build-cov/coverage/index.html
# (line by line) and build-cov/coverage/coverage.txt (one line a file,
# missing lines listed).  JOBS (default 2) test processes at a time.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
dir=build-cov
out=$dir/coverage
jobs=${JOBS:-2}
default_suites="abi unit compat dropin integration fuzz bindings alloc"

report_only=0
suites=""
for a in "$@"; do
	case "$a" in
	--report) report_only=1 ;;
	-h|--help) sed -n '2,31p' "$0"; exit 0 ;;
	*) suites="$suites $a" ;;
	esac
done
[ -n "$suites" ] || suites=$default_suites

"$top/scripts/setup.sh"

status=0
if [ "$report_only" -eq 0 ]; then
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" -Db_coverage=true -Dbuildtype=debug
	fi
	ninja -C "$dir" -j "$jobs"
	# Counts accumulate across runs: start from zero.
	find "$dir" -name '*.gcda' -delete
	args=""
	for s in $suites; do args="$args --suite $s"; done
	# -O0 and the counters make some tests slower than their timeouts
	# were set for.
	# shellcheck disable=SC2086
	meson test -C "$dir" --num-processes "$jobs" --timeout-multiplier 3 \
		--print-errorlogs $args || status=1
	[ "$status" -eq 0 ] ||
		echo "coverage.sh: some tests failed; the figures below are still those of the run" >&2
fi

mkdir -p "$out"
rm -f "$out"/*.html "$out"/*.css
# Only the code under measure: not the tests, the bindings' generated
# wrappers or the benchmarks.
gcovr -r "$top" "$dir" -j "$jobs" \
	--filter 'libselinux/src/' --filter 'kernel/server/' --filter 'utils/' \
	--exclude-unreachable-branches \
	--json-summary "$out/summary.json" \
	--txt "$out/coverage.txt" \
	--html-details "$out/index.html" >/dev/null

python3 - "$out/summary.json" <<'EOF'
import json, sys

files = json.load(open(sys.argv[1]))["files"]
groups = [("libselinux/src/" + l + "/", l)
          for l in ("core", "context", "compute", "avc", "label", "restore",
                    "login")]
groups += [("kernel/server/", "kernel/server"), ("utils/", "utils")]
rows = []
lib = [0, 0, 0, 0]
for prefix, name in groups:
    t = [0, 0, 0, 0]
    for f in files:
        if f["filename"].startswith(prefix):
            t[0] += f["line_covered"]
            t[1] += f["line_total"]
            t[2] += f["branch_covered"]
            t[3] += f["branch_total"]
    if prefix.startswith("libselinux/"):
        lib = [a + b for a, b in zip(lib, t)]
    rows.append((name, t))
rows.insert(6, ("libselinux (all)", lib))

def pct(a, b):
    return "%5.1f %%" % (100.0 * a / b) if b else "    -  "

print("%-17s %-23s   %s" % ("", "     lines", "     branches"))
for name, t in rows:
    print("%-17s %7d/%-7d %s %7d/%-7d %s" %
          (name, t[0], t[1], pct(t[0], t[1]), t[2], t[3], pct(t[2], t[3])))
EOF
echo "per file: $out/index.html, $out/coverage.txt"
exit "$status"
