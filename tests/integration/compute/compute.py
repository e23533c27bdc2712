#!/usr/bin/env python3
"""The compute layer against kernel/'s security server (selinuxfsd).

Run under tests/lib/with-server.sh, which mounts the server and exports
SELINUXFS_MNT.  cprobe is linked against the system's libselinux.so.1:
run as is it is Debian's library; with LD_LIBRARY_PATH=OURS it is ours.

  compute.py diff CPROBE OURS POLICY_CONF|refpolicy [FACTS]
      every (source, target, class) of the policy's contexts, both
      libraries, outputs compared line by line
  compute.py facts CPROBE OURS FACTS nonmls|mls
      the hand-written decisions of kernel/policy/facts.txt, our library
  compute.py bad CPROBE OURS
      bad input to every entry point: errors, no crash, server still up
"""
import os
import re
import subprocess
import sys
import tempfile

MNT = os.environ.get("SELINUXFS_MNT")


def probe(cprobe, ours, args, input_file=None):
    env = dict(os.environ)
    if ours:
        env["LD_LIBRARY_PATH"] = ours
    else:
        env.pop("LD_LIBRARY_PATH", None)
    r = subprocess.run([cprobe, "mnt", MNT] + args, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=600)
    return r.returncode, r.stdout, r.stderr


# -- the policy's contexts ---------------------------------------------------

def facts_lines(path, variant):
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if f[0] in ("all", variant):
            yield f


def mls_con(con, variant, kind_all):
    if variant == "mls" and kind_all and con not in ("-",):
        return con + ":s0"
    return con


def policy_contexts(conf, facts, variant):
    """Sources: the fact contexts; targets: those and every type as an
    object (system_u:object_r:TYPE)."""
    sources, targets = [], []
    ctx = re.compile(r"^[a-z_]+:[a-z_]+:[a-z_]+")
    for f in facts_lines(facts, variant):
        for c in f[2:]:
            for one in c.split(","):
                if ctx.match(one):
                    one = mls_con(one, variant, f[0] == "all")
                    if one not in sources:
                        sources.append(one)
    for line in open(conf):
        m = re.match(r"^type\s+([a-z0-9_]+)", line)
        if m:
            t = "system_u:object_r:" + m.group(1)
            if variant == "mls":
                t += ":s0"
            targets.append(t)
    return sources, sources + [t for t in targets if t not in sources]


REFPOLICY_DOMAINS = [
    "system_u:system_r:init_t:s0", "system_u:system_r:kernel_t:s0",
    "system_u:system_r:sshd_t:s0-s0:c0.c1023",
    "unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023",
    "user_u:user_r:user_t:s0", "staff_u:staff_r:staff_t:s0",
    "staff_u:sysadm_r:sysadm_t:s0", "system_u:system_r:syslogd_t:s0",
    "system_u:system_r:crond_t:s0", "system_u:system_r:getty_t:s0",
    "system_u:system_r:nonexistent_t:s0",
]
REFPOLICY_TYPES = [
    "etc_t", "shadow_t", "bin_t", "tmp_t", "user_home_t", "user_home_dir_t",
    "var_run_t", "var_log_t", "passwd_file_t", "sshd_exec_t", "devpts_t",
    "tty_device_t", "security_t", "proc_t", "sysfs_t", "lib_t", "usr_t",
    "root_t", "default_t", "unlabeled_t", "cron_spool_t", "syslogd_var_run_t",
]
REFPOLICY_CLASSES = [
    "file", "dir", "lnk_file", "chr_file", "sock_file", "fifo_file",
    "process", "security", "capability", "tcp_socket", "unix_stream_socket",
    "filesystem", "fd", "system", "netlink_selinux_socket", "key",
]


AV_SUBSET = ["file", "dir", "lnk_file", "chr_file", "sock_file", "process",
             "security", "capability", "tcp_socket", "filesystem", "fd",
             "nope"]


