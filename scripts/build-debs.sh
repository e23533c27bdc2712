#!/bin/bash
# scripts/build-debs.sh [OUT [RELEASE]] - the Debian packages of this tree
# for a Debian release, built by its Debian source package (debian/:
# debhelper, dh --buildsystem=meson, the distribution's build flags with
# hardening=+all):
#
#   libselinux1       libselinux.so.1 (where the release's has it)
#   libselinux1-dev   headers, libselinux.a, libselinux.so, libselinux.pc,
#                     section 3 man pages
#   selinux-utils     /usr/sbin's utilities, sections 5 and 8 (not
#                     selinux_config.5: policycoreutils has it)
#   python3-selinux   the selinux Python package
#   ruby-selinux      the selinux Ruby extension
#   selinuxfsd        the userspace security server (a package of our own)
#
# RELEASE (default bookworm; or BUILD_DEBS_RELEASE) is the Debian release
# the packages replace libselinux in, a line of packaging/releases (its
# -Dcompat, version and library directory; today bookworm 3.4
# 3.10-0ours1, trixie 3.8 3.10-0ours1+deb13, sid 3.11
# 3.11+ours3.10-0ours1).
#
# Debian's package names; versions above the release's own so that apt
# prefers ours.  bookworm's is debian/changelog's (DEB_VERSION=V adds a
# changelog entry for V to the copy); trixie and sid get a changelog entry
# of that distribution, which debian/rules reads: -Dcompat, the library's
# directory (/usr/lib/<triplet> after Debian 12), the tmpfiles.d entry and
# relations of that release's libselinux1.  The other relations
# (libc6, python3 (>= 3.13~) ...) are dh's substitutions, computed
# where the packages are built: on this machine when it runs RELEASE
# (/etc/os-release), else in a root of RELEASE (debootstrap from the
# host's mirror with build-essential and debian/control's build
# dependencies, cached in $VM_CACHE/deb/build-RELEASE-KEY; a mirror's
# sid may carry an expired Release file, which apt is told to accept;
# each build
# works on a throw-away overlay of it in a mount namespace: needs root).
#
# The tree's files (git's tracked and untracked ones, not what .gitignore
# leaves out: no build dirs) are copied into
# OUT/deb-build/libselinux-VERSION and `dpkg-buildpackage -b -uc -us`
# runs there, writing to OUT/deb-build; the worktree is left as it was.
# The .debs, .changes and .buildinfo go to OUT/debs, the -dbgsym packages
# to OUT/debs/dbgsym (OUT defaults to build-deb; tests/deb passes its
# meson build dir).  The build dependencies are debian/control's
# (scripts/setup.sh installs them on this machine).  Never installs
# anything on this machine; tests/deb installs the bookworm packages into
# a Debian 12 chroot and runs lintian on them, tests/system the bookworm
# and trixie ones into booted Debian 12 and 13 systems.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$TOP/build-deb}
RELEASE=${2:-${BUILD_DEBS_RELEASE:-bookworm}}
note() { echo "build-debs: $*" >&2; }
die() { echo "build-debs: $*" >&2; exit 1; }
for t in dpkg-buildpackage dpkg-checkbuilddeps dh git tar; do
	command -v "$t" >/dev/null ||
		die "$t is missing (scripts/setup.sh installs dpkg-dev, debhelper)"
done
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# ---------- the versions must agree
UPSTREAM=$(sed -n "s/^  version : '\([^']*\)',\$/\1/p" "$TOP/meson.build" | head -n1)
[ -n "$UPSTREAM" ] || die "no version in meson.build's project()"
CHANGELOG_VERSION=$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version)
if [ "${CHANGELOG_VERSION%-*}" != "$UPSTREAM" ] && [ -z "${DEB_VERSION:-}" ]; then
	die "debian/changelog is at $CHANGELOG_VERSION, meson.build at $UPSTREAM: add a debian/changelog entry (or set DEB_VERSION)"
