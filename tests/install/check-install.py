#!/usr/bin/python3
"""tests/install/check-install.py --build DIR --source DIR

meson install of the build (packaging/stage.py, into DIR/install-check/root)
compared with the files of Debian 12's packages: libselinux1,
libselinux1-dev, selinux-utils, python3-selinux, and ruby-selinux when
the Ruby binding is built.  Every path one side has and the other lacks
must be explained by tests/install/differences.txt (kind, glob, reason);
anything else fails.  Then libselinux.pc: pkg-config on the staged tree
gives flags that compile and link a program against our headers and
library (shared and static), and the program runs on our libselinux.so.1.

The reference file lists are `dpkg -L` of the installed packages, or
`dpkg-deb -c` of the package fetched with `apt-get download` into
~/.cache/libselinux-vm/ref-debs (VM_CACHE) when it is not installed.
"""
import argparse
import fnmatch
import glob
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'packaging'))
import stage  # noqa: E402

PACKAGES = ['libselinux1', 'libselinux1-dev', 'selinux-utils',
            'python3-selinux', 'ruby-selinux']
MAN = '/usr/share/man/'

failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


def cache_dir():
    c = os.environ.get('VM_CACHE') or os.path.join(
        os.environ.get('XDG_CACHE_HOME') or
        os.path.join(os.environ.get('HOME') or '/root', '.cache'),
        'libselinux-vm')
    return os.path.join(c, 'ref-debs')


def installed(pkg):
    r = subprocess.run(['dpkg-query', '-W', '-f=${Status}', pkg],
                       capture_output=True, text=True)
    return r.returncode == 0 and r.stdout.endswith(' installed')


