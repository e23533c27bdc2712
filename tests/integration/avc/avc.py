#!/usr/bin/env python3
"""The AVC layer against kernel/'s security server (selinuxfsd).

Run under tests/lib/with-server.sh (SELINUXFS_MNT).  aprobe is linked
against the system's libselinux.so.1: as is, it is Debian's library;
with LD_LIBRARY_PATH=OURS, ours.

  avc.py diff APROBE OURS POLICY      the same sequences on both libraries
  avc.py facts APROBE OURS FACTS nonmls|mls
                                      avc_has_perm against facts.txt
  avc.py events APROBE OURS           setenforce, commit, load: literals
  avc.py getpolicyload APROBE OURS UTILS

OURS "-" runs APROBE as linked, for a probe built on our library.
"""
import os
import re
import subprocess
import sys

MNT = os.environ.get("SELINUXFS_MNT")
failures = []


def probe(aprobe, ours, args):
    env = dict(os.environ)
    if ours == "-":
        # a probe linked with our library (sanitizer builds)
        pass
    elif ours:
        env["LD_LIBRARY_PATH"] = ours
    else:
        env.pop("LD_LIBRARY_PATH", None)
    r = subprocess.run([aprobe, "mnt", MNT] + args, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=300)
    return r.returncode, r.stdout


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def finish():
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("ok")
    sys.exit(0)


def write_mnt(name, text):
    with open(os.path.join(MNT, name), "w") as f:
        f.write(text)


# -- diff: Debian's library and ours on the same sequences ---------------

SSHD = "system_u:system_r:sshd_t"
USER = "user_u:user_r:user_t"
ETC = "system_u:object_r:etc_t"
SHADOW = "system_u:object_r:shadow_t"
UTMP = "user_u:object_r:user_tmp_t"
TMP = "system_u:object_r:tmp_t"

SEQUENCES = [
    # decisions, audit texts (granted, denied, dontaudit), the cache
    ["open", "has", SSHD, ETC, "file", "read,write", "hello",
     "has", SSHD, SHADOW, "file", "read", "-",
     "has", USER, SHADOW, "file", "read", "-",
     "has", SSHD, ETC, "file", "execute,write", "x",
     "noaudit", SSHD, ETC, "file", "read,write", "stats",
     "hasref", SSHD, ETC, "file", "read", "stats",
     "has", SSHD, ETC, "file", "0", "-",
     "has", SSHD, ETC, "999", "read", "-",
     "has", SSHD, ETC, "file", "80000000", "-",
     "has", "bad", ETC, "file", "read", "-", "avstats"],
    # permissive: granted and logged once
    ["open", "0", "has", SSHD, ETC, "file", "read,write,execute", "-",
     "has", SSHD, ETC, "file", "read,write,execute", "-",
     "has", SSHD, ETC, "file", "0", "-", "stats",
     "has", "bad", ETC, "file", "read", "-"],
    # selinux_check_access, create/member, initial SIDs, SIDs
    ["check", SSHD, ETC, "file", "read",
     "check", SSHD, ETC, "file", "write",
     "check", SSHD, ETC, "nope", "write",
     "check", SSHD, ETC, "file", "nope",
     "check", "bad:bad", ETC, "file", "read",
     "create", SSHD, TMP, "file", "create", SSHD, TMP, "file", "stats",
     "member", USER, TMP, "dir", "initial", "kernel", "initial", "nope",
     "sid", "bogus", "sidstats"],
    # avc_init's callbacks and prefix
    ["init", "a_prefix_longer_than_15", "has", SSHD, ETC, "file", "write",
     "aux", "has", SSHD, SHADOW, "file", "read", "aux", "locks",
     "destroy", "locks"],
    # the status page, and the AVC following setenforce
    ["cbs", "sopen", "0", "senforce", "sdeny", "updated",
     "setenforce", "0", "updated", "senforce",
     "setenforce", "1", "updated", "senforce", "sclose", "open",
     "has", USER, UTMP, "file", "entrypoint", "-",
     "setenforce", "0", "has", USER, UTMP, "file", "entrypoint", "-",
     "has", USER, UTMP, "file", "entrypoint", "-",
     "setenforce", "1", "has", USER, UTMP, "file", "entrypoint", "-"],
    # AVC_OPT_SETENFORCE against the kernel's mode
    ["cbs", "open", "1", "setenforce", "0",
     "has", USER, UTMP, "file", "entrypoint", "-", "updated",
     "setenforce", "1", "updated", "setenforce", "0", "updated",
     "setenforce", "1"],
    # booleans and policy loads reset the cache
    ["cbs", "open", "has", USER, UTMP, "file", "execute", "-", "stats",
     "bset", "allow_user_exec_tmp", "0", "commit",
     "has", USER, UTMP, "file", "execute", "-", "stats",
     "bset", "allow_user_exec_tmp", "1", "commit",
     "has", USER, UTMP, "file", "execute", "-", "stats",
     "load", "@POLICY@", "has", USER, UTMP, "file", "execute", "-",
     "stats", "sopen", "0", "updated"],
]


