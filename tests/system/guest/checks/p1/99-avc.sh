# 4. Every AVC denial of this boot, as (scontext, tcontext, class,
# permission): the kernel's (AVC) and the object managers' (USER_AVC),
# from the journal (journald reads the audit socket).
. $S/lib.sh
journalctl -b -o cat | python3 $S/avc-set.py | report avc-denials-phase1
journalctl -b -o cat | grep 'avc:  denied' | sed 's/^/@@INFO /'
