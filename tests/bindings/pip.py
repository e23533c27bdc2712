#!/usr/bin/python3
"""pip.py --source DIR --work DIR --libdir DIR [--server SH --policy P]

`pip install .` as README.md ("Python") documents it, then the binding
suite with the virtualenv's python:

 1. copies the source tree (without build directories and .git) to
    WORK/src, so meson-python's files never land in the checkout;
 2. makes a plain virtualenv WORK/venv with Debian's /usr/bin/python3
    (no --system-site-packages: it sees neither Debian's python3-selinux
    nor its meson-python), and checks that `import selinux` fails there;
 3. runs WORK/venv/bin/pip install . in WORK/src, with --no-index: nothing
    may come from a package index;
 4. checks what was installed: selinux/__init__.py, the extension and
    the dist-info, nothing else (no headers, no libselinux.so.1), version
    3.10 as meson.build says; selinux.audit2why imports from the venv;
 5. checks that the module in use is the venv's and carries our library:
    selinux.__file__ inside the venv, no libselinux.so mapped after
    import (Debian's libselinux.so.1 is the only other provider), the
    extension needs no libselinux.so and defines selinux_avc_audit_open,
    a function only our library has (node SELINUX_AUDIT_1.0);
 6. runs interface.py, differential.py local and expect.py local (and,
    with --server, expect.py server) with the venv's python.

Exit 0 when all pass, 1 at the first failure, 77 (skip) when a
prerequisite is missing.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def clean_env():
    """The environment of a newcomer's shell: no PYTHONPATH, no library
    path, no pip configuration of this machine."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP",
                        "LD_LIBRARY_PATH", "LD_PRELOAD", "VIRTUAL_ENV")
           and not k.startswith("PIP_")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_CONFIG_FILE"] = os.devnull
    return env


def run(cmd, **kw):
    t = time.monotonic()
    r = subprocess.run(cmd, text=True, capture_output=True, **kw)
    print("+ %s  (%.1f s, status %d)" % (" ".join(cmd), time.monotonic() - t,
                                        r.returncode))
    return r


def copy_tree(src, dst):
    def ignore(d, names):
        if os.path.samefile(d, src):
            return [n for n in names if n.startswith("build") or
                    n in (".git", ".mesonpy-native-file.ini") or
                    n.startswith(".mesonpy-")]
        return [n for n in names if n == "__pycache__"]
    shutil.copytree(src, dst, symlinks=True, ignore=ignore)


def project_version(src):
    with open(os.path.join(src, "meson.build")) as f:
        m = re.search(r"project\([^)]*?version\s*:\s*'([^']+)'", f.read(),
                      re.S)
    return m.group(1)


PROBE = r"""
import importlib.metadata as md, json, os, selinux, selinux.audit2why
libs = sorted({l.split()[-1] for l in open('/proc/self/maps')
               if 'libselinux.so' in l})
print(json.dumps({
    "file": selinux.__file__,
    "ext": selinux._selinux.__file__,
    "audit2why": selinux.audit2why.__file__,
    "libs": libs,
    "version": md.version("selinux"),
    "files": [str(p) for p in md.files("selinux")],
    "matchpathcon": selinux.matchpathcon("/etc/passwd", 0)[0],
}))
"""


def elf(tool, path):
    r = subprocess.run(tool + [path], text=True, capture_output=True)
    if r.returncode != 0:
        fail("%s %s: %s" % (" ".join(tool), path, r.stderr))
    return r.stdout


