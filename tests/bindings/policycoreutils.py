#!/usr/bin/python3
"""policycoreutils.py MODE --pythonpath DIR --libdir DIR [--policy P] [--work DIR]

policycoreutils-python-utils (semanage, audit2why, audit2allow, chcat)
run on Debian's python3-selinux and on ours (PYTHONPATH=DIR,
LD_LIBRARY_PATH=the build's libselinux), side by side; the outputs (and
exit status) of the two runs must be the same.  The tools' scripts run
as `/usr/bin/python3 -s SCRIPT` (their #! line has -E, which would drop
PYTHONPATH).

audit:    `-h` of the four tools; audit2why, audit2allow and
          audit2allow -e on recorded denials (denials-refpolicy.log against
          Debian's refpolicy /etc/selinux/default, denials-bundled.log
          against the bundled policy P), which between them are allowed,
          dontaudit'd, missing a TE rule, fixed by one boolean or by one of
          several, denied by a constraint and by RBAC; each kind must show
          in the reference's output, so that two empty runs cannot agree.
module:   selinux.audit2why itself: its names and constants, then analyze()
          on a seeded sample of queries built from each policy's own types,
          roles, users, classes and rules (P and Debian's refpolicy).
semanage: semanage login/user/fcontext/boolean -l, then `boolean -m` and
          `fcontext -a` (without reload, -N) and the listings of the
          changes and `export`, each run on a fresh copy of /etc/selinux
          and /var/lib/selinux bound over the machine's in a mount
          namespace of its own (unshare -m): the machine's policy store is
          never written.  The store files the changes wrote are compared
          too.

In each run, other tests' security servers (fuse.selinuxfs mounts) are
unmounted inside a private mount namespace when unshare works (our
library finds them through mountinfo, Debian's not).  Exit 0 when the
runs agree, 1 when not, 77 (skip) when a prerequisite is missing:
policycoreutils-python-utils or Debian's python3-selinux (scripts/setup.sh
installs both), and for semanage, root and unshare.
"""
import argparse
import difflib
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"
REFPOLICY = "/etc/selinux/default/policy/policy.33"
DEBIAN_A2W = "/usr/lib/python3/dist-packages/selinux/audit2why.*.so"
TOOLS = {"semanage": "/usr/sbin/semanage", "audit2why": "/usr/bin/audit2why",
         "audit2allow": "/usr/bin/audit2allow", "chcat": "/usr/bin/chcat"}
# A file in the copies of the store: the inner run checks that the bind
# mounts put it in place before it runs anything that writes.
MARKER = ".policycoreutils-test-copy"

# The unmounting of other tests' security servers, then the command.
UNMOUNT_SERVERS = ("grep ' - fuse.selinuxfs ' /proc/self/mountinfo | "
                   "cut -d' ' -f5 | while read -r m; do umount -l \"$m\"; "
                   "done; ")


def environ(ours, args):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "LD_PRELOAD",
                        "PYTHONHOME", "PYTHONSTARTUP")}
    env["LC_ALL"] = "C.UTF-8"
    if ours:
        env["PYTHONPATH"] = args.pythonpath
        env["LD_LIBRARY_PATH"] = args.libdir
    return env


def can_unshare():
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-m", "true"],
                          capture_output=True).returncode == 0


def run(cmd, env, unshare, cwd="/", prefix=""):
    """cmd's (status, stdout, stderr); in a private mount namespace without
    security servers when unshare, after the shell text prefix ("$@" is
    cmd)."""
    if unshare:
        cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c",
               UNMOUNT_SERVERS + prefix + 'exec "$@"', "sh"] + cmd
    r = subprocess.run(cmd, env=env, text=True, capture_output=True,
                       cwd=cwd)
    return r.returncode, r.stdout, r.stderr


PROBE = r"""
import json, selinux, sepolgen.audit
try:
    import selinux.audit2why as a2w
    a2w = a2w.__file__
except ImportError as e:
    a2w = "ImportError: %s" % e
libs = sorted({l.split()[-1] for l in open('/proc/self/maps')
               if 'libselinux.so' in l})
print(json.dumps([selinux.__file__, a2w, libs]))
"""


def which_modules(ours, args):
    """The selinux package, audit2why extension and libselinux.so.1 files a
    run of the tools loads (after sepolgen, which imports the extension)."""
    st, out, err = run([PYTHON, "-s", "-c", PROBE], environ(ours, args),
                       args.unshare)
    if st != 0:
        return None, err.strip()
    return json.loads(out), ""


