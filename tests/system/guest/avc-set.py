"""The AVC denials in a log on stdin, one "scontext tcontext class perm"
line each, sorted and unique."""
import re
import sys

out = set()
for line in sys.stdin:
    m = re.search(r'avc:\s+denied\s+\{([^}]*)\}', line)
    if not m:
        continue
    f = dict(re.findall(r'\b(scontext|tcontext|tclass)=(\S+)', line))
    for perm in m.group(1).split():
        out.add(' '.join((f.get('scontext', '?'), f.get('tcontext', '?'),
                          f.get('tclass', '?').rstrip("'"), perm)))
print('\n'.join(sorted(out)))
