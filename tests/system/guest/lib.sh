# Helpers of the checks (sourced).  A check reports values; the host
# compares them between the two boots and with the expectations written
# by hand (tests/system/expected/NAME).  A value must be the same on
# every boot of the same image: mask what is not (pids, times, names
# made at random).
#
#   report NAME      the value on stdin
#   value NAME TEXT  the value is TEXT
#   info TEXT        a line for the log only (not compared)
report() {
	echo "@@CHECK $1"
	cat
	echo "@@END $1"
}
value() {
	n=$1
	shift
	printf '%s\n' "$*" | report "$n"
}
# ssh_as USER CMD: CMD on a new ssh login of USER to this machine (key
# authentication, a pty), its output without CRs.
ssh_as() {
	u=$1
	shift
	ssh -tt -o ConnectTimeout=60 "$u@localhost" "$@" < /dev/null 2>/dev/null |
		tr -d '\r' | sed 's/\x1b\[[0-9;]*m//g'
}
info() {
	echo "@@INFO $*"
}
# mask_ids: process ids, D-Bus unique names, serials and times out of
# stdin.
mask_ids() {
	sed -E 's/\b([spt]?pid|ses|auid|serial|reply_serial)=[0-9]+/\1=N/g;
		s/:1\.[0-9]+/:1.N/g; s/\btime=[0-9.]+/time=T/g'
}
