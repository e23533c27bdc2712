# Process attributes: getcon, getprevcon, getpidcon, getpidprevcon and the
# (unset) exec/fscreate/keycreate/sockcreate contexts.
. /vm/lib.sh

agree self "getcon = 0 con=\"$KERNEL_CON\"
getcon_raw = 0 con=\"$KERNEL_CON\"
getprevcon = 0 con=\"$KERNEL_CON\"
getprevcon_raw = 0 con=\"$KERNEL_CON\"
getexeccon = 0 con=NULL
getfscreatecon = 0 con=NULL
getkeycreatecon = 0 con=NULL
getsockcreatecon = 0 con=NULL" vmprobe self

agree getpidcon-1 "getpidcon = 0 con=\"$INIT_CON\"
getpidcon_raw = 0 con=\"$INIT_CON\"" vmprobe pid 1
# no such process: /proc/PID is missing
agree getpidcon-nonexistent "getpidcon = -1 errno=ENOENT
getpidcon_raw = -1 errno=ENOENT" vmprobe pid 99999
same getpidcon-0 vmprobe pid 0
same getpidcon-negative vmprobe pid -5
mine getpidprevcon-1 "getpidprevcon = 0 con=\"$INIT_CON\"
getpidprevcon_raw = 0 con=\"$INIT_CON\"" vmprobe pidprev 1
mine getpidprevcon-0 "getpidprevcon = -1 errno=EINVAL
getpidprevcon_raw = -1 errno=EINVAL" vmprobe pidprev 0

# another process in another domain: busybox sleep entering AUTO_DOMAIN
if profile_has ENTRY_FILE_CON AUTO_DOMAIN; then
	entry_setup
	/tmp/entry/sleep 30 &
	bg=$!
	expect bg-domain "$AUTO_DOMAIN" "$(wait_attr $bg "$KERNEL_CON")"
	agree getpidcon-other-domain "getpidcon = 0 con=\"$AUTO_DOMAIN\"
getpidcon_raw = 0 con=\"$AUTO_DOMAIN\"" vmprobe pid $bg
	mine getpidprevcon-other-domain "getpidprevcon = 0 con=\"$KERNEL_CON\"
getpidprevcon_raw = 0 con=\"$KERNEL_CON\"" vmprobe pidprev $bg
	kill $bg
	wait $bg 2>/dev/null || true
fi

# setcon: a dynamic transition of the running process (the previous
# context stays what execve left)
if profile_has EXEC_DOMAIN; then
	agree setcon "setcon = 0
getcon = 0 con=\"$EXEC_DOMAIN\"
getprevcon = 0 con=\"$KERNEL_CON\"" vmprobe setcon "$EXEC_DOMAIN"
fi
agree setcon-invalid "setcon = -1 errno=EINVAL
getcon = 0 con=\"$KERNEL_CON\"
getprevcon = 0 con=\"$KERNEL_CON\"" vmprobe setcon system_u:object_r:no_such_t
if profile_has ENTRY_FILE_CON AUTO_DOMAIN AUTO_DOMAIN_NO_DYNTRANSITION; then
	entry_setup
	agree setcon-denied "setcon = -1 errno=EACCES
getcon = 0 con=\"$AUTO_DOMAIN\"
getprevcon = 0 con=\"$KERNEL_CON\"" /tmp/entry/vmprobe setcon "$KERNEL_CON"
fi
