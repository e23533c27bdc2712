#!/bin/bash
# run-vm.sh - the VM suite: boots Debian 12's own kernel (SELinux built in)
# under qemu, once per policy profile, with an initramfs holding our
# libselinux.so.1, our utilities, the test programs, Debian's libselinux1
# and selinux-utils (the reference), the policy and /etc/selinux/config;
# runs tests/vm/checks/ inside, enforcing, and prints every result and a
# closing "N passed, N failed" line.
#
#   run-vm.sh --build BUILD_DIR --source SOURCE_DIR --profile NAME=POLICY...
#
# NAME picks tests/vm/profiles/NAME.sh (the policy's hand-written facts);
# POLICY is the binary policy file booted with it.  meson.build passes them.
#
# Exit status: 0 all checks passed; 1 a check failed or a VM did not report;
# 77 (meson's "skipped") only when qemu cannot start at all.
#
# Environment (all optional):
#   VM_CACHE     downloads and unpacked packages
#                (default ${XDG_CACHE_HOME:-$HOME/.cache}/libselinux-vm)
#   VM_KERNEL_PKG  kernel package (default: linux-image-amd64's dependency,
#                remembered in the cache after the first run)
#   VM_ACCEL     tcg (default) or kvm (nested KVM hangs on these machines)
#   VM_JOBS      VMs booted at once (default: number of CPUs, at most 2)
#   VM_TIMEOUT   seconds one VM may run (default 240)
#   VM_MEM       guest memory in MiB (default 512)
#   VM_ONLY      shell pattern of profile names to boot (default all)
#   VM_CHECKS    shell patterns (space separated) of check files to run
#   VM_KEEP=1    keep the work directory (initramfs trees, console logs)
#   VM_VERBOSE=1 print each guest's kernel console after its results
set -uo pipefail
# meson points LD_LIBRARY_PATH at our build for tests; the host tools used
# here (cp, dpkg, tar, apt-get) link libselinux and must keep Debian's.
unset LD_LIBRARY_PATH

SKIP=77
die() { echo "run-vm: $*" >&2; exit 1; }
note() { echo "run-vm: $*" >&2; }
skip_suite() { echo "run-vm: SKIP: $*"; exit $SKIP; }

BUILD='' SRC=''
PROFILES=()
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$2; shift 2 ;;
	--source) SRC=$2; shift 2 ;;
	--profile) PROFILES+=("$2"); shift 2 ;;
	*) die "unknown argument $1 (see the header of $0)" ;;
	esac
done
[ -n "$BUILD" ] && [ -n "$SRC" ] && [ ${#PROFILES[@]} -gt 0 ] ||
	die "usage: run-vm.sh --build DIR --source DIR --profile NAME=POLICY..."
BUILD=$(cd "$BUILD" && pwd) || die "no build dir"
SRC=$(cd "$SRC" && pwd) || die "no source dir"
VMSRC=$SRC/tests/vm

CACHE=${VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/libselinux-vm}
ACCEL=${VM_ACCEL:-tcg}
TIMEOUT=${VM_TIMEOUT:-240}
MEM=${VM_MEM:-512}
JOBS=${VM_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$JOBS" -gt 2 ] && JOBS=2
[ "$JOBS" -lt 1 ] && JOBS=1
T0=$(date +%s)
mkdir -p "$CACHE/debs" || die "cannot create $CACHE"

. "$SRC/tests/lib/vm-cache.sh"

# ---------- qemu: the one thing whose absence is a skip
why=$(ensure_qemu "$ACCEL") || skip_suite "$why"

# ---------- kernel and busybox: apt-get download into the cache, never
# installed (tests/lib/vm-cache.sh).
# one run at a time unpacks into the cache (two builds may test at once)
exec 9> "$CACHE/.lock" && flock 9 || die "cannot lock $CACHE"
KPKG=$(kernel_pkg) ||
	die "cannot resolve linux-image-amd64's kernel package; set VM_KERNEL_PKG"
KDIR=$(fetch_pkg "$KPKG" "$KPKG" ./boot) || die "cannot fetch $KPKG"
VMLINUZ=$(ls "$KDIR"/boot/vmlinuz-* 2>/dev/null | head -n1)
KCONFIG=$(ls "$KDIR"/boot/config-* 2>/dev/null | head -n1)
[ -n "$VMLINUZ" ] || die "$KPKG has no /boot/vmlinuz-*"
grep -q '^CONFIG_SECURITY_SELINUX=y' "$KCONFIG" ||
	die "$KPKG is not built with CONFIG_SECURITY_SELINUX=y"
BBDIR=$(fetch_pkg busybox-static busybox-static ./bin/busybox) || die "cannot fetch busybox-static"
BB=$BBDIR/bin/busybox
[ -x "$BB" ] || die "no busybox in busybox-static"
exec 9>&-

# ---------- the common part of the initramfs
vm_workdir libselinux-vm "${VM_KEEP:-0}"

R=$WORK/common
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,root,etc/selinux} \
	"$R"/opt/{ours,ref}/{lib,bin} "$R"/opt/tests/bin "$R"/vm/checks "$R"/vm/data
cp "$BB" "$R/bin/busybox"
for a in $("$BB" --list-full); do
	[ -e "$R/$a" ] || ln -s /bin/busybox "$R/$a"
done

is_elf() { [ -f "$1" ] && [ "$(head -c4 "$1" | tr -d '\177')" = ELF ]; }
ELVES=()
# put SRC DEST: copy a file into the tree; remember ELF files, whose
# libraries are added below.
put() {
	mkdir -p "$R$(dirname "$2")" && cp -L "$1" "$R$2" || die "cannot copy $1"
	is_elf "$R$2" && ELVES+=("$1")
}

# ours: the library and every utility the build has produced so far
put "$BUILD/libselinux/libselinux.so.1" /opt/ours/lib/libselinux.so.1
n_utils=0
for f in "$BUILD"/utils/*; do
	[ -x "$f" ] && is_elf "$f" || continue
	put "$f" "/opt/ours/bin/${f##*/}"
	n_utils=$((n_utils + 1))
done
# the test programs built against our headers (tests/vm/meson.build)
for f in "$BUILD"/tests/vm/*; do
	[ -x "$f" ] && is_elf "$f" || continue
	put "$f" "/opt/tests/bin/${f##*/}"
