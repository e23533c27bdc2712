#!/usr/bin/python3
"""ruby_differential.py SECTION --rubylib DIR [--server SH --policy P]

Runs ruby_calls.rb SECTION twice, once with Debian's ruby-selinux (the
system's ruby and $LOAD_PATH) and once with ours (ruby -I DIR, DIR being
build/bindings/ruby, whose selinux.so finds the build's libselinux.so.1
through its runpath), and compares what the two print, line by line.
The first line of each run names the selinux.so `require` loaded and the
libselinux.so.1 mapped: the run with ours must load ours and our library,
the reference run Debian's and the system's, or the test fails.  Exit 0
when the outputs agree, 1 with the differing lines when not, 77 (a skip)
when a prerequisite is missing.

interface: names, argument counts and types, constants, classes.
local: in a mount namespace of its own (unshare -m, root) with the
fixture's /etc/selinux (made by calls.py tree, the Python test's) bound
over the machine's, so that both libraries read the fixture's config,
and no security server of another test mounted; without unshare both
read the machine's.
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
CALLS = os.path.join(HERE, "ruby_calls.rb")
TREE = os.path.join(HERE, "calls.py")
REFERENCE = "/usr/lib/x86_64-linux-gnu/ruby/vendor_ruby/3.1.0/selinux.so"


def environ():
    return {k: v for k, v in os.environ.items()
            if k not in ("RUBYLIB", "RUBYOPT", "LD_LIBRARY_PATH",
                         "LD_PRELOAD", "GEM_PATH", "GEM_HOME")}


def can_unshare():
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-m", "true"],
                          capture_output=True).returncode == 0


def run(ours, args, work):
    shutil.rmtree(work, ignore_errors=True)
    os.mkdir(work)
    subprocess.run([sys.executable, TREE, "tree", work], check=True)
    cmd = [args.ruby] + (["-I", args.rubylib] if ours else []) + \
        [CALLS, args.section, work]
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
    elif args.section == "server":
        cmd = [args.server, args.policy] + cmd
    return subprocess.run(cmd, env=environ(), text=True,
                          capture_output=True, cwd=work,
                          errors="backslashreplace")


def check_loaded(name, line, ours, args):
    """The first line: 'loaded: SELINUX_SO LIBSELINUX...'."""
    words = line.split()
    if len(words) != 3 or words[0] != "loaded:":
        return "%s run: no single selinux.so and libselinux: %r" % (name,
                                                                   line)
    so, lib = (os.path.realpath(w) for w in words[1:])
    if ours:
        if (os.path.dirname(so) != os.path.realpath(args.rubylib) or
                os.path.dirname(lib) != os.path.realpath(args.libdir)):
            return "our run does not load our extension and library: " + line
    elif so != os.path.realpath(REFERENCE) or not lib.startswith(
            ("/usr/lib/", "/lib/")):
        return "the reference run does not load Debian's extension: " + line
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("section", choices=["interface", "local", "server"])
    ap.add_argument("--rubylib", required=True)
    ap.add_argument("--libdir", required=True)
    ap.add_argument("--ruby", default="ruby")
    ap.add_argument("--server")
    ap.add_argument("--policy")
    args = ap.parse_args()
    for k in ("rubylib", "libdir", "server", "policy"):
        if getattr(args, k):
            setattr(args, k, os.path.abspath(getattr(args, k)))

    if not os.path.exists(REFERENCE):
        print("Debian's ruby-selinux is not installed; skipping")
        return 77
    if args.section == "local" and os.geteuid() != 0:
        print("setting security.selinux needs root; skipping")
        return 77
    args.unshare = args.section == "local" and can_unshare()

    base = tempfile.mkdtemp(prefix="ruby-bindings-")
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
    print("reference:", a[0] if a else "(nothing)")
    print("ours:     ", b[0] if b else "(nothing)")
    for name, lines, ours in (("reference", a, False), ("ours", b, True)):
        err = check_loaded(name, lines[0] if lines else "", ours, args)
        if err:
            print(err)
            return 1
    a, b = a[1:], b[1:]
    print("%d lines from the reference, %d from ours%s" % (
        len(a), len(b),
        " (fixture /etc/selinux bound)" if args.unshare else ""))
    if len(a) < 100:
        print("too few calls ran in the reference run")
        return 1
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
