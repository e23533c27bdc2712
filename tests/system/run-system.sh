#!/bin/bash
# run-system.sh - the system test: a whole Debian 12 system (systemd as PID
# 1, sshd, cron, dbus, auditd, mcstrans, policycoreutils) booted enforcing
# under qemu from a cached disk image, twice: the reference boot with
# Debian's libselinux1, and our boot with our packages (scripts/
# build-debs.sh's) installed with dpkg over Debian's by the initramfs,
# before systemd starts (initramfs/init).  The checks (guest/) run in both boots; the
# host compares the two and the hand-written expectations (expected/).
#
#   run-system.sh --build BUILD_DIR --source SOURCE_DIR
#
# Exit status: 0 every check passed in both boots and the boots agree;
# 1 otherwise (a failed image build too); 77 (meson's "skipped") only
# when qemu cannot start at all.
#
# Environment (all optional):
#   VM_CACHE      cache of packages and the disk image (as tests/vm:
#                 ${XDG_CACHE_HOME:-$HOME/.cache}/libselinux-vm)
#   VM_ACCEL      tcg (default) or kvm
#   SYS_TIMEOUT   seconds one boot (both of its phases) may take (1500)
#   SYS_MEM       guest memory in MiB (1024)
#   SYS_ONLY      ref or ours: boot only that one (no comparison)
#   SYS_CHECKS    shell patterns (space separated) of check files to run
#   SYS_KEEP=1    keep the work directory (console logs, raw results)
#   SYS_APPEND    more kernel command line (systemd.mask=UNIT, ...)
#   SYS_SHELL=ref|ours  boot that side with a root shell on this terminal
#                 (serial console) instead of the checks; see README.md
set -uo pipefail
unset LD_LIBRARY_PATH

SKIP=77
die() { echo "run-system: $*" >&2; exit 1; }
note() { echo "run-system: $*" >&2; }

BUILD='' SRC=''
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$2; shift 2 ;;
	--source) SRC=$2; shift 2 ;;
	*) die "unknown argument $1 (see the header of $0)" ;;
	esac
done
[ -n "$BUILD" ] && [ -n "$SRC" ] || die "usage: run-system.sh --build DIR --source DIR"
BUILD=$(cd "$BUILD" && pwd) || die "no build dir"
SRC=$(cd "$SRC" && pwd) || die "no source dir"
HERE=$SRC/tests/system

CACHE=${VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/libselinux-vm}
ACCEL=${VM_ACCEL:-tcg}
TIMEOUT=${SYS_TIMEOUT:-1500}
MEM=${SYS_MEM:-1024}
T0=$(date +%s)
mkdir -p "$CACHE/system" || die "cannot create $CACHE"
. "$SRC/tests/lib/vm-cache.sh"

why=$(ensure_qemu "$ACCEL") || { echo "run-system: SKIP: $why"; exit $SKIP; }
[ "$(id -u)" = 0 ] || die "must run as root (the image is built with debootstrap)"

# ---------- kernel, busybox and the image, under the cache's lock
exec 9> "$CACHE/.lock" && flock 9 || die "cannot lock $CACHE"
KPKG=$(kernel_pkg) || die "cannot resolve the kernel package; set VM_KERNEL_PKG"
KDIR=$(fetch_pkg "$KPKG" "$KPKG-full") || die "cannot fetch $KPKG"
KVER=$(ls "$KDIR/lib/modules" | head -n1)
VMLINUZ=$(ls "$KDIR"/boot/vmlinuz-* | head -n1)
[ -n "$KVER" ] && [ -f "$VMLINUZ" ] || die "$KPKG: no kernel or modules"
command -v depmod >/dev/null || die "kmod (depmod, modprobe) is not installed"
[ -s "$KDIR/lib/modules/$KVER/modules.dep" ] ||
	depmod -b "$KDIR" "$KVER" || die "depmod failed"
BB=$(fetch_pkg busybox-static busybox-static ./bin/busybox)/bin/busybox
[ -x "$BB" ] || die "cannot fetch busybox-static"

# The image is named by its recipe (every file of image/) and kernel.
key=$( (cd "$HERE/image" && find . -type f | LC_ALL=C sort |
	xargs sha256sum; echo "$KPKG") | sha256sum | cut -c1-16)
IMG=$CACHE/system/image-$key.img
if [ ! -s "$IMG" ]; then
	note "building the disk image (once per recipe; ~10 min)"
	rm -f "$CACHE"/system/image-*.img
	t=$(date +%s)
	bash "$HERE/image/build.sh" "$IMG" "$KDIR" "$CACHE/system/debs" >&2 || {
		echo "FAIL image: the disk image could not be built (see above)"
		echo "0 passed, 1 failed"
		exit 1
	}
	note "image built in $(( $(date +%s) - t )) s"
fi
exec 9>&-

vm_workdir libselinux-system "${SYS_KEEP:-0}"

