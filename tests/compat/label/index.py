#!/usr/bin/env python3
"""The index image (file_contexts.idx, libselinux/src/label/index/image.h):
our library with it and without it must give the same answers, and use
it only when it is fresh and sound.

  index.py FCPROBE OURS_LIBDIR OUR_SEFCONTEXT_COMPILE GEN_PATHS

The refpolicy file_contexts of this machine (INDEX_DIR, default
/etc/selinux/default/contexts/files: file_contexts, .homedirs,
.subs_dist) is copied into four sets:
  text   the text files; the image written with sefcontext_compile -I
  bin    the text files and our .bin (version 5), the image beside
  bin6   the same with .bin version 6
  local  text, plus a file_contexts.local (specs that override base
         ones, a <<none>>, exact paths) and a .subs
For each, fcprobe (run on our library) answers lookups (the paths of
this machine with their lstat mode and mode 0, and paths generated from
every spec), partial matches, partial-match hashes, best matches with
aliases, and the digest, once with the image and once after it is moved
away: every answer must be equal, and inotify must see the image opened
and no spec file read with it, the spec files read without it.

On the local set, with SELABEL_OPT_VALIDATE and a validator that
accepts every context the image serves, with equal answers; one context
it refuses makes the files be read (the open fails as theirs does).
Then the image must be left alone (the files read,
the answers the files' own) when: a line is appended to .local (new
content, the same path); a byte of .local changes (its size the
same); the image is truncated, its header flipped or its byte order tag changed; and the answers must equal the
files' when bytes inside its sections are flipped (the units' checksums
catch them: a warning, then the files).  Rewriting the image makes it
used again.

Freshness by content (issue 35): when the files' identities differ from
those the image records but an open would read the same bytes, the
image serves (fcprobe -M: it is mapped), with the files' answers: when
.homedirs is only touched (a new mtime), when the set is copied
elsewhere (new inodes), when a file the open does not read changed (the
text beside the .bin it reads); not when a copy's mtimes make the open
choose the text over the .bin.  sefcontext_compile -U stamps a copy's
image with its identities (then no spec file is opened), and leaves a
fresh one alone.

libsemanage's flow, imitated in a directory of its own (ROOT):
sefcontext_compile run on ROOT/var/lib/selinux/final/default/contexts/
files/file_contexts and .homedirs while this test holds the store's
transaction lock (flock, as libsemanage 3.8.1), returning at once with
its output closed; the files then copied into ROOT/etc/selinux/default/
contexts/files/ (a temporary file renamed, as libsemanage does) beside
the policy's .subs_dist: the image must appear there while the lock is
still held, be used with no spec file opened, answer as the files, and
the processes sefcontext_compile left must be gone once the lock is free.
Exit 1 on any difference, 77 without the policy.
"""
import ctypes
import ctypes.util
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

PROBE, OURS, COMPILE, GEN = sys.argv[1:5]
FCDIR = os.environ.get('INDEX_DIR', '/etc/selinux/default/contexts/files')
FILES = ['file_contexts', 'file_contexts.homedirs', 'file_contexts.subs_dist']
SPECFILES = ('file_contexts', 'file_contexts.bin', 'file_contexts.homedirs',
             'file_contexts.homedirs.bin', 'file_contexts.local',
             'file_contexts.local.bin')
N_LOOKUP = int(os.environ.get('INDEX_N', '60000'))
failures = []


def fail(msg):
    print('FAIL: ' + msg, flush=True)
    failures.append(msg)


class Inotify:
    """Which files of a directory were opened (IN_OPEN) meanwhile."""
    IN_OPEN, IN_NONBLOCK = 0x20, 0o4000

    def __init__(self, d):
        self.libc = ctypes.CDLL(ctypes.util.find_library('c'),
                                use_errno=True)
        self.fd = self.libc.inotify_init1(self.IN_NONBLOCK)
        if self.fd < 0 or self.libc.inotify_add_watch(
                self.fd, d.encode(), self.IN_OPEN) < 0:
            raise OSError(ctypes.get_errno(), 'inotify')

    def opened(self):
        names = set()
        while True:
            try:
                buf = os.read(self.fd, 65536)
            except BlockingIOError:
                return names
            i = 0
            while i < len(buf):
                _, _, _, n = struct.unpack_from('iIII', buf, i)
                name = buf[i + 16:i + 16 + n].rstrip(b'\0').decode()
                names.add(name)
                i += 16 + n

    def close(self):
        os.close(self.fd)


