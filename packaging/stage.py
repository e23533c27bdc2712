#!/usr/bin/python3
"""packaging/stage.py BUILD ROOT - meson install BUILD into ROOT, in Debian 12's layout.

A build configured as Debian builds its packages (README, "Installing and
packaging"):

    meson setup B --prefix=/usr --libdir=lib/x86_64-linux-gnu \\
        -Dshlibdir=/lib/x86_64-linux-gnu

installs straight into Debian's places, and nothing is moved.  Any other
build (the test suite's build/, prefix /usr/local, no shlibdir) is staged
as if it had been configured so: what meson put under the prefix goes
under /usr, and libselinux.so.1 from libdir to /lib/<triplet> (with the
libselinux.so link retargeted), libselinux.pc's prefix= rewritten.  That
is sound because no other installed file records the prefix (the library's paths are /etc/selinux, /sys/fs/selinux
and /proc, fixed); tests/install checks it.  Every move is printed.

Used by tests/install (the layout against Debian's packages); the .debs
are built by debian/ (scripts/build-debs.sh), which configures meson as
Debian does.
"""
import json
import os
import shutil
import subprocess
import sys


def build_options(build):
    out = subprocess.run(['meson', 'introspect', build, '--buildoptions'],
                         check=True, capture_output=True, text=True).stdout
    return {o['name']: o['value'] for o in json.loads(out)}


def stage(build, root, log=print):
    """Install BUILD into ROOT (emptied first) in Debian's layout; return
    the list of (from, to) moves made (empty for a Debian-configured
    build)."""
    opts = build_options(build)
    prefix = opts['prefix'].rstrip('/') or '/'
    libdir = opts['libdir']
    if not os.path.isabs(libdir):
        libdir = os.path.join(prefix, libdir)
    shlibdir = opts.get('shlibdir', '')
    # Debian's runtime library directory: /lib/<triplet>.
    triplet = os.path.basename(libdir)
    deb_shlibdir = '/lib/' + triplet

    root = os.path.abspath(root)
    raw = root + '.meson'
    for d in (root, raw):
        shutil.rmtree(d, ignore_errors=True)
    env = dict(os.environ)
    env.pop('DESTDIR', None)
    r = subprocess.run(['meson', 'install', '-C', build, '--destdir', raw,
                        '--no-rebuild', '--quiet'], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit('stage: meson install failed')

    def target_of(path):
        """Where PATH (absolute, in the image) belongs in Debian's layout."""
        if not shlibdir and path == os.path.join(libdir, 'libselinux.so.1'):
            path = os.path.join(deb_shlibdir, 'libselinux.so.1')
        elif prefix != '/usr' and (path + '/').startswith(prefix + '/'):
            path = '/usr' + path[len(prefix):]
        return path

    moves = []
    for dirpath, dirnames, filenames in os.walk(raw):
        for name in filenames + [d for d in dirnames
                                 if os.path.islink(os.path.join(dirpath, d))]:
            src = os.path.join(dirpath, name)
            path = src[len(raw):]
            dst_path = target_of(path)
            dst = root + dst_path
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.islink(src):
                link = os.readlink(src)
                if os.path.isabs(link):
                    new = target_of(link)
                else:
                    # a relative link keeps pointing at the same file
                    abs_t = os.path.normpath(
                        os.path.join(os.path.dirname(path), link))
                    new_abs = target_of(abs_t)
                    new = (link if new_abs == abs_t and dst_path == path else
                           new_abs if os.path.dirname(new_abs) !=
                           os.path.dirname(dst_path) else
                           os.path.basename(new_abs))
                os.symlink(new, dst)
                if new != link or dst_path != path:
                    moves.append((f'{path} -> {link}', f'{dst_path} -> {new}'))
            elif path.endswith('.pc') and prefix != '/usr':
                # the one installed file that records the prefix
                with open(src) as f:
                    text = f.read()
                with open(dst, 'w') as f:
                    f.write(text.replace(f'prefix={prefix}\n',
                                         'prefix=/usr\n'))
                moves.append((path + ' (prefix=' + prefix + ')',
                              dst_path + ' (prefix=/usr)'))
            else:
                shutil.copy2(src, dst)
                if dst_path != path:
                    moves.append((path, dst_path))
    shutil.rmtree(raw)
    if moves:
        log(f'stage: {build} has prefix={prefix} shlibdir={shlibdir!r}, '
            'not Debian\'s; staged as if configured with --prefix=/usr '
            f'-Dshlibdir={deb_shlibdir}:')
        for a, b in moves:
            log(f'  moved {a}  =>  {b}')
    return moves


if __name__ == '__main__':
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.split('\n')[0])
    stage(sys.argv[1], sys.argv[2], log=lambda m: print(m, file=sys.stderr))
