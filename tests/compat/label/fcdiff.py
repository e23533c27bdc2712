#!/usr/bin/env python3
"""Differential test of selabel_lookup on the refpolicy file_contexts:
Debian's libselinux1 against ours, text and compiled.

  fcdiff.py FCPROBE OURS_LIBDIR OUR_SEFCONTEXT_COMPILE GEN_PATHS

The keys: every path of `find /usr /etc /var /opt /root /home -xdev` with
its real file type (lstat), the same paths with mode 0, and paths
generated from every spec of file_contexts and file_contexts.homedirs
(gen_paths.py: matches, near misses, several modes).  Debian's lookups
cost ~150-300 us each, so each group is sampled (a fixed seed) down to
FCDIFF_N records (default 100000; FCDIFF_N=0: everything).

The policy files (file_contexts, .homedirs, .subs_dist; FCDIFF_DIR,
default /etc/selinux/default/contexts/files) are copied into three
directories: text only; .bin only, compiled by Debian's
sefcontext_compile; .bin only, compiled by ours; .bin only, compiled
by ours as version 6 (libselinux 3.8's format; no text beside a .bin,
so that a .bin a library cannot read fails loudly instead of falling
back to the text).  fcprobe, linked against the system's library, runs
once per library and directory, each in its own process; ours through
LD_LIBRARY_PATH.  Compared, answer by answer (the context, or the errno
name):
  text:      ours         vs Debian's, on the text
  bin:       ours         vs Debian's, on Debian's .bin
  our-bin:   Debian's     vs Debian's own .bin, on our .bin
  our-bin:   ours         vs Debian's own .bin, on our .bin
  our-bin6:  ours         vs ours, on the text (Debian cannot read it)
Exit 1 on any difference, 77 when the policy is missing.
"""
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

PROBE, OURS, OUR_COMPILE, GEN = sys.argv[1:5]
FCDIR = os.environ.get('FCDIFF_DIR', '/etc/selinux/default/contexts/files')
N = int(os.environ.get('FCDIFF_N', '100000'))
ROOTS = ['/usr', '/etc', '/var', '/opt', '/root', '/home']
TYPES = {'f': 0o100000, 'd': 0o040000, 'l': 0o120000, 'c': 0o020000,
         'b': 0o060000, 's': 0o140000, 'p': 0o010000}
FILES = ['file_contexts', 'file_contexts.homedirs', 'file_contexts.subs_dist']
SHOW = 20


def find_records():
    roots = [r for r in ROOTS if os.path.isdir(r)]
    p = subprocess.run(['find'] + roots + ['-xdev', '-printf', r'%y %p\0'],
                       capture_output=True)
    real, zero = [], []
    for r in p.stdout.split(b'\0'):
        if len(r) < 3:
            continue
        path = r[2:]
        real.append(b'%o %s' % (TYPES.get(chr(r[0]), 0), path))
        zero.append(b'0 ' + path)
    return real, zero


def gen_records(d):
    p = subprocess.run([sys.executable, GEN, d + '/file_contexts',
                        d + '/file_contexts.homedirs'],
                       capture_output=True, check=True)
    return [r for r in p.stdout.split(b'\0') if r]


def sample(recs, rnd):
    if N and len(recs) > N:
        return rnd.sample(recs, N)
    return recs


def probe(d, ours, corpus):
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    if ours:
        env['LD_LIBRARY_PATH'] = OURS
    t = time.monotonic()
    with open(corpus, 'rb') as f:
        p = subprocess.run([PROBE, '-p', d + '/file_contexts', 'lookup'],
                           stdin=f, capture_output=True, env=env, timeout=900)
    if p.returncode:
        raise SystemExit(f'fcprobe failed ({p.returncode}): '
                         f'{p.stderr.decode(errors="replace")}')
    return (p.stdout.decode('utf-8', 'backslashreplace').splitlines(),
            time.monotonic() - t)