def probe(d, op, data, opts=()):
    env = dict(os.environ, LD_LIBRARY_PATH=OURS)
    p = subprocess.run([PROBE, '-L', '-p', os.path.join(d, 'file_contexts')] +
                       list(opts) + [op], input=data, capture_output=True,
                       env=env, timeout=900)
    if p.returncode:
        fail(f'fcprobe {op} on {d}: exit {p.returncode}: {p.stderr[-300:]}')
    return p.stdout.decode('utf-8', 'backslashreplace')


def corpus(d, rnd):
    gen = subprocess.run([sys.executable, GEN, '--machine',
                          d + '/file_contexts', d + '/file_contexts.homedirs'],
                         capture_output=True, check=True).stdout
    recs = [r for r in gen.split(b'\0') if r]
    recs += [b'0 /home/someone/.ssh/authorized_keys', b'0 //usr///bin/',
             b'0 /usr/bin/ls\n', b'0 /srv/web/x', b'0 /opt/app/x',
             b'0 /etc/local-none/x', b'0 /etc/local-exact']
    if N_LOOKUP and len(recs) > N_LOOKUP:
        recs = rnd.sample(recs, N_LOOKUP)
    return recs


def inputs(recs, rnd):
    paths = [r.split(b' ', 1)[1] for r in recs]
    lookup = b''.join(r + b'\0' for r in recs)
    few = rnd.sample(paths, min(len(paths), 3000))
    partial = b''.join(b'0 ' + p + b'\0' for p in few)
    best = b''.join(b'0 %s\t%s\t/usr/lib\0' % (p, p.replace(b'/usr', b''))
                    for p in few[:1500])
    return {'lookup': lookup, 'partial': partial, 'hash': partial,
            'best': best, 'digest': b''}


def answers(d, inp):
    out = {}
    for op, data in inp.items():
        out[op] = probe(d, op, data, ['-d'] if op == 'digest' else [])
    return out


def compare(what, got, want):
    bad = 0
    for op in want:
        # the warning of an image that does not check out is the one
        # line a run with it may add
        g = [x for x in got[op].splitlines()
             if 'index image does not check out' not in x]
        w = want[op].splitlines()
        if len(g) != len(w):
            fail(f'{what}: {op}: {len(g)} lines, {len(w)} expected')
            bad += 1
            continue
        diff = [(a, b) for a, b in zip(g, w) if a != b]
        if diff:
            fail(f'{what}: {op}: {len(diff)} of {len(w)} answers differ, '
                 f'e.g. {diff[0]!r}')
            bad += 1
    print(f'  {what}: {sum(len(v.splitlines()) for v in want.values())} '
          f'answers compared, {"all equal" if not bad else "DIFFERENT"}',
          flush=True)


def run_watched(d, inp, watch, opts=()):
    watch.opened()
    out = {}
    for op, data in inp.items():
        out[op] = probe(d, op, data,
                        list(opts) + (['-d'] if op == 'digest' else []))
    return out, watch.opened()


def expect_use(what, opened, used):
    read = sorted(opened & set(SPECFILES))
    idx = 'file_contexts.idx' in opened
    if used and (read or not idx):
        fail(f'{what}: the image was not used (opened: {sorted(opened)})')
    if not used and not read:
        fail(f'{what}: no spec file was read (opened: {sorted(opened)})')
    print(f'  {what}: image {"used" if not read else "not used"}'
          f'{", files read: " + " ".join(read) if read else ""}',
          flush=True)


def mapped(d, data=b'0 /usr/bin/cat\0', opts=()):
    """fcprobe's answers on d and whether it mapped the image."""
    env = dict(os.environ, LD_LIBRARY_PATH=OURS)
    p = subprocess.run([PROBE, '-L', '-M', '-p',
                        os.path.join(d, 'file_contexts')] + list(opts) +
                       ['lookup'], input=data, capture_output=True, env=env,
                       timeout=900)
    if p.returncode:
        fail(f'fcprobe -M on {d}: exit {p.returncode}: {p.stderr[-300:]}')
    return p.stdout.decode(), b'image: mapped' in p.stderr


