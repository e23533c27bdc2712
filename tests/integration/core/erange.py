#!/usr/bin/env python3
"""The security.selinux read loop against a file system that never lets it
end (tests/integration/core/erangefs.c).

    erange.py ERANGEFS XPROBE LIBDIR|-

Mounts erangefs (as root, in a mount namespace of its own) and runs
xprobe, linked with our library, once per call (getfilecon,
getfilecon_raw, lgetfilecon_raw, fgetfilecon_raw, fgetfilecon_opath) and
mode of the file system, counting the getxattr requests each call makes:

  ok, long   an honest label (27 bytes; 300 bytes, more than the first
             guess): read, in 1 request; in 3 (a read, a size query, a
             read).
  settle2    the label changes under the reader twice, then keeps still:
             read, in 5 requests (two retries outlast the race).
  grow       the label grows at every request, so that no size the file
  erange     system reports fits the read that follows; or a size query
             answers 64 bytes and every read ERANGE: -1 with ERANGE after
             at most 7 requests: the first read and three rounds of a
             size query and a read, the bound core/xattr.c documents.
             Without a bound the library asks until the file system's own
             stop (EIO after 10 000 requests; hundreds of thousands of
             requests, for ever, on a file system without one).

With LIBDIR (plain builds: a program of the system cannot load a
sanitized library), Debian's ls -Z runs on our library on the erange
file: it must print "?" for the label after at most 7 requests.
Debian's own library (python3-selinux, when installed) is measured on
grow and erange for the record: ERANGE after 3 requests.

Exit 0, 1 with each broken expectation, 77 (skip) without root or FUSE.
"""
import errno
import os
import subprocess
import sys
import tempfile
import time

ERANGEFS, XPROBE, LIBDIR = sys.argv[1:4]
HONEST = "system_u:object_r:etc_t:s0"
BOUND = 7  # 1 + 2 * core/xattr.c's SIZE_QUERIES
CALLS = ["getfilecon", "getfilecon_raw", "lgetfilecon_raw",
         "fgetfilecon_raw", "fgetfilecon_opath"]

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def label(length):
    """erangefs's padded label of length bytes, NUL included."""
    return (HONEST + "c" * length)[:length - 1]


# mode: (the probe's answer, the exact request count, or None for at
# most BOUND)
CASES = {
    "ok": ('= 27 con="%s"' % HONEST, 1),
    "long": ('= 300 con="%s"' % label(300), 3),
    "settle2": ('= 308 con="%s"' % label(308), 5),
    "grow": ("= -1 errno=ERANGE", None),
    "erange": ("= -1 errno=ERANGE", None),
}


def plain_env():
    """The environment for programs of the system (no sanitized library
    of ours through LD_LIBRARY_PATH)."""
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    env.pop("PYTHONPATH", None)
    return env


def setmode(mnt, mode):
    os.setxattr(mnt, "user.erangefs.mode", mode.encode())


def calls(mnt):
    return int(os.getxattr(mnt, "user.erangefs.calls"))


def mounted(mnt):
    with open("/proc/self/mountinfo") as f:
        return any(line.split()[4] == mnt and " - fuse.erangefs " in line
                   for line in f)


def run(mnt):
    f = os.path.join(mnt, "f")
    for mode, (want, exact) in CASES.items():
        for call in CALLS:
            setmode(mnt, mode)
            try:
                p = subprocess.run([XPROBE, call, f], capture_output=True,
                                   text=True, timeout=120)
            except subprocess.TimeoutExpired:
                fail("%s on %s: no answer in 120 s" % (call, mode))
                continue
            n = calls(mnt)
            got = p.stdout.strip()
            if p.returncode != 0 or got != "%s %s" % (call, want):
                fail("%s on %s: %r (status %d, %s), want %r after %s "
                     "requests" % (call, mode, got, p.returncode,
                                   p.stderr.strip(), want, n))
            elif exact is not None and n != exact:
                fail("%s on %s: %d requests, want %d" %
                     (call, mode, n, exact))
            elif exact is None and n > BOUND:
                fail("%s on %s: %d requests, bound %d" %
                     (call, mode, n, BOUND))
            else:
                print("%-17s %-8s %s, %d requests" %
                      (call, mode, want.split(" con=")[0], n))
    if LIBDIR != "-":
        setmode(mnt, "erange")
        env = dict(plain_env(), LD_LIBRARY_PATH=LIBDIR, LC_ALL="C")
        try:
            p = subprocess.run(["ls", "-Z", f], capture_output=True,
                               text=True, timeout=120, env=env)
        except subprocess.TimeoutExpired:
            fail("ls -Z on erange: no answer in 120 s")
        else:
            n = calls(mnt)
            if not p.stdout.startswith("? ") or n > BOUND:
                fail("ls -Z on erange: %r %r, %d requests" %
                     (p.stdout, p.stderr, n))
            else:
                print("ls -Z             erange   '?', %d requests" % n)
    # the reference, for the record
    ref = ("import selinux, sys\n"
           "try:\n"
           "    selinux.getfilecon(sys.argv[1])\n"
           "    print('answered')\n"
           "except OSError as e:\n"
           "    print(e.strerror)\n")
    for mode in ("grow", "erange"):
        setmode(mnt, mode)
        try:
            p = subprocess.run(["/usr/bin/python3", "-c", ref, f],
                               capture_output=True, text=True, timeout=120,
                               env=plain_env())
        except subprocess.TimeoutExpired:
            continue
        if p.returncode == 0:
            print("Debian's getfilecon on %s: %s after %d requests" %
                  (mode, p.stdout.strip(), calls(mnt)))


def main():
    if os.geteuid() != 0 or not os.path.exists("/dev/fuse"):
        print("erange.py: FUSE needs root and /dev/fuse; skipping")
        sys.exit(77)
    if not os.environ.get("ERANGE_NS"):
        # a mount namespace of our own: nothing is left mounted whatever
        # happens to this process
        env = dict(plain_env(), ERANGE_NS="1")
        for k in ("LD_LIBRARY_PATH", "PYTHONPATH"):
            if k in os.environ:
                env["ERANGE_SAVED_" + k] = os.environ[k]
        try:
            os.execvpe("unshare", ["unshare", "-m", "--propagation",
                                   "private", sys.executable] + sys.argv,
                       env)
        except OSError:
            pass  # no unshare: mount in ours, unmounted below
    for k in ("LD_LIBRARY_PATH", "PYTHONPATH"):
        if "ERANGE_SAVED_" + k in os.environ:
            os.environ[k] = os.environ.pop("ERANGE_SAVED_" + k)
    mnt = tempfile.mkdtemp(prefix="erangefs.")
    log = open(mnt + ".log", "w+")
    srv = subprocess.Popen([ERANGEFS, mnt], stdout=log, stderr=log)
    try:
        for _ in range(200):
            if mounted(mnt) or srv.poll() is not None:
                break
            time.sleep(0.05)
        if not mounted(mnt):
            log.seek(0)
            print("erange.py: erangefs did not mount: " + log.read())
            sys.exit(99)
        run(mnt)
    finally:
        subprocess.run(["umount", mnt], env=plain_env())
        try:
            srv.wait(timeout=30)
        except subprocess.TimeoutExpired:
            srv.kill()
            srv.wait()
        os.rmdir(mnt)
        log.close()
        os.unlink(mnt + ".log")
    print("%d failures" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
