#!/usr/bin/env python3
"""The security server's layers (kernel/server/README.md) against its code.

Usage: layers.py --source DIR --objects DIR [--nm NM] [--cc CC]

DIR (--source) is kernel/server; its README.md holds the table "layer
files", one line per layer, the lowest 0.  --objects is where the build
put selinuxfsd's object files (NAME.c.o).  Fails (exit 1, a line per
problem) when:
  - a .c or .h of the directory is not in the table, or the table names
    a file that is not there;
  - a file's #include "..." names a file of a higher layer, or one the
    table does not list;
  - an object uses (nm: undefined there, defined in another of the
    server's objects) a function or variable of a higher layer's file;
  - files depend on each other in a circle, within a layer too;
  - an object is missing or defines nothing (nothing would be checked).
Before that it checks itself on small trees made to break each rule
(with --cc, objects compiled for the nm rule too), so that a check that
stopped finding anything fails as well.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_table(readme):
    """{file: layer} from the README's "layer files" block."""
    layers = {}
    with open(readme, encoding='utf-8') as f:
        lines = f.read().splitlines()
    try:
        start = next(i for i, l in enumerate(lines)
                     if l.split() == ['layer', 'files'])
    except StopIteration:
        raise SystemExit(f'{readme}: no "layer  files" table')
    for line in lines[start + 1:]:
        words = line.split()
        if not words:
            break
        if not words[0].isdigit() or len(words) < 2:
            raise SystemExit(f'{readme}: bad table line: {line!r}')
        for name in words[1:]:
            if name in layers:
                raise SystemExit(f'{readme}: {name} listed twice')
            layers[name] = int(words[0])
    if not layers:
        raise SystemExit(f'{readme}: the table is empty')
    return layers


