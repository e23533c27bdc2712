#!/usr/bin/env python3
"""Differential tests: Debian's libselinux1 against ours, same inputs.

One probe binary (probe.c, compiled against our headers, linked against
the system's libselinux.so.1) runs twice per case: as is (the reference)
and with LD_LIBRARY_PATH pointing at our build (set for the probe only).
The outputs must be identical, except where a deviation is deliberate and
listed in DEVIATIONS below with its reason.

Config cases run in a private mount namespace with a fixture directory
bind-mounted over /etc/selinux, since both libraries read that fixed path.
Needs root (unshare, mount); skips (77) otherwise.
"""
import os
import shutil
import subprocess
import sys
import tempfile

PROBE, OURS, PROCATTR_SHIM = sys.argv[1], sys.argv[2], sys.argv[3]
SKIP = 77

failures = []
passed = 0


def run(args, ours, etc=None, env_extra=None, ns=False, probe_env=()):
    # meson test may export LD_LIBRARY_PATH for the whole test: drop it,
    # and give our library to the probe alone, never to mount or sh.
    # probe_env: more VAR=value words for the probe alone.
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    if env_extra:
        env.update(env_extra)
    cmd = [PROBE] + args
    if ours or probe_env:
        cmd = (["env"] + (["LD_LIBRARY_PATH=" + OURS] if ours else []) +
               list(probe_env) + cmd)
    if ns and etc is None:
        cmd = ["unshare", "-m"] + cmd
    if etc is not None:
        # Only the probe runs with our library; mount is the system's.
        script = 'mount --bind "$1" /etc/selinux && shift && exec "$@"'
        cmd = ["unshare", "-m", "sh", "-c", script, "sh", etc] + cmd
    p = subprocess.run(cmd, capture_output=True, env=env,
                       timeout=60)
    return (p.returncode, p.stdout.decode("utf-8", "backslashreplace"),
            p.stderr.decode("utf-8", "backslashreplace"))


def compare(name, args, etc=None, prepare=None, ns=False, probe_env=()):
    global passed
    ref = run(args, False, etc, ns=ns, probe_env=probe_env)
    if prepare:
        prepare()
    ours = run(args, True, etc, ns=ns, probe_env=probe_env)
    if ref == ours:
        passed += 1
        return
    lines = [f"DIFF {name}: probe {' '.join(args)}"]
    import difflib
    for l in difflib.unified_diff(ref[1].splitlines(), ours[1].splitlines(),
                                  "reference", "ours", lineterm="", n=1):
        lines.append("    " + l)
    if ref[0] != ours[0] or ref[2] != ours[2]:
        lines.append(f"    exit/stderr: ref={ref[0]} {ref[2]!r} "
                     f"ours={ours[0]} {ours[2]!r}")
    failures.append("\n".join(lines))


def config_case(name, content, extra_cmds=()):
    d = tempfile.mkdtemp(prefix="compat-etc.")
    try:
        if content is not None:
            with open(os.path.join(d, "config"), "wb") as f:
                f.write(content)
        compare("config/" + name, ["config", "paths"] + list(extra_cmds),
                etc=d)
    finally:
        shutil.rmtree(d)


CONFIGS = {
    "plain": b"SELINUX=enforcing\nSELINUXTYPE=default\n",
    "missing": None,
    "empty": b"",
    "indented": b"  \tSELINUXTYPE=foo\n",
    "spaces-around-equals": b"SELINUXTYPE = foo\nSELINUX = enforcing\n",
    "double-quotes": b'SELINUXTYPE="foo"\nSELINUX="permissive"\n',
    "single-quotes": b"SELINUXTYPE='foo'\n",
    "inline-comment": b"SELINUXTYPE=foo # comment\n",
    "trailing-space": b"SELINUXTYPE=foo   \t\n",
    "lowercase-keys": b"selinuxtype=foo\nselinux=enforcing\n",
    "last-type-wins": b"SELINUXTYPE=a\nSELINUXTYPE=b\n",
    "no-newline": b"SELINUX=permissive\nSELINUXTYPE=foo",
    "empty-type": b"SELINUXTYPE=\n",
    "mode-case": b"SELINUX=Enforcing\n",
    "mode-prefix": b"SELINUX=enforcingXYZ\n",
    "mode-indented": b" SELINUX=permissive\n",
    "mode-first-valid": b"SELINUX=bogus\nSELINUX=disabled\nSELINUX=enforcing\n",
    "mode-space-value": b"SELINUX=   permissive\n",
    "crlf": b"SELINUXTYPE=foo\r\nSELINUX=enforcing\r\n",
    "comments": b"# SELINUXTYPE=x\n#SELINUX=enforcing\n\n\n  # x\nSELINUXTYPE=y\n",
    "tabs": b"\tSELINUXTYPE=\tfoo\t\n",
    "space-in-value": b"SELINUXTYPE=fo o\n",
    "unbalanced-quote": b'SELINUXTYPE="foo\n',
    "absolute-type": b"SELINUXTYPE=/x/y\n",
    "unknown-keys": b"SETLOCALDEFS=0\nFOO=bar\nREQUIRESEUSERS=1\nSELINUXTYPE=k\n",
    "nul-bytes": b"SELINUXTYPE=foo\x00bar\nSELINUX=enf\x00orcing\n",
    "garbage": bytes(range(1, 256)) + b"\n=\n==\nSELINUXTYPE\n\xff\xfe",
    "megabyte-line": b"x" * (1 << 20) + b"\nSELINUX=permissive\nSELINUXTYPE=bar\n",
    "long-type": b"SELINUXTYPE=" + b"y" * 5000 + b"\n",
    "only-key": b"SELINUXTYPE",
}

