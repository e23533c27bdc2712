#!/usr/bin/env python3
"""The security server (kernel/server/selinuxfsd) through its files only.

Run by tests/lib/with-server.sh, which mounts the server on $SELINUXFS_MNT
serving POLICY:

    server_test.py POLICY VARIANT FACTS

VARIANT is "mls" or "nonmls" (which lines of FACTS apply; FACTS is
kernel/policy/facts.txt, whose decisions were written by hand from the
policy source).  The expected bytes of every file are the Linux kernel's
selinuxfs formats, written here by hand from the kernel's documentation:
no expected value comes from the server.

Prints one line per check ("ok"/"FAIL") and exits 1 on any failure.
"""
import errno
import mmap
import os
import random
import re
import struct
import sys
import time

from sfs import MNT, path, read, write, transact, as_nobody

POLICY, VARIANT, FACTS = sys.argv[1], sys.argv[2], sys.argv[3]
failures = 0


def check(name, cond, detail=""):
    global failures
    if cond:
        print("ok   " + name)
    else:
        failures += 1
        print("FAIL " + name + (": " + detail if detail else ""))












def status():
    """The status page through mmap, as selinux_status_open maps it."""
    fd = os.open(path("status"), os.O_RDONLY)
    try:
        m = mmap.mmap(fd, 0, mmap.MAP_SHARED, mmap.PROT_READ)
        try:
            return struct.unpack("<5I", m[:20])
        finally:
            m.close()
    finally:
        os.close(fd)


AV_RE = re.compile(rb"^([0-9a-f]+) ffffffff ([0-9a-f]+) ([0-9a-f]+) "
                   rb"([0-9]+) ([0-9a-f]+)$")

# ---------------------------------------------------------------- layout
names = set(os.listdir(MNT))
for n in ["access", "avc", "booleans", "checkreqprot", "class",
          "commit_pending_bools", "context", "create", "deny_unknown",
          "enforce", "initial_contexts", "load", "member", "mls", "null",
          "policy", "policy_capabilities", "policyvers", "reject_unknown",
          "relabel", "status", "user", "validatetrans"]:
    check("layout:" + n, n in names)
modes = {"enforce": 0o644, "access": 0o666, "load": 0o600, "policy": 0o444,
         "commit_pending_bools": 0o200, "status": 0o444, "null": 0o666,
         "context": 0o666, "validatetrans": 0o666, "mls": 0o444}
for n, m in modes.items():
    got = os.stat(path(n)).st_mode & 0o7777
    check("mode:" + n, got == m, "%o" % got)

# ------------------------------------------------------------ plain files
check("policyvers", read("policyvers") == b"33", repr(read("policyvers")))
check("mls", read("mls") == (b"1" if VARIANT == "mls" else b"0"),
      repr(read("mls")))
check("deny_unknown", read("deny_unknown") in (b"0", b"1"))
check("reject_unknown", read("reject_unknown") in (b"0", b"1"))
check("checkreqprot", read("checkreqprot") in (b"0", b"1"))
check("policy:magic", read("policy")[:4] == struct.pack("<I", 0xf97cff8c))
check("null:read", read("null") == b"")
check("null:write", write("null", b"anything") is None)
check("initial_contexts:kernel ends in NUL",
      read("initial_contexts/kernel").endswith(b"\0") and
      read("initial_contexts/kernel").count(b"\0") == 1)
check("avc/cache_stats header",
      read("avc/cache_stats").split(b"\n")[0] ==
      b"lookups hits misses allocations reclaims frees")

# ---------------------------------------------------------------- enforce
st0 = status()
check("status:version", st0[0] == 1, str(st0))
check("status:even sequence", st0[1] % 2 == 0, str(st0))
check("enforce:initial", read("enforce") == b"0")
check("enforce:write 1", write("enforce", b"1") is None)
check("enforce:reads 1", read("enforce") == b"1")
st1 = status()
check("status:enforcing follows", st1[2] == 1 and st1[1] == st0[1] + 2,
      "%s -> %s" % (st0, st1))
check("enforce:write ' 0\\n'", write("enforce", b" 0\n") is None)
check("enforce:reads 0", read("enforce") == b"0")
check("enforce:7 is 1", write("enforce", b"7") is None and
      read("enforce") == b"1")
