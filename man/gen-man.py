#!/usr/bin/env python3
"""gen-man.py: the manual pages, generated from the sources that document.

    gen-man.py man3 [--list] [--map MAP] OUTDIR HEADER...
    gen-man.py man8 [--list] OUTDIR SOURCE.c...
    gen-man.py man5 [--list] OUTDIR PAGE.txt...

man3: one page per documented group of the public headers.  A comment
directly above one or more declarations (no blank line between) documents
them all: they share one page, named after the first, and the others get
".so man3/FIRST.3" links.  A comment followed by a blank line introduces
the function groups after it (its text opens their DESCRIPTION) until the
next such comment or the next comment on a type.  The first sentence of a
group's comment is the NAME line; sentences starting "Returns", "0, or -1"
... make RETURN VALUE; the header's own opening comment becomes NOTES.
A paragraph "Example...:" and what follows it to the end of the comment
(a whole program, indented) make EXAMPLES; tests/man compiles each.
With --map, exported names that no header declares (selinux_mnt) get a
link to the page whose comment mentions them.

man8 and man5: a page written as plain text, as it reads once rendered:
the first comment of a program's source (man8) or a whole .txt file
(man5), in this form:

    name[, other-name...] - one-line summary

    SYNOPSIS
        prog [-x value] file...
    DESCRIPTION
        Text, indented by 4.  A blank line ends a paragraph.
        -x value
            A line at 4 followed by lines at 8 is a tagged paragraph.

            A paragraph starting at 8 without a tag is shown verbatim.
    SEE ALSO
        other(8), page(5)

Headings are upper-case lines at column 0.  In SYNOPSIS each line is one
form of the command line: the name and words starting with "-" or an
capital and then a lower-case letter or with a digit are literal (bold),
other words placeholders (italics).

--list prints the names of the files that would be written (for meson)
and writes nothing.  Python 3 standard library only.
"""
import os
import re
import sys

FOOTER = "libselinux"

# --- roff text helpers ---------------------------------------------------


def esc(s):
    """Escape plain text for roff (no font changes)."""
    s = s.replace("\\", "\\e")
    # a minus sign where it starts a word: options, negative numbers
    s = re.sub(r"(^|[\s(\[|{=,/])-(?=[-\w])", lambda m: m.group(1) + "\\-", s)
    s = re.sub(r"(^|[\s(\[|{=,/])\\-(?=-)", lambda m: m.group(1) + "\\-\\", s)
    s = s.replace("\\-\\-", "\\-\\-")
    return s


def line_start(s):
    """Protect a line that roff would take for a request."""
    return "\\&" + s if s[:1] in (".", "'") else s


MANREF = re.compile(r"\b([A-Za-z_][\w.-]*)\(([1-8])\)")
FUNCREF = re.compile(r"\b([A-Za-z_]\w*)\(\)")


def inline(s):
    """Escape text and embolden function names and man page references."""
    s = esc(s)
    s = MANREF.sub(lambda m: "\\fB%s\\fP(%s)" % (m.group(1), m.group(2)), s)
    s = FUNCREF.sub(lambda m: "\\fB%s\\fP()" % m.group(1), s)
    return s


ABBREV = ("e.g.", "i.e.", "etc.", "vs.", "cf.")


def sentences(text):
    """Split a paragraph into sentences (one per roff line, as roff likes)."""
    text = " ".join(text.split())
    out, start = [], 0
    for m in re.finditer(r"\.\)?\"?\s+(?=[A-Za-z0-9\"(*\-])", text):
        prev = text[start:m.start() + 1]
        word = prev.split()[-1] if prev.split() else ""
        if word.lower().lstrip("(\"") in ABBREV or word.endswith("..."):
            continue
        # a sentence may start with a lower-case identifier ("pid <= 0
        # fails", "avc_open() may"), never after an abbreviation
        out.append(text[start:m.end()].strip())
        start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def th(name, section, source=FOOTER, manual=None):
    manual = manual or {
        "3": "SELinux API documentation",
        "5": "SELinux configuration files",
        "8": "SELinux utilities",
    }[section]
    # .nh: identifiers would otherwise be hyphenated at their underscores
    return '.TH "%s" "%s" "" "%s" "%s"\n.nh\n.ad l\n' % (name, section, source,
                                                 manual)


