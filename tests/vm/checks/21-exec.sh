# setexeccon + execve: the domain the kernel gives the new program, seen by
# the program through the library and, for a static busybox, from outside.
. /vm/lib.sh

profile_has ENTRY_FILE_CON AUTO_DOMAIN EXEC_DOMAIN || {
	skip exec "the profile names no entrypoint file type"
	exit 0
}
entry_setup

# automatic transition (type_transition on the file's type)
agree exec-auto "getcon = 0 con=\"$AUTO_DOMAIN\"
getprevcon = 0 con=\"$KERNEL_CON\"" /tmp/entry/vmprobe cur

agree exec-setexeccon "setexeccon = 0
getexeccon = 0 con=\"$EXEC_DOMAIN\"
getcon = 0 con=\"$EXEC_DOMAIN\"
getprevcon = 0 con=\"$KERNEL_CON\"" \
	vmprobe setexec "$EXEC_DOMAIN" exec /tmp/entry/vmprobe cur

# the exec context is consumed by execve: the new program has none
agree exec-context-consumed "setexeccon = 0
getexeccon = 0 con=\"$EXEC_DOMAIN\"
getexeccon = 0 con=NULL" \
	vmprobe setexec "$EXEC_DOMAIN" exec /tmp/entry/vmprobe getexec
# ...and setexeccon(NULL) clears it before any exec
agree exec-reset "setexeccon = 0
getexeccon = 0 con=\"$EXEC_DOMAIN\"
setexeccon = 0
getexeccon = 0 con=NULL" vmprobe setexec "$EXEC_DOMAIN" setexec -

# a witness without libselinux: busybox sleep, looked at from outside
# (a plain command in the background, so that $! is the pid that execs)
for lib in $OURS_LIB $REF_LIB; do
	LD_LIBRARY_PATH=$lib vmprobe setexec "$EXEC_DOMAIN" \
		exec /tmp/entry/sleep 20 > /dev/null &
	bg=$!
	expect "exec-witness-${lib#/opt/}" "$EXEC_DOMAIN" \
		"$(wait_attr $bg "$KERNEL_CON")"
	kill $bg
	wait $bg 2>/dev/null || true
done

if profile_has EXEC_INVALID; then
	agree exec-invalid-context "setexeccon = -1 errno=EINVAL
getexeccon = 0 con=NULL" vmprobe setexec "$EXEC_INVALID"
fi
if profile_has EXEC_DOMAIN_NO_ROOT_ENTRY; then
	agree exec-no-entrypoint "setexeccon = 0
getexeccon = 0 con=\"$EXEC_DOMAIN\"
execv = -1 errno=EACCES" vmprobe setexec "$EXEC_DOMAIN" exec /bin/busybox true
fi
