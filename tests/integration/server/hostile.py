#!/usr/bin/env python3
"""The security server against the hostile clients of issue 29, each case
where it was weaker than the kernel it stands for.

Run by tests/lib/with-server.sh, which mounts the server on
$SELINUXFS_MNT serving POLICY (the bundled MLS policy) and exports
SELINUXFSD_PID:

    hostile.py POLICY BIGPOLICY [--no-rss]

BIGPOLICY is bigpolicy.py's policy, some 2.5 MB.  Sections:

policy: the kernel's "policy" file opens only for a caller its policy
  allows security:read_policy (EACCES otherwise; here root stands for
  such a caller, as for every privileged file), and for one open at a
  time (EBUSY).  Before, any user could open it and each open that read
  made the server write the whole policy out and keep that copy: 500
  handles held by nobody added 1 GiB to the server.  The image is made
  once per load or commit and shared: the server logs each one it makes
  (-v, which with-server.sh passes; read here through /proc/PID/fd/2),
  and 20 opens and reads after a load make one.  A reader keeps the
  bytes of its open across a load.

load: a policy of more than 1 MiB written in one write(2) from a buffer
  at offsets 0, 16, 48 and 4000 of a page-aligned 3 MiB buffer (FUSE cuts
  the write at the buffer's page boundaries, so that the first piece is
  shorter than 1 MiB when the buffer does not start a page): the write
  and the close succeed and the policy's last type is there; garbage as
  long fails with EINVAL from the write.  Before, every offset but 0
  failed with EINVAL.

sids: access requests naming 40,000 distinct contexts (MLS category
  sets of their own): the SIDs the server holds (ss/sidtab_hash_stats)
  stay within its table's bound, SRV_SID_CAP (16384, kernel/server/
  policy.c) besides the initial SIDs (at most 27) and the 2 of a request
  (the count, unlike the memory, does not depend on the machine; the
  memory of 10^6 contexts is sid_bound.c's); a context asked for all
  along and the first one named (reclaimed since) answer as at first.
  Before, every context stayed (and ss/sidtab_hash_stats counted cached
  decisions instead).

memory: 24 loads of BIGPOLICY, whole and cut short, from the four
  offsets, with a few readers between them, must leave the server's
  VmRSS, once settled with POLICY loaded again, less than RSS_BOUND_KIB
  above what it was settled before them.  What that guards against:
  memory freed but kept resident, a gathered policy (2.6 MB) or a loaded
  one's structures (some 10 MB); before kernel/server/mem.c's fixed
  thresholds and single arena, and fuse.c giving back the pages of a
  worker's buffer that a large write filled, 3-5 MiB stayed (10-20 MiB
  after 80 such loads).  What may stay: fragments of the small blocks
  (measured: -500 to +300 KiB).  --no-rss (a
  sanitized build, whose allocator keeps freed memory in quarantine)
  prints the figures without the bound.

Prints one line per check; exits 1 on any failure.
"""
import errno
import mmap
import os
import stat
import sys

from sfs import path, read, transact, as_nobody

SERVER = int(os.environ["SELINUXFSD_PID"])
POLICY, BIGPOLICY = sys.argv[1], sys.argv[2]
CHECK_RSS = "--no-rss" not in sys.argv[3:]
SID_CAP, INITIAL_MAX = 16384, 27
RSS_BOUND_KIB = 2048
ROUNDS = 3
failures = 0


def check(name, cond, detail=""):
    global failures
    if cond:
        print("ok   " + name, flush=True)
    else:
        failures += 1
        print("FAIL " + name + (": " + detail if detail else ""),
              flush=True)






def open_errno(name, flags=os.O_RDONLY):
    try:
        os.close(os.open(path(name), flags))
        return None
    except OSError as e:
        return e.errno




def load(data):
    """(errno of the write or None, count written, errno of close)."""
    fd = os.open(path("load"), os.O_RDWR)
    n, werr, cerr = 0, None, None
    try:
        n = os.write(fd, data)
    except OSError as e:
        werr = e.errno
    try:
        os.close(fd)
    except OSError as e:
        cerr = e.errno
    return werr, n, cerr




def server_log():
    """The server's log so far (its stderr, a file with-server.sh made)."""
    log = "/proc/%d/fd/2" % SERVER
    if not stat.S_ISREG(os.stat(log).st_mode):
        sys.exit("hostile.py: the server's stderr is no file "
                 "(with-server.sh makes it one)")
    with open(log, "rb") as f:
        return f.read().decode(errors="replace")


