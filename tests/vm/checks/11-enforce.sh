# security_setenforce / security_getenforce against the real enforce file.
. /vm/lib.sh

PREP='echo 1 > /sys/fs/selinux/enforce'
agree setenforce-0 "security_setenforce = 0
security_getenforce = 0" vmprobe setenforce 0
# the kernel takes any non-zero value as 1
agree setenforce-2 "security_setenforce = 0
security_getenforce = 1" vmprobe setenforce 2
PREP='echo 0 > /sys/fs/selinux/enforce'
agree setenforce-1 "security_setenforce = 0
security_getenforce = 1" vmprobe setenforce 1
agree setenforce-minus-1 "security_setenforce = 0
security_getenforce = 1" vmprobe setenforce -1
PREP=
echo 1 > /sys/fs/selinux/enforce
expect enforce-restored 1 "$(cat /sys/fs/selinux/enforce)"

if profile_has AUTO_DOMAIN_NO_SETENFORCE ENTRY_FILE_CON; then
	entry_setup
	agree setenforce-denied "security_setenforce = -1 errno=EACCES
security_getenforce = 1" /tmp/entry/vmprobe setenforce 0
	echo 1 > /sys/fs/selinux/enforce
fi
expect enforce-still-1 1 "$(cat /sys/fs/selinux/enforce)"
