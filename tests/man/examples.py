#!/usr/bin/env python3
"""examples.py: the EXAMPLES of the main calls' pages compile and link.

    examples.py --mandir DIR --include DIR --libdir DIR -- CC [ARG...]

Each page named in PAGES (a ".so" link is followed to its page) must have
an EXAMPLES section; each program in it (the verbatim block of the
section, read back from the roff source as a reader copies it from the
rendered page) is compiled with CC -std=gnu11 -Wall -Wextra -Werror
against --include (the public headers of the tree) and linked against
-lselinux of --libdir (the build's library), so that an example a
header change leaves behind fails here.  Exit status 1 and a line per
failure.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# The calls a user reaches first (issue 28): their pages show a program.
PAGES = ["selabel_lookup", "getcon", "setexeccon", "avc_has_perm",
         "selinux_check_access", "selinux_restorecon"]


def page_text(mandir, name):
    path = os.path.join(mandir, "man3", name + ".3")
    for _ in range(3):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        m = re.match(r"^\.so\s+(\S+)", text)
        if not m:
            return text
        path = os.path.join(mandir, m.group(1))
    return text


def programs(text):
    """The verbatim blocks of the EXAMPLES section, as plain C."""
    m = re.search(r"^\.SH\s+\"?EXAMPLES\"?\s*$(.*?)(?=^\.SH\s|\Z)", text,
                  re.S | re.M)
    if not m:
        return None
    res = []
    for block in re.findall(r"^\.nf\n(.*?)^\.fi$", m.group(1), re.S | re.M):
        code = block.replace("\\&", "").replace("\\-", "-")
        code = code.replace("\\e", "\\")
        res.append(code)
    return res


def main():
    argv = sys.argv[1:]
    k = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("--mandir", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--libdir", required=True)
    a = ap.parse_args(argv[:k])
    cc = argv[k + 1:]
    failures = n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in PAGES:
            progs = programs(page_text(a.mandir, name))
            if not progs:
                print("FAIL: %s(3): no program under EXAMPLES" % name)
                failures += 1
                continue
            for i, code in enumerate(progs):
                src = os.path.join(tmp, "%s-%d.c" % (name, i))
                with open(src, "w", encoding="utf-8") as f:
                    f.write(code)
                r = subprocess.run(
                    cc + ["-std=gnu11", "-Wall", "-Wextra", "-Werror",
                          "-I", a.include, src, "-o", src[:-2],
                          "-L", a.libdir, "-lselinux"],
                    capture_output=True, text=True, timeout=120)
                n += 1
                if r.returncode != 0:
                    failures += 1
                    print("FAIL: %s(3): the example does not build:\n%s%s"
                          % (name, r.stdout, r.stderr))
    print("%d examples of %d pages built; %d failures"
          % (n, len(PAGES), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
