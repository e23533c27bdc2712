#!/usr/bin/env python3
"""check-tls.py LIB: the library's thread-local storage stays small enough
for a dlopen() (Python's "import selinux", PAM modules).

The AVC's hit path counts in initial-exec TLS (libselinux/src/avc/
internal.h), which marks the library STATIC_TLS: dlopen()ed, its whole
TLS block must fit the static TLS surplus glibc keeps for such libraries
(a few hundred bytes, shared with every other one). Fails when the block
grows past LIMIT bytes (a large __thread array, say), or when the library
cannot be dlopen()ed with glibc's optional surplus at 0.
"""
import os
import subprocess
import sys

LIMIT = 256


def main():
    lib = sys.argv[1]
    out = subprocess.run(['readelf', '-lW', '-d', lib], check=True,
                         capture_output=True, text=True).stdout
    memsz = 0
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == 'TLS':
            memsz = int(f[5], 16)
    static = 'STATIC_TLS' in out
    print(f'{lib}: TLS block {memsz} bytes, STATIC_TLS {static}')
    bad = 0
    if static and memsz > LIMIT:
        print(f'FAIL: a STATIC_TLS library with {memsz} bytes of TLS '
              f'(limit {LIMIT}): dlopen() may fail with "cannot allocate '
              'memory in static TLS block"')
        bad = 1
    env = dict(os.environ,
               GLIBC_TUNABLES='glibc.rtld.optional_static_tls=0')
    r = subprocess.run([sys.executable, '-c',
                        'import ctypes, sys; ctypes.CDLL(sys.argv[1]); '
                        'print("dlopen ok")', lib],
                       env=env, capture_output=True, text=True)
    print(r.stdout.strip(), r.stderr.strip())
    if r.returncode != 0:
        print('FAIL: dlopen() with no optional static TLS')
        bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
