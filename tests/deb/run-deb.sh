#!/bin/bash
# tests/deb/run-deb.sh --build DIR --source DIR - our .debs replace
# Debian's in a Debian 12 system beside policycoreutils, never on this
# host.
#
# scripts/build-debs.sh builds the packages (debian/, dpkg-buildpackage)
# into DIR/debs; a Debian 12 root (debootstrap minbase from the host's
# mirror, with Debian's libselinux1-dev, selinux-utils, python3-selinux,
# ruby-selinux, policycoreutils, policycoreutils-python-utils and what
# they need, and policycoreutils' .deb kept in /root/debian-debs) is
# cached once in $VM_CACHE/deb/root-KEY (KEY: this script's package
# list), and each run works on a throw-away overlay of it in a private
# mount namespace (unshare -m): nothing is written to the cache or
# mounted on the host.  On the host: lintian on the packages, no error or
# warning; dpkg-shlibdeps of two programs against libselinux1's symbols
# file.  In the chroot: apt-get install of all our packages over
# Debian's, then dpkg --audit clean, every package ours and installed,
# policycoreutils still installed with its files intact (dpkg --verify),
# selinux(8) and booleans(8) there when the build has them, the loaded
# libselinux.so.1 byte for byte the one of our libselinux1, dpkg -l,
# apt-get check, ls -Z /, getenforce, the Python and Ruby bindings,
# policycoreutils' .deb installed again over ours, removing and
# reinstalling a package, and apt-get install --reinstall of them all.
set -euo pipefail
unset LD_LIBRARY_PATH LD_PRELOAD
BUILD="" SRC=""
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$2; shift 2 ;;
	--source) SRC=$2; shift 2 ;;
	*) echo "usage: run-deb.sh --build DIR --source DIR" >&2; exit 2 ;;
	esac
done
BUILD=$(cd "$BUILD" && pwd)
SRC=$(cd "$SRC" && pwd)
note() { echo "deb: $*"; }
die() { echo "deb: FAIL: $*"; exit 1; }
SKIP=77
[ "$(id -u)" = 0 ] || { echo "deb: SKIP: needs root (debootstrap, chroot, mounts)"; exit $SKIP; }
for t in debootstrap unshare dpkg-deb dpkg-shlibdeps flock lintian; do
	command -v $t >/dev/null || die "$t is missing (scripts/debian-packages.txt)"
done
T0=$(date +%s)

# ---------- the packages
note "scripts/build-debs.sh $BUILD"
"$SRC/scripts/build-debs.sh" "$BUILD" > "$BUILD/debs.log" 2>&1 ||
	{ tail -n 30 "$BUILD/debs.log"; die "build-debs.sh failed"; }
DEBS=$BUILD/debs
ls "$DEBS"/*.deb
note "scripts/build-debs.sh: $(( $(date +%s) - T0 ))s"

# ---------- lintian: no error, no warning (overrides in debian/*.lintian-overrides)
T1=$(date +%s)
shopt -s nullglob
lintian -I --fail-on error,warning "$DEBS"/*.deb "$DEBS"/dbgsym/*.deb \
	> "$BUILD/lintian.log" 2>&1 ||
	{ cat "$BUILD/lintian.log"; die "lintian reports errors or warnings"; }
shopt -u nullglob
note "lintian: $(grep -c '^[EWIP]:' "$BUILD/lintian.log" || true) tags," \
	"none an error or a warning ($(( $(date +%s) - T1 ))s)"
grep -v '^running with root privileges' "$BUILD/lintian.log" | sed 's/^/  /' || true
VERSION=$(dpkg-deb -f "$DEBS"/libselinux1_*.deb Version)
OURS=$(for d in "$DEBS"/*.deb; do dpkg-deb -f "$d" Package; done | tr '\n' ' ')

# ---------- dpkg-shlibdeps against our symbols file (host side)
SH=$BUILD/deb-check/shlibdeps
rm -rf "$SH" && mkdir -p "$SH/debian" "$SH/lib" && cd "$SH"
dpkg-deb -x "$DEBS"/libselinux1_*.deb debian/libselinux1
dpkg-deb -e "$DEBS"/libselinux1_*.deb debian/libselinux1/DEBIAN
printf 'Source: x\n\nPackage: libselinux1\nArchitecture: any\n\nPackage: prog\nArchitecture: any\n' > debian/control
LIBD=$(dirname debian/libselinux1/lib/*/libselinux.so.1)
ln -s libselinux.so.1 "$LIBD/libselinux.so"
printf '#include <selinux/selinux.h>\nint main(void) { return is_selinux_enabled() < 0; }\n' > old.c
printf '#include <selinux/selinux.h>\nint main(void) { char *c; return getpidprevcon(1, &c); }\n' > new.c
for p in old new; do
	cc -I"$SRC/include" -I"$BUILD/include" -o $p $p.c -L"$LIBD" -lselinux ||
		die "cannot build the shlibdeps probe $p"
	dep=$(dpkg-shlibdeps -O -l"$LIBD" $p 2>shlibdeps-$p.log |
		sed -n 's/^shlibs:Depends=//p' | tr ',' '\n' | sed -n 's/^ *\(libselinux1 .*\)/\1/p')
	echo "dpkg-shlibdeps of a program calling $( [ $p = old ] && echo is_selinux_enabled || echo getpidprevcon): $dep"
	want='libselinux1 (>= 3.1~)'
	[ $p = new ] && want='libselinux1 (>= 3.5)'
	[ "$dep" = "$want" ] || die "dpkg-shlibdeps gave '$dep', want '$want' ($(cat shlibdeps-$p.log))"
