#!/usr/bin/env python3
"""Allocation failures in the security server's request handling.

Run by with-server.sh with SELINUXFSD pointing at selinuxfsd_failmalloc
(the server linked with failmalloc.c, armed by signals; FM_CTL names the
control file).  For each request (context, access, create, user): send it
a few times unarmed (FUSE and the server warm up), count the allocations A
of one request, then for n = 1..A fail the n-th allocation of one request
and check that the client gets ENOMEM or the right answer, that the same
request unarmed then gets the right answer, that the server still runs and
that its live blocks are back to what they were before (no leak).
"""
import errno
import os
import signal
import sys
import time

MNT = os.environ['SELINUXFS_MNT']
PID = int(os.environ['SELINUXFSD_PID'])
CTL = os.environ['FM_CTL']


def wait_file(path):
    for _ in range(2000):
        if os.path.exists(path):
            return
        time.sleep(0.001)
    sys.exit('the server did not answer the signal (%s)' % path)


def arm(n):
    with open(CTL, 'w') as f:
        f.write('%d\n' % n)
    if os.path.exists(CTL + '.ack'):
        os.unlink(CTL + '.ack')
    os.kill(PID, signal.SIGUSR1)
    wait_file(CTL + '.ack')


def report():
    """Disarm; (allocations counted, failure happened, live blocks)."""
    if os.path.exists(CTL + '.out'):
        os.unlink(CTL + '.out')
    os.kill(PID, signal.SIGUSR2)
    wait_file(CTL + '.out')
    with open(CTL + '.out') as f:
        count, failed, live = (int(x) for x in f.read().split())
    return count, failed, live


def live_settles(want):
    """The live blocks, given time to reach want: FUSE's RELEASE of the
    client's file (which frees the answer) arrives after close()."""
    live = None
    for _ in range(200):
        live = report()[2]
        if live == want:
            break
        time.sleep(0.005)
    return live


def transact(name, req):
    """The answer (bytes) or the errno of the failed write/read."""
    try:
        fd = os.open(os.path.join(MNT, name), os.O_RDWR)
    except OSError as e:
        return e.errno
    try:
        os.write(fd, req)
        return os.read(fd, 4096)
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)


def index(path):
    with open(os.path.join(MNT, path)) as f:
        return int(f.read())


FILE = index('class/file/index')
PROCESS = index('class/process/index')
READ = 1 << (index('class/file/perms/read') - 1)
WRITE = 1 << (index('class/file/perms/write') - 1)


def access_ok(ans):
    # sshd_t reads etc_t files and does not write them (facts.txt)
    if not isinstance(ans, bytes):
        return False
    allowed, decided = (int(x, 16) for x in ans.split()[:2])
    return bool(allowed & READ) and not allowed & WRITE and bool(
        decided & WRITE)


# name, request, check of the answer (hand-written from facts.txt)
REQUESTS = [
    ('context', b'system_u:object_r:etc_t',
     lambda a: a == b'system_u:object_r:etc_t\0'),
    ('access', b'system_u:system_r:sshd_t system_u:object_r:etc_t %d'
     % FILE, access_ok),
    ('create', b'system_u:system_r:init_t system_u:object_r:sshd_exec_t %d'
     % PROCESS, lambda a: a == b'system_u:system_r:sshd_t\0'),
    ('user', b'system_u:system_r:sshd_t root',
     lambda a: a == b'2\0root:staff_r:staff_t\0'
     b'root:unconfined_r:unconfined_t\0'),
]

errors = 0


def fail(msg):
    global errors
    errors += 1
    if errors <= 30:
        print(msg, file=sys.stderr)


for name, req, ok in REQUESTS:
    for _ in range(3):
        ans = transact(name, req)
        if not ok(ans):
            sys.exit('%s: unarmed answer %r' % (name, ans))
    live0 = live_settles(None)
    arm(0)
    transact(name, req)
    count = report()[0]
    base = live_settles(live0)
    if base != live0:
        fail('%s: %d blocks more after an unarmed request' %
             (name, base - live0))
    nomem = optional = 0
    for n in range(1, count + 1):
        arm(n)
        ans = transact(name, req)
        _, hit, _ = report()
        later = transact(name, req)
        try:
            os.kill(PID, 0)
        except OSError:
            sys.exit('%s: allocation %d: the server died' % (name, n))
        if ans == errno.ENOMEM and hit:
            nomem += 1
        elif ok(ans):
            optional += 1
        else:
            fail('%s: allocation %d of %d: answer %r (%s)' %
                 (name, n, count, ans, errno.errorcode.get(ans, '')
                  if isinstance(ans, int) else 'wrong'))
        if not ok(later):
            fail('%s: allocation %d: the next request got %r' %
                 (name, n, later))
        live = live_settles(base)
        if live != base:
            fail('%s: allocation %d: %+d live blocks' %
                 (name, n, live - base))
            base = live
    print('%s: %d injection points: %d ENOMEM, %d succeeded (optional '
          'allocation)' % (name, count, nomem, optional))

for suffix in ('', '.ack', '.out'):
    if os.path.exists(CTL + suffix):
        os.unlink(CTL + suffix)
sys.exit(1 if errors else 0)