def batch_requests(sources, targets, classes, objclasses):
    """Every class for domain -> context pairs, a subset of classes for
    domain -> type pairs (the whole product takes minutes)."""
    lines = []
    domains = [s for s in sources if ":object_r:" not in s]
    subset = [c for c in AV_SUBSET if c in classes or c == "nope"]
    for s in domains:
        for t in targets:
            for c in (classes if t in sources else subset):
                lines.append("av1 2 %s %s %s ffffffff" % (s, t, c))
            for c in objclasses:
                for kind in ("create", "relabel", "member"):
                    lines.append("%s %s %s %s" % (kind, s, t, c))
            lines.append("create_name %s %s file sshd.pid" % (s, t))
    # the four av variants and the name lookups, for a smaller sample
    for s in domains[:4]:
        for t in targets[:8]:
            lines.append("av %s %s file ffffffff" % (s, t))
    for c in classes:
        lines.append("s2c %s" % c)
    lines.append("initial kernel")
    lines.append("initial unlabeled")
    lines.append("bools")
    for s in domains[:6]:
        for t in targets[:12]:
            lines.append("vt %s %s file %s" % (s, t, s))
            lines.append("vt %s %s file %s" % (t, s, s))
    return lines


def cmd_diff(cprobe, ours, conf, facts=None):
    classes = sorted(os.listdir(os.path.join(MNT, "class")))
    if conf == "refpolicy":
        sources = REFPOLICY_DOMAINS
        targets = ["system_u:object_r:%s:s0" % t for t in REFPOLICY_TYPES]
        targets += sources[:4]
        classes = [c for c in REFPOLICY_CLASSES if c in classes] + ["nope"]
        targets += sources
    else:
        variant = "mls" if "mls" in os.path.basename(conf) else "nonmls"
        sources, targets = policy_contexts(conf, facts, variant)
    objclasses = ["file", "dir", "process", "chr_file"]
    lines = batch_requests(sources, targets, classes, objclasses)
    with tempfile.NamedTemporaryFile("w", suffix=".batch",
                                     delete=False) as f:
        f.write("\n".join(lines) + "\n")
        name = f.name
    try:
        rc_ref, out_ref, err_ref = probe(cprobe, None, ["batch", name])
        rc_our, out_our, err_our = probe(cprobe, ours, ["batch", name])
    finally:
        os.unlink(name)
    print("%d requests, %d answer lines" % (len(lines),
                                             out_ref.count("\n")))
    ok = True
    if rc_ref or rc_our:
        print("FAIL: exit status ref=%d ours=%d" % (rc_ref, rc_our))
        ok = False
    a, b = out_ref.splitlines(), out_our.splitlines()
    diffs = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(a) != len(b):
        print("FAIL: %d lines from Debian's, %d from ours" % (len(a), len(b)))
        ok = False
    for i, x, y in diffs[:20]:
        print("line %d:\n  ref:  %s\n  ours: %s" % (i + 1, x, y))
    if diffs:
        print("FAIL: %d differing answers" % len(diffs))
        ok = False
    # a run that answered nothing proves nothing
    granted = sum(1 for x in a if re.search(r"\) = 0 [1-9a-f]", x))
    print("%d granted decisions among them" % granted)
    if granted == 0:
        print("FAIL: no decision granted anything")
        ok = False
    return ok


# -- facts.txt ---------------------------------------------------------------

def run_ours(cprobe, ours, args):
    rc, out, err = probe(cprobe, ours, args)
    if rc:
        raise RuntimeError("cprobe %s: exit %d %s" % (args, rc, err))
    return out


def perm_bits(cprobe, ours, cls, perms):
    args = []
    for p in perms:
        args += ["s2p", cls, p]
    out = run_ours(cprobe, ours, args)
    bits = {}
    for p, line in zip(perms, out.splitlines()):
        m = re.search(r"= ([0-9a-f]+) ", line)
        bits[p] = int(m.group(1), 16) if m else 0
    return bits


def decision(cprobe, ours, s, t, cls):
    out = run_ours(cprobe, ours, ["av1", "2", s, t, cls, "ffffffff"])
    m = re.search(r"\) = 0 ([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+) "
                  r"(\d+) ([0-9a-f]+)", out)
    if not m:
        raise RuntimeError("no decision: " + out.strip())
    return [int(x, 16) for x in m.group(1, 2, 3, 4)]


