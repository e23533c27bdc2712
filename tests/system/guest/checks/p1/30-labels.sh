# 3. What systemd, udev and tmpfiles created at boot: the labels under
# /run, /dev, /tmp and /var/log.  Names that differ from boot to boot
# (numbers, machine ids, random suffixes) are masked; the test's own
# files (/run/systest) are left out.
. $S/lib.sh
for d in /run /dev /tmp /var/log; do
	find $d -path /run/systest -prune -o -printf '%Z %p\n' 2>/dev/null
done | sed -E 's/[0-9a-f]{32}/<id>/g; s/[0-9a-zA-Z]{6,}-[0-9a-zA-Z]{6,}/<id>/g;
	s/[0-9]+/<n>/g' | sort -u | report boot-labels
