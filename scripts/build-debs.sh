#!/bin/bash
# scripts/build-debs.sh [BUILD] - Debian packages of the library, its
# utilities and bindings, cut with dpkg-deb from `meson install`:
#
#   libselinux1       libselinux.so.1 (in /lib/<triplet>, as Debian 12's)
#   libselinux1-dev   headers, libselinux.a, libselinux.so, libselinux.pc,
#                     section 3 man pages
#   selinux-utils     /usr/sbin's utilities, sections 5 and 8
#   python3-selinux   the selinux Python package (when built)
#   ruby-selinux      the selinux Ruby extension (when built)
#   selinuxfsd        the userspace security server (a package of our own)
#
# Debian's names, version 3.10-0ours1 (DEB_VERSION to change it), above
# Debian 12's 3.4-1+b6, so that dpkg -i replaces Debian's packages.
# Depends come from dpkg-shlibdeps, libselinux1 has a symbols file (each
# symbol's minimal version is that of its version node) and shlibs, so
# dpkg-shlibdeps of programs built on it works.  BUILD (default build-deb)
# is set up as Debian builds if it does not exist; any other build is
# staged into Debian's layout by packaging/stage.py.  Output:
# BUILD/debs/*.deb.  Never installs anything on this machine; the deb
# suite (tests/deb) installs them into a Debian 12 chroot.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$TOP/build-deb}
note() { echo "build-debs: $*" >&2; }
die() { echo "build-debs: $*" >&2; exit 1; }

if [ ! -f "$BUILD/build.ninja" ]; then
	note "setting up $BUILD as Debian builds"
	meson setup "$BUILD" "$TOP" --prefix=/usr \
		--libdir="lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)" \
		--sysconfdir=/etc --localstatedir=/var --wrap-mode=nodownload \
		-Dshlibdir="/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)" >&2
	ninja -C "$BUILD" >&2
fi
BUILD=$(cd "$BUILD" && pwd)
for t in dpkg-deb dpkg-shlibdeps strip gzip; do
	command -v "$t" >/dev/null || die "$t is missing (dpkg-dev, binutils)"
done