def reference_files(pkg):
    """{path: 'f' or 'l'} of Debian's PKG (directories left out), or None
    when it can be neither read from dpkg nor downloaded."""
    files = {}
    if installed(pkg):
        out = subprocess.run(['dpkg', '-L', pkg], check=True,
                             capture_output=True, text=True).stdout
        for p in out.splitlines():
            if p in ('', '/.') or p.startswith('package diverts'):
                continue
            if os.path.islink(p) and not os.path.isdir(p):
                files[p] = 'l'
            elif not os.path.isdir(p):
                files[p] = 'f'
        return files
    cache = cache_dir()
    os.makedirs(cache, exist_ok=True)
    debs = glob.glob(os.path.join(cache, pkg + '_*.deb'))
    if not debs:
        print(f'note: {pkg} is not installed; apt-get download into {cache}')
        r = subprocess.run(['apt-get', 'download', '-q', pkg], cwd=cache,
                           capture_output=True, text=True)
        debs = glob.glob(os.path.join(cache, pkg + '_*.deb'))
        if r.returncode != 0 or not debs:
            print(r.stdout + r.stderr)
            return None
    out = subprocess.run(['dpkg-deb', '-c', debs[0]], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split(None, 5)
        kind, path = f[0][0], f[5].split(' -> ')[0]
        path = path[1:] if path.startswith('./') else path
        path = '/' + path.lstrip('/')
        if kind != 'd':
            files[path.rstrip('/')] = 'l' if kind == 'l' else 'f'
    return files


def our_files(root):
    files = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + dirnames:
            p = os.path.join(dirpath, name)
            if os.path.islink(p) or not os.path.isdir(p):
                files[p[len(root):]] = 'l' if os.path.islink(p) else 'f'
    return files


def unzip_man(files):
    """Debian's man pages are compressed (dh_compress); compare names."""
    return {(p[:-3] if p.startswith(MAN) and p.endswith('.gz') else p): k
            for p, k in files.items()}


def read_differences(path):
    entries = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = line.split(None, 2)
            if (len(parts) < 3 or parts[0] not in ('missing', 'extra')):
                raise SystemExit(f'{path}:{n}: want "missing|extra GLOB '
                                 f'REASON": {line}')
            entries.append({'kind': parts[0], 'glob': parts[1],
                            'reason': parts[2], 'used': 0})
    return entries


def explained(entries, kind, path):
    for e in entries:
        if e['kind'] == kind and fnmatch.fnmatchcase(path, e['glob']):
            e['used'] += 1
            return e
    return None


def check_layout(root, differences):
    ours = our_files(root)
    have_man = any(p.startswith(MAN) for p in ours)
    have_ruby = any('/ruby/' in p for p in ours)
    if not have_man:
        print('note: this build installs no man pages: man pages are not '
              'compared')

    ref = {}
    owner = {}
    for pkg in PACKAGES:
        if pkg == 'ruby-selinux' and not have_ruby:
            print('note: the Ruby binding is not built here (no ruby, swig '
                  'or ruby-dev, or a sanitized build): ruby-selinux is '
                  'not compared')
            continue
        files = reference_files(pkg)
        if files is None:
            fail(f'cannot read the file list of Debian\'s {pkg}')
            continue
        files = unzip_man(files)
        print(f'{pkg}: {len(files)} files in Debian\'s package')
        for p, k in files.items():
            ref[p] = k
            owner[p] = pkg
    if not have_man:
        ref = {p: k for p, k in ref.items() if not p.startswith(MAN)}

    entries = read_differences(differences)
    same = sorted(set(ours) & set(ref))
    missing = sorted(set(ref) - set(ours))
    extra = sorted(set(ours) - set(ref))
    print(f'ours: {len(ours)} files; at Debian\'s paths: {len(same)}; '
          f'Debian\'s we lack: {len(missing)}; ours Debian lacks: '
          f'{len(extra)}')
    unexplained = 0
    for kind, paths in (('missing', missing), ('extra', extra)):
        for p in paths:
            e = explained(entries, kind, p)
            where = f' ({owner[p]})' if p in owner else ''
            if e is None:
                fail(f'{kind}: {p}{where} - not in {differences}')
                unexplained += 1
    for e in entries:
        if e['used']:
            print(f'explained: {e["kind"]} {e["glob"]} ({e["used"]} paths): '
                  f'{e["reason"]}')
    for e in entries:
        if not e['used']:
            print(f'note: no path is {e["kind"]} {e["glob"]} in this build')

    # A path both have: a link where Debian has a link, a file where a file
    # (man pages aside: an alias page may be either).
    for p in same:
        if ours[p] != ref[p] and not p.startswith(MAN):
            fail(f'{p}: ours is a {"link" if ours[p] == "l" else "file"}, '
                 f'Debian\'s a {"link" if ref[p] == "l" else "file"}')
    # Every link resolves inside the staged tree.
    for p, k in ours.items():
        if k != 'l':
            continue
        t = os.readlink(root + p)
        t = os.path.normpath(t if os.path.isabs(t) else
                             os.path.join(os.path.dirname(p), t))
        if not os.path.isfile(root + t):
            fail(f'{p} -> {t}: the link leads to no file in the tree')
    # Nothing installed records the build's prefix (stage.py relies on it).
    for p, k in ours.items():
        if k == 'f' and not p.startswith(MAN) and not p.endswith('.pc'):
            with open(root + p, 'rb') as f:
                if b'/usr/local' in f.read():
                    fail(f'{p} contains "/usr/local"')
    return unexplained


PROGRAM = r'''
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <selinux/selinux.h>
#include <selinux/avc_audit.h>   /* ours alone has it */

int main(void)
{
	Dl_info info;
	char *con = NULL;

	if (!dladdr((void *)is_selinux_enabled, &info) || !info.dli_fname)
		return 2;
	/* a function with a version node of its own, a call through it */
	(void)selinux_avc_audit_open;
	printf("%s\n%d\n", info.dli_fname, security_check_context("x") < 0);
	freecon(con);
	return 0;
}
'''


def check_pkgconfig(root, work):
    pcs = glob.glob(root + '/usr/lib/*/pkgconfig/libselinux.pc')
    if len(pcs) != 1:
        fail(f'libselinux.pc: want one in /usr/lib/<triplet>/pkgconfig, '
             f'found {pcs}')
        return
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pcs[0]),
               PKG_CONFIG_LIBDIR=os.path.dirname(pcs[0]),
               PKG_CONFIG_SYSROOT_DIR=root,
               # /usr/include and /usr/lib are the host's system dirs: keep
               # their flags, which point into the staged tree here.
               PKG_CONFIG_ALLOW_SYSTEM_CFLAGS='1',
               PKG_CONFIG_ALLOW_SYSTEM_LIBS='1')
    # Requires.private (libpcre2-8) is the host's, outside the sysroot.
    env['PKG_CONFIG_PATH'] += ':/usr/lib/x86_64-linux-gnu/pkgconfig:' \
        '/usr/share/pkgconfig'
    env['PKG_CONFIG_LIBDIR'] = env['PKG_CONFIG_PATH']
    r = subprocess.run(['pkg-config', '--cflags', '--libs', 'libselinux'],
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail('pkg-config --cflags --libs libselinux: ' + r.stderr.strip())
        return
    flags = r.stdout.split()
    print('pkg-config --cflags --libs libselinux: ' + r.stdout.strip())
    r2 = subprocess.run(['pkg-config', '--modversion', 'libselinux'],
                        env=env, capture_output=True, text=True)
    print('pkg-config --modversion libselinux: ' + r2.stdout.strip())
    want = [f'-I{root}/usr/include', '-lselinux']
    for w in want:
        if w not in flags:
            fail(f'pkg-config flags lack {w}: {flags}')
    libflags = [f for f in flags if f.startswith('-L')]
    if not libflags or not libflags[0].startswith('-L' + root + '/usr/lib/'):
        fail(f'pkg-config -L is not the staged libdir: {flags}')
        return
    src = os.path.join(work, 'pc.c')
    with open(src, 'w') as f:
        f.write(PROGRAM)
    exe = os.path.join(work, 'pc')
    cc = os.environ.get('CC', 'cc')
    r = subprocess.run([cc, '-o', exe, src] + flags, capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail('compile and link with pkg-config\'s flags: ' + r.stderr)
        return
    shlib = glob.glob(root + '/lib/*/libselinux.so.1')
    if len(shlib) != 1:
        fail(f'libselinux.so.1: want one in /lib/<triplet>, found {shlib}')
        return
    run_env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(shlib[0]))
    run_env.pop('LD_PRELOAD', None)
    r = subprocess.run([exe], env=run_env, capture_output=True, text=True)
    lines = r.stdout.split('\n')
    if r.returncode != 0 or len(lines) < 2:
        fail(f'the program linked with pkg-config\'s flags: exit '
             f'{r.returncode} {r.stdout} {r.stderr}')
        return
    loaded = os.path.realpath(lines[0])
    if loaded != os.path.realpath(shlib[0]):
        fail(f'the program ran on {lines[0]}, not the staged {shlib[0]}')
    else:
        print(f'linked with pkg-config\'s flags, the program runs on '
              f'{lines[0]}')
    if lines[1] != '1':
        fail(f'security_check_context("x") did not fail: {lines[1]}')

    # A static link: libselinux.a with --static's private dependencies.
    r = subprocess.run(['pkg-config', '--static', '--libs', 'libselinux'],
                       env=env, capture_output=True, text=True)
    sflags = r.stdout.split()
    print('pkg-config --static --libs libselinux: ' + r.stdout.strip())
    archive = glob.glob(root + '/usr/lib/*/libselinux.a')
    if r.returncode != 0 or len(archive) != 1:
        fail(f'static: pkg-config {r.stderr.strip()} archive {archive}')
        return
    sexe = exe + '-static'
    sflags = [archive[0] if f == '-lselinux' else f for f in sflags]
    r = subprocess.run([cc, '-o', sexe, src,
                        f'-I{root}/usr/include'] + sflags + ['-ldl'],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail('static link with pkg-config --static flags: ' + r.stderr)
        return
    r = subprocess.run(['ldd', sexe], capture_output=True, text=True)
    if 'libselinux' in r.stdout:
        fail('the static program still loads a libselinux.so: ' + r.stdout)
    r = subprocess.run([sexe], capture_output=True, text=True)
    if r.returncode != 0 or r.stdout.split('\n')[0] != sexe:
        fail(f'the statically linked program: exit {r.returncode}, '
             f'{r.stdout!r}')
    else:
        print('linked statically with libselinux.a and --static flags, the '
              'program runs')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--source', required=True)
    a = ap.parse_args()
    work = os.path.join(os.path.abspath(a.build), 'install-check')
    root = os.path.join(work, 'root')
    os.makedirs(work, exist_ok=True)
    moves = stage.stage(a.build, root)
    if not moves:
        print('stage: the build is configured as Debian\'s: nothing moved')
    check_layout(root, os.path.join(HERE, 'differences.txt'))
    check_pkgconfig(root, work)
    if failures:
        print(f'{len(failures)} failure(s)')
        return 1
    print('install layout and libselinux.pc: OK')
    return 0


if __name__ == '__main__':
    sys.exit(main())
