#!/usr/bin/env python3
"""Compare the dynamic symbols of our libselinux.so.1 with the reference ABI.

Every exported symbol must be in the reference list, in its node, or be one
of our extensions listed in EXTENSIONS, in its own node (never a
LIBSELINUX_* one); nothing else may be exported, and no other version node
may exist.  Prints how many of the 243 symbols of a 64-bit build exist.
"""
import subprocess
import sys

lib, abi = sys.argv[1], sys.argv[2]

# Our extensions, each in a version node of its own: name -> node.
EXTENSIONS = {
    # include/selinux/avc_audit.h
    "selinux_avc_audit_open": "SELINUX_AUDIT_1.0",
    "selinux_avc_audit_close": "SELINUX_AUDIT_1.0",
    # include/selinux/label_explain.h
    "selabel_lookup_explain": "SELINUX_EXPLAIN_1.0",
    "selabel_explanation_free": "SELINUX_EXPLAIN_1.0",
}

ref = {}
for line in open(abi):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name, node = line.split()
    ref[name] = node
# matchpathcon_filespec_add64 exists only on 32-bit builds.
ref64 = {n: v for n, v in ref.items() if n != "matchpathcon_filespec_add64"}

out = subprocess.run(["objdump", "-T", lib], capture_output=True, text=True,
                     check=True).stdout
exported = {}
nodes = set()
for line in out.splitlines():
    parts = line.split()
    # "0000... g    DF .text  0000... LIBSELINUX_1.0 getcon"
    if len(parts) < 7 or "*UND*" in line:
        continue
    if parts[1] not in ("g", "w") and "g" not in parts[1]:
        continue
    name, node = parts[-1], parts[-2]
    if parts[-3] == "Base" or node.startswith("("):
        continue
    if name == node:  # the version definition itself
        nodes.add(node)
        continue
    exported[name] = node

errors = []
for name, node in sorted(exported.items()):
    if name in EXTENSIONS:
        if node != EXTENSIONS[name]:
            errors.append(f"extension {name}: exported in {node}, "
                          f"expected {EXTENSIONS[name]}")
    elif name not in ref:
        errors.append(f"exported but neither in the reference ABI nor an "
                      f"extension: {name}@{node}")
    elif ref[name] != node:
        errors.append(f"{name}: exported in {node}, reference has {ref[name]}")
for name, node in sorted(EXTENSIONS.items()):
    if name not in exported:
        errors.append(f"extension missing: {name}@{node}")
ext_nodes = set(EXTENSIONS.values())
for n in sorted(nodes - set(ref.values()) - ext_nodes):
    errors.append(f"version node neither in the reference nor an extension: {n}")

want_nodes = sorted(set(ref.values()), key=lambda v: [int(x) for x in v.split("_")[1].split(".")])
for n in want_nodes:
    if n not in nodes:
        errors.append(f"version node missing: {n}")

have = sorted(n for n in exported if n in ref64)
missing = sorted(n for n in ref64 if n not in exported)
print(f"ABI: {len(have)} of {len(ref64)} reference symbols exported, "
      f"{len(missing)} not yet")
for node in want_nodes:
    names = [n for n in ref64 if ref64[n] == node]
    got = [n for n in names if n in exported]
    print(f"  {node:16s} {len(got):3d} / {len(names):3d}")
if "-v" in sys.argv:
    for n in missing:
        print(f"  missing: {n}@{ref64[n]}")
for node in sorted(ext_nodes):
    names = sorted(n for n, v in EXTENSIONS.items() if v == node)
    got = [n for n in names if n in exported]
    print(f"  {node:16s} {len(got):3d} / {len(names):3d}  (extension)")
# The libraries ours loads into every program that links it: no more than
# Debian's libselinux1 does (libc, libpcre2-8).  Extensions that need more
# load it when turned on (libaudit: avc/audit_ext.c).
NEEDED_ALLOWED = {"libc.so.6", "libpcre2-8.so.0", "ld-linux-x86-64.so.2"}
dyn = subprocess.run(["readelf", "-d", lib], capture_output=True, text=True,
                     check=True).stdout
needed = {l.split("[")[1].rstrip("]") for l in dyn.splitlines()
          if "(NEEDED)" in l}
print(f"  NEEDED: {' '.join(sorted(needed))}")
# a sanitized build links the sanitizers' runtimes
needed = {n for n in needed if not n.startswith(("libasan.", "libubsan.",
                                                 "libtsan."))}
for n in sorted(needed - NEEDED_ALLOWED):
    errors.append(f"links a library Debian's libselinux1 does not: {n}")

for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