def new_con(out, fn):
    m = re.search(r"^%s = 0 con=\"([^\"]*)\"$" % fn, out, re.M)
    return m.group(1) if m else out.strip()


def check_fact(cprobe, ours, f, variant):
    kind = f[1]
    a = f[0] == "all"
    c = lambda x: mls_con(x, variant, a)
    if kind == "setbool":
        out = run_ours(cprobe, ours, ["bset", f[2], f[3], "commit"])
        return ("= -1" not in out), out.strip()
    if kind in ("av", "auditallow", "dontaudit"):
        s, t, cls = c(f[2]), c(f[3]), f[4]
        lists = [x.split() if x != "-" else [] for x in f[5:]]
        perms = sum(lists, [])
        bits = perm_bits(cprobe, ours, cls, perms)
        missing = [p for p in perms if not bits[p]]
        if missing:
            return False, "unknown permissions %s" % missing
        allowed, decided, auditallow, auditdeny = decision(cprobe, ours,
                                                           s, t, cls)
        bad = []
        if kind == "av":
            bad += ["%s not allowed" % p for p in lists[0]
                    if not allowed & bits[p]]
            bad += ["%s allowed" % p for p in lists[1] if allowed & bits[p]]
        elif kind == "auditallow":
            bad += ["%s not auditallow" % p for p in lists[0]
                    if not auditallow & bits[p]]
        else:
            bad += ["%s audited on denial" % p for p in lists[0]
                    if auditdeny & bits[p]]
        return not bad, "; ".join(bad) or "ok"
    if kind == "create":
        s, t, cls, name, want = c(f[2]), c(f[3]), f[4], f[5], c(f[6])
        if name == "-":
            out = run_ours(cprobe, ours, ["create", s, t, cls])
            got = new_con(out, "security_compute_create")
        else:
            out = run_ours(cprobe, ours, ["create_name", s, t, cls, name])
            got = new_con(out, "security_compute_create_name")
        return got == want, "got %s" % got
    if kind in ("member", "relabel"):
        s, t, cls, want = c(f[2]), c(f[3]), f[4], c(f[5])
        out = run_ours(cprobe, ours, [kind, s, t, cls])
        got = new_con(out, "security_compute_" + kind)
        return got == want, "got %s" % got
    if kind == "user":
        s, user = c(f[2]), f[3]
        want = [] if f[4] == "-" else [c(x) for x in f[4].split(",")]
        out = run_ours(cprobe, ours, ["user", s, user])
        lines = out.splitlines()
        if not lines or not lines[0].startswith("security_compute_user = 0"):
            return False, "got %s" % (lines[:1],)
        got = []
        for line in lines[1:]:
            if not line.startswith("  "):
                break
            got.append(line.strip())
        return got == want, "got %s" % got
    return False, "unknown kind %s" % kind


def cmd_facts(cprobe, ours, facts, variant):
    n = bad = 0
    for f in facts_lines(facts, variant):
        n += 1
        try:
            ok, why = check_fact(cprobe, ours, f, variant)
        except RuntimeError as e:
            ok, why = False, str(e)
        if not ok:
            bad += 1
            print("FAIL: %s\n      %s" % ("\t".join(f), why))
    print("%d facts of %s, %d failed" % (n, variant, bad))
    return bad == 0 and n > 0


# -- bad input ---------------------------------------------------------------

HUGE = "u:r:" + "t" * 70000
GOOD_S = "system_u:system_r:sshd_t"
GOOD_T = "system_u:object_r:etc_t"
JUNK = "/tmp/compute-junk-policy"
CLEAR = {"EINVAL", "ENOENT", "EFBIG", "ENAMETOOLONG", "ERANGE", "EPERM",
         "ENOMEM", "E2BIG"}


