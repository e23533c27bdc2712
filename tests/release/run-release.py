#!/usr/bin/env python3
"""The releases' own programs on their library and on ours, compared.

  run-release.py BUILDDIR SOURCEDIR

For each cached release root (tests/lib/release-root.sh: trixie, Debian
13's libselinux1 3.8.1; sid, upstream 3.11), in one private mount
namespace: a throw-away overlay of the root (its writable half on a
tmpfs; the root stays as it was),
/proc, and this directory's cases.sh run in the chroot twice, first on
the release's libselinux.so.1, then with LD_LIBRARY_PATH pointing at a
copy of this build's library (side "ours", built for -Dcompat, 3.4 on
Debian 12), and a third time on the same library built for that release
(side "compat": libselinux-3.8.so.1 in trixie, libselinux-3.11.so.1 in
sid, and sefcontext_compile-R beside it).  Each case's stdout, stderr,
exit status (and the file it writes, for sefcontext_compile) are compared
byte for byte with the release's.

Every difference must be listed, in differences-RELEASE.txt for "ours"
(the table of what differs between 3.4 and the release) and in
differences-RELEASE-R.txt for "compat" (what a build for the release
still does otherwise), with the release's output and ours as evidence (each must be found in that side's
output) and where the release's behaviour comes from; a difference not
listed, a listed one that no longer occurs, or an entry without its
evidence fails the test.  Exit 77 when no root can be made.  RELEASE_KEEP=1 keeps the outputs
(BUILD/release-check/REL/stage/out/SIDE/CASE.*) of a run that passed.
"""
import difflib
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
RELEASES = os.environ.get('RELEASES', 'trixie sid').split()
# the release each root's libselinux1 is, and so the build of ours for it
COMPAT = {w[0]: w[1] for w in (l.split() for l in
                               open(os.path.join(SRC, 'packaging', 'releases')))
          if len(w) >= 2 and not w[0].startswith('#')}
FIELDS = {'out': 'stdout', 'err': 'stderr', 'rc': 'status', 'file': 'file'}
FCREL = 'etc/selinux/default/contexts/files/file_contexts'
BIN_MAGIC = 0xf97cff8a


def note(msg):
    print('release: ' + msg, flush=True)


def bin_version(data):
    """The version of a compiled file_contexts, 'v5' (little-endian, as
    3.4 writes) or 'v6be' (big-endian, as 3.8 onwards write), or None."""
    for order, tag in (('little', ''), ('big', 'be')):
        if len(data) >= 8 and int.from_bytes(data[:4], order) == BIN_MAGIC:
            return 'v%d%s' % (int.from_bytes(data[4:8], order), tag)
    return None


