#!/usr/bin/env python3
"""Generate paths from the specs of file_contexts files, for the
differential test (gen_paths.py [--root DIR]... FILE...): for each regex a few strings it matches (shortest
expansion, a typical one, a long one) and near misses (a character
added, the last component dropped, a child path).  Output: NUL-terminated
"MODE PATH" records on stdout, each path once with mode 0 and once with
the spec's file type and a different one.  With --root DIR (repeatable),
the records of every path under those directories on this machine come
first (find -xdev: each with its lstat type and with mode 0); --machine
stands for the roots of the label tests: /usr /etc /var /opt /root /home
/dev /run."""
import os
import random
import re
import stat
import subprocess
import sys

try:
    import re._parser as sre_parse
    import re._constants as C
except ImportError:  # Python < 3.11
    import sre_parse
    import sre_constants as C

MODES = {'--': stat.S_IFREG, '-d': stat.S_IFDIR, '-l': stat.S_IFLNK,
         '-c': stat.S_IFCHR, '-b': stat.S_IFBLK, '-s': stat.S_IFSOCK,
         '-p': stat.S_IFIFO}
FILL = 'xq1'


def expand(tree, how, rnd):
    out = []
    for op, av in tree:
        if op is C.LITERAL:
            out.append(chr(av))
        elif op is C.NOT_LITERAL:
            out.append('z' if chr(av) != 'z' else 'y')
        elif op is C.ANY:
            out.append(rnd.choice(FILL))
        elif op is C.IN:
            out.append(pick_in(av, rnd))
        elif op is C.BRANCH:
            alts = av[1]
            alt = alts[0] if how == 'min' else rnd.choice(alts)
            out.append(expand(alt, how, rnd))
        elif op is C.SUBPATTERN:
            out.append(expand(av[-1], how, rnd))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, 'POSSESSIVE_REPEAT', None)):
            lo, hi, sub = av
            if how == 'min':
                n = lo
            elif how == 'long':
                n = max(lo, min(hi, 3))
            else:
                n = max(lo, min(hi, rnd.choice([0, 1, 1, 2])))
            out.append(''.join(expand(sub, how, rnd) for _ in range(n)))
        elif op is C.AT:
            pass
        elif op is C.CATEGORY:
            out.append('5' if 'DIGIT' in str(av) and 'NOT' not in str(av) else 'k')
        else:
            raise ValueError(op)
    return ''.join(out)


def pick_in(items, rnd):
    neg = any(op is C.NEGATE for op, _ in items)
    chars = set()
    for op, av in items:
        if op is C.LITERAL:
            chars.add(chr(av))
        elif op is C.RANGE:
            chars.update(chr(c) for c in range(av[0], min(av[1], av[0] + 30) + 1))
        elif op is C.CATEGORY:
            chars.update('5' if 'DIGIT' in str(av) else 'k')
    if neg:
        for c in 'xqk5_.-Z':
            if c not in chars:
                return c
        return '~'
    return rnd.choice(sorted(chars)) if chars else 'x'


TYPES = {'f': stat.S_IFREG, 'd': stat.S_IFDIR, 'l': stat.S_IFLNK,
         'c': stat.S_IFCHR, 'b': stat.S_IFBLK, 's': stat.S_IFSOCK,
         'p': stat.S_IFIFO}


MACHINE = ['/usr', '/etc', '/var', '/opt', '/root', '/home', '/dev', '/run']


def machine(roots, out):
    """The paths under roots, each with its type and with mode 0."""
    roots = [r for r in roots if os.path.isdir(r)]
    if not roots:
        return
    found = subprocess.run(['find'] + roots + ['-xdev', '-printf',
                                               r'%y %p\0'],
                           capture_output=True).stdout
    for r in found.split(b'\0'):
        if len(r) > 2:
            out.write(b'%o %s\0' % (TYPES.get(chr(r[0]), 0), r[2:]))
            out.write(b'0 %s\0' % r[2:])


def main():
    rnd = random.Random(4)
    seen = set()
    out = sys.stdout.buffer
    skipped = 0
    args, roots = sys.argv[1:], []
    while args and args[0] in ('--root', '--machine'):
        if args[0] == '--machine':
            roots += MACHINE
            args = args[1:]
        else:
            roots.append(args[1])
            args = args[2:]
    machine(roots, out)
    for fn in args:
        for line in open(fn, encoding='utf-8', errors='surrogateescape'):
            f = line.split()
            if not f or f[0].startswith('#') or len(f) < 2:
                continue
            regex = f[0]
            mode = MODES.get(f[1], 0) if len(f) > 2 else 0
            try:
                tree = sre_parse.parse(regex)
                cands = [expand(tree, h, rnd) for h in ('min', 'typ', 'typ', 'long')]
            except Exception:
                skipped += 1
                continue
            more = []
            for p in cands:
                more += [p, p + 'x', p + '/sub', p.rsplit('/', 1)[0] or '/',
                         p + '/', p[:-1]]
            for p in more:
                if not p or p in seen:
                    continue
                seen.add(p)
                b = p.encode('utf-8', 'surrogateescape')
                for m in {0, mode, stat.S_IFREG, stat.S_IFDIR}:
                    out.write(b'%o %s\0' % (m, b))
    print('gen_paths: %d paths, %d specs skipped' % (len(seen), skipped),
          file=sys.stderr)


main()
