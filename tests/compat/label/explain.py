#!/usr/bin/env python3
"""selabel_lookup_explain() (selinux/label_explain.h) against the ordinary
lookup and the spec files, on the refpolicy file_contexts.

  explain.py EXPLAINPROBE OUR_SEFCONTEXT_COMPILE GEN_PATHS MATCHPATHCON

The policy files (EXPLAIN_DIR, default /etc/selinux/default/contexts/
files: file_contexts, .homedirs, .subs_dist) are copied into three sets:
text (with the index image sefcontext_compile -I writes), bin (our .bin
and the image), local (text plus a file_contexts.local and a .subs).
explainprobe (on our library) checks, for the paths of this machine
with their lstat mode and mode 0 and paths generated from every spec
(gen_paths.py), that each explanation gives the lookup's answer, names
only specs that match by its own PCRE2, and ranks them by the documented
rule: on the corpus for the bin set with its image (what programs use),
sampled as label-lookup samples it (EXPLAIN_CORPUS_N, default 100000;
0: all of it, 1.1 million keys here, ~10 minutes), and on a sample of EXPLAIN_N (default 3000; 0: all) for each set
with the image and without it, where it also checks that the
explanation names every spec of the text files that matches (each key
then costs the probe a match of every spec: ~3 ms).  Then matchpathcon -x on the local set: its first line is what
matchpathcon prints, and it names the spec file and line that gave it.
Exit 1 on any failure, 77 when the policy is missing.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

PROBE, COMPILE, GEN, MATCHPATHCON = sys.argv[1:5]
FCDIR = os.environ.get('EXPLAIN_DIR', '/etc/selinux/default/contexts/files')
N = int(os.environ.get('EXPLAIN_N', '3000'))
CORPUS_N = int(os.environ.get('EXPLAIN_CORPUS_N', '100000'))
FILES = ['file_contexts', 'file_contexts.homedirs', 'file_contexts.subs_dist']
LOCAL = ('/srv/web(/.*)?\tsystem_u:object_r:etc_t:s0\n'
         '/usr/bin/ls\t--\tsystem_u:object_r:etc_t:s0\n'
         '/etc/local-none(/.*)?\t<<none>>\n'
         '/etc/local-exact\tsystem_u:object_r:bin_t:s0\n')
failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL:', msg)


def records(d):
    """The corpus (once: every set has the same base files)."""
    gen = subprocess.run([sys.executable, GEN, '--machine',
                          d + '/file_contexts', d + '/file_contexts.homedirs'],
                         capture_output=True, check=True).stdout
    return [r for r in gen.split(b'\0') if r]


def corpus(recs, rnd, n):
    if n and len(recs) > n:
        recs = rnd.sample(recs, n)
    # always: aliases, a <<none>>, a literal beating regexes, odd keys
    recs = recs + [
        b'0 /opt/app/bin/x', b'0 /var/run/x', b'0 /etc/local-none/x',
        b'0 /etc/local-exact', b'100000 /usr/bin/ls', b'40000 /usr/bin/ls',
        b'0 //usr///bin/', b'0 /usr/bin/ls\n',
        b'0 /home/someone/.ssh/authorized_keys', b'0 /srv/web/x']
    return b''.join(r + b'\0' for r in recs)


def make_set(tmp, kind):
    d = os.path.join(tmp, kind)
    os.mkdir(d)
    for f in FILES:
        if os.path.exists(os.path.join(FCDIR, f)):
            shutil.copy(os.path.join(FCDIR, f), d)
    fc = os.path.join(d, 'file_contexts')
    if kind == 'local':
        with open(fc + '.local', 'w') as f:
            f.write(LOCAL)
        with open(fc + '.subs', 'w') as f:
            f.write('/opt/app /usr\n')
    if kind == 'bin':
        for f in ('file_contexts', 'file_contexts.homedirs'):
            subprocess.run([COMPILE, os.path.join(d, f)], check=True)
    else:
        subprocess.run([COMPILE, '-I', fc], check=True)
    if not os.path.exists(fc + '.idx'):
        fail(f'{kind}: no index image written')
    return d


def probe(d, data, what, every=True):
    fc = os.path.join(d, 'file_contexts')
    args = [PROBE, '-p', fc]
    for f in (fc, fc + '.homedirs', fc + '.local'):
        if every and os.path.exists(f):
            args += ['-t', f]
    p = subprocess.run(args, input=data, capture_output=True, timeout=1200)
    out = p.stdout.decode(errors='replace').strip()
    print(f'{what}: {out.splitlines()[-1] if out else p.stderr[-200:]}')
    if p.returncode:
        fail(f'{what}: exit {p.returncode}\n{out[-3000:]}')


def matchpathcon_x(d):
    fc = os.path.join(d, 'file_contexts')
    for path, want_ctx, want_line in (
            ('/srv/web/index.html', 'system_u:object_r:etc_t:s0',
             'file_contexts.local:1'),
            ('/etc/local-none/x', '<<none>>', 'file_contexts.local:3'),
            ('/opt/app/bin/x', None, None)):
        x = subprocess.run([MATCHPATHCON, '-x', '-f', fc, path],
                           capture_output=True, text=True)
        plain = subprocess.run([MATCHPATHCON, '-f', fc, path],
                               capture_output=True, text=True)
        first = x.stdout.split('\n', 1)[0] + '\n'
        if x.returncode or first != plain.stdout:
            fail(f'matchpathcon -x {path}: exit {x.returncode}, first line '
                 f'{first!r}, matchpathcon says {plain.stdout!r}')
        if want_ctx and not first.endswith('\t' + want_ctx + '\n'):
            fail(f'matchpathcon -x {path}: {first!r}, want {want_ctx}')
        if want_line and f'{fc}.local:{want_line.split(":")[1]})' not in x.stdout:
            fail(f'matchpathcon -x {path}: no {want_line} in\n{x.stdout}')
        if path.startswith('/opt/app') and \
                f'.subs alias: /opt/app is labelled as /usr ({fc}.subs)' \
                not in x.stdout:
            fail(f'matchpathcon -x {path}: the alias not named:\n{x.stdout}')
        print(x.stdout, end='')


def blocked(tmp):
    """A regex PCRE2 rejects, ranked above every match: the lookup fails
    (matchpathcon prints <<none>>, as Debian's does) and the explanation
    names that spec; a key its stem does not reach is labelled."""
    d = os.path.join(tmp, 'blocked')
    os.mkdir(d)
    fc = os.path.join(d, 'file_contexts')
    with open(fc, 'w') as f:
        f.write('/.*\tsystem_u:object_r:default_t:s0\n'
                '/srv/a(/.*)?\tsystem_u:object_r:etc_t:s0\n'
                '/srv/a/br(\tsystem_u:object_r:bin_t:s0\n')
    for path, first, says in (
            ('/srv/a/x', '/srv/a/x\t<<none>>\n', f'/srv/a/br(  system_u:'
             f'object_r:bin_t:s0  ({fc}:3)'),
            ('/usr/x', '/usr/x\tsystem_u:object_r:default_t:s0\n',
             f'labelled by /.*  system_u:object_r:default_t:s0  ({fc}:1)')):
        x = subprocess.run([MATCHPATHCON, '-x', '-f', fc, path],
                           capture_output=True, text=True)
        if x.returncode or not x.stdout.startswith(first) or \
                says not in x.stdout:
            fail(f'matchpathcon -x {path} (a bad regex): exit '
                 f'{x.returncode}, want {first!r} and {says!r} in\n'
                 f'{x.stdout}{x.stderr}')
        print(x.stdout, end='')


def main():
    if not all(os.path.exists(os.path.join(FCDIR, f)) for f in FILES[:2]):
        print(f'{FCDIR}: no file_contexts(.homedirs): skipped')
        return 77
    rnd = random.Random(29)
    tmp = tempfile.mkdtemp(prefix='fcexplain.')
    try:
        recs = None
        for kind in ('text', 'bin', 'local'):
            d = make_set(tmp, kind)
            if recs is None:
                recs = records(d)
            if kind == 'bin':
                probe(d, corpus(recs, rnd, CORPUS_N), 'bin, index image, '
                      f'corpus ({CORPUS_N or "all"})', every=False)
            data = corpus(recs, rnd, N)
            probe(d, data, f'{kind}, index image')
            idx = os.path.join(d, 'file_contexts.idx')
            os.rename(idx, idx + '.away')
            probe(d, data, f'{kind}, files')
            os.rename(idx + '.away', idx)
            if kind == 'local':
                matchpathcon_x(d)
        blocked(tmp)
    finally:
        shutil.rmtree(tmp)
    print(f'explain: {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
