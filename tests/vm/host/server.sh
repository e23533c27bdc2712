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
#   times    how long the server took, per kind of query (sfsquery -t)
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

# ---- kernel/'s server, started on VM_POLICY (loaded once, so that the
# sequence numbers match the guest's single load) by tests/lib/with-server.sh,
# which mounts it in a namespace of its own and stops it afterwards.
server=$VM_BUILD/kernel/server/selinuxfsd
[ -x "$server" ] || nothing "kernel/'s security server is not built yet"
SELINUXFSD=$server "$VM_SOURCE/tests/lib/with-server.sh" "$VM_POLICY" \
	sh -c '"$1" -m "$SELINUXFS_MNT" -t "$3.times" "$2" > "$3"' sh \
	"$query" "$VM_WORK/queries" "$VM_WORK/answers" 2> "$VM_WORK/server.log"
rc=$?
[ $rc = 0 ] || { echo "sfsquery against the server failed ($rc)"; cat "$VM_WORK/server.log"; exit 1; }
cp "$VM_WORK/queries" "$VM_WORK/answers" "$out/"
cp "$VM_WORK/answers.times" "$out/times"
echo "server comparison: $(grep -vc '^#' "$out/queries") queries answered by $server"