def bad_requests():
    """(request, must_fail): bad contexts must fail; an unknown class is
    the kernel's to decide (handle_unknown), so any clean answer does."""
    reqs = []
    for s, t in [("NULL", GOOD_T), (GOOD_S, "NULL"), ("NULL", "NULL"),
                 ("garbage", GOOD_T), (GOOD_S, "a:b"), ("", GOOD_T),
                 (HUGE, GOOD_T), (GOOD_S, HUGE),
                 ("system_u:system_r:nope_t", GOOD_T)]:
        reqs.append((["av", s, t, "file", "2"], True))
        for k in ("create", "relabel", "member"):
            reqs.append(([k, s, t, "file"], True))
        reqs.append((["create_name", s, t, "file", "x"], True))
        if s != GOOD_S:
            reqs.append((["user", s, "root"], True))
        reqs.append((["vt", s, t, "file", t], True))
    for cls in ("0", "999", "65535"):
        reqs.append((["av", GOOD_S, GOOD_T, cls, "ffffffff"], False))
        reqs.append((["create", GOOD_S, GOOD_T, cls], False))
        reqs.append((["c2s", cls], True))
        reqs.append((["p2s", cls, "1"], True))
        reqs.append((["avs", cls, "3"], False))
    for r in (["create_name", GOOD_S, GOOD_T, "file", "n" * 5000],
              ["user", GOOD_S, "NULL"], ["user", GOOD_S, "nouser"],
              ["user", GOOD_S, "u" * 70000],
              ["initial", "NULL"], ["initial", "nope"],
              ["initial", "../enforce"], ["initial", "k" * 5000],
              ["s2c", "nope"], ["s2c", "../enforce"], ["s2c", "x" * 5000],
              ["s2p", "file", "nope"], ["s2p", "0", "read"], ["mode", "0"],
              ["bget", "NULL"], ["bget", "nope"], ["bget", "../enforce"],
              ["bset", "nope", "1"], ["bset", "ssh_sysadm_login", "7"],
              ["bsub", "NULL"], ["blist", "0", "nope=1"],
              ["load", JUNK]):
        reqs.append((r, True))
    reqs.append((["create_name", GOOD_S, GOOD_T, "file", "NULL"], False))
    reqs.append((["map", "nope:x"], False))
    return reqs


def failed(line):
    """Whether an answer line reports a failure, and its errno name."""
    m = re.search(r"= -1 errno=(\S+)", line) or \
        re.search(r"\) = 0 errno=(\S+)$", line) or \
        re.search(r"= NULL errno=(\S+)$", line)
    return m.group(1) if m else None


def cmd_bad(cprobe, ours):
    ok = True
    n = 0
    with open(JUNK, "wb") as f:
        f.write(b"\x8c\xff\x7c\xf9" + b"junk" * 100)
    for req, must_fail in bad_requests():
        n += 1
        rc, out, err = probe(cprobe, ours, req)
        label = " ".join(x if len(x) < 40 else x[:20] + "...(%d)" % len(x)
                         for x in req)
        if rc != 0:
            print("FAIL: %s: exit %d" % (label, rc))
            ok = False
            continue
        for line in out.splitlines():
            if line.startswith("  ") or line.startswith("SELinux:"):
                continue
            e = failed(line)
            line = line if len(line) < 200 else line[:200] + "..."
            # NULL with errno untouched: the documented answer of the
            # name lookups, as in Debian's library
            if e == "0" and req[0] in ("c2s", "p2s", "bsub"):
                continue
            if e is not None and e not in CLEAR:
                print("FAIL: %s: unclear error %s" % (label, line))
                ok = False
            if e is None and must_fail:
                print("FAIL: %s: did not fail: %s" % (label, line))
                ok = False
        # the server must still answer
        rc, out, err = probe(cprobe, ours,
                             ["av1", "3", GOOD_S, GOOD_T, "file", "2"])
        if "= 0 " not in out:
            print("FAIL: server gone after %s: exit %d: %s %s"
                  % (label, rc, out.strip(), err.strip()[-300:]))
            return False
    os.unlink(JUNK)
    print("%d bad requests, server still answering" % n)
    return ok


def main():
    if not MNT:
        print("SELINUXFS_MNT not set: run under tests/lib/with-server.sh")
        return 77
    mode, cprobe, ours = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "diff":
        ok = cmd_diff(cprobe, ours, *sys.argv[4:])
    elif mode == "facts":
        ok = cmd_facts(cprobe, ours, sys.argv[4], sys.argv[5])
    elif mode == "bad":
        ok = cmd_bad(cprobe, ours)
    else:
        print("unknown mode " + mode)
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
