#!/bin/sh
# ThreadSanitizer check of the label layer: the label sources compiled
# again with -fsanitize=thread (the rest of the library from BUILDDIR's
# libselinux.a), tsan_lookup.c run with 8 threads on one handle.  Any
# data race report fails (halt_on_error).
#   bench/label/tsan.sh [BUILDDIR] [FILE_CONTEXTS]
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
fc=${2:-/etc/selinux/default/contexts/files/file_contexts}
[ -f "$fc" ] || fc=$src/tests/fuzz/seed/file_contexts
cc=${CC:-gcc}
tmp=$(mktemp -d /tmp/label-tsan.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$cc" -g -O1 -fsanitize=thread -D_GNU_SOURCE -pthread \
	-I"$src/include" -I"$build/include" -I"$src/libselinux/src" \
	"$src/bench/label/tsan_lookup.c" $(find "$src/libselinux/src/label" -name '*.c') \
	"$build/libselinux/libselinux.a" -lpcre2-8 -o "$tmp/tsan_lookup"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
	"$tmp/tsan_lookup" "$fc" 8 \
	/etc/shadow /etc/passwd /usr/bin/ls /usr/lib/x86_64-linux-gnu/libc.so.6 \
	/usr/share/man/man1/ls.1.gz /usr/lib/systemd/system/foo.service \
	/root/.ssh/authorized_keys /root/.k5login /home/u/.ssh /home/u/www/x \
	/var/log/messages /var/lib/mysql/x /dev/tty1 /dev/sda1 /tmp/x \
	/opt/vmware/bin/x /run/user/1000 /usr/local/lib64/libx.so /proc/1 \
	/usr/src/kernels/x /a/b /a/x.conf /usr/local/bin/x12 /nonexistent