def check_modules(args):
    """None when the reference run loads Debian's module and library and
    ours loads the build's; else what is wrong."""
    ref, err = which_modules(False, args)
    if not ref:
        return "the reference run cannot import its modules: " + err
    mine, err = which_modules(True, args)
    if not mine:
        return "our run cannot import its modules: " + err
    print("reference:", ref)
    print("ours:     ", mine)
    if (not ref[0].startswith("/usr/lib/python3/dist-packages/selinux/") or
            not ref[1].startswith("/usr/lib/python3/dist-packages/selinux/")
            or any(not l.startswith(("/lib/", "/usr/lib/")) for l in ref[2])):
        return "the reference run does not load Debian's module and library"
    pp = os.path.realpath(args.pythonpath) + os.sep
    if not os.path.realpath(mine[0]).startswith(pp):
        return "our run does not load our selinux package"
    if not os.path.realpath(mine[1]).startswith(pp):
        return "our run has no selinux.audit2why of ours: %s" % mine[1]
    if not mine[2] or any(not os.path.realpath(l).startswith(
            os.path.realpath(args.libdir) + os.sep) for l in mine[2]):
        return "our run does not load our libselinux.so.1: %s" % mine[2]
    return None


def compare(name, ref, mine):
    """True when the (status, stdout, stderr) of the two runs agree."""
    if ref == mine:
        print("%-50s identical (status %d, %d lines)" % (
            name, ref[0], len(ref[1].splitlines())))
        return True
    print("%s: the runs differ (status %d, ours %d)" % (name, ref[0], mine[0]))
    for label, i in (("stdout", 1), ("stderr", 2)):
        diff = list(difflib.unified_diff(
            ref[i].splitlines(), mine[i].splitlines(), "reference", "ours",
            lineterm="", n=1))
        if diff:
            print("--- %s\n%s" % (label, "\n".join(diff[:200])))
    return False


# --- audit: the tools on recorded denials

# What audit2why prints for each kind of answer; the reference's output
# must hold each one, so that the comparison says something.
AUDIT2WHY_KINDS = [
    "Unknown - would be allowed by active policy",       # ALLOW
    "Unknown - should be dontaudit'd by active policy",  # DONTAUDIT
    "Missing type enforcement (TE) allow rule.",         # TERULE
    "The boolean ",                                      # BOOLEAN, one
    "One of the following booleans was set incorrectly.",  # BOOLEAN, more
    "#Constraint rule:",                                 # CONSTRAINT
    "Missing role allow rule.",                          # RBAC
]


def audit(args):
    runs = []
    for tool in sorted(TOOLS):
        runs.append(("%s -h" % tool, [TOOLS[tool], "-h"]))
    logs = [("refpolicy", REFPOLICY,
             os.path.join(HERE, "denials-refpolicy.log")),
            ("bundled", args.policy,
             os.path.join(HERE, "denials-bundled.log"))]
    for label, policy, log in logs:
        for tool, opts in (("audit2why", []), ("audit2allow", []),
                           ("audit2allow", ["-e"])):
            runs.append(("%s %s(%s)" % (tool, " ".join(opts) + " " if opts
                                        else "", label),
                         [TOOLS[tool]] + opts + ["-p", policy, "-i", log]))
    ok = True
    why = ""
    for name, cmd in runs:
        env = [environ(False, args), environ(True, args)]
        if name.startswith("chcat"):
            # Debian's chcat asks gettext for its catalogue with no
            # fallback, and there is none for C: a traceback on both.
            for e in env:
                e["LANGUAGE"] = "en_GB"
        ref = run([PYTHON, "-s"] + cmd, env[0], args.unshare)
        mine = run([PYTHON, "-s"] + cmd, env[1], args.unshare)
        # chcat, on a machine without SELinux, says "Requires a mls
        # enabled system" and exits 1: it got that far, past its imports.
        if (ref[0] != 0 and not name.startswith("chcat")) or \
                "Traceback" in ref[2]:
            print("%s: the reference run failed (status %d):\n%s" % (
                name, ref[0], ref[2][-2000:]))
            ok = False
            continue
        ok = compare(name, ref, mine) and ok
        if name.startswith("audit2why"):
            why += ref[1]
    for kind in AUDIT2WHY_KINDS:
        if kind not in why:
            print("the reference's audit2why output has no %r: the denials "
                  "no longer cover that case" % kind)
            ok = False
    return ok


# --- module: selinux.audit2why's answers