# ---------- the initramfs: busybox, the modules for virtio and ext4, init
R=$WORK/initramfs
mkdir -p "$R"/{bin,sbin,dev,proc,sys,modules,newroot}
cp "$BB" "$R/bin/busybox"
for a in sh mount umount insmod sleep cat mkdir switch_root poweroff sync \
	chroot cp rm; do
	ln -s busybox "$R/bin/$a"
done
for m in virtio_pci virtio_blk crc32c_generic ext4; do
	modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" ||
		die "modprobe: no $m in $KPKG"
done | awk '$1 == "insmod" {print $2}' | awk '!seen[$0]++' |
while read -r ko; do
	cp "$ko" "$R/modules/" && echo "${ko##*/}" >> "$R/modules/order"
done
cp "$HERE/initramfs/init" "$R/init" && chmod 755 "$R/init"
mkcpio() { ( cd "$1" && find . | "$BB" cpio -o -H newc 2>/dev/null ); }
mkcpio "$R" > "$WORK/initrd-ref" || die "cpio failed"
# our packages, as a user gets them: built by debian/ (into the work
# directory, not BUILD/debs, which tests/deb may be writing)
t=$(date +%s)
"$SRC/scripts/build-debs.sh" "$WORK/pkgs" > "$WORK/build-debs.log" 2>&1 ||
	{ tail -n 30 "$WORK/build-debs.log"; die "scripts/build-debs.sh failed"; }
note "scripts/build-debs.sh: $(( $(date +%s) - t )) s"
mkdir -p "$WORK/ours/ours/debs"
cp "$WORK"/pkgs/debs/*.deb "$WORK/ours/ours/debs/"
dpkg-deb -x "$WORK"/pkgs/debs/libselinux1_*.deb "$WORK/ours-lib"
OURLIB=$(ls "$WORK"/ours-lib/lib/*/libselinux.so.1)
{ cat "$WORK/initrd-ref"; mkcpio "$WORK/ours"; } > "$WORK/initrd-ours"

# ---------- the checks: a tar archive the guest reads as its second disk
B=$WORK/bundle
mkdir -p "$B"
cp -r "$HERE"/guest/. "$B/"
[ -n "${SYS_CHECKS:-}" ] && printf '%s\n' "$SYS_CHECKS" > "$B/only"
cp -L "$OURLIB" "$B/ours-libselinux.so.1"
dpkg-deb -f "$WORK"/pkgs/debs/libselinux1_*.deb Version > "$B/ours-version"
(cd "$B" && tar -c -f "$WORK/bundle.tar" .) || die "tar failed"

APPEND="root=/dev/vda rw console=ttyS0 security=selinux selinux=1 enforcing=1"
APPEND+=" lsm=landlock,lockdown,yama,integrity,selinux,bpf"
APPEND+=" systemd.show_status=0 panic=-1 ${SYS_APPEND:-}"

# boot NAME: one qemu process, both phases (the guest reboots between
# them); leaves out.log (ttyS1), console.log (ttyS0) in $WORK/NAME
boot() {
	local name=$1 d="$WORK/$1" accel=(-accel tcg) serial
	[ "$ACCEL" = kvm ] && accel=(-accel kvm -cpu host)
	mkdir -p "$d"
	: > "$d/out.log"
	serial=(-serial "file:$d/console.log")
	[ "${SYS_SHELL:-}" = "$name" ] && serial=(-serial mon:stdio)
	qemu-system-x86_64 "${accel[@]}" -m "$MEM" -smp 1 -nodefaults \
		-no-user-config -display none -snapshot \
		-drive "file=$IMG,if=virtio,format=raw" \
		-drive "file=$WORK/bundle.tar,if=virtio,format=raw,readonly=on" \
		-kernel "$VMLINUZ" -initrd "$WORK/initrd-$name" \
		-append "$APPEND${SYS_SHELL:+ systest.shell=1}" \
		"${serial[@]}" -serial "file:$d/out.log" \
		2> "$d/qemu.err" &
	wait_vm $! "$TIMEOUT" "$d"
}

if [ -n "${SYS_SHELL:-}" ]; then
	note "booting $SYS_SHELL with a root shell on the serial console (C-a x quits)"
	boot "$SYS_SHELL"
	exit 0
fi

sides=(ref ours)
[ -n "${SYS_ONLY:-}" ] && sides=("$SYS_ONLY")
note "$KPKG, $ACCEL, image-$key, boots: ${sides[*]} (at once)"
for s in "${sides[@]}"; do
	boot "$s" &
	QPIDS+=($!)
done
wait
QPIDS=()
for s in "${sides[@]}"; do
	note "$s: $(cat "$WORK/$s/seconds") s, $(cat "$WORK/$s/status")"
done

args=()
for s in "${sides[@]}"; do args+=("$s=$WORK/$s"); done
python3 "$HERE/host/compare.py" --expected "$HERE/expected" "${args[@]}"
rc=$?
echo "system: $(( $(date +%s) - T0 )) s wall time"
exit $rc