def normalise(out):
    """Policy load counts differ between the two runs (the server's count
    goes on): make them relative to the first one seen.  Bucket usage in
    the statistics messages is left out."""
    base = None
    lines = []
    for line in out.splitlines():
        # how entries spread over buckets depends on the hash function
        # (ours is not Debian's); the entry counts must agree
        line = re.sub(r"and \d+/(\d+) buckets used, longest chain length "
                      r"\d+", r"and U/\1 buckets used, longest chain "
                      r"length L", line)
        m = re.search(r"(policyload = |seqno=|cb policyload )(\d+)", line)
        if m:
            n = int(m.group(2))
            if base is None:
                base = n
            line = line[:m.start(2)] + "B+%d" % (n - base) + line[m.end(2):]
        lines.append(line)
    return lines


def cmd_diff(aprobe, ours, policy):
    for seq in SEQUENCES:
        seq = [policy if a == "@POLICY@" else a for a in seq]
        # each run starts from the same state: enforcing
        write_mnt("enforce", "1")
        start = ["sopen", "0", "sload", "sclose"]
        rc1, deb = probe(aprobe, None, start + seq)
        write_mnt("enforce", "1")
        rc2, our = probe(aprobe, ours, start + seq)
        a, b = normalise(deb), normalise(our)
        check(rc1 == rc2, "exit %d vs %d for %s" % (rc1, rc2, seq[:3]))
        if a != b:
            import difflib
            print("\n".join(difflib.unified_diff(a, b, "debian", "ours",
                                                 lineterm="")))
            check(False, "outputs differ for %s" % " ".join(seq[:6]))
        else:
            print("same: %s ... (%d lines)" % (" ".join(seq[:4]), len(a)))
    finish()


# -- facts: expected decisions written by hand ------------------------------

def facts_lines(path, variant):
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if f[0] in ("all", variant):
            yield f


def con(c, variant, kind_all):
    return c + ":s0" if variant == "mls" and kind_all else c


def cmd_facts(aprobe, ours, facts, variant):
    write_mnt("enforce", "1")
    n = 0
    for f in facts_lines(facts, variant):
        kind = f[1]
        if kind == "setbool":
            rc, out = probe(aprobe, ours, ["bset", f[2], f[3], "commit"])
            check("security_commit_booleans = 0" in out, "setbool " + f[2])
            continue
        if kind not in ("av", "auditallow", "dontaudit"):
            continue
        s, t, cls = (con(f[2], variant, f[0] == "all"),
                     con(f[3], variant, f[0] == "all"), f[4])
        if kind == "av":
            allowed = [] if f[5] == "-" else f[5].split()
            denied = [] if f[6] == "-" else f[6].split()
            args = ["open"]
            for p in allowed + denied:
                args += ["has", s, t, cls, p, "-"]
            rc, out = probe(aprobe, ours, args)
            res = [l for l in out.splitlines()
                   if l.startswith("avc_has_perm")]
            want = (["avc_has_perm = 0"] * len(allowed) +
                    ["avc_has_perm = -1 errno=EACCES"] * len(denied))
            check(res == want, "av %s %s %s: %s" % (s, t, cls, res))
            # all at once: granted iff nothing denied
            if allowed:
                rc, out = probe(aprobe, ours, ["open", "has", s, t, cls,
                                               ",".join(allowed), "-"])
                check("avc_has_perm = 0" in out,
                      "av all of %s %s %s" % (s, t, cls))
            n += 1
        elif kind == "auditallow":
            for p in f[5].split():
                rc, out = probe(aprobe, ours, ["open", "has", s, t, cls, p,
                                               "-"])
                want = ("log[3] avc:  granted  { %s } for  scontext=%s "
                        "tcontext=%s tclass=%s" % (p, s, t, cls))
                check(want in out, "auditallow %s: %s" % (p, out))
            n += 1
        elif kind == "dontaudit":
            for p in f[5].split():
                rc, out = probe(aprobe, ours, ["open", "has", s, t, cls, p,
                                               "-"])
                check("EACCES" in out and "log[3]" not in out,
                      "dontaudit %s: %s" % (p, out))
            n += 1
    check(n > 10, "facts checked: %d" % n)
    # a denial that is audited, and the text of it
    s, t = con(USER, variant, True), con(ETC, variant, True)
    rc, out = probe(aprobe, ours, ["open", "has", s, t, "file", "write",
                                   "-"])
    check(("log[3] avc:  denied  { write } for  scontext=%s tcontext=%s "
           "tclass=file permissive=0" % (s, t)) in out, "denial text: " + out)
    print("%d facts" % n)
    finish()


# -- events: literals for setenforce, commit, load, the cache ------------

def stats_of(out):
    return [l for l in out.splitlines() if l.startswith("stats")]