UPSTREAM=$(meson introspect "$BUILD" --projectinfo |
	/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
VERSION=${DEB_VERSION:-$UPSTREAM-0ours1}
ARCH=$(dpkg --print-architecture)
MAINT="libselinux-ng authors <libselinux-ng@localhost>"
OUT=$BUILD/debs
WORK=$OUT/work
ROOT=$OUT/root
rm -rf "$OUT"
mkdir -p "$WORK/debian"

note "staging $BUILD"
/usr/bin/python3 "$TOP/packaging/stage.py" "$BUILD" "$ROOT"

# ---------- which package each installed file belongs to
pkg_of() {
	case $1 in
	/lib/*/libselinux.so.1) echo libselinux1 ;;
	/usr/include/selinux/* | /usr/lib/*/libselinux.a | \
	/usr/lib/*/libselinux.so | /usr/lib/*/pkgconfig/libselinux.pc | \
	/usr/share/man/man3/*) echo libselinux1-dev ;;
	/usr/sbin/selinuxfsd | /usr/share/man/man8/selinuxfsd.8) echo selinuxfsd ;;
	/usr/sbin/* | /usr/share/man/man5/* | /usr/share/man/man8/*) echo selinux-utils ;;
	/usr/lib/python3/*) echo python3-selinux ;;
	/usr/lib/*/ruby/*) echo ruby-selinux ;;
	*) return 1 ;;
	esac
}
is_elf() { [ "$(head -c4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }

PKGS=()
while IFS= read -r -d '' f; do
	p=${f#"$ROOT"}
	pkg=$(pkg_of "$p") || die "no package for $p (add it to pkg_of)"
	dest=$WORK/debian/$pkg$p
	mkdir -p "$(dirname "$dest")"
	[[ " ${PKGS[*]} " == *" $pkg "* ]] || PKGS+=("$pkg")
	if [ -L "$f" ]; then
		cp -P "$f" "$dest"
		continue
	fi
	case $p in
	/usr/share/man/*) gzip -9n -c "$f" > "$dest.gz"; chmod 644 "$dest.gz"; continue ;;
	esac
	cp "$f" "$dest"
	# as dh_strip and dh_fixperms leave them
	if [[ $p == *.a ]]; then
		strip --strip-debug --enable-deterministic-archives "$dest"
		chmod 644 "$dest"
	elif is_elf "$dest"; then
		strip --remove-section=.comment --remove-section=.note \
			--strip-unneeded "$dest"
		case $p in
		*/sbin/*) chmod 755 "$dest" ;;
		*) chmod 644 "$dest" ;;
		esac
	else
		chmod 644 "$dest"
	fi
done < <(find "$ROOT" \( -type f -o -type l \) -print0 | sort -z)
# a man page link (none today) would need its target's .gz name
find "$WORK/debian" -path '*/usr/share/man/*' -type l | while read -r l; do
	mv "$l" "$l.gz.tmp" && ln -sf "$(readlink "$l.gz.tmp").gz" "$l.gz" &&
		rm "$l.gz.tmp"
done

# ---------- debian/control for dpkg-shlibdeps (it wants one)
{
	echo "Source: libselinux"
	for pkg in "${PKGS[@]}"; do printf '\nPackage: %s\nArchitecture: any\n' "$pkg"; done
} > "$WORK/debian/control"

# ---------- libselinux1's symbols and shlibs
LIBDIR_PKG=$WORK/debian/libselinux1
SHLIB=$(ls "$LIBDIR_PKG"/lib/*/libselinux.so.1)
mkdir -p "$LIBDIR_PKG/DEBIAN"
# A symbol's minimal version is the release that brought its version
# node: LIBSELINUX_1.0 is 3.1's (the first with versioned symbols),
# LIBSELINUX_3.N is 3.N's; our own extension's node only our packages
# have, at this version.
minver() {
	case $1 in
	LIBSELINUX_1.0) echo '3.1~' ;;
	LIBSELINUX_*) echo "${1#LIBSELINUX_}" ;;
	*) echo "$VERSION" ;;
	esac
}
{
	echo "libselinux.so.1 libselinux1 #MINVER#"
	echo "* Build-Depends-Package: libselinux1-dev"
	nm -D --defined-only --with-symbol-versions "$SHLIB" |
		awk '{print $3}' | while read -r s; do
			case $s in
			*@@*) echo " $s@${s#*@@} $(minver "${s#*@@}")" ;;
			*@*) ;;
			*) echo " $s@$s $(minver "$s")" ;;
			esac
		done | sed 's/@@[^@]*@/@/' | LC_ALL=C sort
} > "$LIBDIR_PKG/DEBIAN/symbols"
echo "libselinux 1 libselinux1 (>= $VERSION)" > "$LIBDIR_PKG/DEBIAN/shlibs"
echo "activate-noawait ldconfig" > "$LIBDIR_PKG/DEBIAN/triggers"

