#!/bin/bash
# scripts/build-debs.sh [OUT] - the Debian packages of this tree, built by
# its Debian source package (debian/: debhelper, dh --buildsystem=meson,
# the distribution's build flags with hardening=+all):
#
#   libselinux1       libselinux.so.1 (in /lib/<triplet>, as Debian 12's)
#   libselinux1-dev   headers, libselinux.a, libselinux.so, libselinux.pc,
#                     section 3 man pages
#   selinux-utils     /usr/sbin's utilities, sections 5 and 8 (not
#                     selinux_config.5: policycoreutils has it)
#   python3-selinux   the selinux Python package
#   ruby-selinux      the selinux Ruby extension
#   selinuxfsd        the userspace security server (a package of our own)
#
# Debian's names, version from debian/changelog (3.10-0ours1: above
# Debian 12's 3.4-1+b6, so that apt prefers ours; DEB_VERSION=V adds a
# changelog entry for V to the copy).  The tree's files (git's tracked
# and untracked ones, not what .gitignore leaves out: no build dirs) are
# copied into OUT/deb-build/libselinux-VERSION and `dpkg-buildpackage -b
# -uc -us` runs there, writing to OUT/deb-build; the worktree is left as
# it was.  The .debs, .changes and .buildinfo go to OUT/debs, the
# -dbgsym packages to OUT/debs/dbgsym (OUT defaults to build-deb;
# tests/deb passes its meson build dir).  The
# build dependencies are debian/control's (scripts/setup.sh installs
# them).  Never installs anything on this machine; tests/deb installs the
# packages into a Debian 12 chroot and runs lintian on them.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$TOP/build-deb}
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
VERSION=${DEB_VERSION:-$CHANGELOG_VERSION}

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
if [ -n "${DEB_VERSION:-}" ] && [ "$DEB_VERSION" != "$CHANGELOG_VERSION" ]; then
	{
		printf 'libselinux (%s) unstable; urgency=medium\n\n' "$DEB_VERSION"
		printf '  * Built at version %s (DEB_VERSION).\n\n' "$DEB_VERSION"
		printf ' -- %s  %s\n\n' "$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Maintainer)" \
			"$(date -R -d @"${SOURCE_DATE_EPOCH:-$(date +%s)}")"
		cat "$TOP/debian/changelog"
	} > "$SRC/debian/changelog"
fi

# ---------- dpkg-buildpackage
case " ${DEB_BUILD_OPTIONS:-} " in
*" parallel="*) ;;
*) DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$(nproc)"
   export DEB_BUILD_OPTIONS ;;
esac
note "dpkg-buildpackage -b -uc -us in $SRC (log: $W/build.log)"
(cd "$SRC" && dpkg-buildpackage -b -uc -us) > "$W/build.log" 2>&1 ||
	{ tail -n 40 "$W/build.log" >&2; die "dpkg-buildpackage failed (log: $W/build.log)"; }
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
