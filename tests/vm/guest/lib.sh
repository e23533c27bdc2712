# lib.sh: helpers for the checks in tests/vm/checks (busybox sh, inside the
# VM).  A check script starts with ". /vm/lib.sh".
#
# Layout of the guest (run-vm.sh builds it):
#   /opt/ours/lib/libselinux.so.1   our build       /opt/ours/bin/  our utils
#   /opt/ref/lib/libselinux.so.1    Debian's 3.4    /opt/ref/bin/   selinux-utils
#   /opt/tests/bin/                 test programs built against our headers
#   /vm/profile.sh                  the loaded policy's hand-written facts
#   /vm/data/                       files the host hooks (tests/vm/host) left
# No libselinux.so.1 is on the default library path, so a program runs only
# with the library chosen by "ours" or "ref" below: a mix-up cannot pass
# silently.
#
# The helpers keep their variables local, except $out/$rc (capture) and
# $uout/$uerr/$urc (run_util), which are their results.
#
# Results are lines on stdout, counted on the host:
#   ok   PROFILE/NAME
#   FAIL PROFILE/NAME: why          (details follow, indented with "  | ")
#   skip PROFILE/NAME: why

. /vm/profile.sh

OURS_LIB=/opt/ours/lib
REF_LIB=/opt/ref/lib
OURS_BIN=/opt/ours/bin
REF_BIN=/opt/ref/bin

ours() { LD_LIBRARY_PATH=$OURS_LIB "$@"; }
ref() { LD_LIBRARY_PATH=$REF_LIB "$@"; }

pass() { echo "ok   $VM_PROFILE/$1"; }
fail() {
	local n=$1
	shift
	echo "FAIL $VM_PROFILE/$n: $*"
}
skip() {
	local n=$1
	shift
	echo "skip $VM_PROFILE/$n: $*"
}
# detail LABEL TEXT: TEXT indented under a FAIL line
detail() {
	echo "  | $1:"
	printf '%s\n' "$2" | sed 's/^/  |     /'
}