def run_root(rel, root):
    """Both sides' records of every case: {side: {case: {field: bytes}}}."""
    w = os.path.join(BUILD, 'release-check', rel)
    if os.path.isdir(w):
        subprocess.run(['rm', '-rf', '--one-file-system', w], check=True)
    stage = os.path.join(w, 'stage')
    for d in ('upper', 'mnt', 'stage/ours/lib', 'stage/ours/bin',
              'stage/compat/lib', 'stage/compat/bin', 'stage/v5', 'stage/out'):
        os.makedirs(os.path.join(w, d))
    shutil.copy(os.path.join(BUILD, 'libselinux', 'libselinux.so.1'),
                os.path.join(stage, 'ours/lib/libselinux.so.1'))
    shutil.copy(os.path.join(BUILD, 'utils', 'sefcontext_compile'),
                os.path.join(stage, 'ours/bin/sefcontext_compile'))
    r = COMPAT[rel]
    shutil.copy(os.path.join(BUILD, 'libselinux', 'libselinux-%s.so.1' % r),
                os.path.join(stage, 'compat/lib/libselinux.so.1'))
    shutil.copy(os.path.join(BUILD, 'utils', 'sefcontext_compile-' + r),
                os.path.join(stage, 'compat/bin/sefcontext_compile'))
    for f in ('cases.sh', 'pycases.py'):
        shutil.copy(os.path.join(HERE, f), stage)
    shutil.copy(os.path.join(SRC, 'tests/bindings/denials-refpolicy.log'),
                os.path.join(stage, 'denials.log'))
    # the root's file_contexts compiled by this host's (Debian 12's 3.4)
    # sefcontext_compile: a v5 .bin, newer than its text
    v5 = os.path.join(stage, 'v5', 'file_contexts')
    shutil.copy(os.path.join(root, FCREL), v5)
    os.utime(v5, (946684800, 946684800))  # older than its .bin, surely
    env = {k: v for k, v in os.environ.items()
           if k not in ('LD_LIBRARY_PATH', 'LD_PRELOAD')}
    subprocess.run(['/usr/sbin/sefcontext_compile', v5], check=True, env=env)
    with open(v5 + '.bin', 'rb') as f:
        v = bin_version(f.read(8))
    if v != 'v5':
        sys.exit('release: FAIL: Debian 12 sefcontext_compile wrote version %s, not 5' % v)
    script = r'''
set -e
R=$1/mnt
# the overlay's writable half on a tmpfs (whatever file system the build
# is on; gone with the namespace).  xino=on (32-bit inode numbers on the
# tmpfs leave it room): every file of the overlay then has one st_dev, as
# on a single file system.  Without it a file copied up reports the
# tmpfs's st_dev under a directory of the overlay's, and 3.8.1's and
# 3.11's selinux_restorecon skip such files where 3.4 and ours do not
# (seen here first; left for issue 27).
mount -t tmpfs -o size=512m,inode32 tmpfs "$1/upper"
mkdir "$1/upper/u" "$1/upper/w"
mount -t overlay overlay -o "lowerdir=$2,upperdir=$1/upper/u,workdir=$1/upper/w,xino=on" "$R"
mkdir -p "$R/opt/rel"
mount --bind "$1/stage" "$R/opt/rel"
mount -t proc proc "$R/proc"
for side in release ours compat; do
	chroot "$R" /usr/bin/env -i /bin/sh /opt/rel/cases.sh $side /opt/rel/out/$side
done
# again under the project's security server serving the root's policy
# (permissive, as the root's config), mounted on the root's /sys/fs/selinux
[ -n "$3" ] || exit 0
mkdir -p "$R/sys/fs/selinux"
export R
SELINUXFSD=$4 WITH_SERVER_NS=1 sh "$5" -e 0 "$3" sh -c '
mount --bind "$SELINUXFS_MNT" "$R/sys/fs/selinux" || exit 1
for side in release compat; do
	chroot "$R" /usr/bin/env -i /bin/sh /opt/rel/cases.sh srv-$side /opt/rel/out/srv-$side
done
umount "$R/sys/fs/selinux"'
'''
    srv = server_args(rel, root, stage)
    r = subprocess.run(['unshare', '-m', '--propagation', 'private', 'sh',
                        '-c', script, 'sh', w, root] + srv, env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout + r.stderr)
        sys.exit('release: FAIL: the cases did not run in %s (exit %d)' %
                 (rel, r.returncode))
    res = {}
    for side in ('release', 'ours', 'compat'):
        recs = {}
        for pre, d in (('', side), ('srv.', 'srv-' + side)):
            d = os.path.join(stage, 'out', d)
            if not os.path.isdir(d):
                if pre and srv and side != 'ours':
                    sys.exit('release: FAIL: %s: no cases ran under the server' % rel)
                continue
            for f in sorted(os.listdir(d)):
                case, ext = f.rsplit('.', 1)
                with open(os.path.join(d, f), 'rb') as fh:
                    recs.setdefault(pre + case, {})[ext] = fh.read()
        res[side] = recs
    if not srv:
        note('%s: SKIP of the cases under the security server (no FUSE, '
             'or the root\'s policy could not be made version 33)' % rel)
    return res


def policy33(rel, root):
    """The root's policy as version 33, the newest the server's libsepol
    (Debian 12's 3.4) reads: semodule -B with policy-version = 33 on an
    overlay of the root, once (about 20 s), kept beside the root."""
    out = root.rstrip('/') + '.policy.33'
    if os.path.exists(out):
        return out
    script = r'''
set -e
M=$1/m
mkdir -p "$1/u" "$M"
mount -t tmpfs tmpfs "$1/u"
mkdir "$1/u/u" "$1/u/w"
mount -t overlay overlay -o "lowerdir=$2,upperdir=$1/u/u,workdir=$1/u/w" "$M"
mount -t proc proc "$M/proc"
echo "policy-version = 33" >> "$M/etc/selinux/semanage.conf"
chroot "$M" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin semodule -B -n
cp "$M/etc/selinux/default/policy/policy.33" "$3.tmp"
'''
    tmp = os.path.join(BUILD, 'release-check', rel + '-policy33')
    os.makedirs(tmp, exist_ok=True)
    r = subprocess.run(['unshare', '-m', '--propagation', 'private', 'sh',
                        '-c', script, 'sh', tmp, root, out],
                       capture_output=True, text=True)
    shutil.rmtree(tmp, ignore_errors=True)
    if r.returncode != 0 or not os.path.exists(out + '.tmp'):
        sys.stdout.write(r.stdout + r.stderr)
        return None
    os.rename(out + '.tmp', out)
    return out


