#!/usr/bin/env python3
"""matchpathcon(8), Debian's selinux-utils against ours, side by side.

A file_contexts written here (labels, <<none>> specs, a file type spec)
and a small tree under the same temporary directory; each case runs
Debian's /usr/sbin/matchpathcon and ours (on our library through
LD_LIBRARY_PATH) with the same arguments.  Stdout, stderr (the program's
path replaced by its name) and the exit status must be equal.

The -V cases use -P (a policy root holding that file_contexts): with -f,
Debian's -V verifies against the configured policy's file_contexts while
it prints the -f file's label (its output can read "has context X,
should be X"); ours verifies against the -f file, a difference kept on
purpose and not compared here.  Labels are set as security.selinux
attributes, which root can write on this kernel without SELinux; as
another user the -V cases see files without labels.

  matchpathcon.py OURS_MATCHPATHCON OURS_LIBDIR
"""
import os
import subprocess
import sys
import tempfile

OURS, LIBDIR = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
DEBIAN = '/usr/sbin/matchpathcon'


def run(prog, args, env):
    r = subprocess.run([prog] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, timeout=60)
    name = os.path.basename(prog).encode()
    return (r.returncode, r.stdout.replace(prog.encode(), name),
            r.stderr.replace(prog.encode(), name))


def main():
    if not os.path.exists(DEBIAN):
        print('SKIP: no Debian matchpathcon')
        return 77
    ok = True
    with tempfile.TemporaryDirectory() as w:
        t = os.path.join(w, 't')
        fc_text = (f'{t}/a(/.*)?\tsystem_u:object_r:a_t\n'
                   f'{t}/a/f\t--\tsystem_u:object_r:f_t\n'
                   f'{t}/a/d\t-d\tsystem_u:object_r:d_t\n'
                   f'{t}/n(/.*)?\t<<none>>\n'
                   f'{t}/a/none\t<<none>>\n')
        root = os.path.join(w, 'root')
        os.makedirs(os.path.join(root, 'contexts', 'files'))
        fc = os.path.join(root, 'contexts', 'files', 'file_contexts')
        with open(fc, 'w') as f:
            f.write(fc_text)
        for d in ('a/d', 'n'):
            os.makedirs(os.path.join(t, d))
        labels = {'a/f': 'system_u:object_r:f_t',      # verified
                  'a/g': 'system_u:object_r:wrong_t',  # differs
                  'a/none': 'system_u:object_r:q_t',   # <<none>>
                  'n/x': 'system_u:object_r:q_t',      # <<none>>
                  'a/nolabel': None}
        for p, con in labels.items():
            open(os.path.join(t, p), 'w').close()
            if con and os.geteuid() == 0:
                os.setxattr(os.path.join(t, p), 'security.selinux',
                            con.encode())
        P = lambda p: os.path.join(t, p)
        paths = [P('a/f'), P('a/g'), P('a/none'), P('n/x'), P('n'),
                 P('zz'), P('a/d/'), '/nowhere/at/all']
        cases = []
        for opts in ([], ['-n'], ['-N'], ['-n', '-N'], ['-m', 'd'],
                     ['-m', 'f', '-n'], ['-m', 'x']):
            for p in paths:
                cases.append(['-f', fc] + opts + [p])
            cases.append(['-f', fc] + opts + paths)
        cases.append(['-P', root, '-n'] + paths)
        for opts in (['-V'], ['-V', '-n'], ['-V', '-N'], ['-V', '-q']):
            for p in [P('a/f'), P('a/g'), P('a/none'), P('n/x'),
                      P('a/nolabel'), P('zz')]:
                cases.append(['-P', root] + opts + [p])
            cases.append(['-P', root] + opts + [P('a/f'), P('n/x')])
        cases += [['-f', os.path.join(w, 'missing'), P('a/f')],
                  ['-f', fc], []]
        env_deb = dict(os.environ)
        env_deb.pop('LD_LIBRARY_PATH', None)
        env_ours = dict(os.environ, LD_LIBRARY_PATH=LIBDIR)
        bad = 0
        for args in cases:
            ref = run(DEBIAN, args, env_deb)
            ours = run(OURS, args, env_ours)
            if ref != ours:
                bad += 1
                if bad <= 20:
                    print(f'DIFF matchpathcon {" ".join(args)}\n'
                          f'  Debian: {ref!r}\n  ours:   {ours!r}')
        print(f'{len(cases)} cases, {bad} differ')
        ok = bad == 0
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
