#!/usr/bin/env python3
"""The line grammar of the media, x and db (sepgsql) contexts files,
Debian's libselinux1 against ours, on generated files.

  keyed.py FCPROBE OURS_LIBDIR

Each generated file holds a few lines built from the pieces such a line
may hold: whitespace of every kind isspace() knows, comments, blank
lines, zero to five fields (object types known and unknown, keys, glob
patterns, contexts, "<<none>>"), bytes >= 0x80, NUL bytes, a last line
without its newline.  For each backend the files are opened by both
libraries, plain and with SELABEL_OPT_VALIDATE (a validator that refuses
type invalid_t), and asked for keys taken from the files with every
object type; the opens, their log messages and every answer must be the
same.  KEYED_N files per backend (default 400), KEYED_SEED (default 1).
Exit 1 on any difference.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

PROBE, OURS = sys.argv[1:3]
N = int(os.environ.get('KEYED_N', '400'))
SEED = int(os.environ.get('KEYED_SEED', '1'))
SHOW = 10

WS = [b' ', b'\t', b'\r', b'\v', b'\f', b' \t ']
X_TYPES = [b'property', b'extension', b'client', b'event', b'selection',
           b'poly_property', b'poly_selection']
DB_TYPES = [b'db_database', b'db_schema', b'db_table', b'db_column',
            b'db_sequence', b'db_view', b'db_procedure', b'db_blob',
            b'db_tuple', b'db_language', b'db_exception', b'db_datatype']
KEYS = [b'cdrom', b'floppy', b'disk', b'a', b'*', b'b*', b'?', b'[ab]',
        b'x_y', b'WM_NAME', b'pg_catalog.*', b'\xff', b'c\xc3\xa9']
CONTEXTS = [b'system_u:object_r:t:s0', b'u:r:t:s0', b'<<none>>',
            b'u:r:invalid_t:s0', b'x']
# backend: fcprobe -B, its object types (None: media), lookup types
BACKENDS = {'media': (1, None), 'x': (2, X_TYPES), 'db': (3, DB_TYPES)}


def field(rnd, types):
    r = rnd.random()
    if types and r < 0.3:
        return rnd.choice(types + [b'bogus', b'Property', b'db_'])
    if r < 0.65:
        return rnd.choice(KEYS)
    return rnd.choice(CONTEXTS)


def line(rnd, types):
    r = rnd.random()
    if r < 0.07:
        return b'#' + rnd.choice([b' c', b'\xff', b'', b' a u:r:t:s0'])
    if r < 0.12:
        return rnd.choice([b'', b' ', b'\t\r', b'\v\f'])
    want = 3 if types else 2
    n = rnd.choice([want] * 6 + [0, 1, want - 1, want + 1, want + 2])
    fields = []
    for i in range(n):
        if types and i == 0 and rnd.random() < 0.85:
            fields.append(rnd.choice(types))
        elif i == n - 1 and rnd.random() < 0.8:
            fields.append(rnd.choice(CONTEXTS))
        else:
            fields.append(field(rnd, types))
    text = b''.join(f + (rnd.choice(WS) if rnd.random() < 0.3 else b' ')
                    for f in fields).rstrip(b' ')
    if rnd.random() < 0.15:
        text = rnd.choice(WS) + text
    if rnd.random() < 0.04:
        k = rnd.randint(0, len(text))
        text = text[:k] + b'\0' + text[k:]
    if rnd.random() < 0.02:  # a long field (quoted back in a warning)
        text = b'k' * 6000 + b' ' + text
    return text


def gen_file(rnd, types):
    lines = [line(rnd, types) for _ in range(rnd.randint(1, 7))]
    data = b''.join(l + (b'\r\n' if rnd.random() < 0.05 else b'\n')
                    for l in lines)
    if rnd.random() < 0.2:
        data = data.rstrip(b'\n')
    return data


def keys_for(data, ntypes):
    keys = {b'cdrom', b'floppy', b'a', b'zzz', b'WM_NAME', b'b1'}
    for tok in data.replace(b'\0', b' ').split():
        if tok and not tok.startswith(b'#'):
            keys.add(tok)
    recs = []
    for k in sorted(keys):
        for t in range(0, ntypes + 1):
            recs.append(b'%d %s' % (t, k))
    return recs


def probe(ours, backend, args, records):
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    if ours:
        env['LD_LIBRARY_PATH'] = OURS
    p = subprocess.run([PROBE, '-B', str(backend), '-L', *args, 'batch'],
                       input=b''.join(r + b'\0' for r in records),
                       capture_output=True, env=env, timeout=600)
    if p.returncode:
        raise SystemExit(f'fcprobe failed: {p.returncode} {p.stderr!r}')
    return p.stdout


def main():
    rnd = random.Random(SEED)
    tmp = tempfile.mkdtemp(prefix='keyed.')
    bad = 0
    try:
        for name, (backend, types) in BACKENDS.items():
            recs, paths = [], []
            for i in range(N):
                data = gen_file(rnd, types)
                p = os.path.join(tmp, f'{name}{i}')
                with open(p, 'wb') as f:
                    f.write(data)
                paths.append(p)
                recs.append(b'@' + p.encode())
                recs += keys_for(data, len(types) if types else 1)
            for args in ((), ('-v', '-a')):
                outs = [probe(o, backend, args, recs).replace(
                    tmp.encode(), b'T').split(b'\n@@\n')[1:]
                    for o in (False, True)]
                diff = [i for i in range(N) if outs[0][i] != outs[1][i]]
                opened = sum(b'open: OK' in x for x in outs[0])
                print(f'{name} {" ".join(args) or "(plain)"}: {N} files '
                      f'({opened} opened), {len(diff)} differ')
                for i in diff[:SHOW]:
                    print(f'  DIFF {paths[i]}:\n    Debian: '
                          f'{outs[0][i][:500]!r}\n    ours:   '
                          f'{outs[1][i][:500]!r}')
                bad += len(diff)
    finally:
        if os.environ.get('KEYED_KEEP'):
            print('kept', tmp)
        else:
            shutil.rmtree(tmp)
    print(f'keyed: {bad} differences')
    return 1 if bad else 0


sys.exit(main())
