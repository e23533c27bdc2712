#!/usr/bin/env python3
"""The cold path of labeling, against the releases people run: Debian 12's
libselinux 3.4 (this host), Debian 13's 3.8.1 and upstream's 3.11 (Debian
sid), each in its own root (tests/lib/release-root.sh, cached), and ours
in each of those places.

  python3 bench/label/cold.py [BUILDDIR] [--quick] [--cpu]

COLD_ONLY=3.11 (or 3.4, 3.8.1, a comma list) measures those releases only.
--cpu reports the processes' CPU time (user + system) instead of the
wall clock: on a busy machine the wall clock also counts the waits for
a CPU, which fall on the libraries unevenly.

Each release is measured against ours built for it (meson -Dcompat: the
build's libselinux-3.4.so.1, libselinux-3.8.so.1, libselinux-3.11.so.1
and sefcontext_compile-R, made here with ninja when missing), in the
place it runs: 3.4 on this host, 3.8.1 in Debian 13's root, 3.11 in
sid's.

Every library reads the same policy: Debian 13's refpolicy (trixie's
file_contexts, .homedirs and .subs_dist), copied per library into a
directory of the root it runs in:

  text      the text files alone
  bin       the text files and .bin files compiled after them by that
            library's own sefcontext_compile (as a policy package leaves
            them: the .bin is newer, so it is read)
  refbin    (ours) the release's own .bin files, as its tools left them
            (what ours reads right after replacing the release's library)
  +index    (ours) the same after our sefcontext_compile wrote its
            index beside them (file_contexts.idx); without it, ours is
            measured on the same files with no index ("noidx")

Part 1, the cold curve: cold_bench.c, one fresh process per sample,
times selabel_open plus the first N lookups (N = 1, 10, 100, 1000,
10000) of random real paths of this host (with their lstat modes, a
fixed shuffle; each sample starts elsewhere in it, every library gets
the same paths).  Median of SAMPLES samples (9; --quick: 5), the samples
of all libraries interleaved so that a change of load hits them alike.
Printed as us and as ours / reference.

Part 2, a whole short-lived process: Debian's `matchpathcon /etc/passwd`
(the release's own binary, the default policy of the root, with our
index written into a private copy of the policy directory in a mount
namespace of its own) against `getenforce` (a process that loads the
library and labels nothing), each the median of 101 runs (fork+exec+wait).

Part 3, warm lookups: lookup_bench.c's mean per lookup over the corpus
(every 5th record), a second pass after a first over the same records,
for every library and variant, best of 3.

Part 4, memory: peak RSS (VmHWM) after open + 1000 lookups, and the
private memory of the handle (smaps_rollup Private_*, with a second
process holding a handle of the same library on the same files: pages
of a shared mapping then count as shared).

Wall-clock figures mean something only on an idle machine; the ratios,
measured side by side in one run, are what the README quotes.
"""
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
QUICK = '--quick' in sys.argv
CPU = '--cpu' in sys.argv
BUILD = os.path.abspath(ARGS[0] if ARGS else os.path.join(SRC, 'build'))
OURS = os.path.join(BUILD, 'libselinux', 'libselinux.so.1')
OUR_COMPILE = os.path.join(BUILD, 'utils', 'sefcontext_compile')
# the -Dcompat each release is replaced by (packaging/releases)
COMPAT = {'3.4': '3.4', '3.8.1': '3.8', '3.11': '3.11'}


def ours_for(rel):
    """Our library and sefcontext_compile built for rel (-Dcompat)."""
    c = COMPAT[rel]
    return (os.path.join(BUILD, 'libselinux', 'libselinux-%s.so.1' % c),
            os.path.join(BUILD, 'utils', 'sefcontext_compile-%s' % c))
NS = [1, 10, 100, 1000, 10000]
SAMPLES = 5 if QUICK else 9
FILES = ['file_contexts', 'file_contexts.homedirs', 'file_contexts.subs_dist']
FCDIR = 'etc/selinux/default/contexts/files'
WORK = 'opt/cold-bench'  # inside each root
TYPES = {'f': 0o100000, 'd': 0o040000, 'l': 0o120000, 'c': 0o020000,
         'b': 0o060000, 's': 0o140000, 'p': 0o010000}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True,
                          **kw).stdout.decode()


