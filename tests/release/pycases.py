"""Run inside a release root by cases.sh (python3 of the root).

  pycases.py setup            the labelled tree (os.setxattr only: no
                              libselinux involved), the same for each side
  pycases.py dump OUT PATH..  every security.* attribute under PATHs
  pycases.py calls OUTDIR     python3-selinux calls that need no kernel,
                              each recorded as OUTDIR/py.NAME.{out,err,rc}
"""
import os
import shutil
import sys
import traceback

LABELS = {
    '/etc/passwd': 'system_u:object_r:etc_t:s0',        # right
    '/etc/shadow': 'system_u:object_r:etc_t:s0',        # wrong type
    '/etc/hosts': 'unconfined_u:object_r:net_conf_t:s0',  # other user
    '/etc/hostname': 'bogus',                           # no context
    '/etc/group': 'system_u:object_r:etc_t',            # no level
    '/home': 'system_u:object_r:home_root_t:s0',
    '/home/alice': 'system_u:object_r:user_home_dir_t:s0',
    '/home/alice/file': 'system_u:object_r:user_home_t:s0',
    '/home/alice/.ssh': 'system_u:object_r:user_home_t:s0',
    '/var/www/t/index.html': 'system_u:object_r:httpd_sys_content_t:s0',
    '/srv/t': 'system_u:object_r:var_t:s0',
    '/srv/t/a b': 'system_u:object_r:tmp_t:s0',
    '/srv/t/link': 'system_u:object_r:etc_t:s0',
    '/tmp/rel-x': 'system_u:object_r:tmp_t:s0',
    # selinux_restorecon's flags after 3.4 (calls, restorecon-*)
    '/srv/t/rc': 'system_u:object_r:tmp_t:s0',
    '/srv/t/rc/m': 'system_u:object_r:tmp_t:s0',
    '/srv/t/rc/m/solo': 'system_u:object_r:tmp_t:s0',
    '/srv/t/rc/m/h1': 'system_u:object_r:tmp_t:s0',      # and m/h2
    '/srv/t/rc/u': 'user_u:object_r:tmp_t:s0',           # other user
    '/srv/t/rc/c': 'system_u:object_r:tmp_t:s0',
    '/srv/t/rc/c/a': 'system_u:object_r:tmp_t:s0',
    '/srv/t/rc/c/b': 'system_u:object_r:var_t:s0',       # right
}


def setup():
    for d in ('/srv/t', '/home/alice', '/var/www/t'):
        shutil.rmtree(d, ignore_errors=True)
    for d in ('/srv/t/py', '/home/alice/.ssh', '/var/www/t/cgi-bin', '/srv/t/d/e',
              '/srv/t/real/sub', '/srv/t/real2/sub', '/srv/t/rc/m',
              '/srv/t/rc/c'):
        os.makedirs(d, exist_ok=True)
    for f in ('/home/alice/file', '/home/alice/.ssh/authorized_keys',
              '/home/alice/.bashrc', '/var/www/t/index.html',
              '/var/www/t/cgi-bin/run', '/srv/t/a b', '/srv/t/d/e/f',
              '/tmp/rel-x', '/srv/t/real/f', '/srv/t/real/sub/g',
              '/srv/t/real2/f', '/srv/t/real2/sub/g', '/srv/t/py/f',
              '/srv/t/rc/m/solo', '/srv/t/rc/m/h1', '/srv/t/rc/u',
              '/srv/t/rc/c/a', '/srv/t/rc/c/b'):
        open(f, 'w').close()
    os.link('/srv/t/rc/m/h1', '/srv/t/rc/m/h2')
    if not os.path.lexists('/srv/t/link'):
        os.symlink('/etc/passwd', '/srv/t/link')
    if not os.path.exists('/srv/t/fifo'):
        os.mkfifo('/srv/t/fifo')
    for p, c in LABELS.items():
        os.setxattr(p, 'security.selinux', c.encode(), follow_symlinks=False)
    for p in ('/srv/t/real', '/srv/t/real2'):
        for dp, dns, fns in os.walk(p):
            for n in [dp] + [os.path.join(dp, f) for f in fns]:
                os.setxattr(n, 'security.selinux',
                            b'system_u:object_r:tmp_t:s0')


def dump(out, paths):
    lines = []
    for top in paths:
        for dp, dns, fns in os.walk(top):
            dns.sort()
            for n in [dp] + sorted(os.path.join(dp, f) for f in fns):
                for a in sorted(os.listxattr(n, follow_symlinks=False)):
                    if a.startswith('security.'):
                        v = os.getxattr(n, a, follow_symlinks=False)
                        lines.append('%s %s %s\n' % (n, a, v.hex() if
                                     a != 'security.selinux' else v.decode()))
    with open(out, 'w') as f:
        f.writelines(lines)


