#!/usr/bin/env python3
"""tests/dropin/dropin.py: existing programs on our libselinux.so.1.

Runs the same program on the same files twice, once with the system's
libselinux.so.1 (Debian's libselinux1 3.4, the reference) and once with
ours through LD_LIBRARY_PATH (set for that one program only), and demands
the same exit status, the same stdout, the same stderr and, where the
program changes something, the same effect (xattrs, the enforce file).

Groups (one meson test each):
  coreutils      ls -Z, ls -lZ, stat -c %C, id -Z, id, find -printf %Z
  selinux-utils  Debian's getenforce, setenforce, selinuxenabled,
                 getfilecon, setfilecon, getpidcon, policyvers
  utils          our utils/ against Debian's on the same inputs, both on
                 our library and on the reference; getpidprevcon (not in
                 Debian 12) against hand-written expectations; avcstat on
                 fixture statistics files (also on a terminal, looping);
                 selinux_check_access on kernel/'s security server
                 (--server, --policy) mounted at /sys/fs/selinux;
                 selinux_check_securetty_context on fixture
                 securetty_types files; selinuxexeccon on the fixture
                 and on the server; matchpathcon and selabel_* on
                 fixture specs files

The host kernel has no SELinux.  For the "enabled" states the script runs
in a private mount namespace (unshare -m) where a tmpfs covers /sys/fs, a
fixture directory is bind-mounted at /sys/fs/selinux, a fixture config dir
at /etc/selinux, and tests/lib/fake_selinuxfs.c (LD_PRELOAD) makes statfs
report selinuxfs's magic there: both libraries find the mount that way.
Process contexts are fixture files bind-mounted over /proc/PID/attr/*;
ours refuses a file a mount put there (EXDEV, core/procfs.c), so every
run also preloads tests/lib/fake_procattr.c, which lets the fixture's
files pass for the kernel's; a few runs without it check the refusal.

Exit status: 0 all cases agree, 1 a difference, 77 a prerequisite that
cannot exist here (not root, unshare not permitted, no xattr support).
"""

import argparse
import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

SKIP = 77
XATTR = "security.selinux"
CONFIG = b"# fixture\nSELINUX=enforcing\nSELINUXTYPE=default\n"
SELF_CON = b"unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023\0"
PREV_CON = b"system_u:system_r:init_t:s0\0"
PEER_CON = b"system_u:system_r:sshd_t:s0-s0:c0.c1023\0"

# The states a program can find the machine in.  preload: the statfs shim
# is loaded (so /sys/fs/selinux looks like selinuxfs); config:
# /etc/selinux/config exists; ro: the selinuxfs is mounted read-only.
STATES = {
    "nofs": dict(preload=False, config=True, ro=False),
    "nofs-nocfg": dict(preload=False, config=False, ro=False),
    "enabled": dict(preload=True, config=True, ro=False),
    "nocfg": dict(preload=True, config=False, ro=False),
    "ro": dict(preload=True, config=True, ro=True),
}


def sh(*argv):
    """Run a setup command (never with our library)."""
    subprocess.run(argv, check=True, env=clean_env())


# Set by --sanitized: our library and utils are built with ASan+UBSan.
SANITIZED = False


def clean_env():
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C",
           "TZ": "UTC", "HOME": "/root"}
    if SANITIZED:
        # The shim is preloaded ahead of the ASan runtime; that is fine
        # for it (it calls nothing ASan intercepts but statfs, via dlsym).
        env["ASAN_OPTIONS"] = ("detect_leaks=1:abort_on_error=0:"
                               "detect_odr_violation=0:"
                               "verify_asan_link_order=0")
        env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    return env


def show(b):
    s = b.decode("utf-8", "backslashreplace")
    return s if len(s) < 600 else s[:300] + " [...] " + s[-200:]