def release_root(rel):
    r = subprocess.run([os.path.join(SRC, 'tests/lib/release-root.sh'), rel],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit('cold.py: no %s root (release-root.sh exited %d)' %
                 (rel, r.returncode))
    return r.stdout.strip()


def corpus(path):
    """Real paths of this host with their lstat modes, shuffled."""
    roots = [r for r in ('/usr', '/etc', '/var', '/opt', '/root', '/home')
             if os.path.isdir(r)]
    out = subprocess.run(['find'] + roots + ['-xdev', '-printf', r'%y %p\0'],
                         capture_output=True).stdout
    recs = [b'%o %s' % (TYPES.get(chr(r[0]), 0), r[2:])
            for r in out.split(b'\0') if len(r) > 2]
    random.Random(26).shuffle(recs)
    recs = recs[:50000]
    with open(path, 'wb') as f:
        f.write(b''.join(r + b'\0' for r in recs))
    return len(recs)


class Lib:
    """One library in one root, on one policy directory."""

    def __init__(self, name, root, lib, fcdir):
        self.name, self.root, self.lib, self.fcdir = name, root, lib, fcdir

    def cmd(self, *args):
        # a mount namespace of its own with /proc in the root (the
        # memory figures read /proc/self), set up before the clock starts
        return ['unshare', '-m', '--propagation', 'private', 'sh', '-c',
                'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"',
                self.root, '/' + WORK + '/cold_bench', self.lib,
                self.fcdir + '/file_contexts', '/' + WORK + '/corpus'] + \
            [str(a) for a in args]

    def sample(self, n, start):
        """[open, total, minflt, maxrss, private] (open and total in
        the clock chosen)"""
        out = [float(x) for x in sh(self.cmd(n, start)).split()]
        if CPU:
            out[0], out[1] = out[5], out[6]
        return out[:5]


def setup_root(root, rel, tmp, ncorpus):
    """Copy cold_bench, the corpus, our library and the policy variants
    into root/WORK; return the Libs to measure there."""
    w = os.path.join(root, WORK)
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(w)
    shutil.copy(os.path.join(tmp, 'cold_bench'), w)
    shutil.copy(os.path.join(tmp, 'lookup_bench'), w)
    shutil.copy(os.path.join(tmp, 'corpus'), w)
    os.makedirs(os.path.join(w, 'ours'))
    lib, compile_ = ours_for(rel)
    shutil.copy(lib, os.path.join(w, 'ours', 'libselinux.so.1'))
    policy = os.path.join(tmp, 'policy')
    their_lib = '/lib/x86_64-linux-gnu/libselinux.so.1'
    if not os.path.exists(os.path.join(root, their_lib.lstrip('/'))):
        their_lib = '/usr/lib/x86_64-linux-gnu/libselinux.so.1'
    ours_lib = '/' + WORK + '/ours/libselinux.so.1'

    shutil.copy(compile_, os.path.join(w, 'ours', 'sefcontext_compile'))
    # our sefcontext_compile, run in the root, on our library
    ours_compile = ['chroot', root, 'env',
                    'LD_LIBRARY_PATH=/' + WORK + '/ours',
                    '/' + WORK + '/ours/sefcontext_compile']
    theirs_compile = ['chroot', root, 'sefcontext_compile']

    def variant(name, compile_cmd=None, index=False):
        d = os.path.join(w, name)
        os.makedirs(d)
        for f in FILES:
            if os.path.exists(os.path.join(policy, f)):
                shutil.copy2(os.path.join(policy, f), d)
        # the .bin and the index are written after the text files, as a
        # policy package writes them, one second later (the reference
        # reads a .bin at least as new as its text file, in seconds)
        for f in FILES[:2]:
            os.utime(os.path.join(d, f), (time.time() - 2,) * 2)
        inside = '/' + WORK + '/' + name
        if compile_cmd:
            for f in FILES[:2]:
                sh(compile_cmd + [inside + '/' + f])
        if index:
            sh(ours_compile + ['-I', inside + '/file_contexts'])
        elif compile_cmd is not None and compile_cmd[-1].endswith(
                'ours/sefcontext_compile'):
            # our sefcontext_compile writes the index too: not here
            for f in os.listdir(d):
                if f.endswith('.idx'):
                    os.unlink(os.path.join(d, f))
        return inside

    ref_bin = variant('ref-bin', theirs_compile)
    libs = [
        Lib('%s text' % rel, root, their_lib, variant('ref-text')),
        Lib('%s bin' % rel, root, their_lib, ref_bin),
        Lib('ours text noidx', root, ours_lib, variant('ours-text')),
        Lib('ours bin noidx', root, ours_lib,
            variant('ours-bin', ours_compile)),
        Lib('ours refbin noidx', root, ours_lib, ref_bin),
    ]
    if index_supported():
        libs += [
            Lib('ours text+index', root, ours_lib,
                variant('ours-text-idx', index=True)),
            Lib('ours bin+index', root, ours_lib,
                variant('ours-bin-idx', ours_compile, index=True)),
        ]
    return libs


def index_supported():
    r = subprocess.run([OUR_COMPILE, '-h'], capture_output=True, text=True)
    return '-I ' in r.stdout + r.stderr


def curve(libs, ncorpus):
    """{lib name: {n: (median total us, median open us)}}"""
    res = {l.name: {n: [] for n in NS} for l in libs}
    rnd = random.Random(7)
    for n in NS:
        for s in range(SAMPLES):
            start = rnd.randrange(ncorpus)
            order = list(libs)
            rnd.shuffle(order)
            for l in order:
                res[l.name][n].append(l.sample(n, start))
    out = {}
    for name, byn in res.items():
        out[name] = {n: (statistics.median(x[1] for x in v),
                         statistics.median(x[0] for x in v),
                         statistics.median(x[2] for x in v))
                     for n, v in byn.items()}
    return out


def warm(libs):
    """{lib name: mean us per lookup, second pass, best of 3 runs (wall
    clock: a pass is long enough that waits even out, and lookup_bench
    keeps the best of 3)}"""
    out = {}
    for l in libs:
        cmd = l.cmd('lookup')
        cmd[cmd.index('/' + WORK + '/cold_bench')] = '/' + WORK + \
            '/lookup_bench'
        env = dict(os.environ, STRIDE='5')
        out[l.name] = min(
            float(subprocess.run(cmd, capture_output=True, text=True,
                                 env=env, check=True).stdout.split()[1])
            for _ in range(3))
    return out


def memory(libs):
    """{lib name: (peak RSS KiB, private KiB beside a second holder)}"""
    out = {}
    for l in libs:
        hold = subprocess.Popen(l.cmd(1000, 0), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE,
                                env=dict(os.environ, COLD_HOLD='1'))
        hold.stdout.readline()
        v = l.sample(1000, 0)
        hold.stdin.close()
        hold.wait()
        out[l.name] = (v[3], v[4])
    return out


def whole_process(root, rel, tmp, ours_lib_dir, runs):
    """Median wall us of matchpathcon /etc/passwd and of getenforce, on
    the release's library and on ours (LD_LIBRARY_PATH), in a private
    mount namespace where the root's policy directory is a copy with our
    index in it (the reference ignores the extra file)."""
    script = r'''
set -e
R=$1 W=$2 IDX=$3
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
cp -a "$R/%s/." "$T/"
mount --bind "$T" "$R/%s"
if [ "$IDX" = 1 ]; then
  chroot "$R" env LD_LIBRARY_PATH=/$W/ours /$W/ours/sefcontext_compile -I /%s/file_contexts
fi
chroot "$R" python3 - "$4" "$5" <<'PY'
import os, statistics, sys, time
runs = int(sys.argv[1]); lib = sys.argv[2]
env = dict(os.environ)
if lib:
    env['LD_LIBRARY_PATH'] = lib
def t(argv):
    v = []
    for i in range(runs):
        t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            fd = os.open('/dev/null', os.O_WRONLY)
            os.dup2(fd, 1)
            os.execve(argv[0], argv, env)
        os.waitpid(pid, 0)
        v.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(v)
g = t(['/usr/sbin/getenforce'])
m = t(['/usr/sbin/matchpathcon', '/etc/passwd'])
print('%%.1f %%.1f' %% (m, g))
PY
''' % (FCDIR, FCDIR, FCDIR)
    res = {}
    for name, lib, idx in ((rel, '', '0'), ('ours', ours_lib_dir, '0'),
                           ('ours+index', ours_lib_dir, '1')):
        if idx == '1' and not index_supported():
            continue
        out = sh(['unshare', '-m', '--propagation', 'private', 'sh', '-c',
                  script, 'sh', root, WORK, idx, str(runs), lib])
        m, g = (float(x) for x in out.split())
        res[name] = (m, g)
    return res


def main():
    if os.geteuid() != 0:
        sys.exit('cold.py: needs root (chroot, mount namespaces)')
    for p in (OURS, OUR_COMPILE):
        if not os.path.exists(p):
            sys.exit('cold.py: %s missing: ninja -C %s' % (p, BUILD))
    # ours built for each release (not built by default)
    targets = [os.path.relpath(p, BUILD) for r in COMPAT
               for p in ours_for(r)]
    subprocess.run(['ninja', '-C', BUILD] + targets, check=True,
                   stdout=subprocess.DEVNULL)
    roots = [('3.4', '/')] + [(v, release_root(r))
                              for v, r in (('3.8.1', 'trixie'),
                                           ('3.11', 'sid'))]
    only = os.environ.get('COLD_ONLY')  # e.g. "3.11": that release only
    policy_root = dict(roots)['3.8.1']
    if only:
        roots = [(v, r) for v, r in roots if v in only.split(',')]
    tmp = tempfile.mkdtemp(prefix='cold-')
    try:
        for prog in ('cold_bench', 'lookup_bench'):
            sh(['cc', '-O2', '-I', os.path.join(SRC, 'include'), '-I', os.path.join(BUILD, 'include'),
                os.path.join(HERE, prog + '.c'), '-o',
                os.path.join(tmp, prog), '-ldl'])
        ncorpus = corpus(os.path.join(tmp, 'corpus'))
        os.makedirs(os.path.join(tmp, 'policy'))
        for f in FILES:
            shutil.copy(os.path.join(policy_root, FCDIR, f),
                        os.path.join(tmp, 'policy'))
        print('corpus: %d real paths of this host; policy: Debian 13 '
              'refpolicy (%s); %d samples per point' %
              (ncorpus, sh(['sh', '-c', 'grep -c . %s/policy/file_contexts'
                             % tmp]).strip() + ' lines', SAMPLES))
        for rel, root in roots:
            ver = open(os.path.join(root, '.versions')).read().split() \
                if root != '/' else None
            libs = setup_root(root, rel, tmp, ncorpus)
            try:
                report(rel, root, libs, ncorpus, ver)
            finally:
                shutil.rmtree(os.path.join(root, WORK), ignore_errors=True)
    finally:
        shutil.rmtree(tmp)


def report(rel, root, libs, ncorpus, ver):
    print('\n== libselinux %s (%s) and ours, in %s' %
          (rel, ' '.join(ver[:2]) if ver else 'this host', root))
    c = curve(libs, ncorpus)
    names = [l.name for l in libs]
    print('\nopen + first N lookups, median us of %s (open alone at N=1)'
          % ('CPU time' if CPU else 'wall clock'))
    print('%-18s %9s' % ('', 'open') +
          ''.join('%10s' % ('N=%d' % n) for n in NS))
    for name in names:
        print('%-18s %9.0f' % (name, c[name][1][1]) +
              ''.join('%10.0f' % c[name][n][0] for n in NS))
    print('\nratios ours / %s (same files: text, bin)' % rel)
    for ours in [n for n in names if n.startswith('ours')]:
        ref = '%s %s' % (rel, 'bin' if 'bin' in ours else 'text')
        print('%-18s %9.3f' % (ours, c[ours][1][1] / c[ref][1][1]) +
              ''.join('%10.3f' % (c[ours][n][0] / c[ref][n][0]) for n in NS))
    wm = warm(libs)
    print('\nwarm lookups, mean us (second pass over every 5th path, best '
          'of 3), ratio to %s on the same files (text, bin)' % rel)
    for l in libs:
        ref = '%s %s' % (rel, 'bin' if 'bin' in l.name else 'text')
        print('  %-18s %8.3f %7.3f' % (l.name, wm[l.name],
                                       wm[l.name] / wm[ref]))
    m = memory(libs)
    print('\nmemory after open + 1000 lookups: peak RSS KiB, private KiB '
          '(beside a second holder)')
    for name in names:
        print('  %-18s %8d %8d' % (name, m[name][0], m[name][1]))
    runs = 51 if QUICK else 101
    w = whole_process(root, rel, None, '/' + WORK + '/ours', runs)
    print('\nwhole process, median of %d (us): matchpathcon /etc/passwd, '
          'getenforce, ratio' % runs)
    for name, (mp, ge) in w.items():
        print('  %-12s %9.0f %9.0f %7.2f' % (name, mp, ge, mp / ge))
    sys.stdout.flush()


if __name__ == '__main__':
    main()