def by_content(what, d, data, used):
    """The image of d serves (used) or not, answering as d's files."""
    got, m = mapped(d, data)
    hide(d)
    want, m2 = mapped(d, data)
    unhide(d)
    if m != used:
        fail(f'{what}: the image was {"" if m else "not "}mapped')
    if m2:
        fail(f'{what}: an image was mapped with none there')
    if got != want:
        fail(f'{what}: answers differ with the image: {got[:200]!r} '
             f'vs {want[:200]!r}')
    print(f'  {what}: image {"mapped" if m else "not mapped"}, '
          f'{len(want.splitlines())} answers as the files\'', flush=True)


def compile_(args):
    p = subprocess.run([COMPILE] + args, capture_output=True, text=True)
    if p.returncode or p.stderr:
        fail(f'sefcontext_compile {" ".join(args)}: exit {p.returncode}, '
             f'{p.stderr.strip()}')


def make_sets(tmp):
    sets = {}
    for k in ('text', 'bin', 'bin6', 'local'):
        d = sets[k] = os.path.join(tmp, k)
        os.mkdir(d)
        for f in FILES:
            if os.path.exists(os.path.join(FCDIR, f)):
                shutil.copy(os.path.join(FCDIR, f), d)
        fc = os.path.join(d, 'file_contexts')
        if k == 'local':
            with open(fc + '.local', 'w') as f:
                f.write('/srv/web(/.*)?\tsystem_u:object_r:etc_t:s0\n'
                        '/usr/bin/ls\t--\tsystem_u:object_r:etc_t:s0\n'
                        '/etc/local-none(/.*)?\t<<none>>\n'
                        '/etc/local-exact\tsystem_u:object_r:bin_t:s0\n')
            with open(fc + '.subs', 'w') as f:
                f.write('/opt/app /usr\n')
        if k in ('bin', 'bin6'):
            for f in ('file_contexts', 'file_contexts.homedirs'):
                compile_((['-F', '6'] if k == 'bin6' else []) +
                         [os.path.join(d, f)])
        else:
            compile_(['-I', fc])
        if not os.path.exists(fc + '.idx'):
            fail(f'{k}: sefcontext_compile wrote no image')
    return sets


def hide(d):
    os.rename(os.path.join(d, 'file_contexts.idx'),
              os.path.join(d, 'idx.away'))


def unhide(d):
    os.rename(os.path.join(d, 'idx.away'),
              os.path.join(d, 'file_contexts.idx'))


def main():
    if not all(os.path.exists(os.path.join(FCDIR, f)) for f in FILES[:2]):
        print(f'{FCDIR}: no file_contexts(.homedirs): skipped')
        return 77
    tmp = tempfile.mkdtemp(prefix='fcindex.')
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp)
    print(f'index: {len(failures)} failures')
    return 1 if failures else 0


