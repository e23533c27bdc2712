#!/bin/sh
# selabel_compare (utils/selabel_compare.c): Debian 12 has no such program
# to compare with, so its answers are written here by hand.
#   selabel_compare.sh PROGRAM
set -u
prog=$1
case $prog in /*) ;; *) prog=$PWD/$prog ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail=0

printf '/a system_u:object_r:a_t:s0\n' >A
# not cp: it links libselinux, the ASan build of which it cannot load
cat A >A2
printf '/a system_u:object_r:a_t:s0\n/b(/.*)? system_u:object_r:b_t:s0\n' >B
printf '/a system_u:object_r:c_t:s0\n' >C
printf 'cdrom system_u:object_r:removable_device_t:s0\n' >M

# check EXPECTED_STATUS EXPECTED_FIRST_LINE ARGS...: the exit status and
# the first line of stdout and stderr together.
check() {
	want_st=$1 want=$2
	shift 2
	got=$("$prog" "$@" 2>&1 | grep -v '^libgcov' | head -n 1)
	"$prog" "$@" >/dev/null 2>&1
	st=$?
	if [ "$st" != "$want_st" ] || [ "$got" != "$want" ]; then
		echo "FAIL: selabel_compare $*: status $st (want $want_st): '$got' (want '$want')"
		fail=1
	else
		echo "ok: selabel_compare $*"
	fi
}

check 0 "A is equal to A2" A A2
check 1 "A is a subset of B" A B
check 1 "B is a superset of A" B A
check 1 "A is incomparable with C" A C
check 0 "A is equal to A2" -b file A A2
# Only the file backend compares; the others answer "incomparable".
check 1 "M is incomparable with M" -b media M M
check 2 "$prog: cannot open nofile: No such file or directory" A nofile
check 2 "$prog: cannot open nofile: No such file or directory" nofile A
check 2 "usage: $prog [-v] [-b backend] file1 file2" A
check 2 "usage: $prog [-v] [-b backend] file1 file2" A B C
check 2 "usage: $prog [-v] [-b backend] file1 file2" -b zzz A B
check 2 "$prog: invalid option -- 'x'" -x A B
exit $fail
