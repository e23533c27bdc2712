#!/bin/sh
# tests/install/uninstalled-pc.sh BUILD - meson's uninstalled pkg-config
# file (BUILD/meson-uninstalled/libselinux-uninstalled.pc) builds a
# program on this tree: its -I is our include/ and its -L our library.
# The program calls selinux_avc_audit_open() from selinux/avc_audit.h,
# which only our headers declare and only our library exports, so it
# compiles only on our headers and links only on our library (with flags
# that missed either, it took /usr/include's and Debian's, and failed
# here).  Then it runs on the library the file names.
set -eu
unset LD_LIBRARY_PATH LD_PRELOAD
BUILD=$(cd "$1" && pwd)
fail() { echo "uninstalled-pc: FAIL: $*"; exit 1; }
W=$BUILD/uninstalled-pc
rm -rf "$W" && mkdir -p "$W"
export PKG_CONFIG_PATH="$BUILD/meson-uninstalled"
flags=$(pkg-config --cflags --libs libselinux-uninstalled) ||
	fail "pkg-config --cflags --libs libselinux-uninstalled"
echo "pkg-config --cflags --libs libselinux-uninstalled: $flags"
cat > "$W/prog.c" <<'C'
#include <stdio.h>
#include <selinux/selinux.h>
#include <selinux/avc_audit.h>
int main(void)
{
	int r = selinux_avc_audit_open();
	printf("%d\n", r);
	selinux_avc_audit_close();
	return 0;
}
C
# shellcheck disable=SC2086
${CC:-cc} -o "$W/prog" "$W/prog.c" $flags > "$W/cc.log" 2>&1 ||
	{ cat "$W/cc.log"; fail "cannot build a program on our headers and library with the file's flags"; }
libdir=$(pkg-config --variable=selinux_libdir libselinux-uninstalled)
[ -e "$libdir/libselinux.so.1" ] || fail "selinux_libdir $libdir has no libselinux.so.1"
readelf -d "$W/prog" | grep -q 'NEEDED.*\[libselinux\.so\.1\]' ||
	fail "the program does not need libselinux.so.1"
out=$(LD_LIBRARY_PATH=$libdir "$W/prog") || fail "the program failed on $libdir: $out"
echo "built with the file's flags, it runs on $libdir/libselinux.so.1 (selinux_avc_audit_open: $out)"
rm -rf "$W"
