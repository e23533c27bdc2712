# security_check_context and security_canonicalize_context: the kernel's
# "context" file decides.
. /vm/lib.sh

for c in $VALID_CONS; do
	agree "check_context:$c" "security_check_context = 0
security_check_context_raw = 0" vmprobe check "$c"
done
for c in $INVALID_CONS; do
	agree "check_context:$c" "security_check_context = -1 errno=EINVAL
security_check_context_raw = -1 errno=EINVAL" vmprobe check "$c"
done
same check_context-empty vmprobe check ""

for pair in $CANON_PAIRS; do
	in=${pair%%=>*}
	want=${pair#*=>}
	agree "canonicalize:$in" "security_canonicalize_context = 0 con=\"$want\"
security_canonicalize_context_raw = 0 con=\"$want\"" vmprobe canon "$in"
done
agree canonicalize-invalid "security_canonicalize_context = -1 errno=EINVAL
security_canonicalize_context_raw = -1 errno=EINVAL" vmprobe canon hello
