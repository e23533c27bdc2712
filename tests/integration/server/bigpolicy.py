#!/usr/bin/env python3
"""bigpolicy.py IN OUT N: the policy source IN (the bundled non-MLS
policy.conf) with N types more, each with a name of 56 bytes and an
allow rule of its own, declared before its first user: compiled by
checkpolicy, a policy of some 100 bytes per type more (25,000 types:
2.5 MB), for the tests of loads larger than one FUSE write (1 MiB).
The last type, big_<N-1>_..., is what a test asks for to see that the
whole policy was read."""
import sys

src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(src).read()
at = text.index("\nuser ") + 1
pad = "p" * 44
rules = "".join("type big_%05d_%s;\nallow big_%05d_%s self:file "
                "{ read getattr };\n" % (k, pad, k, pad) for k in range(n))
with open(out, "w") as f:
    f.write(text[:at] + rules + text[at:])
