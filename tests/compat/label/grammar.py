#!/usr/bin/env python3
"""The file_contexts line grammar, Debian's libselinux1 against ours, on
generated files.

  grammar.py FCPROBE OURS_LIBDIR OUR_SEFCONTEXT_COMPILE

Each generated file holds a few lines built from the pieces a line may
hold: leading and trailing whitespace of every kind isspace() knows (CR,
VT, FF), comments, a regex made of literals, escaped punctuation ('\\/',
'\\.' in and after the fixed prefix), every backslash escape PCRE2 knows
and some it does not, meta characters, groups, classes, quantifiers,
option settings and broken syntax; a file type, valid or not; a context;
extra fields; bytes >= 0x80 and NUL bytes in any field; very long lines;
a last line without its newline.  The keys are derived from the specs
(their literal text, children, prefixes, a final newline, doubled
slashes) with modes 0, S_IFREG and S_IFDIR.

Compared, file by file (the open's result and log messages, then every
answer):
  text:     ours vs Debian's, on the text file (also with SUBSET);
  bin:      ours vs Debian's, on the .bin Debian's sefcontext_compile
            writes from it (when Debian's library opens the text);
  our-bin:  Debian's on the .bin ours writes vs Debian's on its own;
  raw-bin:  ours vs Debian's, on a .bin written here directly from the
            generated specs (bytes the text parser refuses, such as
            non-ASCII ones, reach the .bin reader this way).
GRAMMAR_N files (default 1500), GRAMMAR_SEED (default 1).  Exit 1 on any
difference.
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

PROBE, OURS, OUR_COMPILE = sys.argv[1:4]
COMPILE = shutil.which('sefcontext_compile') or '/usr/sbin/sefcontext_compile'
N = int(os.environ.get('GRAMMAR_N', '1500'))
SEED = int(os.environ.get('GRAMMAR_SEED', '1'))
SHOW = 15

WS = [b' ', b'\t', b'\r', b'\v', b'\f', b'  \t']
HIGH = [b'\x80', b'\xff', b'\xc3\xa9', b'\xa0']
# Every escape PCRE2 knows, some with arguments, and some it refuses.
ESCAPES = [b'\\' + bytes([c]) for c in b'aAbBdDeEfGhHKnNrRsStvVwWXzZC']
ESCAPES += [b'\\cA', b'\\c[', b'\\x41', b'\\x{41}', b'\\x{zz}', b'\\xg',
            b'\\o{101}', b'\\o{9}', b'\\0', b'\\01', b'\\101', b'\\1',
            b'\\8', b'\\g1', b'\\g{1}', b'\\g{-1}', b'\\k<n>', b"\\k'n'",
            b'\\k{n}', b'\\p{L}', b'\\P{Lu}', b'\\pL', b'\\p{Bad}',
            b'\\QA.b\\E', b'\\Q/x', b'\\u', b'\\U', b'\\L', b'\\l', b'\\i',
            b'\\j', b'\\m', b'\\q', b'\\y', b'\\F', b'\\_', b'\\ ']
PUNCT = [b'\\' + bytes([c]) for c in b'/.-\\+*?()[]{}|^$#~",:@_%&!=<>;`']
LITS = [b'a', b'b', b'bin', b'usr', b'x.y', b'lib64', b'A-Z', b'_',
        b'}', b']', b'#', b'%', b'~']
META = [b'.', b'.*', b'(/.*)?', b'[^/]*', b'[a-z]+', b'(a|b)', b'a|b',
        b'x{2}', b'x{2,}', b'x{,3}', b'x{1,2}?', b'^', b'$', b'(?i)A',
        b'(?:x)', b'(?=a)a', b'(?!b)', b'(?<=a)', b'(?#c)', b'(*UTF)',
        b'(?C1)', b'a++', b'[[:alpha:]]', b'[.]', b'[\\/]', b'(a)\\1',
        b'(?<n>a)\\k<n>', b'(?s).', b'(?x) a', b'+', b'?', b'*',
       # too large for PCRE2 once compiled (64 KiB), or nearly
       b'a{20000}b{20000}c{20000}', b'(a{255}){255}', b'x{65535}',
       b'[a-z]{3000}[a-z]{3000}', b'(?:ab){1000}', b'((ab){100}){100}',
       b'(?:abcdefgh){10000}']
BAD = [b'(', b')', b'[', b'[z-a]', b'a**', b'*a', b'{', b'\\', b'(?',
       b'[[:nope:]]', b'(?<', b'x{3,1}', b'(?P<n>']
TYPES = [b'--', b'-d', b'-l', b'-c', b'-b', b's', b'-p', b'-s', b'-x',
         b'---', b'-', b'd']
CONTEXTS = [b'system_u:object_r:etc_t:s0', b'u:r:t:s0', b'<<none>>',
            b'u:r:t', b'u:r:t:s0-s0:c0.c3', b'x']


def regex(rnd):
    """A regex: mostly path-like, with any of the pieces above."""
    out = [b'/']
    for _ in range(rnd.randint(0, 6)):
        r = rnd.random()
        if r < 0.30:
            out.append(rnd.choice(LITS))
        elif r < 0.45:
            out.append(b'/')
        elif r < 0.60:
            out.append(rnd.choice(PUNCT))
        elif r < 0.72:
            out.append(rnd.choice(ESCAPES))
        elif r < 0.90:
            out.append(rnd.choice(META))
        elif r < 0.95:
            out.append(rnd.choice(BAD))
        else:
            out.append(rnd.choice(HIGH))
    if rnd.random() < 0.05:
        out[0] = rnd.choice([b'', b'a', b'.*', b'\\/'])
    return b''.join(out)


def spec_line(rnd):
    """One spec line (without its end) and the (regex, type, ctx) it
    states, for the raw .bin and the keys."""
    re_ = regex(rnd)
    typ = rnd.choice(TYPES) if rnd.random() < 0.35 else None
    ctx = rnd.choice(CONTEXTS)
    fields = [re_] + ([typ] if typ else []) + [ctx]
    if rnd.random() < 0.08:
        fields.append(rnd.choice([b'extra', b'--', b'\xff', b'u:r:t:s0']))
    if rnd.random() < 0.06:  # a byte >= 0x80 in some field
        i = rnd.randrange(len(fields))
        k = rnd.randint(0, len(fields[i]))
        fields[i] = fields[i][:k] + rnd.choice(HIGH) + fields[i][k:]
    line = rnd.choice(WS).join(fields) if rnd.random() < 0.3 else \
        b'\t'.join(fields)
    if rnd.random() < 0.15:
        line = rnd.choice(WS) + line
    if rnd.random() < 0.15:
        line += rnd.choice(WS)
    if rnd.random() < 0.03:  # a NUL somewhere: the line ends there
        k = rnd.randint(0, len(line))
        line = line[:k] + b'\0' + line[k:]
    if rnd.random() < 0.01:  # a very long line
        big = b'/l' + b'o' * rnd.choice([4096, 70000, 300000])
        big += rnd.choice([b'', b'.*', b'(/.*)?'])
        line = big + b'\t' + ctx
        re_ = big
    return line, (re_, typ, ctx)


def gen_file(rnd):
    lines, specs = [], []
    for _ in range(rnd.randint(1, 6)):
        r = rnd.random()
        if r < 0.08:
            lines.append(b'#' + rnd.choice([b' c', b'\xff', b'', b'\0x']))
        elif r < 0.13:
            lines.append(rnd.choice([b'', b' ', b'\t\r', b'\v\f', b'\0']))
        elif r < 0.16:
            lines.append(regex(rnd))  # a missing field
        else:
            line, spec = spec_line(rnd)
            lines.append(line)
            specs.append(spec)
    ends = [b'\r\n' if rnd.random() < 0.1 else b'\n' for _ in lines]
    data = b''.join(l + e for l, e in zip(lines, ends))
    if rnd.random() < 0.2:
        data = data.rstrip(b'\n')
    return data, specs


def literal(re_):
    """A path the regex plausibly matches: escapes undone, stopped at the
    first construct."""
    out, i = bytearray(), 0
    while i < len(re_):
        c = re_[i]
        if c == 0x5c and i + 1 < len(re_) and not chr(re_[i + 1]).isalnum():
            out.append(re_[i + 1])
            i += 2
            continue
        if c in b'.^$?*+|[({\\)':
            break
        out.append(c)
        i += 1
    return bytes(out)


def keys_for(specs, rnd):
    keys = {b'/', b'/a', b'/a/b', b'/x', b'/a\\/b', b'/a.b', b'//a'}
    for re_, _, _ in specs:
        lit = literal(re_.split(b'\0')[0])
        if not lit:
            continue
        keys.update({lit, lit + b'/x', lit + b'a', lit + b'\n',
                     lit.rstrip(b'/') or b'/', lit + b'/a/b/c',
                     lit.replace(b'/', b'//')})
        if b'/' in lit[1:]:
            keys.add(lit[:lit.rindex(b'/')] or b'/')
    keys = sorted(k for k in keys if k and b'\0' not in k)
    recs = []
    for k in keys:
        for m in (0, 0o100000, 0o040000):
            recs.append(b'%o %s' % (m, k))
    return recs


def stem(re_):
    """The reference's stem: the first component if it holds no meta
    character."""
    k = re_.find(b'/', 1)
    if k < 0 or any(c in b'.^$?*+|[({' for c in re_[:k]):
        return b''
    return re_[:k]


def meta_prefix(re_):
    i = 0
    while i < len(re_):
        if re_[i] in b'.^$?*+|[({':
            return 1, i
        if re_[i] == 0x5c:
            i += 1
        i += 1
    return 0, len(re_)


MODEBITS = {b'--': 0o100000, b'-d': 0o040000, b'-c': 0o020000,
            b'-b': 0o060000, b'-s': 0o140000, b'-p': 0o010000,
            b'-l': 0o120000}


def pcre2_version(tmp):
    """The PCRE2 version string Debian's sefcontext_compile writes (its
    reader refuses a .bin naming another)."""
    src = os.path.join(tmp, 'v')
    with open(src, 'w') as f:
        f.write('/a\tu:r:t:s0\n')
    subprocess.run([COMPILE, '-o', src + '.bin', src], check=True)
    with open(src + '.bin', 'rb') as f:
        head = f.read(64)
    n = struct.unpack('<I', head[8:12])[0]
    return head[12:12 + n]


def raw_bin(specs, version):
    """A version 5 file_contexts.bin without serialized regexes (as
    sefcontext_compile -r writes), specs in the reference's order (regex
    specs first, each group in file order)."""
    ok = []
    for re_, typ, ctx in specs:
        re_ = re_.split(b'\0')[0]
        ctx = ctx.split(b'\0')[0]
        if not re_ or not ctx or (typ is not None and typ not in MODEBITS):
            continue
        ok.append((re_, MODEBITS.get(typ, 0), ctx))
    if not ok:
        return None
    ok.sort(key=lambda s: 0 if meta_prefix(s[0])[0] else 1)
    stems = []
    for re_, _, _ in ok:
        s = stem(re_)
        if s and s not in stems:
            stems.append(s)
    u32 = lambda v: struct.pack('<I', v & 0xffffffff)
    out = [u32(0xf97cff8a), u32(5), u32(len(version)), version, u32(6),
           b'8-8-el',
           u32(len(stems))]
    for s in stems:
        out += [u32(len(s)), s + b'\0']
    out.append(u32(len(ok)))
    for re_, mode, ctx in ok:
        s = stem(re_)
        meta, plen = meta_prefix(re_)
        out += [u32(len(ctx) + 1), ctx + b'\0', u32(len(re_) + 1),
                re_ + b'\0', u32(mode), u32(stems.index(s) if s else -1),
                u32(meta), u32(plen), u32(0)]
    return b''.join(out)


def probe(ours, records, args=()):
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    if ours:
        env['LD_LIBRARY_PATH'] = OURS
    p = subprocess.run([PROBE, '-L', *args, 'batch'], input=b''.join(
        r + b'\0' for r in records), capture_output=True, env=env,
        timeout=1200)
    if p.returncode:
        raise SystemExit(f'fcprobe ({"ours" if ours else "Debian"}) '
                         f'failed: {p.returncode} {p.stderr[-2000:]!r}')
    return p.stdout


def split(out, tmp):
    """The probe's output cut into one piece per file (fcprobe prints
    "@@" on a line of its own before each open), the temporary
    directory's name masked."""
    return out.replace(tmp.encode(), b'T').split(b'\n@@\n')[1:]