def server_args(rel, root, stage):
    """The script's server arguments: POLICY SELINUXFSD WITH_SERVER_SH, with
    the statfs shim staged; none when the server cannot run here."""
    srvd = os.path.join(BUILD, 'kernel', 'server', 'selinuxfsd')
    shim = os.path.join(BUILD, 'tests', 'dropin', 'fake_selinuxfs.so')
    if not (os.path.exists(srvd) and os.path.exists(shim) and
            os.path.exists('/dev/fuse')):
        return []
    pol = policy33(rel, root)
    if pol is None:
        return []
    shutil.copy(shim, os.path.join(stage, 'fake_selinuxfs.so'))
    return [pol, srvd, os.path.join(SRC, 'tests', 'lib', 'with-server.sh')]


class Entry:
    def __init__(self, case, field, summary, lineno):
        self.case, self.field, self.summary = case, field, summary
        self.lineno, self.ev = lineno, {}


def parse(path):
    """differences-REL.txt: entries 'CASE FIELD: summary' followed by
    indented 'release:', 'ours:' and 'source:' lines."""
    entries, errors, version = [], [], None
    cur = None
    with open(path) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines, 1):
        if not line.strip() or line.startswith('#'):
            continue
        if line.startswith('version:'):
            version = line.split(':', 1)[1].strip()
            continue
        if line[0] in ' \t':
            m = re.match(r'\s+(release|ours|source): ?(.*)$', line)
            if not m or cur is None:
                errors.append('%s:%d: not an evidence line of an entry' % (path, i))
                continue
            if m.group(1) in cur.ev:
                errors.append('%s:%d: %s given twice' % (path, i, m.group(1)))
            cur.ev[m.group(1)] = m.group(2)
            continue
        m = re.match(r'(\S+) (stdout|stderr|status|file): (.+)$', line)
        if not m:
            errors.append('%s:%d: not "CASE FIELD: summary"' % (path, i))
            cur = None
            continue
        cur = Entry(m.group(1), m.group(2), m.group(3), i)
        entries.append(cur)
    for e in entries:
        for k in ('release', 'ours', 'source'):
            if not e.ev.get(k, '').strip():
                errors.append('%s:%d: %s %s has no "%s:" line' %
                              (path, e.lineno, e.case, e.field, k))
    return entries, errors, version


def shown(b):
    return b.decode('utf-8', 'backslashreplace')


def evidence_found(ev, data):
    if data is None:
        return ev == '(missing)'
    if ev == '(empty)':
        return data == b''
    m = re.match(r'byte (\d+)=0x([0-9a-f]{2})$', ev)
    if m:
        n = int(m.group(1))
        return n < len(data) and data[n] == int(m.group(2), 16)
    if ev.startswith('(absent) '):
        return ev[len('(absent) '):].encode() not in data
    if ev.startswith('bin v') and bin_version(data) is not None:
        return ev.split()[:2] == ['bin', bin_version(data)]
    return ev.encode() in data


def first_diff(a, b):
    """The first differing line of each side, for a stub entry."""
    la, lb = a.splitlines(), b.splitlines()
    for x, y in zip(la, lb):
        if x != y:
            return shown(x), shown(y)
    if len(la) > len(lb):
        return shown(la[len(lb)]), '(empty)' if not lb else '(end)'
    if len(lb) > len(la):
        return ('(empty)' if not la else '(end)'), shown(lb[len(la)])
    return '(same lines: line ends differ)', '...'  # b'x' against b'x\n'