done
cd "$BUILD"

# ---------- the cached Debian 12 root
CACHE=${VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/libselinux-vm}
SUITE=bookworm
# Debian's packages ours replace, and what ours need beyond them.
INCLUDE=libselinux1-dev,selinux-utils,python3-selinux,ruby-selinux,python3,libfuse3-3,liburing2,libsepol2,policycoreutils,policycoreutils-python-utils
KEY=$(echo "$SUITE $INCLUDE v2" | sha256sum | cut -c1-16)
BASE=$CACHE/deb/root-$KEY
mkdir -p "$CACHE/deb"
if [ ! -e "$BASE/.done" ]; then
	exec 9> "$CACHE/.lock" && flock 9 || die "cannot lock $CACHE"
	if [ ! -e "$BASE/.done" ]; then
		mirror=$("$SRC/tests/lib/debian-mirror.sh") ||
			die "cannot find the host's Debian mirror in /etc/apt"
		note "debootstrap --variant=minbase $SUITE into $BASE (once)"
		rm -rf "$BASE" "$BASE.tmp"
		mkdir -p "$CACHE/deb/debs"
		debootstrap --variant=minbase --cache-dir="$CACHE/deb/debs" \
			"$SUITE" "$BASE.tmp" "$mirror" \
			> "$CACHE/deb/debootstrap.log" 2>&1 ||
			{ tail -n 30 "$CACHE/deb/debootstrap.log"; die "debootstrap failed"; }
		# Debian's packages ours replace, with apt in the chroot (its
		# /proc and /dev in a mount namespace of their own)
		echo "deb $mirror $SUITE main" > "$BASE.tmp/etc/apt/sources.list"
		unshare -m --propagation private sh -c '
			mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" &&
			chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
				DEBIAN_FRONTEND=noninteractive sh -c \
				"apt-get update -q && apt-get install -y -q --no-install-recommends $2 &&
				 mkdir -p /root/debian-debs && cd /root/debian-debs &&
				 apt-get download -q policycoreutils && apt-get clean"
			' sh "$BASE.tmp" "$(echo "$INCLUDE" | tr , ' ')" \
			>> "$CACHE/deb/debootstrap.log" 2>&1 ||
			{ tail -n 30 "$CACHE/deb/debootstrap.log"; die "apt-get install in the chroot failed"; }
		rm -rf "$BASE.tmp"/var/cache/apt/archives/*.deb
		mv "$BASE.tmp" "$BASE"
		touch "$BASE/.done"
	fi
	exec 9>&-
fi
note "Debian 12 root: $BASE ($(( $(date +%s) - T0 ))s so far)"

# ---------- in a private mount namespace: an overlay, the checks
W=$BUILD/deb-check/run
rm -rf "$W" && mkdir -p "$W/upper" "$W/work" "$W/root"
mkdir -p "$W/debs" && cp "$DEBS"/*.deb "$W/debs/"
dpkg-deb -x "$DEBS"/libselinux1_*.deb "$W/ours-lib"
OURSUM=$(sha256sum "$W"/ours-lib/lib/*/libselinux.so.1 | cut -d' ' -f1)