def run(tmp):
    rnd = random.Random(26)
    sets = make_sets(tmp)
    inp = inputs(corpus(sets['text'], rnd), rnd)
    for k, d in sets.items():
        watch = Inotify(d)
        got, opened = run_watched(d, inp, watch)
        expect_use(f'{k}: with the image', opened, True)
        hide(d)
        want, opened = run_watched(d, inp, watch)
        expect_use(f'{k}: without it', opened, False)
        unhide(d)
        compare(f'{k}: with vs without the image', got, want)
        watch.close()

    d = sets['local']
    fc = os.path.join(d, 'file_contexts')
    small = {op: v for op, v in inp.items() if op != 'lookup'}
    small['lookup'] = b''.join(r + b'\0' for r in
                               inp['lookup'].split(b'\0')[:20000] if r)
    watch = Inotify(d)

    def stale(what):
        got, opened = run_watched(d, small, watch)
        expect_use(what, opened, False)
        hide(d)
        want, _ = run_watched(d, small, watch)
        unhide(d)
        compare(what, got, want)

    # SELABEL_OPT_VALIDATE (setfiles): with a validator that accepts
    # them, the image serves; with one context it refuses, the files are
    # read and the open fails as theirs
    val = ['-v', '-a']
    got, opened = run_watched(d, small, watch, val)
    expect_use('VALIDATE, every context valid', opened, True)
    hide(d)
    want, _ = run_watched(d, small, watch, val)
    unhide(d)
    compare('VALIDATE, every context valid', got, want)
    with open(fc + '.local', 'a') as f:
        f.write('/srv/bad\tsystem_u:object_r:invalid_t:s0\n')
    compile_(['-I', fc])
    one = {'lookup': b'0 /usr/bin/cat\0'}
    got, opened = run_watched(d, one, watch, val)
    expect_use('VALIDATE, a context invalid', opened, False)
    hide(d)
    want, _ = run_watched(d, one, watch, val)
    unhide(d)
    compare('VALIDATE, a context invalid', got, want)
    if 'open: ERR' not in got['lookup']:
        fail(f'VALIDATE with an invalid context opened: {got["lookup"]!r}')
    got, opened = run_watched(d, one, watch)
    expect_use('the same without VALIDATE', opened, True)

    with open(fc + '.local', 'a') as f:
        f.write('/usr/bin(/.*)?\tsystem_u:object_r:etc_t:s0\n')
    stale('.local appended to')
    got, _ = run_watched(d, {'lookup': b'0 /usr/bin/cat\0'}, watch)
    if 'etc_t' not in got['lookup']:
        fail(f'the appended .local spec is not seen: {got["lookup"]!r}')
    compile_(['-I', fc])
    _, opened = run_watched(d, {'lookup': b'0 /usr/bin/cat\0'}, watch)
    expect_use('written again', opened, True)
    few = b''.join(r + b'\0' for r in
                   inp['lookup'].split(b'\0')[:3000] if r)
    st = os.stat(fc + '.homedirs')
    os.utime(fc + '.homedirs', ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    by_content('.homedirs touched (the same bytes)', d, few, True)
    # a byte of .local changed, its size the same: etc_t -> bin_t
    loc = open(fc + '.local').read()
    with open(fc + '.local', 'w') as f:
        f.write(loc.replace('/srv/web(/.*)?\tsystem_u:object_r:etc_t:s0',
                            '/srv/web(/.*)?\tsystem_u:object_r:bin_t:s0'))
    by_content('.local changed, its size the same', d,
               few + b'0 /srv/web/x\0', False)
    with open(fc + '.local', 'w') as f:
        f.write(loc)
    by_content('.local as it was (the same bytes again)', d, few, True)
    compile_(['-I', fc])
    copy = os.path.join(tmp, 'copy')
    shutil.copytree(d, copy)
    by_content('the set copied elsewhere', copy, few, True)
    compile_(['-U', os.path.join(copy, 'file_contexts')])
    cw = Inotify(copy)
    _, opened = run_watched(copy, {'lookup': b'0 /usr/bin/cat\0'}, cw)
    expect_use('the copy after sefcontext_compile -U (stamped)', opened, True)
    ino = os.stat(os.path.join(copy, 'file_contexts.idx')).st_ino
    compile_(['-U', os.path.join(copy, 'file_contexts')])
    if os.stat(os.path.join(copy, 'file_contexts.idx')).st_ino != ino:
        fail('sefcontext_compile -U rewrote a fresh image')
    cw.close()
    content_bin(tmp, sets['bin'], few)
    semanage_flow(tmp, few)

    good = open(fc + '.idx', 'rb').read()

    def with_image(what, data, used):
        with open(fc + '.idx', 'wb') as f:
            f.write(data)
        got, opened = run_watched(d, small, watch)
        if used is not None:
            expect_use(what, opened, used)
        hide(d)
        want, _ = run_watched(d, small, watch)
        unhide(d)
        compare(what, got, want)
        return got

    with_image('image truncated', good[:len(good) // 2], False)
    b = bytearray(good)
    b[12] ^= 1  # in the header: semantics
    with_image('image header changed', bytes(b), False)
    b = bytearray(good)
    b[16:20] = struct.pack('>I', 0x01020304)  # the other byte order
    with_image('image of the other byte order', bytes(b), False)
    flips = 0
    for t in range(12):
        b = bytearray(good)
        for _ in range(rnd.choice((1, 3, 20))):
            pos = rnd.randrange(4096, len(b))
            b[pos] ^= 1 << rnd.randrange(8)
        got = with_image(f'image with bits flipped ({t})', bytes(b), None)
        flips += any('does not check out' in v for v in got.values())
    print(f'  bit flips: the checksums caught {flips} of 12', flush=True)
    if flips == 0:
        fail('no flipped image was caught')
    with open(fc + '.idx', 'wb') as f:
        f.write(good)
    watch.close()


def content_bin(tmp, d, few):
    """A copy of a set with .bin files: which files the open reads."""
    copy = os.path.join(tmp, 'copy-bin')
    shutil.copytree(d, copy)  # copy2: the mtimes kept
    fc = os.path.join(copy, 'file_contexts')
    by_content('a .bin set copied (mtimes kept)', copy, few, True)
    # the text, which the open does not read (the .bin is newer), changed
    with open(fc, 'a') as f:
        f.write('/srv/never-read(/.*)?\tsystem_u:object_r:etc_t:s0\n')
    st = os.stat(fc + '.bin')
    os.utime(fc, ns=(st.st_atime_ns, st.st_mtime_ns - 10**9))
    by_content('the text beside the .bin changed (not read)', copy,
               few + b'0 /srv/never-read/x\0', True)
    # the text newer than its .bin: the open reads the text
    os.utime(fc, ns=(st.st_atime_ns, st.st_mtime_ns + 2 * 10**9))
    by_content('the text newer than the .bin (the text read)', copy,
               few + b'0 /srv/never-read/x\0', False)


def cmdline(pid):
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            return f.read()
    except OSError:
        return b''


def semanage_flow(tmp, few):
    """libsemanage's install, imitated (see the top)."""
    import fcntl
    root = os.path.join(tmp, 'root')
    final = os.path.join(root, 'var/lib/selinux/final/default/contexts/files')
    store = os.path.join(root, 'var/lib/selinux/default')
    inst = os.path.join(root, 'etc/selinux/default/contexts/files')
    for x in (final, store, inst):
        os.makedirs(x)
    for f in FILES[:2]:
        shutil.copy(os.path.join(FCDIR, f), final)
    if os.path.exists(os.path.join(FCDIR, FILES[2])):
        shutil.copy(os.path.join(FCDIR, FILES[2]), inst)
    lock = open(os.path.join(store, 'semanage.trans.LOCK'), 'w')
    fcntl.flock(lock, fcntl.LOCK_EX)
    for f in FILES[:2]:
        # the output captured: run() returns when the tool's end of the
        # pipes closes, so a process left holding them would hang here
        p = subprocess.run([COMPILE, os.path.join(final, f)],
                           capture_output=True, text=True, timeout=300)
        if p.returncode or p.stderr:
            fail(f'sefcontext_compile in final/: exit {p.returncode}, '
                 f'{p.stderr.strip()}')
    if os.path.exists(os.path.join(inst, 'file_contexts.idx')):
        fail('an image was installed before the files were')
    for f in ('file_contexts', 'file_contexts.bin', 'file_contexts.homedirs',
              'file_contexts.homedirs.bin'):
        shutil.copyfile(os.path.join(final, f), os.path.join(inst, f + '.tmp'))
        os.rename(os.path.join(inst, f + '.tmp'), os.path.join(inst, f))
    idx = os.path.join(inst, 'file_contexts.idx')
    for _ in range(600):
        if os.path.exists(idx):
            break
        subprocess.run(['sleep', '0.1'])
    if not os.path.exists(idx):
        fail('libsemanage flow: no image beside the installed files '
             'while the transaction held its lock')
    watch = Inotify(inst)
    got, opened = run_watched(inst, {'lookup': few}, watch)
    expect_use('libsemanage flow: the installed set', opened, True)
    hide(inst)
    want, _ = run_watched(inst, {'lookup': few}, watch)
    unhide(inst)
    watch.close()
    compare('libsemanage flow: with vs without the image', got, want)
    shutil.rmtree(os.path.join(root, 'var/lib/selinux/final'))
    lock.close()
    left = []
    for _ in range(600):
        left = [p for p in os.listdir('/proc')
                if p.isdigit() and final.encode() in cmdline(p)]
        if not left:
            break
        subprocess.run(['sleep', '0.1'])
    if left:
        fail(f'libsemanage flow: processes of sefcontext_compile left '
             f'after the transaction: {left}')


sys.exit(main())
