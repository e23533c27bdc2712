#!/bin/sh
# The whole test suite: installs what is missing, builds twice (plain, and
# with AddressSanitizer + UndefinedBehaviorSanitizer) and runs every test
# in both builds.  Nothing is installed outside the build directories.
#
#   scripts/test.sh            everything
#   scripts/test.sh SUITE...   only these meson suites (unit, compat, ...)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/scripts/setup.sh"

suites=""
for s in "$@"; do suites="$suites --suite $s"; done

build() { # dir [meson options...]
	dir=$1
	shift
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@"
	fi
	ninja -C "$dir"
}

status=0
build build
# shellcheck disable=SC2086
meson test -C build --print-errorlogs $suites || status=1

build build-asan -Db_sanitize=address,undefined -Db_lundef=false \
	-Dbuildtype=debug
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_odr_violation=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# shellcheck disable=SC2086
meson test -C build-asan --print-errorlogs --no-suite vm --no-suite system $suites || status=1

if [ "$status" -eq 0 ]; then
	echo "test.sh: all suites passed (plain and ASan+UBSan builds)"
else
	echo "test.sh: FAILURES - see the logs above" >&2
fi
exit "$status"