def compare(rel, res, path, side):
    entries, errors, version = parse(path) if os.path.exists(path) else \
        ([], ['%s: missing' % path], None)
    known = {(e.case, e.field): e for e in entries}
    for k in set((e.case, e.field) for e in entries):
        if sum(1 for e in entries if (e.case, e.field) == k) > 1:
            errors.append('%s: %s %s listed twice' % (path, k[0], k[1]))
    # "ours" (the 3.4 build) does not run under the server
    cases = sorted(c for c in set(res['release']) | set(res[side])
                   if side != 'ours' or not c.startswith('srv.'))
    found, identical = {}, 0
    for case in cases:
        a, b = res['release'].get(case, {}), res[side].get(case, {})
        same = True
        for ext, field in FIELDS.items():
            x, y = a.get(ext), b.get(ext)
            if x == y:
                continue
            same = False
            found[(case, field)] = (x, y)
        identical += same
    failed = False
    for k, (x, y) in sorted(found.items()):
        e = known.get(k)
        if e is not None and not all(s in e.ev for s in ('release', 'ours')):
            continue  # an entry without its evidence: reported below
        if e is None:
            failed = True
            print('\n%s (%s): NEW DIFFERENCE %s %s' % (rel, side, k[0], k[1]))
            if k[1] == 'file':
                print('  release: %d bytes, bin %s; ours: %d bytes, bin %s' % (
                      len(x or b''), bin_version(x or b''),
                      len(y or b''), bin_version(y or b'')))
                x, y = x or b'', y or b''
                d = [i for i in range(min(len(x), len(y))) if x[i] != y[i]]
                if d:
                    print('  %d bytes differ, the first: release byte %d=0x%02x, '
                          'ours byte %d=0x%02x' % (len(d), d[0], x[d[0]], d[0], y[d[0]]))
            else:
                d = list(difflib.unified_diff(
                    shown(x or b'').splitlines(), shown(y or b'').splitlines(),
                    'release', 'ours', lineterm='', n=1))
                for line in d[:30]:
                    print('  | ' + line)
                if len(d) > 30:
                    print('  | ... %d more lines' % (len(d) - 30))
                r, o = first_diff(x or b'', y or b'')
                print('stub:\n%s %s: ...\n  release: %s\n  ours: %s\n  source: ...'
                      % (k[0], k[1], r, o))
            continue
        for who, data in (('release', x), ('ours', y)):
            if not evidence_found(e.ev[who], data):
                failed = True
                print('%s:%d: %s %s: the %s evidence "%s" is not in the %s output' %
                      (path, e.lineno, e.case, e.field, who, e.ev[who], who))
    for k, e in sorted(known.items()):
        if k not in found:
            failed = True
            print('%s:%d: %s %s is listed but no longer differs' %
                  (path, e.lineno, e.case, e.field))
    for err in errors:
        failed = True
        print(err)
    ndiff = len(cases) - identical
    note('%s, %s: %d cases, %d identical, %d differ (%d known differences)' %
         (rel, side, len(cases), identical, ndiff, len(found)))
    return failed, version


def main():
    if os.geteuid() != 0:
        note('SKIP: needs root (chroot, mounts)')
        return 77
    ran, failed = 0, False
    for rel in RELEASES:
        r = subprocess.run([os.path.join(SRC, 'tests/lib/release-root.sh'), rel],
                           capture_output=True, text=True)
        if r.returncode == 77:
            sys.stdout.write(r.stderr)
            note('%s: no root, skipped' % rel)
            continue
        if r.returncode != 0:
            sys.stdout.write(r.stderr)
            note('FAIL: release-root.sh %s exited %d' % (rel, r.returncode))
            failed = True
            continue
        root = r.stdout.strip()
        with open(os.path.join(root, '.versions')) as f:
            versions = dict(l.split('\t') for l in f.read().split('\n') if l)
        lib = versions.get('libselinux1:amd64', '?')
        note('%s: libselinux1 %s in %s' % (rel, lib, root))
        res = run_root(rel, root)
        ran += 1
        bad, version = compare(rel, res, os.path.join(
            HERE, 'differences-%s.txt' % rel), 'ours')
        bad2, _ = compare(rel, res, os.path.join(
            HERE, 'differences-%s-%s.txt' % (rel, COMPAT[rel])), 'compat')
        bad |= bad2
        if version and version != lib:
            note('%s: the differences were measured on libselinux1 %s, the '
                 'root has %s' % (rel, version, lib))
        w = os.path.join(BUILD, 'release-check', rel)
        if bad or os.environ.get('RELEASE_KEEP'):
            note('%s: the outputs are kept in %s/stage/out' % (rel, w))
        else:
            subprocess.run(['rm', '-rf', '--one-file-system', w], check=True)
        failed |= bad
    if failed:
        note('FAIL')
        return 1
    return 0 if ran else 77


if __name__ == '__main__':
    sys.exit(main())