class Fixture:
    """The namespace, the fake selinuxfs and config, labelled files."""

    def __init__(self, args):
        self.shim = os.path.abspath(args.shim)
        self.procattr_shim = os.path.abspath(args.procattr_shim)
        self.ours = os.path.dirname(os.path.abspath(args.lib))
        self.root = tempfile.mkdtemp(prefix="dropin.")
        self.state = None
        self.sleepers = []
        self.aliases = [(self.root, "$TMP")]
        r = self.root
        self.sfs = os.path.join(r, "sfs")
        self.etc = os.path.join(r, "etc")
        self.attr = os.path.join(r, "attr")
        self.disk = os.path.join(r, "disk")
        self.tmpfs = os.path.join(r, "tmpfs")
        self.scratch = os.path.join(r, "scratch")
        for d in (self.sfs, self.etc, self.attr, self.disk, self.tmpfs,
                  self.scratch):
            os.mkdir(d)
        self.write_sfs("enforce", b"1")
        self.write_sfs("policyvers", b"33")
        self.write_sfs("mls", b"1")
        # A transaction file; a plain file answers any context "valid".
        self.write_sfs("context", b"")
        with open(os.path.join(self.etc, "config"), "wb") as f:
            f.write(CONFIG)
        for name, data in (("current", SELF_CON), ("prev", PREV_CON),
                           ("peer_current", PEER_CON),
                           ("peer_prev", PEER_CON)):
            with open(os.path.join(self.attr, name), "wb") as f:
                f.write(data)
        sh("mount", "-t", "tmpfs", "-o", "size=64m", "dropin", self.tmpfs)
        sh("mount", "-t", "tmpfs", "-o", "size=1m", "dropin", "/sys/fs")
        os.mkdir("/sys/fs/selinux")
        sh("mount", "--bind", self.sfs, "/sys/fs/selinux")
        sh("mount", "--bind", self.etc, "/etc/selinux")
        make_files(self.disk, huge=False)
        make_files(self.tmpfs, huge=True)
        self.system_lib = resolved_lib("/usr/sbin/getenforce", None)
        self.set_state("nofs")

    def write_sfs(self, name, data):
        path = os.path.join(self.sfs, name)
        if os.path.isdir(path):
            os.rmdir(path)
        if data is None:
            if os.path.exists(path):
                os.unlink(path)
            return
        with open(path, "wb") as f:
            f.write(data)

    def read_sfs(self, name):
        try:
            with open(os.path.join(self.sfs, name), "rb") as f:
                return f.read()
        except OSError as e:
            return ("<%s>" % e.strerror).encode()

    def set_state(self, name):
        want = STATES[name]
        cur = STATES[self.state] if self.state else None
        cfg = os.path.join(self.etc, "config")
        if want["config"] and not os.path.exists(cfg):
            os.rename(cfg + ".off", cfg)
        elif not want["config"] and os.path.exists(cfg):
            os.rename(cfg, cfg + ".off")
        if cur is None or cur["ro"] != want["ro"]:
            sh("mount", "-o", "remount,bind," + ("ro" if want["ro"] else
                                                 "rw"), "/sys/fs/selinux")
        self.state = name

    def sleeper(self, fake):
        """A process whose /proc/PID/attr/{current,prev} hold PEER_CON,
        or (fake=False) answer what this kernel answers: EINVAL."""
        p = subprocess.Popen(["sleep", "600"], env=clean_env())
        self.sleepers.append(p)
        self.aliases.append((str(p.pid), "PID%d%s" % (
            len(self.aliases), "(faked)" if fake else "")))
        if fake:
            for a in ("current", "prev"):
                sh("mount", "--bind", os.path.join(self.attr, "peer_" + a),
                   "/proc/%d/attr/%s" % (p.pid, a))
        return p.pid

    def pids(self):
        """(faked, plain): the pids of two sleepers, made once."""
        if not hasattr(self, "_pids"):
            self._pids = (str(self.sleeper(True)), str(self.sleeper(False)))
        return self._pids

    def set_peer(self, value):
        """What the faked sleeper's current and prev attributes hold."""
        for a in ("peer_current", "peer_prev"):
            with open(os.path.join(self.attr, a), "r+b") as f:
                f.truncate(0)
                f.write(value)

    def preload(self, trust_attr=True):
        """LD_PRELOAD for a run in the current state, and the environment
        the shims read.  trust_attr: the fixture's attr files pass for
        the kernel's (fake_procattr)."""
        shims = [self.shim] if STATES[self.state]["preload"] else []
        if trust_attr:
            shims.append(self.procattr_shim)
        env = clean_env()
        env["FAKE_PROCATTR"] = self.attr
        return ":".join(shims), env

    def run(self, argv, lib, cwd=None, argv0=None, self_attr=False,
            trust_attr=True):
        """Run argv with lib ("ref", "ours" or a directory) in the current
        state.  self_attr: first bind-mount the fixture attr files over
        the program's own /proc/self/attr (its pid is the shell's, which
        exec keeps).  trust_attr: see preload().  Returns (status,
        stdout, stderr)."""
        preload, env = self.preload(trust_attr)
        libdir = {"ref": "", "ours": self.ours}.get(lib, lib)
        # bash (which does not link libselinux) sets the environment for
        # the exec alone, and exec -a gives the program its argv[0].
        script = ('L=$1 P=$2 A=$3; shift 3\n'
                  '[ -n "$L" ] && export LD_LIBRARY_PATH="$L"\n'
                  '[ -n "$P" ] && export LD_PRELOAD="$P"\n'
                  'exec -a "${A:-$1}" "$@"\n')
        if self_attr:
            a = self.attr
            script = (
                'for x in current prev; do\n'
                '  for d in /proc/$$ /proc/$$/task/$$; do\n'
                '    mount --bind "%s/$x" $d/attr/$x || exit 125\n'
                '  done\n'
                'done\n' % a) + script
        p = subprocess.run(["bash", "-c", script, "bash", libdir, preload,
                            argv0 or ""] + list(argv), cwd=cwd, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # A preload or library the loader could not use would make both
        # runs the same program on the same library: never let it pass.
        if b"ld.so:" in p.stderr or p.returncode == 125:
            raise RuntimeError("the run of %r is broken: %s" %
                               (argv, show(p.stderr)))
        return p.returncode, p.stdout, p.stderr

    def run_pty(self, argv, lib, argv0, rows, count, steps=None,
                limit=20.0):
        """Run argv as run() does, but on a terminal of `rows` rows
        (stdout and stderr both), until it has printed `count` data lines
        (lines of digits and blanks) or exited; then SIGTERM.  steps maps
        n to a callable run once the n-th data line has arrived (while
        the program sleeps), or to an int: resize the terminal to that
        many rows.  Returns (status, output), \\r\\n read as \\n."""
        preload, env = self.preload()
        libdir = {"ref": "", "ours": self.ours}.get(lib, lib)
        if libdir:
            env["LD_LIBRARY_PATH"] = libdir
        env["LD_PRELOAD"] = preload
        pid, fd = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ,
                            struct.pack("HHHH", rows, 80, 0, 0))
                os.chdir(self.scratch)
                os.execve(argv[0], [argv0] + list(argv[1:]), env)
            finally:
                os._exit(125)
        out, n, done = b"", 0, set()
        deadline = time.monotonic() + limit
        while n < count and time.monotonic() < deadline:
            r, _, _ = select.select([fd], [], [], 0.05)
            if not r:
                continue
            try:
                data = os.read(fd, 65536)
            except OSError:     # EIO: the program has exited
                break
            if not data:
                break
            out += data
            lines = out.split(b"\r\n")[:-1]
            n = sum(1 for x in lines if x.strip() and
                    x.replace(b" ", b"").isdigit())
            for k in sorted((steps or {}).keys()):
                if k <= n and k not in done:
                    done.add(k)
                    if isinstance(steps[k], int):
                        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack(
                            "HHHH", steps[k], 80, 0, 0))
                    else:
                        steps[k]()
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        _, st = os.waitpid(pid, 0)
        try:
            while True:
                data = os.read(fd, 65536)
                if not data:
                    break
                out += data
        except OSError:
            pass
        os.close(fd)
        status = os.waitstatus_to_exitcode(st)
        if status == 125:
            raise RuntimeError("the pty run of %r is broken" % (argv,))
        return status, out.replace(b"\r\n", b"\n")

    def fresh(self, label=b"system_u:object_r:etc_t:s0\0", where=None):
        """A setup step that refills a scratch dir: files t and u
        labelled label, an unlabelled dir, a labelled link to t and a
        dangling link."""
        def pre():
            d = where or self.scratch
            for n in os.listdir(d):
                p = os.path.join(d, n)
                if os.path.isdir(p) and not os.path.islink(p):
                    shutil.rmtree(p)
                else:
                    os.unlink(p)
            for n in ("t", "u"):
                open(os.path.join(d, n), "w").close()
                os.setxattr(os.path.join(d, n), XATTR, label)
            os.setxattr(os.path.join(d, "u"), XATTR,
                        b"staff_u:object_r:user_home_t:s0\0")
            os.mkdir(os.path.join(d, "dir"))
            open(os.path.join(d, "dir", "f"), "w").close()
            os.symlink("t", os.path.join(d, "link"))
            os.setxattr(os.path.join(d, "link"), XATTR,
                        b"system_u:object_r:lnk_t:s0\0",
                        follow_symlinks=False)
            os.symlink("nowhere", os.path.join(d, "dangling"))
        return pre

    def xattrs(self, where=None):
        """An effect: every name below the scratch dir with its raw
        security.selinux value (of the link itself for links)."""
        def post():
            d = where or self.scratch
            out = []
            for top, dirs, files in os.walk(d):
                dirs.sort()
                for n in sorted(dirs + files):
                    p = os.path.join(top, n)
                    try:
                        v = os.getxattr(p, XATTR, follow_symlinks=False)
                    except OSError as e:
                        v = ("<%s>" % e.strerror).encode()
                    out.append(os.path.relpath(p, d).encode() + b"=" + v)
            return b"\n".join(out)
        return post

    def close(self):
        for p in self.sleepers:
            p.kill()
            p.wait()
        # The namespace dies with us; unmount what would hide the files.
        subprocess.run(["umount", self.tmpfs], env=clean_env())
        shutil.rmtree(self.root, ignore_errors=True)


# The labelled files: name -> raw xattr value (None: no label).  Values
# are bytes as other tools may have stored them: with and without the NUL
# the kernel stores, odd bytes, and sizes up to the 64 KiB xattr limit.
LABELS = [
    ("plain", b"system_u:object_r:etc_t:s0\0"),
    ("nonul", b"system_u:object_r:etc_t:s0"),
    ("mls", b"user_u:object_r:user_home_t:s0:c1,c5.c9\0"),
    ("unlab", None),
    ("empty", b""),
    ("justnul", b"\0"),
    ("twonul", b"a:b:c\0\0"),
    ("midnul", b"system_u:object_r:etc_t:s0\0garbage"),
    ("newline", b"a:b:c\nd\0"),
    ("space", b"a b:c d\0"),
    ("binary", b"\xff\xfe:r:t\0"),
    ("notctx", b"hello\0"),
    ("unlabeled", b"unlabeled\0"),
    ("long", b"system_u:object_r:" + b"t" * 3000 + b":s0\0"),
]
HUGE = ("huge", b"u:r:" + b"x" * 65000 + b"\0")


def make_files(d, huge):
    labels = LABELS + ([HUGE] if huge else [])
    for name, value in labels:
        path = os.path.join(d, name)
        open(path, "w").close()
        os.utime(path, (1700000000, 1700000000))
        if value is not None:
            os.setxattr(path, XATTR, value)
    sub = os.path.join(d, "dir")
    os.mkdir(sub)
    os.setxattr(sub, XATTR, b"system_u:object_r:tmp_t:s0\0")
    for link, target, label in (("link", "plain",
                                 b"system_u:object_r:lnk_t:s0\0"),
                                ("link2unlab", "unlab", None),
                                ("dangling", "nowhere", None)):
        path = os.path.join(d, link)
        os.symlink(target, path)
        if label is not None:
            os.setxattr(path, XATTR, label, follow_symlinks=False)
        os.utime(path, (1700000000, 1700000000), follow_symlinks=False)
    for p in (sub, d):
        os.utime(p, (1700000000, 1700000000))
    os.setxattr(d, XATTR, b"system_u:object_r:tmp_t:s0\0")


