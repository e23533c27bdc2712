#!/bin/bash
# tests/deb/run-index.sh --build DIR --source DIR - the label index image
# (file_contexts.idx) present and used after every way the policy changes
# on a Debian 13 system managed as users manage it, with no service of
# ours running (issue 35), on our trixie packages installed with apt.
#
# The cached trixie root of tests/lib/release-root.sh (Debian's
# libselinux1 3.8.1, policycoreutils, semanage, refpolicy with its
# store), on a throw-away overlay in a private mount namespace; our
# trixie packages (scripts/build-debs.sh OUT trixie, cached in
# DIR/debs-index/KEY, KEY the tree's files) installed over Debian's with
# apt-get; then, each followed at once by the next process, Debian's own
# matchpathcon, under strace -f (open, openat, mmap):
#   1. the first install of ours (selinux-utils' postinst)
#   2. semanage fcontext -a -t httpd_sys_content_t '/srv/web(/.*)?'
#   3. semanage login -a -s staff_u idxuser (.homedirs rebuilt)
#   4. semodule -i of a small CIL module (a file context of its own)
#   5. semodule -r of it
#   6. apt-get install --reinstall of selinux-policy-default (its .deb
#      fetched once into $VM_CACHE/deb/trixie-policy; its postinst runs
#      semodule on every module; our file trigger)
#   7. /etc/selinux copied as an image builder copies it (cp -a: new
#      inodes, the same bytes): served from the image by content; after
#      sefcontext_compile -U (what a refresher runs) by identity again
# After each, the answer must be the one written here from the policy
# and the change, and the process must have opened
# /etc/selinux/default/contexts/files/file_contexts.idx and none of the
# spec files beside it (file_contexts, .bin, .homedirs(.bin),
# .local(.bin); the .subs files are read before the image, as ever);
# after 7 it must have mapped the image.
#
# INDEX_DEBS=DIR: take the packages in DIR instead (a debugging aid).
#
# Plain builds only (packages are built, not the sanitized tree).  Needs
# root, debootstrap, strace; skips (77) without them or without a
# mirror.  Warm (root, packages and the policy's .deb cached): the
# policy changes themselves take most of it (libsemanage rebuilds the
# policy on each, semodule about 20 s on this machine).
set -euo pipefail
unset LD_LIBRARY_PATH LD_PRELOAD
BUILD="" SRC=""
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$2; shift 2 ;;
	--source) SRC=$2; shift 2 ;;
	*) echo "usage: run-index.sh --build DIR --source DIR" >&2; exit 2 ;;
	esac
