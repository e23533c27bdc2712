#!/usr/bin/python3
"""index-probe.py PATH: which files the next process reads to label PATH.

Runs matchpathcon PATH (the system's) while inotify watches the policy's
contexts/files directory for opens (IN_OPEN), and prints two lines: the
answer, and what was read of that directory:
  image   file_contexts.idx opened, no spec file (file_contexts, .bin,
          .homedirs(.bin), .local(.bin)): our library used its index
  files   a spec file opened, not the image (Debian's library; or ours
          without a usable index)
  both: NAMES / none: NAMES otherwise (the names opened).
The .subs files are read before the image, by every library: not spec
files.  Before the run it waits until nothing has opened a file there
for a second (at most 60 s: systemd, for one, opens its labels again
after a policy load), so that the opens seen are matchpathcon's.
"""
import ctypes
import ctypes.util
import os
import select
import struct
import subprocess
import sys
import time

IN_OPEN, IN_NONBLOCK = 0x20, 0o4000
SPEC = ('file_contexts', 'file_contexts.bin', 'file_contexts.homedirs',
        'file_contexts.homedirs.bin', 'file_contexts.local',
        'file_contexts.local.bin')


def policy_dir():
    t = 'default'
    with open('/etc/selinux/config') as f:
        for line in f:
            if line.startswith('SELINUXTYPE='):
                t = line.split('=', 1)[1].strip()
    return f'/etc/selinux/{t}/contexts/files'


def drain(fd):
    names = []
    while True:
        try:
            buf = os.read(fd, 65536)
        except BlockingIOError:
            return names
        i = 0
        while i < len(buf):
            _, _, _, n = struct.unpack_from('iIII', buf, i)
            names.append(buf[i + 16:i + 16 + n].rstrip(b'\0').decode())
            i += 16 + n


def main():
    libc = ctypes.CDLL(ctypes.util.find_library('c'), use_errno=True)
    fd = libc.inotify_init1(IN_NONBLOCK)
    if fd < 0 or libc.inotify_add_watch(fd, policy_dir().encode(),
                                        IN_OPEN) < 0:
        print('inotify failed', ctypes.get_errno())
        return 1
    t0 = time.monotonic()
    quiet = time.monotonic()
    while time.monotonic() - quiet < 1 and time.monotonic() - t0 < 60:
        select.select([fd], [], [], 0.2)
        if drain(fd):
            quiet = time.monotonic()
    p = subprocess.run(['matchpathcon', sys.argv[1]], capture_output=True,
                       text=True)
    opened = set(drain(fd))
    print((p.stdout + p.stderr).strip())
    spec = sorted(opened & set(SPEC))
    idx = 'file_contexts.idx' in opened
    if idx and not spec:
        print('image')
    elif spec and not idx:
        print('files')
    else:
        print(('both: ' if idx else 'none: ') + ' '.join(sorted(opened)))
    return 0


sys.exit(main())
