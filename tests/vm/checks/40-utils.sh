# Our utilities against Debian's selinux-utils: same stdout, stderr and
# exit status for the same calls (a utility our build lacks is skipped).
# Both run by bare name, so usage messages show the same argv[0].
. /vm/lib.sh

same_util getenforce getenforce
same_util getenforce-extra-arg getenforce extra
same_util selinuxenabled selinuxenabled
same_util policyvers policyvers

mkdir -p /tmp/u
echo x > /tmp/u/file
same_util getfilecon getfilecon /tmp/u/file
same_util getfilecon-two getfilecon /tmp/u/file /tmp/u
same_util getfilecon-missing getfilecon /tmp/u/nope
same_util getfilecon-usage getfilecon

# setfilecon, then the label it left (read without the library)
PREP='rm -f /tmp/u/s; echo x > /tmp/u/s'
NEEDS=setfilecon same_util setfilecon sh -c \
	'setfilecon "$0" /tmp/u/s; echo "status $?"; vmprobe xattr /tmp/u/s' \
	"$LABEL_A"
NEEDS=setfilecon same_util setfilecon-missing sh -c \
	'setfilecon "$0" /tmp/u/nope; echo "status $?"' "$LABEL_A"
PREP=
same_util setfilecon-usage setfilecon
same_util setfilecon-one-arg setfilecon "$LABEL_A"

same_util getpidcon-1 getpidcon 1
same_util getpidcon-nonexistent getpidcon 99999
same_util getpidcon-garbage getpidcon abc
same_util getpidcon-usage getpidcon
# Debian 3.4 has no getpidprevcon utility: checked against the policy
mine_util getpidprevcon-1 "status 0
$INIT_CON" getpidprevcon 1

# setenforce, then the kernel's enforce file
for arg in 0 1 Permissive Enforcing permissive enforcing 2 bogus ""; do
	PREP='echo 1 > /sys/fs/selinux/enforce'
	NEEDS=setenforce same_util "setenforce:$arg" sh -c \
		'setenforce $0; echo "status $?"; cat /sys/fs/selinux/enforce' \
		"$arg"
	PREP='echo 0 > /sys/fs/selinux/enforce'
	NEEDS=setenforce same_util "setenforce-from-0:$arg" sh -c \
		'setenforce $0; echo "status $?"; cat /sys/fs/selinux/enforce' \
		"$arg"
done
PREP=
echo 1 > /sys/fs/selinux/enforce
same_util getenforce-after getenforce
