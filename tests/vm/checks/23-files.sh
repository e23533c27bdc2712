# getfilecon / lgetfilecon / fgetfilecon (O_RDONLY and O_PATH) and the
# set*filecon calls on tmpfs, with the kernel's refusals.
. /vm/lib.sh

file_want() { # FOLLOWED NOFOLLOW: the probe's "file" answers
	a=$(len "$1")
	b=$(len "$2")
	echo "getfilecon = $a con=\"$1\"
getfilecon_raw = $a con=\"$1\"
lgetfilecon = $b con=\"$2\"
lgetfilecon_raw = $b con=\"$2\"
fgetfilecon(O_RDONLY) = $a con=\"$1\"
fgetfilecon_raw(O_RDONLY) = $a con=\"$1\"
fgetfilecon(O_PATH) = $b con=\"$2\"
fgetfilecon_raw(O_PATH) = $b con=\"$2\""
}

rm -rf /tmp/f && mkdir /tmp/f
echo x > /tmp/f/plain
agree getfilecon-tmpfs "$(file_want "$TMP_FILE_CON" "$TMP_FILE_CON")" \
	vmprobe file /tmp/f/plain
# a symlink (labelled by the directory) to a file labelled LABEL_A
echo x > /tmp/f/target
ref $REF_BIN/setfilecon "$LABEL_A" /tmp/f/target
ln -s target /tmp/f/link
agree getfilecon-symlink "$(file_want "$LABEL_A" "$TMP_FILE_CON")" \
	vmprobe file /tmp/f/link
agree getfilecon-missing "getfilecon = -1 errno=ENOENT
getfilecon_raw = -1 errno=ENOENT
lgetfilecon = -1 errno=ENOENT
lgetfilecon_raw = -1 errno=ENOENT
fgetfilecon(O_RDONLY) = open failed errno=ENOENT
fgetfilecon_raw(O_RDONLY) = open failed errno=ENOENT
fgetfilecon(O_PATH) = open failed errno=ENOENT
fgetfilecon_raw(O_PATH) = open failed errno=ENOENT" vmprobe file /tmp/f/nope
agree getfilecon-dir "$(file_want "$TMP_FILE_CON" "$TMP_FILE_CON")" \
	vmprobe file /tmp/f

# every set call, each on a fresh file
PREP='rm -f /tmp/f/s; echo x > /tmp/f/s'
for fn in setfilecon setfilecon_raw lsetfilecon lsetfilecon_raw \
	fsetfilecon fsetfilecon_raw; do
	agree "$fn" "$fn = 0
lgetfilecon_raw = $(len "$LABEL_B") con=\"$LABEL_B\"" vmprobe setfile $fn /tmp/f/s "$LABEL_B"
done
# lsetfilecon on a symlink labels the link, setfilecon its target
PREP='rm -f /tmp/f/t /tmp/f/l; echo x > /tmp/f/t; ln -s t /tmp/f/l'
agree lsetfilecon-symlink "lsetfilecon = 0
lgetfilecon_raw = $(len "$LABEL_B") con=\"$LABEL_B\"" vmprobe setfile lsetfilecon /tmp/f/l "$LABEL_B"
agree setfilecon-symlink "setfilecon = 0
lgetfilecon_raw = $(len "$TMP_FILE_CON") con=\"$TMP_FILE_CON\"" vmprobe setfile setfilecon /tmp/f/l "$LABEL_B"
PREP='rm -f /tmp/f/s; echo x > /tmp/f/s'
agree setfilecon-missing "setfilecon = -1 errno=ENOENT
lgetfilecon_raw = -1 errno=ENOENT" vmprobe setfile setfilecon /tmp/f/nope "$LABEL_B"
if profile_has LABEL_NO_RELABELTO; then
	agree setfilecon-denied "setfilecon = -1 errno=EACCES
lgetfilecon_raw = $(len "$TMP_FILE_CON") con=\"$TMP_FILE_CON\"" \
		vmprobe setfile setfilecon /tmp/f/s "$LABEL_NO_RELABELTO"
fi
if profile_has VALIDATETRANS_TO; then
	PREP='rm -f /tmp/f/v; echo x > /tmp/f/v; ref $REF_BIN/setfilecon "$LABEL_B" /tmp/f/v'
	agree setfilecon-validatetrans-denied "setfilecon = -1 errno=EPERM
lgetfilecon_raw = $(len "$LABEL_B") con=\"$LABEL_B\"" \
		vmprobe setfile setfilecon /tmp/f/v "$VALIDATETRANS_TO"
	PREP='rm -f /tmp/f/v; echo x > /tmp/f/v; ref $REF_BIN/setfilecon "$LABEL_A" /tmp/f/v'
	agree setfilecon-validatetrans-allowed "setfilecon = 0
lgetfilecon_raw = $(len "$VALIDATETRANS_TO") con=\"$VALIDATETRANS_TO\"" \
		vmprobe setfile setfilecon /tmp/f/v "$VALIDATETRANS_TO"
fi
PREP='rm -f /tmp/f/s; echo x > /tmp/f/s'
# invalid contexts: EINVAL, or written as they are with mac_admin
for bad in system_u:object_r:no_such_t hello; do
	if [ "${MAC_ADMIN:-0}" = 1 ]; then
		agree "setfilecon-invalid-mac-admin:$bad" "setfilecon = 0
lgetfilecon_raw = $(len "$bad") con=\"$bad\"" vmprobe setfile setfilecon /tmp/f/s "$bad"
	else
		agree "setfilecon-invalid:$bad" "setfilecon = -1 errno=EINVAL
lgetfilecon_raw = $(len "$TMP_FILE_CON") con=\"$TMP_FILE_CON\"" vmprobe setfile setfilecon /tmp/f/s "$bad"
	fi
done
PREP=
