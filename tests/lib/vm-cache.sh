# tests/lib/vm-cache.sh - sourced (bash) by tests/vm/run-vm.sh and
# tests/system/run-system.sh: Debian packages fetched with
# "apt-get download" into a cache and unpacked there, never installed.
#
# Needs: CACHE (the cache directory), and die/note functions.
# Callers hold the cache's lock ($CACHE/.lock) around fetch_pkg and
# kernel_pkg: two runs may share the cache.

vm_as_root() { [ "$(id -u)" = 0 ]; }

# The Debian release whose packages fetch_pkg and kernel_pkg take:
# VM_RELEASE, default this machine's (/etc/os-release), whose apt answers.
# Another release (tests/system boots Debian 13 on a Debian 12 host) is
# read through an apt configuration of its own in $CACHE/apt-RELEASE (the
# host's mirror, Debian's archive keyring; the host's apt state is never
# touched), its lists fetched once and again when a package is missing.
VM_HOST_RELEASE=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
vm_release() { echo "${VM_RELEASE:-$VM_HOST_RELEASE}"; }
_vm_apt_opts() {
	local rel d mirror
	rel=$(vm_release)
	[ "$rel" = "$VM_HOST_RELEASE" ] && return 0
	d=$CACHE/apt-$rel
	if [ ! -s "$d/sources.list" ]; then
		mirror=$("$(dirname "${BASH_SOURCE[0]}")/debian-mirror.sh") || return 1
		mkdir -p "$d/lists/partial" "$d/cache/archives/partial" || return 1
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $rel main" \
			> "$d/sources.list"
	fi
	printf '%s\n' -o "Dir::Etc::SourceList=$d/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent -o "Dir::State::Lists=$d/lists" \
		-o "Dir::Cache=$d/cache" -o Dir::State::status=/dev/null
}
# vm_apt_get, vm_apt_cache ARGS...: apt-get, apt-cache of $(vm_release)
vm_apt_get() {
	local o
	o=$(_vm_apt_opts) || return 1
	# shellcheck disable=SC2046
	(IFS=$'\n'; apt-get $o "$@")
}
vm_apt_cache() {
	local o rel
	o=$(_vm_apt_opts) || return 1
	rel=$(vm_release)
	if [ "$rel" != "$VM_HOST_RELEASE" ] && [ -z "$(ls "$CACHE/apt-$rel/lists" 2>/dev/null | grep -v partial)" ]; then
		vm_apt_get update -q >&2 || return 1
	fi
	(IFS=$'\n'; apt-cache $o "$@")
}