def resolved_lib(prog, libdir):
    """The libselinux.so.1 the dynamic linker picks for prog."""
    env = clean_env()
    env["LD_TRACE_LOADED_OBJECTS"] = "1"
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir
    out = subprocess.run([prog], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout.decode()
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "libselinux.so.1" and len(parts) > 2:
            return os.path.realpath(parts[2])
    return None


class Report:
    def __init__(self):
        self.ok = 0
        self.failed = []
        self.fx = None

    def check(self, name, a, b, la="reference", lb="ours"):
        # Stable names: the temporary dir and pids by alias.
        for real, alias in (self.fx.aliases if self.fx else []):
            name = name.replace(real, alias)
        if not isinstance(a, tuple):
            a, b = (a,), (b,)
        if a == b:
            self.ok += 1
            print("ok    %s" % name)
            if os.environ.get("DROPIN_SHOW"):
                for x in a:
                    print("      %r" % (show(x) if isinstance(x, bytes)
                                        else x))
            return True
        self.failed.append(name)
        print("FAIL  %s" % name)
        what = ("status", "stdout", "stderr", "effect")
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                w = what[i] if i < len(what) else "item %d" % i
                if isinstance(x, bytes):
                    x, y = show(x), show(y)
                print("      %s %s: %r" % (w, la, x))
                print("      %s %s: %r" % (w, lb, y))
        return False

    def expect(self, name, got, want, lb="ours"):
        """got must equal a hand-written (status, stdout, stderr)."""
        return self.check(name, want, got, "expected", lb)

    def done(self):
        print("\n%d cases agree, %d differ" % (self.ok, len(self.failed)))
        for n in self.failed:
            print("  differs: %s" % n)
        return 1 if self.failed else 0


def sanity(fx, rep, utils):
    """The fixture must really produce the states it claims, with the
    reference library, else every comparison would test nothing."""
    for state, want in (("nofs", 1), ("enabled", 0), ("nocfg", 1),
                        ("ro", 1), ("nofs-nocfg", 1)):
        fx.set_state(state)
        rep.expect("sanity: reference selinuxenabled in state %s" % state,
                   fx.run(["/usr/sbin/selinuxenabled"], "ref"),
                   (want, b"", b""), "reference")
    fx.set_state("enabled")
    rep.expect("sanity: reference getenforce sees the fixture",
               fx.run(["/usr/sbin/getenforce"], "ref"),
               (0, b"Enforcing\n", b""), "reference")
    want = os.path.realpath(os.path.join(fx.ours, "libselinux.so.1"))
    for prog in ("/usr/sbin/getenforce", "/usr/bin/ls"):
        rep.expect("sanity: %s loads the system library alone" % prog,
                   resolved_lib(prog, None), fx.system_lib, "reference")
        if not SANITIZED:
            rep.expect("sanity: %s loads our library" % prog,
                       resolved_lib(prog, fx.ours), want)
    if utils:
        prog = os.path.join(utils, "getenforce")
        rep.expect("sanity: our getenforce loads our library",
                   resolved_lib(prog, None), want)
        rep.expect("sanity: our getenforce can load the system library",
                   resolved_lib(prog, os.path.dirname(fx.system_lib)),
                   fx.system_lib)


# ---------------------------------------------------------------- coreutils

def group_coreutils(fx, rep):
    names = sorted(n for n, _ in LABELS) + ["dir", "link", "link2unlab",
                                            "dangling"]
    cmds = [
        ["ls", "-Z"],
        ["ls", "-lZ"],
        ["ls", "-laZ"],
        ["ls", "-LZ"],
        ["ls", "-dZ", "."],
        ["ls", "-Z", "dir"],
        ["ls", "-Z", "link", "link2unlab", "dangling", "nonexistent"],
        ["stat", "-c", "%n %C"] + names,
        ["stat", "-L", "-c", "%n %C"] + names,
        ["stat", "-c", "%C", "nonexistent"],
        ["find", ".", "-printf", "%p %Z\\n"],
    ]
    for state in ("nofs", "enabled", "nocfg", "ro"):
        fx.set_state(state)
        for where, cwd in (("ext4", fx.disk), ("tmpfs", fx.tmpfs)):
            for cmd in cmds:
                name = "%s [%s, %s]" % (" ".join(cmd)[:60], state, where)
                rep.check(name, fx.run(cmd, "ref", cwd),
                          fx.run(cmd, "ours", cwd))
            for n in names + (["huge"] if where == "tmpfs" else []):
                for cmd in (["ls", "-Z", n], ["stat", "-c", "%C", n]):
                    name = "%s [%s, %s]" % (" ".join(cmd), state, where)
                    rep.check(name, fx.run(cmd, "ref", cwd),
                              fx.run(cmd, "ours", cwd))
        # Real system files: no labels on this kernel, or no xattr
        # support at all (procfs).
        system = ["/", "/etc/hostname", "/proc", "/proc/self/status",
                  "/dev/null", "/usr/bin/ls"]
        for cmd in (["ls", "-dZ"] + system, ["stat", "-c", "%n %C"] + system):
            rep.check("%s [%s]" % (" ".join(cmd), state), fx.run(cmd, "ref"),
                      fx.run(cmd, "ours"))
        for cmd in (["id", "-Z"], ["id"], ["id", "-Z", "root"]):
            for self_attr in (False, True):
                name = "%s [%s, own context %s]" % (
                    " ".join(cmd), state,
                    "faked" if self_attr else "EINVAL")
                rep.check(name, fx.run(cmd, "ref", self_attr=self_attr),
                          fx.run(cmd, "ours", self_attr=self_attr))
    # Programs that set labels: the effect is every label in the scratch
    # dir afterwards.
    ctx = "system_u:object_r:tmp_t:s0"
    writers = [
        ["chcon", ctx, "t"],
        ["chcon", "-h", ctx, "link"],
        ["chcon", ctx, "link"],
        ["chcon", ctx, "dangling"],
        ["chcon", "-t", "tmp_t", "t"],
        ["chcon", "-u", "staff_u", "-r", "staff_r", "-l", "s0:c1", "t"],
        ["chcon", "--reference=u", "t", "dir"],
        ["chcon", "-R", "-t", "tmp_t", "dir"],
        ["chcon", "-t", "tmp_t", "nonexistent"],
        ["cp", "--preserve=context", "u", "copy"],
        ["cp", "-a", "u", "link", "dir", "dangling", "dir/"],
        ["cp", "-a", "dir", "copydir"],
    ]
    for state in ("nofs", "enabled"):
        fx.set_state(state)
        for cmd in writers:
            def one(lib):
                fx.fresh()()
                return fx.run(cmd, lib, fx.scratch) + (fx.xattrs()(),)
            rep.check("%s [%s]" % (" ".join(cmd), state), one("ref"),
                      one("ours"))

    # What id -Z prints when SELinux is on and the kernel answers, by hand.
    fx.set_state("enabled")
    rep.expect("id -Z prints the fixture context [enabled, ours]",
               fx.run(["id", "-Z"], "ours", self_attr=True),
               (0, SELF_CON[:-1] + b"\n", b""))
    # Without fake_procattr, ours refuses the fixture files that a mount
    # put over its attributes (EXDEV, core/procfs.c); the reference reads
    # them.
    rep.expect("id -Z refuses a bind-mounted own context [enabled, ours]",
               fx.run(["id", "-Z"], "ours", self_attr=True,
                      trust_attr=False),
               (1, b"", b"id: can't get process context\n"))


# ------------------------------------------------------------ selinux-utils

class Case:
    """One run of a selinux-utils program: prog, args, state, and
    optional setup (pre) and observed effect (post)."""

    def __init__(self, prog, args, state, pre=None, post=None, tag="",
                 self_attr=False):
        self.prog, self.args, self.state = prog, args, state
        self.pre, self.post, self.tag = pre, post, tag
        # run with the fixture's attr files over /proc/self/attr
        self.self_attr = self_attr

    def name(self):
        a = " ".join(repr(x) if (not x or " " in x) else x
                     for x in self.args)
        if len(a) > 70:
            a = a[:60] + "..."
        tag = ", " + self.tag if self.tag else ""
        return "%s %s [%s%s]" % (self.prog, a, self.state, tag)


def util_cases(fx):
    """The cases, with what each program's inputs are set to."""
    cases = []
    all_states = list(STATES)

    def sfs(name, value):
        return lambda: fx.write_sfs(name, value)

    def enforce_after():
        return fx.read_sfs("enforce")

    for state in all_states:
        for args in ([], ["x"], ["-h"]):
            cases.append(Case("selinuxenabled", args, state))
    # getenforce: every state, the values a kernel writes, and broken files.
    for state in all_states:
        for args in ([], ["x"]):
            cases.append(Case("getenforce", args, state,
                              pre=sfs("enforce", b"1")))
    for value in (b"0", b"1", b"0\n", b"1\n", b"01", b"00", b"-1", b" 1",
                  b"+0", b"99999999999", None):
        cases.append(Case("getenforce", [], "enabled",
                          pre=sfs("enforce", value),
                          tag="enforce=%r" % value))
    # policyvers
    for state in ("nofs", "enabled", "nocfg", "ro"):
        for args in ([], ["x"]):
            cases.append(Case("policyvers", args, state,
                              pre=sfs("policyvers", b"33")))
    for value in (b"33", b"31\n", b" 7", b"0", None):
        cases.append(Case("policyvers", [], "enabled",
                          pre=sfs("policyvers", value),
                          tag="policyvers=%r" % value))
    # setenforce: argument checks, modes, and a kernel refusing the write.
    modes = ["1", "0", "Enforcing", "enforcing", "PERMISSIVE", "permissive",
             "Permissive", "x", "01", " 1", "2", "-1", "", "enforce",
             "1 "]
    for state in all_states:
        for args in [[]] + [["1", "0"]] + [[m] for m in modes]:
            if state != "enabled" and len(args) == 1 and \
                    args[0] not in ("1", "x", "Permissive"):
                continue
            cases.append(Case("setenforce", args, state,
                              pre=sfs("enforce", b"7"), post=enforce_after))
    for value, tag in ((None, "enforce missing"),):
        cases.append(Case("setenforce", ["1"], "enabled",
                          pre=sfs("enforce", value), post=enforce_after,
                          tag=tag))

    def enforce_dir():
        fx.write_sfs("enforce", None)
        os.mkdir(os.path.join(fx.sfs, "enforce"))
    cases.append(Case("setenforce", ["0"], "enabled", pre=enforce_dir,
                      post=enforce_after, tag="enforce is a directory"))

    # getfilecon: every fixture file, on ext4 and on tmpfs.
    files = [n for n, _ in LABELS] + ["dir", "link", "link2unlab",
                                      "dangling", "nonexistent"]
    for state in ("nofs", "enabled"):
        cases.append(Case("getfilecon", [], state))
        for d in (fx.disk, fx.tmpfs):
            fs = "tmpfs" if d == fx.tmpfs else "ext4"
            names = files + (["huge"] if d == fx.tmpfs else [])
            for n in names:
                cases.append(Case("getfilecon", [os.path.join(d, n)],
                                  state, tag=fs))
            cases.append(Case("getfilecon",
                              [os.path.join(d, n) for n in
                               ("plain", "mls", "unlab", "nonul")],
                              state, tag=fs + ", fails midway"))
            cases.append(Case("getfilecon", [os.path.join(d, n) for n in
                                             ("plain", "mls", "link")],
                              state, tag=fs))
    # setfilecon: fresh targets each run; the effect is every xattr.
    tgt = os.path.join(fx.scratch, "t")
    fresh, xattrs = fx.fresh, fx.xattrs

    sc = fx.scratch
    ctx = "staff_u:object_r:user_home_t:s0"
    set_args = [
        [], [ctx], [ctx, tgt],
        [ctx, tgt, os.path.join(sc, "u")],
        [ctx, os.path.join(sc, "nonexistent"), tgt],
        [ctx, tgt, os.path.join(sc, "nonexistent"), os.path.join(sc, "u")],
        [ctx, os.path.join(sc, "link")],
        [ctx, os.path.join(sc, "dangling")],
        [ctx, os.path.join(sc, "dir")],
        ["system_u:object_r:etc_t:s0", tgt],
        ["", tgt],
        ["not a context", tgt],
        ["a:b:c\nd", tgt],
        ["u:object_r:" + "t" * 3000 + ":s0", tgt],
        # procfs has no security.* xattrs here: ENOTSUP-style failures.
        [ctx, "/proc/%s/comm" % fx.pids()[1]],
    ]
    for state in ("nofs", "enabled"):
        for args in set_args:
            cases.append(Case("setfilecon", args, state, pre=fresh(),
                              post=xattrs()))
        cases.append(Case("setfilecon", [ctx, tgt], state,
                          pre=fresh(b"system_u:object_r:etc_t:s0"),
                          post=xattrs(), tag="old label without NUL"))
    huge_tgt = os.path.join(fx.tmpfs, "scratch")
    os.makedirs(huge_tgt, exist_ok=True)
    for size in (65000, 65536, 70000):
        cases.append(Case("setfilecon", ["u:r:" + "x" * (size - 5),
                                         os.path.join(huge_tgt, "t")],
                          "enabled", pre=fresh(where=huge_tgt),
                          post=xattrs(huge_tgt),
                          tag="tmpfs, %d-byte context" % size))
    # getpidcon: a process with faked attributes, one without, none.
    faked, real = fx.pids()
    pid_args = [[], [faked, real], ["abc"], [""], ["-"], ["0"], ["-1"],
                ["0x10"], [faked], [faked + "abc"], [" " + faked],
                ["+" + faked], [real], ["999999999"], ["4294967297"]]
    for state in ("nofs", "enabled"):
        for args in pid_args:
            cases.append(Case("getpidcon", args, state))

    for value in (b"a:b:c", b"a:b:c\n", b"a:b:c\0junk", PEER_CON):
        cases.append(Case("getpidcon", [faked], "enabled",
                          pre=lambda v=value: fx.set_peer(v),
                          tag="attr=%r" % value))
    return cases


# Where our library is deliberately stricter than the reference: it reads
# a selinuxfs number that is not a number as EINVAL instead of returning
# -1 with whatever errno held (usually 0, "Success"), and refuses trailing
# garbage and values out of range.  A kernel never writes these; the
# checks keep the difference exactly as documented.
DEVIATIONS = [
    ("getenforce", b"x", "enforce",
     (2, b"", b"getenforce:  security_getenforce() failed:  Success\n"),
     (2, b"", b"getenforce:  security_getenforce() failed:  "
      b"Invalid argument\n")),
    ("getenforce", b"", "enforce",
     (2, b"", b"getenforce:  security_getenforce() failed:  Success\n"),
     (2, b"", b"getenforce:  security_getenforce() failed:  "
      b"Invalid argument\n")),
    ("getenforce", b"1x", "enforce", (0, b"Enforcing\n", b""),
     (2, b"", b"getenforce:  security_getenforce() failed:  "
      b"Invalid argument\n")),
    ("getenforce", b"4294967296", "enforce", (0, b"Permissive\n", b""),
     (0, b"Enforcing\n", b"")),
    ("policyvers", b"abc", "policyvers",
     (2, b"", b"/usr/sbin/policyvers:  security_policyvers() failed:  "
      b"Success\n"),
     (2, b"", b"/usr/sbin/policyvers:  security_policyvers() failed:  "
      b"Invalid argument\n")),
    ("policyvers", b"12abc", "policyvers", (0, b"12\n", b""),
     (2, b"", b"/usr/sbin/policyvers:  security_policyvers() failed:  "
      b"Invalid argument\n")),
]


def run_case(fx, c, prog, lib, argv0):
    fx.set_state(c.state)
    if c.pre:
        c.pre()
    r = fx.run([prog] + c.args, lib, cwd=fx.scratch, argv0=argv0,
               self_attr=c.self_attr)
    return r + ((c.post(),) if c.post else ())


def group_selinux_utils(fx, rep):
    for c in util_cases(fx):
        prog = "/usr/sbin/" + c.prog
        rep.check(c.name(), run_case(fx, c, prog, "ref", None),
                  run_case(fx, c, prog, "ours", None))
    for prog, value, f, ref, ours in DEVIATIONS:
        c = Case(prog, [], "enabled", pre=lambda: fx.write_sfs(f, value),
                 tag="%s=%r, known deviation" % (f, value))
        path = "/usr/sbin/" + prog
        rep.expect(c.name() + " reference", run_case(fx, c, path, "ref",
                                                     None), ref,
                   "reference")
        rep.expect(c.name() + " ours", run_case(fx, c, path, "ours", None),
                   ours)
    # An attribute the kernel answers with nothing: both libraries return
    # success and no context, on which Debian's getpidcon crashes.
    faked = fx.pids()[0]
    for state in ("nofs", "enabled"):
        c = Case("getpidcon", [faked], state, pre=lambda: fx.set_peer(b""),
                 tag="attr empty")
        ref = run_case(fx, c, "/usr/sbin/getpidcon", "ref", None)
        rep.expect(c.name() + " reference crashes", ref[0], -11,
                   "reference")
        rep.check(c.name(), ref,
                  run_case(fx, c, "/usr/sbin/getpidcon", "ours", None))
    fx.set_peer(PEER_CON)
    # Without fake_procattr, ours refuses the fixture files that a mount
    # put over the process's attributes (EXDEV, core/procfs.c); the
    # reference reads them.
    fx.set_state("enabled")
    rep.expect("getpidcon refuses a bind-mounted context [enabled, ours]",
               fx.run(["/usr/sbin/getpidcon", faked], "ours",
                      trust_attr=False),
               (3, b"", b"/usr/sbin/getpidcon:  getpidcon() failed:  "
                b"Invalid cross-device link\n"))
    fx.write_sfs("enforce", b"1")
    fx.write_sfs("policyvers", b"33")


# -------------------------------------------------------------------- utils

def group_utils(fx, rep, utils, server=None, policy=None):
    """Our programs against Debian's, called by the same argv[0]: ours on
    our library, and ours on the reference library (to tell a program
    difference from a library one)."""
    for c in util_cases(fx):
        ours = os.path.join(utils, c.prog)
        ref = run_case(fx, c, "/usr/sbin/" + c.prog, "ref", c.prog)
        rep.check("our " + c.name(), ref,
                  run_case(fx, c, ours, "ours", c.prog))
        rep.check("our " + c.name() + " on the reference library", ref,
                  run_case(fx, c, ours, os.path.dirname(fx.system_lib),
                           c.prog), lb="ours/reference lib")
    fx.write_sfs("enforce", b"1")
    fx.write_sfs("policyvers", b"33")
    # Deliberately unlike Debian's (which crashes, see above): an empty
    # attribute is an error of ours, by hand.
    faked = fx.pids()[0]
    fx.set_peer(b"")
    for prog in ("getpidcon", "getpidprevcon"):
        for state in ("nofs", "enabled"):
            fx.set_state(state)
            rep.expect("our %s %s [%s, attr empty]" % (prog, faked, state),
                       fx.run([os.path.join(utils, prog), faked], "ours",
                              argv0=prog),
                       (3, b"", prog.encode() + b":  " + prog.encode() +
                        b"() failed:  No data available\n"))
    fx.set_peer(PEER_CON)
    group_getpidprevcon(fx, rep, utils)
    group_avcstat(fx, rep, utils)
    group_check_access(fx, rep, utils, server, policy)
    group_execcon_securetty(fx, rep, utils, server, policy)
    group_label_utils(fx, rep, utils)


def group_getpidprevcon(fx, rep, utils):
    """Debian 12 has no getpidprevcon.  It is getpidcon's twin (libselinux
    3.5): the same answers with getpidprevcon() in the message, which we
    check two ways: by hand, and against Debian's getpidcon run on a
    process whose current context holds what ours reads from prev."""
    prog = os.path.join(utils, "getpidprevcon")
    faked, real = fx.pids()
    fx.set_peer(b"system_u:system_r:sshd_t:s0\0")
    want = [
        ([], (1, b"", b"usage:  getpidprevcon pid\n")),
        ([faked, faked], (1, b"", b"usage:  getpidprevcon pid\n")),
        (["abc"], (2, b"", b"getpidprevcon:  invalid pid abc\n")),
        (["0"], (3, b"", b"getpidprevcon:  getpidprevcon() failed:  "
                 b"Invalid argument\n")),
        ([real], (3, b"", b"getpidprevcon:  getpidprevcon() failed:  "
                  b"Invalid argument\n")),
        (["999999999"], (3, b"", b"getpidprevcon:  getpidprevcon() "
                         b"failed:  No such file or directory\n")),
        ([faked], (0, b"system_u:system_r:sshd_t:s0\n", b"")),
        ([faked + "x"], (0, b"system_u:system_r:sshd_t:s0\n", b"")),
    ]
    for state in ("nofs", "enabled"):
        fx.set_state(state)
        for args, expected in want:
            rep.expect("our getpidprevcon %s [%s]" % (" ".join(args), state),
                       fx.run([prog] + args, "ours", argv0="getpidprevcon"),
                       expected)
    # Debian's getpidcon on current == our getpidprevcon on prev.
    for value in (b"a:b:c", b"a:b:c\n", b"a:b:c\0junk", PEER_CON):
        fx.set_peer(value)
        for state in ("nofs", "enabled"):
            fx.set_state(state)
            for args in ([faked], ["0"], [real], ["abc"], [], ["-1"]):
                st, out, err = fx.run(["/usr/sbin/getpidcon"] + args, "ref",
                                      argv0="getpidprevcon")
                err = err.replace(b"getpidcon()", b"getpidprevcon()")
                rep.check("our getpidprevcon %s [%s, prev=%r] as Debian's "
                          "getpidcon" % (" ".join(args), state, value),
                          (st, out, err),
                          fx.run([prog] + args, "ours",
                                 argv0="getpidprevcon"))


# ------------------------------------------------------------------ avcstat

STATS_HEADER = b"lookups hits misses allocations reclaims frees\n"


def stats(*rows):
    """An avc/cache_stats: the kernel's header, one line per CPU."""
    return STATS_HEADER + b"".join(b" ".join(b"%d" % v for v in r) + b"\n"
                                   for r in rows)


# -f files: name -> content.  What the kernel writes (one line per CPU),
# then everything avcstat must refuse or cut, as Debian's does.
AVC_FILES = [
    ("two-cpus", stats((100, 90, 10, 10, 0, 2), (50, 40, 10, 8, 1, 1))),
    ("one-cpu", stats((7, 5, 2, 2, 0, 0))),
    ("no-final-newline", STATS_HEADER + b"1 2 3 4 5 6"),
    ("blank-lines", STATS_HEADER + b"1 2 3 4 5 6\n\n\n7 8 9 10 11 12\n\n"),
    ("tabs-and-junk", STATS_HEADER + b" 1\t2 3 4 5 6x\n+5 2 3 4 5 6 7\n"),
    ("wrap", STATS_HEADER + b"-1 2 3 4 5 6\n4294967295 4294967296 "
     b"18446744073709551615 18446744073709551616 5 6\n"
     b"18446744073709551615 1 1 1 1 1\n"),
    ("empty", b""),
    ("newline-only", b"\n"),
    ("bad-header", b"lookups hits misses allocations reclaims\n1 2 3 4 5\n"),
    ("header-extra-word", STATS_HEADER[:-1] + b" extra\n1 2 3 4 5 6\n"),
    ("header-crlf", STATS_HEADER[:-1] + b"\r\n1 2 3 4 5 6\n"),
    ("not-stats", b"hello\n"),
    ("header-only", STATS_HEADER),
    ("header-blank", STATS_HEADER + b"\n\n"),
    ("blank-space-line", STATS_HEADER + b" \n"),
    ("five-numbers", STATS_HEADER + b"1 2 3 4 5\n"),
    ("second-line-short", STATS_HEADER + b"1 2 3 4 5 6\n1 2\n"),
    ("hex", STATS_HEADER + b"0x10 2 3 4 5 6\n"),
    ("commas", STATS_HEADER + b"1,2,3,4,5,6\n"),
    # one read() of 8191 bytes: a line cut there
    ("cut-at-8191", STATS_HEADER + b"1 1 1 1 1 1\n" * 1200),
    ("cut-number", STATS_HEADER + b"1 1 1 1 1 1\n" * 675 +
     b"123456789 2 3 4 5 6\n"),
    ("fits-8191", STATS_HEADER + b"1 1 1 1 1 1\n" * 678),
]


def avcstat_cases(fx):
    d = os.path.join(fx.root, "avc")
    os.makedirs(d, exist_ok=True)
    os.makedirs(os.path.join(fx.sfs, "avc"), exist_ok=True)
    for name, data in AVC_FILES:
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)

    def sfs_stats(data):
        return lambda: fx.write_sfs("avc/cache_stats", data)

    cases = []
    usage = [[], ["-c"], ["-h"], ["--help"], ["-h", "-x"], ["-x"],
             ["-c", "-x"], ["-?"], ["-:"], ["-f"], ["0"], ["abc"], ["0x10"],
             ["abc", "2"], ["4294967296"], ["18446744073709551616"],
             ["-f", os.path.join(d, "two-cpus"), "99999999999999999999"],
             ["-f", os.path.join(d, "nonexistent")], ["-f", d],
             ["-f", "x" * 5000]]
    for state in ("nofs", "enabled"):
        for args in usage:
            cases.append(Case("avcstat", args, state,
                              pre=sfs_stats(AVC_FILES[0][1])))
    # the default file, below the selinuxfs mount
    for data, tag in ((AVC_FILES[0][1], "cache_stats=two-cpus"),
                      (b"junk\n", "cache_stats=junk"),
                      (None, "no cache_stats")):
        for args in ([], ["-c"]) + ((["1", "2"],) if data is None else ()):
            cases.append(Case("avcstat", args, "enabled",
                              pre=sfs_stats(data), tag=tag))
    for name, _ in AVC_FILES:
        for args in (["-f", os.path.join(d, name)],
                     ["-c", "-f", os.path.join(d, name)]):
            cases.append(Case("avcstat", args, "enabled"))
    fx.write_sfs("avc/cache_stats", AVC_FILES[0][1])
    return cases


