#!/usr/bin/env python3
"""check-man.py: the manual pages are complete, clean and true to the programs.

    check-man.py --mandir DIR --map libselinux.map
                 [--section5 NAME...] [--util NAME=PATH...]

1. every name exported by libselinux.map has a section 3 page, a file or
   a ".so" link that leads to a page that exists and is not a link;
2. every page under DIR/man{3,5,8} that is not a ".so" link (whose
   target must exist) renders with
   LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l -Tutf8 PAGE
   (run from DIR, so that ".so man3/x.3" means our page) with nothing on
   stderr;
3. each utility NAME (its program at PATH) has a section 8 page whose
   SYNOPSIS is the usage message the program prints when run without
   arguments (or, if it prints none, with -h): the same forms, each
   "usage:" line's text with the program's path replaced by its name (a
   long form may wrap; forms joined by "or" on one usage line count as
   the page's separate forms; on a page shared by several programs, the
   forms naming NAME).  A
   program that prints no usage message must have a bare "NAME" synopsis;
4. each NAME of --section5 has a section 5 page.

Exit status 1 and a line per failure when anything is wrong.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def map_symbols(path):
    syms = []
    for ln in open(path, encoding="utf-8"):
        m = re.match(r"^\s+([A-Za-z_]\w*);\s*$", ln)
        if m:
            syms.append(m.group(1))
    return syms


def so_target(path):
    """The page a ".so" link names (relative to the man dir), or None."""
    with open(path, encoding="utf-8") as f:
        first = f.readline().strip()
    m = re.match(r"^\.so\s+(\S+)$", first)
    return m.group(1) if m else None


def check_symbols(mandir, mapfile):
    syms = map_symbols(mapfile)
    if len(syms) < 200:
        fail("only %d symbols read from %s" % (len(syms), mapfile))
    for sym in syms:
        page = os.path.join(mandir, "man3", sym + ".3")
        if not os.path.isfile(page):
            fail("%s: no page man3/%s.3" % (sym, sym))
            continue
        target = so_target(page)
        if target is None:
            continue
        tpath = os.path.join(mandir, target)
        if not os.path.isfile(tpath):
            fail("%s: man3/%s.3 links to %s, which does not exist"
                 % (sym, sym, target))
        elif so_target(tpath) is not None:
            fail("%s: man3/%s.3 links to %s, itself a link"
                 % (sym, sym, target))
    return len(syms)


def render(mandir, rel, width=80):
    # man-db's seccomp sandbox doubles the time of a run on a loaded
    # machine; the pages are ours, there is nothing to sandbox against
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH=str(width),
               MAN_DISABLE_SECCOMP="1")
    env.pop("MANPATH", None)
    r = subprocess.run(["man", "--warnings", "-l", "-Tutf8", rel],
                       cwd=mandir, env=env, capture_output=True, text=True,
                       timeout=60)
    text = re.sub(r".\x08", "", r.stdout)
    return r.returncode, text, r.stderr


def check_render(mandir):
    pages = []
    for sec in ("man3", "man5", "man8"):
        d = os.path.join(mandir, sec)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            rel = os.path.join(sec, f)
            target = so_target(os.path.join(mandir, rel))
            if target is None:
                pages.append(rel)
            elif not os.path.isfile(os.path.join(mandir, target)):
                # a link renders as its target, rendered on its own
                fail("%s: links to %s, which does not exist" % (rel, target))
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = pool.map(lambda p: (p, render(mandir, p)), pages)
        for page, (rc, out, err) in results:
            if rc != 0 or err.strip():
                fail("%s: man --warnings: status %d: %s"
                     % (page, rc, err.strip()))
            elif "NAME" not in out:
                fail("%s: renders without a NAME section" % page)
    return len(pages)


def synopsis_forms(mandir, name):
    """The SYNOPSIS forms of NAME's section 8 page, one a line."""
    rel = os.path.join("man8", name + ".8")
    if not os.path.isfile(os.path.join(mandir, rel)):
        return None
    rc, out, err = render(mandir, rel, width=1000)
    forms, inside, base = [], False, None
    for ln in out.split("\n"):
        if re.match(r"^[A-Z][A-Z ]+$", ln):
            inside = ln.strip() == "SYNOPSIS"
            continue
        if not inside or not ln.strip():
            continue
        indent = len(ln) - len(ln.lstrip())
        if base is None:
            base = indent
        if indent > base and forms:
            # a long form continues, indented under its arguments
            forms[-1] += " " + " ".join(ln.split())
        else:
            forms.append(" ".join(ln.split()))
    return forms


def usage_forms(name, path):
    """The forms of the usage message PATH prints, or [] when it prints
    none with no arguments nor with -h."""
    for args in ([], ["-h"]):
        try:
            r = subprocess.run([path] + args, stdin=subprocess.DEVNULL,
                               capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            continue
        lines = (r.stdout + "\n" + r.stderr).split("\n")
        for k, ln in enumerate(lines):
            m = re.match(r"^\s*usage:\s+(.*)$", ln, re.I)
            if not m:
                continue
            forms = [m.group(1)]
            # further forms: indented lines that start with the program
            for nxt in lines[k + 1:]:
                if re.match(r"^\s+(%s|%s)\s" % (re.escape(path),
                                               re.escape(name)), nxt):
                    forms.append(nxt.strip())
                else:
                    break
            return [" ".join(f.replace(path, name).split()) for f in forms]
    return []


def check_utils(mandir, utils):
    for spec in utils:
        name, path = spec.split("=", 1)
        page = synopsis_forms(mandir, name)
        if page is None:
            fail("%s: no page man8/%s.8" % (name, name))
            continue
        if not page:
            fail("%s: the page has no SYNOPSIS" % name)
            continue
        usage = usage_forms(name, path)
        if not usage:
            if page != [name]:
                fail("%s: prints no usage message, but the page's "
                     "SYNOPSIS is %r" % (name, page))
            continue
        # a page may document several programs (compute_create, _member
        # and _relabel): the forms of this one are those naming it
        own = [f for f in page if f.split()[0] == name]
        if usage == own or usage == [" or ".join(own)]:
            continue
        fail("%s: usage %r but SYNOPSIS %r" % (name, usage, page))
    return len(utils)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mandir", required=True)
    ap.add_argument("--map", required=True)
    ap.add_argument("--section5", nargs="*", default=[])
    ap.add_argument("--util", nargs="*", default=[])
    a = ap.parse_args()

    nsyms = check_symbols(a.mandir, a.map)
    npages = check_render(a.mandir)
    nutils = check_utils(a.mandir, a.util)
    for name in a.section5:
        if not os.path.isfile(os.path.join(a.mandir, "man5", name + ".5")):
            fail("no page man5/%s.5" % name)
    print("%d exported symbols, %d pages rendered, %d utilities, "
          "%d file formats checked; %d failures"
          % (nsyms, npages, nutils, len(a.section5), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