def calls(outdir):
    import selinux
    FC = '/etc/selinux/default/contexts/files/file_contexts'
    V5 = '/opt/rel/v5/file_contexts'

    def lookup(path, mode=0):
        h = selinux.selabel_open(selinux.SELABEL_CTX_FILE, None, 0)
        try:
            return selinux.selabel_lookup(h, path, mode)
        finally:
            selinux.selabel_close(h)

    def mpinit(spec, path):
        try:
            return selinux.matchpathcon_init(spec), selinux.matchpathcon(path, 0)
        finally:
            selinux.matchpathcon_fini()

    NOCHANGE, RECURSE, VERBOSE, SKIP_DIGEST = 0x2, 0x8, 0x10, 0x8000
    SET_USER_ROLE, COUNT_RELABELED = 0x40000, 0x80000
    SKIP_MULTILINK = 0x100000

    def counted(path, flags):
        # (trixie's binding has no get_relabeled_files: AttributeError)
        r = selinux.selinux_restorecon(path, flags | SKIP_DIGEST)
        return r, selinux.selinux_restorecon_get_relabeled_files()

    def ctx():
        c = selinux.context_new('system_u:object_r:etc_t:s0')
        selinux.context_type_set(c, 'shadow_t')
        return selinux.context_str(c)

    cases = [
        ('matchpathcon', lambda: selinux.matchpathcon('/etc/shadow', 0)),
        ('matchpathcon-mode', lambda: selinux.matchpathcon('/var/run', 0o40000)),
        ('matchpathcon-none', lambda: selinux.matchpathcon('/tmp/rel-x', 0)),
        ('selabel_lookup', lambda: lookup('/etc/passwd')),
        ('selabel_lookup-home', lambda: lookup('/home/alice/.ssh', 0o40000)),
        ('selabel_lookup-missing', lambda: lookup('/proc/1/foo')),
        ('matchpathcon_init-v5', lambda: mpinit(V5, '/etc/shadow')),
        ('matchpathcon_init-nofile', lambda: mpinit('/nonexistent', '/etc/shadow')),
        ('getfilecon', lambda: selinux.getfilecon('/etc/passwd')),
        ('lgetfilecon-link', lambda: selinux.lgetfilecon('/srv/t/link')),
        ('getfilecon-bogus', lambda: selinux.getfilecon('/etc/hostname')),
        ('getfilecon-none', lambda: selinux.getfilecon('/etc/fstab')),
        ('is_selinux_enabled', lambda: selinux.is_selinux_enabled()),
        ('is_selinux_mls_enabled', lambda: selinux.is_selinux_mls_enabled()),
        ('security_getenforce', lambda: selinux.security_getenforce()),
        ('selinux_getenforcemode', lambda: selinux.selinux_getenforcemode()),
        ('selinux_getpolicytype', lambda: selinux.selinux_getpolicytype()),
        ('selinux_policy_root', lambda: selinux.selinux_policy_root()),
        ('selinux_file_context_path', lambda: selinux.selinux_file_context_path()),
        ('selinux_binary_policy_path', lambda: selinux.selinux_binary_policy_path()),
        ('getseuserbyname', lambda: selinux.getseuserbyname('root')),
        ('getseuserbyname-other', lambda: selinux.getseuserbyname('alice')),
        ('context', ctx),
        ('raw_to_trans', lambda: selinux.selinux_raw_to_trans_context('system_u:object_r:etc_t:s0')),
        ('get_default_type', lambda: selinux.get_default_type('object_r')),
        ('restorecon', lambda: selinux.restorecon('/srv/t/py', recursive=True)),
        # the flags added after 3.4, by value (3.11's restorecon.h): what
        # each release does with them, unknown bits included; the log
        # goes to fd 2.  No digest written (SKIP_DIGEST).
        ('restorecon-multilink', lambda: selinux.selinux_restorecon(
            '/srv/t/rc/m', RECURSE | NOCHANGE | VERBOSE | SKIP_MULTILINK |
            SKIP_DIGEST)),
        ('restorecon-multilink-quiet', lambda: selinux.selinux_restorecon(
            '/srv/t/rc/m', RECURSE | NOCHANGE | SKIP_MULTILINK |
            SKIP_DIGEST)),
        ('restorecon-user-role', lambda: selinux.selinux_restorecon(
            '/srv/t/rc/u', NOCHANGE | VERBOSE | SET_USER_ROLE |
            SKIP_DIGEST)),
        ('restorecon-count-nochange', lambda: counted(
            '/srv/t/rc/c', RECURSE | NOCHANGE | VERBOSE | COUNT_RELABELED)),
        ('restorecon-count', lambda: counted(
            '/srv/t/rc/c', RECURSE | VERBOSE | COUNT_RELABELED)),
        ('restorecon-unknown-bit', lambda: selinux.selinux_restorecon(
            '/srv/t/rc/u', NOCHANGE | VERBOSE | 0x40000000 |
            SKIP_DIGEST)),
    ]
    for name, fn in cases:
        base = os.path.join(outdir, 'py.' + name)
        # what the library itself prints (its log callback writes to
        # fd 2) belongs to the call: fd 2 goes to the call's .err file
        sys.stderr.flush()
        saved = os.dup(2)
        with open(base + '.err', 'w') as err:
            os.dup2(err.fileno(), 2)
            rc, out = 0, ''
            try:
                out = repr(fn()) + '\n'
            except Exception as e:  # the exception is the observable result
                rc = 1
                os.write(2, ('%s: %s\n' % (type(e).__name__, e)).encode())
            os.dup2(saved, 2)
        os.close(saved)
        for ext, v in (('out', out), ('rc', '%d\n' % rc)):
            with open(base + '.' + ext, 'w') as f:
                f.write(v)

if __name__ == '__main__':
    if sys.argv[1] == 'setup':
        setup()
    elif sys.argv[1] == 'dump':
        dump(sys.argv[2], sys.argv[3:])
    else:
        calls(sys.argv[2])
