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
4. each NAME of --section5 has a section 5 page;
5. every page's NAME line is whole: its summary does not end on a word
   that leads into more (a preposition, article or conjunction: "...
   concerning"), on ":" or ",", nor with a quote or parenthesis left
   open; and a section 3 summary, taken by gen-man.py from the first
   sentence of a header comment, is found in --headers' comments ending
   where a sentence or a clause (";") of the comment ends ("With
   SELABEL_OPT_DIGEST" cut from "With SELABEL_OPT_DIGEST: the SHA-1 ...");
6. every page has a SEE ALSO section, and each page it names exists:
   one of ours, or a page of another package named in EXTERNAL below.

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


# The last word of a summary cut short: articles, conjunctions and the
# prepositions that cannot end an English sentence (a stranded "in",
# "on" or "with" can: "log in", "from now on", "prints errors with").
DANGLING = {
    "a", "an", "the", "of", "to", "by", "for", "from", "into", "at", "as",
    "and", "or", "nor", "but", "than", "concerning", "about", "between",
    "through", "via", "without", "whose", "which", "that", "its", "their",
    "if", "when", "while", "whether", "is", "are", "be",
}

# Pages outside this project a SEE ALSO may name: the standard sections
# (1 user commands, 2 system calls, 7 overviews) of manpages and
# coreutils, and Debian's policycoreutils and other SELinux packages.
EXTERNAL_SECTIONS = {"1", "2", "7"}
EXTERNAL = {
    "restorecon(8)", "setfiles(8)", "setsebool(8)", "semanage(8)",
    "fixfiles(8)", "load_policy(8)", "sestatus(8)", "secon(8)",
    "semodule(8)", "mcstransd(8)", "genhomedircon(8)", "audit2allow(1)",
    "audit2why(8)", "sepolicy(8)", "restorecond(8)", "open_init_pty(8)",
    "run_init(8)", "newrole(1)", "pam_selinux(8)", "auditd(8)", "init(1)",
    "mount(8)", "passwd(1)", "crontab(1)", "fuse(8)",
    "malloc(3)", "free(3)", "getxattr(3)", "fts(3)", "realpath(3)",
    "getpwnam(3)", "syslog(3)", "printf(3)", "mcs(8)",
}


def page_files(mandir):
    """(relative path, text) of every page that is not a ".so" link."""
    for sec in ("man3", "man5", "man8"):
        d = os.path.join(mandir, sec)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            rel = os.path.join(sec, f)
            if so_target(os.path.join(mandir, rel)) is None:
                with open(os.path.join(mandir, rel), encoding="utf-8") as fh:
                    yield rel, fh.read()


def sections_of(text):
    """{heading: roff text} of a page."""
    res, cur = {}, None
    for ln in text.split("\n"):
        m = re.match(r'^\.SH\s+"?([^"]*)"?\s*$', ln)
        if m:
            cur = m.group(1).strip()
            res[cur] = ""
        elif cur:
            res[cur] += ln + "\n"
    return res


def deroff(s):
    s = re.sub(r"\\f[BIRP]", "", s)
    s = s.replace("\\-", "-").replace("\\&", "").replace("\\e", "\\")
    return s


def comment_texts(headers):
    """The comments of the headers, their frames removed, each one line."""
    res = []
    for h in headers:
        with open(h, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"/\*(.*?)\*/", text, re.S):
            body = re.sub(r"(?m)^\s*\* ?", "", m.group(1))
            res.append(" ".join(body.split()))
    return res


def drop_asides(c):
    c = c.replace("()", "\x00")
    while re.search(r"\s*\([^()]+\)", c):
        c = re.sub(r"\s*\([^()]+\)", "", c)
    return c.replace("\x00", "()")


def whole_in_source(summary, comments):
    """Whether summary is a sentence or a clause (up to ";") of one of the
    comments, as written or read as gen-man.py reads a long one: without
    asides in parentheses ("()" after a function name stays); the first
    letter in either case."""
    for c in comments + [drop_asides(c) for c in comments]:
        for m in re.finditer(r"(?:^|(?<=[.?!;:]\s))" + "[%s%s]" % (
                summary[0].upper(), summary[0].lower()) +
                re.escape(summary[1:]), c):
            if re.match(r"[.?!;]?(?:\s|$)", c[m.end():]):
                return True
    return False


def check_names(mandir, headers):
    comments = comment_texts(headers)
    n = 0
    for rel, text in page_files(mandir):
        body = sections_of(text).get("NAME", "").strip()
        if " \\- " not in body:
            fail("%s: NAME line without \"name \\- summary\": %r"
                 % (rel, body))
            continue
        summary = deroff(" ".join(body.split(" \\- ", 1)[1].split()))
        n += 1
        last = re.sub(r"\W+$", "", summary.split()[-1]).lower() \
            if summary.split() else ""
        if last in DANGLING or summary.endswith((":", ",", ";")):
            fail("%s: NAME line cut short: %r" % (rel, summary))
        elif summary.count("(") != summary.count(")") or \
                summary.count('"') % 2:
            fail("%s: NAME line leaves a parenthesis or quote open: %r"
                 % (rel, summary))
        elif rel.startswith("man3/") and \
                not whole_in_source(summary, comments):
            fail("%s: NAME line is not a whole sentence or clause of a "
                 "header comment: %r" % (rel, summary))
    return n


def check_see_also(mandir):
    n = 0
    for rel, text in page_files(mandir):
        see = sections_of(text).get("SEE ALSO")
        if see is None:
            fail("%s: no SEE ALSO" % rel)
            continue
        refs = re.findall(r"([\w.-]+)\(([1-8])\)", deroff(see))
        if not refs:
            fail("%s: an empty SEE ALSO" % rel)
        for name, sec in refs:
            ref = "%s(%s)" % (name, sec)
            if os.path.isfile(os.path.join(mandir, "man" + sec,
                                           name + "." + sec)):
                continue
            if sec in EXTERNAL_SECTIONS or ref in EXTERNAL:
                continue
            fail("%s: SEE ALSO names %s, which is no page" % (rel, ref))
        n += 1
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mandir", required=True)
    ap.add_argument("--map", required=True)
    ap.add_argument("--section5", nargs="*", default=[])
    ap.add_argument("--util", nargs="*", default=[])
    ap.add_argument("--headers", nargs="*", default=[])
    a = ap.parse_args()

    nsyms = check_symbols(a.mandir, a.map)
    npages = check_render(a.mandir)
    nutils = check_utils(a.mandir, a.util)
    nnames = check_names(a.mandir, a.headers)
    nsee = check_see_also(a.mandir)
    for name in a.section5:
        if not os.path.isfile(os.path.join(a.mandir, "man5", name + ".5")):
            fail("no page man5/%s.5" % name)
    print("%d exported symbols, %d pages rendered, %d utilities, "
          "%d file formats, %d NAME lines, %d SEE ALSO checked; "
          "%d failures" % (nsyms, npages, nutils, len(a.section5), nnames,
                           nsee, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
