#!/bin/sh
# ThreadSanitizer over the server's worker threads: selinuxfsd compiled
# again with -fsanitize=thread (kernel/server's sources, the static
# libsepol, libfuse3) and put under stress.py's load - honest clients
# comparing answers while others reload the policy, commit booleans,
# toggle enforcing and send garbage.  A report stops the server
# (halt_on_error), which fails the clients and so the test; the log of a
# server that stopped says why.
#   tests/integration/server/tsan.sh BUILDDIR POLICY
set -eu
src=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "$1" && pwd)
policy=$2
cc=${CC:-gcc}
tmp=$(mktemp -d /tmp/server-tsan.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
sepol=$("$cc" -print-file-name=libsepol.a)
# uring.c's transport too, where liburing is (it serves when the kernel
# offers it: the fuse module's enable_uring)
uring=
pkg-config --exists liburing && uring="-DSRV_HAVE_URING $(pkg-config --libs liburing)"
"$cc" -g -O1 -fsanitize=thread -Wno-tsan -D_GNU_SOURCE -pthread \
	$(pkg-config --cflags fuse3) \
	"$src"/kernel/server/*.c "$sepol" $(pkg-config --libs fuse3) $uring \
	-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=reallocarray \
	-o "$tmp/selinuxfsd"
TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" \
	SELINUXFSD="$tmp/selinuxfsd" \
	env -u LD_LIBRARY_PATH "$src/tests/lib/with-server.sh" "$policy" \
	python3 "$src/tests/integration/server/stress.py" stress "$policy"