done
# the reference: Debian's library and selinux-utils, side by side
ref_lib=$(readlink -f /lib/x86_64-linux-gnu/libselinux.so.1)
[ -f "$ref_lib" ] || die "Debian's libselinux1 is not installed"
put "$ref_lib" /opt/ref/lib/libselinux.so.1
n_ref=0
for f in $(dpkg -L selinux-utils 2>/dev/null | grep '^/usr/s\?bin/'); do
	[ -x "$f" ] && is_elf "$f" || continue
	put "$f" "/opt/ref/bin/${f##*/}"
	n_ref=$((n_ref + 1))
done
[ $n_ref -gt 0 ] || note "warning: selinux-utils is not installed; utility checks will fail"

# Shared libraries of all of those, at their host paths; never a
# libselinux.so.1 (see guest/lib.sh).
add_lib() {
	[ -e "$R$1" ] && return
	mkdir -p "$R$(dirname "$1")" && cp -L "$1" "$R$1"
}
add_lib /lib64/ld-linux-x86-64.so.2
for f in "${ELVES[@]}"; do
	for l in $(ldd "$f" 2>/dev/null | grep -v 'libselinux\.so' |
		   grep -o '/[^ ]*' || true); do
		add_lib "$l"
	done
done

cp "$VMSRC/guest/init" "$R/init" && chmod 755 "$R/init"
cp "$VMSRC/guest/lib.sh" "$VMSRC/guest/run-checks.sh" "$R/vm/"
cp "$VMSRC"/checks/* "$R/vm/checks/" 2>/dev/null
[ -n "${VM_CHECKS:-}" ] && printf '%s\n' "$VM_CHECKS" > "$R/vm/only"

# newc archives; the kernel unpacks concatenated ones in order, so each
# profile's own files are a second, small archive.
mkcpio() { ( cd "$1" && find . | "$BB" cpio -o -H newc 2>/dev/null ); }
mkcpio "$R" > "$WORK/common.cpio" || die "cpio failed"

# ---------- one boot per profile
APPEND="console=ttyS0 lsm=selinux enforcing=1 panic=-1 quiet"

# prepare PROFILE POLICY: the profile's initramfs in $WORK/PROFILE/
prepare() {
	local name=$1 policy=$2 d="$WORK/$1" P="$WORK/$1/root" type h
	mkdir -p "$P/vm/data" "$P/etc/selinux" || return 1
	[ -f "$VMSRC/profiles/$name.sh" ] || { echo "no tests/vm/profiles/$name.sh"; return 1; }
	[ -f "$policy" ] || { echo "no policy file $policy"; return 1; }
	{ echo "VM_PROFILE=$name"; cat "$VMSRC/profiles/$name.sh"; } > "$P/vm/profile.sh"
	type=$( . "$P/vm/profile.sh" && echo "$POLICYTYPE")
	[ -n "$type" ] || { echo "profile $name sets no POLICYTYPE"; return 1; }
	mkdir -p "$P/etc/selinux/$type/policy"
	cp "$policy" "$P/etc/selinux/$type/policy/policy.33" || return 1
	printf 'SELINUX=enforcing\nSELINUXTYPE=%s\n' "$type" > "$P/etc/selinux/config"
	# host files the profile wants at the same path (its policy's contexts)
	for h in $( . "$P/vm/profile.sh" && echo "${HOST_FILES:-}"); do
		[ -e "$h" ] || { echo "HOST_FILES: no $h"; return 1; }
		mkdir -p "$P$(dirname "$h")" && cp -a "$h" "$P$h" || return 1
	done
	# POLICY_TREE: the policy's /etc/selinux/NAME tree in the build
	# directory (the bundled policy's); its files but the policy binary
	tree=$( . "$P/vm/profile.sh" && echo "${POLICY_TREE:-}")
	if [ -n "$tree" ]; then
		[ -d "$BUILD/$tree" ] || { echo "POLICY_TREE: no $BUILD/$tree"; return 1; }
		mkdir -p "$P/etc/selinux/$type" || return 1
		for f in "$BUILD/$tree"/*; do
			[ "${f##*/}" = policy ] && continue
			cp -a "$f" "$P/etc/selinux/$type/" || return 1
		done
	fi
	# host hooks: files the guest checks compare against (tests/vm/host)
	for h in "$VMSRC"/host/*.sh; do
		[ -f "$h" ] || continue
		VM_PROFILE=$name VM_POLICY=$policy VM_ROOT=$P VM_BUILD=$BUILD \
			VM_SOURCE=$SRC VM_WORK=$d bash "$h" > "$d/hook-${h##*/}.log" 2>&1 ||
			echo "FAIL $name/host:${h##*/}: exited with status $?" >> "$d/host-results"
	done
	{ cat "$WORK/common.cpio"; mkcpio "$P"; } > "$d/initrd" || return 1
}