def images_made():
    return server_log().count("policy: image of ")


# ------------------------------------------------------------- policy
def section_policy():
    pol = open(POLICY, "rb").read()
    check("policy: reload", load(pol) == (None, len(pol), None))
    made = images_made()
    code = as_nobody(lambda: 0 if open_errno("policy") == errno.EACCES
                     else 1)
    check("policy: nobody cannot open it (EACCES)", code == 0,
          "child status %d" % code)
    code = as_nobody(lambda: 0 if open_errno("access", os.O_RDWR) is None
                     else 1)
    check("policy: nobody still opens access", code == 0)

    first = os.open(path("policy"), os.O_RDONLY)
    try:
        check("policy: a second open is EBUSY",
              open_errno("policy") == errno.EBUSY)
        head = os.read(first, 4096)
    finally:
        os.close(first)
    check("policy: open again once closed", open_errno("policy") is None)
    # FUSE releases a closed file after close(2) returns: an open right
    # after a close must wait for that release, not fail (fuse.c)
    busy = sum(open_errno("policy") is not None for _ in range(200))
    check("policy: 200 opens, each right after the close of the one "
          "before, none EBUSY", busy == 0, "%d failed" % busy)

    whole = [read("policy") for _ in range(20)]
    check("policy: 23 opens after a load make one image",
          images_made() - made == 1,
          "%d made" % (images_made() - made))
    check("policy: every read the same bytes",
          all(w == whole[0] for w in whole) and whole[0][:4096] == head)
    check("policy: the loaded policy's magic",
          whole[0][:4] == bytes.fromhex("8cff7cf9"))

    # a reader's bytes are its open's, a load or a commit in between
    fd = os.open(path("policy"), os.O_RDONLY)
    try:
        part = os.read(fd, 4096)
        big = open(BIGPOLICY, "rb").read()
        check("policy: a load while it is open", load(big)[0] is None)
        rest = b""
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            rest += chunk
    finally:
        os.close(fd)
    check("policy: the open's bytes across a load", part + rest == whole[0],
          "%d bytes, expected %d" % (len(part + rest), len(whole[0])))
    now = read("policy")
    check("policy: a new open has the new policy",
          len(now) > len(whole[0]) + (1 << 20), "%d bytes" % len(now))
    # a commit changes the booleans the image holds: made again
    made = images_made()
    b = "booleans/allow_user_exec_tmp"
    v = read(b).split()[0]
    with open(path(b), "wb") as f:
        f.write(b"0" if v == b"1" else b"1")
    with open(path("commit_pending_bools"), "wb") as f:
        f.write(b"1")
    after = read("policy")
    check("policy: a commit makes the image again",
          images_made() - made == 1 and after != now and
          len(after) == len(now))
    check("policy: back to the test's policy",
          load(pol) == (None, len(pol), None))


