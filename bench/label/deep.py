#!/usr/bin/env python3
"""Deep-path lookup benchmark: selabel_lookup on the corpus of
deep_paths.py (the deep trees of a Debian system: /usr/share/{doc,man,
locale,icons}, /usr/lib/python3/dist-packages, /usr/src/linux-headers-*,
/usr/include), Debian's libselinux.so.1 against ours, each in a process
of its own (lookup_bench.c's "paths" mode: best of 5 per path).
Then ours again after one untimed pass over the corpus ("paths-warm"):
the first lookups that reach a large node of our index are answered by
its combined PCRE2 regex while it warms up (fc.h: FC_DFA_WARMUP), so the
cold figures' worst paths are those first ones.

  python3 bench/label/deep.py [BUILDDIR] [--no-debian] [--stride N]
                              [--source host|synthetic|both] [--worst N]
                              [--fc FILE_CONTEXTS] [--lib NAME=PATH ...]

Prints, per path depth (number of components) and per tree, the number
of paths and the mean / 99th percentile / max lookup time of each
library, then the worst paths of each with the other's time for them.
--stride N times every N-th record (Debian's lookups are slow; default
1); --lib adds another libselinux.so.1 to compare (e.g. an older build).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
DEBIAN = '/lib/x86_64-linux-gnu/libselinux.so.1'
FC = '/etc/selinux/default/contexts/files/file_contexts'
TREES = ['/usr/share/doc/', '/usr/share/man/', '/usr/share/locale/',
         '/usr/share/icons/', '/usr/share/', '/usr/lib/python3/',
         '/usr/src/', '/usr/include/']


def tree(p):
    for t in TREES:
        if p.startswith(t):
            return t
    return 'other'


def stats(ts):
    ts = sorted(ts)
    if not ts:
        return (0.0, 0.0, 0.0)
    return (sum(ts) / len(ts), ts[min(len(ts) - 1, int(len(ts) * 0.99))],
            ts[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build', nargs='?', default=os.path.join(SRC, 'build'))
    ap.add_argument('--no-debian', action='store_true')
    ap.add_argument('--stride', type=int, default=1)
    ap.add_argument('--source', default='both')
    ap.add_argument('--per-family', default='2000')
    ap.add_argument('--worst', type=int, default=10)
    ap.add_argument('--fc', default=os.environ.get('BENCH_FC', FC))
    ap.add_argument('--lib', action='append', default=[])
    a = ap.parse_args()
    libs = [] if a.no_debian else [('Debian', DEBIAN)]
    libs.append(('ours', os.path.join(os.path.abspath(a.build), 'libselinux',
                                      'libselinux.so.1')))
    libs += [tuple(x.split('=', 1)) for x in a.lib]
    for _, f in libs + [('', a.fc)]:
        if not os.path.exists(f):
            sys.exit(f'{f} missing')
    tmp = tempfile.mkdtemp(prefix='deepbench.')
    try:
        run(a, libs, tmp)
    finally:
        shutil.rmtree(tmp)


def run(a, libs, tmp):
    exe = os.path.join(tmp, 'lookup_bench')
    subprocess.run(['cc', '-O2', '-I', os.path.join(SRC, 'include'), '-I', os.path.join(BUILD, 'include'),
                    os.path.join(HERE, 'lookup_bench.c'), '-o', exe, '-ldl'],
                   check=True)
    corpus = os.path.join(tmp, 'corpus')
    with open(corpus, 'wb') as f:
        subprocess.run([sys.executable, os.path.join(HERE, 'deep_paths.py'),
                        '--source', a.source, '--per-family', a.per_family],
                       stdout=f, check=True)
    env = dict(os.environ, STRIDE=str(a.stride))
    env.pop('LD_LIBRARY_PATH', None)
    res = {}
    for name, lib in libs:
        out = subprocess.run([exe, lib, a.fc, corpus, 'paths'], env=env,
                             check=True, capture_output=True).stdout
        res[name] = {}
        for line in out.decode(errors='replace').splitlines():
            t, p = line.split(' ', 1)
            res[name][p] = float(t)
    names = [n for n, _ in libs]
    paths = list(res[names[0]])
    print(f'{len(paths)} paths, {a.fc}; us per selabel_lookup, best of 5')

    def table(title, key):
        groups = {}
        for p in paths:
            groups.setdefault(key(p), []).append(p)
        head = f'{title:<18} {"n":>6}'
        for n in names:
            head += f' | {n + " mean":>12} {"p99":>7} {"max":>7}'
        if 'Debian' in names:
            head += ' | Debian/ours'
        print(head)
        for k in sorted(groups):
            ps = groups[k]
            line = f'{str(k):<18} {len(ps):>6}'
            for n in names:
                m, p99, mx = stats([res[n][p] for p in ps])
                line += f' | {m:>12.3f} {p99:>7.2f} {mx:>7.2f}'
            if 'Debian' in names:
                d = stats([res['Debian'][p] for p in ps])[0]
                o = stats([res['ours'][p] for p in ps])[0]
                line += f' | {d / o if o else 0:>10.0f}x'
            print(line)

    table('depth', lambda p: p.count('/'))
    table('tree', tree)
    table('all', lambda p: 'all')
    us = [p for p in paths if p.startswith('/usr/share/')
          and 5 <= p.count('/') <= 12]
    for n in names:
        m, p99, mx = stats([res[n][p] for p in us])
        print(f'{n}: paths 5-12 levels under /usr/share ({len(us)}): '
              f'mean {m:.3f} us, p99 {p99:.2f} us, max {mx:.2f} us')
    ours = os.path.join(os.path.abspath(a.build), 'libselinux',
                        'libselinux.so.1')
    out = subprocess.run([exe, ours, a.fc, corpus, 'paths-warm'], env=env,
                         check=True, capture_output=True).stdout
    warm = {}
    for line in out.decode(errors='replace').splitlines():
        t, p = line.split(' ', 1)
        warm[p] = float(t)
    m, p99, mx = stats(list(warm.values()))
    print(f'ours, warm (after one pass over the corpus): all mean {m:.3f} us, '
          f'p99 {p99:.2f} us, max {mx:.2f} us')
    m, p99, mx = stats([warm[p] for p in us])
    print(f'ours, warm: paths 5-12 levels under /usr/share ({len(us)}): '
          f'mean {m:.3f} us, p99 {p99:.2f} us, max {mx:.2f} us')
    for p in sorted(warm, key=lambda p: -warm[p])[:3]:
        print(f'  warm worst {warm[p]:9.3f}  {p}')
    for n in names:
        print(f'worst paths, {n} (us' +
              ''.join(f' / {o}' for o in names if o != n) + '):')
        for p in sorted(paths, key=lambda p: -res[n][p])[:a.worst]:
            print(f'  {res[n][p]:9.3f}' +
                  ''.join(f' / {res[o][p]:9.3f}' for o in names if o != n) +
                  f'  {p}')


main()
