#!/bin/bash
# run-system.sh - the system test: a whole Debian system (systemd as PID
# 1, sshd, cron, dbus, auditd, mcstrans, policycoreutils) booted enforcing
# under qemu from a cached disk image, for each Debian generation (12,
# bookworm, and 13, trixie: one image recipe, image/, with the release as
# its parameter, each with its own kernel), twice: the reference boot with
# Debian's libselinux1, and our boot with our packages for that release
# (scripts/build-debs.sh OUT RELEASE) installed with apt-get over
# Debian's by the initramfs, before systemd starts (initramfs/init).  The
# checks (guest/) run in every boot; the host compares each generation's
# two boots and the hand-written expectations (expected/ for Debian 12,
# expected-trixie/ for Debian 13).  The generations' boots run one pair
# at a time (the two boots of a pair at once: two CPUs).
#
#   run-system.sh --build BUILD_DIR --source SOURCE_DIR
#
# Exit status: 0 every check passed in every boot and each generation's
# boots agree;
# 1 otherwise (a failed image build too); 77 (meson's "skipped") only
# when qemu cannot start at all.
#
# Environment (all optional):
#   VM_CACHE      cache of packages and the disk image (as tests/vm:
#                 ${XDG_CACHE_HOME:-$HOME/.cache}/libselinux-vm)
#   VM_ACCEL      tcg (default) or kvm
#   SYS_RELEASES  the generations to boot, in order ("bookworm trixie")
#   SYS_TIMEOUT   seconds one boot (both of its phases) may take (1500)
#   SYS_MEM       guest memory in MiB (1024)
#   SYS_ONLY      ref or ours: boot only that one (no comparison)
#   SYS_CHECKS    shell patterns (space separated) of check files to run
#   SYS_KEEP=1    keep the work directory (console logs, raw results)
#   SYS_APPEND    more kernel command line (systemd.mask=UNIT, ...)
#   SYS_SHELL=ref|ours  boot that side with a root shell on this terminal
#                 (serial console) instead of the checks, of the first
#                 release of SYS_RELEASES; see README.md
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

RELEASES=${SYS_RELEASES:-bookworm trixie}
for rel in $RELEASES; do
	case $rel in
	bookworm | trixie) ;;
	*) die "SYS_RELEASES: unknown release '$rel' (bookworm, trixie)" ;;
	esac
done
[ -n "${SYS_SHELL:-}" ] && RELEASES=${RELEASES%% *}
# the expected values of a generation, written from its policy and system
expected_dir() { case $1 in bookworm) echo "$HERE/expected" ;; *) echo "$HERE/expected-$1" ;; esac; }
gen_name() { case $1 in bookworm) echo "Debian 12 (bookworm)" ;; trixie) echo "Debian 13 (trixie)" ;; esac; }

vm_workdir libselinux-system "${SYS_KEEP:-0}"

# ---------- busybox (one initramfs program for every generation)
exec 9> "$CACHE/.lock" && flock 9 || die "cannot lock $CACHE"
BB=$(VM_RELEASE='' fetch_pkg busybox-static busybox-static ./bin/busybox)/bin/busybox
[ -x "$BB" ] || die "cannot fetch busybox-static"
exec 9>&-
command -v depmod >/dev/null || die "kmod (depmod, modprobe) is not installed"
mkcpio() { ( cd "$1" && find . | "$BB" cpio -o -H newc 2>/dev/null ); }

