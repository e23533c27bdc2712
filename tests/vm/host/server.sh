#!/bin/bash
# Host half of the security-server comparison (checks/35-server.sh is the
# guest half).  run-vm.sh runs every host/*.sh once per profile, before the
# boot, with VM_PROFILE, VM_POLICY (the binary policy), VM_ROOT (the
# profile's part of the initramfs), VM_BUILD, VM_SOURCE and VM_WORK (a
# scratch directory) set; a non-zero exit is a failure of the profile.
#
# It leaves in $VM_ROOT/vm/data/server/:
#   queries  the policy's query set (sfsgen, sfsquery's input format)
#   answers  what kernel/'s server, started on VM_POLICY, answered to them
#            (sfsquery -m MOUNT), one line per query
#   why      instead, when there is nothing to compare: the reason, which
#            the guest check reports as its skip
# The guest asks the real selinuxfs the same queries and compares the
# answers byte for byte.
#
# VM_SERVER_QUERIES caps the per-(source, target, class) part of the set;
# by default the profile's SERVER_QUERIES, else 60000 lines of each kind
# (the guest answers about 10000 queries a second, the vmtest policy's
# full set is 24000).
set -u
out=$VM_ROOT/vm/data/server
mkdir -p "$out"
nothing() {
	echo "$*" > "$out/why"
	exit 0
}

gen=$VM_BUILD/tests/vm/sfsgen
query=$VM_BUILD/tests/vm/sfsquery
[ -x "$gen" ] || nothing "sfsgen is not built (no static libsepol)"
# the guest's enforcing state first, so both sides start alike
{
	printf 'write\tenforce\t1\n'
	"$gen" -n "${VM_SERVER_QUERIES:-$(. "$VM_SOURCE/tests/vm/profiles/$VM_PROFILE.sh" 2>/dev/null; echo "${SERVER_QUERIES:-60000}")}" "$VM_POLICY"
} > "$VM_WORK/queries" || { echo "sfsgen $VM_POLICY failed"; exit 1; }

# ---- kernel/'s server (kernel/server/selinuxfsd).
# find_server prints the daemon's path; start_server DAEMON POLICY MOUNT
# mounts it on MOUNT serving POLICY (loaded once, so that the sequence
# numbers match the guest's single load) and prints its pid;
# stop_server PID MOUNT unmounts.
find_server() {
	[ -x "$VM_BUILD/kernel/server/selinuxfsd" ] || return 1
	echo "$VM_BUILD/kernel/server/selinuxfsd"
}
start_server() {
	"$1" -f "$2" "$3" > /dev/null 2> "$VM_WORK/server.log" &
	spid=$!
	for _ in $(seq 100); do
		grep -q " $3 .* fuse.selinuxfs " /proc/self/mountinfo &&
			{ echo $spid; return 0; }
		kill -0 $spid 2>/dev/null || return 1
		sleep 0.05
	done
	kill $spid 2>/dev/null
	return 1
}
stop_server() {
	kill "$1" 2>/dev/null
	for _ in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	grep -q " $2 .* fuse.selinuxfs " /proc/self/mountinfo &&
		{ umount "$2" 2>/dev/null || fusermount3 -u "$2" 2>/dev/null; }
	return 0
}

server=$(find_server) || nothing "kernel/'s security server is not built yet"
mnt=$(mktemp -d "$VM_WORK/server-mnt.XXXXXX")
pid=$(start_server "$server" "$VM_POLICY" "$mnt") ||
	{ echo "cannot start $server on $VM_POLICY"; exit 1; }
"$query" -m "$mnt" "$VM_WORK/queries" > "$VM_WORK/answers"
rc=$?
stop_server "$pid" "$mnt"
rmdir "$mnt" 2>/dev/null
[ $rc = 0 ] || { echo "sfsquery against the server failed ($rc)"; exit 1; }
cp "$VM_WORK/queries" "$VM_WORK/answers" "$out/"
echo "server comparison: $(grep -vc '^#' "$out/queries") queries answered by $server"