write("enforce", b"0")
check("enforce:garbage EINVAL", write("enforce", b"abc") == errno.EINVAL)
check("enforce:empty EINVAL", write("enforce", b"") in (None, errno.EINVAL))
check("enforce:offset EINVAL", write("enforce", b"1", 1) == errno.EINVAL)
check("enforce:page ENOMEM", write("enforce", b"1" * 4096) == errno.ENOMEM)
check("enforce:unchanged by bad writes", read("enforce") == b"0")
check("enforce:non-root EACCES",
      as_nobody(lambda: 0 if write("enforce", b"1") == errno.EACCES else 1)
      == 0)


def _open_errno(name):
    try:
        os.close(os.open(path(name), os.O_WRONLY))
        return None
    except OSError as e:
        return e.errno


check("load:non-root cannot open",
      as_nobody(lambda: 0 if _open_errno("load") == errno.EACCES else 1)
      == 0)

# ------------------------------------------------------------ class names
classes = {}
for c in os.listdir(path("class")):
    idx = int(read("class/%s/index" % c))
    perms = {p: int(read("class/%s/perms/%s" % (c, p)))
             for p in os.listdir(path("class/%s/perms" % c))}
    classes[c] = (idx, perms)
check("class:indexes distinct",
      len({v[0] for v in classes.values()}) == len(classes))
check("class:indexes 1..n",
      sorted(v[0] for v in classes.values()) == list(range(1, len(classes) + 1)))
check("class:perm values 1..32 distinct", all(
    len(set(p.values())) == len(p) and all(1 <= x <= 32 for x in p.values())
    for _, p in classes.values()))
check("class:file has read", "read" in classes.get("file", (0, {}))[1])


def cls(name):
    return classes[name][0]


def bits(c, perms):
    v = 0
    for p in perms:
        v |= 1 << (classes[c][1][p] - 1)
    return v


# ---------------------------------------------------------- transactions
def lvl(con):
    return con + ":s0" if VARIANT == "mls" and con.count(":") == 2 else con


kernel_con = read("initial_contexts/kernel").rstrip(b"\0").decode()
err, ans = transact("access", ("%s %s %d 0" % (kernel_con, kernel_con,
                                               cls("process"))).encode())
check("access:format", err is None and AV_RE.match(ans) is not None,
      repr((err, ans)))
check("access:garbage EINVAL", transact("access", b"x")[0] == errno.EINVAL)
check("access:3 fields accepted (6.1 ignores the permissions)",
      transact("access", ("%s %s 2" % (kernel_con, kernel_con)).encode())[0]
      is None)
check("access:bad context EINVAL",
      transact("access", b"a:b:c a:b:c 2 0")[0] == errno.EINVAL)
check("access:negative class EINVAL",
      transact("access", ("%s %s -1 0" % (kernel_con, kernel_con)).encode())
      [0] == errno.EINVAL)
check("access:4088 bytes EFBIG",
      transact("access", b"a" * 4088)[0] == errno.EFBIG)
err, ans = transact("access", ("%s %s 0 0" % (kernel_con, kernel_con))
                    .encode())
du = read("deny_unknown") == b"1"
m = AV_RE.match(ans) if err is None else None
check("access:class 0 follows handle_unknown",
      m is not None and m.group(1) == (b"0" if du else b"ffffffff"),
      repr((err, ans)))
err, ans = transact("access", ("%s %s 65000 0" % (kernel_con, kernel_con))
                    .encode())
m = AV_RE.match(ans) if err is None else None
check("access:unknown class allows nothing",
      m is not None and m.group(1) == b"0", repr((err, ans)))
fd = os.open(path("access"), os.O_RDWR)
check("access:read before write is empty", os.read(fd, 100) == b"")
os.write(fd, ("%s %s %d 0" % (kernel_con, kernel_con, cls("file"))).encode())
try:
    os.write(fd, b"again")
    busy = None
except OSError as e:
    busy = e.errno
os.close(fd)
check("access:second write EBUSY", busy == errno.EBUSY, str(busy))

if VARIANT == "mls":
    err, ans = transact("context", b"system_u:object_r:etc_t:s0:c0,c1,c2")
    check("context:canonical", (err, ans) ==
          (None, b"system_u:object_r:etc_t:s0:c0.c2\0"), repr((err, ans)))
    check("context:no level EINVAL",
          transact("context", b"system_u:object_r:etc_t")[0] == errno.EINVAL)