def so_link(section, target):
    return ".so man%s/%s.%s\n" % (section, target, section)


# --- man3: the public headers ---------------------------------------------


class Item:
    def __init__(self, kind, text, line):
        self.kind = kind  # comment, blank, decl, define, pp
        self.text = text
        self.line = line
        self.func = None  # function name, for a function declaration
        self.deprecated = None  # the deprecated("...") message, or ""


def lex_header(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    items, i, n = [], 0, len(lines)
    while i < n:
        ln = lines[i]
        s = ln.strip()
        if not s:
            items.append(Item("blank", "", i + 1))
            i += 1
        elif s.startswith("/*"):
            start = i
            body = [ln]
            while "*/" not in lines[i]:
                i += 1
                body.append(lines[i])
            items.append(Item("comment", "\n".join(body), start + 1))
            i += 1
        elif s.startswith("#"):
            # a #define that continues with backslashes counts as one
            text = ln
            while text.endswith("\\") and i + 1 < n:
                i += 1
                text = text[:-1] + lines[i]
            m = re.match(r"#\s*define\s+(\w+)", text.strip())
            kind = "define" if m and not m.group(1).startswith("_") and \
                not m.group(1).endswith("_H") else "pp"
            items.append(Item(kind, text.strip(), i + 1))
            i += 1
        elif s in ('extern "C" {', "}"):
            items.append(Item("pp", s, i + 1))
            i += 1
        else:
            start, depth, body, depr = i, 0, [], None
            while True:
                cur = lines[i]
                if cur.strip().startswith("#ifdef __GNUC__"):
                    # attributes for GCC only: keep the deprecation message
                    i += 1
                    while not lines[i].strip().startswith("#endif"):
                        m = re.search(r"deprecated(?:\(\"([^\"]*)\"\))?",
                                      lines[i])
                        if m:
                            depr = m.group(1) or ""
                        i += 1
                    i += 1
                    continue
                if cur.strip().startswith("#"):
                    i += 1
                    continue
                body.append(cur)
                code = re.sub(r"/\*.*?\*/", "", cur)
                depth += code.count("{") + code.count("(")
                depth -= code.count("}") + code.count(")")
                i += 1
                if depth <= 0 and code.rstrip().endswith(";"):
                    break
                if i >= n:
                    break
            text = re.sub(r"/\*.*?\*/", "", "\n".join(body), flags=re.S)
            it = Item("decl", text, start + 1)
            it.deprecated = depr
            flat = " ".join(text.split())
            if not flat.startswith("typedef") and "{" not in flat:
                m = re.search(r"(\w+)\s*\(", flat)
                if m and "(*" not in flat[:m.start()]:
                    it.func = m.group(1)
            items.append(it)
    return items


def comment_lines(text):
    """The text lines of a C comment, without the frame."""
    text = re.sub(r"^\s*/\*+", "", text)
    text = re.sub(r"\*+/\s*$", "", text)
    out = []
    for ln in text.split("\n"):
        ln = ln.rstrip()
        m = re.match(r"^\s*\* ?(.*)$", ln)
        out.append(m.group(1) if m else ln.strip())
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def blocks(lines):
    """Comment lines as blocks: ('p', text), ('li', text), ('pre', lines)."""
    res, para, mode = [], [], None

    def flush():
        nonlocal para, mode
        if para:
            if mode == "pre":
                res.append(("pre", para))
            else:
                res.append((mode, " ".join(x.strip() for x in para)))
        para, mode = [], None

    for ln in lines:
        ind = len(ln) - len(ln.lstrip())
        s = ln.strip()
        if not s:
            flush()
            res.append(("br", None))
        elif re.match(r"^-\s", s) and ind <= 1:
            flush()
            mode, para = "li", [s[1:].strip()]
        elif ind >= 2 and mode == "li":
            para.append(s)
        elif ind >= 2:
            if mode != "pre":
                flush()
                mode = "pre"
            para.append(ln[2:] if ln.startswith("  ") else ln)
        else:
            if mode not in ("p", None):
                flush()
            mode = "p"
            para.append(s)
    flush()
    return res


RETURN = re.compile(
    r"^(Returns?\b|Return value|On success|On failure|Failure\b|Fails\b|"
    r"Never fails|-1\b|0,|0 (if|when|and|or|at|on)\b|1 (if|when)\b|"
    r"NULL (on|with|when)\b|Both return|\*\w+ NULL and -1)")


def render_blocks(bl, pick=None, pre=True):
    """roff for blocks; pick(sentence) -> bool keeps only those sentences,
    pre says whether verbatim blocks are kept."""
    out, need_pp = [], False
    for kind, val in bl:
        if kind == "br":
            need_pp = True
            continue
        if kind == "pre" and not pre:
            continue
        if kind == "pre":
            out.append(".PP\n.RS 4\n.nf\n")
            for ln in val:
                out.append(line_start(esc(ln)) + "\n")
            out.append(".fi\n.RE\n")
            need_pp = True
            continue
        sents = sentences(val)
        if pick:
            sents = [x for x in sents if pick(x)]
        if not sents:
            continue
        if kind == "li":
            out.append(".IP \\(bu 2\n")
        elif need_pp or not out or out[-1] == ".fi\n.RE\n":
            out.append(".PP\n")
        elif out and kind == "p" and out[-1].startswith(".IP"):
            out.append(".PP\n")
        need_pp = False
        for x in sents:
            out.append(line_start(inline(x)) + "\n")
    text = "".join(out)
    # a list's items end with the paragraph after it
    return text


def split_params(params):
    res, depth, cur = [], 0, ""
    for ch in params:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            res.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        res.append(cur.strip())
    return res


KEYWORDS = {"const", "char", "int", "unsigned", "long", "short", "void",
            "struct", "union", "enum", "size_t", "bool", "signed"}


def param_atoms(p, last):
    """A parameter as (plain, roff) pieces a line may break after, with its
    name in italics; a function pointer breaks after each of its own
    parameters."""
    end = ")" if last else ","
    m = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", p, re.S)
    if m:
        head = p[:m.start(1)]
        first = (head + m.group(1) + ")(",
                 esc(head) + "\\fI" + m.group(1) + "\\fP)(")
        inner = split_params(m.group(2))
        atoms = []
        for k, q in enumerate(inner):
            plain, roff = param_atoms(q, k == len(inner) - 1)[0]
            if k == 0:
                plain, roff = first[0] + plain, first[1] + roff
            atoms.append((plain, roff))
        atoms[-1] = (atoms[-1][0] + end, atoms[-1][1] + end)
        return atoms
    m = re.search(r"(\w+)(\s*(\[[^\]]*\])?)$", p)
    if m and m.group(1) not in KEYWORDS and p.strip() != m.group(1) and \
            not re.fullmatch(r"[\w\s]*?\b(struct|union|enum)\s+\w+", p):
        roff = esc(p[:m.start(1)]) + "\\fI" + m.group(1) + "\\fP" + \
            esc(m.group(2))
    else:
        roff = esc(p)
    return [(p + end, roff + end)]


def fmt_decl(text, name):
    """A declaration for SYNOPSIS: function name bold, parameters italic,
    wrapped at commas to stay under 78 columns."""
    flat = " ".join(text.split())
    flat = re.sub(r"^extern\s+", "", flat).rstrip(";").strip()
    flat = re.sub(r"\(\s+", "(", flat)
    pos = re.search(r"\b%s\s*\(" % re.escape(name), flat).start()
    head = flat[:pos]
    rest = flat[pos + len(name):].lstrip()
    # find the parameter list's closing parenthesis
    depth = 0
    for j, ch in enumerate(rest):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            break
    params = split_params(rest[1:j])
    tail = rest[j + 1:].strip()
    atoms = []
    for k, p in enumerate(params):
        atoms += param_atoms(p, k == len(params) - 1)
    if not atoms:
        atoms = [(")", ")")]
    atoms[-1] = (atoms[-1][0] + (" " + tail if tail else "") + ";",
                 atoms[-1][1] + (" " + esc(tail) if tail else "") + ";")
    plain_head = head + name + "("
    indent = " " * len(plain_head) if len(plain_head) < 40 else " " * 8
    lines = []
    cur, cur_len = esc(head) + "\\fB" + name + "\\fP(", len(plain_head)
    fresh = True
    for plain, roff in atoms:
        if not fresh and cur_len + 1 + len(plain) > 76:
            lines.append(cur)
            cur, cur_len, fresh = indent, len(indent), True
        sep = "" if fresh else " "
        cur += sep + roff
        cur_len += len(sep) + len(plain)
        fresh = False
    lines.append(cur)
    return "\n".join(line_start(x) for x in lines)


class Group:
    def __init__(self, header, comment, section, funcs, defines):
        self.header = header
        self.comment = comment  # list of comment lines, or None
        self.section = section  # list of comment lines, or None
        self.funcs = funcs  # decl Items
        self.defines = defines  # define Items
        self.extra = []  # exported names documented here, not declared
        self.overview = None
        self.merged = []  # (function, comment) of "The same ..." groups

    @property
    def names(self):
        return [f.func for f in self.funcs] + self.extra

    @property
    def page(self):
        return self.funcs[0].func

    def text(self):
        return "\n".join((self.section or []) + (self.comment or []) + [
            ln for f, c in self.merged for ln in c])


def groups_of(path):
    items = [x for x in lex_header(path) if x.kind != "pp"]
    overview = None
    if items and items[0].kind == "comment":
        overview = comment_lines(items[0].text)
        # "selinux.h - the core API." : drop the file name
        if overview:
            overview[0] = re.sub(r"^(selinux/)?[\w.]+\.h\s*(-|:)\s*", "",
                                 overview[0])
            if overview[0]:
                overview[0] = overview[0][0].upper() + overview[0][1:]
        items = items[1:]
    header = "selinux/" + os.path.basename(path)
    groups, section, i = [], None, 0
    while i < len(items):
        it = items[i]
        if it.kind == "comment":
            nxt = items[i + 1] if i + 1 < len(items) else None
            if nxt is None or nxt.kind == "blank":
                section = comment_lines(it.text)
                i += 1
                continue
            if nxt.kind == "comment":
                i += 1
                continue
            comment = comment_lines(it.text)
            i += 1
        elif it.kind in ("decl", "define"):
            comment = None
        else:
            i += 1
            continue
        funcs, defines, j = [], [], i
        while j < len(items) and items[j].kind in ("decl", "define"):
            if items[j].kind == "define":
                defines.append(items[j])
            elif items[j].func:
                funcs.append(items[j])
            else:
                break
            j += 1
        if funcs and comment and groups and groups[-1].funcs[-1].line < \
                funcs[0].line and re.match(r"(The same|As above)\b",
                                            comment[0]):
            # "The same for ...": documented by the comment before it
            groups[-1].funcs += funcs
            groups[-1].defines += defines
            groups[-1].merged.append((funcs[0].func, comment))
        elif funcs:
            g = Group(header, comment, section, funcs, defines)
            g.overview = overview
            groups.append(g)
        elif comment is not None:
            # a comment on a type or constant ends the introduction
            section = None
        i = max(j, i + 1)
    return groups


def drop_asides(s):
    """s without its asides in parentheses, innermost first; the "()" after
    a function name stays."""
    s = s.replace("()", "\x00")
    while re.search(r"\s*\([^()]+\)", s):
        s = re.sub(r"\s*\([^()]+\)", "", s)
    return s.replace("\x00", "()")


def name_summary(lines, fallback):
    """The NAME line's summary: the comment's first sentence, when long
    without its asides in parentheses and, when still long, up to its
    first ";".
    Never cut elsewhere: a phrase cut at a comma or colon reads as a
    different statement or as none ("With SELABEL_OPT_DIGEST"); a first
    sentence that makes a poor NAME line is rewritten in the header
    (tests/man checks that each NAME line is a whole sentence or clause
    of a header comment)."""
    if not lines:
        return fallback
    bl = [b for b in blocks(lines) if b[0] == "p"]
    if not bl:
        return fallback
    first = sentences(bl[0][1])[0]
    s = first.rstrip(".")
    if len(s) > 60:
        s = drop_asides(s)
    if len(s) > 70 and "; " in s:
        s = s[:s.index("; ")]
    if len(s) > 1 and s[0].isupper() and not s[1].isupper():
        s = s[0].lower() + s[1:]
    return s


def split_example(bl):
    """A comment's blocks without, and with, its example: a paragraph that
    starts with "Example" and ends with ":", and all that follows it (a
    program in indented lines, which tests/man compiles)."""
    for k, (kind, val) in enumerate(bl):
        if kind == "p" and val.startswith("Example") and val.endswith(":"):
            return bl[:k], bl[k:]
    return bl, []


def render_example(bl):
    """The EXAMPLES section: the introduction, then the program's
    indented blocks as one, blank lines between them kept."""
    out, code = [], []
    for kind, val in bl:
        if kind == "pre":
            if code:
                code.append("")
            code += val
        elif kind in ("p", "li"):
            # "Example: print ..." reads "Print ..." under EXAMPLES
            val = re.sub(r"^Example:\s*", "", val)
            if val:
                out.append(render_blocks([(kind, val[0].upper() + val[1:])]))
    out.append(".PP\n.RS 4\n.nf\n")
    out += [line_start(esc(ln)) + "\n" if ln else "\n" for ln in code]
    out.append(".fi\n.RE\n")
    return "".join(out)


def page3(g, all_pages, related):
    names = g.names
    out = [th(g.page, "3")]
    summary = name_summary(g.comment or g.section, "SELinux library call")
    out.append(".SH NAME\n%s \\- %s\n" % (", ".join(names), esc(summary)))
    out.append(".SH SYNOPSIS\n.nf\n\\fB#include <%s>\\fP\n" % g.header)
    if g.defines:
        out.append(".PP\n")
        for d in g.defines:
            out.append(line_start(esc(re.sub(
                r"\s*/\*.*?\*/", "", d.text))) + "\n")
    for f in g.funcs:
        out.append(".PP\n" + fmt_decl(f.text, f.func) + "\n")
    out.append(".fi\n")
    if g.extra:
        out.append(".PP\n.nf\n")
        for e in g.extra:
            out.append("\\fBextern\\fP ... \\fB%s\\fP;\n" % e)
        out.append(".fi\n")
    bl = blocks(g.comment) if g.comment else []
    bl, example = split_example(bl)
    for f, c in g.merged:
        bl += [("br", None)] + [
            (k, ("%s(): " % f) + v if k == "p" and n == 0 else v)
            for n, (k, v) in enumerate(blocks(c))]
    if g.section:
        bl += [("br", None)] + blocks(g.section)
    desc = render_blocks(bl, lambda s: not RETURN.match(s))
    ret = render_blocks(bl, lambda s: bool(RETURN.match(s)), pre=False)
    if not desc.strip():
        desc = render_blocks(bl)
    out.append(".SH DESCRIPTION\n" + (desc or ".PP\nUndocumented.\n"))
    if ret:
        out.append(".SH RETURN VALUE\n" + ret)
    elif all(re.match(r"^(extern\s+)?void\s", " ".join(f.text.split()))
             for f in g.funcs):
        out.append(".SH RETURN VALUE\n.PP\n%s no value.\n" % (
            "This function returns" if len(g.funcs) == 1
            else "These functions return"))
    if example:
        out.append(".SH EXAMPLES\n" + render_example(example))
    notes = []
    for f in g.funcs:
        if f.deprecated is not None:
            msg = f.deprecated.rstrip(".")
            notes.append(".PP\n\\fB%s\\fP() is deprecated%s.\n" % (
                f.func, (": " + inline(msg[0].lower() + msg[1:]))
                if msg else ""))
    if g.overview:
        notes.append(".PP\nFrom \\fI<%s>\\fP:\n" % g.header)
        notes.append(render_blocks(blocks(g.overview)))
    if notes:
        out.append(".SH NOTES\n" + "".join(notes))
    out.append(".SH SEE ALSO\n" + ",\n".join(
        "\\fB%s\\fP(%s)" % r for r in see_also(g, all_pages, related))
        + "\n")
    return "".join(out)


# Pages of other sections that every page of a header leads to: the file
# formats the calls read and the programs built on them.
HEADER_SEE = {
    "selinux/label.h": [("file_contexts", "5"), ("selabel_file", "5"),
                        ("selabel_media", "5"), ("selabel_x", "5"),
                        ("selabel_db", "5"), ("selabel_lookup", "8")],
    "selinux/restorecon.h": [("file_contexts", "5"), ("restorecon", "8"),
                             ("setfiles", "8")],
    "selinux/get_context_list.h": [("default_contexts", "5"),
                                   ("user_contexts", "5"),
                                   ("getconlist", "8"),
                                   ("getdefaultcon", "8")],
    "selinux/avc.h": [("avcstat", "8")],
    "selinux/avc_audit.h": [("auditd", "8")],
}


# The call a header's other calls start from (a handle's opening).
HEADER_MAIN = {
    "selinux/label.h": "selabel_open",
    "selinux/avc.h": "avc_open",
    "selinux/restorecon.h": "selinux_restorecon",
    "selinux/context.h": "context_new",
    "selinux/get_context_list.h": "get_ordered_context_list",
}


def see_also(g, all_pages, related):
    """The SEE ALSO of a group's page, most specific first: the calls its
    comments name, the call its header's handle starts from, the pages of its introduction and header neighbours
    (related), the man pages its comments name, the header's other
    sections' pages, and selinux(8), the overview."""
    names = g.names
    refs = []

    def add(name, sec):
        if (name, sec) not in refs and not (sec == "3" and name in names):
            refs.append((name, sec))

    for m in re.finditer(r"\b(\w+)\(\)", g.text()):
        if m.group(1) in all_pages:
            add(all_pages[m.group(1)].page, "3")
    if g.header in HEADER_MAIN:
        add(HEADER_MAIN[g.header], "3")
    for r in related:
        add(r.page, "3")
    for m in MANREF.finditer(g.text()):
        add(m.group(1), m.group(2))
    for name, sec in HEADER_SEE.get(g.header, []):
        add(name, sec)
    add("selinux", "8")
    return refs


def map_symbols(path):
    syms = []
    for ln in open(path, encoding="utf-8"):
        m = re.match(r"^\s+([A-Za-z_]\w*);\s*$", ln)
        if m:
            syms.append(m.group(1))
    return syms


def man3(outdir, headers, mapfile, listonly):
    groups = []
    for h in headers:
        groups += groups_of(h)
    declared = {}
    for g in groups:
        for n in g.names:
            declared.setdefault(n, g)
    if mapfile:
        for sym in map_symbols(mapfile):
            if sym in declared:
                continue
            for g in groups:
                if re.search(r"\b%s\b" % re.escape(sym), g.text()):
                    g.extra.append(sym)
                    declared[sym] = g
                    break
            else:
                print("gen-man.py: %s is exported but documented nowhere"
                      % sym, file=sys.stderr)
    files = {}
    for g in groups:
        if g.comment is None and g.section is None:
            print("gen-man.py: %s:%d: %s has no comment" % (
                g.header, g.funcs[0].line, g.page), file=sys.stderr)
        files[g.page + ".3"] = (g, None)
        for n in g.names[1:]:
            if n + ".3" not in files:
                files[n + ".3"] = (None, g.page)
    if listonly:
        print("\n".join(sorted(files)))
        return
    # a page's relatives: the groups its introduction also opens, else
    # the groups before and after it in its header
    related = {}
    for k, g in enumerate(groups):
        same = [x for x in groups if x is not g and x.section is not None
                and x.section is g.section]
        near = [groups[j] for j in (k - 1, k + 1) if 0 <= j < len(groups)
                and groups[j].header == g.header]
        related[id(g)] = (same + [x for x in near if x not in same])[:6]
    for fname, (g, target) in files.items():
        text = page3(g, declared, related[id(g)]) if g else \
            so_link("3", target)
        write(outdir, fname, text)


# --- man5, man8: pages written as they read -------------------------------


def first_comment(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"/\*(.*?)\*/", text, re.S)
    return comment_lines("/*" + m.group(1) + "*/") if m else []


def parse_plain(lines, where):
    """(names, summary, [(heading, lines)]) of a page written as text."""
    lines = [ln.expandtabs(8).rstrip() for ln in lines]
    while lines and not lines[0].strip():
        lines.pop(0)
    m = re.match(r"^([\w.,\s-]+?)\s+-\s+(.*)$", lines[0]) if lines else None
    if not m:
        raise ValueError("%s: the page must start with 'name - summary'"
                         % where)
    names = [x.strip() for x in m.group(1).split(",")]
    summary = m.group(2)
    k = 1
    while k < len(lines) and lines[k].strip() and lines[k].startswith(" "):
        summary += " " + lines[k].strip()
        k += 1
    sections, cur = [], None
    for ln in lines[k:]:
        if ln and not ln[0].isspace() and re.match(r"^[A-Z][A-Z ]+$", ln):
            cur = (ln.strip(), [])
            sections.append(cur)
        elif cur is None:
            if ln.strip():
                raise ValueError("%s: text before the first heading: %r"
                                 % (where, ln))
        else:
            cur[1].append(ln)
    if not any(s[0] == "SYNOPSIS" for s in sections) and where.endswith(".c"):
        raise ValueError("%s: no SYNOPSIS" % where)
    return names, summary, sections


def indent_of(ln):
    return len(ln) - len(ln.lstrip())


def synopsis_form(s):
    """The arguments of a command line: words starting with "-", a digit or
    a capital and a lower-case letter are literal (bold), the others are
    placeholders (italics); a [bracketed group] is not broken."""
    s = re.sub(r"\[[^\[\]]*\]", lambda m: m.group(0).replace(" ", "\x00"), s)
    out = []
    for w in s.split():
        out.append(re.sub(
            r"[^\[\]|{}.\x00]+",
            lambda m: ("\\fB%s\\fP" if re.match(r"^(-|[0-9]|[A-Z][a-z])",
                                               m.group(0))
                       else "\\fI%s\\fP") % esc(m.group(0)), w))
    return " ".join(out).replace("\x00", "\\ ")


def tag_text(s):
    """A tag of a tagged paragraph: "-l level" with the option bold."""
    words = s.split(" ")
    out = []
    for w in words:
        if re.match(r"^-", w):
            out.append("\\fB%s\\fP" % esc(w))
        elif re.match(r"^[a-z][\w.]*\.{0,3}$", w) and out:
            out.append("\\fI%s\\fP" % esc(w))
        else:
            out.append(inline(w))
    return " ".join(out)


def render_section(body):
    """Lines of one section (indent 4 text, 8 tag bodies) as roff."""
    out, k, n = [], 0, len(body)
    text = []

    def flush():
        if text:
            out.append(".PP\n")
            for s in sentences(" ".join(text)):
                out.append(line_start(inline(s)) + "\n")
            text.clear()

    while k < n:
        ln = body[k]
        if not ln.strip():
            flush()
            k += 1
        elif indent_of(ln) >= 8:
            # verbatim: a block at 8 that no tag line introduces
            flush()
            out.append(".PP\n.RS 4\n.nf\n")
            while k < n and body[k].strip() and indent_of(body[k]) >= 8:
                out.append(line_start(esc(body[k][8:])) + "\n")
                k += 1
            out.append(".fi\n.RE\n")
        elif k + 1 < n and body[k + 1].strip() and \
                indent_of(body[k + 1]) >= 8:
            # a tag line and its body
            flush()
            out.append(".TP\n" + line_start(tag_text(ln.strip())) + "\n")
            k += 1
            para = []
            while k < n and body[k].strip() and indent_of(body[k]) >= 8:
                para.append(body[k].strip())
                k += 1
            for s in sentences(" ".join(para)):
                out.append(line_start(inline(s)) + "\n")
        else:
            text.append(ln.strip())
            k += 1
    flush()
    return "".join(out)


def plain_page(names, summary, sections, section):
    out = [th(names[0], section)]
    out.append(".SH NAME\n%s \\- %s\n" % (", ".join(names), esc(summary)))
    for head, body in sections:
        out.append(".SH %s\n" % head)
        if head == "SYNOPSIS":
            for ln in body:
                if ln.strip():
                    words = ln.split()
                    out.append(".SY %s\n%s\n.YS\n" % (
                        esc(words[0]),
                        synopsis_form(" ".join(words[1:]))))
        elif head == "SEE ALSO":
            refs = re.findall(r"([\w.-]+)\(([1-8])\)", " ".join(body))
            out.append(",\n".join("\\fB%s\\fP(%s)" % r for r in refs) + "\n")
        else:
            out.append(render_section(body))
    return "".join(out)


def plain(section, outdir, sources, listonly):
    files = {}
    for src in sources:
        lines = first_comment(src) if src.endswith(".c") else \
            open(src, encoding="utf-8").read().split("\n")
        try:
            names, summary, sections = parse_plain(lines, src)
        except ValueError as e:
            # a program without a page must not stop the build: the man
            # test says which one lacks it
            print("gen-man.py: %s" % e, file=sys.stderr)
            continue
        files[names[0] + "." + section] = plain_page(names, summary,
                                                     sections, section)
        for n in names[1:]:
            files[n + "." + section] = so_link(section, names[0])
    if listonly:
        print("\n".join(sorted(files)))
        return
    for fname, text in files.items():
        write(outdir, fname, text)


def write(outdir, fname, text):
    path = os.path.join(outdir, fname)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    if len(argv) < 3 or argv[1] not in ("man3", "man5", "man8"):
        print(__doc__, file=sys.stderr)
        return 2
    kind, args = argv[1], argv[2:]
    listonly = "--list" in args
    args = [a for a in args if a != "--list"]
    mapfile = None
    if "--map" in args:
        k = args.index("--map")
        mapfile = args[k + 1]
        del args[k:k + 2]
    outdir, sources = args[0], args[1:]
    if not listonly:
        os.makedirs(outdir, exist_ok=True)
    if kind == "man3":
        man3(outdir, sources, mapfile, listonly)
    else:
        plain(kind[3], outdir, sources, listonly)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