cat > "$W/inside.sh" <<'INSIDE'
set -euo pipefail
W=$1 BASE=$2 VERSION=$3 OURSUM=$4 OURS=$5 MAN8=$6
R=$W/root
fail() { echo "deb: FAIL: $*"; exit 1; }
mount -t overlay overlay -o "lowerdir=$BASE,upperdir=$W/upper,workdir=$W/work" "$R"
mount -t proc proc "$R/proc"
mount --rbind /dev "$R/dev"
mkdir -p "$R/tmp/debs" && cp "$W"/debs/*.deb "$R/tmp/debs/"
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

PCU=policycoreutils
PCU_VERSION=$(in_root dpkg-query -W -f '${Version}' $PCU)
echo "before: $(in_root dpkg-query -W -f '${Package} ${Version}\n' libselinux1 selinux-utils python3-selinux $PCU policycoreutils-python-utils | tr '\n' ';')"
in_root dpkg --verify $PCU || fail "dpkg --verify $PCU fails before ours are installed"
# apt, as a user installs local packages: it resolves them against the
# installed ones and stops on a file two packages ship
apt_ours() { # LOG apt-get-args...
	local log=$1; shift
	in_root apt-get install -y -q --no-install-recommends "$@" \
		$(ls -d "$R"/tmp/debs/*.deb | sed "s|^$R||") > "$log" 2>&1 ||
		{ cat "$log"; fail "apt-get install $* of our packages"; }
	grep -iE '^(E:|W:|dpkg: (error|warning))|trying to overwrite' "$log" &&
		{ cat "$log"; fail "apt-get install $* printed warnings or errors"; }
	return 0
}
check_pcu() { # what
	local st
	st=$(in_root dpkg-query -W -f '${db:Status-Abbrev}${Version}' $PCU)
	[ "$st" = "ii $PCU_VERSION" ] || fail "$1: $PCU is '$st', want 'ii $PCU_VERSION'"
	in_root dpkg --verify $PCU || fail "$1: dpkg --verify $PCU: its files changed"
	echo "$1: $PCU $PCU_VERSION installed, dpkg --verify clean"
}
apt_ours "$W/apt-install.log"
grep -E '^(Preparing|Unpacking|Setting up|Replacing)' "$W/apt-install.log" | sed 's/^/  /'

audit=$(in_root dpkg --audit 2>&1) || fail "dpkg --audit: $audit"
[ -z "$audit" ] || fail "dpkg --audit is not clean: $audit"
echo "dpkg --audit: clean"
for p in $OURS; do
	st=$(in_root dpkg-query -W -f '${db:Status-Abbrev}${Version}' "$p")
	[ "$st" = "ii $VERSION" ] || fail "$p: '$st', want 'ii $VERSION'"
done
echo "dpkg -l of ours:"
in_root dpkg -l $OURS | grep '^ii' | sed 's/^/  /'
in_root dpkg -l > "$W/dpkg-l.log" || fail "dpkg -l"
echo "dpkg -l: $(grep -c '^ii' "$W/dpkg-l.log") packages installed"
in_root dpkg -V $OURS || fail "dpkg -V: our files are not as packaged"
in_root apt-get check > "$W/apt.log" 2>&1 || { cat "$W/apt.log"; fail "apt-get check"; }
echo "apt-get check: OK"
check_pcu "after apt-get install of ours"
owner=$(in_root dpkg -S /usr/share/man/man5/selinux_config.5.gz)
[ "$owner" = "$PCU: /usr/share/man/man5/selinux_config.5.gz" ] ||
	fail "selinux_config.5.gz: '$owner', want $PCU's"
for m in $MAN8; do
	owner=$(in_root dpkg -S /usr/share/man/man8/$m.8.gz) ||
		fail "$m(8) is in our selinux-utils .deb but not installed"
	echo "$m(8): $owner"
done
[ -n "$MAN8" ] || echo "selinux(8), booleans(8): not in our selinux-utils (the build installs none)"

owner=$(in_root dpkg -S /lib/x86_64-linux-gnu/libselinux.so.1)
[ "$owner" = "libselinux1:amd64: /lib/x86_64-linux-gnu/libselinux.so.1" ] ||
	fail "dpkg -S libselinux.so.1: $owner"
sum=$(in_root sha256sum /lib/x86_64-linux-gnu/libselinux.so.1 | cut -d' ' -f1)
[ "$sum" = "$OURSUM" ] || fail "the chroot's libselinux.so.1 is not our package's"
# what a program loads there: the dynamic linker's answer, then a symbol
# only ours exports
ld=$(in_root ldd /bin/ls | awk '/libselinux/ {print $3}')
lsum=$(in_root sha256sum "$ld" | cut -d' ' -f1)
[ "$lsum" = "$OURSUM" ] || fail "ls loads $ld, not ours"
echo "ls loads $ld: ours (sha256 ${OURSUM:0:16})"
has=$(in_root python3 -c 'import ctypes; print(hasattr(ctypes.CDLL("libselinux.so.1"), "selinux_avc_audit_open"))')
[ "$has" = True ] || fail "the loaded libselinux.so.1 lacks our selinux_avc_audit_open"

out=$(in_root ls -Z / 2>&1) || fail "ls -Z /: $out"
echo "ls -Z / (first lines):"; echo "$out" | head -n 3 | sed 's/^/  /'
[ "$(echo "$out" | grep -c ' usr$')" = 1 ] || fail "ls -Z / lists no usr"
out=$(in_root getenforce 2>&1) || true
[ "$out" = Disabled ] || fail "getenforce (no selinuxfs here): '$out', want Disabled"
echo "getenforce: $out ($(in_root dpkg -S /usr/sbin/getenforce))"
out=$(in_root python3 -c 'import selinux, importlib.metadata as m; print(selinux.is_selinux_enabled(), m.version("selinux"), selinux.__file__)') ||
	fail "python3: import selinux"
echo "python3: is_selinux_enabled, version, module: $out"
[ "${out%% *}" = 0 ] || fail "python3: is_selinux_enabled() is not 0"
# sepolgen's import (semanage, audit2allow): the extension our package
# carries, libsepol linked in, on the policy found here
out=$(in_root python3 -c 'import selinux.audit2why as a, glob; p = sorted(glob.glob("/etc/selinux/*/policy/policy.*")); print(a.__file__, p and a.init(p[0]), a.NOPOLICY)' 2>&1) ||
	fail "python3: import selinux.audit2why: $out"
