#!/usr/bin/env python3
"""Our getconlist, getdefaultcon and getseuser beside Debian's.

Run under tests/lib/with-server.sh (a mount namespace of its own): the
bundled root's etc/selinux is bind-mounted over /etc/selinux here.  Debian's
programs only see a FUSE selinuxfs through our library, so both sets run on
ours (Debian's with LD_LIBRARY_PATH): this compares the programs' logic.
Stdout, stderr (program path replaced by its name) and exit status must be
equal; a few answers are written by hand.
Usage: utils.py OURS_UTILS_DIR OURS_LIB_DIR ETC_SELINUX
"""
import os
import subprocess
import sys

utils, lib, etc = sys.argv[1:4]
if subprocess.run(['mount', '--bind', etc, '/etc/selinux']).returncode:
    print('cannot bind-mount the bundled tree; skipping')
    sys.exit(77)

S = 'system_u:system_r:sshd_t'
CASES = [
    ['getconlist', 'staff_u', S], ['getconlist', 'root', S],
    ['getconlist', '-l', 's0', 'staff_u', S], ['getconlist', 'nobody', S],
    ['getconlist', 'staff_u'], ['getconlist', 'staff_u', 'bogus'],
    ['getconlist', '-x', 'staff_u'], ['getconlist', 'a', 'b', 'c'],
    ['getconlist'],
    ['getdefaultcon', 'staff_u', S], ['getdefaultcon', '-s', 'sshd', 'root', S],
    ['getdefaultcon', 'root', S], ['getdefaultcon', 'bob', S],
    ['getdefaultcon', '-l', 's0', 'root', S], ['getdefaultcon', 'nobody', S],
    ['getdefaultcon', '-r', 'sysadm_r', 'root', S],
    ['getdefaultcon', '-r', 'user_r', 'root', S],
    ['getdefaultcon', '-v', 'root', S],
    ['getdefaultcon', '-v', '-r', 'staff_r', 'root', S],
    ['getdefaultcon', 'root'], ['getdefaultcon', 'root', 'bogus'],
    ['getdefaultcon', '-q', 'root'], ['getdefaultcon'],
    ['getseuser', 'root', S], ['getseuser', 'bob', S],
    ['getseuser', 'nobody', 'bogus'], ['getseuser', 'root'],
    ['getseuser', 'staff_u', 'user_u:user_r:user_t'],
]


def run(prog, args):
    env = dict(os.environ, LD_LIBRARY_PATH=lib)
    p = subprocess.run([prog] + args, capture_output=True, text=True,
                       env=env, timeout=30)
    return (p.stdout,
            p.stderr.replace(prog, os.path.basename(prog)), p.returncode)


failures = 0
for c in CASES:
    ref = run('/usr/sbin/' + c[0], c[1:])
    ours = run(os.path.join(utils, c[0]), c[1:])
    ref = (ref[0].replace('/usr/sbin/' + c[0], c[0]),) + ref[1:]
    ours = (ours[0].replace(os.path.join(utils, c[0]), c[0]),) + ours[1:]
    if ref != ours:
        failures += 1
        print('DIFF %s\n  ref:  %r\n  ours: %r' % (' '.join(c), ref, ours))

# By hand, from the bundled tree: seusers maps root to root and anyone
# else to user_u; users/root lists unconfined_r first from sshd_t.
FACTS = [
    (['getconlist', 'user_u', S], 'user_u:user_r:user_t\n', 0),
    (['getdefaultcon', 'bob', S], 'user_u:user_r:user_t\n', 1),
    (['getseuser', 'root', S],
     'seuser:  root, level (null)\nContext 0\troot:unconfined_r:unconfined_t'
     '\nContext 1\troot:sysadm_r:sysadm_t\nContext 2\troot:staff_r:staff_t\n',
     0),
]
for args, out, rc in FACTS:
    got = run(os.path.join(utils, args[0]), args[1:])
    if (got[0], got[2]) != (out, rc):
        failures += 1
        print('FACT %s\n  want: %r\n  got:  %r' % (' '.join(args), out, got))
print('%d cases, %d facts, %d failures' % (len(CASES), len(FACTS), failures))
sys.exit(1 if failures else 0)
