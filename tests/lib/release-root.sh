#!/bin/bash
# tests/lib/release-root.sh RELEASE - print the path of a cached Debian
# root of RELEASE (trixie: Debian 13, libselinux1 3.8.1; sid: upstream's
# newest release, 3.11 today), made once with debootstrap from the host's
# mirror and kept in $VM_CACHE/roots (default ~/.cache/libselinux-vm, the
# cache the VM suites use).  The benchmarks and differential tests run the
# release's own libselinux1, selinux-utils, policycoreutils and
# python3-selinux inside it with chroot, side by side with ours.
#
# trixie: debootstrap --variant=minbase with selinux-utils, policycoreutils,
#   policycoreutils-python-utils (semanage, audit2why), python3-selinux and
#   selinux-policy-default (refpolicy 2025); its postinst builds the policy
#   store (/var/lib/selinux/default) and compiles file_contexts(.homedirs).bin
#   with trixie's own sefcontext_compile.
# sid: the same without selinux-policy-default (its postinst runs semodule,
#   which fails in a bare chroot); trixie's /etc/selinux and policy store
#   are copied in and the .bin files are compiled again by sid's own
#   sefcontext_compile, so each release reads a compiled file it wrote
#   itself.
#
# The roots are read-only to their users: a test that must write works on
# a copy or an overlay.  Needs root (debootstrap, chroot).  Exit 77 (skip)
# when the mirror cannot be reached or the caller is not root.
set -euo pipefail
REL=${1:?usage: release-root.sh trixie|sid}
CACHE=${VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/libselinux-vm}
note() { echo "release-root: $*" >&2; }
skip() { note "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || skip "debootstrap is missing"

PKGS=selinux-utils,policycoreutils,python3-selinux,policycoreutils-python-utils
# Bump the last word when what a root holds changes: the old one is left.
KEY_trixie="trixie $PKGS,selinux-policy-default v1"
KEY_sid="sid $PKGS v1"
case $REL in
trixie) KEY=$KEY_trixie INCLUDE=$PKGS,selinux-policy-default ;;
sid) KEY=$KEY_sid INCLUDE=$PKGS ;;
*) echo "release-root.sh: unknown release '$REL'" >&2; exit 2 ;;
esac
ROOT=$CACHE/roots/$REL-$(echo "$KEY" | sha256sum | cut -c1-12)
if [ -e "$ROOT/.done" ]; then
	echo "$ROOT"
	exit 0
fi

mkdir -p "$CACHE/roots"
exec 9> "$CACHE/roots/.lock-$REL"
flock 9
if [ ! -e "$ROOT/.done" ]; then
	mirror=$("$(dirname "$0")/debian-mirror.sh") ||
		skip "cannot find the host's Debian mirror in /etc/apt"
	if [ "$REL" = sid ]; then
		# the policy comes from trixie's root
		TRIXIE=$("$0" trixie) || exit $?
	fi
	log=$CACHE/roots/$REL.log
	note "debootstrap --variant=minbase $REL into $ROOT (once; ~2 min)"
	rm -rf "$ROOT.tmp"
	debootstrap --variant=minbase --include="$INCLUDE" "$REL" \
		"$ROOT.tmp" "$mirror" > "$log" 2>&1 ||
		{ tail -n 20 "$log" >&2; rm -rf "$ROOT.tmp";
		  skip "debootstrap $REL failed (log: $log)"; }
	if [ "$REL" = sid ]; then
		rm -rf "$ROOT.tmp/etc/selinux" "$ROOT.tmp/var/lib/selinux"
		cp -a "$TRIXIE/etc/selinux" "$ROOT.tmp/etc/selinux"
		cp -a "$TRIXIE/var/lib/selinux" "$ROOT.tmp/var/lib/selinux"
		for f in "$ROOT.tmp"/etc/selinux/default/contexts/files/*.bin; do
			rm -f "$f"
			src=${f#"$ROOT.tmp"}
			chroot "$ROOT.tmp" sefcontext_compile "${src%.bin}" ||
				{ rm -rf "$ROOT.tmp"; echo "release-root: sid's sefcontext_compile failed" >&2; exit 1; }
		done
	fi
	rm -rf "$ROOT.tmp"/var/cache/apt/archives/*.deb
	chroot "$ROOT.tmp" dpkg-query -W libselinux1 libpcre2-8-0 \
		selinux-utils policycoreutils > "$ROOT.tmp/.versions"
	mv "$ROOT.tmp" "$ROOT"
	touch "$ROOT/.done"
fi
echo "$ROOT"
