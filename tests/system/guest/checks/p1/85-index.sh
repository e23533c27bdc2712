# Issue 35: the label index image (file_contexts.idx) present and used
# after every way the policy changes, on the running system: the next
# process after semodule -i (80-dbus's systest), semanage fcontext -a and
# semodule -i of a module with a file context of its own (here; its
# semodule -r and a reinstall of the policy package after the reboot:
# p2/20-index.sh, p2/30-index-policy.sh).  Its answer must include the
# change (index-answers, the same in both boots); what it read of the
# policy's contexts/files differs by design (index-reads: "image" in our
# boot; "files" on Debian's library, which has no index; see
# index-probe.py).  Each policy change takes a minute or more here.
. $S/lib.sh
. $S/index-lib.sh
probe "semodule -i systest" /etc/passwd
step "semanage fcontext -a" semanage fcontext -a -t httpd_sys_content_t '/srv/web(/.*)?'
probe "semanage fcontext -a" /srv/web/index.html
cat > /tmp/idxtest.cil << 'CIL'
(filecon "/usr/share/idxtest(/.*)?" any (system_u object_r etc_t ((s0) (s0))))
CIL
step "semodule -i" semodule -i /tmp/idxtest.cil
probe "semodule -i" /usr/share/idxtest/x
report_index index
