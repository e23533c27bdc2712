#!/usr/bin/python3
"""expect.py local|server  (with our module first on sys.path)

Hand-written expectations for our `selinux` module: each test states a
literal taken from the man pages, the fixture this file writes, or
kernel/policy/facts.txt (the bundled policy's decisions, derived by hand),
never from running the code under test.

local  needs root (security.selinux xattrs on a temporary tree);
server runs under tests/lib/with-server.sh on bundled.33 ($SELINUXFS_MNT).
"""
import errno
import os
import shutil
import stat
import sys
import tempfile
import unittest

import selinux

FC = """\
@W@/fc(/.*)?		system_u:object_r:fc_t:s0
@W@/fc/etc(/.*)?	system_u:object_r:etc_t:s0
@W@/fc/etc/shadow	--	system_u:object_r:shadow_t:s0
@W@/fc/bin(/.*)?	-d	system_u:object_r:bin_dir_t:s0
@W@/fc/none(/.*)?	<<none>>
@W@/fc/rel		system_u:object_r:customized_t:s0
"""


def xattr(path):
    return os.getxattr(path, "security.selinux", follow_symlinks=False)


def setx(path, ctx):
    os.setxattr(path, "security.selinux", ctx.encode() + b"\0",
                follow_symlinks=False)


class Local(unittest.TestCase):
    def setUp(self):
        self.w = tempfile.mkdtemp(prefix="bindings-expect-")
        self.root = os.path.join(self.w, "etc/selinux/expect")
        os.makedirs(os.path.join(self.root, "contexts/files"))
        self.fc = os.path.join(self.root, "contexts/files/file_contexts")
        with open(self.fc, "w") as f:
            f.write(FC.replace("@W@", self.w))
        with open(os.path.join(self.root, "contexts/customizable_types"),
                  "w") as f:
            f.write("customized_t\n")
        self.f = os.path.join(self.w, "f")
        open(self.f, "w").close()
        setx(self.f, "system_u:object_r:etc_t:s0")

    def tearDown(self):
        shutil.rmtree(self.w)
        selinux.matchpathcon_fini()

    def assertOSError(self, err, f, *args):
        with self.assertRaises(OSError) as cm:
            f(*args)
        self.assertEqual(cm.exception.errno, err)

    # getfilecon(3): the size of the attribute, its terminating NUL counted
    def test_getfilecon_returns_size_and_context(self):
        self.assertEqual(selinux.getfilecon(self.f),
                         [27, "system_u:object_r:etc_t:s0"])
        self.assertEqual(selinux.getfilecon_raw(self.f),
                         [27, "system_u:object_r:etc_t:s0"])

    def test_getfilecon_missing_raises_enoent(self):
        with self.assertRaises(FileNotFoundError) as cm:
            selinux.getfilecon(os.path.join(self.w, "missing"))
        self.assertEqual(cm.exception.errno, errno.ENOENT)

    def test_getfilecon_unlabeled_raises_enodata(self):
        g = os.path.join(self.w, "g")
        open(g, "w").close()
        self.assertOSError(errno.ENODATA, selinux.getfilecon, g)

    def test_lgetfilecon_reads_the_link(self):
        link = os.path.join(self.w, "link")
        os.symlink("f", link)
        setx(link, "system_u:object_r:lnk_t:s0")
        self.assertEqual(selinux.lgetfilecon(link)[1],
                         "system_u:object_r:lnk_t:s0")
        self.assertEqual(selinux.getfilecon(link)[1],
                         "system_u:object_r:etc_t:s0")

    def test_setfilecon_writes_the_xattr_with_nul(self):
        self.assertEqual(selinux.setfilecon(self.f, "u:r:new_t:s0"), 0)
        self.assertEqual(xattr(self.f), b"u:r:new_t:s0\0")

    def test_fgetfilecon_fsetfilecon(self):
        fd = os.open(self.f, os.O_RDONLY)
        try:
            self.assertEqual(selinux.fgetfilecon(fd),
                             [27, "system_u:object_r:etc_t:s0"])
            self.assertEqual(selinux.fsetfilecon(fd, "a:b:c"), 0)
            self.assertEqual(xattr(self.f), b"a:b:c\0")
        finally:
            os.close(fd)
        self.assertOSError(errno.EBADF, selinux.fgetfilecon, -1)

    def test_pid_is_unsigned(self):
        with self.assertRaises(OverflowError):
            selinux.getpidcon(-1)

    def test_string_arguments_only(self):
        with self.assertRaises(TypeError):
            selinux.getfilecon(b"/etc")

    @unittest.skipIf(os.path.isdir("/sys/fs/selinux/class"),
                     "a kernel with SELinux")
    def test_process_attributes_einval_without_selinux(self):
        # design.md: /proc/self/attr/* answer EINVAL on this kernel
        self.assertOSError(errno.EINVAL, selinux.getcon)
        self.assertOSError(errno.EINVAL, selinux.getexeccon)
        self.assertOSError(errno.EINVAL, selinux.setfscreatecon, "a:b:c")

    # selinux_set_policy_root(3) and the path functions' fixed layout
    def test_policy_root_paths(self):
        self.assertEqual(selinux.selinux_set_policy_root(self.root), 0)
        self.assertEqual(selinux.selinux_policy_root(), self.root)
        self.assertEqual(selinux.selinux_file_context_path(),
                         self.root + "/contexts/files/file_contexts")
        self.assertEqual(selinux.selinux_media_context_path(),
                         self.root + "/contexts/files/media")
        self.assertEqual(selinux.selinux_binary_policy_path(),
                         self.root + "/policy/policy")
        self.assertEqual(selinux.selinux_customizable_types_path(),
                         self.root + "/contexts/customizable_types")
        self.assertEqual(selinux.selinux_getpolicytype(), [0, "expect"])

    def test_matchpathcon(self):
        self.assertEqual(selinux.matchpathcon_init(self.fc), 0)
        w = self.w
        self.assertEqual(selinux.matchpathcon(w + "/fc/etc/shadow",
                                              stat.S_IFREG),
                         [0, "system_u:object_r:shadow_t:s0"])
        self.assertEqual(selinux.matchpathcon(w + "/fc/etc/shadow",
                                              stat.S_IFDIR),
                         [0, "system_u:object_r:etc_t:s0"])
        self.assertEqual(selinux.matchpathcon(w + "/fc/bin", stat.S_IFDIR),
                         [0, "system_u:object_r:bin_dir_t:s0"])
        self.assertEqual(selinux.matchpathcon(w + "/fc/bin", stat.S_IFREG),
                         [0, "system_u:object_r:fc_t:s0"])
        self.assertOSError(errno.ENOENT, selinux.matchpathcon,
                           w + "/fc/none/x", 0)
        self.assertOSError(errno.ENOENT, selinux.matchpathcon,
                           w + "/elsewhere", 0)

    def test_selabel(self):
        o = selinux.selinux_opt()
        o.type = selinux.SELABEL_OPT_PATH
        o.value = self.fc
        h = selinux.selabel_open(selinux.SELABEL_CTX_FILE, o, 1)
        self.assertIsNotNone(h)
        try:
            self.assertEqual(
                selinux.selabel_lookup(h, self.w + "/fc/etc/x", 0),
                [0, "system_u:object_r:etc_t:s0"])
            self.assertEqual(
                selinux.selabel_lookup_best_match(h, self.w + "/fc/a", 0),
                [0, "system_u:object_r:fc_t:s0", None])
            self.assertIs(selinux.selabel_partial_match(h, self.w + "/fc"),
                          True)
            self.assertOSError(errno.ENOENT, selinux.selabel_lookup, h,
                               "/elsewhere", 0)
        finally:
            selinux.selabel_close(h)

    # context_new(3)
    def test_context(self):
        c = selinux.context_new("u:r:t:s0-s1:c0")
        self.assertEqual([selinux.context_user_get(c),
                          selinux.context_role_get(c),
                          selinux.context_type_get(c),
                          selinux.context_range_get(c)],
                         ["u", "r", "t", "s0-s1:c0"])
        self.assertEqual(selinux.context_type_set(c, "x_t"), 0)
        self.assertEqual(selinux.context_str(c), "u:r:x_t:s0-s1:c0")
        self.assertOSError(errno.EINVAL, selinux.context_user_set, c, "a:b")
        selinux.context_free(c)
        self.assertIsNone(selinux.context_new("bad"))

    def test_file_context_cmp_returns_minus_one(self):
        # an ordering, not an error: no exception; the user is ignored
        self.assertEqual(selinux.selinux_file_context_cmp("a:b:c", "a:b:d"),
                         -1)
        self.assertEqual(selinux.selinux_file_context_cmp("a:b:c", "x:b:c"),
                         0)

    # the values of selinux.h, label.h and avc.h
    def test_constants(self):
        s = selinux
        self.assertEqual([s.SELINUX_CB_LOG, s.SELINUX_CB_AUDIT,
                          s.SELINUX_CB_VALIDATE, s.SELINUX_CB_SETENFORCE,
                          s.SELINUX_CB_POLICYLOAD], [0, 1, 2, 3, 4])
        self.assertEqual([s.SELABEL_CTX_FILE, s.SELABEL_CTX_MEDIA,
                          s.SELABEL_OPT_PATH, s.SELABEL_OPT_DIGEST],
                         [0, 1, 3, 5])
        self.assertEqual(s.MATCHPATHCON_NOTRANS, 2)
        self.assertEqual(s.SELINUX_TRANS_DIR, "/var/run/setrans")
        self.assertEqual(s.SELINUX_DEFAULTUSER, "user_u")
        self.assertEqual([s.DISABLED, s.PERMISSIVE, s.ENFORCING], [-1, 0, 1])
        self.assertEqual(s.SELINUX_AVD_FLAGS_PERMISSIVE, 1)
        self.assertEqual(s.AVC_CALLBACK_RESET, 8)

    def test_structures(self):
        a = selinux.av_decision()
        self.assertEqual([a.allowed, a.decided, a.seqno], [0, 0, 0])
        with self.assertRaises(OverflowError):
            a.allowed = -1
        o = selinux.selinux_opt()
        o.type = -1  # a field, not a result: no exception
        self.assertEqual(o.type, -1)

    # restorecon(8): without -F only the type changes and customizable
    # types stay; with -F the whole context is the spec's
    def test_restorecon(self):
        d = os.path.join(self.w, "fc")
        os.makedirs(os.path.join(d, "etc"))
        for n in ("a", "rel", "etc/shadow"):
            open(os.path.join(d, n), "w").close()
        setx(os.path.join(d, "a"), "staff_u:object_r:user_t:s0")
        setx(os.path.join(d, "rel"), "user_u:object_r:customized_t:s0")
        selinux.selinux_set_policy_root(self.root)
        selinux.restorecon(d, recursive=True)
        self.assertEqual(xattr(d), b"system_u:object_r:fc_t:s0\0")
        self.assertEqual(xattr(os.path.join(d, "a")),
                         b"staff_u:object_r:fc_t:s0\0")
        self.assertEqual(xattr(os.path.join(d, "rel")),
                         b"user_u:object_r:customized_t:s0\0")
        self.assertEqual(xattr(os.path.join(d, "etc/shadow")),
                         b"system_u:object_r:shadow_t:s0\0")
        selinux.restorecon(os.path.join(d, "a"), force=True)
        self.assertEqual(xattr(os.path.join(d, "a")),
                         b"system_u:object_r:fc_t:s0\0")
        with self.assertRaises(FileNotFoundError):
            selinux.restorecon(os.path.join(d, "missing"))

    def test_chcon_recursive(self):
        d = os.path.join(self.w, "tree")
        os.makedirs(os.path.join(d, "sub"))
        open(os.path.join(d, "sub/x"), "w").close()
        selinux.chcon(d, "u:r:chcon_t", recursive=True)
        for p in (d, os.path.join(d, "sub"), os.path.join(d, "sub/x")):
            self.assertEqual(xattr(p), b"u:r:chcon_t\0")


