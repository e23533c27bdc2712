# 7. restorecon finds nothing to do on the labelled image, before the
# other checks create files (ssh's known_hosts ...).  What a boot creates
# at run time lives in /run, /dev, /tmp, /proc and /sys: the disk's own
# trees are walked.
. $S/lib.sh
report restorecon-nothing-to-do <<X
$(restorecon -RnvF /etc /usr /var /home /root /opt /srv 2>&1 | grep -v '^$')
X
