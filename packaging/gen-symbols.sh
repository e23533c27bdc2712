#!/bin/sh
# packaging/gen-symbols.sh LIBSELINUX.SO.1 - print debian/libselinux1.symbols
# for the library's exports (dpkg-gensymbols' format).  A symbol's minimal
# version is the upstream release that brought its version node:
# LIBSELINUX_1.0 is 3.1's (the first with versioned symbols, as Debian's
# own symbols file says), LIBSELINUX_3.N is 3.N's, and a node of our own
# (SELINUX_AUDIT_1.0, ...) is this project's version that brought it,
# from NODE_VERSIONS below.  No Debian revision: a program built on the
# symbols of 3.5 runs on any libselinux1 3.5, whoever packaged it.
#
#   packaging/gen-symbols.sh build/libselinux/libselinux.so.1 > debian/libselinux1.symbols
#
# The package build checks the file against the library (dpkg-gensymbols
# -c4, debian/rules): a symbol added to libselinux.map needs a new line.
set -eu
LIB=$1
# project-own version nodes and the project version that brought each
NODE_VERSIONS="SELINUX_AUDIT_1.0=3.10 SELINUX_EXPLAIN_1.0=3.10"
minver() {
	case $1 in
	LIBSELINUX_1.0) echo '3.1~'; return ;;
	LIBSELINUX_*) echo "${1#LIBSELINUX_}"; return ;;
	esac
	for nv in $NODE_VERSIONS; do
		[ "${nv%%=*}" = "$1" ] && { echo "${nv#*=}"; return; }
	done
	echo "gen-symbols: version node $1 has no version in NODE_VERSIONS" >&2
	exit 1
}
echo "libselinux.so.1 libselinux1 #MINVER#"
echo "* Build-Depends-Package: libselinux1-dev"
nm -D --defined-only --with-symbol-versions "$LIB" | awk '{print $3}' |
	while read -r s; do
		case $s in
		*@@*) echo " ${s%%@@*}@${s#*@@} $(minver "${s#*@@}")" ;;
		*@*) ;;
		*) echo " $s@$s $(minver "$s")" ;;
		esac
	done | LC_ALL=C sort
