#!/bin/sh
# kernel/policy/check_tree.sh ROOT SRCDIR - the bundled trees are complete,
# and (when Debian's selinux-utils is installed) the reference library
# reads their file_contexts.
root=$1
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }

for name in bundled bundled-mls; do
	d=$root/etc/selinux/$name
	for f in policy/policy.33 seusers booleans.subs_dist \
		contexts/files/file_contexts contexts/files/media \
		contexts/default_contexts contexts/users/staff_u contexts/users/user_u \
		contexts/users/root contexts/failsafe_context contexts/default_type \
		contexts/securetty_types contexts/removable_context \
		contexts/userhelper_context contexts/virtual_domain_context \
		contexts/virtual_image_context contexts/lxc_contexts contexts/x_contexts; do
		[ -s "$d/$f" ] || err "$d/$f missing"
	done
	if grep -q '@[{|]' -r "$d"; then err "$d: unexpanded markup"; fi
done
grep -qx 'SELINUXTYPE=bundled' "$root/etc/selinux/config" || err "config"
grep -qx 'SELINUXTYPE=bundled-mls' "$root/etc/selinux/config.bundled-mls" || err "config.bundled-mls"

# every context of file_contexts is valid in its policy
if command -v sefcontext_compile >/dev/null 2>&1; then
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	for name in bundled bundled-mls; do
		d=$root/etc/selinux/$name
		sefcontext_compile -p "$d/policy/policy.33" -o "$tmp/fc.bin" \
			"$d/contexts/files/file_contexts" || err "$name: invalid file_contexts"
	done
fi
grep -qx '__default__:user_u:s0' "$root/etc/selinux/bundled-mls/seusers" || err "MLS seusers"
grep -qx '__default__:user_u' "$root/etc/selinux/bundled/seusers" || err "seusers"

# path  expected-context(non-MLS)  [mode]
check() {
	for name in bundled bundled-mls; do
		fc=$root/etc/selinux/$name/contexts/files/file_contexts
		want=$2
		[ "$name" = bundled-mls ] && [ "$want" != "<<none>>" ] && want=$want:s0
		if command -v selabel_lookup >/dev/null 2>&1; then
			got=$(selabel_lookup -b file -f "$fc" -k "$1" 2>&1 | sed -n 's/^Default context: //p')
			[ -n "$got" ] || got=$(selabel_lookup -b file -f "$fc" -k "$1" 2>&1)
			case $got in *"$want") ;; *) err "selabel_lookup $name $1: '$got', want $want";; esac
		fi
		if command -v matchpathcon >/dev/null 2>&1 && [ "$want" != "<<none>>" ]; then
			got=$(matchpathcon -f "$fc" ${3:+-m $3} "$1" 2>&1)
			case $got in *"	$want"|*" $want") ;; *) err "matchpathcon $name $1: '$got', want $want";; esac
		fi
	done
}
check /etc/shadow system_u:object_r:shadow_t file
check /etc/passwd system_u:object_r:etc_t file
check /usr/sbin/sshd system_u:object_r:sshd_exec_t file
check /usr/bin/ls system_u:object_r:bin_t file
check /tmp/x system_u:object_r:tmp_t file
check /home/alice system_u:object_r:user_home_dir_t dir
check /home/alice/.profile system_u:object_r:user_home_t file
check /dev/null system_u:object_r:null_device_t chr_file
check /run/sshd.pid system_u:object_r:sshd_pid_t file
check /opt/x system_u:object_r:default_t file
exit $fail
