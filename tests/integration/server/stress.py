#!/usr/bin/env python3
"""The security server (selinuxfsd) under load and hostile clients.

Run by tests/lib/with-server.sh, which mounts the server on $SELINUXFS_MNT
serving POLICY (the bundled non-MLS policy) and exports SELINUXFSD_PID:

    stress.py stress POLICY
    stress.py kill POLICY AVC_SERVER_DIES CPROBE|- LIBDIR

stress: one client first records the answers of a fixed query set
(access, create, relabel, member, user and context transactions, and
every class/<c>/index and class/<c>/perms/<p>) with both booleans of the
policy off, then with both on.  Then many processes (fork) run at once,
each a bounded number of rounds and all within a deadline:

  tx        honest: the query set in a random order, each answer compared
            byte for byte with the single client's (the access answer's
            seqno field excepted: it counts loads and commits)
  class     honest: class/ listed and read, compared with the record
  bools     flips the policy's two booleans and commits them
  enforce   toggles enforcing
  load      reloads the same policy
  hostile   garbage, oversized writes (a page, 64 KiB, past the 1 MiB a
            FUSE write carries), partial and split writes, writes at an
            offset, reads without a write, several opens of one file at
            once (their answers checked too), children SIGKILLed in the
            middle of a transaction or of a load, bad boolean and enforce
            values, the same as an unprivileged user, and writes (as
            root, whom the mode 0444 does not stop) to the status page
            while it is mapped, and (anyone) status dropped from the
            page cache (posix_fadvise) and mapped again while root
            toggles enforcing: the server must not wait for the page
            while a reader waits for the server.

What an honest answer may be: an answer that depends on a boolean may be
either of its two recorded answers (the booleans flip); every other one
must equal the record.  Transactions are never tolerated an error: the
server answers one request at a time, a load or a commit happens between
two of them, never inside one.  One error is tolerated, and only on
class/ and booleans/: a name of class/ resolves to an inode that belongs to the policy
generation of its lookup (files.c), and a load in between makes the
following open or read fail with ENOENT or EINVAL, as the kernel's
selinuxfs does when a load recreates the directory (a listing of such a
directory comes back empty: readdir(3) ends at getdents' ENOENT, as for
a removed directory).  Such an error, or empty listing, counts
as tolerated only when a load really overlapped the operation (the
loader publishes, in shared memory, how many loads it started and
finished); any other error, or any wrong value, is a failure.

After the run one client asks the query set again, with the booleans
on, then off: every answer must be the record's for that state exactly
(a decision cached across a commit or a load shows there).

The server must stay up (a sanitizer's report ends it, and with-server.sh
fails a server that exits with an error), answer correctly after the run,
and keep nothing a request leaves: the bytes it has allocated, settled,
may differ after the run from what they were after the warm-up (a first,
shorter pass of the same mix) by at most IN_USE_SLACK.  Settled: idle,
the policy just loaded again (every workers' file closed and released;
the SID table, the decision cache, the booleans and the policy's image
as a load leaves them), as the server reports after each load (-v: the
allocator's count, mallinfo2, or a sanitizer's).  Not the RSS: glibc
keeps freed memory in its arenas and its per-thread caches, which the
RSS counts, at a level that differs from machine to machine (the RSS
bound of 2 MiB this test had, tuned on one machine, failed on the next
with 3-6 MiB kept in the worker threads' arenas, while the bytes in use
had not moved; kernel/server/mem.c says what was wrong there).  The
per-thread caches (tcache) hold freed blocks that mallinfo2 counts as in
use; the test runs the server without them (meson.build sets
GLIBC_TUNABLES=glibc.malloc.tcache_count=0; without that in the server's
environment the figures are printed, not checked; a sanitizer's count,
ASan's or TSan's, has no such caches), and two settled counts then
agree to some 150 bytes.  The run makes some 20,000 to
75,000 requests: a request that leaks a block, at least 32 bytes in
glibc (at least 1 byte under a sanitizer), one time in 32 passes
IN_USE_SLACK (16 KiB) in 16,384 of them; the figures say what the run
could see.  LeakSanitizer, in a sanitized build, reports memory lost
when with-server.sh stops the server; this reports memory held.

kill: honest tx workers run, and avc_server_dies (the AVC's test of a
dead server) kills the server (SIGKILL) under that load; the workers must
then all end promptly with ENOTCONN (ECONNABORTED for a request the
kernel aborted in flight; ECANCELED for one in flight on io_uring, when
the fuse module offers that transport (enable_uring) and the server took
it: the kernel cancels the dead ring's requests; no hang, no wrong
answer), and the compute
layer (security_compute_av, _create, _user, security_get_boolean_active,
through tests/integration/compute's cprobe run on the library of LIBDIR)
must return -1 with errno ENOTCONN, not hang.  (The compute_av
utility is no help there: it checks its contexts first and, as the
established tool, reports any failure of that as "invalid source
context".)  In a sanitized build there is no cprobe ("-"): avc_server_dies
alone checks the library.
"""
import errno
import json
import mmap
import os
import random
import re
import select
import signal
import stat
import struct
import subprocess
import sys
import time

