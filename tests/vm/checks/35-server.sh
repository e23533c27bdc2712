# The security server against the kernel: the queries host/server.sh put
# in /vm/data/server, asked of the real selinuxfs, must get the answers
# kernel/'s server gave on the host, byte for byte.  One result per kind
# of query (access, create, read, ...), and every difference named (the
# first 20 of each kind).  It runs before 45-selinuxfs.sh, whose boolean
# commits move the access sequence number.
. /vm/lib.sh

d=/vm/data/server
if [ ! -s $d/answers ]; then
	skip server-comparison "$(cat $d/why 2>/dev/null ||
		echo 'no answers from host/server.sh')"
	exit 0
fi
sfsquery -t /tmp/.kernel-times $d/queries > /tmp/.server-kernel
# the time each side took, per kind (bench/server/run.sh reads these)
while read -r kind n sec max; do
	echo "# time $kind kernel $n $sec $max server" \
		"$(awk -v k="$kind" '$1 == k { print $2, $3, $4 }' $d/times 2>/dev/null)"
done < /tmp/.kernel-times
awk -F'\t' -v K=/tmp/.server-kernel -v S=$d/answers '
{
	getline k < K
	getline s < S
	if ($0 ~ /^#/ || $0 == "")
		next
	n[$1]++
	if (k != s && ++bad[$1] <= 20)
		printf "D\t%s\t%s\t%s\t%s\n", $1, $2, k, s
}
END {
	for (x in n)
		printf "K\t%s\t%d\t%d\n", x, n[x], bad[x]
}' $d/queries > /tmp/.server-diff
# D lines: kind, query, kernel's answer, server's; K lines: kind, count,
# differences
while IFS='	' read -r tag kind a b c; do
	if [ "$tag" = D ]; then
		fail "server:$kind:$a" "the kernel and kernel/'s server differ"
		detail kernel "$b"
		detail server "$c"
	elif [ "$b" = 0 ]; then
		pass "server:$kind ($a queries)"
	elif [ "$b" -gt 20 ]; then
		fail "server:$kind" "$b of $a answers differ, the first 20 above"
	fi
done < /tmp/.server-diff