# boot PROFILE: runs the VM; leaves out.log, console.log, status in $WORK/PROFILE
boot() {
	local d="$WORK/$1" accel=(-accel tcg)
	[ "$ACCEL" = kvm ] && accel=(-accel kvm -cpu host)
	: > "$d/out.log"
	qemu-system-x86_64 "${accel[@]}" -m "$MEM" -smp 1 -nodefaults \
		-no-user-config -display none -no-reboot \
		-kernel "$VMLINUZ" -initrd "$d/initrd" -append "$APPEND" \
		-serial "file:$d/console.log" -serial "file:$d/out.log" \
		2> "$d/qemu.err" &
	wait_vm $! "$TIMEOUT" "$d"
}

names=()
for spec in "${PROFILES[@]}"; do
	name=${spec%%=*}
	policy=${spec#*=}
	# shellcheck disable=SC2254
	case $name in ${VM_ONLY:-*}) ;; *) continue ;; esac
	names+=("$name")
	mkdir -p "$WORK/$name"
	err=$(prepare "$name" "$policy") ||
		echo "FAIL $name/boot: cannot build the initramfs: $err" >> "$WORK/$name/host-results"
done
[ ${#names[@]} -gt 0 ] || die "VM_ONLY=${VM_ONLY:-} matches no profile"
note "$KPKG, $ACCEL, ${#names[@]} boot(s), $JOBS at a time; $n_utils of our utilities, $n_ref of Debian's"

# at most $JOBS VMs at once, each a background job
running=0
for name in "${names[@]}"; do
	[ -s "$WORK/$name/initrd" ] || continue
	if [ $running -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
	boot "$name" &
	QPIDS+=($!)
	running=$((running + 1))
done
wait
QPIDS=()

# ---------- results
pass=0 failn=0 skipn=0
failures=()
for name in "${names[@]}"; do
	d=$WORK/$name
	echo "=== profile $name ($(cat "$d/seconds" 2>/dev/null || echo 0) s)"
	lines=$(cat "$d/host-results" 2>/dev/null)
	if [ -s "$d/initrd" ]; then
		lines+=$'\n'$(tr -d '\r' < "$d/out.log")
		if [ "$(cat "$d/status")" = timeout ]; then
			lines+=$'\n'"FAIL $name/boot: the VM ran over ${TIMEOUT}s and was killed"
		elif ! grep -q '^@@VM-DONE@@' "$d/out.log"; then
			lines+=$'\n'"FAIL $name/boot: the VM stopped before the checks finished"
		elif [ -z "${VM_CHECKS:-}" ] && ! grep -q '^ok ' "$d/out.log"; then
			lines+=$'\n'"FAIL $name/boot: no check passed at all"
		fi
	fi
	printf '%s\n' "$lines" | grep -v '^@@VM-DONE@@' | sed '/^$/d'
	while IFS= read -r l; do
		case $l in
		"ok   "*) pass=$((pass + 1)) ;;
		"FAIL "*) failn=$((failn + 1)); failures+=("${l#FAIL }") ;;
		"skip "*) skipn=$((skipn + 1)) ;;
		esac
	done <<< "$lines"
	if grep -q 'FAIL .*/boot:' <<< "$lines" || [ "${VM_VERBOSE:-0}" = 1 ]; then
		echo "--- $name: kernel console (tail)"
		tail -n 40 "$d/console.log" 2>/dev/null
		cat "$d/qemu.err" 2>/dev/null
	fi
	for h in "$d"/hook-*.log; do
		[ -s "$h" ] && { echo "--- $name: ${h##*/}"; cat "$h"; }
	done
done

echo "==="
for f in "${failures[@]}"; do echo "failed: $f"; done
[ $skipn -gt 0 ] && echo "($skipn skipped: see the skip lines above)"
echo "vm: $(( $(date +%s) - T0 )) s wall time"
echo "$pass passed, $failn failed"
[ $failn -eq 0 ] && [ $pass -gt 0 ]
