#!/bin/sh
# scripts/fuzz.sh SECONDS [TARGET...]: run each libFuzzer target of
# tests/fuzz (ASan and UBSan, built by clang in build/) for SECONDS, one
# after the other, one process at a time.  Builds them first if needed.
# Each target keeps a corpus of its own in build/fuzz-corpus/TARGET (it
# grows from run to run; tests/fuzz/seed/ is read, never written) and
# leaves what crashes in build/fuzz-crash/.  Prints the executions and
# any crash per target; exits 1 if any target crashed.
set -eu

secs=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
seed=$top/tests/fuzz/seed
all="context config login media x db subs selinuxfs setrans fc_text fc_bin server load
	booleans initial_contexts selinuxfs_misc mountinfo xattr mapping"
targets=${*:-$all}

command -v clang >/dev/null || { echo "fuzz.sh: clang is needed" >&2; exit 2; }
[ -f "$build/build.ninja" ] || meson setup "$build" "$top"
set --
for t in $targets; do
	set -- "$@" "tests/fuzz/fuzz_${t}_libfuzzer"
	[ "$t" != fc_bin ] || set -- "$@" tests/fuzz/seed.bin
	[ "$t" != server ] || set -- "$@" kernel/policy/bundled-mls.33
done
ninja -C "$build" "$@" >/dev/null

mkdir -p "$build/fuzz-crash"
failed=0
for t in $targets; do
	corpus=$build/fuzz-corpus/$t
	mkdir -p "$corpus"
	# The seeds: a directory per target, a file (or a compiled one) for
	# the older file_contexts targets.
	case $t in
	fc_text) seeds=$corpus; cp "$seed/file_contexts" "$corpus/seed" ;;
	fc_bin) seeds=$corpus; cp "$build/tests/fuzz/seed.bin" "$corpus/seed" ;;
	*) seeds=$seed/$t ;;
	esac
	log=$build/fuzz-crash/$t.log
	rc=0
	"$build/tests/fuzz/fuzz_${t}_libfuzzer" -max_total_time="$secs" \
		-timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$build/fuzz-crash/$t-" \
		"$corpus" "$seeds" >"$log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ "$rc" -eq 0 ]; then
		echo "$t: ${execs:-?} execs in ${secs}s, no crash"
	else
		failed=1
		echo "$t: CRASH (exit $rc) after ${execs:-?} execs; log $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)|artifact' \
			"$log" | head -5 | sed 's/^/    /'
	fi
done
exit $failed
