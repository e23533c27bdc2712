# getpeercon on socket pairs and other descriptors; setsockcreatecon and
# the label a new socket gets.
. /vm/lib.sh

agree getpeercon "getpeercon(stream0) = 0 con=\"$KERNEL_CON\"
getpeercon_raw(stream0) = 0 con=\"$KERNEL_CON\"
getpeercon(stream1) = 0 con=\"$KERNEL_CON\"
getpeercon_raw(stream1) = 0 con=\"$KERNEL_CON\"
getpeercon(dgram) = -1 errno=ENOPROTOOPT
getpeercon_raw(dgram) = -1 errno=ENOPROTOOPT
getpeercon(pipe) = -1 errno=ENOTSOCK
getpeercon_raw(pipe) = -1 errno=ENOTSOCK
getpeercon(badfd) = -1 errno=EBADF
getpeercon_raw(badfd) = -1 errno=EBADF" vmprobe peer

sock_want() { # SET-RESULT CREATECON LABEL
	echo "setsockcreatecon = $1
getsockcreatecon = 0 con=$2
getpeercon(new) = 0 con=\"$3\"
getpeercon_raw(new) = 0 con=\"$3\"
fgetfilecon_raw(socket) = $(len "$3") con=\"$3\"
setsockcreatecon(NULL) = 0
getsockcreatecon = 0 con=NULL"
}
profile_has EXEC_DOMAIN &&
	agree setsockcreatecon "$(sock_want 0 "\"$EXEC_DOMAIN\"" "$EXEC_DOMAIN")" \
		vmprobe sockcreate "$EXEC_DOMAIN"
agree setsockcreatecon-none "$(sock_want 0 NULL "$KERNEL_CON")" \
	vmprobe sockcreate -
agree setsockcreatecon-invalid \
	"$(sock_want "-1 errno=EINVAL" NULL "$KERNEL_CON")" \
	vmprobe sockcreate system_u:object_r:no_such_t
