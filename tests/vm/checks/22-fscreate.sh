# setfscreatecon + creat: the label a new file gets on tmpfs, from the
# fscreate context or from the policy's (named) type transitions.
. /vm/lib.sh

fscreate_want() { # CON-SET-OR-NULL LABEL-GOT
	if [ "$1" = NULL ]; then
		echo "setfscreatecon = 0
getfscreatecon = 0 con=NULL"
	else
		echo "setfscreatecon = 0
getfscreatecon = 0 con=\"$1\""
	fi
	echo "creat = ok
fgetfilecon = $(len "$2") con=\"$2\"
setfscreatecon(NULL) = 0
getfscreatecon = 0 con=NULL"
}

agree fscreate-set "$(fscreate_want "$LABEL_A" "$LABEL_A")" \
	vmprobe fscreate "$LABEL_A" /tmp/fscreate-a
agree fscreate-default "$(fscreate_want NULL "$TMP_FILE_CON")" \
	vmprobe fscreate - /tmp/fscreate-plain
if profile_has NAMED_FILE NAMED_FILE_CON; then
	agree fscreate-named-transition \
		"$(fscreate_want NULL "$NAMED_FILE_CON")" \
		vmprobe fscreate - "/tmp/$NAMED_FILE"
	# the name must match exactly
	agree fscreate-named-other-name \
		"$(fscreate_want NULL "$TMP_FILE_CON")" \
		vmprobe fscreate - "/tmp/x$NAMED_FILE"
fi
# An invalid fscreate context: EINVAL, unless the process has
# capability2:mac_admin; then the kernel keeps the string as it is and new
# files get it (security_context_to_sid_force).
bad=system_u:object_r:no_such_t
if [ "${MAC_ADMIN:-0}" = 1 ]; then
	agree fscreate-invalid-mac-admin "$(fscreate_want "$bad" "$bad")" \
		vmprobe fscreate "$bad" /tmp/fscreate-bad
else
	agree fscreate-invalid "setfscreatecon = -1 errno=EINVAL
getfscreatecon = 0 con=NULL
creat = ok
fgetfilecon = $(len "$TMP_FILE_CON") con=\"$TMP_FILE_CON\"
setfscreatecon(NULL) = 0
getfscreatecon = 0 con=NULL" vmprobe fscreate "$bad" /tmp/fscreate-bad
fi

# Debian's library remembers, per thread, the fscreate context it set and
# getfscreatecon answers from that memory: a value written to the
# attribute behind its back is not seen (so the reference answers what
# was set, not what the kernel holds).
agree fscreate-remembered "setfscreatecon = 0
rawattr = ok
getfscreatecon = 0 con=\"$LABEL_A\"" \
	vmprobe setfscreate "$LABEL_A" rawattr fscreate "$LABEL_B" getfscreate
# nothing set through the library: it reads the kernel
agree fscreate-read-through "rawattr = ok
getfscreatecon = 0 con=\"$LABEL_B\"" \
	vmprobe rawattr fscreate "$LABEL_B" getfscreate

# a new file made by the confined AUTO_DOMAIN
if profile_has ENTRY_FILE_CON AUTO_TMP_FILE_CON; then
	entry_setup
	if [ "${AUTO_DOMAIN_NO_FSCREATE:-0}" = 1 ]; then
		# writing the fscreate attribute needs process:setfscreate,
		# even to clear it: both libraries write, the kernel refuses
		for con in - "$LABEL_A"; do
			agree "fscreate-denied:$con" "setfscreatecon = -1 errno=EACCES
getfscreatecon = 0 con=NULL
creat = ok
fgetfilecon = $(len "$AUTO_TMP_FILE_CON") con=\"$AUTO_TMP_FILE_CON\"
setfscreatecon(NULL) = -1 errno=EACCES
getfscreatecon = 0 con=NULL" /tmp/entry/vmprobe fscreate "$con" /tmp/fscreate-auto
		done
	else
		agree fscreate-auto-domain \
			"$(fscreate_want NULL "$AUTO_TMP_FILE_CON")" \
			/tmp/entry/vmprobe fscreate - /tmp/fscreate-auto
	fi
fi