done
BUILD=$(cd "$BUILD" && pwd)
SRC=$(cd "$SRC" && pwd)
note() { echo "index: $*"; }
die() { echo "index: FAIL: $*"; exit 1; }
skip() { echo "index: SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (chroot, mounts)"
for t in debootstrap unshare strace dpkg-deb flock; do
	command -v $t > /dev/null || skip "$t is missing (scripts/debian-packages.txt)"
done
T0=$(date +%s)
CACHE=${VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/libselinux-vm}

# ---------- the root (Debian 13 with its policy store)
ROOT=$("$SRC/tests/lib/release-root.sh" trixie) || exit $?
note "trixie root: $ROOT"

# ---------- our trixie packages, built once per state of the tree
KEY=$(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 sha256sum 2> /dev/null | sha256sum | cut -c1-16)
DEBS=${INDEX_DEBS:-$BUILD/debs-index/$KEY}
if [ ! -e "$DEBS/.done" ] && [ -z "${INDEX_DEBS:-}" ]; then
	rm -rf "$BUILD/debs-index"
	mkdir -p "$BUILD/debs-index"
	note "scripts/build-debs.sh trixie (once per state of the tree)"
	"$SRC/scripts/build-debs.sh" "$BUILD/debs-index/out" trixie \
		> "$BUILD/debs-index/build.log" 2>&1 ||
		{ tail -n 30 "$BUILD/debs-index/build.log"; die "build-debs.sh trixie failed"; }
	mkdir -p "$DEBS"
	mv "$BUILD"/debs-index/out/debs/*.deb "$DEBS/"
	rm -rf "$BUILD/debs-index/out"
	touch "$DEBS/.done"
fi
note "our packages: $(cd "$DEBS" && ls *.deb | tr '\n' ' ')"

# ---------- selinux-policy-default's .deb, fetched once
POL=$CACHE/deb/trixie-policy
if ! ls "$POL"/selinux-policy-default_*.deb > /dev/null 2>&1; then
	mkdir -p "$CACHE/deb"
	(
		flock 9
		ls "$POL"/selinux-policy-default_*.deb > /dev/null 2>&1 && exit 0
		W=$(mktemp -d)
		mkdir -p "$W/upper" "$W/work" "$W/root"
		unshare -m --propagation private sh -c '
			set -e
			mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/upper,workdir=$2/work" "$2/root"
			cp /etc/resolv.conf "$2/root/etc/resolv.conf" 2>/dev/null || true
			chroot "$2/root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
				sh -c "cd /tmp && apt-get update -q && apt-get download -q selinux-policy-default"
			' sh "$ROOT" "$W" > "$CACHE/deb/trixie-policy.log" 2>&1 || { rm -rf "$W"; exit 1; }
		mkdir -p "$POL.tmp"
		mv "$W"/upper/tmp/selinux-policy-default_*.deb "$POL.tmp/"
		rm -rf "$W" "$POL"
		mv "$POL.tmp" "$POL"
	) 9> "$CACHE/deb/.lock-trixie-policy" ||
		{ tail -n 20 "$CACHE/deb/trixie-policy.log"; skip "cannot fetch selinux-policy-default (no mirror?)"; }
fi
note "policy package: $(cd "$POL" && ls selinux-policy-default_*.deb)"

# ---------- in a private mount namespace: an overlay of the root
W=$BUILD/deb-index/run
rm -rf "$W" && mkdir -p "$W/upper" "$W/work" "$W/root"
cat > "$W/inside.sh" << 'INSIDE'
set -euo pipefail
W=$1 ROOT=$2 DEBS=$3 POL=$4
R=$W/root
fail() { echo "index: FAIL: $*"; exit 1; }
mount -t overlay overlay -o "lowerdir=$ROOT,upperdir=$W/upper,workdir=$W/work" "$R"
mount -t proc proc "$R/proc"
mount --rbind /dev "$R/dev"
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
FCD=/etc/selinux/default/contexts/files
n=0 t=$(date +%s)
# check WHAT PATH WANT [content]: the next process, Debian's matchpathcon
# PATH, must answer WANT, open the image and no spec file (by content:
# map the image, the spec files read only to be compared)
check() {
	local what=$1 path=$2 want=$3 how=${4:-identity} log got opened fd
	n=$((n + 1))
	log=$W/strace-$n.log
	got=$(strace -f -qq -e trace=open,openat,mmap -o "$log" \
		chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		matchpathcon "$path" 2>&1) || fail "$what: matchpathcon $path: $got"
	[ "$got" = "$path	$want" ] ||
		fail "$what: matchpathcon $path says '$got', want '$want'"
	opened=$(sed -n "s|.*open[a-z]*(AT_FDCWD, \"$FCD/\([^\"]*\)\".*) = [0-9].*|\1|p" "$log" |
		sort -u | tr '\n' ' ')
	fd=$(sed -n "s|.*open[a-z]*(AT_FDCWD, \"$FCD/file_contexts.idx\".*) = \([0-9]*\)\$|\1|p" "$log" | head -n1)
	[ -n "$fd" ] || fail "$what: the image was not opened (opened: $opened)"
	grep -q "mmap(NULL, [0-9]*, PROT_READ, MAP_SHARED, $fd, 0) = 0x" "$log" ||
		fail "$what: the image was not mapped (opened: $opened)"
	if [ "$how" = identity ]; then
		case " $opened" in
		*" file_contexts "* | *" file_contexts.bin "* | *" file_contexts.homedirs"* | *" file_contexts.local"*)
			fail "$what: spec files opened beside the image: $opened" ;;
		esac
	fi
	echo "  $what ($(($(date +%s) - t))s): $path -> ${want}; opened: $opened"
	t=$(date +%s)
}

# apt, as a user installs local packages
mkdir -p "$R/tmp/debs"
cp "$DEBS"/*.deb "$POL"/selinux-policy-default_*.deb "$R/tmp/debs/"
ours=""
for d in "$DEBS"/*.deb; do
	p=$(dpkg-deb -f "$d" Package)
	case $(in_root dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2> /dev/null || true) in
	ii*) ours="$ours /tmp/debs/${d##*/}" ;;
	esac
