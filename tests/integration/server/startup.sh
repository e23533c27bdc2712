#!/bin/sh
# selinuxfsd's arguments and the failures before it mounts anything: the
# exit status and the first line of stdout or stderr, written by hand
# (kernel/server/main.c).
#   startup.sh SELINUXFSD
set -u
srv=$1
case $srv in /*) ;; *) srv=$PWD/$srv ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail=0
echo garbage >garbage
: >empty
mkdir adir
usage="usage: selinuxfsd [-f] [-v] [-e 0|1] POLICY MOUNTPOINT"

# check STATUS out|err FIRST_LINE ARGS...: the other stream stays empty
# (but for libgcov's complaints in a coverage build).
check() {
	want_st=$1 stream=$2 want=$3
	shift 3
	timeout 20 "$srv" "$@" >out 2>err
	st=$?
	grep -v '^libgcov' err >err2
	if [ "$stream" = out ]; then
		got=$(head -n 1 out)
		other=$(cat err2)
	else
		got=$(head -n 1 err2)
		other=$(cat out)
	fi
	if [ "$st" != "$want_st" ] || [ "$got" != "$want" ] ||
	   [ -n "$other" ]; then
		echo "FAIL: selinuxfsd $*: status $st (want $want_st), $stream '$got' (want '$want'), other stream '$other'"
		fail=1
	else
		echo "ok: selinuxfsd $*"
	fi
}

check 0 out "$usage" -h
check 1 err "$usage"
check 1 err "$usage" -n
check 1 err "$usage" garbage
check 1 err "$usage" a b c
check 1 err "$usage" -n a b
check 1 err "$usage" -e 2 garbage mnt
check 1 err "$usage" -e "" garbage mnt
check 1 err "$srv: invalid option -- 'x'" -x garbage mnt
check 1 err "selinuxfsd: nofile: No such file or directory" nofile mnt
check 1 err "selinuxfsd: adir: Invalid argument" adir mnt
check 1 err "selinuxfsd: garbage: not a valid binary policy" garbage mnt
check 1 err "selinuxfsd: empty: not a valid binary policy" -e 1 empty mnt
check 3 err "fuse: failed to access mountpoint $dir/nomnt: No such file or directory" \
	-f -n "$dir/nomnt"
# fuse's own complaint first, then ours.
if ! grep -qx "selinuxfsd: cannot mount on $dir/nomnt" err2; then
	echo "FAIL: no 'cannot mount on' from selinuxfsd -f -n $dir/nomnt"
	fail=1
fi
exit $fail