from sfs import MNT, path, read, write, transact

SERVER = int(os.environ["SELINUXFSD_PID"])
MODE, POLICY = sys.argv[1], sys.argv[2]

BOOLS = ["ssh_sysadm_login", "allow_user_exec_tmp"]
# bytes the server's settled allocations may grow from the warm-up's
IN_USE_SLACK = 16 << 10
DEADLINE = 15.0  # seconds for the warm-up and the run together
WARM_FRACTION = 0.2
GRACE = 10.0  # seconds past the deadline a worker may take to finish


def fuse_uring_on():
    """Whether the fuse module offers its io_uring transport."""
    try:
        with open("/sys/module/fuse/parameters/enable_uring") as f:
            return f.read().strip() in ("Y", "1")
    except OSError:
        return False


# A dead server's errors, whether a request raises them (the open or the
# write) or returns them (the read): ENOTCONN, ECONNABORTED for a request
# the kernel aborted in flight, and ECANCELED for one in flight on
# io_uring, when the fuse module offers that transport (the kernel cancels
# the dead ring's requests).
DEAD = (errno.ENOTCONN, errno.ECONNABORTED) + \
    ((errno.ECANCELED,) if fuse_uring_on() else ())

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg, flush=True)










def norm(tx, res):
    """The comparable form of an answer: access's seqno field masked."""
    err, ans = res
    if err is None and tx == "access":
        f = ans.split(b" ")
        if len(f) == 6 and f[4].isdigit():
            f[4] = b"#"
            ans = b" ".join(f)
    return err, ans


IN_USE = re.compile(r"selinuxfsd: memory: (\d+) bytes in use after the load")


def tcache_off():
    """Whether the server runs without glibc's per-thread caches."""
    try:
        with open("/proc/%d/environ" % SERVER, "rb") as f:
            env = f.read().split(b"\0")
    except OSError:
        return False
    return any(e.startswith(b"GLIBC_TUNABLES=") and
               b"glibc.malloc.tcache_count=0" in e for e in env)


def sanitized():
    """Whether the server runs on a sanitizer's allocator (its count of
    bytes in use knows no per-thread caches)."""
    try:
        with open("/proc/%d/maps" % SERVER) as f:
            maps = f.read()
    except OSError:
        return False
    return "libasan" in maps or "libtsan" in maps


def in_use_settled(policy):
    """The bytes the server has allocated (mallinfo2's, or a sanitizer's
    count), once idle with POLICY just loaded: what the server logs after
    each load (-v, which with-server.sh passes; read through
    /proc/PID/fd/2, its log file).  Loaded until two loads in a row
    report the same: a RELEASE the kernel queued for a file a worker
    closed (or a SIGKILLed child left) may still be coming, and frees
    its handle (up to 16 MiB, a load's pieces) when it does."""
    last = None
    for _ in range(40):
        if write("load", policy) is not None:
            return None
        log = "/proc/%d/fd/2" % SERVER
        if not stat.S_ISREG(os.stat(log).st_mode):
            return None  # a pipe or a terminal: nothing to read back
        with open(log, "rb") as f:
            got = IN_USE.findall(f.read().decode(errors="replace"))
        now = int(got[-1]) if got else None
        if now is not None and now == last:
            return now
        last = now
        time.sleep(0.05)
    return last


