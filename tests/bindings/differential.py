#!/usr/bin/python3
"""differential.py SECTION --pythonpath DIR --libdir DIR [--server SH --policy P]
   differential.py SECTION --python VENV/bin/python --libdir DIR [...]

Runs calls.py SECTION twice, once with Debian's python3-selinux (the
system's /usr/bin/python3 and sys.path) and once with ours (PYTHONPATH=DIR,
LD_LIBRARY_PATH=the build's libselinux), and compares what the two print,
line by line.  With --python, ours is that interpreter's own `selinux`
(a venv where pip installed it, tests/bindings/pip.py), with no
PYTHONPATH or LD_LIBRARY_PATH.  Exit 0 when they agree, 1 with the differing lines when not,
77 (a skip) when a prerequisite is missing.

local: in a mount namespace of its own (unshare -m, root) with the
fixture's /etc/selinux bound over the machine's, so that both libraries
read the fixture's config, and no security server of another test
mounted; without unshare both read the machine's.
server: each run under tests/lib/with-server.sh with a fresh security
server on POLICY, so the first run's setenforce and booleans cannot leak
into the second.
"""
import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CALLS = os.path.join(HERE, "calls.py")
PYTHON = "/usr/bin/python3"


def environ(ours, args):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "LD_PRELOAD",
                        "PYTHONHOME", "PYTHONSTARTUP")}
    if ours and not args.python:
        env["PYTHONPATH"] = args.pythonpath
        env["LD_LIBRARY_PATH"] = args.libdir
    return env


def python(ours, args):
    return args.python if ours and args.python else PYTHON


def which_module(env, py):
    """The module file and libselinux.so.1 that a run really loads."""
    probe = ("import selinux\n"
             "libs = {l.split()[-1] for l in open('/proc/self/maps')\n"
             "        if 'libselinux.so' in l}\n"
             "print(selinux.__file__, *sorted(libs))\n")
    r = subprocess.run([py, "-s", "-c", probe], env=env, text=True,
                       capture_output=True)
    return (r.stdout + r.stderr).strip()


def can_unshare():
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-m", "true"],
                          capture_output=True).returncode == 0


def run(ours, args, work):
    env = environ(ours, args)
    py = python(ours, args)
    shutil.rmtree(work, ignore_errors=True)
    os.mkdir(work)
    subprocess.run([py, "-s", CALLS, "tree", work], env=env, check=True)
    cmd = [py, "-s", CALLS, args.section, work]
    if args.section == "local" and args.unshare:
        # The bind mount lives and dies with the namespace.  So does the
        # unmounting of other tests' security servers (fuse.selinuxfs):
        # our library would find them through mountinfo, Debian's not.
        script = ("grep ' - fuse.selinuxfs ' /proc/self/mountinfo | "
                  "cut -d' ' -f5 | while read -r m; do umount -l \"$m\"; "
                  "done; "
                  'mount --bind "$1/etc/selinux" /etc/selinux && '
                  'shift && exec "$@"')
        cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c",
               script, "sh", work] + cmd
    elif args.section != "local":
        cmd = [args.server, args.policy] + cmd
        # the policy's /etc/selinux tree beside it (kernel/policy/meson.build:
        # root/etc/selinux/bundled for bundled.33), for the login calls
        name = os.path.splitext(os.path.basename(args.policy))[0]
        env["CALLS_POLICY_ROOT"] = os.path.join(
            os.path.dirname(args.policy), "root", "etc", "selinux", name)
    r = subprocess.run(cmd, env=env, text=True, capture_output=True,
                       cwd=work)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("section", choices=["local", "server"])
    ap.add_argument("--pythonpath")
    ap.add_argument("--python")
    ap.add_argument("--libdir", required=True)
    ap.add_argument("--server")
    ap.add_argument("--policy")
    args = ap.parse_args()
    if not args.pythonpath and not args.python:
        ap.error("--pythonpath or --python is required")
    for k in ("pythonpath", "python", "libdir", "server", "policy"):
        if getattr(args, k):
            setattr(args, k, os.path.abspath(getattr(args, k)))

    if not os.path.isdir("/usr/lib/python3/dist-packages/selinux"):
        print("Debian's python3-selinux is not installed; skipping")
        return 77
    if args.section == "local" and os.geteuid() != 0:
        print("setting security.selinux needs root; skipping")
        return 77
    args.unshare = args.section == "local" and can_unshare()

    ref_mod = which_module(environ(False, args), PYTHON)
    our_mod = which_module(environ(True, args), python(True, args))
    print("reference:", ref_mod)
    print("ours:     ", our_mod)
    if args.python:
        # the venv's module, and no libselinux.so from outside the venv
        venv = os.path.realpath(os.path.dirname(os.path.dirname(
            args.python))) + os.sep
        files = our_mod.split()
        if (not os.path.realpath(files[0]).startswith(venv) or
                any(not os.path.realpath(f).startswith(venv)
                    for f in files[1:])):
            print("our run does not load the venv's module and library")
            return 1
    elif (os.path.realpath(args.pythonpath) not in os.path.realpath(
            our_mod.split()[0]) or args.libdir not in our_mod):
        print("our run does not load our module and library")
        return 1
    if "/usr/lib/python3/dist-packages/selinux" not in ref_mod:
        print("the reference run does not load Debian's module")
        return 1

    base = tempfile.mkdtemp(prefix="bindings-")
    work = os.path.join(base, "w")
    try:
        ref = run(False, args, work)
        if ref.returncode == 77:
            print(ref.stderr)
            return 77
        mine = run(True, args, work)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    for name, r in (("reference", ref), ("ours", mine)):
        if r.returncode != 0:
            print("%s run failed (status %d):\n%s\n%s" % (
                name, r.returncode, r.stdout[-3000:], r.stderr[-3000:]))
            return 1

    a = ref.stdout.splitlines()
    b = mine.stdout.splitlines()
    print("%d lines from the reference, %d from ours%s" % (
        len(a), len(b),
        " (fixture /etc/selinux bound)" if args.unshare else ""))
    diff = list(difflib.unified_diff(a, b, "reference", "ours", lineterm="",
                                     n=1))
    if diff:
        print("\n".join(diff[:400]))
        print("--- stderr of the reference run\n" + ref.stderr[-2000:])
        print("--- stderr of our run\n" + mine.stderr[-2000:])
        return 1
    print("identical")
    return 0


sys.exit(main())
