#!/usr/bin/env python3
"""Relabel at scale (issue 36): setfiles over synthetic trees of 10^4 to
10^7 entries laid out like a system (scale_tree.c), each release's own
setfiles on the release's library and on ours built for it, in the
release's root: 3.11 in sid, 3.8.1 in trixie (tests/lib/release-root.sh),
3.4 on this host.

  python3 bench/label/scale.py [BUILDDIR] [--sizes 1e4,1e5,1e6]
      [--releases 3.11,3.8.1,3.4] [--threads 1,2] [--runs 3]
      [--modes nv,quiet,python,real] [--ext4-from 1e7] [--max-ref 1e6]
      [--rt]

Modes (each -T N of --threads):
  nv      setfiles -n -v -T N -r TREE FC TREE, stdout to a pipe (every
          entry is unlabelled: a line each)
  quiet   the same without -v
  python  selinux_restorecon_parallel(TREE, NOCHANGE | VERBOSE | RECURSE
          | XDEV | IGNORE_MOUNTS | SKIP_DIGEST, N) from the root's
          python3-selinux, the alternate root set, messages (stderr) to
          a pipe
  real    setfiles -T N -r TREE FC TREE on a fresh tree on an ext4 image
          per run (it writes every label); the labels are compared after

FC is the root's own file_contexts (/etc/selinux/default/...), TREE the
tree bind-mounted at /mnt/tree of the root, with /proc mounted as on a
running system (in a mount namespace of the bench's own: nothing is
written to the roots; without /proc our walk cannot read mountinfo and
tracks every inode for ADD_ASSOC, as the reference does).  Trees smaller than
--ext4-from live on a tmpfs, larger ones on an ext4 image file in
/var/tmp (sparse, removed at the end).  The releases' runs are skipped
above --max-ref entries for 3.4 (its setfiles takes ~190 us an entry).

Each configuration runs --runs times, interleaved with the other side
(a configuration over 60 s runs once); printed: the best wall time, the
peak RSS (wait4's ru_maxrss) of that run, us per entry, ours / the
release's, and whether the outputs agree (the number of lines and an
order-independent hash of them, linehash.c; for 'real', the labels).
Wall-clock figures mean something only beside each other: the load is
printed before and after each size.  --rt runs setfiles (both sides) and
the pipe's reader as SCHED_FIFO: on a machine shared with other work the
scheduler otherwise decides what two threads get.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
FC = '/etc/selinux/default/contexts/files/file_contexts'
# release -> (release-root.sh name or None for this host, our library)
RELEASES = {'3.11': ('sid', 'libselinux-3.11.so.1'),
            '3.8.1': ('trixie', 'libselinux-3.8.so.1'),
            '3.4': (None, 'libselinux.so.1')}
PY = r'''
import selinux, sys
t, n = sys.argv[1], int(sys.argv[2])
selinux.selinux_restorecon_set_alt_rootpath(t)
f = (0x2 | 0x10 | 0x8 | 0x80 | 0x2000 | 0x8000)
sys.exit(0 if selinux.selinux_restorecon_parallel(t, f, n) == 0 else 1)
'''


def load():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


RT = False


def realtime():
    """--rt: SCHED_FIFO, so that the other users of a loaded machine do
    not take the cores from the runs (both sides alike)."""
    if RT:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True,
                          **kw).stdout


def num(s):
    return int(float(s))


class Tree:
    """A synthetic tree of about n entries, on tmpfs or an ext4 image."""

    def __init__(self, work, tool, n, ext4):
        self.work, self.tool, self.n, self.ext4 = work, tool, n, ext4
        self.mnt = os.path.join(work, 'tree-%d' % n)
        self.img = self.mnt + '.img'
        os.makedirs(self.mnt)
        self.entries = 0

    def make(self):
        if self.ext4:
            # ~300 bytes of disk an entry, sparse; inodes for all
            size = max(64 << 20, self.n * 600)
            sh(['truncate', '-s', str(size), self.img])
            sh(['mkfs.ext4', '-q', '-F', '-N', str(self.n + self.n // 10
                                                    + 1000), self.img])
            sh(['mount', '-o', 'loop', self.img, self.mnt])
        else:
            sh(['mount', '-t', 'tmpfs', '-o', 'size=90%,nr_inodes=0',
                'scale-tree', self.mnt])
        self.entries = int(sh([self.tool, self.mnt, str(self.n)]))

    def reset(self):
        """The same tree again, unlabelled (for 'real')."""
        sh(['find', self.mnt, '-mindepth', '1', '-delete'])
        self.entries = int(sh([self.tool, self.mnt, str(self.n)]))

    def drop(self):
        subprocess.run(['umount', self.mnt], stderr=subprocess.DEVNULL)
        if os.path.exists(self.img):
            os.unlink(self.img)


class Side:
    """One library in one root: the release's or ours."""

    def __init__(self, rel, name, root, libdir):
        self.rel, self.name, self.root, self.libdir = rel, name, root, libdir

    def env(self):
        e = {'PATH': '/usr/sbin:/usr/bin:/sbin:/bin', 'LC_ALL': 'C'}
        if self.libdir:
            e['LD_LIBRARY_PATH'] = self.libdir
        return e

    def run(self, argv, out_pipe_stderr=False):
        """(wall s, maxrss KiB, exit status, 'LINES HASH' of the output)"""
        root = self.root
        hasher = subprocess.Popen([LINEHASH, '-x', '/hl-'],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True,
                                  preexec_fn=realtime)

        def enter():
            realtime()
            if root != '/':
                os.chroot(root)
                os.chdir('/')
        out = hasher.stdin if not out_pipe_stderr else subprocess.DEVNULL
        err = hasher.stdin if out_pipe_stderr else subprocess.DEVNULL
        t0 = time.monotonic()
        p = subprocess.Popen(argv, env=self.env(), stdout=out, stderr=err,
                             preexec_fn=enter)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        hasher.stdin.close()
        digest = hasher.stdout.read().strip()
        hasher.wait()
        return wall, ru.ru_maxrss, p.returncode, digest