# fetch_pkg PKG [DIRNAME] [MEMBER...]: unpack PKG (only MEMBERs, e.g.
# ./boot, if given) into $CACHE/DIRNAME (default PKG) once; print the
# directory.
fetch_pkg() {
	local pkg=$1 dir="$CACHE/${2:-$1}" deb
	shift
	[ $# -gt 0 ] && shift
	if [ ! -e "$dir/.done" ]; then
		mkdir -p "$CACHE/debs" || return 1
		deb=$(ls "$CACHE/debs/${pkg}_"*.deb 2>/dev/null | head -n1)
		if [ -z "$deb" ]; then
			note "downloading $pkg into $CACHE/debs"
			( cd "$CACHE/debs" && vm_apt_get download -q "$pkg" >&2 ) ||
				{ vm_as_root && vm_apt_get update -q >&2 &&
				  ( cd "$CACHE/debs" && vm_apt_get download -q "$pkg" >&2 ); } ||
				return 1
			deb=$(ls "$CACHE/debs/${pkg}_"*.deb | head -n1)
		fi
		rm -rf "$dir" && mkdir -p "$dir" &&
			dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" "$@" ||
			return 1
		touch "$dir/.done"
	fi
	echo "$dir"
}

# kernel_pkg: the kernel package to boot: VM_KERNEL_PKG (this machine's
# release only), else what $(vm_release)'s linux-image-amd64 depends on
# (remembered in the cache after the first run, kernel-pkg or
# kernel-pkg-RELEASE, so that every later run boots the same kernel).
kernel_pkg() {
	local k=${VM_KERNEL_PKG:-} f=$CACHE/kernel-pkg
	[ "$(vm_release)" != "$VM_HOST_RELEASE" ] && f=$CACHE/kernel-pkg-$(vm_release) k=
	[ -z "$k" ] && [ -s "$f" ] && k=$(cat "$f")
	if [ -z "$k" ]; then
		_resolve() { vm_apt_cache depends linux-image-amd64 2>/dev/null |
			awk '/Depends: linux-image-/{print $2; exit}'; }
		k=$(_resolve)
		if [ -z "$k" ] && vm_as_root; then
			vm_apt_get update -q >&2
			k=$(_resolve)
		fi
		[ -n "$k" ] || return 1
		echo "$k" > "$f"
	fi
	echo "$k"
}

# ensure_qemu: install qemu-system-x86 when missing (as root); then can
# qemu start here at all?  An empty machine still alive after a moment
# answers that without booting anything.  0 yes, 1 no (message on
# stdout).
ensure_qemu() {
	local accel=$1 err qpid msg
	if ! command -v qemu-system-x86_64 >/dev/null; then
		if vm_as_root; then
			note "installing qemu-system-x86"
			export DEBIAN_FRONTEND=noninteractive
			apt-get install -y -q --no-install-recommends qemu-system-x86 >&2 ||
				{ apt-get update -q >&2 && apt-get install -y -q \
					--no-install-recommends qemu-system-x86 >&2; }
		fi
		command -v qemu-system-x86_64 >/dev/null || {
			echo "qemu-system-x86_64 is not installed and cannot be installed"
			return 1
		}
	fi
	err=$(mktemp)
	qemu-system-x86_64 -accel "$accel" -M none -nodefaults -no-user-config \
		-display none -monitor none -serial none 2>"$err" &
	qpid=$!
	sleep 0.5
	if ! kill -0 $qpid 2>/dev/null; then
		wait $qpid 2>/dev/null
		msg=$(head -c 300 "$err")
		rm -f "$err"
		echo "qemu-system-x86_64 -accel $accel cannot start: $msg"
		return 1
	fi
	kill $qpid 2>/dev/null
	wait $qpid 2>/dev/null
	rm -f "$err"
	return 0
}

# wait_vm QPID SECONDS DIR: wait for a qemu process, killed after SECONDS;
# leaves DIR/status ("finished" or "timeout") and DIR/seconds.
wait_vm() {
	local qpid=$1 limit=$2 d=$3 start t=0
	start=$(date +%s)
	while kill -0 "$qpid" 2>/dev/null; do
		if [ $t -ge $((limit * 5)) ]; then
			kill "$qpid" 2>/dev/null
			echo timeout > "$d/status"
			break
		fi
		sleep 0.2
		t=$((t + 1))
	done
	wait "$qpid" 2>/dev/null
	echo $(( $(date +%s) - start )) > "$d/seconds"
	[ -e "$d/status" ] || echo finished > "$d/status"
}

# vm_workdir PREFIX KEEP: make $WORK (a fresh directory under $TMPDIR) and
# the exit trap that kills the qemu processes listed in QPIDS and removes
# $WORK, unless KEEP is 1.
vm_workdir() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || die "mktemp failed"
	VM_KEEP_WORK=$2
	QPIDS=()
	trap _vm_cleanup EXIT
	trap 'exit 1' INT TERM
}
_vm_cleanup() {
	local p
	for p in "${QPIDS[@]}"; do kill "$p" 2>/dev/null; done
	if [ "$VM_KEEP_WORK" = 1 ]; then note "kept $WORK"; else rm -rf "$WORK"; fi
}
