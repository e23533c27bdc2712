#!/usr/bin/env python3
"""A corpus of deep paths for the label lookup benchmark: the paths of
the trees of a Debian system where lookups are deepest -- /usr/share
(doc, man, locale, icons), /usr/lib/python3/dist-packages,
/usr/src/linux-headers-*, /usr/include -- with their real depths and
name lengths.

Two sources, both on by default:
  host       the host's own trees, walked (lstat modes); absent ones are
             skipped.  Real, but different on every machine.
  synthetic  generated from templates that copy the shape of those trees
             on a Debian 12 desktop (depth of each level, name lengths,
             extensions, __pycache__, LC_MESSAGES, 48x48/apps, ...),
             from a fixed seed: the same corpus everywhere, including
             the linux-headers trees this host does not have.

Output (stdout): NUL-terminated "MODE PATH" records (MODE octal: the
lstat mode for host paths, S_IFREG/S_IFDIR for synthetic ones), the
corpus format of lookup_bench.c; --lines prints one path per line.

  deep_paths.py [--source host|synthetic|both] [--per-family N]
                [--host-max N] [--seed S] [--min-depth D] [--lines]

--per-family: synthetic paths per family (default 2000; 7 families);
--host-max: at most N host paths, an even sample (default 30000);
--min-depth: drop paths with fewer components (default 1).
The generator's output is stable for a given seed and Python version 3.
"""
import argparse
import os
import random
import stat
import sys

HOST_ROOTS = ['/usr/share/doc', '/usr/share/man', '/usr/share/locale',
              '/usr/share/icons', '/usr/share', '/usr/lib/python3',
              '/usr/src', '/usr/include']

REG, DIR = stat.S_IFREG | 0o644, stat.S_IFDIR | 0o755

# Letters weighted roughly as in package and module names.
ALPHA = 'aaabcdeeeefghiiijklmnnooopqrrssstttuvwxyz'
LANGS = ('af am ar as ast az be bg bn br bs ca ca@valencia cs cy da de '
         'dz el en_AU en_CA en_GB eo es es_AR es_MX et eu fa fi fr fur '
         'ga gd gl gu he hi hr hu hy ia id is it ja ka kk km kn ko ku ky '
         'lt lv mai mk ml mn mr ms my nb ne nl nn oc or pa pl pt pt_BR ro '
         'ru si sk sl sq sr sr@latin sv ta te tg th tr ug uk ur uz vi '
         'zh_CN zh_HK zh_TW').split()
ICON_THEMES = ['hicolor', 'Adwaita', 'gnome', 'HighContrast', 'locolor',
               'breeze', 'breeze-dark', 'Papirus']
ICON_SIZES = ['8x8', '16x16', '22x22', '24x24', '32x32', '48x48', '64x64',
              '96x96', '128x128', '256x256', '512x512', 'scalable',
              'symbolic', '16x16@2x', '24x24@2x', '32x32@2x']
ICON_CATS = ['actions', 'apps', 'categories', 'devices', 'emblems',
             'emotes', 'legacy', 'mimetypes', 'places', 'status', 'ui',
             'animations', 'intl']
KARCH = ['x86', 'arm64', 'powerpc', 'mips', 's390', 'riscv']


def word(rnd, lo, hi):
    """A lowercase name, its length uniform in [lo, hi]."""
    return ''.join(rnd.choice(ALPHA) for _ in range(rnd.randint(lo, hi)))