def group_avcstat(fx, rep, utils):
    """avcstat against Debian's: one-shot runs (util_cases' way), then
    looping runs on a terminal, stopped after a count of lines, with the
    file changed and the terminal resized between two reads."""
    ours = os.path.join(utils, "avcstat")
    syslib = os.path.dirname(fx.system_lib)
    for c in avcstat_cases(fx):
        ref = run_case(fx, c, "/usr/sbin/avcstat", "ref", "avcstat")
        rep.check("our " + c.name(), ref,
                  run_case(fx, c, ours, "ours", "avcstat"))
        rep.check("our " + c.name() + " on the reference library", ref,
                  run_case(fx, c, ours, syslib, "avcstat"),
                  lb="ours/reference lib")

    path = os.path.join(fx.root, "avc", "looping")

    def put(data):
        def step():
            # the same file, which the program keeps open
            with open(path, "r+b" if os.path.exists(path) else "wb") as f:
                f.write(data)
                f.truncate(len(data))
        return step

    start = stats((100, 90, 10, 10, 0, 2), (50, 40, 10, 8, 1, 1))
    # relative values wrap when counters go down; "junk" ends the loop
    changes = {1: put(stats((10, 10, 10, 10, 10, 10))),
               2: put(stats((20, 30, 40, 50, 60, 70), (1, 1, 1, 1, 1, 1))),
               3: put(stats((20, 30, 40, 50, 60, 70), (1, 1, 1, 1, 1, 2))),
               4: put(b"junk\n")}
    loops = [
        (["-f", path, "1"], 24, 8, changes, "counters change, then junk"),
        (["-c", "-f", path, "1"], 24, 8, changes,
         "counters change, then junk"),
        (["-f", path, "1"], 3, 4, {}, "3 rows: a header every line"),
        (["-f", path, "1"], 1, 4, {}, "1 row"),
        (["-f", path, "1"], 20, 5, {2: 4}, "resized to 4 rows"),
    ]
    fx.set_state("enabled")
    for args, rows, count, steps, tag in loops:
        name = "avcstat %s [terminal, %d rows, %d lines, %s]" % (
            " ".join(args), rows, count, tag)
        runs = []
        for prog, lib in (("/usr/sbin/avcstat", "ref"), (ours, "ours"),
                          (ours, syslib)):
            put(start)()
            runs.append(fx.run_pty([prog] + args, lib, "avcstat", rows,
                                   count, steps))
        rep.check("our " + name, runs[0], runs[1])
        rep.check("our " + name + " on the reference library", runs[0],
                  runs[2], lb="ours/reference lib")
    # Not a terminal: stdout is a full buffer that SIGTERM throws away,
    # so a looping avcstat killed early shows nothing.
    put(start)()
    c = Case("timeout", ["-s", "TERM", "1.5", "PROG", "-f", path, "1"],
             "enabled", tag="looping avcstat in a pipe")

    def piped(prog, lib):
        argv = [a if a != "PROG" else prog for a in c.args]
        return fx.run(["timeout"] + argv, lib, cwd=fx.scratch)
    rep.check("our " + c.name(), piped("/usr/sbin/avcstat", "ref"),
              piped(ours, "ours"))