# ---------- each package's control, docs and md5sums
PYVER=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
PYNEXT=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % (sys.version_info[0], sys.version_info[1] + 1))')
copyright() {
	echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
	echo "Upstream-Name: libselinux-ng"
	echo "Comment: A rewrite of libselinux (same ABI, formats, utilities), built"
	echo " from this source tree by scripts/build-debs.sh."
	echo
	echo "Files: *"
	echo "Copyright: $(sed -n 's/^Copyright (c) //p' "$TOP/LICENSE" | head -n1)"
	echo "License: MIT"
	sed -e '/^MIT License$/d' -e '/^Copyright (c)/d' "$TOP/LICENSE" |
		sed -e '/./,$!d' | sed -e 's/^$/./' -e 's/^/ /'
}
changelog() { # pkg
	printf 'libselinux (%s) unstable; urgency=medium\n\n' "$VERSION"
	printf '  * %s built from this tree by scripts/build-debs.sh.\n\n' "$1"
	printf ' -- %s  %s\n' "$MAINT" "$(date -R -d @"${SOURCE_DATE_EPOCH:-$(date +%s)}")"
}
shlibdeps() { # pkg: dpkg-shlibdeps' Depends for the ELF files of pkg
	local pkg=$1 files=()
	while IFS= read -r -d '' f; do
		is_elf "$f" && [[ $f != *.a ]] && files+=("$f")
	done < <(find "$WORK/debian/$pkg" -path "$WORK/debian/$pkg/DEBIAN" -prune \
		-o -type f -print0)
	[ ${#files[@]} -gt 0 ] || return 0
	(cd "$WORK" && dpkg-shlibdeps -O -x"$pkg" \
		-l"$(dirname "$SHLIB")" "${files[@]}" 2>"$WORK/shlibdeps-$pkg.log") |
		sed -n 's/^shlibs:Depends=//p'
}
# ", "-joined (an item may itself be a list: dpkg-shlibdeps' Depends)
join() { local out="" x; for x; do out+="${out:+, }$x"; done; echo "$out"; }

for pkg in "${PKGS[@]}"; do
	dir=$WORK/debian/$pkg
	mkdir -p "$dir/DEBIAN" "$dir/usr/share/doc/$pkg"
	copyright > "$dir/usr/share/doc/$pkg/copyright"
	changelog "$pkg" | gzip -9n > "$dir/usr/share/doc/$pkg/changelog.Debian.gz"
	deps=$(shlibdeps "$pkg") || die "dpkg-shlibdeps failed for $pkg: $(cat "$WORK/shlibdeps-$pkg.log")"
	extra=() provides="" multiarch="" section="" desc=""
	case $pkg in
	libselinux1)
		section=libs multiarch=same
		desc="SELinux runtime shared libraries
 libselinux.so.1, a rewrite with the ABI (symbols, versions, errno
 values, file formats) of the SELinux project's library: the policy
 interface of SELinux-aware programs (contexts, access decisions,
 labelling, the AVC)." ;;
	libselinux1-dev)
		section=libdevel multiarch=same
		extra=("libselinux1 (= $VERSION)" "libpcre2-dev")
		provides="libselinux-dev (= $VERSION)"
		desc="SELinux development headers
 The headers, static library, pkg-config file and section 3 manual
 pages of libselinux (libselinux.so.1 is in libselinux1)." ;;
	selinux-utils)
		section=admin
		desc="SELinux utility programs
 getenforce, setenforce, getsebool, matchpathcon, compute_av,
 sefcontext_compile and the other utilities of libselinux." ;;
	python3-selinux)
		section=python
		extra=("python3 (>= $PYVER~)" "python3 (<< $PYNEXT)" "python3:any")
		desc="Python3 bindings to SELinux shared libraries
 The selinux package (import selinux) over libselinux.so.1, with
 selinux.audit2why (libsepol linked in) for audit2allow and semanage." ;;
	ruby-selinux)
		section=ruby multiarch=same
		extra=("ruby | ruby-interpreter")
		desc="Ruby bindings to SELinux shared libraries
 The selinux extension (require \"selinux\") over libselinux.so.1." ;;
	selinuxfsd)
		section=admin
		desc="SELinux security server in userspace (FUSE selinuxfs)
 Loads a binary policy with libsepol and serves the selinuxfs files
 through FUSE, deciding as the kernel's security server does, so that
 SELinux programs run and can be tested on kernels without SELinux." ;;
	esac
	all=()
	[ -n "$deps" ] && all+=("$deps")
	all+=("${extra[@]}")
	size=$(du -sk --exclude=DEBIAN "$dir" | cut -f1)
	{
		echo "Package: $pkg"
		echo "Source: libselinux"
		echo "Version: $VERSION"
		echo "Architecture: $ARCH"
		echo "Maintainer: $MAINT"
		echo "Installed-Size: $size"
		[ -n "$multiarch" ] && echo "Multi-Arch: $multiarch"
		[ ${#all[@]} -gt 0 ] && echo "Depends: $(join "${all[@]}")"
		[ -n "$provides" ] && echo "Provides: $provides"
		echo "Section: $section"
		echo "Priority: optional"
		echo "Description: $desc"
	} > "$dir/DEBIAN/control"
	(cd "$dir" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
		LC_ALL=C sort -z | xargs -0 md5sum) > "$dir/DEBIAN/md5sums"
	find "$dir" -type d -exec chmod 755 {} +
	chmod 644 "$dir/DEBIAN"/*
	dpkg-deb --root-owner-group -Zxz --build "$dir" \
		"$OUT/${pkg}_${VERSION}_$ARCH.deb" >&2
done
rm -rf "$ROOT"
note "$(ls "$OUT"/*.deb | wc -l) packages in $OUT:"
ls -1 "$OUT"/*.deb