echo "python3: selinux.audit2why: $out"
# An administrator's tools on our packages, on this host's Debian 12
# refpolicy copied into the overlay: semanage, audit2why and audit2allow
# (policycoreutils-python-utils, sepolgen on our module) print what they
# print on this host with Debian's packages (computed outside, in
# $W/want), and matchpathcon -x explains a label.
if [ -s "$W/want/policy" ]; then
	mkdir -p "$R/etc/selinux" "$R/var/lib/selinux"
	cp -a /etc/selinux/default "$R/etc/selinux/"
	cp -a /var/lib/selinux/default "$R/var/lib/selinux/"
	[ -e "$R/etc/selinux/config" ] ||
		printf 'SELINUX=permissive\nSELINUXTYPE=default\n' > "$R/etc/selinux/config"
	cp "$W/want/denials.log" "$R/tmp/denials.log"
	pol=$(cat "$W/want/policy")
	for t in "semanage -h" "semanage boolean -l" "semanage fcontext -l" \
		"audit2why -p $pol -i /tmp/denials.log" \
		"audit2allow -p $pol -i /tmp/denials.log"; do
		f=$W/want/$(echo "$t" | cut -d' ' -f1-2 | tr ' ' _)
		got=$(in_root $t 2>&1) || fail "$t: exit $?: $got"
		[ "$got" = "$(cat "$f")" ] ||
			fail "$t: differs from Debian's on this host: $(diff <(echo "$got") "$f" | head -20)"
		echo "$t: as Debian's ($(echo "$got" | wc -l) lines)"
	done
	got=$(in_root matchpathcon -x /etc/httpd/conf/httpd.conf) ||
		fail "matchpathcon -x: $got"
	echo "$got" | head -n 1 | grep -q 'httpd_config_t' &&
		echo "$got" | grep -q 'labelled by /etc/httpd(/\.\*)?' ||
		fail "matchpathcon -x does not explain httpd.conf's label: $got"
	echo "matchpathcon -x /etc/httpd/conf/httpd.conf:"
	echo "$got" | sed 's/^/  /'
