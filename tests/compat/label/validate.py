#!/usr/bin/env python3
"""SELABEL_OPT_VALIDATE on small file_contexts fixtures, Debian's
libselinux1 against ours: duplicate specs (within the base file, between
it and file_contexts.homedirs / .local, within those; same or different
contexts; with and without a file type), and contexts the validator
rejects, each as text and as a .bin compiled by Debian's
sefcontext_compile, with and without BASEONLY.

fcprobe -a installs a validate callback that accepts every context but
those of type invalid_t (this host has no SELinux: the kernel would
reject them all); -L prints the log messages, so they are compared too.

  validate.py FCPROBE OURS_LIBDIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

PROBE, OURS = sys.argv[1], sys.argv[2]
COMPILE = shutil.which('sefcontext_compile') or '/usr/sbin/sefcontext_compile'

A = '/a/b\tu:r:t1:s0\n'
CASES = {
    'base-diff': {'': '/a/b\tu:r:t1:s0\n/a/b\tu:r:t2:s0\n'},
    'base-same': {'': '/a/b\tu:r:t1:s0\n/a/b\tu:r:t1:s0\n'},
    'base-mode-same': {'': '/a/b\t--\tu:r:t1:s0\n/a/b\t--\tu:r:t2:s0\n'},
    'base-mode-diffmode': {'': '/a/b\t--\tu:r:t1:s0\n/a/b\t-d\tu:r:t2:s0\n'},
    'base-mode-onemode': {'': '/a/b\t--\tu:r:t1:s0\n/a/b\tu:r:t2:s0\n'},
    'base-regex': {'': '/a/.*\tu:r:t1:s0\n/a/.*\tu:r:t2:s0\n'},
    'base-triple': {'': '/a/b\tu:r:t1:s0\n/a/b\tu:r:t2:s0\n/a/b\tu:r:t3:s0\n'},
    'base-equiv': {'': '/a/b\\.c\tu:r:t1:s0\n/a/b[.]c\tu:r:t2:s0\n'},
    'base-order': {'': '/z\tu:r:t1:s0\n/a\tu:r:t2:s0\n/z\tu:r:t3:s0\n'
                   '/a\tu:r:t2:s0\n/a/b\t-d\tu:r:t1:s0\n/a/b\tu:r:t5:s0\n'},
    'home-diff': {'': A, 'homedirs': '/a/b\tu:r:t2:s0\n'},
    'home-same': {'': A, 'homedirs': A},
    'home-mode': {'': '/a/b\t--\tu:r:t1:s0\n',
                  'homedirs': '/a/b\t--\tu:r:t2:s0\n'},
    'home-internal': {'': '/x\tu:r:t1:s0\n',
                      'homedirs': '/a/b\tu:r:t1:s0\n/a/b\tu:r:t2:s0\n'},
    'local-diff': {'': A, 'local': '/a/b\tu:r:t2:s0\n'},
    'local-internal': {'': '/x\tu:r:t1:s0\n',
                       'local': '/a/b\tu:r:t1:s0\n/a/b\tu:r:t2:s0\n'},
    'home-local': {'': '/x\tu:r:t1:s0\n', 'homedirs': A,
                   'local': '/a/b\tu:r:t2:s0\n'},
    # refpolicy: /root/\.k5login in both, another user in homedirs
    'refpolicy-k5login': {
        '': '/root/\\.k5login\t--\tsystem_u:object_r:krb5_home_t:s0\n',
        'homedirs': '/root/\\.k5login\t--\tunconfined_u:object_r:krb5_home_t:s0\n'},
    'invalid': {'': '/a/b\tu:r:t1:s0\n/a/.*\tu:r:t2:s0\n'
                '/b/.*\tu:r:invalid_t:s0\n/x\t<<none>>\n'},
    'invalid-home': {'': A, 'homedirs': '/a/.*\tu:r:t2:s0\n'
                     '/b/.*\tu:r:invalid_t:s0\n/x\t<<none>>\n'},
}
KEYS = b'0 /a/b\x000 /a/c\x000 /x\x00100000 /root/.k5login\x000 /a/b.c\x00'
ARGS = (['-v', '-a'], ['-v', '-a', '-b'], ['-a'])


def run(d, args, ours):
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    if ours:
        env['LD_LIBRARY_PATH'] = OURS
    cmd = [PROBE, '-p', d + '/file_contexts'] + args + ['-L', 'lookup']
    p = subprocess.run(cmd, input=KEYS, capture_output=True, env=env,
                       timeout=60)
    return p.returncode, p.stdout.decode('utf-8', 'replace').replace(d, 'D')


def main():
    if not os.path.exists(COMPILE):
        print('no sefcontext_compile: skipped')
        return 77
    compared = bad = 0
    for name, files in CASES.items():
        for kind in ('text', 'bin'):
            d = tempfile.mkdtemp(prefix='fcvalidate.')
            try:
                for sfx, txt in files.items():
                    fn = d + '/file_contexts' + ('.' + sfx if sfx else '')
                    with open(fn, 'w') as f:
                        f.write(txt)
                    if kind == 'bin':
                        subprocess.run([COMPILE, fn], check=True)
                for args in ARGS:
                    ref, ours = run(d, args, False), run(d, args, True)
                    compared += 1
                    if ref != ours:
                        bad += 1
                        print(f'DIFF {name} {kind} {" ".join(args)}\n'
                              f'  reference: {ref!r}\n  ours:      {ours!r}')
            finally:
                shutil.rmtree(d)
    print(f'validate: {compared} cases compared, {bad} differences')
    return 1 if bad else 0


sys.exit(main())
