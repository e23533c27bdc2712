#!/bin/sh
# ThreadSanitizer over the AVC: every source of libselinux/src, at any
# depth (label/file, label/index), compiled again with -fsanitize=thread,
# linked with avc_stress.c, run against kernel/'s server on POLICY for
# SECONDS with READERS threads.  Any report fails (halt_on_error), and so
# does a stale decision (avc_stress.c).
#   tests/integration/avc/tsan.sh BUILDDIR POLICY [SECONDS [READERS]]
set -eu
src=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "$1" && pwd)
policy=$2
secs=${3:-4}
readers=${4:-4}
cc=${CC:-gcc}
tmp=$(mktemp -d /tmp/avc-tsan.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# the library's own version script is not needed: a static link; the
# build's release (include/selinux/release.h) for core/compat.c
rel=$(sed -n 's/^#define SELINUX_RELEASE //p' "$build/include/selinux/release.h")
"$cc" -g -O1 -fsanitize=thread -D_GNU_SOURCE -pthread -DSELINUX_COMPAT="$rel" \
	-I"$src/include" -I"$build/include" -I"$src/libselinux/src" -I"$build/libselinux" \
	"$src/tests/integration/avc/avc_stress.c" \
	$(find "$src/libselinux/src" -name '*.c' | sort) \
	-lpcre2-8 -laudit -ldl -o "$tmp/avc_stress"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
	SELINUXFSD=${SELINUXFSD:-$build/kernel/server/selinuxfsd} \
	"$src/tests/lib/with-server.sh" -e 1 "$policy" sh -c \
	"'$tmp/avc_stress' \"\$SELINUXFS_MNT\" '$policy' $secs $readers"
