# The guest itself: which library each side loads, and the kernel state
# the other checks take for granted (read straight from selinuxfs/proc).
. /vm/lib.sh

capture ours vmprobe whichlib
expect library-ours "libselinux = $OURS_LIB/libselinux.so.1" "$out"
capture ref vmprobe whichlib
expect library-ref "libselinux = $REF_LIB/libselinux.so.1" "$out"
# nothing on the default path: a program cannot pick up the wrong library
capture vmprobe whichlib
expect library-none-by-default 127 "$rc"

expect selinuxfs-enforce 1 "$(cat /sys/fs/selinux/enforce)"
expect selinuxfs-policyvers 33 "$(cat /sys/fs/selinux/policyvers)"
expect selinuxfs-mls "$MLS" "$(cat /sys/fs/selinux/mls)"
expect proc-attr-current "$KERNEL_CON" "$(attr_of self)"
