#!/usr/bin/env python3
"""The label benchmark: Debian's libselinux.so.1 and ours side by side on
the refpolicy file_contexts (+ .homedirs, .subs_dist) and the path
corpus of the differential test (this machine's paths with their lstat
mode and with mode 0, and paths generated from every spec).

  python3 bench/label/run.py [BUILDDIR]     (default: build)

Environment: BENCH_STRIDE (default 20): every STRIDE-th corpus record is
timed (Debian's lookups are slow); BENCH_FC_DIR (default
/etc/selinux/default/contexts/files).  Needs BUILDDIR built (ninja -C
BUILDDIR) and a C compiler; Debian's libselinux1, selinux-utils and
selinux-policy-default installed.  Every measurement runs in a process
of its own (lookup_bench.c dlopen()s one library).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                        os.path.join(SRC, 'build'))
OURS_DIR = os.path.join(BUILD, 'libselinux')
OURS = os.path.join(OURS_DIR, 'libselinux.so.1')
DEBIAN = '/lib/x86_64-linux-gnu/libselinux.so.1'
FCDIR = os.environ.get('BENCH_FC_DIR', '/etc/selinux/default/contexts/files')
STRIDE = int(os.environ.get('BENCH_STRIDE', '20'))
FILES = ['file_contexts', 'file_contexts.homedirs', 'file_contexts.subs_dist']
ROOTS = ['/usr', '/etc', '/var', '/opt', '/root', '/home']


def sh(cmd, env=None, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, env=env,
                          **kw).stdout.decode()


def corpus(tmp):
    roots = []
    for r in ROOTS:
        roots += ['--root', r]
    gen = subprocess.run([sys.executable,
                          os.path.join(SRC, 'tests/compat/label/gen_paths.py')]
                         + roots + [os.path.join(FCDIR, FILES[0]),
                                    os.path.join(FCDIR, FILES[1])],
                         capture_output=True, check=True).stdout
    recs = [r for r in gen.split(b'\0') if r]
    path = os.path.join(tmp, 'corpus')
    with open(path, 'wb') as f:
        f.write(b''.join(r + b'\0' for r in recs))
    return path, len(recs)


def policy_dirs(tmp):
    """text/: the text files only; bin/: Debian-compiled .bin only;
    ourbin/: .bin compiled by our sefcontext_compile only."""
    dirs = {}
    for k in ('text', 'bin', 'ourbin'):
        d = dirs[k] = os.path.join(tmp, k)
        os.mkdir(d)
        for f in FILES:
            if os.path.exists(os.path.join(FCDIR, f)):
                shutil.copy(os.path.join(FCDIR, f), d)
        if k != 'text':
            tool = ('sefcontext_compile' if k == 'bin' else
                    os.path.join(BUILD, 'utils', 'sefcontext_compile'))
            for f in FILES[:2]:
                sh([tool, os.path.join(d, f)])
                os.unlink(os.path.join(d, f))
    return dirs


def main():
    for f in (OURS, DEBIAN, os.path.join(FCDIR, FILES[0])):
        if not os.path.exists(f):
            sys.exit(f'{f} missing')
    tmp = tempfile.mkdtemp(prefix='labelbench.')
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp)


def run(tmp):
    exe = os.path.join(tmp, 'lookup_bench')
    sh(['cc', '-O2', '-I', os.path.join(SRC, 'include'), '-I', os.path.join(BUILD, 'include'),
        os.path.join(HERE, 'lookup_bench.c'), '-o', exe, '-ldl'])
    cpath, ncorpus = corpus(tmp)
    dirs = policy_dirs(tmp)
    env = dict(os.environ, STRIDE=str(STRIDE))
    env.pop('LD_LIBRARY_PATH', None)
    libs = [('Debian', DEBIAN), ('ours', OURS)]

    def bench(lib, d, mode, **kw):
        # Through a shell that forks: a process exec()ed straight from
        # this (large) Python inherits its peak RSS in ru_maxrss.
        return sh(['sh', '-c', '"$@"; exit $?', 'sh', exe, lib,
                   os.path.join(dirs[d], 'file_contexts'), cpath, mode],
                  env=env, **kw)

    n = (ncorpus + STRIDE - 1) // STRIDE
    print(f'corpus: {ncorpus} records, every {STRIDE}th timed: {n} '
          f'lookups per library (text file_contexts + .homedirs)')
    res = {}
    for name, lib in libs:
        r = res[name] = {}
        r['mean1'], r['mean'] = map(float,
                                    bench(lib, 'text', 'lookup').split())
        times = []
        for line in bench(lib, 'text', 'paths').splitlines():
            t, p = line.split(' ', 1)
            times.append((float(t), p))
        times.sort()
        r['worst'] = times[-1]
        r['p99'] = times[int(len(times) * 0.99)][0]
        r['median'] = times[len(times) // 2][0]
        for d in ('text', 'bin', 'ourbin'):
            r['open_' + d] = float(bench(lib, d, 'open'))
            r['first_' + d] = float(bench(lib, d, 'first'))
        r['rss_text'] = int(bench(lib, 'text', 'rss'))
        r['rss_bin'] = int(bench(lib, 'bin', 'rss'))
        r['rss_base'] = int(bench(lib, 'text', 'base'))

    # matchpathcon /etc/shadow, start to exit: Debian's binary on each
    # library (the policy's own files: the .bin when it is not older).
    mpc = shutil.which('matchpathcon') or '/usr/sbin/matchpathcon'
    for name, _ in libs:
        e = dict(os.environ)
        e.pop('LD_LIBRARY_PATH', None)
        if name == 'ours':
            e['LD_LIBRARY_PATH'] = OURS_DIR
        ts = []
        for _ in range(31):
            t0 = time.monotonic()
            subprocess.run([mpc, '/etc/shadow'], env=e, check=True,
                           stdout=subprocess.DEVNULL)
            ts.append((time.monotonic() - t0) * 1e3)
        res[name]['mpc'] = statistics.median(ts)
    ts = []
    for _ in range(31):
        t0 = time.monotonic()
        subprocess.run(['/bin/true'], check=True)
        ts.append((time.monotonic() - t0) * 1e3)
    true_ms = statistics.median(ts)

    D, O = res['Debian'], res['ours']

    def row(label, key, unit, fmt='{:.1f}'):
        d, o = D[key], O[key]
        ratio = d / o if o else float('inf')
        print(f'  {label:<40} {fmt.format(d):>12} {fmt.format(o):>12} '
              f'{unit:<4} Debian/ours {ratio:8.1f}x')

    print(f'  {"":<40} {"Debian":>12} {"ours":>12}')
    row('lookup mean, first pass after open', 'mean1', 'us', '{:.3f}')
    row('lookup mean, second pass', 'mean', 'us', '{:.3f}')
    row('lookup median path (best of 5)', 'median', 'us', '{:.3f}')
    row('lookup 99th percentile path', 'p99', 'us', '{:.3f}')
    for name, r in res.items():
        print(f'  worst path, {name}: {r["worst"][0]:.3f} us  '
              f'{r["worst"][1]}')
    row('open, text', 'open_text', 'us')
    row('open, Debian\'s .bin', 'open_bin', 'us')
    row('open, our .bin', 'open_ourbin', 'us')
    row('open + first lookup, text', 'first_text', 'us')
    row('open + first lookup, Debian\'s .bin', 'first_bin', 'us')
    row('open + first lookup, our .bin', 'first_ourbin', 'us')
    row('peak RSS, no handle (corpus loaded)', 'rss_base', 'KiB', '{}')
    row('peak RSS, text, after all lookups', 'rss_text', 'KiB', '{}')
    row('peak RSS, Debian\'s .bin, after all', 'rss_bin', 'KiB', '{}')
    row('matchpathcon /etc/shadow (process)', 'mpc', 'ms', '{:.2f}')
    print(f'  (/bin/true, same harness: {true_ms:.2f} ms)')
    print('targets: mean >= 200x faster: {}; worst path <= Debian\'s mean: '
          '{}; open no slower: {}; memory no larger: {}'.format(
              'met' if D['mean'] / O['mean'] >= 200 else 'MISSED',
              'met' if O['worst'][0] <= D['mean'] else 'MISSED',
              'met' if all(O['open_' + k] <= D['open_' + k]
                           for k in ('text', 'bin')) else 'MISSED',
              'met' if O['rss_text'] <= D['rss_text'] and
              O['rss_bin'] <= D['rss_bin'] else 'MISSED'))


main()