QUERIES = r"""
import json, random, sys
import setools
import selinux.audit2why as a2w

policy, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
names = [n for n in dir(a2w) if not n.startswith("__")]
print("names", names)
print("constants", {n: getattr(a2w, n) for n in names if n.isupper()})
print("before init", a2w.analyze("a:b:c", "a:b:c", "file", ["read"]))
for bad in ((1,), ("a", "b")):
    try:
        a2w.init(*bad)
    except TypeError as e:
        print("init", bad, repr(e))
print("init", a2w.init(policy))
for again in ((policy,), (1,)):
    try:
        a2w.init(*again)
    except RuntimeError as e:
        print("init again", again, repr(e))
for bad in (("a", "b", "file", "read"), ("a", "b", "file")):
    try:
        a2w.analyze(*bad)
    except TypeError as e:
        print("analyze", bad, repr(e))

p = setools.SELinuxPolicy(policy)
mls = ":s0" if p.mls else ""
types = sorted(str(t) for t in p.types())
roles = {str(r): sorted(str(t) for t in r.types()) for r in p.roles()}
users = {str(u): sorted(str(r) for r in u.roles) for u in p.users()}
perms = {}
for c in p.classes():
    s = set(c.perms)
    try:
        s |= set(c.common.perms)
    except setools.exception.NoCommon:
        pass
    perms[str(c)] = sorted(s)
rules = [r for r in p.terules() if r.ruletype.name in ("allow", "dontaudit")]
rng = random.Random(seed)
codes = {}
for i in range(count):
    if rng.random() < 0.6:
        # around a rule of the policy: allowed, dontaudit'd, conditional
        r = rng.choice(rules)
        st = rng.choice(sorted(str(t) for t in r.source.expand()))
        tt = rng.choice(sorted(str(t) for t in r.target.expand()))
        c = str(r.tclass)
        ps = rng.sample(sorted(r.perms), min(len(r.perms), rng.randint(1, 3)))
        if rng.random() < 0.3:
            ps.append(rng.choice(perms[c]))
    else:
        st, tt = rng.choice(types), rng.choice(types)
        c = rng.choice(sorted(perms))
        ps = rng.sample(perms[c], min(len(perms[c]), rng.randint(1, 3)))
    role = rng.choice([r for r in sorted(roles) if st in roles[r]] or
                      ["object_r"])
    user = rng.choice([u for u in sorted(users) if role in users[u]] or
                      sorted(users))
    scon = "%s:%s:%s%s" % (user, role, st, mls)
    tcon = "%s:%s:%s%s" % (rng.choice(sorted(users)),
                           rng.choice(["object_r"] * 3 + [role]), tt, mls)
    if rng.random() < 0.02:
        c = "no_such_class"
    if rng.random() < 0.02:
        ps = ps + ["no_such_perm"]
    answer = a2w.analyze(scon, tcon, c, ps)
    codes[answer[0]] = codes.get(answer[0], 0) + 1
    print(scon, tcon, c, ps, answer)
print("codes", sorted(codes.items()))
print("finish", a2w.finish(), a2w.finish())
print("after finish", a2w.analyze(scon, tcon, c, ps))
"""


def module(args):
    ok = True
    for label, policy, seed in (("bundled", args.policy, 1),
                                ("refpolicy", REFPOLICY, 2)):
        cmd = [PYTHON, "-s", "-c", QUERIES, policy, str(seed), "1500"]
        ref = run(cmd, environ(False, args), args.unshare)
        mine = run(cmd, environ(True, args), args.unshare)
        if ref[0] != 0:
            print("the reference run failed on %s:\n%s" % (label, ref[2]))
            return False
        codes = [l for l in ref[1].splitlines() if l.startswith("codes ")]
        print("%s: the reference's answers by code: %s" % (
            label, codes[0][6:] if codes else "?"))
        ok = compare("audit2why.analyze (%s)" % label, ref, mine) and ok
    return ok


# --- semanage on copies of the policy store

SEMANAGE_STEPS = [
    ["login", "-l"],
    ["user", "-l"],
    ["boolean", "-l"],
    ["fcontext", "-l"],
    ["boolean", "-N", "-m", "--on", "httpd_read_user_content"],
    ["fcontext", "-N", "-a", "-t", "httpd_sys_content_t", "/srv/www(/.*)?"],
    ["boolean", "-l", "-C"],
    ["fcontext", "-l", "-C"],
    ["login", "-l", "-C"],
    ["export"],
]
# What the changes write into the store, compared after the runs.
STORE_FILES = ["var/default/active/booleans.local",
               "var/default/active/file_contexts.local",
               "etc/default/contexts/files/file_contexts.local",
               "etc/default/policy/policy.33"]

INNER = r"""
import json, os, subprocess, sys
marker, steps = sys.argv[1], json.loads(sys.argv[2])
for d in ("/etc/selinux", "/var/lib/selinux"):
    if not os.path.exists(os.path.join(d, marker)):
        print("the copy is not mounted on %s: not running semanage" % d,
              file=sys.stderr)
        sys.exit(3)
out = []
for step in steps:
    r = subprocess.run([sys.executable, "-s", "/usr/sbin/semanage"] + step,
                       text=True, capture_output=True)
    out.append([step, r.returncode, r.stdout, r.stderr])
print(json.dumps(out))
"""