def name(rnd, lo=3, hi=12, parts=(1, 3), sep='-'):
    """A compound name like 'gnome-shell-extension' or 'python_apt'."""
    n = rnd.randint(*parts)
    return sep.join(word(rnd, lo, max(lo, hi // n + 1)) for _ in range(n))


def version(rnd):
    return '.'.join(str(rnd.randint(0, 20)) for _ in range(rnd.randint(2, 3)))


def fam_doc(rnd):
    pkg = name(rnd, 2, 18)
    leaf = rnd.choice(['copyright', 'changelog.Debian.gz', 'changelog.gz',
                       'NEWS.Debian.gz', 'README.Debian', 'README.md.gz',
                       'AUTHORS', 'TODO.gz', 'buildinfo_amd64.gz'])
    if rnd.random() < 0.35:
        sub = [rnd.choice(['examples', 'html', 'api', 'doc', 'tutorial',
                           'reference', 'contrib', 'tests'])]
        sub += [name(rnd, 3, 14) for _ in range(rnd.randint(0, 7))]
        leaf = name(rnd, 3, 24, sep=rnd.choice('-_')) + rnd.choice(
            ['.html', '.txt', '.py', '.c', '.png', '.js', '.css', '.gz'])
        return ['usr', 'share', 'doc', pkg] + sub + [leaf]
    return ['usr', 'share', 'doc', pkg, leaf]


def fam_man(rnd):
    sec = rnd.choice('1111111888335577')
    lang = [] if rnd.random() < 0.6 else [rnd.choice(LANGS + ['pt_BR.UTF-8'])]
    base = name(rnd, 2, 22, sep=rnd.choice('-_.'))
    if sec == '3' and rnd.random() < 0.5:
        base = name(rnd, 2, 10, sep='::')
        sec = '3pm'
    return ['usr', 'share', 'man'] + lang + ['man' + sec[0],
                                             f'{base}.{sec}.gz']


def fam_locale(rnd):
    lang = rnd.choice(LANGS)
    if rnd.random() < 0.9:
        return ['usr', 'share', 'locale', lang, 'LC_MESSAGES',
                name(rnd, 2, 20) + '.mo']
    return ['usr', 'share', 'locale', lang, rnd.choice(
        ['LC_TIME', 'LC_SCRIPTS', 'LC_CTYPE']), name(rnd, 3, 12)]


def fam_icons(rnd):
    theme = rnd.choice(ICON_THEMES)
    size, cat = rnd.choice(ICON_SIZES), rnd.choice(ICON_CATS)
    ext = '.svg' if size in ('scalable', 'symbolic') else '.png'
    if size == 'symbolic' or rnd.random() < 0.2:
        leaf = name(rnd, 3, 30) + '-symbolic' + ext
    else:
        leaf = name(rnd, 3, 34, parts=(1, 4)) + ext
    if rnd.random() < 0.15:  # breeze, Papirus: category before size
        return ['usr', 'share', 'icons', theme, cat, size.split('x')[0],
                leaf]
    return ['usr', 'share', 'icons', theme, size, cat, leaf]


def fam_python(rnd):
    pkg = name(rnd, 2, 14, sep='_')
    if rnd.random() < 0.08:
        return ['usr', 'lib', 'python3', 'dist-packages',
                f'{pkg}-{version(rnd)}.{rnd.choice(["egg", "dist"])}-info',
                rnd.choice(['METADATA', 'PKG-INFO', 'top_level.txt',
                            'entry_points.txt', 'RECORD'])]
    sub = [name(rnd, 2, 16, sep='_') for _ in range(rnd.choice(
        [0, 1, 1, 2, 2, 3, 3, 4, 5, 6]))]
    mod = name(rnd, 2, 20, sep='_')
    tail = [mod + '.py']
    r = rnd.random()
    if r < 0.4:
        tail = ['__pycache__', f'{mod}.cpython-311.pyc']
    elif r < 0.45:
        tail = [f'{mod}.cpython-311-x86_64-linux-gnu.so']
    elif r < 0.5:
        tail = ['__init__.py']
    return ['usr', 'lib', 'python3', 'dist-packages', pkg] + sub + tail


def fam_kheaders(rnd):
    ver = f'6.1.0-{rnd.randint(9, 28)}'
    if rnd.random() < 0.3:
        top = [f'linux-headers-{ver}-amd64']
        sub = rnd.choice([
            ['include', 'config'], ['include', 'generated'],
            ['include', 'generated', 'uapi', 'linux'],
            ['arch', 'x86', 'include', 'generated', 'asm'],
            ['arch', 'x86', 'include', 'generated', 'uapi', 'asm'],
            ['scripts', 'mod'], ['scripts', 'basic'], ['tools', 'objtool']])
    else:
        top = [f'linux-headers-{ver}-common']
        arch = rnd.choice(KARCH)
        sub = rnd.choice([
            ['include', 'linux'], ['include', 'uapi', 'linux'],
            ['include', 'uapi', 'linux', name(rnd, 3, 10)],
            ['include', 'net', name(rnd, 3, 10)],
            ['include', 'linux', name(rnd, 3, 10), name(rnd, 3, 10)],
            ['arch', arch, 'include', 'asm'],
            ['arch', arch, 'include', 'uapi', 'asm'],
            ['drivers', name(rnd, 3, 8), name(rnd, 3, 10)],
            ['drivers', name(rnd, 3, 8), name(rnd, 3, 10),
             name(rnd, 3, 10), name(rnd, 2, 8), 'core'],
            ['drivers', 'gpu', 'drm', 'amd', 'display', 'dc',
             name(rnd, 3, 10)],
            ['net', name(rnd, 3, 10)], ['sound', name(rnd, 2, 8),
                                        name(rnd, 3, 10)],
            ['tools', 'include', 'uapi', 'linux'], ['scripts', 'kconfig']])
    leaf = rnd.choice(['Makefile', 'Kconfig', 'Kbuild']) \
        if rnd.random() < 0.3 else name(rnd, 2, 24, sep='_') + '.h'
    return ['usr', 'src'] + top + sub + [leaf]


def fam_include(rnd):
    sub = rnd.choice([
        [], ['x86_64-linux-gnu'], ['x86_64-linux-gnu', 'bits'],
        ['x86_64-linux-gnu', 'sys'], ['linux'], ['linux', name(rnd, 3, 10)],
        ['c++', '12'], ['c++', '12', 'bits'], ['c++', '12', 'ext', 'pb_ds',
                                               'detail', name(rnd, 4, 20)],
        ['glib-2.0', 'gio'], ['boost', name(rnd, 3, 12), 'detail'],
        ['boost', name(rnd, 3, 12), name(rnd, 3, 12), 'detail',
         name(rnd, 3, 12)],
        ['python3.11', 'internal'], ['llvm-14', 'llvm', name(rnd, 2, 12),
                                     name(rnd, 2, 12)]])
    leaf = name(rnd, 2, 22, sep='_') + rnd.choice(['.h', '.h', '.hpp', ''])
    return ['usr', 'include'] + sub + [leaf]


FAMILIES = [fam_doc, fam_man, fam_locale, fam_icons, fam_python,
            fam_kheaders, fam_include]


def synthetic(per_family, seed):
    rnd = random.Random(seed)
    seen = set()
    for fam in FAMILIES:
        n = 0
        while n < per_family:
            comps = fam(rnd)
            path = '/' + '/'.join(comps)
            if path in seen:
                continue
            seen.add(path)
            n += 1
            # The directories above each file too, once: restorecon
            # looks every one of them up.
            for i in range(len(comps) - 1, 1, -1):
                d = '/' + '/'.join(comps[:i])
                if d in seen:
                    break
                seen.add(d)
                yield DIR, d
            yield REG, path


def host(limit):
    paths = []
    seen = set()
    for root in HOST_ROOTS:
        if not os.path.isdir(root):
            continue
        for d, dirs, files in os.walk(root):
            dirs.sort()
            for n in [d] + [os.path.join(d, x) for x in sorted(dirs + files)]:
                if n in seen:
                    continue
                seen.add(n)
                try:
                    paths.append((os.lstat(n).st_mode, n))
                except OSError:
                    pass
    step = max(1, -(-len(paths) // limit)) if limit else 1
    return paths[::step]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--source', choices=['host', 'synthetic', 'both'],
                    default='both')
    ap.add_argument('--per-family', type=int, default=2000)
    ap.add_argument('--host-max', type=int, default=30000)
    ap.add_argument('--seed', type=int, default=11)
    ap.add_argument('--min-depth', type=int, default=1)
    ap.add_argument('--lines', action='store_true')
    a = ap.parse_args()
    recs = []
    if a.source in ('synthetic', 'both'):
        recs += list(synthetic(a.per_family, a.seed))
    if a.source in ('host', 'both'):
        recs += host(a.host_max)
    out = sys.stdout.buffer
    for mode, p in recs:
        if p.count('/') < a.min_depth:
            continue
        b = os.fsencode(p)
        if a.lines:
            out.write(b + b'\n')
        else:
            out.write(b'%o %s\0' % (mode, b))


if __name__ == '__main__':
    main()