def cmd_events(aprobe, ours, policy):
    write_mnt("enforce", "1")
    s, t = SSHD, ETC
    # five identical requests: one miss, four hits
    rc, out = probe(aprobe, ours, ["open", "repeat", "5", "has", s, t,
                                   "file", "read", "-", "stats"])
    st = stats_of(out)[-1]
    check("lookups=5 hits=0 misses=5" in st and "cav_hits=4" in st and
          "cav_misses=1" in st, "repeat stats: " + st)
    # with an entry reference: the second is an entry hit
    rc, out = probe(aprobe, ours, ["open", "hasref", s, t, "file", "read",
                                   "stats"])
    check("lookups=2 hits=1 misses=1" in stats_of(out)[-1],
          "hasref stats: " + out)

    # setenforce through the server's enforce file
    rc, out = probe(aprobe, ours, [
        "cbs", "sopen", "0", "senforce", "updated",
        "sh", "echo 0 > %s/enforce" % MNT, "updated", "senforce",
        "sh", "echo 1 > %s/enforce" % MNT, "updated", "senforce"])
    lines = out.splitlines()
    check(lines.count("selinux_status_getenforce = 1") == 2 and
          "selinux_status_getenforce = 0" in lines,
          "status getenforce: " + out)
    check("cb setenforce 0" in lines and "cb setenforce 1" in lines,
          "setenforce callbacks: " + out)
    check(lines.count("selinux_status_updated = 1") == 2,
          "updated: " + out)

    # the AVC follows: entrypoint (never allowed) is granted when
    # permissive, once
    rc, out = probe(aprobe, ours, [
        "open", "has", USER, UTMP, "file", "entrypoint", "-",
        "sh", "echo 0 > %s/enforce" % MNT,
        "has", USER, UTMP, "file", "entrypoint", "-",
        "has", USER, UTMP, "file", "entrypoint", "-",
        "sh", "echo 1 > %s/enforce" % MNT,
        "has", USER, UTMP, "file", "entrypoint", "-"])
    res = [l for l in out.splitlines() if l.startswith("avc_has_perm")]
    check(res == ["avc_has_perm = -1 errno=EACCES", "avc_has_perm = 0",
                  "avc_has_perm = 0", "avc_has_perm = -1 errno=EACCES"],
          "AVC and setenforce: " + out)
    check(out.count("permissive=1") == 1 and
          out.count("permissive=0") == 2, "permissive once: " + out)

    # a boolean commit: policyload + 1, the cache reset, the new answer
    rc, out = probe(aprobe, ours, ["sopen", "0", "sload"])
    base = int(re.search(r"policyload = (\d+)", out).group(1))
    rc, out = probe(aprobe, ours, [
        "cbs", "open", "has", USER, UTMP, "file", "execute", "-",
        "bset", "allow_user_exec_tmp", "0", "commit",
        "has", USER, UTMP, "file", "execute", "-", "stats", "sload",
        "bset", "allow_user_exec_tmp", "1", "commit",
        "has", USER, UTMP, "file", "execute", "-", "stats", "sload",
        "load", policy, "has", USER, UTMP, "file", "execute", "-",
        "stats", "sload"])
    res = [l for l in out.splitlines() if l.startswith("avc_has_perm")]
    check(res == ["avc_has_perm = 0", "avc_has_perm = -1 errno=EACCES",
                  "avc_has_perm = 0", "avc_has_perm = 0"],
          "booleans and load: " + out)
    for k in (1, 2, 3):
        check("cb policyload %d" % (base + k) in out,
              "policyload %d: %s" % (base + k, out))
    check(all("cav_hits=0" in l and "cav_misses=1" in l
              for l in stats_of(out)), "reset stats: " + out)
    finish()


def cmd_getpolicyload(aprobe, ours, utils):
    gp = os.path.join(utils, "getpolicyload")
    for _ in range(2):
        # Debian's library (no getpolicyload in Debian 12) reads the count
        rc, out = probe(aprobe, None, ["sopen", "0", "sload"])
        want = re.search(r"policyload = (\d+)", out).group(1)
        r = subprocess.run([gp], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(r.returncode == 0 and r.stdout == want + "\n",
              "getpolicyload %r vs %s" % (r.stdout, want))
        probe(aprobe, None, ["commit"])
    r = subprocess.run([gp], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=dict(os.environ,
                                           LD_LIBRARY_PATH=ours))
    check(r.returncode == 0, "getpolicyload rc")
    # Debian's selinux_check_access utility on our library
    env = dict(os.environ, LD_LIBRARY_PATH=ours)
    for perm, rc in (("read", 0), ("write", 255)):
        if not os.path.exists("/usr/sbin/selinux_check_access"):
            break
        r = subprocess.run(["/usr/sbin/selinux_check_access", SSHD, ETC,
                            "file", perm], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(r.returncode == rc, "selinux_check_access %s: %d %s" %
              (perm, r.returncode, r.stderr))
    finish()


def main():
    if not MNT:
        print("SELINUXFS_MNT not set (run under with-server.sh)")
        sys.exit(2)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "diff":
        cmd_diff(*args)
    elif cmd == "facts":
        cmd_facts(*args)
    elif cmd == "events":
        cmd_events(*args)
    elif cmd == "getpolicyload":
        cmd_getpolicyload(*args)
    else:
        sys.exit(2)


if __name__ == "__main__":
    main()