# prepare REL: that generation's kernel, image, initramfs, packages and
# checks in $WORK/REL (vmlinuz, initrd-ref, initrd-ours, bundle.tar,
# image); "FAIL ..." lines on stdout when it cannot.
prepare() {
	local rel=$1 d="$WORK/$1" KPKG KDIR KVER key img t R B OURLIB
	mkdir -p "$d"
	# kernel and image, under the cache's lock
	exec 9> "$CACHE/.lock" && flock 9 || die "cannot lock $CACHE"
	KPKG=$(VM_RELEASE=$rel kernel_pkg) ||
		die "$rel: cannot resolve the kernel package; set VM_KERNEL_PKG"
	KDIR=$(VM_RELEASE=$rel fetch_pkg "$KPKG" "$KPKG-full") || die "cannot fetch $KPKG"
	# Debian 13's kernel package has its modules in /usr/lib/modules
	# (merged /usr): the tools below (depmod -b, modprobe -d, build.sh)
	# take them from KDIR/lib/modules, as the system itself sees them.
	[ -e "$KDIR/lib" ] || [ ! -d "$KDIR/usr/lib/modules" ] || ln -s usr/lib "$KDIR/lib"
	KVER=$(ls "$KDIR/lib/modules" | head -n1)
	cp "$(ls "$KDIR"/boot/vmlinuz-* | head -n1)" "$d/vmlinuz" 2>/dev/null
	[ -n "$KVER" ] && [ -s "$d/vmlinuz" ] || die "$KPKG: no kernel or modules"
	[ -s "$KDIR/lib/modules/$KVER/modules.dep" ] ||
		depmod -b "$KDIR" "$KVER" || die "depmod failed"
	# The image is named by its release, recipe (every file of image/)
	# and kernel.
	key=$( (cd "$HERE/image" && find . -type f | LC_ALL=C sort |
		xargs sha256sum; echo "$KPKG $rel") | sha256sum | cut -c1-16)
	img=$CACHE/system/image-$rel-$key.img
	if [ ! -s "$img" ]; then
		note "$rel: building the disk image (once per recipe; ~5 min)"
		rm -f "$CACHE"/system/image-$rel-*.img
		t=$(date +%s)
		local debs=$CACHE/system/debs
		[ "$rel" = bookworm ] || debs=$CACHE/system/debs-$rel
		bash "$HERE/image/build.sh" "$img" "$KDIR" "$debs" "$rel" >&2 || {
			exec 9>&-
			echo "FAIL $rel/image: the disk image could not be built (see above)"
			return 1
		}
		note "$rel: image built in $(( $(date +%s) - t )) s"
	fi
	# the release's policy package, which p1/85-index.sh installs
	# again in the (offline) guest; fetched once
	pol=$CACHE/system/policy-$rel
	if ! ls "$pol"/selinux-policy-default_*.deb > /dev/null 2>&1; then
		mkdir -p "$pol"
		( cd "$pol" && VM_RELEASE=$rel vm_apt_get download -q selinux-policy-default >&2 ) ||
			{ VM_RELEASE=$rel vm_apt_get update -q >&2 &&
			  ( cd "$pol" && VM_RELEASE=$rel vm_apt_get download -q selinux-policy-default >&2 ); } ||
			note "$rel: cannot fetch selinux-policy-default (p1/85-index.sh will say so)"
	fi
	exec 9>&-
	ln -sf "$img" "$d/image"
	echo "$KPKG image-$rel-$key" > "$d/what"

	# the initramfs: busybox, the modules for virtio and ext4 (Debian
	# 13's are xz-compressed: unpacked here for busybox's insmod), init
	R=$d/initramfs
	mkdir -p "$R"/{bin,sbin,dev,proc,sys,modules,newroot}
	cp "$BB" "$R/bin/busybox"
	for a in sh mount umount insmod sleep cat mkdir switch_root poweroff sync \
		chroot cp rm sed grep ls; do
		ln -s busybox "$R/bin/$a"
	done
	for m in virtio_pci virtio_blk crc32c_generic ext4; do
		modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" ||
			die "modprobe: no $m in $KPKG"
	done | awk '$1 == "insmod" {print $2}' | awk '!seen[$0]++' |
	while read -r ko; do
		case $ko in
		*.ko.xz) n=${ko##*/}; n=${n%.xz}; xz -dc "$ko" > "$R/modules/$n" ;;
		*) n=${ko##*/}; cp "$ko" "$R/modules/" ;;
		esac && echo "$n" >> "$R/modules/order"
	done
	cp "$HERE/initramfs/init" "$R/init" && chmod 755 "$R/init"
	mkcpio "$R" > "$d/initrd-ref" || die "cpio failed"
	# our packages for this release, as a user gets them: built by
	# debian/ (into the work directory, not BUILD/debs, which tests/deb
	# may be writing)
	t=$(date +%s)
	"$SRC/scripts/build-debs.sh" "$d/pkgs" "$rel" > "$d/build-debs.log" 2>&1 || {
		tail -n 30 "$d/build-debs.log"
		echo "FAIL $rel/packages: scripts/build-debs.sh $rel failed"
		return 1
	}
	note "$rel: scripts/build-debs.sh $rel: $(( $(date +%s) - t )) s"
	mkdir -p "$d/ours/ours/debs"
	cp "$d"/pkgs/debs/*.deb "$d/ours/ours/debs/"
	dpkg-deb -x "$d"/pkgs/debs/libselinux1_*.deb "$d/ours-lib"
	OURLIB=$(ls "$d"/ours-lib/lib/*/libselinux.so.1 "$d"/ours-lib/usr/lib/*/libselinux.so.1 2>/dev/null | head -n1)
	{ cat "$d/initrd-ref"; mkcpio "$d/ours"; } > "$d/initrd-ours"

	# the checks: a tar archive the guest reads as its second disk
	B=$d/bundle
	mkdir -p "$B"
	cp -r "$HERE"/guest/. "$B/"
	[ -n "${SYS_CHECKS:-}" ] && printf '%s\n' "$SYS_CHECKS" > "$B/only"
	cp -L "$OURLIB" "$B/ours-libselinux.so.1"
	dpkg-deb -f "$d"/pkgs/debs/libselinux1_*.deb Version > "$B/ours-version"
	echo "$rel" > "$B/release"
	cp "$(ls "$CACHE/system/policy-$rel"/selinux-policy-default_*.deb 2>/dev/null | head -n1)" \
		"$B/policy.deb" 2>/dev/null || true
	(cd "$B" && tar -c -f "$d/bundle.tar" .) || die "tar failed"
}

APPEND="root=/dev/vda rw console=ttyS0 security=selinux selinux=1 enforcing=1"
APPEND+=" lsm=landlock,lockdown,yama,integrity,selinux,bpf"
APPEND+=" systemd.show_status=0 panic=-1 ${SYS_APPEND:-}"

# boot REL NAME: one qemu process, both phases (the guest reboots between
# them); leaves out.log (ttyS1), console.log (ttyS0) in $WORK/REL/NAME
boot() {
	local rel=$1 name=$2 g="$WORK/$1" d="$WORK/$1/$2" accel=(-accel tcg) serial
	[ "$ACCEL" = kvm ] && accel=(-accel kvm -cpu host)
	mkdir -p "$d"
	: > "$d/out.log"
	serial=(-serial "file:$d/console.log")
	[ "${SYS_SHELL:-}" = "$name" ] && serial=(-serial mon:stdio)
	qemu-system-x86_64 "${accel[@]}" -m "$MEM" -smp 1 -nodefaults \
		-no-user-config -display none -snapshot \
		-drive "file=$g/image,if=virtio,format=raw" \
		-drive "file=$g/bundle.tar,if=virtio,format=raw,readonly=on" \
		-kernel "$g/vmlinuz" -initrd "$g/initrd-$name" \
		-append "$APPEND${SYS_SHELL:+ systest.shell=1}" \
		"${serial[@]}" -serial "file:$d/out.log" \
		2> "$d/qemu.err" &
	local qpid=$!
	# systemd freezes for good when it cannot load the policy enforcing:
	# that boot is stopped there, not at the timeout
	[ -n "${SYS_SHELL:-}" ] || (
		while kill -0 $qpid 2>/dev/null; do
			if grep -a -q -E 'Failed to load SELinux policy|Freezing execution' "$d/console.log" 2>/dev/null; then
				grep -a -m1 -E 'Failed to load SELinux policy|Freezing execution' "$d/console.log" > "$d/why"
				kill $qpid
				break
			fi
			sleep 2
		done
	) &
	wait_vm $qpid "$TIMEOUT" "$d"
}

FAILS=() SUMMARY=()
for rel in $RELEASES; do
	t=$(date +%s)
	out=$(prepare "$rel") || { echo "$out"; FAILS+=("$rel"); continue; }
	[ -z "$out" ] || echo "$out"
	note "$rel: ready in $(( $(date +%s) - t )) s ($(cat "$WORK/$rel/what"))"
done

if [ -n "${SYS_SHELL:-}" ]; then
	[ ${#FAILS[@]} = 0 ] || die "$RELEASES could not be prepared"
	note "booting $RELEASES $SYS_SHELL with a root shell on the serial console (C-a x quits)"
	boot "$RELEASES" "$SYS_SHELL"
	exit 0
fi

sides=(ref ours)
[ -n "${SYS_ONLY:-}" ] && sides=("$SYS_ONLY")
rc=0
for rel in $RELEASES; do
	case " ${FAILS[*]} " in *" $rel "*) rc=1; SUMMARY+=("$(gen_name "$rel"): not booted (see above)"); continue ;; esac
	t=$(date +%s)
	note "$rel: $ACCEL, $(cat "$WORK/$rel/what"), boots: ${sides[*]} (at once)"
	for s in "${sides[@]}"; do
		boot "$rel" "$s" &
		QPIDS+=($!)
	done
	wait
	QPIDS=()
	for s in "${sides[@]}"; do
		note "$rel $s: $(cat "$WORK/$rel/$s/seconds") s, $(cat "$WORK/$rel/$s/status")"
		[ -s "$WORK/$rel/$s/why" ] &&
			echo "$rel $s: stopped: $(tr -d '\r' < "$WORK/$rel/$s/why")"
	done
	args=()
	for s in "${sides[@]}"; do args+=("$s=$WORK/$rel/$s"); done
	echo "=== $(gen_name "$rel")"
	python3 "$HERE/host/compare.py" --expected "$(expected_dir "$rel")" "${args[@]}" |
		tee "$WORK/$rel/compare.out"
	[ "${PIPESTATUS[0]}" = 0 ] || rc=1
	SUMMARY+=("$(gen_name "$rel"): $(tail -n 1 "$WORK/$rel/compare.out") ($(( $(date +%s) - t )) s)")
done
echo "==="
printf '%s\n' "${SUMMARY[@]}"
echo "system: $(( $(date +%s) - T0 )) s wall time"
exit $rc
