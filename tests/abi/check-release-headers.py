#!/usr/bin/env python3
"""The headers follow the release they are built for (selinux/release.h).

  check-release-headers.py INCLUDE_DIR -- CC [ARG...]

For 3.4, 3.8 and 3.11, selinux/release.h is made from release.h.in as the
build makes it, and small programs are compiled against it and the tree's
headers with -Werror.  What each must do is what that release's own
headers (Debian's libselinux1-dev: 3.4-1 on Debian 12, 3.8.1-1 on
Debian 13, 3.9-2 in sid) make a compiler do:
  - context_str()'s result into a "char *": accepted before 3.8, an error
    (discarded const) since 3.8;
  - a call of security_compute_user(), security_compute_user_raw() or
    security_disable(): deprecated since 3.8;
  - set_matchpathcon_printf() given a printf-like callback: accepted in
    every release (the format attribute is on the callback's type).
Fails on any program that compiles where it must not or the reverse.
"""
import os
import subprocess
import sys
import tempfile

inc = sys.argv[1]
cc = sys.argv[sys.argv.index('--') + 1:]

PROGS = {
    'context_str_char': '''#include <selinux/context.h>
int main(void) { context_t c = context_new("u:r:t:s0");
  char *s = context_str(c); int r = !s; context_free(c); return r; }''',
    'context_str_const': '''#include <selinux/context.h>
int main(void) { context_t c = context_new("u:r:t:s0");
  const char *s = context_str(c); int r = !s; context_free(c); return r; }''',
    'compute_user': '''#include <selinux/selinux.h>
int main(void) { char **c; return security_compute_user("a", "b", &c); }''',
    'compute_user_raw': '''#include <selinux/selinux.h>
int main(void) { char **c; return security_compute_user_raw("a", "b", &c); }''',
    'disable': '''#include <selinux/selinux.h>
int main(void) { return security_disable(); }''',
    'printf_cb': '''#include <stdarg.h>
#include <stdio.h>
#include <selinux/selinux.h>
static void f(const char *fmt, ...) { va_list a; va_start(a, fmt);
  vfprintf(stderr, fmt, a); va_end(a); }
int main(void) { set_matchpathcon_printf(f); return 0; }''',
}
# release -> the programs that must fail to compile
REFUSED = {
    '304': set(),
    '308': {'context_str_char', 'compute_user', 'compute_user_raw', 'disable'},
    '311': {'context_str_char', 'compute_user', 'compute_user_raw', 'disable'},
}

with open(os.path.join(inc, 'selinux', 'release.h.in')) as f:
    template = f.read()
bad = 0
with tempfile.TemporaryDirectory() as tmp:
    for rel, refused in REFUSED.items():
        gen = os.path.join(tmp, rel)
        os.makedirs(os.path.join(gen, 'selinux'))
        with open(os.path.join(gen, 'selinux', 'release.h'), 'w') as f:
            f.write(template.replace('@SELINUX_RELEASE@', rel))
        for name, code in PROGS.items():
            src = os.path.join(gen, name + '.c')
            with open(src, 'w') as f:
                f.write(code + '\n')
            r = subprocess.run(cc + ['-std=gnu11', '-Wall', '-Werror',
                                     '-fsyntax-only', '-I' + gen, '-I' + inc,
                                     src], capture_output=True, text=True)
            want_ok = name not in refused
            ok = r.returncode == 0
            print('%s %s: %s (%s)' % (rel, name, 'compiles' if ok else 'refused',
                                      'as it must' if ok == want_ok else 'WRONG'))
            if ok != want_ok:
                bad += 1
                sys.stdout.write(r.stderr)
sys.exit(1 if bad else 0)
