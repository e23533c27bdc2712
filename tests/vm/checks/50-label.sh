# Label lookups (matchpathcon, selabel_*) on the profile's file_contexts,
# ours against Debian's; with -v/-V the specs and files are checked
# against the real kernel's policy.
. /vm/lib.sh

fc=/etc/selinux/$POLICYTYPE/contexts/files/file_contexts
if [ ! -f "$fc" ]; then
	skip label "the profile has no file_contexts"
	exit 0
fi
paths="/etc/passwd /etc/shadow /tmp /usr/bin/ls /dev/null /root /var/log/x /nonexistent/y"
# shellcheck disable=SC2086
same_util matchpathcon matchpathcon $paths
same_util matchpathcon-n matchpathcon -n /etc/shadow
same_util matchpathcon-m-dir matchpathcon -m dir /etc/shadow
same_util matchpathcon-V-tmp matchpathcon -V /tmp
same_util matchpathcon-V-etc matchpathcon -V /etc/selinux/config
same_util matchpathcon-usage matchpathcon
# (each run loads the whole file_contexts: a few only, TCG is slow)
same_util selabel_lookup selabel_lookup -b file -k /etc/shadow
same_util selabel_lookup-nomatch selabel_lookup -b file -k /tmp/x
same_util selabel_lookup-raw selabel_lookup -b file -r -k /usr/bin/ls
# -v: every spec's context checked by the kernel (security_check_context)
same_util selabel_lookup-validate selabel_lookup -b file -v -k /etc/shadow
same_util selabel_lookup-type selabel_lookup -b file -k /etc -t 16384
same_util selabel_lookup-media selabel_lookup -b media -k cdrom
same_util selabel_lookup_best_match selabel_lookup_best_match -p /usr/bin/ls
same_util selabel_partial_match selabel_partial_match -p /etc
