#!/usr/bin/env python3
"""Compare the boots of the system test.

  compare.py --expected DIR NAME=WORKDIR...

Each WORKDIR holds out.log, what the guest wrote on its second serial
port: "@@CHECK name" ... "@@END name" blocks (the values of the checks),
"@@PHASE n", "@@STATE s", "@@CRASH file exit n", "@@SYSTEST-DONE".

A check passes when every boot gave it the same value, and that value is
the one in DIR/name when that file exists (the expectations written by
hand from the policy, marked (H) in the issue).  DIR/name.BOOT instead
states what each boot must answer where the boots differ by design (which
library is in place).  A boot that did not
finish, or a check script that exited non-zero, fails.  One line per
check ("ok   name" or "FAIL name: why", both values under a failure),
then "N passed, N failed"; exit 1 on any failure.
"""
import difflib
import os
import sys

SHOW = 40


def parse(path):
    values, crashes, marks = {}, [], []
    cur, lines = None, []
    try:
        text = open(path, 'rb').read().decode('utf-8', 'replace')
    except OSError:
        return values, ['no output'], marks
    for line in text.replace('\r', '').split('\n'):
        if cur is not None:
            if line == f'@@END {cur}':
                values[cur] = '\n'.join(lines)
                cur, lines = None, []
            else:
                lines.append(line)
            continue
        if line.startswith('@@CHECK '):
            cur, lines = line[8:], []
        elif line.startswith('@@CRASH '):
            crashes.append(line[8:])
        elif line.startswith('@@'):
            marks.append(line)
    if cur is not None:
        crashes.append(f'{cur}: no @@END (the check was cut short)')
    return values, crashes, marks


def show(label, text):
    lines = text.split('\n')
    print(f'    {label}:')
    for l in lines[:SHOW]:
        print(f'      {l}')
    if len(lines) > SHOW:
        print(f'      ... ({len(lines) - SHOW} more lines)')


def main():
    args = sys.argv[1:]
    exp_dir = None
    if args[:1] == ['--expected']:
        exp_dir, args = args[1], args[2:]
    boots = [a.split('=', 1) for a in args]
    parsed = {n: parse(os.path.join(d, 'out.log')) for n, d in boots}
    names = [n for n, _ in boots]
    passed = failed = 0
    failures = []

    def fail(name, why):
        nonlocal failed
        failed += 1
        failures.append(f'{name}: {why}')
        print(f'FAIL {name}: {why}')

    for n, d in boots:
        values, crashes, marks = parsed[n]
        status = open(os.path.join(d, 'status')).read().strip() \
            if os.path.exists(os.path.join(d, 'status')) else '?'
        secs = open(os.path.join(d, 'seconds')).read().strip() \
            if os.path.exists(os.path.join(d, 'seconds')) else '?'
        print(f'=== boot {n}: {secs} s, {status}; ' +
              ', '.join(m for m in marks if m.startswith(('@@STATE',
                                                          '@@PHASE '))))
        if '@@SYSTEST-DONE' not in marks:
            fail(f'{n}/boot', 'the boot did not finish its checks '
                 f'({status}; see console.log with SYS_KEEP=1)')
        for c in crashes:
            fail(f'{n}/crash', c)

    all_checks = sorted(set().union(*(parsed[n][0] for n in names)))
    for c in all_checks:
        vals = {n: parsed[n][0].get(c) for n in names}
        why = []
        missing = [n for n in names if vals[n] is None]
        if missing:
            why.append('no value from ' + ', '.join(missing))
        got = {v for v in vals.values() if v is not None}
        per_boot = exp_dir and all(
            os.path.exists(os.path.join(exp_dir, f'{c}.{n}')) for n in names)
        if per_boot:
            wants = {n: open(os.path.join(exp_dir, f'{c}.{n}')).read()
                     .rstrip('\n') for n in names}
            wrong = [n for n in names if vals[n] is not None and
                     vals[n] != wants[n]]
            if wrong or missing:
                fail(c, '; '.join(why + ['not as expected in ' +
                                         ', '.join(wrong)] if wrong else why))
                for n in names:
                    show(f'{n} (expected)', wants[n])
                    show(n, vals[n] or '')
            else:
                passed += 1
                print(f'ok   {c}  (per boot: ' + ', '.join(
                    f'{n}: {vals[n]}' for n in names) + ')')
            continue
        if len(got) > 1:
            why.append('the boots differ')
        want = None
        if exp_dir and os.path.exists(os.path.join(exp_dir, c)):
            want = open(os.path.join(exp_dir, c)).read().rstrip('\n')
            wrong = [n for n in names if vals[n] is not None and
                     vals[n] != want]
            if wrong:
                why.append('not as expected (H) in ' + ', '.join(wrong))
        if not why:
            passed += 1
            v = next(iter(got)).split('\n')
            head = v[0][:150] + (f'  (+{len(v) - 1} lines)' if len(v) > 1
                                 else '')
            print(f'ok   {c}' + ('  (H)' if want is not None else '') +
                  f'  [both: {head}]')
            continue
        fail(c, '; '.join(why))
        if want is not None:
            show('expected (H)', want)
        for n in names:
            if vals[n] is not None:
                show(n, vals[n])
        if len(got) == 2 and len(names) == 2:
            a, b = (vals[n] for n in names)
            diff = list(difflib.unified_diff(a.split('\n'), b.split('\n'),
                                             names[0], names[1], n=0,
                                             lineterm=''))
            show('diff', '\n'.join(diff[2:]))
    print('===')
    for f in failures:
        print(f'failed: {f}')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed or not passed else 0


sys.exit(main())