# Deliberate deviations (not compared; unit tests pin our behaviour):
# - A line longer than a page containing "SELINUX=" past the first page:
#   Debian reads the file in page-sized pieces and takes such a piece for
#   a line of its own; we read lines whole (core_config suite,
#   test_selinux_getenforcemode_overlong_line_is_one_line).
# - Non-numeric selinuxfs values ("x", "1x", "0x10", ""): Debian answers
#   -1 with a stale errno or the number sscanf salvages; we answer -1 and
#   EINVAL (core_enforce suite).
# - NULL arguments that crash Debian's library get EINVAL here.


def kernel_cases():
    values = {
        "enforce": [b"0", b"1", b"2", b"1\n", b" 1"],
        "policyvers": [b"33", b"31\n", b"15"],
        "deny_unknown": [b"0", b"1"],
        "reject_unknown": [b"0", b"1"],
        "checkreqprot": [b"0", b"1"],
        "mls": [b"0", b"1", b"33", b"x", b""],
    }
    for fname, vals in values.items():
        for v in vals:
            m = tempfile.mkdtemp(prefix="compat-mnt.")
            try:
                for other in values:
                    with open(os.path.join(m, other), "wb") as f:
                        f.write(values[other][0])
                with open(os.path.join(m, fname), "wb") as f:
                    f.write(v)
                compare(f"kernel/{fname}={v!r}", ["mnt", m, "kernel"])
            finally:
                shutil.rmtree(m)
    # Missing files, and no mount at all.
    m = tempfile.mkdtemp(prefix="compat-mnt.")
    try:
        compare("kernel/empty-mount", ["mnt", m, "kernel"])
        compare("kernel/no-mount", ["nomnt", "kernel"])
    finally:
        shutil.rmtree(m)


def xattr_cases():
    import errno
    base = tempfile.mkdtemp(prefix="compat-xattr.", dir="/dev/shm")
    try:
        def f(name, value=None):
            p = os.path.join(base, name)
            with open(p, "w") as fh:
                fh.write("x")
            if value is not None:
                os.setxattr(p, "security.selinux", value)
            return p
        files = [
            f("with-nul", b"system_u:object_r:etc_t:s0\x00"),
            f("without-nul", b"system_u:object_r:etc_t:s0"),
            f("empty", b""),
            f("unlabeled"),
            f("64k", b"a" * 65536),
            f("garbage", b"\xff\xfe not a context \x01"),
            f("embedded-nul", b"u:r:t\x00junk"),
            f("mls", b"staff_u:object_r:user_home_t:s0-s15:c0.c1023\x00"),
        ]
        link = os.path.join(base, "link")
        os.symlink(files[0], link)
        os.setxattr(link, "security.selinux", b"u:object_r:link_t\x00",
                    follow_symlinks=False)
        dangling = os.path.join(base, "dangling")
        os.symlink("/nonexistent/x", dangling)
        files += [link, dangling, os.path.join(base, "missing"), base]
        for p in files:
            compare("xattr/" + os.path.basename(p), ["file", p])
        # setfilecon then read back (each library on its own copy).
        for i, ctx in enumerate(["u:r:t:s0", "a", "x" * 3000]):
            pr = f(f"set-ref-{i}")
            po = f(f"set-ours-{i}")
            r = run(["setfile", pr, ctx, "file", pr], False)
            o = run(["setfile", po, ctx, "file", po], True)
            global passed
            if r == o:
                passed += 1
            else:
                failures.append(f"DIFF xattr/setfilecon {ctx[:20]!r}:\n"
                                f"    ref={r}\n    ours={o}")
    finally:
        shutil.rmtree(base)