# --------------------------------------------------------------- load
def section_load():
    big = open(BIGPOLICY, "rb").read()
    pol = open(POLICY, "rb").read()
    n = int(big.split(b"big_")[-1][:5]) if b"big_" in big else -1
    last = "system_u:object_r:big_%05d_%s" % (
        n, "p" * 44) if n >= 0 else "?"
    check("load: the big policy is over 2 MiB", len(big) > (2 << 20),
          "%d bytes" % len(big))
    buf = mmap.mmap(-1, 3 << 20)
    for off in (0, 16, 48, 4000):
        buf[off:off + len(big)] = big
        werr, count, cerr = load(memoryview(buf)[off:off + len(big)])
        check("load: from offset %d: write and close" % off,
              (werr, count, cerr) == (None, len(big), None),
              "write errno %s, %d of %d bytes, close errno %s" %
              (werr, count, len(big), cerr))
        err, ans = transact("context", last.encode())
        check("load: from offset %d: its last type" % off,
              (err, ans) == (None, last.encode() + b"\0"),
              repr((err, ans[:60])))
        check("load: from offset %d: the test's policy again" % off,
              load(pol) == (None, len(pol), None) and
              transact("context", last.encode())[0] == errno.EINVAL)
    junk = bytes(range(256)) * (len(big) // 256)
    buf[16:16 + len(junk)] = junk
    werr, count, cerr = load(memoryview(buf)[16:16 + len(junk)])
    check("load: garbage as long, from offset 16: EINVAL from the write",
          werr == errno.EINVAL and count == 0, repr((werr, count, cerr)))
    junk = b"\x8c\xff\x7c\xf9" + bytes(len(big))
    buf[48:48 + len(junk)] = junk
    werr, count, cerr = load(memoryview(buf)[48:48 + len(junk)])
    check("load: a bad header, from offset 48: EINVAL from the write",
          werr == errno.EINVAL and count == 0, repr((werr, count, cerr)))
    # a right header, the body cut: the error is known at the last piece,
    # after two were taken; write(2) returns their count (the kernel,
    # which reads the write whole, returns EINVAL)
    cut = big[:len(big) - 100000]
    buf[16:16 + len(cut)] = cut
    werr, count, cerr = load(memoryview(buf)[16:16 + len(cut)])
    check("load: a policy cut short, from offset 16: the write fails",
          werr == errno.EINVAL or (werr is None and count < len(cut)),
          repr((werr, count, cerr)))
    buf.close()
    check("load: the test's policy stayed",
          read("mls") == b"1" and transact("context", last.encode())[0] ==
          errno.EINVAL)


# --------------------------------------------------------------- sids
def target(i):
    """The context of request i: bit k of i names category 37k mod 256."""
    cats = sorted({(37 * k) % 256 for k in range(32) if i >> k & 1})
    return "system_u:object_r:etc_t:s0" + (
        ":" + ",".join("c%d" % c for c in cats) if cats else "")


def sid_entries():
    text = read("ss/sidtab_hash_stats").decode()
    first = text.split("\n")[0]
    return int(first.split()[1]) if first.startswith("entries: ") else -1


def section_sids():
    cls = int(read("class/file/index"))
    src = "system_u:system_r:init_t:s0-s3:c0.c255"
    hot = ("%s system_u:object_r:etc_t:s0:c1,c7 %d" % (src, cls)).encode()
    hot0 = transact("access", hot)
    first = ("%s %s %d" % (src, target(1), cls)).encode()
    first0 = transact("access", first)
    check("sids: the first answers", hot0[0] is None and first0[0] is None,
          repr((hot0, first0)))
    bound = SID_CAP + INITIAL_MAX + 2
    peak, bad, n = 0, 0, 40000
    for i in range(1, n + 1):
        err, _ = transact("access", ("%s %s %d" % (src, target(i), cls))
                          .encode())
        if err is not None:
            bad += 1
        if i % 64 == 0 and transact("access", hot) != hot0:
            bad += 1
        if i % 1000 == 0:
            e = sid_entries()
            peak = max(peak, e)
            if e > bound:
                break
    check("sids: %d contexts answered, the hot one alike" % n, bad == 0,
          "%d wrong" % bad)
    check("sids: at most %d SIDs held" % bound, 0 < peak <= bound,
          "%d held" % peak)
    print("sids: most held %d" % peak)
    check("sids: the first context again", transact("access", first) ==
          first0)
    err, ans = transact("context", target(12345).encode())
    check("sids: context round trip after reclaims",
          (err, ans) == (None, target(12345).encode() + b"\0"))


# ------------------------------------------------------------- memory
def vmrss():
    with open("/proc/%d/status" % SERVER) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def section_memory():
    pol = open(POLICY, "rb").read()
    big = open(BIGPOLICY, "rb").read()
    cut = big[:len(big) - 100000]
    load(pol)
    rss0 = vmrss()
    buf = mmap.mmap(-1, 3 << 20)
    ok = True
    for _ in range(ROUNDS):
        for off in (0, 16, 48, 4000):
            buf[off:off + len(big)] = big
            ok = ok and load(memoryview(buf)[off:off + len(big)])[0] is None
            buf[off:off + len(cut)] = cut
            load(memoryview(buf)[off:off + len(cut)])
        for _ in range(3):
            read("policy")
            read("enforce")
    buf.close()
    check("memory: %d loads of the big policy" % (4 * ROUNDS), ok)
    load(pol)
    rss1 = vmrss()
    print("memory: VmRSS %d KiB settled, %d after %d big loads (%+d)" %
          (rss0, rss1, 8 * ROUNDS, rss1 - rss0), flush=True)
    if CHECK_RSS:
        check("memory: VmRSS back within %d KiB" % RSS_BOUND_KIB,
              rss1 - rss0 < RSS_BOUND_KIB, "%+d KiB" % (rss1 - rss0))


section_policy()
section_load()
section_sids()
section_memory()
print("%d failures" % failures)
sys.exit(1 if failures else 0)