else:
    err, ans = transact("context", b"system_u:object_r:etc_t\0")
    check("context:trailing NUL", (err, ans) ==
          (None, b"system_u:object_r:etc_t\0"), repr((err, ans)))
    check("context:level EINVAL on non-MLS",
          transact("context", b"system_u:object_r:etc_t:s0")[0]
          == errno.EINVAL)
# The kernel's grammar (mls_context_to_sid): the field splits at its first
# '-'; after a level's ':' every ','-separated item must be a category or
# cX.cY with X below Y; anything else fails the whole context.  Written by
# hand from the grammar, for the bundled MLS policy (s0..s3, c0..c255).
if VARIANT == "mls":
    base = "system_u:object_r:etc_t:"
    for tail in ["s0-s3:c0.c255-s3", "s0-s3:c0-s3", "s0:c0-s3:c0-",
                 "s0-s3-s3", "s0--s3", "s0-", "-s0", "s0:", "s0:c0,",
                 "s0:,c0", "s0:c0,,c1", "s0:c0.", "s0:.c1", "s0:c0..c1",
                 "s0:c0.c1.c2", "s0:c1.c1", "s0:c1.c0", "s0:c0:c1", "",
                 "s0 ", "s3-s0", "s0:c0-s0"]:
        err, ans = transact("context", (base + tail).encode())
        check("context:kernel grammar refuses %r" % tail,
              err == errno.EINVAL, repr((err, ans)))
        if " " in tail or not tail:
            continue  # white space separates the access request's fields
        err, ans = transact("access", ("%s %s 2" % (base + tail, kernel_con))
                            .encode())
        check("access:kernel grammar refuses %r" % tail,
              err == errno.EINVAL, repr((err, ans)))
    for tail, want in [("s0:c1,c0", "s0:c0,c1"), ("s0-s3:c0.c255", None),
                       ("s0:c0,c0", "s0:c0"), ("s0-s0", "s0"),
                       ("s0\0-junk", "s0")]:
        err, ans = transact("context", (base + tail).encode()
                            .replace(b"\\0", b"\0"))
        check("context:kernel grammar takes %r" % tail,
              (err, ans) == (None, (base + (want or tail)).encode() + b"\0"),
              repr((err, ans)))
else:
    for tail in [":", ":s0", "::"]:
        check("context:no MLS field on non-MLS %r" % tail,
              transact("context", ("system_u:object_r:etc_t" + tail)
                       .encode())[0] == errno.EINVAL)
# A class number the policy does not define: the kernel still computes the
# default context (no class rules apply): an object takes object_r, the
# target's type and the source's low level; a member the target's user.
ncls = len(os.listdir(path("class")))
src, tgt = lvl("staff_u:staff_r:staff_t"), lvl("system_u:object_r:etc_t")
for c in [0, ncls + 1, 65535, 65536]:
    for tx, want in [("create", lvl("staff_u:object_r:etc_t")),
                     ("relabel", lvl("staff_u:object_r:etc_t")),
                     ("member", lvl("system_u:object_r:etc_t"))]:
        err, ans = transact(tx, ("%s %s %d" % (src, tgt, c)).encode())
        check("%s:class %d computes the default" % (tx, c),
              (err, ans) == (None, want.encode() + b"\0"), repr((err, ans)))
err = write("validatetrans", ("%s %s %d %s" % (tgt, tgt, ncls + 1, src))
            .encode())
check("validatetrans:class beyond the policy EINVAL", err == errno.EINVAL,
      str(err))
check("context:unknown type EINVAL",
      transact("context", lvl("system_u:object_r:no_such_t").encode())[0]
      == errno.EINVAL)
# (an empty write never reaches a FUSE server: no answer, as EINVAL gives)
check("context:empty gets no answer", transact("context", b"") in
      ((errno.EINVAL, b""), (None, b"")))
check("create:bad %-escape EINVAL",
      transact("create", ("%s %s %d a%%zz" % (kernel_con, kernel_con,
                                              cls("file"))).encode())[0]
      == errno.EINVAL)