def nm_symbols(nm, obj):
    """(defined global symbols, undefined symbols) of obj."""
    out = subprocess.run([nm, '-P', obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == 'U':
            undefined.add(name)
        elif kind.isupper() or kind in 'uvw':
            defined.add(name)
    return defined, undefined


def check(src, objdir, nm):
    """The problems found, as lines (empty: the layering holds)."""
    problems = []
    layer = read_table(os.path.join(src, 'README.md'))
    present = sorted(f for f in os.listdir(src) if f.endswith(('.c', '.h')))
    for f in present:
        if f not in layer:
            problems.append(f'{f}: not in the layer table of README.md')
    for f in sorted(layer):
        if f not in present:
            problems.append(f'{f}: in the layer table but not in {src}')
    known = [f for f in present if f in layer]

    edges = {f: {} for f in known}  # file -> {used file: why}
    for f in known:
        with open(os.path.join(src, f), encoding='utf-8') as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            if inc not in layer:
                problems.append(f'{f}: includes "{inc}", which the layer '
                                'table does not list')
                continue
            edges[f].setdefault(inc, f'#include "{inc}"')

    if objdir is not None:
        owner, uses = {}, {}
        for f in known:
            if not f.endswith('.c'):
                continue
            obj = os.path.join(objdir, f + '.o')
            if not os.path.exists(obj):
                problems.append(f'{f}: no object {obj}')
                continue
            defined, undefined = nm_symbols(nm, obj)
            if not defined:
                problems.append(f'{f}: {obj} defines no symbol')
            for s in defined:
                owner[s] = f
            uses[f] = undefined
        for f, undefined in uses.items():
            for s in sorted(undefined):
                g = owner.get(s)
                if g and g != f:
                    edges[f].setdefault(g, f'uses {s}')

    for f in known:
        for g, why in sorted(edges[f].items()):
            if g in layer and layer[g] > layer[f]:
                problems.append(f'{f} (layer {layer[f]}) {why} of {g} '
                                f'(layer {layer[g]}): upward')

    # Circles: depth-first search over every edge, upward ones included.
    state, stack, seen = {}, [], set()

    def visit(f):
        state[f] = 'open'
        stack.append(f)
        for g in sorted(edges.get(f, {})):
            if g == f or g not in edges:
                continue
            if state.get(g) == 'open':
                circle = stack[stack.index(g):] + [g]
                key = frozenset(circle)
                if key not in seen:
                    seen.add(key)
                    problems.append('circle: ' + ' -> '.join(circle))
            elif g not in state:
                visit(g)
        stack.pop()
        state[f] = 'done'

    for f in known:
        if f not in state:
            visit(f)
    return problems


def self_test(nm, cc):
    """Trees that break one rule each: every one must be reported."""
    table = ('# t\n\n    layer  files\n    1      high.c high.h\n'
             '    0      low.c low.h other.c\n\n')
    good = {
        'README.md': table,
        'high.h': 'int high_fn(void);\n',
        'low.h': 'int low_fn(void);\nextern int low_var;\n',
        'high.c': '#include "high.h"\n#include "low.h"\n'
                  'int high_fn(void) { return low_fn() + low_var; }\n',
        'low.c': '#include "low.h"\nint low_var;\n'
                 'int low_fn(void) { return 1; }\n',
        'other.c': '#include "low.h"\n'
                   'int other_fn(void) { return low_fn(); }\n',
    }
    # (name, files changed (None: removed), what must be reported or None
    # for nothing, whether the rule needs objects)
    cases = [
        ('good', {}, None, False),
        ('good, with objects', {}, None, True),
        ('an unlisted file', {'new.c': 'int x;\n'}, 'new.c: not in', False),
        ('a listed file missing', {'other.c': None}, 'other.c: in the',
         False),
        ('an upward include', {'low.c': '#include "high.h"\n' +
                               good['low.c']}, 'low.c (layer 0) #include',
         False),
        ('an unknown include', {'low.c': '#include "../x.h"\n' +
                                good['low.c']}, 'includes "../x.h"', False),
        ('a circle in a layer',
         {'low.c': '#include "low.h"\nint other_fn(void);\nint low_var;\n'
                   'int low_fn(void) { return other_fn(); }\n'},
         'circle: ', True),
        ('an upward call',
         {'low.c': '#include "low.h"\nint high_fn(void);\nint low_var;\n'
                   'int low_fn(void) { return high_fn(); }\n'},
         'low.c (layer 0) uses high_fn of high.c', True),
    ]
    failed = []
    for name, change, expect, needs_objects in cases:
        if needs_objects and not cc:
            continue
        with tempfile.TemporaryDirectory() as d:
            files = dict(good)
            files.update(change)
            files = {f: t for f, t in files.items() if t is not None}
            for f, text in files.items():
                with open(os.path.join(d, f), 'w') as fh:
                    fh.write(text)
            objdir = None
            if needs_objects:
                objdir = os.path.join(d, 'obj')
                os.mkdir(objdir)
                for f in files:
                    if f.endswith('.c'):
                        subprocess.run([cc, '-c', '-o',
                                        os.path.join(objdir, f + '.o'),
                                        os.path.join(d, f)], check=True)
            problems = check(d, objdir, nm)
            if expect is None and problems:
                failed.append(f'self-test "{name}": reported {problems}')
            if expect and not any(expect in p for p in problems):
                failed.append(f'self-test "{name}": "{expect}" not '
                              f'reported (got {problems})')
    return failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source', required=True)
    ap.add_argument('--objects', required=True)
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--cc')
    a = ap.parse_args()

    failed = self_test(a.nm, a.cc)
    for line in failed:
        print(line)
    if failed:
        return 1
    problems = check(a.source, a.objects, a.nm)
    for line in problems:
        print(line)
    if problems:
        return 1
    layer = read_table(os.path.join(a.source, 'README.md'))
    print(f'ok: {len(layer)} files in '
          f'{len(set(layer.values()))} layers, no upward use, no circle')
    return 0


if __name__ == '__main__':
    sys.exit(main())