def semanage_run(ours, args, copy):
    os.makedirs(copy)
    for src, dst in (("/etc/selinux", "etc"), ("/var/lib/selinux", "var")):
        shutil.copytree(src, os.path.join(copy, dst), symlinks=True)
        open(os.path.join(copy, dst, MARKER), "w").close()
    prefix = ('mount --bind "%s/etc" /etc/selinux && '
              'mount --bind "%s/var" /var/lib/selinux && ' % (copy, copy))
    st, out, err = run([PYTHON, "-s", "-c", INNER, MARKER,
                        json.dumps(SEMANAGE_STEPS)],
                       environ(ours, args), True, prefix=prefix)
    if st != 0:
        return None, "status %d: %s" % (st, err[-2000:])
    store = {}
    for f in STORE_FILES:
        p = os.path.join(copy, f)
        if os.path.exists(p):
            with open(p, "rb") as fh:
                store[f] = hashlib.sha256(fh.read()).hexdigest()
        else:
            store[f] = None
    return json.loads(out), store


def semanage(args):
    if not args.unshare:
        print("semanage runs on a copy of the policy store bound over "
              "/etc/selinux and /var/lib/selinux in a mount namespace: "
              "needs root and unshare; skipping")
        return 77
    if not os.path.isdir("/var/lib/selinux/default"):
        print("no policy store /var/lib/selinux/default "
              "(selinux-policy-default); skipping")
        return 77
    base = tempfile.mkdtemp(prefix="policycoreutils-", dir=args.work)
    try:
        ref, ref_store = semanage_run(False, args, os.path.join(base, "ref"))
        if ref is None:
            print("the reference run failed: " + ref_store)
            return 1
        mine, my_store = semanage_run(True, args, os.path.join(base, "ours"))
        if mine is None:
            print("our run failed: " + my_store)
            return 1
    finally:
        shutil.rmtree(base, ignore_errors=True)
    ok = True
    for (step, *r), (_, *m) in zip(ref, mine):
        name = "semanage " + " ".join(step)
        if r[0] != 0:
            print("%s: the reference run failed (status %d):\n%s" % (
                name, r[0], r[2][-2000:]))
            ok = False
            continue
        ok = compare(name, tuple(r), tuple(m)) and ok
    # the changes took: the listings of local changes name them
    listing = {" ".join(s): out for s, st, out, err in ref}
    for step, want in (("boolean -l -C", "httpd_read_user_content"),
                       ("fcontext -l -C", "/srv/www(/.*)?")):
        if want not in listing[step]:
            print("semanage %s does not list %s: the change did not take" %
                  (step, want))
            ok = False
    for f in STORE_FILES:
        same = ("missing" if ref_store[f] is None else
                "identical" if ref_store[f] == my_store[f] else "DIFFERENT")
        print("%-50s %s" % (f, same))
        if ref_store[f] != my_store[f] or ref_store[f] is None:
            ok = False
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["audit", "module", "semanage"])
    ap.add_argument("--pythonpath", required=True)
    ap.add_argument("--libdir", required=True)
    ap.add_argument("--policy", help="the bundled binary policy")
    ap.add_argument("--work", help="where semanage's store copies go")
    args = ap.parse_args()
    args.pythonpath = os.path.abspath(args.pythonpath)
    args.libdir = os.path.abspath(args.libdir)
    if args.policy:
        args.policy = os.path.abspath(args.policy)
    if args.work:
        os.makedirs(args.work, exist_ok=True)

    missing = [t for t in TOOLS.values() if not os.path.exists(t)]
    if missing:
        print("policycoreutils-python-utils is not installed (%s); "
              "scripts/setup.sh installs it; skipping" % " ".join(missing))
        return 77
    if not glob.glob(DEBIAN_A2W):
        print("Debian's python3-selinux is not installed; skipping")
        return 77
    if args.mode != "semanage" and (not os.path.exists(REFPOLICY) or
                                    not args.policy):
        print("needs Debian's refpolicy (%s, selinux-policy-default) and "
              "--policy" % REFPOLICY)
        return 77
    args.unshare = can_unshare()

    problem = check_modules(args)
    if problem:
        print(problem)
        return 1
    if args.mode == "semanage":
        ok = semanage(args)
        if ok == 77:
            return 77
    else:
        ok = audit(args) if args.mode == "audit" else module(args)
    print("identical" if ok else "FAILED")
    return 0 if ok else 1


sys.exit(main())
