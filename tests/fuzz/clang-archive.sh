#!/bin/sh
# Compile the library's sources with clang for the libFuzzer targets
# (coverage and sanitizers on all of them) into one static archive:
#   clang-archive.sh OUT.a CLANG [CFLAGS...] -- SOURCES...
# Objects are named after the source's layer and file, so that two
# layers may have files of the same name.
set -eu
out=$1
cc=$2
shift 2
flags=
while [ "$1" != -- ]; do
	flags="$flags $1"
	shift
done
shift
tmp=$(mktemp -d "${out}.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for src in "$@"; do
	obj=$tmp/$(basename "$(dirname "$src")")_$(basename "$src" .c).o
	# shellcheck disable=SC2086 # flags are words on purpose
	"$cc" $flags -c -o "$obj" "$src"
done
rm -f "$out"
ar rcs "$out" "$tmp"/*.o