def setup_release(rel, work, tree, build):
    """The two Sides of rel, with tree and our library visible in its
    root (mounts in the bench's namespace)."""
    rootname, libname = RELEASES[rel]
    ours = os.path.join(build, 'libselinux', libname)
    if rootname is None:
        d = os.path.join(work, 'ours-' + rel)
        os.makedirs(d, exist_ok=True)
        shutil.copy(ours, os.path.join(d, 'libselinux.so.1'))
        return tree.mnt, [Side(rel, rel, '/', None),
                          Side(rel, 'ours', '/', d)]
    r = subprocess.run([os.path.join(SRC, 'tests/lib/release-root.sh'),
                        rootname], capture_output=True, text=True)
    if r.returncode:
        return None, []
    root = r.stdout.strip()
    m = os.path.join(root, 'mnt')
    subprocess.run(['umount', '-R', m], stderr=subprocess.DEVNULL)
    # /proc as a system has it: without it our walk cannot read
    # mountinfo, and tracks every inode for ADD_ASSOC as the reference
    if not os.path.ismount(os.path.join(root, 'proc')):
        sh(['mount', '-t', 'proc', 'proc', os.path.join(root, 'proc')])
    sh(['mount', '-t', 'tmpfs', 'scale-mnt', m])
    os.makedirs(os.path.join(m, 'tree'))
    os.makedirs(os.path.join(m, 'ours'))
    sh(['mount', '--bind', tree.mnt, os.path.join(m, 'tree')])
    shutil.copy(ours, os.path.join(m, 'ours', 'libselinux.so.1'))
    return '/mnt/tree', [Side(rel, rel, root, None),
                         Side(rel, 'ours', root, '/mnt/ours')]


def teardown_release(sides):
    if sides and sides[0].root != '/':
        for d in ('mnt', 'proc'):
            subprocess.run(['umount', '-R', os.path.join(sides[0].root, d)],
                           stderr=subprocess.DEVNULL)


def argv_for(mode, t, tpath):
    if mode == 'nv':
        return ['setfiles', '-n', '-v', '-T', str(t), '-r', tpath, FC,
                tpath], False
    if mode == 'quiet':
        return ['setfiles', '-n', '-T', str(t), '-r', tpath, FC,
                tpath], False
    if mode == 'real':
        return ['setfiles', '-T', str(t), '-r', tpath, FC, tpath], False
    return ['python3', '-c', PY, tpath, str(t)], True