SSHD = "system_u:system_r:sshd_t"
TMP = "system_u:object_r:tmp_t"
ETC = "system_u:object_r:etc_t"


class Server(unittest.TestCase):
    """kernel/policy/facts.txt and bundled.conf.in, on bundled.33."""

    @classmethod
    def setUpClass(cls):
        selinux.set_selinuxmnt(os.environ["SELINUXFS_MNT"])

    def assertOSError(self, err, f, *args):
        with self.assertRaises(OSError) as cm:
            f(*args)
        self.assertEqual(cm.exception.errno, err)

    def test_1_state(self):
        self.assertEqual(selinux.is_selinux_enabled(), 1)
        self.assertEqual(selinux.is_selinux_mls_enabled(), 0)
        self.assertEqual(selinux.security_policyvers(), 33)
        self.assertEqual(selinux.security_getenforce(), 0)
        self.assertEqual(selinux.security_deny_unknown(), 1)

    def test_classes_in_kernel_order(self):
        self.assertEqual(selinux.string_to_security_class("file"), 6)
        self.assertEqual(selinux.string_to_security_class("process"), 2)
        # the library knows the classes it has looked up (as the
        # reference does): dir first
        self.assertEqual(selinux.string_to_security_class("dir"), 7)
        self.assertEqual(selinux.security_class_to_string(7), "dir")
        self.assertEqual(selinux.string_to_av_perm(6, "read"), 2)
        self.assertEqual(selinux.security_av_string(6, 7),
                         [0, "{ ioctl read write }"])

    def test_check_context(self):
        self.assertEqual(selinux.security_check_context(ETC), 0)
        self.assertOSError(errno.EINVAL, selinux.security_check_context,
                           "bad")

    def test_compute_create(self):
        self.assertEqual(selinux.security_compute_create(SSHD, TMP, 6),
                         [0, "system_u:object_r:sshd_tmp_t"])
        self.assertEqual(
            selinux.security_compute_create_name(SSHD, TMP, 6, "sshd.pid"),
            [0, "system_u:object_r:sshd_pid_t"])
        self.assertEqual(
            selinux.security_compute_create_name(SSHD, TMP, 6, "other.pid"),
            [0, "system_u:object_r:sshd_tmp_t"])

    def test_compute_av(self):
        a = selinux.av_decision()
        read = selinux.string_to_av_perm(6, "read")
        write = selinux.string_to_av_perm(6, "write")
        self.assertEqual(selinux.security_compute_av(SSHD, ETC, 6,
                                                     read | write, a), 0)
        self.assertTrue(a.allowed & read)
        self.assertFalse(a.allowed & write)

    def test_compute_user(self):
        self.assertEqual(selinux.security_compute_user(SSHD, "user_u"),
                         [0, ["user_u:user_r:user_t"]])
        self.assertEqual(selinux.security_compute_user(SSHD, "root"),
                         [0, ["root:staff_r:staff_t",
                              "root:unconfined_r:unconfined_t"]])
        self.assertEqual(selinux.security_compute_user(SSHD, "system_u"),
                         [0, []])

    def test_2_booleans(self):
        r = selinux.security_get_boolean_names()
        self.assertEqual([r[0], sorted(r[1])],
                         [0, ["allow_user_exec_tmp", "ssh_sysadm_login"]])
        self.assertEqual(selinux.security_get_boolean_active(
            "ssh_sysadm_login"), 0)
        self.assertEqual(selinux.security_get_boolean_active(
            "allow_user_exec_tmp"), 1)
        self.assertOSError(errno.ENOENT, selinux.security_get_boolean_active,
                           "nosuch")
        self.assertEqual(selinux.security_set_boolean("ssh_sysadm_login", 1),
                         0)
        self.assertEqual(selinux.security_get_boolean_pending(
            "ssh_sysadm_login"), 1)
        self.assertEqual(selinux.security_get_boolean_active(
            "ssh_sysadm_login"), 0)
        self.assertEqual(selinux.security_commit_booleans(), 0)
        self.assertEqual(selinux.security_compute_user(SSHD, "staff_u"),
                         [0, ["staff_u:staff_r:staff_t",
                              "staff_u:sysadm_r:sysadm_t"]])
        b = selinux.SELboolean()
        b.name = "ssh_sysadm_login"
        b.value = 0
        self.assertEqual(selinux.security_set_boolean_list(1, b, 0), 0)
        self.assertEqual(selinux.security_compute_user(SSHD, "staff_u"),
                         [0, ["staff_u:staff_r:staff_t"]])

    def test_3_enforcing_and_access(self):
        shadow = "system_u:object_r:shadow_t"
        user = "user_u:user_r:user_t"
        self.assertEqual(selinux.selinux_status_open(0), 0)
        self.assertEqual(selinux.selinux_check_access(user, shadow, "file",
                                                      "read"), 0)
        self.assertEqual(selinux.security_setenforce(1), 0)
        self.assertEqual(selinux.security_getenforce(), 1)
        self.assertEqual(selinux.selinux_status_getenforce(), 1)
        self.assertEqual(selinux.selinux_check_access(SSHD, ETC, "file",
                                                      "read"), 0)
        with self.assertRaises(PermissionError):
            selinux.selinux_check_access(user, shadow, "file", "read")
        self.assertEqual(selinux.security_setenforce(0), 0)
        selinux.selinux_status_close()

    def test_4_load_policy(self):
        # the loaded policy, read back from selinuxfs's policy file, loads
        # again and counts as one more load; junk is EINVAL
        with open(os.environ["SELINUXFS_MNT"] + "/policy", "rb") as f:
            data = f.read()
        self.assertEqual(selinux.selinux_status_open(0), 0)
        before = selinux.selinux_status_policyload()
        self.assertEqual(selinux.security_load_policy(data), 0)
        self.assertEqual(selinux.selinux_status_policyload(), before + 1)
        self.assertOSError(errno.EINVAL, selinux.security_load_policy,
                           b"junk")
        with self.assertRaises(TypeError):
            selinux.security_load_policy("a str is not a policy")
        selinux.selinux_status_close()

    def test_avc_sids(self):
        self.assertEqual(selinux.avc_open(None, 0), 0)
        rc, sid = selinux.avc_context_to_sid(SSHD)
        self.assertEqual(rc, 0)
        self.assertEqual(sid.ctx, SSHD)
        self.assertEqual(selinux.avc_sid_to_context(sid), [0, SSHD])
        rc, ksid = selinux.avc_get_initial_sid("kernel")
        self.assertEqual(selinux.avc_sid_to_context(ksid),
                         [0, "system_u:system_r:kernel_t"])
        selinux.avc_destroy()


def main():
    cls = Local if sys.argv[1] == "local" else Server
    if cls is Local and os.geteuid() != 0:
        print("setting security.selinux needs root; skipping")
        return 77
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(cls)
    r = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    return 0 if r.wasSuccessful() else 1


sys.exit(main())