# ----------------------------------------------------- selinux_check_access

def check_access_cases():
    s, t = "system_u:system_r:sshd_t", "system_u:object_r:etc_t"
    shadow, user = "system_u:object_r:shadow_t", "user_u:user_r:user_t"
    return [
        # granted; granted and audited (auditallow), with and without -a
        [s, t, "file", "read"],
        [s, shadow, "file", "read"],
        ["-a", "pid=1 comm=x %s %n", s, shadow, "file", "read"],
        ["-a", "", s, shadow, "file", "read"],
        # denied: silently (dontaudit), audited, audited with -a
        [s, t, "file", "write"],
        [s, shadow, "file", "write"],
        ["-a", "hello", user, s, "process", "sigkill"],
        [s, shadow, "-a", "after", "file", "relabelto"],
        # unknown class, unknown or several permissions (deny_unknown)
        [s, t, "nope", "read"],
        [s, t, "", "read"],
        [s, t, "file", "nope"],
        [s, t, "file", "read write"],
        [s, t, "file", ""],
        # bad contexts
        ["bad", t, "file", "read"],
        [s, "bad", "file", "read"],
        ["", t, "file", "read"],
        ["-a", "x", s, "not:a:context", "file", "read"],
        # usage
        [], [s, t, "file"], [s, t, "file", "read", "extra"], ["-a"],
        ["-x", s, t, "file", "read"], ["-h"], ["--help"],
        ["--", s, t, "file", "read"],
    ]


