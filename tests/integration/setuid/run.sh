#!/bin/sh
# The setuid model (README, "Hostile callers"): a setuid-root program run
# by an ordinary user under a hostile environment, umask and locale gets
# the same answers from the library as root in a clean environment, and no
# descriptor of the library's survives an exec.
#
#   run.sh PROBE LIBDIR
#
# PROBE is built with a runpath to LIBDIR (our libselinux.so.1).  It is
# copied into a private directory, made setuid root and run by nobody
# (setpriv), which puts the process in secure mode (AT_SECURE=1): the
# loader then ignores LD_*, glibc ignores LOCPATH, and nothing the caller
# set may change what the library reads.  Needs root; skips (77) without.
set -eu
probe=$1
libdir=$2

[ "$(id -u)" -eq 0 ] || { echo "setuid: needs root, skipped"; exit 77; }
command -v setpriv >/dev/null || { echo "setuid: no setpriv"; exit 1; }

work=$(mktemp -d /tmp/selinux-setuid-XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
cp "$probe" "$work/probe"
chown root:root "$work/probe"
chmod 4755 "$work/probe"

# What the caller controls: every variable a library might consult, the
# locale (a real hostile one, compiled into a LOCPATH the loader must
# ignore, and the system's own C.UTF-8 if LOCPATH were honoured), a
# fake /etc/selinux tree that says the opposite of the real one.
evil=$work/evil
mkdir -p "$evil/etc/selinux/evil/contexts/files" "$evil/lib"
printf 'SELINUX=disabled\nSELINUXTYPE=evil\n' >"$evil/etc/selinux/config"
printf '/.* system_u:object_r:evil_t:s0\n' \
	>"$evil/etc/selinux/evil/contexts/files/file_contexts"
cp "$evil/etc/selinux/config" "$evil/config"
localedef -c -i tr_TR -f ISO-8859-9 "$evil/tr_TR.ISO-8859-9" \
	>/dev/null 2>&1 || true
chmod -R a+rX "$evil"

clean=$(cd / && env -i PATH=/usr/bin:/bin "$work/probe")
hostile=$(cd "$evil" && umask 000 && setpriv --reuid=65534 --regid=65534 \
	--clear-groups env -i \
	PATH="$evil" HOME="$evil" TMPDIR="$evil" PWD="$evil" IFS=/ \
	LANG=tr_TR.ISO-8859-9 LC_ALL=tr_TR.ISO-8859-9 LOCPATH="$evil" \
	NLSPATH="$evil/%N" TZ="$evil/tz" GCONV_PATH="$evil" \
	LD_LIBRARY_PATH="$evil/lib" LD_PRELOAD="$evil/lib/evil.so" \
	MALLOC_CHECK_=3 MALLOC_PERTURB_=165 \
	SELINUX_INIT=YES SELINUXMNT="$evil" SELINUX_MNT="$evil" \
	SELINUXTYPE=evil SELINUX_CONFIG="$evil/config" \
	SELINUX_ROOT="$evil/etc/selinux" SELINUX_POLICY_ROOT="$evil" \
	LIBSELINUX_CONFIG="$evil/config" LIBSELINUX_DEBUG=1 \
	FILE_CONTEXTS="$evil/etc/selinux/evil/contexts/files/file_contexts" \
	"$work/probe")

echo "--- clean (root)"
echo "$clean"
echo "--- hostile (setuid root, run by nobody)"
echo "$hostile"
fail=0
case "$clean" in *"AT_SECURE: 0"*) ;; *) echo "FAIL: clean run in secure mode?"; fail=1 ;; esac
case "$hostile" in *"AT_SECURE: 1"*) ;; *) echo "FAIL: the setuid run is not in secure mode: the test would prove nothing"; fail=1 ;; esac
case "$hostile" in *"library: $libdir/"*) ;; *) echo "FAIL: the setuid run did not use $libdir's library"; fail=1 ;; esac
# The answers must be worth comparing: the real tree's file contexts.
case "$clean" in *"lookup /etc/shadow: 0 "*) ;; *) echo "FAIL: no label for /etc/shadow in the clean run"; fail=1 ;; esac
if [ "$(echo "$clean" | sed '/^library:/,$d')" != "$(echo "$hostile" | sed '/^library:/,$d')" ]; then
	echo "FAIL: the answers differ:"
	printf '%s\n' "$clean" >"$work/clean"
	printf '%s\n' "$hostile" >"$work/hostile"
	diff -u "$work/clean" "$work/hostile" || true
	fail=1
fi
for out in "$clean" "$hostile"; do
	case "$out" in *"descriptors without close-on-exec: 0"*) ;; *) echo "FAIL: descriptors left open without FD_CLOEXEC"; fail=1 ;; esac
done
[ "$fail" -eq 0 ] && echo "setuid: same answers in both runs, no descriptor leaks"
exit "$fail"
