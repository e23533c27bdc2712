# Issue 35, after the reboot (and, in our boot, our packages installed
# again by the initramfs: selinux-utils' postinst): p1/85-index.sh's
# changes still answered, from the image in our boot; then semodule -r
# of its module (index-answers, index-reads: see p1/85-index.sh).
. $S/lib.sh
. $S/index-lib.sh
probe "after the reboot" /srv/web/x
step "semodule -r" semodule -r idxtest
probe "semodule -r" /usr/share/idxtest/x
report_index phase2-index