# len CON: what get*filecon return for CON: its size with the NUL
# (getfilecon(3): "the size of the context")
len() { echo $((${#1} + 1)); }

# expect NAME WANT GOT: GOT must be WANT.
expect() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "unexpected answer"
		detail wanted "$2"
		detail got "$3"
	fi
}

# capture CMD...: runs CMD, sets $out (stdout and stderr) and $rc.  When
# $PREP is set, it is eval'd first: it recreates the state each run starts
# from (a fresh file...), since agree/same/same_util run a command twice.
capture() {
	[ -n "${PREP:-}" ] && eval "$PREP"
	out=$("$@" 2>&1)
	rc=$?
}

# agree NAME WANT CMD...: CMD run on our library and on the reference must
# both print WANT (the expectation written from the policy) and exit alike.
agree() {
	local n=$1 want=$2 o orc r rrc
	shift 2
	capture ours "$@"
	o=$out
	orc=$rc
	capture ref "$@"
	r=$out
	rrc=$rc
	if [ "$o" = "$want" ] && [ "$r" = "$want" ] && [ $orc = $rrc ]; then
		pass "$n"
		return
	fi
	if [ "$o" = "$r" ] && [ $orc = $rrc ]; then
		fail "$n" "ours and the reference agree, the expectation differs"
	elif [ "$r" = "$want" ]; then
		fail "$n" "ours differs from the reference and the expectation"
	else
		fail "$n" "ours, the reference and the expectation differ"
	fi
	detail wanted "$want"
	detail "ours (status $orc)" "$o"
	detail "reference (status $rrc)" "$r"
}

# same NAME CMD...: CMD prints the same and exits alike on both libraries.
same() {
	local n=$1 o orc
	shift
	capture ours "$@"
	o=$out
	orc=$rc
	capture ref "$@"
	if [ "$o" = "$out" ] && [ $orc = $rc ]; then
		pass "$n"
		return
	fi
	fail "$n" "ours and the reference differ"
	detail "ours (status $orc)" "$o"
	detail "reference (status $rc)" "$out"
}

# mine NAME WANT CMD...: only our library (the reference lacks the call).
mine() {
	local n=$1 want=$2
	shift 2
	capture ours "$@"
	expect "$n" "$want" "$out"
}

# have_util UTIL: our build has this utility.
have_util() { [ -x "$OURS_BIN/$1" ]; }

# run_util ours|ref UTIL ARGS...: run a utility by its bare name (so both
# see the same argv[0]), setting $uout, $uerr and $urc.
run_util() {
	local which=$1
	shift
	[ -n "${PREP:-}" ] && eval "$PREP"
	if [ "$which" = ours ]; then
		uout=$(PATH=$OURS_BIN:$PATH LD_LIBRARY_PATH=$OURS_LIB "$@" \
			2>/tmp/.vm-uerr)
	else
		uout=$(PATH=$REF_BIN:$PATH LD_LIBRARY_PATH=$REF_LIB "$@" \
			2>/tmp/.vm-uerr)
	fi
	urc=$?
	uerr=$(cat /tmp/.vm-uerr)
}

# same_util NAME UTIL ARGS...: our utility and Debian's print the same
# stdout and stderr and exit with the same status.  Skipped until our
# build has the utility (or $NEEDS, when UTIL is "sh -c SCRIPT" that runs
# it: inside, PATH and LD_LIBRARY_PATH still point at one side).
same_util() {
	local n=$1 u o oe orc
	shift
	u=${NEEDS:-$1}
	NEEDS=
	if ! have_util "$u"; then
		skip "$n" "$u is not built yet"
		return
	fi
	run_util ours "$@"
	o=$uout oe=$uerr orc=$urc
	run_util ref "$@"
	if [ "$o" = "$uout" ] && [ "$oe" = "$uerr" ] && [ $orc = $urc ]; then
		pass "$n"
		return
	fi
	fail "$n" "$* differs from Debian's"
	detail "ours: status $orc, stdout" "$o"
	detail "ours: stderr" "$oe"
	detail "Debian's: status $urc, stdout" "$uout"
	detail "Debian's: stderr" "$uerr"
}

# mine_util NAME WANT UTIL ARGS...: a utility Debian's selinux-utils lacks;
# WANT is "status N" and its stdout, one line each.
mine_util() {
	local n=$1 want=$2
	shift 2
	if ! have_util "$1"; then
		skip "$n" "$1 is not built yet"
		return
	fi
	run_util ours "$@"
	expect "$n" "$want" "status $urc
$uout"
}

# profile_has VAR...: the profile defines every VAR (a check that needs a
# fact of the policy skips when the profile does not state it).
profile_has() {
	local v
	for v in "$@"; do
		eval "[ -n \"\${$v+x}\" ]" || return 1
	done
	return 0
}

# selinuxfs_query FILE REQUEST: one transaction (write, then read on the
# same open file), printing the kernel's answer.
selinuxfs_query() {
	exec 3<>"/sys/fs/selinux/$1"
	printf '%s' "$2" >&3
	cat <&3
	exec 3>&-
}

# entry_setup: /tmp/entry/ holds copies of vmprobe and busybox labelled
# $ENTRY_FILE_CON (by Debian's setfilecon, the trusted tool), so running
# them from KERNEL_CON enters AUTO_DOMAIN.  /tmp/entry/sleep and cat are
# busybox: static, a witness that needs no libselinux at all.
entry_setup() {
	[ -x /tmp/entry/vmprobe ] && return 0
	mkdir -p /tmp/entry
	cp /opt/tests/bin/vmprobe /bin/busybox /tmp/entry/
	ln -s busybox /tmp/entry/sleep
	ln -s busybox /tmp/entry/cat
	ref $REF_BIN/setfilecon "$ENTRY_FILE_CON" /tmp/entry/vmprobe \
		/tmp/entry/busybox
}

# attr_of PID: /proc/PID/attr/current without the library (and its NUL)
attr_of() { tr -d '\0' < "/proc/$1/attr/current"; }

# wait_attr PID NOT: waits (up to 10 s) until PID's context is no longer
# NOT (the background process has done its execve), then prints it.
wait_attr() {
	local i=0
	while [ "$(attr_of "$1")" = "$2" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	attr_of "$1"
}

# sfs_facts TABLE: raw selinuxfs answers against hand-written ones.  Each
# line of TABLE is NAME|OP|ARG|WANT as probe/sfsquery.c reads and prints
# them (for OP "write", ARG is "PATH DATA").  All queries go in one run.
sfs_facts() {
	local name op arg want got
	printf '%s\n' "$1" | sed '/^[[:space:]]*$/d; s/^[[:space:]]*//' \
		> /tmp/.sfs-table
	awk -F'|' '{ arg = $3; if ($2 == "write") sub(/ /, "\t", arg);
		print $2 "\t" arg }' /tmp/.sfs-table > /tmp/.sfs-queries
	sfsquery /tmp/.sfs-queries > /tmp/.sfs-answers 2>&1
	exec 4< /tmp/.sfs-answers
	while IFS='|' read -r name op arg want; do
		IFS= read -r got <&4 || got="(no answer)"
		expect "selinuxfs:$name" "$want" "$got"
	done < /tmp/.sfs-table
	exec 4<&-
}
