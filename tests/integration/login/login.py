#!/usr/bin/env python3
"""The login layer against kernel/'s security server: the same calls on
Debian's libselinux.so.1 and ours (lprobe, run once as linked and once with
LD_LIBRARY_PATH=OURS), over the bundled tree and fixture trees derived from
it, then a few answers written by hand from the bundled policy's files.

Usage: login.py LPROBE OURS TREE mls|nonmls
Runs under tests/lib/with-server.sh (SELINUXFS_MNT set).  LOGIN_PRELOAD,
when set, is preloaded into our runs only: point it at libasan.so and OURS
at build-asan/libselinux to run the sweep on the sanitizer build (a leak
or an error changes the exit status, which is compared)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

probe, ours, tree, variant = sys.argv[1:5]
mls = variant == 'mls'
mnt = os.environ['SELINUXFS_MNT']
failures = 0
count = 0


def run(lib, root, args, stdin=''):
    env = dict(os.environ)
    if lib == 'ours':
        env['LD_LIBRARY_PATH'] = ours
        if os.environ.get('LOGIN_PRELOAD'):
            env['LD_PRELOAD'] = os.environ['LOGIN_PRELOAD']
    p = subprocess.run([probe, 'mnt', mnt, 'root', root] + args,
                       input=stdin, capture_output=True, text=True,
                       env=env, timeout=20)
    return '%s[rc %d]' % (p.stdout, p.returncode)


def diff(root, args, stdin=''):
    global failures, count
    count += 1
    ref = run('ref', root, args, stdin)
    got = run('ours', root, args, stdin)
    # Where the reference leaves errno alone (the probe zeroes it first)
    # we set a meaningful one: any errno matches there.
    pat = re.escape(ref).replace(re.escape('errno=0'), 'errno=[A-Z0-9]+')
    if not re.fullmatch(pat, got, re.S):
        failures += 1
        print('DIFF %s %s stdin=%r\n  ref:  %r\n  ours: %r' %
              (root, ' '.join(args), stdin, ref, got))


def expect(root, args, want):
    global failures, count
    count += 1
    got = run('ours', root, args)
    if got != want + '[rc 0]':
        failures += 1
        print('FACT %s\n  want: %r\n  got:  %r' % (' '.join(args), want, got))


L = (lambda s: s + ':s0') if mls else (lambda s: s)
users = ['system_u', 'user_u', 'staff_u', 'root', 'unconfined_u', 'bob',
         'nobody']
froms = ['system_u:system_r:sshd_t', 'system_u:system_r:init_t',
         'staff_u:staff_r:staff_t', 'staff_u:sysadm_r:sysadm_t',
         'user_u:user_r:user_t', 'unconfined_u:unconfined_r:unconfined_t',
         'root:unconfined_r:unconfined_t']
froms = [L(f) for f in froms]
if mls:
    froms += ['system_u:system_r:sshd_t:s0-s3:c0.c255',
              'system_u:system_r:sshd_t:s2', 'system_u:system_r:init_t']
froms += ['bogus', 'a:b']
levels = ['s0', 's1', 's0-s3:c0.c255', 's0-s2:c1,c5', 's9', 'bad level']
roles = ['staff_r', 'sysadm_r', 'user_r', 'unconfined_r', 'system_r',
         'nosuch_r']


def sweep(root, full=True):
    for u in users:
        diff(root, ['seuser', u])
        for svc in ['sshd', 'login', 'NULL']:
            diff(root, ['getseuser', u, svc])
        for f in froms:
            diff(root, ['list', u, f, 'def', u, f])
            if not full:
                continue
            for r in roles:
                diff(root, ['defr', u, r, f])
            for lv in levels:
                diff(root, ['listl', u, lv, f, 'defl', u, lv, f,
                            'defrl', u, 'sysadm_r', lv, f,
                            'defrl', u, 'staff_r', 'NULL', f])
        diff(root, ['list', u, 'NULL', 'def', u, 'NULL',
                    'listl', u, 's0', 'NULL', 'defrl', u, 'staff_r', 's0',
                    'NULL'])
    for r in roles + ['sysadm', 'staff_r:', '']:
        diff(root, ['dtype', r])
    # is_context_customizable reads its file once: one process per tree.
    diff(root, ['cust', L('system_u:object_r:user_home_t'),
                'cust', 'a:b:removable_t', 'cust', 'a:b:user_tmp_t',
                'cust', 'a:b:etc_t', 'cust', 'bogus', 'cust', 'a:b:'])
    for c in [L('system_u:object_r:tty_device_t'), 'a:b:user_devpts_t',
              'a:b:etc_t', 'bogus']:
        diff(root, ['tty', c])
    diff(root, ['color', L('system_u:system_r:init_t'), 'color', 'x'])
    diff(root, ['execfile', '/bin/sh', 'rpm_script_t'])


def interactive(root):
    lst = ','.join(['a:b:c', 'd:e:f', 'g:h:i'])
    for stdin in ['y\n2\n', 'n\n', '\n', 'y\n9\n0\nx\n3\n', 'Y\n1\n',
                  'yes please, a long answer\n2\n']:
        diff(root, ['query', lst], stdin)
    diff(root, ['query', 'a:b:c'], 'y\n')
    for stdin in ['y\nsysadm_r\nsysadm_t\n' + ('s0\n' if mls else ''),
                  'n\n', 'N\n',
                  'y\nuser_r\nuser_t\n' + ('s0\n' if mls else '') + 'n\n',
                  'y\n\nstaff_r\n\nstaff_t\n' + ('\ns0\n' if mls else ''),
                  '\nstaff_r\nstaff_t\n' + ('s0\n' if mls else '')]:
        diff(root, ['manual', 'staff_u'], stdin)


def derived(base, edits, drop=()):
    d = tempfile.mkdtemp(prefix='login-tree.')
    t = os.path.join(d, os.path.basename(base))
    shutil.copytree(base, t)
    for rel in drop:
        p = os.path.join(t, rel)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.unlink(p)
    for rel, text in edits.items():
        p = os.path.join(t, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w') as f:
            f.write(text)
    return d, t


lv = ':s0' if mls else ''
trees = {
    # %group entries (root is in group root, daemon in daemon), a bad
    # line, levels on a non-MLS tree, trailing junk.
    'groups': ({'seusers': '# c\n\n   \nbadline\n:\nx:\n%nosuchgroup:staff_u\n'
                           '%daemon:staff_u:s1\n%root:unconfined_u\n'
                           'bin:sysadm_u:s0-s1 trailing\n'
                           'sys:staff_u  :s0\n'
                           'user_u:root\n__default__:staff_u:s0\n'
                           '__default__:user_u\n',
                'logins/bob': 'sshd:staff_u:s0\n*:user_u:s0\n',
                'logins/root': '*:unconfined_u\nlogin:root:s0-s3\n'
                               '*:staff_u:s2\n'},
               ()),
    # Broken order files: a partial context that is none, a first field
    # alone, lines without the caller, a huge line.
    'broken': ({'contexts/default_contexts':
                'system_r:sshd_t\n'
                'system_r:sshd_t\tsysadm_r:sysadm_t%s bogus staff_r:staff_t%s\n'
                'system_r:init_t   x' % (lv, lv) + ' y' * 20000 + '\n'
                'staff_r:staff_t:s0 staff_r:staff_t sysadm_r:sysadm_t\n'
                'user_r user_r:user_t\n',
                'contexts/users/staff_u': 'garbage\n\n\t\n'
                'system_r:sshd_t user_r:user_t%s sysadm_r:sysadm_t%s '
                'sysadm_r:sysadm_t%s\n' % (lv, lv, lv),
                'contexts/default_type': 'sysadm_r:sysadm_t\n'
                                         + 'x' * 600 + '\n'
                                         'staff_r:staff_t extra\n'
                                         'user_r:user_t',
                'contexts/customizable_types': '  etc_t \n\nuser_tmp_t',
                'contexts/securetty_types': '  etc_t junk\n\n',
                'contexts/failsafe_context': 'staff_r:staff_t%s\nsecond\n'
                                             % lv},
               ()),
    # No files at all but the policy root itself.
    'empty': ({}, ('seusers', 'contexts')),
    # An empty failsafe and an unusable one.
    'failsafe': ({'contexts/failsafe_context': ''},
                 ('contexts/users', 'contexts/default_contexts')),
    'failsafe2': ({'contexts/failsafe_context': 'no_r:no_t\n'},
                  ('contexts/users', 'contexts/default_contexts')),
}

sweep(tree)
interactive(tree)
made = []
for name, (edits, drop) in trees.items():
    d, t = derived(tree, edits, drop)
    made.append(d)
    sweep(t, full=name in ('groups', 'broken'))
for d in made:
    shutil.rmtree(d)

# Hand-written answers, from the bundled tree's seusers and contexts files
# and the policy's users (staff_u: staff_r sysadm_r; user_u: user_r).
if not mls:
    expect(tree, ['seuser', 'root'], 'seuser root = 0 "root" "(null)"\n')
    expect(tree, ['seuser', 'bob'], 'seuser bob = 0 "user_u" "(null)"\n')
    expect(tree, ['list', 'staff_u', 'system_u:system_r:sshd_t'],
           'list = 2 staff_u:staff_r:staff_t staff_u:sysadm_r:sysadm_t\n')
    expect(tree, ['list', 'root', 'system_u:system_r:sshd_t'],
           'list = 3 root:unconfined_r:unconfined_t root:sysadm_r:sysadm_t'
           ' root:staff_r:staff_t\n')
    expect(tree, ['list', 'user_u', 'system_u:system_r:init_t'],
           'list = 1 user_u:user_r:user_t\n')
    # users/staff_u has no user_r:user_t line; default_contexts offers
    # only user_r:user_t, not staff_u's: the failsafe context.
    expect(tree, ['list', 'staff_u', 'user_u:user_r:user_t'],
           'list = 1 staff_u:sysadm_r:sysadm_t\n')
    expect(tree, ['defr', 'root', 'sysadm_r', 'system_u:system_r:sshd_t'],
           'defr = 0 "root:sysadm_r:sysadm_t"\n')
    expect(tree, ['dtype', 'staff_r'], 'dtype = 0 "staff_t"\n')
    expect(tree, ['tty', 'system_u:object_r:tty_device_t'], 'tty = 0\n')
    expect(tree, ['cust', 'system_u:object_r:user_home_t'], 'cust = 1\n')
else:
    expect(tree, ['seuser', 'root'],
           'seuser root = 0 "root" "s0-s3:c0.c255"\n')
    expect(tree, ['seuser', 'bob'], 'seuser bob = 0 "user_u" "s0"\n')
    expect(tree, ['list', 'staff_u', 'system_u:system_r:sshd_t:s0'],
           'list = 2 staff_u:staff_r:staff_t:s0'
           ' staff_u:sysadm_r:sysadm_t:s0\n')
    expect(tree, ['defl', 'user_u', 's0', 'system_u:system_r:sshd_t:s1'],
           'defl = 0 "user_u:user_r:user_t:s0"\n')

print('%d comparisons, %d failures' % (count, failures))
sys.exit(1 if failures else 0)