done
[ -z "$(ls "$R$FCD"/*.idx 2> /dev/null)" ] || fail "the root has an image before ours is installed"
# shellcheck disable=SC2086
in_root apt-get install -y -q --no-install-recommends $ours > "$W/apt.log" 2>&1 ||
	{ cat "$W/apt.log"; fail "apt-get install of ours"; }
grep -E '^(Setting up|Unpacking)' "$W/apt.log" | sed 's/^/  /'
in_root dpkg-query -W -f '${Version}' libselinux1 | grep -q ours ||
	fail "libselinux1 is not ours after apt-get install"
check "the first install of ours (postinst)" /etc/passwd system_u:object_r:etc_t:s0

in_root semanage fcontext -a -t httpd_sys_content_t '/srv/web(/.*)?' > "$W/semanage.log" 2>&1 ||
	{ cat "$W/semanage.log"; fail "semanage fcontext -a"; }
check "semanage fcontext -a" /srv/web/index.html system_u:object_r:httpd_sys_content_t:s0

in_root useradd -m -d /home/idxuser idxuser
in_root semanage login -a -s staff_u idxuser > "$W/semanage.log" 2>&1 ||
	{ cat "$W/semanage.log"; fail "semanage login -a"; }
check "semanage login -a" /home/idxuser/.ssh staff_u:object_r:ssh_home_t:s0

cat > "$R/tmp/idxtest.cil" << 'CIL'
(filecon "/usr/share/idxtest(/.*)?" any (system_u object_r etc_t ((s0) (s0))))
CIL
in_root semodule -i /tmp/idxtest.cil > "$W/semodule.log" 2>&1 ||
	{ cat "$W/semodule.log"; fail "semodule -i"; }
check "semodule -i" /usr/share/idxtest/x system_u:object_r:etc_t:s0

in_root semodule -r idxtest > "$W/semodule.log" 2>&1 ||
	{ cat "$W/semodule.log"; fail "semodule -r"; }
check "semodule -r" /usr/share/idxtest/x system_u:object_r:usr_t:s0

in_root apt-get install -y -q --no-install-recommends --reinstall \
	/tmp/debs/"$(cd "$POL" && ls selinux-policy-default_*.deb)" > "$W/apt-policy.log" 2>&1 ||
	{ cat "$W/apt-policy.log"; fail "apt-get install --reinstall selinux-policy-default"; }
grep -E '^(Setting up|Processing triggers)' "$W/apt-policy.log" | sed 's/^/  /'
check "apt-get install --reinstall selinux-policy-default" /srv/web/x system_u:object_r:httpd_sys_content_t:s0

mv "$R/etc/selinux" "$R/etc/selinux.orig"
cp -a "$R/etc/selinux.orig" "$R/etc/selinux"
check "/etc/selinux copied (cp -a)" /home/idxuser/.ssh staff_u:object_r:ssh_home_t:s0 content
in_root sefcontext_compile -U $FCD/file_contexts || fail "sefcontext_compile -U"
check "the copy after sefcontext_compile -U" /srv/web/x system_u:object_r:httpd_sys_content_t:s0

# nothing of ours left running in the root
for _ in $(seq 1 300); do
	left=$(for p in /proc/[0-9]*; do
		if [ "$(readlink "$p/root" 2> /dev/null)" = "$R" ]; then
			echo "${p#/proc/}"
		fi
	done | tr '\n' ' ')
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] || fail "processes left in the root: $left ($(for p in $left; do tr '\0' ' ' < /proc/$p/cmdline; echo; done))"
INSIDE
unshare -m --propagation private bash "$W/inside.sh" "$W" "$ROOT" "$DEBS" "$POL"
rm -rf "$W"
note "passed ($(($(date +%s) - T0))s)"
