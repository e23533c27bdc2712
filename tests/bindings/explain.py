#!/usr/bin/env python3
"""selabel_lookup_explain() from Python and Ruby (bindings/*/explain.i).

  explain.py PYTHONPATH RUBYLIB RUBY FILE_CONTEXTS

On one handle of FILE_CONTEXTS in each language, for the paths under
/etc, /usr/bin and /var (their lstat mode and mode 0; at most 400 of
each) and a few fixed ones: the Python dict's winner context is
selabel_lookup_raw()'s answer (or error is its errno), every spec is a
dict with the documented fields, and the Ruby Hash is the same data as
the Python dict (compared as JSON).  A failing call raises OSError(EINVAL)
in Python and returns -1 alone in Ruby.  RUBY "" skips the Ruby half.
"""
import json
import os
import subprocess
import sys

PYPATH, RUBYLIB, RUBY, FC = sys.argv[1:5]
sys.path.insert(0, PYPATH)
import selinux  # noqa: E402

SPEC = {'regex', 'type', 'context', 'file', 'line', 'literal', 'source',
        'source_line'}
TOP = {'key', 'lookup_key', 'type', 'error', 'subs', 'subs_dist', 'winner',
       'blocked', 'overridden', 'other_types'}
failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL:', msg)


def keys():
    out = []
    for top in ('/etc', '/usr/bin', '/var'):
        n = 0
        for root, dirs, files in os.walk(top):
            for name in dirs + files:
                p = os.path.join(root, name)
                try:
                    mode = os.lstat(p).st_mode & 0o170000
                except OSError:
                    continue
                out += [(p, mode), (p, 0)]
                n += 1
                if n >= 400:
                    break
            if n >= 400:
                break
    out += [('/var/run/x', 0), ('//usr///bin/', 0), ('/home/u/.ssh', 0),
            ('/etc/shadow', 0o040000), ('/proc/1', 0)]
    return sorted(set(out))


def main():
    if not os.path.exists(FC):
        print(f'{FC}: missing: skipped')
        return 77
    opt = selinux.selinux_opt()
    opt.type = selinux.SELABEL_OPT_PATH
    opt.value = FC
    h = selinux.selabel_open(selinux.SELABEL_CTX_FILE, opt, 1)
    ks = keys()
    py = []
    for path, mode in ks:
        rc, e = selinux.selabel_lookup_explain(h, path, mode)
        if rc != 0 or set(e) != TOP:
            fail(f'{path}: rc {rc}, fields {sorted(e)}')
            continue
        for s in [e['winner'], e['blocked']] + e['overridden'] + \
                e['other_types']:
            if s is not None and set(s) != SPEC:
                fail(f'{path}: spec fields {sorted(s)}')
        try:
            _, con = selinux.selabel_lookup_raw(h, path, mode)
            if e['error'] or e['winner']['context'] != con:
                fail(f'{path} {mode:o}: lookup {con}, explanation '
                     f'{e["error"]} {e["winner"]}')
        except OSError as err:
            if e['error'] != err.errno:
                fail(f'{path} {mode:o}: lookup errno {err.errno}, '
                     f'explanation {e["error"]}')
        py.append(e)
    try:
        selinux.selabel_lookup_explain(h, '', 0)
        fail('an empty key: no OSError')
    except OSError as err:
        if err.errno != 22:
            fail(f'an empty key: errno {err.errno}')
    print(f'python: {len(py)} explanations')

    if RUBY:
        script = r'''
require "selinux"; require "json"
o = Selinux::Selinux_opt.new; o.type = Selinux::SELABEL_OPT_PATH
o.value = ARGV[0]
h = Selinux.selabel_open(Selinux::SELABEL_CTX_FILE, o, 1)
out = []
STDIN.read.split("\0").each do |r|
  m, p = r.split(" ", 2)
  rc, e = Selinux.selabel_lookup_explain(h, p, m.to_i(8))
  out << (rc == 0 ? e : rc)
end
out << Selinux.selabel_lookup_explain(h, "", 0)
puts JSON.generate(out)
'''
        data = ''.join(f'{m:o} {p}\0' for p, m in ks)
        r = subprocess.run([RUBY, '-I', RUBYLIB, '-e', script, FC],
                           input=data, capture_output=True, text=True)
        if r.returncode:
            fail(f'ruby: exit {r.returncode}: {r.stderr[-500:]}')
        else:
            rb = json.loads(r.stdout)
            if rb[-1] != -1:
                fail(f'ruby, an empty key: {rb[-1]!r}, want -1')
            if rb[:-1] != py:
                bad = next(i for i, (a, b) in enumerate(zip(rb, py))
                           if a != b) if len(rb) - 1 == len(py) else -1
                fail(f'ruby differs from python (first at {bad}: '
                     f'{rb[bad] if bad >= 0 else len(rb)} vs '
                     f'{py[bad] if bad >= 0 else len(py)})')
            print(f'ruby: {len(rb) - 1} explanations')
    selinux.selabel_close(h)
    print(f'explain: {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