# Where the probe makes its fixture attribute files (probe.c,
# cmd_procattr: /tmp/probe-attr.XXXXXX).
PROBE_ATTR = "/tmp"


def procattr_cases():
    # The per-thread memory of what was written to each attribute: the
    # probe bind-mounts a plain file over its own /proc/thread-self/attr
    # file and changes it behind the library's back.  Ours refuses such a
    # file (EXDEV: a mount put it there, core/procfs.c); the shim
    # (tests/lib/fake_procattr.c) lets the probe's file pass for the
    # kernel's, in both runs, so that the two libraries are compared on
    # its contents.  Without it, ours must refuse every get and set and
    # leave the file alone, where the reference follows the mount.
    global passed
    shim = ["LD_PRELOAD=" + PROCATTR_SHIM, "FAKE_PROCATTR=" + PROBE_ATTR]
    for attr in ["current", "exec", "fscreate", "keycreate", "sockcreate"]:
        compare("procattr/" + attr, ["procattr", attr], ns=True,
                probe_env=shim)
        st, out, err = run(["procattr", attr], True, ns=True)
        calls = [l for l in out.splitlines()
                 if l.startswith(("get", "set"))]
        held = [l for l in out.splitlines() if "file holds" in l]
        if (st == 0 and len(calls) == 8 and
                all(l.endswith("= -1 errno=EXDEV") for l in calls) and
                held == ['  file holds 0 bytes ""'] * 3 +
                ['  file holds 6 bytes "w:w:w"']):
            passed += 1
        else:
            failures.append("REFUSE procattr/%s without the shim: ours "
                            "must refuse the bind-mounted file:\n    %s"
                            % (attr, out.replace("\n", "\n    ")))


def setroot_cases():
    d = tempfile.mkdtemp(prefix="compat-etc.")
    try:
        with open(os.path.join(d, "config"), "w") as fh:
            fh.write("SELINUXTYPE=foo\n")
        for root in ["/x/y/z", "/x/y/", "/", "/a"]:
            compare(f"setroot/{root}", ["setroot", root, "reset", "config",
                                        "paths"], etc=d)
        # The current policy path: files on disk and a fake selinuxfs.
        os.makedirs(os.path.join(d, "foo/policy"))
        m = tempfile.mkdtemp(prefix="compat-mnt.")
        try:
            for n in ["30", "35"]:
                open(os.path.join(d, "foo/policy/policy." + n), "w").close()
            with open(os.path.join(m, "policyvers"), "w") as fh:
                fh.write("33")
            compare("current-policy/vers33", ["mnt", m, "paths"], etc=d)
            os.unlink(os.path.join(m, "policyvers"))
            compare("current-policy/no-policyvers", ["mnt", m, "paths"],
                    etc=d)
            for n in ["15", "1"]:
                open(os.path.join(d, "foo/policy/policy." + n), "w").close()
            compare("current-policy/15", ["mnt", m, "paths"], etc=d)
            open(os.path.join(m, "policy"), "w").close()
            compare("current-policy/kernel", ["mnt", m, "paths"], etc=d)
        finally:
            shutil.rmtree(m)
    finally:
        shutil.rmtree(d)


def main():
    if os.geteuid() != 0:
        print("SKIP: needs root for mount namespaces")
        return SKIP
    if subprocess.run(["unshare", "-m", "true"]).returncode != 0:
        print("SKIP: unshare -m not permitted here")
        return SKIP
    # Make sure each run really loads the library it is meant to.
    ref_lib = run(["whoami"], False)[1]
    our_lib = run(["whoami"], True)[1]
    if OURS not in our_lib or OURS in ref_lib or "libselinux.so.1" not in ref_lib:
        print(f"FAIL: wrong libraries loaded: ref {ref_lib!r} ours {our_lib!r}")
        return 1
    print("reference:", ref_lib.split("= ")[-1].strip())
    print("ours:     ", our_lib.split("= ")[-1].strip())
    for name, content in CONFIGS.items():
        config_case(name, content)
    setroot_cases()
    procattr_cases()
    kernel_cases()
    xattr_cases()
    for f in failures:
        print(f)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
