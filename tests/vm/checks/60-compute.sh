# The policy-decision API against the real kernel: security_compute_av
# (_flags), _create (_name), _relabel, _member, _user, validatetrans,
# initial contexts, class/permission mapping, booleans, selinux_status_*.
# A group whose calls our library does not export yet is skipped.
. /vm/lib.sh

# has_all SYMBOL...: our library exports them all
has_all() {
	! ours vmcompute has "$@" | grep -q ' no$'
}
# the access seqno now (earlier checks commit booleans)
printf 'access\t%s %s 1\n' "$KERNEL_CON" "$KERNEL_CON" > /tmp/.q
seq=$(sfsquery /tmp/.q | cut -d' ' -f5)

if ! has_all security_compute_av security_compute_av_flags \
	string_to_security_class string_to_av_perm; then
	skip compute_av "security_compute_av is not in our library yet"
elif profile_has AV_FACTS; then
	printf '%s\n' "$AV_FACTS" | sed '/^[[:space:]]*$/d' > /tmp/.av
	while IFS='|' read -r s t cls perms req allowed aa ad; do
		# the decision; security_compute_av leaves avd->flags as it
		# was (vmcompute fills the struct with 0xee first), only the
		# _flags variant writes it
		a="allowed=$allowed decided=ffffffff auditallow=$aa auditdeny=$ad seqno=$seq"
		agree "compute_av:${s##*:}:${t##*:}:$cls" "class $cls = $(
			# shellcheck disable=SC2086
			set -- $CLASS_VALUES
			for x; do [ "${x%=*}" = "$cls" ] && echo "${x#*=}"; done)
requested = $req
security_compute_av = 0 $a flags=eeeeeeee
security_compute_av_flags = 0 $a flags=0" vmcompute av "$s" "$t" "$cls" "$perms"
	done < /tmp/.av
fi

if ! has_all security_compute_create security_compute_create_name \
	security_compute_relabel security_compute_member; then
	skip compute_create "security_compute_create is not in our library yet"
elif profile_has AUTO_DOMAIN AUTO_TMP_FILE_CON NAMED_FILE_CON RELABEL_CON MEMBER_CON; then
	tmpdir=${TMP_FILE_CON}
	agree compute_create "security_compute_create = 0 con=\"$AUTO_TMP_FILE_CON\"" \
		vmcompute create "$AUTO_DOMAIN" "$tmpdir" file
	agree compute_create_name "security_compute_create_name = 0 con=\"$NAMED_FILE_CON\"" \
		vmcompute create_name "$KERNEL_CON" "$tmpdir" file "$NAMED_FILE"
	agree compute_create_name-other "security_compute_create_name = 0 con=\"$TMP_FILE_CON\"" \
		vmcompute create_name "$KERNEL_CON" "$tmpdir" file "x$NAMED_FILE"
	agree compute_create-process "security_compute_create = 0 con=\"$AUTO_DOMAIN\"" \
		vmcompute create "$KERNEL_CON" "$ENTRY_FILE_CON" process
	agree compute_relabel "security_compute_relabel = 0 con=\"$RELABEL_CON\"" \
		vmcompute relabel "$AUTO_DOMAIN" "$tmpdir" file
	agree compute_member "security_compute_member = 0 con=\"$MEMBER_CON\"" \
		vmcompute member "$AUTO_DOMAIN" "$tmpdir" dir
	agree compute_create-invalid "security_compute_create = -1 errno=EINVAL" \
		vmcompute create hello "$tmpdir" file
fi

if ! has_all security_compute_user; then
	skip compute_user "security_compute_user is not in our library yet"
elif profile_has USER_FACT; then
	agree compute_user "$USER_FACT" vmcompute user "$KERNEL_CON" "$USER_FACT_USER"
fi
# security_validatetrans(scon, tcon, tclass, newcon) sends "scon tcon
# tclass newcon", which the kernel reads as old, new, class, task
if ! has_all security_validatetrans string_to_security_class; then
	skip validatetrans "security_validatetrans is not in our library yet"