def start_server(server, policy, mnt):
    """selinuxfsd serving policy at mnt, permissive; None if it fails."""
    # Only this server may be found through mountinfo: another test's
    # (fuse.selinuxfs mounts copied into this namespace) must go.
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            if right.startswith("fuse.selinuxfs "):
                subprocess.run(["umount", "-l", left.split()[4]],
                               env=clean_env(), stderr=subprocess.DEVNULL)
    p = subprocess.Popen([server, "-f", "-e", "0", policy, mnt],
                         env=clean_env(), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    for _ in range(200):
        with open("/proc/self/mountinfo") as f:
            if any((" %s " % mnt) in l and " - fuse.selinuxfs " in l
                   for l in f):
                return p
        if p.poll() is not None:
            break
        time.sleep(0.05)
    p.kill()
    print("FAIL  the server did not start: %s" %
          p.communicate()[1].decode(errors="replace"))
    return None


def group_check_access(fx, rep, utils, server, policy):
    """selinux_check_access against Debian's, on kernel/'s security
    server mounted over the fixture at /sys/fs/selinux, where both
    libraries find it (the statfs shim), permissive then enforcing."""
    if not server or not policy:
        print("skip  selinux_check_access: no --server/--policy")
        return
    ours = os.path.join(utils, "selinux_check_access")
    syslib = os.path.dirname(fx.system_lib)
    fx.set_state("enabled")
    srv = start_server(server, policy, "/sys/fs/selinux")
    if srv is None:
        rep.failed.append("selinux_check_access: server")
        return
    try:
        for enforce in (b"0", b"1"):
            with open("/sys/fs/selinux/enforce", "wb") as f:
                f.write(enforce)
            rep.expect("sanity: reference getenforce sees the server "
                       "(enforce=%s)" % enforce.decode(),
                       fx.run(["/usr/sbin/getenforce"], "ref"),
                       (0, b"Enforcing\n" if enforce == b"1" else
                        b"Permissive\n", b""), "reference")
            for args in check_access_cases():
                c = Case("selinux_check_access", args, "enabled",
                         tag="server, enforce=%s" % enforce.decode())
                ref = run_case(fx, c, "/usr/sbin/selinux_check_access",
                               "ref", "selinux_check_access")
                rep.check("our " + c.name(), ref,
                          run_case(fx, c, ours, "ours",
                                   "selinux_check_access"))
                rep.check("our " + c.name() + " on the reference library",
                          ref, run_case(fx, c, ours, syslib,
                                        "selinux_check_access"),
                          lb="ours/reference lib")
            # Known library difference (src/avc): an audit message longer
            # than the reference's 1024-byte buffer is cut there, with no
            # newline, by the reference library only.  The program is
            # compared on the reference library alone.
            c = Case("selinux_check_access",
                     ["-a", "x" * 3000, "user_u:user_r:user_t",
                      "system_u:system_r:sshd_t", "process", "sigkill"],
                     "enabled", tag="server, enforce=%s, long -a, "
                     "program only" % enforce.decode())
            rep.check("our " + c.name() + " on the reference library",
                      run_case(fx, c, "/usr/sbin/selinux_check_access",
                               "ref", "selinux_check_access"),
                      run_case(fx, c, ours, syslib, "selinux_check_access"),
                      lb="ours/reference lib")
    finally:
        srv.terminate()
        err = srv.communicate()[1]
        if srv.returncode != 0:
            rep.failed.append("selinuxfsd exited with %d: %s" % (
                srv.returncode, show(err)))
        subprocess.run(["umount", "/sys/fs/selinux"], env=clean_env(),
                       stderr=subprocess.DEVNULL)


# ------------------------ selinuxexeccon, selinux_check_securetty_context

# The securetty_types files tried (None: no file): the policy's layout,
# then lines the parser must cut or skip.
SECURETTY_TYPES = [
    (b"sysadm_tty_device_t\nuser_tty_device_t\n", "two types"),
    (b"  sysadm_tty_device_t  trailing words\n\n\tuser_tty_device_t",
     "blanks, words after the type, no final newline"),
    (b"# user_tty_device_t\n#sysadm_tty_device_t\n", "comment lines"),
    (b"sysadm_tty_device_t\r\nuser_tty_device_t:s0\n", "CR, a level"),
    (b"", "empty"),
    (None, "missing"),
]
TTY_CONS = ["system_u:object_r:sysadm_tty_device_t",
            "staff_u:object_r:user_tty_device_t:s0",
            "system_u:object_r:tty_device_t:s0", "a:b:user_tty_device_t",
            "sysadm_tty_device_t", "", "a:b", "a:b:c:d:e"]


def execcon_files(fx):
    """A directory of programs for selinuxexeccon, labelled for the
    bundled (non-MLS) policy: name -> label (None: unlabelled)."""
    d = os.path.join(fx.root, "exec")
    os.makedirs(d, exist_ok=True)
    for name, label in (
            ("sshd", b"system_u:object_r:sshd_exec_t\0"),
            ("sshd-mls", b"system_u:object_r:sshd_exec_t:s0\0"),
            ("etc", b"system_u:object_r:etc_t\0"),
            ("notctx", b"hello\0"),
            ("unlab", None)):
        path = os.path.join(d, name)
        open(path, "w").close()
        if label is not None:
            os.setxattr(path, XATTR, label)
    for link, target in (("link", "sshd"), ("dangling", "nowhere")):
        if not os.path.lexists(os.path.join(d, link)):
            os.symlink(target, os.path.join(d, link))
    return d


def execcon_cases(fx, server):
    """selinuxexeccon's cases; on the server (server=True) the
    computations are the policy's, else the fixture's selinuxfs (which
    calls every context valid and has no create file)."""
    d = execcon_files(fx)
    f = lambda n: os.path.join(d, n)
    init, sshd = "system_u:system_r:init_t", "system_u:system_r:sshd_t"
    user = "user_u:user_r:user_t"
    usage = [[], [f("sshd"), init, "extra"], [f("sshd"), "", ""]]
    plain = [[f("sshd")], [f("sshd"), init], [f("nonexistent"), init],
             [f("unlab"), init], [f("notctx"), init], [f("link"), init],
             [f("dangling"), init], [f("sshd"), "bad"], [f("sshd"), ""]]
    policy = [[f("sshd"), sshd], [f("sshd"), user], [f("etc"), init],
              [f("sshd-mls"), init], [f("sshd"), init + ":s0"],
              [f("nonexistent"), "bad"], [d, init], ["", init],
              [f("sshd"), "system_u:system_r:nope_t"]]
    cases = []
    if not server:
        for state in ("nofs", "enabled", "nocfg", "nofs-nocfg"):
            for args in usage + plain:
                for self_attr in (False, True):
                    cases.append(Case(
                        "selinuxexeccon", args, state, self_attr=self_attr,
                        tag="own context %s" % ("faked" if self_attr
                                                else "EINVAL")))
        return cases
    for args in usage + plain + policy:
        cases.append(Case("selinuxexeccon", args, "enabled", tag="server"))
    # The caller's own context: the fixture's is MLS (invalid here), then
    # one the policy knows.
    for con in (SELF_CON, b"system_u:system_r:init_t\0"):
        def own(v=con):
            with open(os.path.join(fx.attr, "current"), "wb") as f:
                f.write(v)
        for args in ([f("sshd")], [f("etc")], [f("unlab")]):
            cases.append(Case("selinuxexeccon", args, "enabled", pre=own,
                              self_attr=True,
                              tag="server, own context %r" % con))
    return cases


def securetty_cases(fx):
    """selinux_check_securetty_context's cases: each securetty_types file
    in the configured policy's tree (SELINUXTYPE=default), each state."""
    path = os.path.join(fx.etc, "default", "contexts", "securetty_types")
    os.makedirs(os.path.dirname(path), exist_ok=True)

    def put(data):
        def pre():
            if data is None:
                if os.path.exists(path):
                    os.unlink(path)
                return
            with open(path, "wb") as f:
                f.write(data)
        return pre

    cases = []
    for state in ("nofs", "enabled", "nocfg"):
        cases.append(Case("selinux_check_securetty_context", [], state))
        for data, tag in SECURETTY_TYPES:
            cases.append(Case("selinux_check_securetty_context", TTY_CONS,
                              state, pre=put(data), tag=tag))
    for con in TTY_CONS[:3]:
        cases.append(Case("selinux_check_securetty_context", [con],
                          "enabled", pre=put(SECURETTY_TYPES[0][0]),
                          tag="one context"))
    return cases


def group_execcon_securetty(fx, rep, utils, server, policy):
    """selinuxexeccon and selinux_check_securetty_context against
    Debian's: on the fixture, then on kernel/'s security server mounted
    at /sys/fs/selinux (as group_check_access does)."""
    syslib = os.path.dirname(fx.system_lib)

    def compare(cases):
        for c in cases:
            ours = os.path.join(utils, c.prog)
            ref = run_case(fx, c, "/usr/sbin/" + c.prog, "ref", c.prog)
            rep.check("our " + c.name(), ref,
                      run_case(fx, c, ours, "ours", c.prog))
            rep.check("our " + c.name() + " on the reference library",
                      ref, run_case(fx, c, ours, syslib, c.prog),
                      lb="ours/reference lib")

    compare(securetty_cases(fx) + execcon_cases(fx, False))
    if not server or not policy:
        print("skip  selinuxexeccon on the server: no --server/--policy")
        return
    # What the cases must see, or they compare nothing: a transition.
    want_sshd = (0, b"system_u:system_r:sshd_t\n", b"")
    fx.set_state("enabled")
    srv = start_server(server, policy, "/sys/fs/selinux")
    if srv is None:
        rep.failed.append("selinuxexeccon: server")
        return
    try:
        for enforce in (b"0", b"1"):
            with open("/sys/fs/selinux/enforce", "wb") as f:
                f.write(enforce)
            c = Case("selinuxexeccon", [os.path.join(fx.root, "exec", "sshd"),
                                        "system_u:system_r:init_t"],
                     "enabled", tag="server, by hand")
            rep.expect("sanity: reference " + c.name(),
                       run_case(fx, c, "/usr/sbin/selinuxexeccon", "ref",
                                "selinuxexeccon"), want_sshd, "reference")
            rep.expect(c.name(), run_case(fx, c, os.path.join(
                utils, "selinuxexeccon"), "ours", "selinuxexeccon"),
                want_sshd)
            cases = execcon_cases(fx, True)
            for c in cases:
                c.tag += ", enforce=%s" % enforce.decode()
            compare(cases)
    finally:
        with open(os.path.join(fx.attr, "current"), "wb") as f:
            f.write(SELF_CON)
        srv.terminate()
        err = srv.communicate()[1]
        if srv.returncode != 0:
            rep.failed.append("selinuxfsd exited with %d: %s" % (
                srv.returncode, show(err)))
        subprocess.run(["umount", "/sys/fs/selinux"], env=clean_env(),
                       stderr=subprocess.DEVNULL)


# ------------------------------------------- matchpathcon and selabel_*

FILE_CONTEXTS = b"""/.*\tsystem_u:object_r:default_t:s0
/etc(/.*)?\tsystem_u:object_r:etc_t:s0
/etc/shadow.*\t--\tsystem_u:object_r:shadow_t:s0
/dev/x\t-p\tsystem_u:object_r:initctl_t:s0
/tmp/x\t<<none>>
/run/[^/]*\t-d\tsystem_u:object_r:var_run_t:s0
"""
MEDIA_CONTEXTS = b"cdrom system_u:object_r:removable_device_t:s0\n"


def label_cases(fx):
    """The labelling programs' argument checks, lookups and failures to
    open a specs file, on files of the fixture (-f) or on the configured
    policy's (missing here)."""
    d = os.path.join(fx.root, "specs")
    os.makedirs(d, exist_ok=True)
    fc, media = os.path.join(d, "file_contexts"), os.path.join(d, "media")
    for path, data in ((fc, FILE_CONTEXTS), (media, MEDIA_CONTEXTS)):
        with open(path, "wb") as f:
            f.write(data)
    none = os.path.join(d, "nonexistent")
    runs = {
        "matchpathcon": [
            # -x is ours (explain): -Z is an option neither has
            [], ["-Z"], ["-m", "zzz", "/etc"], ["-m", "", "/etc"],
            ["-m", "dir", "-f", fc, "/etc/shadow"],
            ["-f", fc, "/etc/shadow", "/tmp/x", "/etc/", "/run/a"],
            ["-n", "-f", fc, "/etc/shadow"], ["-f", none, "/etc"],
            ["/etc"]],
        "selabel_lookup": [
            [], ["-Z"], ["-b", "zzz", "-k", "/etc"],
            ["-b", "file", "-f", fc, "-k", "/etc/shadow"],
            ["-b", "file", "-f", fc, "-k", "/etc/shadow", "-t", "16384"],
            ["-b", "file", "-r", "-f", fc, "-k", "/tmp/x"],
            ["-b", "media", "-f", media, "-k", "cdrom"],
            ["-b", "media", "-f", media, "-k", "floppy"],
            # (not -b x on a missing file: the reference library leaks
            # there, which LeakSanitizer reports in a sanitized build)
            ["-b", "file", "-f", none, "-k", "/etc"]],
        "selabel_lookup_best_match": [
            [], ["-x"], ["-f", fc, "-p", "/etc/shadow"],
            ["-f", fc, "-p", "/dev/x", "/etc/shadow"],
            ["-m", "f", "-f", fc, "-p", "/etc/shadow"],
            ["-m", "p", "-f", fc, "-p", "/dev/x"],
            ["-m", "q", "-f", fc, "-p", "/etc/shadow"],
            ["-f", fc, "-p", "/tmp/x"], ["-f", none, "-p", "/etc"]],
        "selabel_partial_match": [
            [], ["-x"], ["-f", none], ["-f", fc, "-p", "/etc"],
            ["-f", fc, "-p", "/run"], ["-f", none, "-p", "/etc"]],
        "selabel_digest": [
            [], ["-x"], ["-b", "zzz", "-f", fc], ["-f", fc, "-i"],
            ["-b", "file", "-f", fc], ["-b", "file", "-f", fc, "-i"],
            ["-b", "media", "-f", media], ["-b", "file", "-f", none]],
        "selabel_get_digests_all_partial_matches": [
            [], ["-x"], ["-f", fc], ["-f", fc, d], ["-f", none, d]],
    }
    cases = [Case(prog, args, state) for prog, argss in runs.items()
             for args in argss for state in ("nofs", "enabled")]
    # Debian's matchpathcon asks selabel_lookup, ours matchpathcon(),
    # which (in either library) canonicalizes the answer through
    # selinuxfs when SELinux is enabled: the fixture's "context" file
    # answers that with nothing.  The reference library then prints an
    # empty context for our program, so a lookup by our matchpathcon is
    # compared on the reference library with SELinux disabled only.
    for c in cases:
        c.reflib = not (c.prog == "matchpathcon" and c.state == "enabled"
                        and "-f" in c.args and "nonexistent" not in
                        " ".join(c.args))
    return cases


def group_label_utils(fx, rep, utils):
    """matchpathcon and selabel_* against Debian's, on our library and on
    the reference."""
    syslib = os.path.dirname(fx.system_lib)
    for c in label_cases(fx):
        ours = os.path.join(utils, c.prog)
        ref = run_case(fx, c, "/usr/sbin/" + c.prog, "ref", c.prog)
        rep.check("our " + c.name(), ref,
                  run_case(fx, c, ours, "ours", c.prog))
        if c.reflib:
            rep.check("our " + c.name() + " on the reference library",
                      ref, run_case(fx, c, ours, syslib, c.prog),
                      lb="ours/reference lib")
    # Without -p (and a specs file that opens) Debian's
    # selabel_partial_match crashes; ours prints its usage, by hand.
    c = Case("selabel_partial_match", ["-f", os.path.join(
        fx.root, "specs", "file_contexts")], "nofs")
    rep.expect("reference " + c.name() + " crashes",
               run_case(fx, c, "/usr/sbin/selabel_partial_match", "ref",
                        c.prog)[0], -11, "reference")
    st, out, err = run_case(fx, c, os.path.join(utils, c.prog), "ours",
                            c.prog)
    rep.expect("our " + c.name(), (st, out, err.split(b"\n")[0]),
               (1, b"", b"usage:  selabel_partial_match [-v] -p <path> "
                b"[-f file]"))


# --------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group", choices=["coreutils", "selinux-utils", "utils"])
    ap.add_argument("--lib", required=True, help="our libselinux.so.1")
    ap.add_argument("--shim", required=True, help="fake_selinuxfs.so")
    ap.add_argument("--procattr-shim", required=True,
                    help="fake_procattr.so")
    ap.add_argument("--utils", help="directory of our utils")
    ap.add_argument("--server", help="kernel/'s selinuxfsd (utils group)")
    ap.add_argument("--policy", help="a binary policy for --server")
    ap.add_argument("--sanitized", action="store_true",
                    help="our build uses ASan+UBSan (utils group only)")
    args = ap.parse_args()
    global SANITIZED
    SANITIZED = args.sanitized
    if SANITIZED and args.group != "utils":
        print("FAIL: Debian's programs cannot load a sanitized library")
        return 1
    utils = os.path.abspath(args.utils) if args.utils else None
    for k in ("server", "policy"):
        if getattr(args, k):
            setattr(args, k, os.path.abspath(getattr(args, k)))

    if os.environ.get("DROPIN_IN_NAMESPACE") != "1":
        if os.geteuid() != 0:
            print("SKIP: needs root (mount namespace, security.* xattrs)")
            return SKIP
        if not shutil.which("unshare"):
            print("SKIP: unshare(1) is missing (util-linux)")
            return SKIP
        p = subprocess.run(["unshare", "-m", "true"], env=clean_env(),
                           stderr=subprocess.PIPE)
        if p.returncode != 0:
            print("SKIP: unshare -m not permitted here: %s" %
                  p.stderr.decode().strip())
            return SKIP
        env = dict(os.environ, DROPIN_IN_NAMESPACE="1")
        return subprocess.run(["unshare", "-m", "--propagation", "private",
                               sys.executable] + sys.argv,
                              env=env).returncode

    for prog in ("/usr/sbin/getenforce", "/usr/sbin/getfilecon", "/usr/bin/ls",
                 "/usr/bin/id", "/usr/bin/stat", "/usr/bin/find"):
        if not os.access(prog, os.X_OK):
            print("FAIL: %s is missing; scripts/setup.sh installs it" % prog)
            return 1
    probe = tempfile.NamedTemporaryFile()
    try:
        os.setxattr(probe.name, XATTR, b"a:b:c\0")
    except OSError as e:
        print("SKIP: cannot set %s on %s: %s" % (XATTR, probe.name,
                                                 e.strerror))
        return SKIP
    probe.close()

    fx = Fixture(args)
    rep = Report()
    rep.fx = fx
    try:
        sanity(fx, rep, utils)
        if args.group == "coreutils":
            group_coreutils(fx, rep)
        elif args.group == "selinux-utils":
            group_selinux_utils(fx, rep)
        else:
            group_utils(fx, rep, utils, args.server, args.policy)
    finally:
        fx.close()
    return rep.done()


if __name__ == "__main__":
    sys.exit(main())
