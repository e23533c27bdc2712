#!/bin/bash
# tests/system/image/build.sh - the disk image of the system test: a Debian
# system (12, bookworm, or 13, trixie) made with debootstrap from the
# host's own package source,
# SELinux enforcing with Debian's refpolicy (selinux-policy-default),
# systemd, sshd, cron, dbus, auditd, mcstrans and policycoreutils; two test
# users mapped with semanage (alice: user_u, bob: staff_u), ssh keys, a
# system and a user crontab; every file labelled by setfiles; one ext4
# filesystem in a raw image.
#
#   build.sh OUT.img KERNEL_DIR DEB_CACHE [RELEASE]
#
# RELEASE: bookworm (default) or trixie; the recipe is the same, with
# that release's packages (packages.txt) and kernel.
# KERNEL_DIR holds the unpacked kernel package whose modules go into the
# image (the kernel the test boots); DEB_CACHE keeps the downloaded .debs
# between builds.  Run as root.  run-system.sh calls it under its cache
# lock when the image is missing or its recipe changed (the recipe is
# every file of this directory: the hash of their contents names the
# image).
set -euo pipefail
unset LD_LIBRARY_PATH
OUT=$1 KDIR=$2 DEBS=$3 SUITE=${4:-bookworm}
HERE=$(cd "$(dirname "$0")" && pwd)
note() { echo "image: $*" >&2; }
die() { echo "image: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot, setfiles)"

need() { # install a host tool from Debian when missing
	command -v "$1" >/dev/null && return
	note "installing $2"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$2" >&2 ||
		{ apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends "$2" >&2; }
}
need debootstrap debootstrap
need mkfs.ext4 e2fsprogs

# The host's own Debian mirror (deb822 sources first, then sources.list).
mirror=$("$HERE/../../lib/debian-mirror.sh") ||
	die "cannot find the host's Debian mirror in /etc/apt"

WORK=$(mktemp -d "$(dirname "$OUT")/build.XXXXXX")
ROOT=$WORK/root
MOUNTS=()
cleanup() {
	local m
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount -l "${MOUNTS[$i]}" 2>/dev/null || true
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$DEBS"

note "debootstrap $SUITE from $mirror"
debootstrap --variant=minbase --cache-dir="$DEBS" \
	--include=systemd-sysv,udev,dbus,kmod,procps \
	"$SUITE" "$ROOT" "$mirror" > "$WORK/debootstrap.log" 2>&1 ||
	{ tail -n 30 "$WORK/debootstrap.log" >&2; die "debootstrap failed"; }

# A chroot good enough for maintainer scripts and semanage; no service
# starts (policy-rc.d), the .debs come from and go to the cache.
for m in proc sys dev dev/pts; do
	mkdir -p "$ROOT/$m"
	mount --bind "/$m" "$ROOT/$m"
	MOUNTS+=("$ROOT/$m")
done
mount --bind "$DEBS" "$ROOT/var/cache/apt/archives"
MOUNTS+=("$ROOT/var/cache/apt/archives")
printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
chmod 755 "$ROOT/usr/sbin/policy-rc.d"
echo "deb $mirror $SUITE main" > "$ROOT/etc/apt/sources.list"
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

pkgs=$(grep -v '^#' "$HERE/packages.txt" | grep -v '^$' | tr '\n' ' ')
note "apt-get install $pkgs"
in_root apt-get update -q > "$WORK/apt.log" 2>&1 &&
	in_root apt-get install -y -q --no-install-recommends $pkgs \
		>> "$WORK/apt.log" 2>&1 ||
	{ tail -n 40 "$WORK/apt.log" >&2; die "apt-get install failed"; }

# mcstrans: selinux-policy-default declares "Conflicts: mcstrans" (both
# ship nothing the other has; Debian keeps them apart), so apt refuses
# it, and apt refuses to touch a system where dpkg forced it in over that
# conflict (our boot installs our packages with apt).  The issue wants
# mcstransd running: Debian's mcstrans .deb, its files and scripts as they
# are, is installed under another package name (mcstrans-systest), with
# its dependencies (Debian 12: lsb-base, libcap2; 13: libcap2) from apt.
note "mcstrans (as mcstrans-systest)"
in_root sh -c 'cd /var/cache/apt/archives && apt-get download -q mcstrans &&
	apt-get install -y -q --no-install-recommends $(dpkg-deb -f mcstrans_*.deb Depends |
		tr "," "\n" | sed -e "s/(.*)//" -e "s/|.*//" -e "s/ //g") &&
	rm -rf /tmp/mcstrans && dpkg-deb -R mcstrans_*.deb /tmp/mcstrans &&
	sed -i "s/^Package: mcstrans\$/Package: mcstrans-systest/" /tmp/mcstrans/DEBIAN/control &&
	dpkg-deb -b /tmp/mcstrans /tmp/mcstrans-systest.deb &&
	dpkg -i /tmp/mcstrans-systest.deb && rm -rf /tmp/mcstrans /tmp/mcstrans-systest.deb' \
	>> "$WORK/apt.log" 2>&1 ||
	{ tail -n 20 "$WORK/apt.log" >&2; die "installing mcstrans failed"; }
# apt accepts the system as it is (no broken relation)
in_root apt-get check >> "$WORK/apt.log" 2>&1 ||
	{ tail -n 20 "$WORK/apt.log" >&2; die "apt-get check: the image's packages are inconsistent"; }

note "configuring"
cp -a "$HERE/files/." "$ROOT/"
in_root /bin/sh -eu /usr/local/lib/systest/setup.sh > "$WORK/setup.log" 2>&1 ||
	{ cat "$WORK/setup.log" >&2; die "setup.sh failed"; }

# The kernel's modules, so that udev loads them as on any Debian system.
kver=$(ls "$KDIR/lib/modules" | head -n1)
[ -n "$kver" ] || die "no modules in $KDIR"
mkdir -p "$ROOT/usr/lib/modules"
cp -a "$KDIR/lib/modules/$kver" "$ROOT/usr/lib/modules/"
in_root depmod -a "$kver"

rm -f "$ROOT/usr/sbin/policy-rc.d"
in_root apt-get clean
for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do umount "${MOUNTS[$i]}"; done
MOUNTS=()
rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/tmp/* "$ROOT"/var/tmp/*

# Labelled for real: setfiles with the image's policy and file contexts
# (+ .homedirs from semanage), which needs no SELinux for it; mkfs.ext4 -d
# copies the security.selinux attributes into the image.  Debian 12's:
# the host's, on the tree (-r), as always.  Later releases': the image's
# own in a chroot, which reads its policy version (Debian 13's policy.34
# is beyond Debian 12's libsepol).  (Debian 12's own setfiles in a chroot
# fails on some paths with ENOENT.)
note "setfiles"
pol=/etc/selinux/default
polfile=$(cd "$ROOT" && ls "./$pol"/policy/policy.* | tail -n1 | cut -c2-)
if [ "$SUITE" = bookworm ]; then
	command -v setfiles >/dev/null || die "setfiles is missing (policycoreutils)"
	setfiles -m -F -r "$ROOT" -c "$ROOT$polfile" "$ROOT$pol/contexts/files/file_contexts" \
		"$ROOT" > "$WORK/setfiles.log" 2>&1
else
	in_root setfiles -m -F -c "$polfile" "$pol/contexts/files/file_contexts" / \
		> "$WORK/setfiles.log" 2>&1
fi || { tail -n 20 "$WORK/setfiles.log" >&2; die "setfiles failed"; }
getfattr -n security.selinux --only-values "$ROOT/usr/bin/ls" 2>/dev/null |
	grep -q ':bin_t:' || die "setfiles left /usr/bin/ls without bin_t"
# A user's crontab has no file context (<<none>>): on an SELinux system it
# gets its label when crontab(1) writes it, in the user's crontab domain
# (user_crontab_t creates user_cron_spool_t).  setup.sh ran crontab with
# no SELinux: give alice's the label her own "crontab -e" would.
setfattr -n security.selinux -v user_u:object_r:user_cron_spool_t:s0 \
	"$ROOT/var/spool/cron/crontabs/alice" || die "cannot label alice's crontab"

note "mkfs.ext4"
rm -f "$OUT.tmp"
mkfs.ext4 -q -F -L system -d "$ROOT" "$OUT.tmp" 4G ||
	die "mkfs.ext4 failed"
# mkfs makes lost+found itself, after setfiles: label it as setfiles would.
debugfs -w -R "ea_set /lost+found security.selinux \
	system_u:object_r:lost_found_t:s0" "$OUT.tmp" > /dev/null 2>&1 ||
	die "cannot label lost+found"
mv "$OUT.tmp" "$OUT"
note "done: $OUT"