def vmrss(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def alive():
    try:
        os.kill(SERVER, 0)
    except OSError:
        return False
    try:
        with open("/proc/%d/stat" % SERVER) as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


# ------------------------------------------------------------ the queries
SUBJ = ["system_u:system_r:kernel_t", "system_u:system_r:init_t",
        "system_u:system_r:sshd_t", "user_u:user_r:user_t",
        "staff_u:staff_r:staff_t", "staff_u:sysadm_r:sysadm_t",
        "unconfined_u:unconfined_r:unconfined_t"]
OBJ = ["system_u:object_r:etc_t", "system_u:object_r:shadow_t",
       "user_u:object_r:user_home_t", "user_u:object_r:user_tmp_t",
       "system_u:object_r:tmp_t", "system_u:object_r:devpts_t",
       "system_u:object_r:sshd_exec_t", "system_u:object_r:sudo_exec_t",
       "system_u:object_r:user_home_dir_t", "system_u:object_r:var_run_t"]


def queries(cls):
    q = []
    for s in SUBJ:
        for o in OBJ:
            for c in ("file", "dir", "chr_file"):
                q.append(("access", "%s %s %d" % (s, o, cls[c])))
        for t in SUBJ:
            q.append(("access", "%s %s %d 0" % (s, t, cls["process"])))
        for o in OBJ:
            for c in ("file", "dir", "process"):
                q.append(("create", "%s %s %d" % (s, o, cls[c])))
            q.append(("relabel", "%s %s %d" % (s, o, cls["chr_file"])))
            q.append(("member", "%s %s %d" % (s, o, cls["dir"])))
        q.append(("create", "%s system_u:object_r:tmp_t %d sshd.pid" %
                  (s, cls["file"])))
        q.append(("create", "%s system_u:object_r:tmp_t %d a+b%%2Fc" %
                  (s, cls["file"])))
        for u in ("system_u", "user_u", "staff_u", "root", "unconfined_u",
                  "nosuchuser"):
            q.append(("user", "%s %s" % (s, u)))
        q.append(("context", s))
    for c in ["system_u:object_r:etc_t\0", "system_u:object_r:nosuch_t",
              "user_u:staff_r:staff_t", "a:b", "system_u:object_r:etc_t:s0",
              "root:sysadm_r:sysadm_t"]:
        q.append(("context", c))
    # malformed but well-formed requests: their errors are answers too
    q.append(("access", "system_u:system_r:kernel_t"))
    q.append(("access", "x y z"))
    q.append(("create", "%s %s -3" % (SUBJ[0], OBJ[0])))
    q.append(("create", "%s %s %d a%%zz" % (SUBJ[0], OBJ[0], cls["file"])))
    return [(t, r.encode()) for t, r in q]


def class_record():
    rec = {}
    for c in sorted(os.listdir(path("class"))):
        perms = {p: read("class/%s/perms/%s" % (c, p))
                 for p in os.listdir(path("class/%s/perms" % c))}
        rec[c] = (read("class/%s/index" % c), perms)
    return rec


def setbools(v):
    for b in BOOLS:
        if write("booleans/" + b, b"%d" % v) is not None:
            return False
    return write("commit_pending_bools", b"1") is None


# ------------------------------------------------- shared load counters
# One page shared by every process: the loader's counts of loads started
# and finished (it alone writes them), read by the class readers.  Each
# count is one aligned 64-bit word, read and written whole through a
# memoryview: struct.pack_into does not store a number in one write, and a
# reader caught in the middle saw "started" as 0.
SHM = mmap.mmap(-1, 4096)
COUNTS = memoryview(SHM).cast("Q")


def load_counts():
    return COUNTS[0], COUNTS[1]


def load_mark(started, finished):
    """Adds to the counts (one loader at a time writes them)."""
    if started:
        COUNTS[0] += started
    if finished:
        COUNTS[1] += finished


# ------------------------------------------------------------- workers
class Worker:
    def __init__(self, name, rounds, deadline):
        self.name, self.rounds, self.deadline = name, rounds, deadline
        self.ops = 0
        self.tolerated = 0
        self.errors = []

    def bad(self, msg):
        if len(self.errors) < 5:
            self.errors.append(msg)


def w_tx(w, ctx):
    rng = random.Random(w.name)
    q = list(ctx["queries"])
    for _ in range(w.rounds):
        if time.monotonic() > w.deadline:
            break
        rng.shuffle(q)
        for tx, req in q:
            got = norm(tx, transact(tx, req))
            w.ops += 1
            if got not in ctx["want"][(tx, req)]:
                w.bad("%s %r: %r, expected one of %r" %
                      (tx, req, got, ctx["want"][(tx, req)]))


def class_op(w, fn, what):
    """fn() under the one tolerance: ENOENT/EINVAL while a load ran."""
    _, fin0 = load_counts()
    try:
        return fn()
    except OSError as e:
        start1, _ = load_counts()
        if e.errno in (errno.ENOENT, errno.EINVAL) and start1 > fin0:
            w.tolerated += 1
            return None
        w.bad("%s: %s (loads started %d, finished before %d)" %
              (what, e, start1, fin0))
        return None


def listing(d):
    """The names of directory d; an empty listing is the ENOENT it hides:
    a getdents that fails with ENOENT (the directory went away since the
    open) ends readdir(3) as at the end of the directory."""
    names = sorted(os.listdir(path(d)))
    if not names:
        raise OSError(errno.ENOENT, "empty listing", d)
    return names


def w_class(w, ctx):
    rng = random.Random(w.name)
    rec = ctx["classes"]
    names = sorted(rec)
    for _ in range(w.rounds):
        if time.monotonic() > w.deadline:
            break
        got = class_op(w, lambda: sorted(os.listdir(path("class"))), "ls")
        w.ops += 1
        if got is not None and got != names:
            w.bad("class/ lists %r" % got)
        for c in rng.sample(names, 6):
            v = class_op(w, lambda: read("class/%s/index" % c), c)
            w.ops += 1
            if v is not None and v != rec[c][0]:
                w.bad("class/%s/index %r, expected %r" % (c, v, rec[c][0]))
            ps = class_op(w, lambda: listing("class/%s/perms" % c),
                          c + "/perms")
            if ps is not None and ps != sorted(rec[c][1]):
                w.bad("class/%s/perms lists %r" % (c, ps))
            for p in rng.sample(sorted(rec[c][1]), min(3, len(rec[c][1]))):
                v = class_op(w, lambda: read("class/%s/perms/%s" % (c, p)),
                             c + "/" + p)
                w.ops += 1
                if v is not None and v != rec[c][1][p]:
                    w.bad("class/%s/perms/%s %r, expected %r" %
                          (c, p, v, rec[c][1][p]))


def w_bools(w, ctx):
    rng = random.Random(w.name)
    for _ in range(w.rounds):
        if time.monotonic() > w.deadline:
            break
        for b in BOOLS:
            _, fin0 = load_counts()
            e = write("booleans/" + b, b"%d" % rng.randrange(2))
            start1, _ = load_counts()
            w.ops += 1
            if e in (errno.ENOENT, errno.EINVAL) and start1 > fin0:
                w.tolerated += 1
            elif e is not None:
                w.bad("booleans/%s: errno %d" % (b, e))
        e = write("commit_pending_bools", b"1")
        w.ops += 1
        if e is not None:
            w.bad("commit_pending_bools: errno %d" % e)
        v = class_op(w, lambda: read("booleans/" + BOOLS[0]), "bool read")
        if v is not None and v not in (b"0 0", b"0 1", b"1 0", b"1 1"):
            w.bad("booleans/%s reads %r" % (BOOLS[0], v))


def w_enforce(w, ctx):
    for i in range(w.rounds):
        if time.monotonic() > w.deadline:
            break
        e = write("enforce", b"%d" % (i & 1))
        v = read("enforce")
        w.ops += 2
        if e is not None or v not in (b"0", b"1"):
            w.bad("enforce: write errno %s, reads %r" % (e, v))
        st = os.open(path("status"), os.O_RDONLY)
        try:
            m = mmap.mmap(st, 0, mmap.MAP_SHARED, mmap.PROT_READ)
            version = struct.unpack_from("<I", m, 0)[0]
            m.close()
        finally:
            os.close(st)
        if version != 1:
            w.bad("status version %d" % version)


def w_load(w, ctx):
    policy = ctx["policy"]
    for i in range(w.rounds):
        if time.monotonic() > w.deadline:
            break
        load_mark(1, 0)
        e = write("load", policy)
        load_mark(0, 1)
        w.ops += 1
        if e is not None:
            w.bad("load of the same policy: errno %d" % e)
        time.sleep(0.02)


def child(fn):
    """Runs fn in a child process; returns its pid."""
    pid = os.fork()
    if pid == 0:
        try:
            fn()
        finally:
            os._exit(0)
    return pid


def killed_mid(fn, delay):
    """A child that runs fn, SIGKILLed after delay seconds (or at its
    own pause): the server sees its files closed halfway."""
    pid = child(fn)
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def expect_errno(w, what, got, allowed):
    """A hostile request's errno must be one the server gives, not a dead
    server's."""
    w.ops += 1
    if got in DEAD:
        w.bad("%s: the server is gone (errno %d)" % (what, got))
    elif got not in allowed:
        w.bad("%s: errno %r, expected one of %r" % (what, got, allowed))


def hostile_write(w, f, data, allowed):
    """A hostile write to plain file f: an errno of allowed, or the stale
    boolean of a concurrent load."""
    _, fin0 = load_counts()
    e = write(f, data)
    start1, _ = load_counts()
    if f.startswith("booleans/") and start1 > fin0 and \
            e in (errno.ENOENT, errno.EINVAL):
        w.tolerated += 1
        w.ops += 1
        return
    expect_errno(w, "%s %r (%d bytes)" % (f, data[:10], len(data)), e,
                 allowed)


def w_hostile(w, ctx):
    rng = random.Random(w.name)
    q = ctx["queries"]
    want = ctx["want"]
    txs = ["access", "create", "relabel", "member", "user", "context"]
    plain = ["enforce", "commit_pending_bools", "checkreqprot",
             "validatetrans", "avc/cache_threshold", "null"] + \
        ["booleans/" + b for b in BOOLS]
    E = errno
    for _ in range(w.rounds):
        if time.monotonic() > w.deadline:
            break
        act = rng.randrange(14)
        if act == 0:  # garbage to every transaction file
            for tx in txs:
                data = bytes(rng.randrange(256)
                             for _ in range(rng.randrange(1, 400)))
                e, _ = transact(tx, data)
                expect_errno(w, tx + " garbage", e,
                             (None, E.EINVAL, E.ERANGE))
        elif act == 1:  # oversized: a page, 64 KiB, beyond max_write
            tx = rng.choice(txs)
            for n in (4095, 4096, 4097, 65536, (1 << 20) + 4096):
                e, _ = transact(tx, q[0][1] + b" " * n)
                expect_errno(w, "%s %d bytes" % (tx, n), e, (E.EFBIG,))
            n = rng.choice((4096, 70000))
            for f in plain:
                hostile_write(w, f, b"1" * n,
                              (None,) if f == "null" else (E.ENOMEM,))
        elif act == 2:  # partial requests, and a request in two writes
            tx, req = rng.choice(q)
            cut = rng.randrange(1, len(req))
            fd = os.open(path(tx), os.O_RDWR)
            try:
                try:
                    os.write(fd, req[:cut])
                    e = None
                except OSError as x:
                    e = x.errno
                if e in DEAD:
                    w.bad("partial write: server gone")
                if e is None:
                    try:
                        os.write(fd, req[cut:])
                        e2 = None
                    except OSError as x:
                        e2 = x.errno
                    expect_errno(w, "second write", e2, (E.EBUSY,))
                os.read(fd, 100)
            finally:
                os.close(fd)
        elif act == 3:  # writes at an offset; reads before and after
            tx, req = rng.choice(q)
            fd = os.open(path(tx), os.O_RDWR)
            try:
                if os.read(fd, 64) != b"":
                    w.bad("%s: read before any write is not empty" % tx)
                off = rng.choice((1, 4096, 1 << 40))
                try:
                    os.pwrite(fd, req, off)
                    e = None
                except OSError as x:
                    e = x.errno
                # an error is right where the record has it
                got = (e, b"") if e is not None else norm(
                    tx, (None, os.pread(fd, 65536, off + len(req))))
                if got not in want[(tx, req)]:
                    w.bad("%s %r at offset %d: %r" % (tx, req, off, got))
                w.ops += 1
            finally:
                os.close(fd)
        elif act == 4:  # several opens of one file at once
            tx = rng.choice(txs)
            mine = [r for t, r in q if t == tx]
            fds = [os.open(path(tx), os.O_RDWR) for _ in range(8)]
            reqs = [rng.choice(mine) for _ in fds]
            errs = [None] * len(fds)
            try:
                order = list(range(len(fds)))
                rng.shuffle(order)
                for i in order:
                    try:
                        os.write(fds[i], reqs[i])
                    except OSError as x:
                        errs[i] = x.errno
                rng.shuffle(order)
                for i in order:
                    ans = os.read(fds[i], 65536)
                    got = norm(tx, (errs[i], ans))
                    w.ops += 1
                    if got not in want[(tx, reqs[i])]:
                        w.bad("concurrent %s %r: %r" % (tx, reqs[i], got))
            finally:
                for fd in fds:
                    os.close(fd)
        elif act == 5:  # killed between the write and the read
            tx, req = rng.choice(q)

            def mid():
                fd = os.open(path(tx), os.O_RDWR)
                os.write(fd, req)
                os.kill(os.getpid(), signal.SIGKILL)
            killed_mid(mid, 0.05)
            w.ops += 1
        elif act == 6:  # killed in the middle of a huge write / a load
            big = rng.choice(("context", "load"))
            size = rng.choice((3 << 20, 8 << 20))

            def huge():
                fd = os.open(path(big), os.O_WRONLY)
                try:
                    os.write(fd, b"\x8c\xff\x7c\xf9" + bytes(size))
                except OSError:
                    pass
                time.sleep(10)
            killed_mid(huge, rng.choice((0.0, 0.005, 0.05)))
            w.ops += 1
        elif act == 7:  # a load of garbage, of half the policy
            pol = ctx["policy"]
            for data in (bytes(rng.randrange(256) for _ in range(3000)),
                         pol[:len(pol) // 2], b"\x8c\xff\x7c\xf9" * 2):
                e = write("load", data)
                expect_errno(w, "load garbage", e,
                             (E.EINVAL, E.ENOMEM, E.EFBIG))
        elif act == 8:  # bad boolean, enforce and commit values
            for f in ["enforce", "commit_pending_bools"] + \
                    ["booleans/" + b for b in BOOLS]:
                for v in (b"", b"zz", b"-", b"0x", b" \n", b"\0\0\0",
                          b"99999999999999999999999", b"1" * 4095,
                          b"x" * 5000):
                    hostile_write(w, f, v, (None, E.EINVAL, E.ENOMEM))
        elif act == 9:  # as an unprivileged user
            def nobody():
                os.setgroups([])
                os.setresgid(65534, 65534, 65534)
                os.setresuid(65534, 65534, 65534)
                for f in ["enforce", "booleans/" + BOOLS[0],
                          "commit_pending_bools", "load"]:
                    write(f, b"1")
                transact("access", q[0][1])
            pid = child(nobody)
            os.waitpid(pid, 0)
            w.ops += 1
        elif act == 10:  # opens without a read or a write; odd reads
            for tx in txs:
                fd = os.open(path(tx), os.O_RDWR)
                os.close(fd)
            for f in ("policy", "status", "class", "booleans"):
                n = rng.choice((1, 4096, 1 << 20))
                try:
                    with open(path(f), "rb") as fh:
                        fh.read(n)
                except OSError as x:
                    # policy: one open at a time (another worker's)
                    expect_errno(w, "read " + f, x.errno,
                                 (E.EBUSY,) if f == "policy" else
                                 (E.EISDIR,))
            w.ops += 1
        elif act == 11:  # root writes to status while it is mapped
            fd = os.open(path("status"), os.O_RDONLY)
            m = mmap.mmap(fd, 0, mmap.MAP_SHARED, mmap.PROT_READ)
            try:
                for data, off in ((b"\x01\0\0\0\x03\0\0\0", 0),
                                  (b"\xee" * 4, 4), (b"x" * 5000, 0)):
                    try:
                        wfd = os.open(path("status"), os.O_WRONLY)
                    except OSError as x:
                        expect_errno(w, "status open for writing", x.errno,
                                     (E.EACCES, E.EPERM))
                        continue
                    try:
                        os.pwrite(wfd, data, off)
                        e = None
                    except OSError as x:
                        e = x.errno
                    finally:
                        os.close(wfd)
                    expect_errno(w, "status write", e, (E.EINVAL,))
                    # what every mapper (the AVC of each process) sees
                    ver, seq, enf, _, du = struct.unpack_from("<5I", m, 0)
                    if ver != 1 or seq & 1 or enf > 1 or du != 1:
                        w.bad("a write to status shows in its mapping: "
                              "%r" % ((ver, seq, enf, du),))
            finally:
                m.close()
                os.close(fd)
        elif act == 12:  # anyone: status out of the cache, then mapped
            def evict_and_map():
                os.setgroups([])
                os.setresgid(65534, 65534, 65534)
                os.setresuid(65534, 65534, 65534)
                for _ in range(20):
                    fd = os.open(path("status"), os.O_RDONLY)
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                    m = mmap.mmap(fd, 0, mmap.MAP_SHARED, mmap.PROT_READ)
                    if struct.unpack_from("<I", m, 0)[0] != 1:
                        os._exit(3)
                    m.close()
                    os.close(fd)
            pid = child(evict_and_map)
            _, st = os.waitpid(pid, 0)
            w.ops += 1
            if st != 0:
                w.bad("status mapped by nobody: status %d" % st)
        else:  # an unknown name, a stale-looking path, a directory write
            for p in ("class/nosuch/index", "booleans/nosuch", "nosuch"):
                try:
                    read(p)
                    w.bad("%s exists" % p)
                except OSError as x:
                    expect_errno(w, p, x.errno, (E.ENOENT,))
            try:
                os.open(path("class"), os.O_WRONLY)
                w.bad("class/ opened for writing")
            except OSError as x:
                expect_errno(w, "class O_WRONLY", x.errno, (E.EISDIR,))


WORKERS = {"tx": w_tx, "class": w_class, "bools": w_bools,
           "enforce": w_enforce, "load": w_load, "hostile": w_hostile}


def spawn(kind, idx, rounds, deadline, ctx):
    """Forks a worker; returns (pid, read end of its report pipe)."""
    r, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        w = Worker("%s%d" % (kind, idx), rounds, deadline)
        code = 0
        try:
            WORKERS[kind](w, ctx)
        except BaseException as e:
            w.bad("%s: %r" % (kind, e))
        if w.errors:
            code = 1
        rep = {"name": w.name, "ops": w.ops, "tolerated": w.tolerated,
               "errors": w.errors}
        os.write(wr, json.dumps(rep).encode())
        os._exit(code)
    os.close(wr)
    return pid, r


def abort_server():
    """Aborts the server's FUSE connection (fusectl, mounted in a mount
    namespace of its own): what is stuck in it then ends."""
    conn = None
    with open("/proc/self/mountinfo") as f:
        for line in f:
            x = line.split()
            if x[4] == MNT:
                conn = x[2].split(":")[1]
    if conn is None:
        return
    subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                    "mount -t fusectl none /sys/fs/fuse/connections "
                    "2>/dev/null; echo 1 > /sys/fs/fuse/connections/%s/abort"
                    % conn], timeout=20)


def collect(procs, limit):
    """Waits for every worker; their reports.  A worker still running at
    limit means the server hangs: its connection is aborted."""
    reps = []
    for pid, r in procs:
        data = b""
        while True:
            left = limit - time.monotonic()
            if left <= 0:
                if not failures or "hangs" not in failures[-1]:
                    fail("workers still run %.0f s after the deadline: the "
                         "server hangs; its connection aborted" %
                         (time.monotonic() - limit + GRACE))
                    abort_server()
                break
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                continue
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
        os.close(r)
        if time.monotonic() >= limit:
            os.kill(pid, signal.SIGKILL)
        _, st = os.waitpid(pid, 0)
        rep = json.loads(data) if data else {"name": "pid %d" % pid,
                                               "ops": 0, "tolerated": 0,
                                               "errors": ["no report (hung "
                                                          "or crashed, "
                                                          "status %d)" % st]}
        reps.append(rep)
    return reps


MIX = [("tx", 4, 30), ("class", 2, 60), ("bools", 1, 400),
       ("enforce", 1, 600), ("load", 1, 60), ("hostile", 3, 300)]


def run_mix(ctx, fraction, deadline):
    procs = []
    for kind, n, rounds in MIX:
        for i in range(n):
            procs.append(spawn(kind, i, max(1, int(rounds * fraction)),
                               deadline, ctx))
    reps = collect(procs, deadline + GRACE)
    for rep in reps:
        for e in rep["errors"]:
            fail("%s: %s" % (rep["name"], e))
    return reps


def summary(label, reps, secs):
    by = {}
    for rep in reps:
        k = rep["name"].rstrip("0123456789")
        o, t = by.get(k, (0, 0))
        by[k] = (o + rep["ops"], t + rep["tolerated"])
    print("%s: %.1f s, %s" % (label, secs, ", ".join(
        "%s %d ops%s" % (k, o, " (%d tolerated)" % t if t else "")
        for k, (o, t) in sorted(by.items()))), flush=True)
    return by


def record(qs):
    """The single client's answers, booleans off then on: a list of one
    answer, or of two when it depends on them (off first)."""
    want = {}
    for v in (0, 1):
        if not setbools(v):
            fail("cannot set the booleans to %d" % v)
        for tx, req in qs:
            want.setdefault((tx, req), [])
            a = norm(tx, transact(tx, req))
            if a not in want[(tx, req)]:
                want[(tx, req)].append(a)
    write("load", open(POLICY, "rb").read())  # the policy's defaults again
    return want


def main_stress():
    cls = {c: int(read("class/%s/index" % c))
           for c in ("file", "dir", "process", "chr_file")}
    qs = queries(cls)
    want = record(qs)
    nbool = sum(1 for v in want.values() if len(v) == 2)
    nerr = sum(1 for v in want.values() if v[0][0] is not None)
    print("recorded %d queries (%d depend on a boolean, %d answer an "
          "error), %d classes" % (len(qs), nbool, nerr,
                                  len(os.listdir(path("class")))),
          flush=True)
    if not 2 <= nbool <= 40:
        fail("%d boolean-dependent answers: the record is wrong" % nbool)
    ctx = {"queries": qs, "want": want, "classes": class_record(),
           "policy": open(POLICY, "rb").read()}
    rss0 = vmrss(SERVER)
    t = time.monotonic()
    deadline = t + DEADLINE
    reps = run_mix(ctx, WARM_FRACTION, t + DEADLINE * WARM_FRACTION)
    summary("warm-up", reps, time.monotonic() - t)
    if not alive():
        fail("the server died")
        return
    rss1 = vmrss(SERVER)
    use1 = in_use_settled(ctx["policy"])
    t = time.monotonic()
    reps = run_mix(ctx, 1 - WARM_FRACTION, deadline)
    by = summary("run", reps, time.monotonic() - t)
    rss2 = vmrss(SERVER)
    use2 = in_use_settled(ctx["policy"])
    print("server VmRSS: %d KiB at the start, %d after the warm-up, %d at "
          "the end (%+d KiB)" % (rss0, rss1, rss2, rss2 - rss1), flush=True)
    print("server in use, settled: %s bytes after the warm-up, %s at the "
          "end" % (use1, use2), flush=True)
    ops = sum(o for o, _ in by.values())

    if not alive():
        fail("the server died")
        return
    if by.get("tx", (0, 0))[0] < len(qs) * 4:
        fail("too little work done in time: %r" % by)
    if use1 is None or use2 is None:
        fail("the server reports no bytes in use after a load (-v, its "
             "stderr a file: with-server.sh)")
    elif not tcache_off() and not sanitized():
        print("SKIP the bound on the bytes in use: the server runs with "
              "glibc's per-thread caches (GLIBC_TUNABLES)")
    else:
        print("the run: %d requests; a leak of more than %.2f bytes each "
              "passes the bound (%d bytes)" %
              (ops, IN_USE_SLACK / max(ops, 1), IN_USE_SLACK), flush=True)
        if use2 - use1 > IN_USE_SLACK:
            fail("the server holds %d bytes more after the run (bound %d)"
                 % (use2 - use1, IN_USE_SLACK))
    # the server still answers, and to one client exactly as before, for
    # each state of the booleans (a decision cached across a commit or a
    # load would show here)
    write("enforce", b"0")
    for v in (1, 0):
        setbools(v)
        wrong = [(tx, req) for tx, req in qs
                 if norm(tx, transact(tx, req)) != want[(tx, req)][-v]]
        if wrong:
            fail("after the run, booleans %d: %d answers differ, e.g. %r" %
                 (v, len(wrong), wrong[0]))
    if class_record() != ctx["classes"]:
        fail("after the run, class/ differs")
    if read("enforce") != b"0":
        fail("enforce does not read back")


def main_kill(avc_server_dies, cprobe, ours):
    cls = {c: int(read("class/%s/index" % c))
           for c in ("file", "dir", "process", "chr_file")}
    qs = queries(cls)
    want = record(qs)
    ctx = {"queries": qs, "want": want}
    deadline = time.monotonic() + 15
    procs = []
    # workers that fail only on a wrong answer or a hang: a dead server
    # must give ENOTCONN
    for i in range(4):
        r, wr = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            signal.alarm(20)
            rng = random.Random(i)
            n, err = 0, "none"
            code = 0
            while time.monotonic() < deadline:
                tx, req = rng.choice(qs)
                try:
                    got = norm(tx, transact(tx, req))
                except OSError as e:
                    err = errno.errorcode.get(e.errno, str(e.errno))
                    break
                n += 1
                if got[0] in DEAD:
                    err = errno.errorcode[got[0]]
                    break
                if got not in want[(tx, req)]:
                    err = "wrong answer %r to %r" % (got, req)
                    code = 1
                    break
            os.write(wr, json.dumps({"n": n, "err": err}).encode())
            os._exit(code)
        os.close(wr)
        procs.append((pid, r))
    time.sleep(0.5)
    t = time.monotonic()
    p = subprocess.run([avc_server_dies, MNT, str(SERVER)],
                       capture_output=True, text=True, timeout=60)
    sys.stdout.write(p.stdout)
    if p.returncode != 0:
        fail("avc_server_dies under load: status %d: %s" %
             (p.returncode, p.stderr.strip()))
    if alive():
        fail("the server survived SIGKILL")
    for pid, r in procs:
        data = b""
        end = time.monotonic() + 10
        while time.monotonic() < end:
            ready, _, _ = select.select([r], [], [], end - time.monotonic())
            if not ready:
                break
            chunk = os.read(r, 4096)
            if not chunk:
                break
            data += chunk
        os.close(r)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        _, st = os.waitpid(pid, 0)
        rep = json.loads(data) if data else None
        if rep is None:
            fail("a worker hung or crashed after the kill (status %d)" % st)
        elif rep["err"] not in [errno.errorcode[e] for e in DEAD]:
            fail("a worker ended with %s after %d answers, not ENOTCONN" %
                 (rep["err"], rep["n"]))
        else:
            print("worker: %d answers, then %s" % (rep["n"], rep["err"]))
    print("every worker ended %.1f s after the kill" %
          (time.monotonic() - t))
    # the compute layer on the dead server, through cprobe (linked with
    # Debian's library, run on ours): -1 and a clear errno, no hang
    if cprobe == "-":
        print("SKIP the compute calls: no cprobe in this build")
        return
    env = dict(os.environ, LD_LIBRARY_PATH=ours)
    try:
        p = subprocess.run([cprobe, "mnt", MNT,
                            "av1", "0", SUBJ[3], OBJ[4], "file", "0",
                            "create", SUBJ[3], OBJ[4], "file",
                            "user", SUBJ[2], "user_u",
                            "bget", BOOLS[0]],
                           capture_output=True, text=True, timeout=20,
                           env=env)
    except subprocess.TimeoutExpired:
        fail("cprobe hangs on a dead server")
        return
    lines = [x for x in p.stdout.splitlines() if " = " in x]
    print("the library on the dead server:\n  " + "\n  ".join(lines))
    if not lines or p.returncode != 0:
        fail("cprobe: status %d, %r %r" % (p.returncode, p.stdout,
                                           p.stderr))
    for x in lines:
        if not x.split(" = ")[1].startswith("-1 errno=ENOTCONN"):
            fail("on a dead server: %s (expected -1, ENOTCONN)" % x)


def main():
    if MODE == "stress":
        main_stress()
    elif MODE == "kill":
        main_kill(*sys.argv[3:6])
    else:
        sys.exit("usage: stress.py stress|kill POLICY ...")
    print("%d failures" % len(failures))
    sys.exit(1 if failures else 0)


main()
