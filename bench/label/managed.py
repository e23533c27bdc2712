#!/usr/bin/env python3
"""The cold path on a Debian 13 system managed as users manage it
(issue 35): our trixie packages installed with apt in the trixie root
(tests/lib/release-root.sh), then a policy change made with Debian's own
tools (semanage fcontext -a: libsemanage 3.8.1 rebuilds the files, runs
our sefcontext_compile, copies them into /etc/selinux), and nothing else
- no service, no refresher.  Measured there, side by side in one run:

  3.8.1          Debian's libselinux.so.1 of the root (saved before ours
                 replaced it) on the policy's own files as they are now
  ours           our installed libselinux.so.1 on the same files: the
                 index image left by the change (identity: fresh)
  ours copy      the same on a copy of the directory (cp -a: new inodes,
                 the same bytes, as an image builder makes): the index
                 used by content, each file the open reads hashed
  ours noidx     the same files without the index (the path item 2 of
                 the issue makes faster)

  python3 bench/label/managed.py BUILDDIR --debs DIR [--quick]

DIR holds our trixie packages (scripts/build-debs.sh OUT trixie:
OUT/debs).  BUILDDIR gives the headers cold_bench is
compiled with.  Root: mounts (an overlay of the root in a private mount
namespace), chroot.

Part 1: cold_bench (cold.py's), open + the first N lookups in a fresh
process, N = 1, 10, 100, 1000, 10000, median of 9 samples (--quick 5),
the libraries interleaved; as us and as ratio to 3.8.1 (target: <= 0.2
at every N for "ours").  The open column is what the index check costs:
"ours copy" minus "ours" is the content check.
Part 2: the whole process, Debian's matchpathcon /etc/passwd and
getenforce, median of 101 (--quick 51), on 3.8.1 and on ours (target:
matchpathcon <= 1.5x getenforce on ours).
"""
import ctypes
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cold  # noqa: E402  (its BUILD, NS, SAMPLES, corpus, curve)

FCD = 'etc/selinux/default/contexts/files'
W = 'opt/managed-bench'


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True,
                          **kw).stdout


def in_root(r, *cmd):
    return run(['chroot', r, '/usr/bin/env', '-i',
                'PATH=/usr/sbin:/usr/bin:/sbin:/bin', 'LANG=C.UTF-8',
                'DEBIAN_FRONTEND=noninteractive'] + list(cmd))


def private_mounts():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x00020000) != 0:  # CLONE_NEWNS
        sys.exit('managed.py: unshare: errno %d' % ctypes.get_errno())
    run(['mount', '--make-rprivate', '/'])


def index_fresh(r):
    """Wait until no process of ours is left in the root (the one
    sefcontext_compile leaves exits once the image is installed)."""
    def root_of(p):
        try:
            return os.readlink('/proc/%s/root' % p)
        except OSError:
            return None

    for _ in range(600):
        left = [p for p in os.listdir('/proc')
                if p.isdigit() and root_of(p) == r]
        if not left:
            return
        time.sleep(0.1)


def whole(r, lib_dir, runs):
    """Median us of matchpathcon /etc/passwd and of getenforce (Debian's
    binaries of the root) with lib_dir first on the library path."""
    code = r'''
import os, statistics, sys, time
runs = int(sys.argv[1]); env = dict(os.environ)
if sys.argv[2]:
    env['LD_LIBRARY_PATH'] = sys.argv[2]
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
print(t(['/usr/sbin/matchpathcon', '/etc/passwd']), t(['/usr/sbin/getenforce']))
'''
    out = in_root(r, 'python3', '-c', code, str(runs), lib_dir)
    return tuple(float(x) for x in out.split())


def main():
    args = sys.argv[1:]
    if '--debs' not in args:
        sys.exit(__doc__)
    debs = os.path.abspath(args[args.index('--debs') + 1])
    if os.geteuid() != 0:
        sys.exit('managed.py: needs root (mounts, chroot)')
    root = cold.release_root('trixie')
    tmp = tempfile.mkdtemp(prefix='managed-')
    private_mounts()
    r = os.path.join(tmp, 'root')
    for d in ('upper', 'work', 'root'):
        os.makedirs(os.path.join(tmp, d))
    run(['mount', '-t', 'overlay', 'overlay', '-o',
         'lowerdir=%s,upperdir=%s/upper,workdir=%s/work' % (root, tmp, tmp),
         r])
    run(['mount', '-t', 'proc', 'proc', r + '/proc'])
    run(['mount', '--rbind', '/dev', r + '/dev'])
    try:
        bench(r, tmp, debs)
    finally:
        subprocess.run(['umount', '-R', r])
        shutil.rmtree(tmp, ignore_errors=True)