def labels(path):
    """'COUNT HASH' of every entry's label under path (for 'real')."""
    p = subprocess.Popen([LINEHASH], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    for d, dirs, files in os.walk(path):
        for n in [d] + [os.path.join(d, x) for x in dirs + files]:
            try:
                v = os.getxattr(n, 'security.selinux', follow_symlinks=False)
            except OSError:
                v = b'-'
            p.stdin.write(n.encode() + b' ' + v + b'\n')
    p.stdin.close()
    return p.stdout.read().decode().strip()


def measure(sides, mode, t, tpath, tree, runs):
    """{side name: (best wall, its rss, status, digest)}"""
    best = {}
    slow = set()
    for i in range(runs):
        for s in sides:
            if s.name in slow:
                continue
            if mode == 'real':
                tree.reset()
            argv, to_err = argv_for(mode, t, tpath)
            wall, rss, rc, digest = s.run(argv, to_err)
            if mode == 'real':
                digest = labels(tree.mnt)
            if wall > 60:
                slow.add(s.name)
            if s.name not in best or wall < best[s.name][0]:
                best[s.name] = (wall, rss, rc, digest)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build', nargs='?', default=os.path.join(SRC, 'build'))
    ap.add_argument('--sizes', default='1e4,1e5,1e6')
    ap.add_argument('--releases', default='3.11,3.8.1,3.4')
    ap.add_argument('--threads', default='1,2')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--modes', default='nv')
    ap.add_argument('--ext4-from', default='1e7')
    ap.add_argument('--max-ref', default='1e6',
                    help='largest tree for 3.4 (slow)')
    ap.add_argument('--rt', action='store_true',
                    help='run setfiles and the pipe as SCHED_FIFO')
    a = ap.parse_args()
    global RT
    RT = a.rt
    if os.geteuid() != 0:
        sys.exit('scale.py: needs root (chroot, mounts)')
    if os.environ.get('SCALE_NS') != '1':
        os.execvpe('unshare', ['unshare', '-m', '--propagation', 'private',
                               sys.executable] + sys.argv,
                   dict(os.environ, SCALE_NS='1'))
    build = os.path.abspath(a.build)
    sh(['ninja', '-C', build, 'libselinux/libselinux.so.1',
        'libselinux/libselinux-3.8.so.1', 'libselinux/libselinux-3.11.so.1'])
    work = tempfile.mkdtemp(prefix='scale-', dir='/var/tmp')
    global LINEHASH
    LINEHASH = os.path.join(work, 'linehash')
    tool = os.path.join(work, 'scale_tree')
    for prog, out in (('scale_tree.c', tool), ('linehash.c', LINEHASH)):
        sh(['cc', '-O2', os.path.join(HERE, prog), '-o', out])
    threads = [int(x) for x in a.threads.split(',')]
    try:
        for n in (num(x) for x in a.sizes.split(',')):
            run_size(a, build, work, tool, n, threads)
    finally:
        subprocess.run(['umount', '-R', work], stderr=subprocess.DEVNULL)
        shutil.rmtree(work, ignore_errors=True)


def run_size(a, build, work, tool, n, threads):
    tree = Tree(work, tool, n, n >= num(a.ext4_from) or 'real' in a.modes)
    t0 = time.monotonic()
    tree.make()
    print('\n== %d entries (%s, made in %.0f s), load %s' %
          (tree.entries, 'ext4 image' if tree.ext4 else 'tmpfs',
           time.monotonic() - t0, load()), flush=True)
    try:
        for rel in a.releases.split(','):
            tpath, sides = setup_release(rel, work, tree, build)
            if not sides:
                print('  %s: no root, skipped' % rel)
                continue
            if rel == '3.4' and n > num(a.max_ref):
                sides = sides[1:]
            try:
                for mode in a.modes.split(','):
                    for t in threads:
                        res = measure(sides, mode, t, tpath, tree, a.runs)
                        report(rel, mode, t, tree.entries, res)
            finally:
                teardown_release(sides)
    finally:
        tree.drop()
    print('   load after: %s' % load(), flush=True)


def report(rel, mode, t, entries, res):
    ours = res.get('ours')
    ref = res.get(rel)
    line = '  %-6s %-6s -T %d' % (rel, mode, t)
    for name, r in ((rel, ref), ('ours', ours)):
        if r:
            line += '  %s %7.2f s %5.2f us/e %6.1f MB' % (
                name, r[0], r[0] * 1e6 / entries, r[1] / 1024)
    if ref and ours:
        line += '  time %.2fx rss %.2fx %s' % (
            ours[0] / ref[0], ours[1] / ref[1],
            'same output' if ref[3] == ours[3] and ref[2] == ours[2]
            else 'OUTPUT DIFFERS (%s rc %d / %s rc %d)' % (
                ref[3], ref[2], ours[3], ours[2]))
    elif ours:
        line += '  (%s, rc %d)' % (ours[3], ours[2])
    print(line, flush=True)


if __name__ == '__main__':
    main()
