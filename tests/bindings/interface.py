#!/usr/bin/python3
"""interface.py --pythonpath DIR --libdir DIR
   interface.py --python VENV/bin/python --libdir DIR

(--python: ours is that interpreter's own `selinux`, no PYTHONPATH;
tests/bindings/pip.py)

Compares the interface of our `selinux` module with Debian's
python3-selinux: for every public name of the reference,

  function  ours has it with the same parameters, unless the C function
            is missing from our libselinux.so.1 (then it is listed, not
            failed: the module can only wrap what the library exports);
  class     ours has it with the same fields;
  constant  ours has it with the same value.

A reference function whose C symbol our library exports but our module
lacks is a failure: selinuxswig.i must declare it.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys

PYTHON = "/usr/bin/python3"

DUMP = r"""
import inspect, json, selinux
res = {}
for n in dir(selinux):
    if n.startswith("_"):
        continue
    o = getattr(selinux, n)
    if isinstance(o, type):
        res[n] = ["class", sorted(k for k, v in vars(o).items()
                                  if isinstance(v, property))]
    elif callable(o):
        try:
            sig = str(inspect.signature(o))
        except (TypeError, ValueError):
            sig = "?"
        res[n] = ["function", sig]
    elif isinstance(o, (int, str)):
        res[n] = ["constant", o]
    else:
        res[n] = ["other", type(o).__name__]
print(json.dumps(res))
"""

# Deliberate differences (README.md, "Python"), with the reference's
# signature and ours.
DIFFERENT = {
    # the reference hides data and takes len only: it cannot load a policy
    "security_load_policy": ("(len)", "(data)"),
}

# Names of the reference module that are modules it imported, not its API.
IMPORTS = {"os", "shutil"}


def dump(env, python=PYTHON):
    r = subprocess.run([python, "-s", "-c", DUMP], env=env, text=True,
                       capture_output=True)
    if r.returncode != 0:
        sys.exit("dumping the interface failed:\n" + r.stderr)
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pythonpath")
    ap.add_argument("--python")
    ap.add_argument("--libdir", required=True)
    args = ap.parse_args()
    if not args.pythonpath and not args.python:
        ap.error("--pythonpath or --python is required")
    if not os.path.isdir("/usr/lib/python3/dist-packages/selinux"):
        print("Debian's python3-selinux is not installed; skipping")
        return 77

    base = {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "LD_PRELOAD")}
    ref = dump(base)
    if args.python:
        ours = dump(base, args.python)
    else:
        ours = dump(dict(base, PYTHONPATH=args.pythonpath,
                         LD_LIBRARY_PATH=args.libdir))
    lib = ctypes.CDLL(os.path.join(args.libdir, "libselinux.so.1"))

    failures, missing_in_lib = [], []
    checked = {"function": 0, "class": 0, "constant": 0}
    for name, (kind, what) in sorted(ref.items()):
        if name in IMPORTS:
            continue
        mine = ours.get(name)
        if kind == "function":
            if mine is None:
                if hasattr(lib, name):
                    failures.append("%s: exported by libselinux.so.1 but "
                                    "not wrapped" % name)
                else:
                    missing_in_lib.append(name)
                continue
            checked[kind] += 1
            want = what
            if name in DIFFERENT:
                if what != DIFFERENT[name][0]:
                    failures.append("%s: the reference's signature is now "
                                    "%s" % (name, what))
                want = DIFFERENT[name][1]
            if mine != ["function", want]:
                failures.append("%s: reference %s%s, ours %s" % (
                    name, name, want, mine))
        elif kind == "class":
            if mine is None:
                # the AVC's structures: not in our library yet
                if name.startswith("avc_") or name in (
                        "security_id", "dir_xattr"):
                    missing_in_lib.append(name)
                else:
                    failures.append("class %s missing" % name)
                continue
            checked[kind] += 1
            if mine != [kind, what]:
                failures.append("class %s: reference fields %s, ours %s" % (
                    name, what, mine[1]))
        elif kind == "constant":
            checked[kind] += 1
            if mine != [kind, what]:
                failures.append("%s: reference %r, ours %r" % (
                    name, what, mine and mine[1]))
    extra = sorted(n for n, (k, _) in ours.items()
                   if n not in ref and k in ("function", "class",
                                             "constant"))

    print("checked: %d functions, %d classes, %d constants" % (
        checked["function"], checked["class"], checked["constant"]))
    print("not in our libselinux.so.1, so not wrapped (%d): %s" % (
        len(missing_in_lib), " ".join(missing_in_lib)))
    print("ours only: %s" % (" ".join(extra) or "-"))
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


sys.exit(main())