elif profile_has VALIDATETRANS_TO; then
	agree validatetrans-denied "security_validatetrans = -1 errno=EPERM" \
		vmcompute validatetrans "$LABEL_B" "$VALIDATETRANS_TO" file "$KERNEL_CON"
	agree validatetrans-allowed "security_validatetrans = 0" \
		vmcompute validatetrans "$LABEL_A" "$VALIDATETRANS_TO" file "$KERNEL_CON"
fi

if ! has_all security_get_initial_context; then
	skip initial_context "security_get_initial_context is not in our library yet"
else
	agree initial_context-kernel "security_get_initial_context = 0 con=\"$KERNEL_CON\"" \
		vmcompute initial kernel
	agree initial_context-unknown "security_get_initial_context = -1 errno=ENOENT" \
		vmcompute initial no_such_sid
fi

if ! has_all string_to_security_class string_to_av_perm security_class_to_string; then
	skip class_mapping "the class mapping is not in our library yet"
else
	profile_has CLASS_MAPPING_FACT &&
		agree class_mapping "$CLASS_MAPPING_FACT" \
			vmcompute class file read getattr entrypoint no_such_perm
	agree class_mapping-unknown "string_to_security_class(no_such_class) = 0
security_class_to_string(0) = NULL" vmcompute class no_such_class
fi

if ! has_all security_get_boolean_names security_get_boolean_active \
	security_get_boolean_pending security_set_boolean security_commit_booleans; then
	skip booleans "the boolean calls are not in our library yet"
elif profile_has BOOL_NAME; then
	# BOOL_LIST: every boolean of the policy, when it has more than one
	agree boolean_names "security_get_boolean_names = 0
${BOOL_LIST:-  $BOOL_NAME active=0 pending=0}" vmcompute bools
	PREP="echo 0 > /sys/fs/selinux/booleans/$BOOL_NAME; echo 1 > /sys/fs/selinux/commit_pending_bools"
	agree boolean-set-commit "security_set_boolean = 0
active=0 pending=1
security_commit_booleans = 0
active=1 pending=1" vmcompute setbool "$BOOL_NAME" 1
	eval "$PREP"
	PREP=
fi

if ! has_all selinux_status_open selinux_status_updated selinux_status_getenforce \
	selinux_status_policyload selinux_status_deny_unknown selinux_status_close; then
	skip status "selinux_status_* is not in our library yet"
else
	agree status "selinux_status_open = 0
selinux_status_updated = 0
selinux_status_getenforce = 1
selinux_status_deny_unknown = $DENY_UNKNOWN
selinux_status_policyload >= 0: 1" vmcompute status
fi

# The AVC on the real kernel: a denied permission (AVC_DENIED, S|T|CLASS|
# PERM) is refused when enforcing, granted once the kernel goes permissive
# (the AVC hears it through the status page only), refused again after.
if ! has_all avc_open avc_context_to_sid avc_has_perm_noaudit; then
	skip avc "avc_* is not in our library yet"
elif profile_has AVC_DENIED; then
	IFS='|' read -r as at ac ap <<EOF_AVC
$AVC_DENIED
EOF_AVC
	PREP="echo 1 > /sys/fs/selinux/enforce"
	# (the default log callback's setenforce line has no newline)
	agree avc-status "avc_open = 0
avc_has_perm_noaudit = -1 errno=EACCES
avc:  op=setenforce lsm=selinux enforcing=0 res=1avc_has_perm_noaudit = 0
avc:  op=setenforce lsm=selinux enforcing=1 res=1avc_has_perm_noaudit = -1 errno=EACCES" vmcompute avc "$as" "$at" "$ac" "$ap" \
		enforce 0 avc "$as" "$at" "$ac" "$ap" \
		enforce 1 avc "$as" "$at" "$ac" "$ap"
	eval "$PREP"
	PREP=
fi