check("user:unknown user EINVAL",
      transact("user", ("%s nosuchuser" % kernel_con).encode())[0]
      == errno.EINVAL)
# validatetrans file ( t1 == t2 or t2 != shadow_t or t3 == unconfined_domain )
# of kernel/policy/bundled.conf.in; the request: old new class task
ETC, SHADOW = lvl("system_u:object_r:etc_t"), lvl("system_u:object_r:shadow_t")
USER, KERN = lvl("user_u:user_r:user_t"), lvl("system_u:system_r:kernel_t")
for old, new, task, want in [(ETC, SHADOW, USER, errno.EPERM),
                             (ETC, SHADOW, KERN, None),
                             (SHADOW, SHADOW, USER, None),
                             (SHADOW, ETC, USER, None)]:
    got = write("validatetrans", ("%s %s %d %s" % (old, new, cls("file"),
                                                    task)).encode())
    check("validatetrans:%s->%s by %s" % (old, new, task), got == want,
          str(got))
check("validatetrans:garbage EINVAL", write("validatetrans", b"x y")
      == errno.EINVAL)

# ------------------------------------------------------------ the facts
def facts():
    for line in open(FACTS):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if f[0] not in ("all", VARIANT):
            continue
        if f[0] == "all" and VARIANT == "mls":
            f = f[:2] + [",".join(lvl(x) for x in y.split(","))
                         if ":" in y else y for y in f[2:]]
        yield f


def av(s, t, c):
    err, ans = transact("access", ("%s %s %d 0" % (s, t, cls(c))).encode())
    m = AV_RE.match(ans) if err is None else None
    if not m:
        return None
    return tuple(int(m.group(i), 16) for i in (1, 2, 3))


def con_of(tx, s, t, c, name=None):
    req = "%s %s %d" % (s, t, cls(c))
    if name:
        req += " " + name.replace("%", "%25").replace(" ", "+")
    err, ans = transact(tx, req.encode())
    return ans.rstrip(b"\0").decode() if err is None else "errno %d" % err


def setbool(name, value):
    write("booleans/" + name, str(value).encode())
    write("commit_pending_bools", b"1")


nfacts = 0
for f in facts():
    kind = f[1]
    nfacts += 1
    label = "fact:%s:%s" % (kind, " ".join(f[2:5]))
    if kind == "av":
        s, t, c, allowed, denied = f[2:7]
        r = av(s, t, c)
        want = bits(c, [] if allowed == "-" else allowed.split())
        deny = bits(c, [] if denied == "-" else denied.split())
        check(label, r is not None and r[0] & want == want and
              r[0] & deny == 0, "allowed %s" % (hex(r[0]) if r else r))
    elif kind == "auditallow":
        s, t, c, perms = f[2:6]
        r = av(s, t, c)
        want = bits(c, perms.split())
        check(label, r is not None and r[1] & want == want, str(r))
    elif kind == "dontaudit":
        s, t, c, perms = f[2:6]
        r = av(s, t, c)
        want = bits(c, perms.split())
        check(label, r is not None and r[2] & want == 0, str(r))
    elif kind in ("create", "member", "relabel"):
        if kind == "create":
            s, t, c, name, want = f[2:7]
            got = con_of("create", s, t, c, None if name == "-" else name)
        else:
            s, t, c, want = f[2:6]
            got = con_of(kind, s, t, c)
        check(label, got == want, "%s, expected %s" % (got, want))
    elif kind == "user":
        s, user, want = f[2:5]
        err, ans = transact("user", ("%s %s" % (s, user)).encode())
        parts = ans.split(b"\0") if err is None else []
        got = ",".join(p.decode() for p in parts[1:] if p) or "-"
        count_ok = bool(parts) and parts[0] == str(
            0 if want == "-" else len(want.split(","))).encode()
        check(label, got == want and count_ok,
              "%r, expected %s" % (ans, want))
    elif kind == "setbool":
        setbool(f[2], f[3])
    else:
        check(label, False, "unknown kind of fact")
check("facts:some applied", nfacts >= 10, str(nfacts))

