#!/usr/bin/env python3
"""Expand one source into its non-MLS or MLS variant.

    gen.py --mls|--nonmls INPUT OUTPUT

The markup, line by line (the rest of a line is copied as is):

    #@if mls / #@if nonmls  ...  #@else  ...  #@endif
                          keep the block only in that variant (no nesting)
    #@mls TEXT            TEXT only in the MLS variant
    #@nonmls TEXT         TEXT only in the non-MLS variant
    #@categories N        MLS: "category c0;" ... "category c<N-1>;"
    #@levels S N          MLS: "level s0:c0.c<N-1>;" ... for s0..s<S-1>
    @{TEXT}               inline: TEXT in MLS, nothing in non-MLS
                          (e.g. "system_u:object_r:etc_t@{:s0}")
    @|A|B|                inline: A in MLS, B in non-MLS
"""
import re
import sys


def expand(lines, mls):
    out = []
    state = None          # None, or (variant_of_block, in_else)
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if s.startswith('#@if '):
            if state is not None:
                sys.exit('line %d: nested #@if' % lineno)
            state = [s[5:].strip() == 'mls', False]
            continue
        if s == '#@else':
            state[1] = True
            continue
        if s == '#@endif':
            state = None
            continue
        if state is not None:
            want_mls = state[0] != state[1]
            if want_mls != mls:
                continue
        if s.startswith('#@mls '):
            if not mls:
                continue
            line = line.replace('#@mls ', '', 1)
        elif s.startswith('#@nonmls '):
            if mls:
                continue
            line = line.replace('#@nonmls ', '', 1)
        elif s.startswith('#@categories '):
            if mls:
                out.extend('category c%d;\n' % i for i in range(int(s.split()[1])))
            continue
        elif s.startswith('#@levels '):
            if mls:
                ns, nc = (int(x) for x in s.split()[1:3])
                out.extend('level s%d:c0.c%d;\n' % (i, nc - 1) for i in range(ns))
            continue
        line = re.sub(r'@\{([^}]*)\}', (lambda m: m.group(1)) if mls else '', line)
        line = re.sub(r'@\|([^|]*)\|([^|]*)\|',
                      (lambda m: m.group(1)) if mls else (lambda m: m.group(2)), line)
        out.append(line)
    if state is not None:
        sys.exit('unterminated #@if')
    return out


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ('--mls', '--nonmls'):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        lines = f.readlines()
    with open(sys.argv[3], 'w') as f:
        f.writelines(expand(lines, sys.argv[1] == '--mls'))


if __name__ == '__main__':
    main()
