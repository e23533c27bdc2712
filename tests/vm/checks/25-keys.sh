# setkeycreatecon and the label of a key the process then adds.
. /vm/lib.sh

key_want() { # SET-RESULT CREATECON LABEL
	echo "setkeycreatecon = $1
getkeycreatecon = 0 con=$2
key security = \"$3\"
setkeycreatecon(NULL) = 0
getkeycreatecon = 0 con=NULL"
}
profile_has EXEC_DOMAIN &&
	agree setkeycreatecon "$(key_want 0 "\"$EXEC_DOMAIN\"" "$EXEC_DOMAIN")" \
		vmprobe keycreate "$EXEC_DOMAIN"
agree setkeycreatecon-none "$(key_want 0 NULL "$KERNEL_CON")" \
	vmprobe keycreate -
agree setkeycreatecon-invalid \
	"$(key_want "-1 errno=EINVAL" NULL "$KERNEL_CON")" \
	vmprobe keycreate system_u:object_r:no_such_t