fi
# The release's line of packaging/releases: its version template (%V:
# the changelog's version; the bare %V is the changelog's own entry).
TEMPLATE=$(awk -v r="$RELEASE" '$1 == r { print $4 }' "$TOP/packaging/releases")
[ -n "$TEMPLATE" ] ||
	die "unknown release '$RELEASE' ($(awk '!/^#/ && NF { printf "%s ", $1 }' "$TOP/packaging/releases")in packaging/releases)"
VERSION=${DEB_VERSION:-${TEMPLATE//%V/$CHANGELOG_VERSION}}
DIST=
[ "$TEMPLATE" = %V ] || DIST=$RELEASE
HOST_RELEASE=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")

# ---------- debian/copyright's license is LICENSE's
lic=$(sed -e '1,/^Copyright (c)/d' "$TOP/LICENSE" | sed -e '/./,$!d' -e 's/[[:space:]]*$//')
deb=$(sed -e '1,/^License: Expat$/d' "$TOP/debian/copyright" |
	sed -e 's/^ \.$//' -e 's/^ //' -e 's/[[:space:]]*$//')
[ "$lic" = "$deb" ] || die "debian/copyright's License: Expat text is not LICENSE's"
grep -q "^Copyright: $(sed -n 's/^Copyright (c) //p' "$TOP/LICENSE")\$" "$TOP/debian/copyright" ||
	die "debian/copyright's Copyright: is not LICENSE's"

# ---------- a copy of the tree
W=$OUT/deb-build
SRC=$W/libselinux-${VERSION%-*}
rm -rf "$W" "$OUT/debs"
mkdir -p "$SRC" "$OUT/debs"
note "copying the tree into $SRC"
(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
	done | tar --null -T - -cf -) | tar -C "$SRC" -xf -
if [ "$VERSION" != "$CHANGELOG_VERSION" ] || [ -n "$DIST" ]; then
	{
		printf 'libselinux (%s) %s; urgency=medium\n\n' "$VERSION" "${DIST:-unstable}"
		if [ -n "$DIST" ]; then
			printf '  * Built for %s (scripts/build-debs.sh %s).\n\n' "$RELEASE" "$RELEASE"
		else
			printf '  * Built at version %s (DEB_VERSION).\n\n' "$VERSION"
		fi
		printf ' -- %s  %s\n\n' "$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Maintainer)" \
			"$(if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then date -R -d @"$SOURCE_DATE_EPOCH"; \
				else dpkg-parsechangelog -l "$TOP/debian/changelog" -S Date; fi)"
		cat "$TOP/debian/changelog"
	} > "$SRC/debian/changelog"
fi

# ---------- building in a root of RELEASE (this machine runs another)
# build_in_root: the root (debootstrap --variant=minbase, build-essential
# and debian/control's Build-Depends, with apt-get build-dep) made once
# under the cache's lock; the build in an overlay of it, in a private mount
# namespace, from the copy in $W, writing the results to $W as
# dpkg-buildpackage does on this machine.
build_in_root() {
	local cache key base mirror
	[ "$(id -u)" = 0 ] || { echo "building for $RELEASE on $HOST_RELEASE needs root (debootstrap, chroot)"; return 1; }
	command -v debootstrap >/dev/null || { echo "debootstrap is missing"; return 1; }
	cache=${VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/libselinux-vm}
	key=$( (echo "$RELEASE v1"; sed -n '/^Build-Depends:/,/^$/p' "$TOP/debian/control") |
		sha256sum | cut -c1-12)
	base=$cache/deb/build-$RELEASE-$key
	mkdir -p "$cache/deb"
	(
		flock 9
		[ -e "$base/.done" ] && exit 0
		mirror=$("$TOP/tests/lib/debian-mirror.sh") ||
			{ echo "cannot find the host's Debian mirror in /etc/apt"; exit 1; }
		echo "debootstrap --variant=minbase $RELEASE into $base (once)"
		rm -rf "$base.tmp" && mkdir -p "$base.tmp/src/debian"
		debootstrap --variant=minbase --include=build-essential \
			"$RELEASE" "$base.tmp" "$mirror" || exit 1
		echo "deb $mirror $RELEASE main" > "$base.tmp/etc/apt/sources.list"
		cp "$TOP/debian/control" "$base.tmp/src/debian/"
		unshare -m --propagation private sh -c '
			mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" &&
			chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
				DEBIAN_FRONTEND=noninteractive sh -c \
				"apt-get update -q -o Acquire::Check-Valid-Until=false &&
				 apt-get build-dep -y -q /src && apt-get clean"
			' sh "$base.tmp" || exit 1
		rm -rf "$base.tmp/src" "$base.tmp"/var/lib/apt/lists/*
		mv "$base.tmp" "$base" && touch "$base/.done"
	) 9> "$cache/deb/.lock-build-$RELEASE" || return 1
	echo "dpkg-buildpackage -b -uc -us in an overlay of $base"
	rm -rf "$W/ov" && mkdir -p "$W/ov/upper" "$W/ov/work" "$W/ov/root"
	unshare -m --propagation private sh -c '
		set -e
		W=$1 base=$2 name=$3
		mount -t overlay overlay -o "lowerdir=$base,upperdir=$W/ov/upper,workdir=$W/ov/work" "$W/ov/root"
		mount -t proc proc "$W/ov/root/proc"
		mount --rbind /dev "$W/ov/root/dev"
		mkdir -p "$W/ov/root/build"
		mount --bind "$W" "$W/ov/root/build"
		chroot "$W/ov/root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 DEB_BUILD_OPTIONS="$4" \
			${SOURCE_DATE_EPOCH:+SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH} \
			sh -c "cd /build/$name && dpkg-buildpackage -b -uc -us"
		' sh "$W" "$base" "${SRC##*/}" "$DEB_BUILD_OPTIONS"
	local rc=$?
	rm -rf "$W/ov"
	return $rc
}

# ---------- dpkg-buildpackage
case " ${DEB_BUILD_OPTIONS:-} " in
*" parallel="*) ;;
*) DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$(nproc)"
   export DEB_BUILD_OPTIONS ;;