def check_install(venv, vpy, src, env):
    r = run([vpy, "-s", "-c", PROBE], env=env, cwd="/")
    if r.returncode != 0:
        fail("import selinux in the venv:\n" + r.stderr)
    info = json.loads(r.stdout)
    print(json.dumps(info, indent=1))
    inside = os.path.realpath(venv) + os.sep
    for k in ("file", "ext", "audit2why"):
        if not os.path.realpath(info[k]).startswith(inside):
            fail("selinux's %s is %s, not inside %s" % (k, info[k], venv))
    if info["libs"]:
        fail("a libselinux.so is loaded: %s" % info["libs"])
    want = project_version(src)
    if info["version"] != want:
        fail("installed version %s, meson.build says %s" % (
            info["version"], want))
    dist = "selinux-%s.dist-info/" % want
    extra = [f for f in info["files"]
             if not (f.startswith("selinux/") or f.startswith(dist))]
    if extra:
        fail("the package installed files besides selinux/: %s" % extra)
    names = {os.path.basename(f) for f in info["files"]
             if f.startswith("selinux/")}
    if "__init__.py" not in names or not any(
            n.startswith("_selinux.") and n.endswith(".so") for n in names):
        fail("selinux/__init__.py or the extension is missing: %s" % names)
    if info["matchpathcon"] != 0:
        fail("matchpathcon('/etc/passwd') returned %r" % info["matchpathcon"])

    ext = info["ext"]
    needed = re.findall(r"\(NEEDED\).*\[(.*)\]", elf(["readelf", "-d"], ext))
    print("extension NEEDED:", " ".join(needed))
    if not needed or any(n.startswith("libselinux") for n in needed):
        fail("the extension's NEEDED list: %s" % needed)
    exported = elf(["nm", "-D", "--defined-only"], ext).split()
    exported = [w for w in exported if not re.fullmatch(r"[0-9a-f]+|[A-Za-z]",
                                                          w)]
    print("extension exports:", " ".join(exported))
    if exported != ["PyInit__selinux"]:
        fail("the extension exports more than PyInit__selinux: %s" %
             exported)
    syms = elf(["nm"], ext).split()
    if "selinux_avc_audit_open" not in syms:
        fail("the extension has no selinux_avc_audit_open: not our library")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--libdir", required=True)
    ap.add_argument("--server")
    ap.add_argument("--policy")
    args = ap.parse_args()
    for k in ("source", "work", "libdir", "server", "policy"):
        if getattr(args, k):
            setattr(args, k, os.path.abspath(getattr(args, k)))
    r = subprocess.run([PYTHON, "-c", "import ensurepip"],
                       capture_output=True)
    if r.returncode != 0:
        print("python3-venv is not installed; skipping")
        return 77
    if not os.path.isfile("/usr/lib/python3/dist-packages/mesonpy/"
                          "__init__.py"):
        print("python3-mesonpy is not installed; skipping")
        return 77

    env = clean_env()
    src = os.path.join(args.work, "src")
    venv = os.path.join(args.work, "venv")
    vpy = os.path.join(venv, "bin", "python")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    copy_tree(args.source, src)

    r = run([PYTHON, "-m", "venv", venv], env=env)
    if r.returncode != 0:
        fail("python3 -m venv:\n" + r.stdout + r.stderr)
    r = run([vpy, "-c", "import selinux"], env=env, cwd="/")
    if r.returncode == 0:
        fail("a fresh venv imports a selinux module already")

    # The documented command, plus --no-index (nothing may be downloaded)
    # and -j2 for ninja (this machine's cores are shared).
    r = run([os.path.join(venv, "bin", "pip"), "install", "--no-index",
             "--config-settings", "compile-args=-j2", "."], env=env, cwd=src)
    print(r.stdout[-3000:])
    if r.returncode != 0:
        fail("pip install .:\n" + r.stderr[-5000:])
    if os.path.exists(os.path.join(args.source, ".mesonpy-native-file.ini")):
        print("note: the checkout has a .mesonpy-native-file.ini "
              "(a pip install . there)")

    check_install(venv, vpy, src, env)

    suite = [
        [PYTHON, os.path.join(HERE, "interface.py"), "--python", vpy,
         "--libdir", args.libdir],
        [PYTHON, os.path.join(HERE, "differential.py"), "local",
         "--python", vpy, "--libdir", args.libdir],
        [vpy, "-s", os.path.join(HERE, "expect.py"), "local"],
    ]
    if args.server and args.policy:
        suite.append([args.server, args.policy, vpy, "-s",
                      os.path.join(HERE, "expect.py"), "server"])
    for cmd in suite:
        r = run(cmd, env=dict(env, **{k: os.environ[k] for k in
                                      ("SELINUXFSD",) if k in os.environ}),
                cwd=args.work)
        out = r.stdout + r.stderr
        print("\n".join(out.splitlines()[-15:]))
        if r.returncode == 77:
            print("skipping: a prerequisite of %s is missing" % cmd[1])
            return 77
        if r.returncode != 0:
            print(out[-6000:])
            fail("%s (status %d)" % (" ".join(cmd), r.returncode))
    print("pip install . into a venv: installed, ours, binding suite passed")
    return 0


sys.exit(main())