def batch(paths, keys):
    recs = []
    for p, k in zip(paths, keys):
        recs.append(b'@' + p.encode())
        recs += k
    return recs


def compare(name, paths, keys, tmp, a_ours, b_ours, b_paths=None,
            args=()):
    a = split(probe(a_ours, batch(paths, keys), args), tmp)
    b = split(probe(b_ours, batch(b_paths or paths, keys), args), tmp)
    if b_paths:
        # the files' names differ: mask them
        a = [x.replace(os.path.basename(p).encode(), b'F')
             for x, p in zip(a, paths)]
        b = [x.replace(os.path.basename(p).encode(), b'F')
             for x, p in zip(b, b_paths)]
    if len(a) != len(paths) or len(b) != len(paths):
        raise SystemExit(f'{name}: {len(a)}/{len(b)} opens for '
                         f'{len(paths)} files')
    # Debian's library returns -1 from a lookup that reaches a regex
    # PCRE2 rejects without setting errno (the probe zeroes it first; in
    # a program what is left is the ENOENT of a file the library looked
    # for, so matchpathcon prints <<none>> and restorecon skips); ours
    # sets ENOENT: the one answer allowed to differ, counted apart.
    errno0 = 0

    def same(x, y):
        nonlocal errno0
        if x == y:
            return True
        xl, yl = x.split(b'\n'), y.split(b'\n')
        if len(xl) != len(yl):
            return False
        k = 0
        for u, v in zip(xl, yl):
            if u != v:
                if {u, v} != {b'ERR 0', b'ERR ENOENT'} or a_ours == b_ours:
                    return False
                k += 1
        errno0 += k
        return True
    bad = [i for i in range(len(paths)) if not same(a[i], b[i])]
    opened = sum(x.startswith(b'open: OK') or b'\nopen: OK' in x
                 for x in b)
    print(f'{name}: {len(paths)} files ({opened} opened), '
          f'{sum(len(k) for k in keys)} keys, {len(bad)} files differ'
          + (f' ({errno0} lookups: Debian errno 0, ours ENOENT)'
             if errno0 else ''))
    for i in bad[:SHOW]:
        print(f'  DIFF {paths[i]}:\n    {"ours" if a_ours else "Debian"}: '
              f'{a[i][:600]!r}\n    {"ours" if b_ours else "Debian"}: '
              f'{b[i][:600]!r}')
    return len(bad)