def bench(r, tmp, debs):
    w = os.path.join(r, W)
    os.makedirs(os.path.join(w, 'ref'))
    os.makedirs(os.path.join(w, 'debs'))
    lib = 'usr/lib/x86_64-linux-gnu/libselinux.so.1'
    shutil.copy(os.path.join(r, lib), os.path.join(w, 'ref'))
    ver = in_root(r, 'dpkg-query', '-W', '-f', '${Version}', 'libselinux1')
    run(['cc', '-O2', '-I', os.path.join(cold.SRC, 'include'), '-I',
         os.path.join(cold.BUILD, 'include'),
         os.path.join(cold.HERE, 'cold_bench.c'), '-o',
         os.path.join(w, 'cold_bench'), '-ldl'])
    ncorpus = cold.corpus(os.path.join(w, 'corpus'))
    # ours, with apt, over Debian's (those the root has)
    ours = []
    for d in sorted(os.listdir(debs)):
        if not d.endswith('.deb'):
            continue
        p = run(['dpkg-deb', '-f', os.path.join(debs, d), 'Package']).strip()
        st = subprocess.run(['chroot', r, 'dpkg-query', '-W', '-f',
                             '${db:Status-Abbrev}', p], capture_output=True,
                            text=True).stdout
        if st.startswith('ii'):
            shutil.copy(os.path.join(debs, d), os.path.join(w, 'debs'))
            ours.append('/%s/debs/%s' % (W, d))
    in_root(r, 'apt-get', 'install', '-y', '-q', '--no-install-recommends',
            *ours)
    over = in_root(r, 'dpkg-query', '-W', '-f', '${Version}', 'libselinux1')
    # the change, with Debian's tools
    t0 = time.time()
    in_root(r, 'semanage', 'fcontext', '-a', '-t', 'httpd_sys_content_t',
            '/srv/web(/.*)?')
    took = time.time() - t0
    index_fresh(r)
    # the copy and the no-index variant
    fcd = os.path.join(r, FCD)
    for d in ('copy', 'noidx'):
        subprocess.run(['cp', '-a', fcd, os.path.join(w, d)], check=True)
    os.unlink(os.path.join(w, 'noidx', 'file_contexts.idx'))
    cold.WORK = W
    ref = '/%s/ref/libselinux.so.1' % W
    mine = '/' + lib
    libs = [
        cold.Lib('3.8.1', r, ref, '/' + FCD),
        cold.Lib('ours', r, mine, '/' + FCD),
        cold.Lib('ours copy', r, mine, '/%s/copy' % W),
        cold.Lib('ours noidx', r, mine, '/%s/noidx' % W),
    ]
    print('trixie root: libselinux1 %s replaced by %s; semanage fcontext -a '
          'took %.1f s; files: %s' %
          (ver, over, took, ' '.join(sorted(os.listdir(fcd)))))
    print('corpus: %d real paths of this host; %d samples per point' %
          (ncorpus, cold.SAMPLES))
    c = cold.curve(libs, ncorpus)
    print('\nopen + first N lookups, median us (open alone at N=1)')
    print('%-12s %9s' % ('', 'open') +
          ''.join('%10s' % ('N=%d' % n) for n in cold.NS))
    for l in libs:
        print('%-12s %9.0f' % (l.name, c[l.name][1][1]) +
              ''.join('%10.0f' % c[l.name][n][0] for n in cold.NS))
    print('\nratios to 3.8.1 (the same files)')
    for l in libs[1:]:
        print('%-12s %9.3f' % (l.name, c[l.name][1][1] / c['3.8.1'][1][1]) +
              ''.join('%10.3f' % (c[l.name][n][0] / c['3.8.1'][n][0])
                      for n in cold.NS))
    print('\nthe index check per open (open, us): by identity %.0f, by '
          'content %.0f (+%.0f), no index %.0f, 3.8.1 %.0f' %
          (c['ours'][1][1], c['ours copy'][1][1],
           c['ours copy'][1][1] - c['ours'][1][1], c['ours noidx'][1][1],
           c['3.8.1'][1][1]))
    runs = 51 if cold.QUICK else 101
    print('\nwhole process, median of %d (us): matchpathcon /etc/passwd, '
          'getenforce, ratio' % runs)
    for name, d in (('3.8.1', '/%s/ref' % W), ('ours', '')):
        m, g = whole(r, d, runs)
        print('  %-8s %9.0f %9.0f %7.2f' % (name, m, g, m / g))
    sys.stdout.flush()


if __name__ == '__main__':
    main()