esac
if [ "$RELEASE" = "$HOST_RELEASE" ]; then
	note "dpkg-buildpackage -b -uc -us in $SRC (log: $W/build.log)"
	(cd "$SRC" && dpkg-buildpackage -b -uc -us) > "$W/build.log" 2>&1 ||
		{ tail -n 40 "$W/build.log" >&2; die "dpkg-buildpackage failed (log: $W/build.log)"; }
else
	build_in_root > "$W/build.log" 2>&1 ||
		{ tail -n 40 "$W/build.log" >&2; die "the build in a $RELEASE root failed (log: $W/build.log)"; }
fi
CHANGES=$W/libselinux_${VERSION}_$(dpkg-architecture -qDEB_HOST_ARCH).changes
[ -f "$CHANGES" ] || die "no $CHANGES"
# the files the .changes lists, and itself
for f in $(sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]\{32\} [0-9]* [^ ]* [^ ]* //p' "$CHANGES"); do
	mv "$W/$f" "$OUT/debs/"
done
mv "$CHANGES" "$OUT/debs/"
# the -dbgsym packages (debug symbols) apart: OUT/debs/*.deb is what a
# system installs
mkdir -p "$OUT/debs/dbgsym"
for f in "$OUT"/debs/*-dbgsym_*.deb; do
	if [ -e "$f" ]; then mv "$f" "$OUT/debs/dbgsym/"; fi
done
rm -rf "$SRC"
note "$(ls "$OUT"/debs/*.deb | wc -l) packages in $OUT/debs:"
ls -1 "$OUT"/debs/*.deb