def main():
    if not all(os.path.exists(os.path.join(FCDIR, f)) for f in FILES[:2]):
        print(f'{FCDIR}: no file_contexts(.homedirs): skipped')
        return 77
    tmp = tempfile.mkdtemp(prefix='fcdiff.')
    try:
        return run(tmp)
    finally:
        shutil.rmtree(tmp)


def run(tmp):
    dirs = {k: os.path.join(tmp, k)
            for k in ('text', 'bin', 'ourbin', 'ourbin6')}
    for k, d in dirs.items():
        os.mkdir(d)
        for f in FILES:
            if os.path.exists(os.path.join(FCDIR, f)):
                shutil.copy(os.path.join(FCDIR, f), d)
        for f in FILES[:2]:
            if k == 'text':
                continue
            fn = os.path.join(d, f)
            tool = ['sefcontext_compile'] if k == 'bin' else [OUR_COMPILE]
            if k == 'ourbin6':
                tool += ['-F', '6']
            subprocess.run(tool + [fn], check=True)
            os.unlink(fn)

    rnd = random.Random(20240501)
    real, zero = find_records()
    gen = gen_records(dirs['text'])
    groups = [('find, lstat mode', real), ('find, mode 0', zero),
              ('generated', gen)]
    recs, bounds = [], []
    for name, g in groups:
        s = sample(g, rnd)
        bounds.append((name, len(recs), len(recs) + len(s), len(g)))
        recs += s
    corpus = os.path.join(tmp, 'corpus')
    with open(corpus, 'wb') as f:
        f.write(b''.join(r + b'\0' for r in recs))

    runs = [('text', False), ('text', True), ('bin', False), ('bin', True),
            ('ourbin', False), ('ourbin', True), ('ourbin6', True)]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        futs = {r: ex.submit(probe, dirs[r[0]], r[1], corpus) for r in runs}
        out = {r: f.result() for r, f in futs.items()}
    for (k, ours), (_, secs) in out.items():
        print(f'  {"ours" if ours else "Debian"} on {k}: {secs:.1f} s')

    def lines(k, ours):
        o = out[(k, ours)][0]
        if not o or o[0] != 'open: OK':
            raise SystemExit(f'{"ours" if ours else "Debian"} on {k}: '
                             f'{o[:1]}')
        if len(o) != len(recs) + 1:
            raise SystemExit(f'{k}: {len(o) - 1} answers for '
                             f'{len(recs)} keys')
        return o[1:]

    checks = [('text: ours vs Debian', lines('text', True),
               lines('text', False)),
              ('bin: ours vs Debian (Debian\'s .bin)', lines('bin', True),
               lines('bin', False)),
              ('our .bin: Debian vs Debian on its own .bin',
               lines('ourbin', False), lines('bin', False)),
              ('our .bin: ours vs Debian on its own .bin',
               lines('ourbin', True), lines('bin', False)),
              ('our version 6 .bin: ours vs ours on the text',
               lines('ourbin6', True), lines('text', True))]
    total_bad = 0
    for name, got, want in checks:
        print(f'{name}:')
        shown = 0
        for g, lo, hi, full in bounds:
            bad = [i for i in range(lo, hi) if got[i] != want[i]]
            total_bad += len(bad)
            print(f'  {g}: {hi - lo} compared (of {full}), '
                  f'{len(bad)} differ')
            for i in bad[:max(0, SHOW - shown)]:
                key = recs[i].decode('utf-8', 'backslashreplace')
                print(f'    DIFF {key!r}: got {got[i]!r}, want {want[i]!r}')
                shown += 1
    d_tb = sum(a != b for a, b in zip(lines('text', False),
                                        lines('bin', False)))
    print(f'(Debian text vs Debian .bin: {d_tb} answers differ; '
          'each library is compared on the same input only)')
    print(f'fcdiff: {len(checks) * len(recs)} comparisons of {len(recs)} keys, '
          f'{total_bad} differences')
    return 1 if total_bad else 0


sys.exit(main())