# -------------------------------------------------------------- booleans
bools = sorted(os.listdir(path("booleans")))
check("booleans:present", len(bools) > 0)
if bools:
    b = "booleans/" + bools[0]
    cur = read(b)
    check("booleans:format", re.match(rb"^[01] [01]$", cur) is not None,
          repr(cur))
    a = int(cur[:1])
    st_before = status()
    seq_before = av(kernel_con, kernel_con, "process")
    check("booleans:set pending", write(b, str(1 - a).encode()) is None and
          read(b) == ("%d %d" % (a, 1 - a)).encode(), repr(read(b)))
    check("booleans:garbage EINVAL", write(b, b"zz") == errno.EINVAL)
    check("booleans:non-root EACCES",
          as_nobody(lambda: 0 if write(b, b"1") == errno.EACCES else 1) == 0)
    check("booleans:commit", write("commit_pending_bools", b"1") is None and
          read(b) == ("%d %d" % (1 - a, 1 - a)).encode(), repr(read(b)))
    st_after = status()
    check("booleans:commit moves policyload",
          st_after[3] == st_before[3] + 1, "%s -> %s" % (st_before,
                                                        st_after))
    err, ans = transact("access", ("%s %s %d 0" % (
        kernel_con, kernel_con, cls("process"))).encode())
    m = AV_RE.match(ans)
    check("booleans:commit moves the access seqno",
          m is not None and int(m.group(4)) == st_after[3], repr(ans))
    write(b, str(a).encode())
    write("commit_pending_bools", b"1")
    check("booleans:commit garbage EINVAL",
          write("commit_pending_bools", b"q") == errno.EINVAL)

# ------------------------------------------------------------------ load
policy = open(POLICY, "rb").read()
st_before = status()
check("load:garbage EINVAL", write("load", b"\x8c\xff\x7c\xf9garbage")
      == errno.EINVAL)


def forged(nprim):
    """The policy with its first symbol table (commons) claiming nprim
    symbol numbers: the header, then two ebitmaps (policy capabilities,
    permissive types), then the table's nprim and nel."""
    off = 8 + struct.unpack_from("<I", policy, 4)[0] + 16
    for _ in range(2):
        off += 12 + 12 * struct.unpack_from("<I", policy, off + 8)[0]
    nel = struct.unpack_from("<I", policy, off + 4)[0]
    assert struct.unpack_from("<I", policy, off)[0] == nel
    return policy[:off] + struct.pack("<I", nprim) + policy[off + 4:]


# A forged symbol count: 2^31 numbers want gigabytes and then minutes
# (kernel/server/budget.h; tests/unit/server/load_budget.c has the time
# limit); the load fails with ENOMEM at once, the loaded policy stays.
t0 = time.monotonic()
err = write("load", forged(0x7ffffff0))
took = time.monotonic() - t0
check("load:forged symbol count ENOMEM", err == errno.ENOMEM and took < 20,
      "%s in %.1f s" % (err, took))
check("load:still the policy", read("mls") == (b"1" if VARIANT == "mls"
                                               else b"0"))
check("load:reload", write("load", policy) is None)
st_after = status()
check("load:policyload moves", st_after[3] == st_before[3] + 1,
      "%s -> %s" % (st_before, st_after))

# --------------------------------------------- anything, to every file
rng = random.Random(1234)
writable = ["enforce", "access", "create", "relabel", "member", "user",
            "context", "validatetrans", "checkreqprot",
            "commit_pending_bools", "null", "avc/cache_threshold"] + \
    ["booleans/" + x for x in bools[:3]]
crashed = False
for n in writable:
    for _ in range(150):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        if n in ("enforce", "commit_pending_bools", "checkreqprot") or \
                n.startswith("booleans/") or n.startswith("avc/"):
            # only bytes that are not numbers: the state must not change
            data = data.replace(b"-", b"").lstrip(b" \t\n\r\x0b\x0c")
            if not data or data[:1].isdigit():
                data = b"x" + data
        try:
            fd = os.open(path(n), os.O_RDWR if n != "commit_pending_bools"
                         else os.O_WRONLY)
        except OSError:
            crashed = True
            break
        try:
            os.write(fd, data)
        except OSError:
            pass
        os.close(fd)
check("garbage:server still answers", not crashed and
      read("enforce") == b"0", "enforce %r" % read("enforce"))
if bools:
    check("garbage:booleans unchanged",
          read("booleans/" + bools[0]) in (b"0 0", b"1 1"))

print("%d failures" % failures)
sys.exit(1 if failures else 0)