def main():
    if not os.path.exists(COMPILE):
        print('no sefcontext_compile: skipped')
        return 77
    rnd = random.Random(SEED)
    tmp = tempfile.mkdtemp(prefix='fcgrammar.')
    try:
        return run(tmp, rnd)
    finally:
        shutil.rmtree(tmp) if not os.environ.get("GRAMMAR_KEEP") else print("kept", tmp)


def run(tmp, rnd):
    for d in ('text', 'bin', 'ourbin', 'raw'):
        os.mkdir(os.path.join(tmp, d))
    # The examples first, then generated files.
    files = [(b'/\\/\tsystem_u:object_r:root_t:s0\n'
              b'/a\\/b\tsystem_u:object_r:etc_t:s0\n', []),
             (b'\\/\t\xff', [])]
    files[0] = (files[0][0], [(b'/\\/', None, b'x'), (b'/a\\/b', None, b'x')])
    files += [gen_file(rnd) for _ in range(N)]
    text, keys = [], []
    for i, (data, specs) in enumerate(files):
        p = os.path.join(tmp, 'text', f'fc{i}')
        with open(p, 'wb') as f:
            f.write(data)
        text.append(p)
        keys.append(keys_for(specs, rnd))

    bad = compare('text: Debian vs ours', text, keys, tmp, False, True)
    bad += compare('text, SUBSET /a: Debian vs ours', text, keys, tmp,
                   False, True, args=('-s', '/a'))

    # .bin from Debian's sefcontext_compile, and from ours, of every file
    # Debian's library opens.
    ref_text = split(probe(False, batch(text, [[]] * len(text))), tmp)
    bins, ourbins, bkeys = [], [], []
    for i, p in enumerate(text):
        if not (ref_text[i].startswith(b'open: OK') or
                b'\nopen: OK' in ref_text[i]):
            continue
        b = os.path.join(tmp, 'bin', f'fc{i}')
        o = os.path.join(tmp, 'ourbin', f'fc{i}')
        r1 = subprocess.run([COMPILE, '-o', b + '.bin', p],
                            capture_output=True)
        r2 = subprocess.run([OUR_COMPILE, '-o', o + '.bin', p],
                            capture_output=True)
        if r1.returncode != r2.returncode:
            print(f'  DIFF sefcontext_compile {p}: Debian {r1.returncode}, '
                  f'ours {r2.returncode}')
            bad += 1
        if r1.returncode == 0 and r2.returncode == 0:
            bins.append(b)
            ourbins.append(o)
            bkeys.append(keys[i])
    bad += compare('bin: Debian vs ours (Debian\'s .bin)', bins, bkeys, tmp,
                   False, True)
    bad += compare('bin, SUBSET /a: Debian vs ours', bins, bkeys, tmp,
                   False, True, args=('-s', '/a'))
    bad += compare('our-bin: Debian on its .bin vs Debian on ours', bins,
                   bkeys, tmp, False, False, ourbins)

    raws, rkeys = [], []
    version = pcre2_version(tmp)
    for i, (data, specs) in enumerate(files):
        blob = raw_bin(specs, version)
        if blob is None:
            continue
        p = os.path.join(tmp, 'raw', f'fc{i}')
        with open(p + '.bin', 'wb') as f:
            f.write(blob)
        raws.append(p)
        rkeys.append(keys[i])
    bad += compare('raw-bin: Debian vs ours', raws, rkeys, tmp, False, True)
    print(f'grammar: {bad} differences')
    return 1 if bad else 0


sys.exit(main())