fi
case $OURS in *ruby-selinux*)
	out=$(in_root ruby -e 'require "selinux"; print Selinux.is_selinux_enabled') ||
		fail "ruby: require selinux"
	[ "$out" = 0 ] || fail "ruby: is_selinux_enabled is '$out'"
	echo "ruby: Selinux.is_selinux_enabled = $out" ;;
esac

# policycoreutils installed again after ours (Debian's .deb, kept in the
# cached root): no file of its may be one of ours
pdeb=$(ls "$R"/root/debian-debs/${PCU}_*.deb | sed "s|^$R||")
in_root dpkg -i "$pdeb" > "$W/pcu.log" 2>&1 ||
	{ cat "$W/pcu.log"; fail "dpkg -i $pdeb after ours"; }
check_pcu "dpkg -i of Debian's $PCU after ours"

# removing and installing again: selinuxfsd (nothing depends on it),
# then apt-get install --reinstall of all ours
case $OURS in *selinuxfsd*)
	in_root apt-get purge -y -q selinuxfsd > "$W/purge.log" 2>&1 ||
		{ cat "$W/purge.log"; fail "apt-get purge selinuxfsd"; }
	[ ! -e "$R/usr/sbin/selinuxfsd" ] || fail "selinuxfsd left behind"
	in_root dpkg-query -W -f '${db:Status-Abbrev}' selinuxfsd 2>/dev/null |
		grep -q '^ii' && fail "selinuxfsd still installed after the purge"
	echo "apt-get purge selinuxfsd: OK" ;;
esac
apt_ours "$W/apt-reinstall.log" --reinstall
for p in $OURS; do
	st=$(in_root dpkg-query -W -f '${db:Status-Abbrev}${Version}' "$p")
	[ "$st" = "ii $VERSION" ] || fail "after the reinstall, $p: '$st', want 'ii $VERSION'"
done
in_root dpkg -V $OURS || fail "dpkg -V after the reinstall"
echo "apt-get install --reinstall of ours: OK"
check_pcu "after the reinstall"
audit=$(in_root dpkg --audit 2>&1)
[ -z "$audit" ] || fail "dpkg --audit after the purge and reinstall: $audit"
echo "dpkg --audit: clean"
INSIDE

# the section 8 pages of Debian's selinux-utils that ours carries
MAN8=$(dpkg-deb -c "$DEBS"/selinux-utils_*.deb |
	sed -n 's|.*\./usr/share/man/man8/\(selinux\|booleans\)\.8\.gz$|\1|p' | tr '\n' ' ')
# What Debian's policycoreutils-python-utils prints on this host (Debian's
# python3-selinux), for the same commands in the chroot on ours.
mkdir -p "$W/want"
pol=$(ls /etc/selinux/default/policy/policy.* 2>/dev/null | sort | tail -n 1)
if [ -n "$pol" ] && [ -d /var/lib/selinux/default ] &&
	command -v semanage >/dev/null && command -v audit2allow >/dev/null &&
	dpkg-query -W -f '${Version}' python3-selinux 2>/dev/null | grep -q '^3\.4'; then
	cp "$SRC/tests/bindings/denials-refpolicy.log" "$W/want/denials.log"
	for t in "semanage -h" "semanage boolean -l" "semanage fcontext -l" \
		"audit2why -p $pol -i $W/want/denials.log" \
		"audit2allow -p $pol -i $W/want/denials.log"; do
		f=$W/want/$(echo "$t" | cut -d' ' -f1-2 | tr ' ' _)
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
			$t > "$f" 2>&1 || die "on this host, $t fails: $(tail -n 5 "$f")"
	done
	sed -i "s|$W/want/denials.log|/tmp/denials.log|g" "$W"/want/*
	echo "$pol" > "$W/want/policy"
else
	note "no Debian 12 refpolicy, store, policycoreutils-python-utils or python3-selinux 3.4 on this host: semanage, audit2why and matchpathcon -x not checked"
fi
note "apt-get install in a Debian 12 chroot (an overlay, in a mount namespace)"
unshare -m --propagation private bash "$W/inside.sh" "$W" "$BASE" "$VERSION" "$OURSUM" "$OURS" "$MAN8" ||
	{ rm -rf "$W"; die "in the chroot"; }
rm -rf "$W"
note "OK: our packages ($OURS) replace Debian's cleanly beside policycoreutils ($(( $(date +%s) - T0 ))s)"
