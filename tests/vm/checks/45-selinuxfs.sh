# The kernel's selinuxfs itself, byte for byte: what kernel/'s server must
# answer on the same policy.  The table (SFS_FACTS) is in the profile,
# written by hand from the policy source and the kernel's formats.
. /vm/lib.sh

if ! profile_has SFS_FACTS; then
	skip selinuxfs "the profile lists no SFS_FACTS"
	exit 0
fi
sfs_facts "$SFS_FACTS"
