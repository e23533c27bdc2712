#!/usr/bin/python3
"""calls.py SECTION WORKDIR

Calls many functions of whichever `selinux` module is first on sys.path
and prints one canonical line per call: what it returned, or the
exception's class and errno.  differential.py runs it with Debian's
python3-selinux and with ours and compares the outputs line by line, so
nothing here may depend on which module runs: no addresses, no pids.

SECTION:
  local   real files with security.selinux xattrs under WORKDIR, process
          attributes (EINVAL on a kernel without SELinux), a fixture
          /etc/selinux tree (WORKDIR/etc/selinux, the policy root),
          matchpathcon and selabel on a file_contexts written here,
          context_t, the pure-Python helpers;
  server  the calls that need a policy, against the selinuxfs at
          $SELINUXFS_MNT (kernel/'s server with the bundled policy), and
          the login calls on the policy's tree ($CALLS_POLICY_ROOT).

WORKDIR is created empty by the caller; the local section builds its
fixture there afresh on every run.
"""
import errno
import os
import shutil
import socket
import stat
import sys

selinux = None  # the module under test, imported by main()
out = []


def canon(v):
    """A value as text that is the same for both modules."""
    if isinstance(v, list):
        return "[" + ", ".join(canon(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(canon(x) for x in v) + ")"
    if v is None or isinstance(v, (bool, int, str, bytes)):
        return repr(v)
    # SWIG proxies and pointers: their type, never their address
    return "<%s>" % type(v).__name__


def call(label, f, *args):
    """Print label and what f(*args) gave; return the result (None when
    it raised)."""
    try:
        r = f(*args)
    except OSError as e:
        out.append("%s -> %s errno=%s" % (
            label, type(e).__name__, errno.errorcode.get(e.errno, e.errno)))
        return None
    except (TypeError, ValueError, OverflowError) as e:
        out.append("%s -> %s" % (label, type(e).__name__))
        return None
    out.append("%s -> %s" % (label, canon(r)))
    return r


def c(name, *args):
    """call() for a module function, labelled with its name and args."""
    return call("%s%s" % (name, canon(args)), getattr(selinux, name), *args)


def xattr(path):
    try:
        return os.getxattr(path, "security.selinux",
                           follow_symlinks=False).decode(errors="replace")
    except OSError as e:
        return "<%s>" % errno.errorcode.get(e.errno, e.errno)


def labels(top):
    """The security.selinux of every file under top, sorted."""
    res = [(".", xattr(top))]
    for root, dirs, files in os.walk(top):
        for n in dirs + files:
            p = os.path.join(root, n)
            res.append((os.path.relpath(p, top), xattr(p)))
    return sorted(res)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def setx(path, ctx):
    os.setxattr(path, "security.selinux", ctx.encode() + b"\0",
                follow_symlinks=False)


# ---------------------------------------------------------------------
# local
# ---------------------------------------------------------------------

def files(work):
    d = os.path.join(work, "files")
    os.makedirs(d)
    f = os.path.join(d, "f")
    g = os.path.join(d, "g")
    link = os.path.join(d, "link")
    dangling = os.path.join(d, "dangling")
    sub = os.path.join(d, "sub")
    write(f, "x")
    write(g, "y")
    os.symlink("f", link)
    os.symlink("nowhere", dangling)
    os.mkdir(sub)
    setx(f, "system_u:object_r:etc_t:s0")
    setx(sub, "system_u:object_r:tmp_t")
    setx(link, "system_u:object_r:lnk_t:s0")
    # without the NUL some writers leave out
    os.setxattr(g, "security.selinux", b"user_u:object_r:user_home_t",
                follow_symlinks=False)

    for fn in ("getfilecon", "getfilecon_raw", "lgetfilecon",
               "lgetfilecon_raw"):
        for p in (f, g, link, dangling, sub, d, os.path.join(d, "missing"),
                  ""):
            c(fn, p)
    for fn in ("fgetfilecon", "fgetfilecon_raw"):
        for p in (f, g, sub, d):
            fd = os.open(p, os.O_RDONLY)
            call("%s(fd of %s)" % (fn, os.path.basename(p)),
                 getattr(selinux, fn), fd)
            os.close(fd)
        c(fn, -1)
        c(fn, 9999)

    c("setfilecon", f, "system_u:object_r:shadow_t:s0")
    c("getfilecon", f)
    c("setfilecon_raw", link, "system_u:object_r:bin_t:s0")
    c("getfilecon", f)
    c("lgetfilecon", link)
    c("lsetfilecon", link, "system_u:object_r:lnk2_t:s0")
    c("lgetfilecon", link)
    c("getfilecon", f)
    c("lsetfilecon_raw", sub, "a:b:c")
    c("getfilecon", sub)
    c("setfilecon", os.path.join(d, "missing"), "a:b:c")
    c("lsetfilecon", dangling, "a:b:dangling_t")
    c("lgetfilecon", dangling)
    c("setfilecon", dangling, "a:b:c")
    fd = os.open(g, os.O_RDWR)
    call("fsetfilecon(fd of g)", selinux.fsetfilecon, fd, "x:y:z:s0")
    call("fgetfilecon(fd of g)", selinux.fgetfilecon, fd)
    call("fsetfilecon_raw(fd of g)", selinux.fsetfilecon_raw, fd, "x:y:w")
    call("fgetfilecon_raw(fd of g)", selinux.fgetfilecon_raw, fd)
    os.close(fd)
    c("fsetfilecon", -1, "a:b:c")
    c("getfilecon", g)

    # wrong types: the wrappers refuse them before any call
    c("getfilecon", None)
    c("getfilecon", 5)
    c("getfilecon", b"/")
    c("setfilecon", f, 7)


def process():
    # No SELinux in this kernel: /proc/*/attr answers EINVAL for all.
    for fn in ("getcon", "getcon_raw", "getprevcon", "getprevcon_raw",
               "getexeccon", "getexeccon_raw", "getfscreatecon",
               "getfscreatecon_raw", "getkeycreatecon", "getkeycreatecon_raw",
               "getsockcreatecon", "getsockcreatecon_raw"):
        c(fn)
    for fn in ("setcon", "setcon_raw", "setexeccon", "setexeccon_raw",
               "setfscreatecon", "setfscreatecon_raw", "setkeycreatecon",
               "setkeycreatecon_raw", "setsockcreatecon",
               "setsockcreatecon_raw"):
        c(fn, "system_u:system_r:init_t:s0")
        c(fn, None)
    call("getpidcon(self)", selinux.getpidcon, os.getpid())
    call("getpidcon_raw(self)", selinux.getpidcon_raw, os.getpid())
    c("getpidcon", 1)
    c("getpidcon", 0)
    c("getpidcon", -1)
    c("getpidcon", 2 ** 40)
    a, b = socket.socketpair()
    call("getpeercon(socketpair)", selinux.getpeercon, a.fileno())
    call("getpeercon_raw(socketpair)", selinux.getpeercon_raw, b.fileno())
    a.close()
    b.close()
    c("getpeercon", -1)
    fd = os.open("/", os.O_RDONLY)
    call("getpeercon(dir fd)", selinux.getpeercon, fd)
    os.close(fd)


FILE_CONTEXTS = """\
# a file_contexts for matchpathcon and selabel, paths under @W@
@W@/fc(/.*)?		system_u:object_r:fc_t:s0
@W@/fc/etc(/.*)?	system_u:object_r:etc_t:s0
@W@/fc/etc/shadow	--	system_u:object_r:shadow_t:s0
@W@/fc/bin/.*		--	system_u:object_r:bin_t:s0
@W@/fc/bin(/.*)?	-d	system_u:object_r:bin_dir_t:s0
@W@/fc/dev/[^/]*	-c	system_u:object_r:chr_t:s0
@W@/fc/dev/[^/]*	-b	system_u:object_r:blk_t:s0
@W@/fc/run/.*\\.sock	-s	system_u:object_r:sock_t:s0
@W@/fc/run/fifo	-p	system_u:object_r:fifo_t:s0
@W@/fc/lnk	-l	system_u:object_r:lnk_t:s0
@W@/fc/none(/.*)?	<<none>>
@W@/fc/home/[^/]+	-d	user_u:object_r:home_t:s0
@W@/fc/x\\.y		system_u:object_r:dot_t:s0
@W@/fc/rel		system_u:object_r:customized_t:s0
"""

MEDIA = """\
cdrom system_u:object_r:removable_device_t:s0
floppy system_u:object_r:removable_device_t:s0
disk system_u:object_r:fixed_disk_device_t:s0
"""

MODES = [0, stat.S_IFREG, stat.S_IFDIR, stat.S_IFCHR, stat.S_IFBLK,
         stat.S_IFIFO, stat.S_IFSOCK, stat.S_IFLNK]


def tree(work):
    """The fixture /etc/selinux: config and a policy "fixture"."""
    es = os.path.join(work, "etc", "selinux")
    pol = os.path.join(es, "fixture")
    write(os.path.join(es, "config"),
          "SELINUX=permissive\nSELINUXTYPE=fixture\n")
    fc = FILE_CONTEXTS.replace("@W@", work)
    write(os.path.join(pol, "contexts", "files", "file_contexts"), fc)
    write(os.path.join(pol, "contexts", "files", "media"), MEDIA)
    write(os.path.join(pol, "contexts", "customizable_types"),
          "customized_t\n")
    write(os.path.join(pol, "booleans.subs_dist"),
          "old_name new_name\nallow_ypbind nis_enabled\n")
    write(os.path.join(pol, "contexts", "files", "file_contexts.subs_dist"),
          "%s/alias %s/fc/etc\n" % (work, work))
    return es, pol


PATH_FUNCS = [
    "selinux_policy_root", "selinux_path", "selinux_current_policy_path",
    "selinux_binary_policy_path", "selinux_failsafe_context_path",
    "selinux_removable_context_path", "selinux_default_context_path",
    "selinux_user_contexts_path", "selinux_file_context_path",
    "selinux_file_context_homedir_path", "selinux_file_context_local_path",
    "selinux_file_context_subs_path", "selinux_file_context_subs_dist_path",
    "selinux_homedir_context_path", "selinux_media_context_path",
    "selinux_virtual_domain_context_path",
    "selinux_virtual_image_context_path", "selinux_lxc_contexts_path",
    "selinux_x_context_path", "selinux_sepgsql_context_path",
    "selinux_openrc_contexts_path", "selinux_openssh_contexts_path",
    "selinux_snapperd_contexts_path", "selinux_systemd_contexts_path",
    "selinux_contexts_path", "selinux_securetty_types_path",
    "selinux_booleans_subs_path", "selinux_booleans_path",
    "selinux_customizable_types_path", "selinux_users_path",
    "selinux_usersconf_path", "selinux_translations_path",
    "selinux_colors_path", "selinux_netfilter_context_path",
    "selinux_default_type_path",
]


def paths(work, pol):
    # With /etc/selinux bound to the fixture (differential.py does it in a
    # mount namespace of its own) these read its config; otherwise they
    # read the machine's, the same for both modules.
    c("selinux_getenforcemode")
    c("selinux_getpolicytype")
    for fn in PATH_FUNCS:
        c(fn)
    c("selinux_set_policy_root", pol)
    for fn in PATH_FUNCS:
        c(fn)
    c("selinux_getpolicytype")
    c("selinux_boolean_sub", "old_name")
    c("selinux_boolean_sub", "allow_ypbind")
    c("selinux_boolean_sub", "unchanged")
    c("selinux_boolean_sub", "")


def matchpathcon(work):
    fc = os.path.join(work, "etc", "selinux", "fixture", "contexts",
                      "files", "file_contexts")
    keys = ["fc", "fc/", "fc/a", "fc/etc", "fc/etc/passwd", "fc/etc/shadow",
            "fc/etc/shadow/x", "fc/bin", "fc/bin/ls", "fc/dev/null",
            "fc/run/a.sock", "fc/run/fifo", "fc/lnk", "fc/none",
            "fc/none/deeper", "fc/home/joe", "fc/home/joe/x", "fc/x.y",
            "fc/xzy", "fc//etc", "fc/./etc", "alias", "alias/passwd",
            "elsewhere"]
    keys = [os.path.join(work, k) for k in keys] + ["/", "", "relative"]
    c("matchpathcon_init", fc)
    for k in keys:
        for m in MODES:
            c("matchpathcon", k, m)
    c("matchpathcon_index", os.path.join(work, "fc/etc/shadow"),
      stat.S_IFREG)
    c("matchpathcon", os.path.join(work, "fc/a"), -1)
    c("matchpathcon_fini")
    c("matchpathcon_init", os.path.join(work, "missing_fc"))
    c("matchpathcon_init_prefix", fc, os.path.join(work, "fc/etc"))
    for k in keys[:8]:
        c("matchpathcon", k, stat.S_IFREG)
    c("matchpathcon_fini")
    # the default file_contexts of the policy root (set by paths())
    c("matchpathcon", os.path.join(work, "fc/bin/sh"), stat.S_IFREG)
    c("matchpathcon_fini")
    c("set_matchpathcon_flags", selinux.MATCHPATHCON_BASEONLY)
    c("matchpathcon", os.path.join(work, "fc/etc"), stat.S_IFDIR)
    c("matchpathcon_fini")
    c("set_matchpathcon_flags", 0)

    # selabel on the same file
    o = selinux.selinux_opt()
    o.type = selinux.SELABEL_OPT_PATH
    o.value = fc
    call("selinux_opt fields", lambda: [o.type, o.value])
    h = call("selabel_open(FILE, path opt, 1)", selinux.selabel_open,
             selinux.SELABEL_CTX_FILE, o, 1)
    if h is not None:
        for k in keys:
            for m in (0, stat.S_IFREG, stat.S_IFDIR, stat.S_IFLNK):
                c("selabel_lookup", h, k, m)
        for k in keys[:10]:
            c("selabel_lookup_raw", h, k, stat.S_IFREG)
            c("selabel_lookup_best_match", h, k, stat.S_IFREG)
            c("selabel_lookup_best_match_raw", h, k, 0)
        for k in ("fc", "fc/etc", "fc/e", "other", "fc/none"):
            c("selabel_partial_match", h, os.path.join(work, k))
        h2 = selinux.selabel_open(selinux.SELABEL_CTX_FILE, o, 1)
        c("selabel_cmp", h, h2)
        selinux.selabel_close(h2)
        c("selabel_close", h)
    call("selabel_open(FILE, None, 0)", selinux.selabel_open,
         selinux.SELABEL_CTX_FILE, None, 0)
    o.value = os.path.join(work, "missing_fc")
    call("selabel_open(FILE, missing)", selinux.selabel_open,
         selinux.SELABEL_CTX_FILE, o, 1)
    call("selabel_open(99)", selinux.selabel_open, 99, None, 0)

    o.value = os.path.join(work, "etc/selinux/fixture/contexts/files/media")
    h = call("selabel_open(MEDIA)", selinux.selabel_open,
             selinux.SELABEL_CTX_MEDIA, o, 1)
    if h is not None:
        for k in ("cdrom", "disk", "floppy", "tape"):
            c("selabel_lookup", h, k, 0)
        selinux.selabel_close(h)
    for k in ("cdrom", "disk", "tape"):
        c("matchmediacon", k)


def contexts():
    for s in ("system_u:object_r:etc_t:s0", "u:r:t", "u:r:t:s0-s1:c0.c3",
              "bad", "a:b", "", "a::c", "a:b:c:"):
        ctx = call("context_new(%r)" % s, selinux.context_new, s)
        if ctx is None:
            continue
        for g in ("context_str", "context_user_get", "context_role_get",
                  "context_type_get", "context_range_get"):
            call("%s(%r)" % (g, s), getattr(selinux, g), ctx)
        for setter, v in (("context_type_set", "new_t"),
                          ("context_user_set", "new_u"),
                          ("context_role_set", "new_r"),
                          ("context_range_set", "s1"),
                          ("context_range_set", None),
                          ("context_user_set", "bad:user"),
                          ("context_type_set", "with space"),
                          ("context_role_set", "")):
            call("%s(%r, %r)" % (setter, s, v), getattr(selinux, setter),
                 ctx, v)
            call("context_str after %s" % setter, selinux.context_str, ctx)
        selinux.context_free(ctx)
    for a, b in (("a:b:c", "a:b:c"), ("a:b:c", "a:b:d"), ("a:b:d", "a:b:c"),
                 ("u1:r:t", "u2:r:t"), ("a:b:c:s0", "a:b:c:s1"),
                 ("x", "a:b:c")):
        c("selinux_file_context_cmp", a, b)
    for s in ("u:r:t:s0", "u:r:t:s0-s15:c0.c1023"):
        c("selinux_trans_to_raw_context", s)
        c("selinux_raw_to_trans_context", s)


def misc():
    c("is_selinux_enabled")
    c("is_selinux_mls_enabled")
    c("selinuxfs_exists")
    c("security_getenforce")
    c("security_policyvers")
    c("security_check_context", "system_u:object_r:etc_t:s0")
    c("security_get_boolean_names")
    c("string_to_security_class", "file")
    c("security_class_to_string", 6)
    c("security_av_perm_to_string", 6, 4)
    c("string_to_av_perm", 6, "read")
    c("mode_to_security_class", stat.S_IFREG)
    cb = call("selinux_get_callback(LOG)", selinux.selinux_get_callback,
              selinux.SELINUX_CB_LOG)
    if cb is not None:
        call("callback func_log is set", lambda: cb.func_log is not None)
        call("selinux_set_callback(LOG, same)", selinux.selinux_set_callback,
             selinux.SELINUX_CB_LOG, cb)
    cb = selinux.selinux_get_callback(99)
    call("selinux_get_callback(99).func_log", lambda: cb.func_log)
    call("selinux_set_callback(LOG, None)", selinux.selinux_set_callback,
         selinux.SELINUX_CB_LOG, None)
    a = selinux.av_decision()
    call("av_decision()", lambda: [a.allowed, a.decided, a.auditallow,
                                   a.auditdeny, a.seqno, a.flags])
    call("av_decision.allowed = -1", setattr, a, "allowed", -1)
    a.allowed = 0xffffffff
    call("av_decision.allowed", lambda: a.allowed)
    b = selinux.SELboolean()
    call("SELboolean()", lambda: [b.name, b.value])
    b.name = "bool"
    b.value = -3
    call("SELboolean set", lambda: [b.name, b.value])
    o = selinux.selinux_opt()
    call("selinux_opt()", lambda: [o.type, o.value])
    o.type = -1
    call("selinux_opt.type = -1", lambda: o.type)
    m = selinux.security_class_mapping()
    call("security_class_mapping().name", lambda: m.name)
    k = selinux.context_s_t()
    call("context_s_t().ptr", lambda: k.ptr)
    call("realpath_not_final", selinux.realpath_not_final, "/etc/passwd",
         "x" * 4096)
    c("selinux_set_mapping", None)
    c("security_load_booleans", None)
    c("selinux_file_context_verify", "/nonexistent", 0)
    c("selinux_lsetfilecon_default", "/nonexistent")
    call("print_access_vector(file, 0x3)", c_stdout,
         selinux.print_access_vector, 6, 3)


def c_stdout(f, *args):
    """What f(*args) writes to the C library's stdout."""
    import ctypes
    import tempfile
    libc = ctypes.CDLL(None)
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as t:
        os.dup2(t.fileno(), 1)
        try:
            f(*args)
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        t.seek(0)
        return t.read().decode()


def constants():
    names = sorted(n for n in dir(selinux)
                   if n.isupper() and not n.startswith("_") and
                   isinstance(getattr(selinux, n), (int, str)))
    for n in names:
        out.append("const %s = %r" % (n, getattr(selinux, n)))


def helpers(work, pol):
    d = os.path.join(work, "fc")
    for p in ("etc", "etc/sub", "bin", "none", "home/joe"):
        os.makedirs(os.path.join(d, p), exist_ok=True)
    for p in ("a", "etc/passwd", "etc/shadow", "bin/ls", "none/x",
              "home/joe/x", "x.y", "rel", "etc/sub/deep"):
        write(os.path.join(d, p), "")
    os.symlink("a", os.path.join(d, "lnk"))
    os.mkfifo(os.path.join(d, "run_fifo"))
    # labels restorecon must mend, keep or leave
    setx(os.path.join(d, "a"), "staff_u:object_r:user_t:s0")
    setx(os.path.join(d, "etc/passwd"), "system_u:object_r:etc_t:s0")
    setx(os.path.join(d, "rel"), "user_u:object_r:customized_t:s0")
    setx(os.path.join(d, "none/x"), "user_u:object_r:kept_t:s0")
    setx(os.path.join(d, "bin/ls"), "user_u:role_r:wrong_t:s1")

    selinux.selinux_set_policy_root(pol)
    call("restorecon(fc/a)", selinux.restorecon, os.path.join(d, "a"))
    out.append("labels after restorecon(fc/a): %s" % labels(d))
    call("restorecon(fc, recursive)", selinux.restorecon, d, True)
    out.append("labels after restorecon(recursive): %s" % labels(d))
    setx(os.path.join(d, "bin/ls"), "user_u:role_r:wrong_t:s1")
    call("restorecon(fc, recursive, force)", selinux.restorecon, d, True,
         False, True)
    out.append("labels after restorecon(force): %s" % labels(d))
    call("restorecon(missing)", selinux.restorecon,
         os.path.join(d, "missing"))
    call("restorecon(none/x)", selinux.restorecon, os.path.join(d, "none/x"))

    call("chcon(fc/etc, recursive)", selinux.chcon, os.path.join(d, "etc"),
         "u:r:chcon_t:s0", True)
    out.append("labels after chcon: %s" % labels(d))
    call("chcon(fc/a)", selinux.chcon, os.path.join(d, "a"), "u:r:one_t")
    call("chcon(missing)", selinux.chcon, os.path.join(d, "missing"), "u:r:t")
    out.append("labels after chcon(a): %s" % labels(d))

    call("copytree(fc/etc, fc/home/copy)", selinux.copytree,
         os.path.join(d, "etc"), os.path.join(d, "home/copy"))
    out.append("labels after copytree: %s" % labels(d))
    call("install(fc/home/copy, fc/bin/moved)", selinux.install,
         os.path.join(d, "home/copy"), os.path.join(d, "bin/moved"))
    out.append("labels after install: %s" % labels(d))


def local(work):
    es, pol = tree(work)
    files(work)
    process()
    paths(work, pol)
    matchpathcon(work)
    contexts()
    misc()
    constants()
    helpers(work, pol)


# ---------------------------------------------------------------------
# server
# ---------------------------------------------------------------------

CONTEXTS = ["system_u:system_r:sshd_t", "system_u:object_r:etc_t",
            "system_u:object_r:tmp_t", "user_u:user_r:user_t",
            "system_u:system_r:init_t", "staff_u:staff_r:staff_t",
            "staff_u:sysadm_r:sysadm_t",
            "unconfined_u:unconfined_r:unconfined_t",
            "system_u:object_r:shadow_t", "user_u:object_r:user_home_t",
            "system_u:object_r:sshd_exec_t", "system_u:object_r:security_t"]


def av(label, f, *args):
    a = selinux.av_decision()
    r = call(label, f, *(args + (a,)))
    if r is not None:
        out.append("  avd %x %x %x %x seqno=%d flags=%d" % (
            a.allowed, a.decided, a.auditallow, a.auditdeny, a.seqno,
            a.flags))


def server():
    selinux.set_selinuxmnt(os.environ["SELINUXFS_MNT"])
    # the MLS policy's contexts carry a level
    lv = ":s0" if selinux.is_selinux_mls_enabled() == 1 else ""
    global CONTEXTS
    CONTEXTS = [x + lv for x in CONTEXTS]
    SSHD, ETC, TMP, USER = CONTEXTS[:4]
    c("is_selinux_enabled")
    c("is_selinux_mls_enabled")
    c("security_getenforce")
    c("security_policyvers")
    c("security_deny_unknown")
    c("security_reject_unknown")
    c("security_get_checkreqprot")

    classes = ["file", "dir", "process", "security", "lnk_file",
               "unix_stream_socket", "tun_socket", "nosuchclass", ""]
    for cl in classes:
        c("string_to_security_class", cl)
    for n in range(0, 12):
        c("security_class_to_string", n)
    file_c = selinux.string_to_security_class("file")
    proc_c = selinux.string_to_security_class("process")
    for p in ("read", "write", "execute", "entrypoint", "nosuchperm"):
        c("string_to_av_perm", file_c, p)
    for bit in range(0, 24):
        c("security_av_perm_to_string", file_c, 1 << bit)
    for v in (0, 1, 6, 0xffff, 0xffffffff):
        c("security_av_string", file_c, v)
        c("security_av_string", proc_c, v)
    for m in (stat.S_IFREG, stat.S_IFDIR, stat.S_IFLNK, stat.S_IFCHR,
              stat.S_IFBLK, stat.S_IFIFO, stat.S_IFSOCK, 0):
        c("mode_to_security_class", m)

    for s in CONTEXTS + ["bad", "system_u:object_r:nosuch_t", "",
                         "user_u:object_r:etc_t", "system_u:object_r:etc_t:s0"]:
        c("security_check_context", s)
        c("security_check_context_raw", s)
        c("security_check_context", s + ":s0-s2:c0.c3")
        c("security_canonicalize_context", s)
        c("security_canonicalize_context_raw", s)

    for s in (SSHD, USER, CONTEXTS[5]):
        for t in CONTEXTS:
            for cl in ("file", "process", "dir", "security"):
                k = selinux.string_to_security_class(cl)
                lab = "(%s, %s, %s)" % (s, t, cl)
                av("security_compute_av" + lab, selinux.security_compute_av,
                   s, t, k, 0xffffffff)
                av("security_compute_av_flags" + lab,
                   selinux.security_compute_av_flags, s, t, k, 0xffffffff)
                c("security_compute_create", s, t, k)
                c("security_compute_relabel", s, t, k)
                c("security_compute_member", s, t, k)
    av("security_compute_av_raw", selinux.security_compute_av_raw, SSHD, ETC,
       file_c, 2)
    av("security_compute_av_flags_raw", selinux.security_compute_av_flags_raw,
       SSHD, ETC, file_c, 2)
    av("security_compute_av(bad)", selinux.security_compute_av, "bad", ETC,
       file_c, 2)
    av("security_compute_av(class 0)", selinux.security_compute_av, SSHD, ETC,
       0, 2)
    for name in ("sshd.pid", "other.pid", ""):
        c("security_compute_create_name", SSHD, TMP, file_c, name)
        c("security_compute_create_name_raw", SSHD, TMP, file_c, name)
    c("security_compute_create_raw", SSHD, TMP, file_c)
    c("security_compute_relabel_raw", USER, "user_u:object_r:tty_t" + lv,
      file_c)
    c("security_compute_member_raw", SSHD, TMP, file_c)
    c("security_compute_create", "bad", TMP, file_c)
    for u in ("root", "user_u", "staff_u", "unconfined_u", "system_u",
              "nosuch"):
        c("security_compute_user", SSHD, u)
        c("security_compute_user_raw", SSHD, u)
    c("security_compute_user", "bad", "root")
    for args in ((ETC, ETC, file_c, ETC), (USER, ETC, file_c, TMP),
                 ("bad", ETC, file_c, ETC)):
        c("security_validatetrans", *args)
        c("security_validatetrans_raw", *args)
    for n in ("kernel", "security", "unlabeled", "file", "nosuch", ""):
        c("security_get_initial_context", n)
        c("security_get_initial_context_raw", n)

    c("security_get_boolean_names")
    for b in ("ssh_sysadm_login", "allow_user_exec_tmp", "nosuch"):
        c("security_get_boolean_active", b)
        c("security_get_boolean_pending", b)
    c("security_set_boolean", "ssh_sysadm_login", 1)
    c("security_get_boolean_pending", "ssh_sysadm_login")
    c("security_get_boolean_active", "ssh_sysadm_login")
    c("security_compute_user", SSHD, "staff_u")
    c("security_commit_booleans")
    c("security_get_boolean_active", "ssh_sysadm_login")
    c("security_compute_user", SSHD, "staff_u")
    c("security_set_boolean", "nosuch", 1)
    b = selinux.SELboolean()
    b.name = "allow_user_exec_tmp"
    b.value = 0
    call("security_set_boolean_list(allow_user_exec_tmp=0)",
         selinux.security_set_boolean_list, 1, b, 0)
    c("security_get_boolean_active", "allow_user_exec_tmp")
    av("security_compute_av(user_t exec user_tmp_t)",
       selinux.security_compute_av, USER,
       "user_u:object_r:user_tmp_t" + lv, file_c, 0xffffffff)
    b.name = "nosuch"
    call("security_set_boolean_list(nosuch)",
         selinux.security_set_boolean_list, 1, b, 0)

    c("security_setenforce", 1)
    c("security_getenforce")
    av("security_compute_av(enforcing)", selinux.security_compute_av, SSHD,
       ETC, file_c, 0xffffffff)
    c("security_setenforce", 0)
    c("security_getenforce")
    c("security_setenforce", 2)
    c("security_getenforce")
    c("selinux_flush_class_cache")
    c("string_to_security_class", "file")
    avc(CONTEXTS, file_c)
    login(SSHD)


def login(sshd):
    """The login calls (get_context_list.h) on the server's policy and its
    /etc/selinux tree ($CALLS_POLICY_ROOT): the contexts a user may reach
    from sshd, as lists (Debian's module returns the list alone)."""
    root = os.environ.get("CALLS_POLICY_ROOT")
    if not root or not os.path.isdir(root):
        out.append("login: no policy tree %r" % root)
        return
    c("selinux_set_policy_root", root)
    for u in ("root", "staff_u", "user_u", "unconfined_u", "nosuch"):
        c("get_ordered_context_list", u, sshd)
        c("get_ordered_context_list_with_level", u, "s0", sshd)
        c("get_ordered_context_list_with_level", u, "s0-s1", sshd)
        c("get_default_context", u, sshd)
        c("get_default_context_with_level", u, "s0", sshd)
        c("get_default_context_with_role", u, "staff_r", sshd)
        c("get_default_context_with_rolelevel", u, "sysadm_r", "s0", sshd)
    c("get_ordered_context_list", "root", "bad")


def avc(contexts, file_c):
    """The userspace AVC and the status page on the same server."""
    def sid(ctx):
        r = call("avc_context_to_sid(%r)" % ctx, selinux.avc_context_to_sid,
                 ctx)
        return r[1] if r else None

    c("selinux_status_open", 0)
    for fn in ("selinux_status_updated", "selinux_status_getenforce",
               "selinux_status_policyload", "selinux_status_deny_unknown"):
        c(fn)
    call("avc_open(None, 0)", selinux.avc_open, None, 0)
    sids = [sid(x) for x in contexts] + [sid("bad")]
    for x, s_ in zip(contexts, sids):
        if s_ is not None:
            # refcnt: always 1 in 3.4, the SID's number (its id) in 3.8
            # and later and here; a deliberate difference, see avc.h.
            call("security_id(%r) fields" % x,
                 lambda: [s_.ctx, s_.refcnt > 0])
            call("avc_sid_to_context(%r)" % x, selinux.avc_sid_to_context, s_)
            call("avc_sid_to_context_raw(%r)" % x,
                 selinux.avc_sid_to_context_raw, s_)
    for n in ("kernel", "security", "nosuch"):
        r = call("avc_get_initial_sid(%r)" % n, selinux.avc_get_initial_sid, n)
        if r:
            call("  its context", lambda: selinux.avc_sid_to_context(r[1]))
    ae = selinux.avc_entry_ref()
    call("avc_entry_ref().ae", lambda: ae.ae)
    proc_c = selinux.string_to_security_class("process")
    for i, s_ in enumerate(sids[:4]):
        for j, t_ in enumerate(sids):
            if s_ is None or t_ is None:
                continue
            for k, req in ((file_c, 0x2), (file_c, 0x4), (proc_c, 0x1),
                           (file_c, 0)):
                lab = "(%d, %d, %d, %#x)" % (i, j, k, req)
                call("avc_has_perm" + lab, selinux.avc_has_perm, s_, t_, k,
                     req, ae)
                a = selinux.av_decision()
                call("avc_has_perm_noaudit" + lab,
                     selinux.avc_has_perm_noaudit, s_, t_, k, req, None, a)
                out.append("  avd %x %x %x" % (a.allowed, a.decided,
                                              a.auditallow))
                c("avc_compute_create", s_, t_, k)
                c("avc_compute_member", s_, t_, k)
    for args in ((contexts[0], contexts[1], "file", "read"),
                 (contexts[0], contexts[1], "file", "write"),
                 (contexts[3], contexts[8], "file", "read"),
                 (contexts[0], contexts[1], "nosuch", "read"),
                 (contexts[0], contexts[1], "file", "nosuch"),
                 ("bad", contexts[1], "file", "read")):
        c("selinux_check_access", *args)
    c("selinux_check_passwd_access", 1)
    c("checkPasswdAccess", 2)
    c("sidget", sids[0])
    c("sidput", sids[0])
    c("security_setenforce", 1)
    c("selinux_status_updated")
    c("selinux_status_getenforce")
    c("selinux_status_updated")
    for args in ((contexts[3], contexts[8], "file", "read"),
                 (contexts[0], contexts[1], "file", "read")):
        c("selinux_check_access", *args)
    c("security_setenforce", 0)
    c("avc_reset")
    c("avc_cleanup")
    c("selinux_status_close")
    c("avc_destroy")


def main():
    global selinux
    section, work = sys.argv[1], sys.argv[2]
    if section == "tree":
        tree(work)
        return
    import selinux as module
    selinux = module
    if section == "local":
        local(work)
    else:
        server()
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
