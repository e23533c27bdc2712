#!/usr/bin/env python3
"""Our compute utilities beside Debian's selinux-utils, on one live mount.

Run under tests/lib/with-server.sh (its mount namespace holds only that
server, so both sets of programs find it through /proc/self/mountinfo).
Usage: utils.py OURS_UTILS_DIR
Stdout, stderr (program path replaced by its name) and exit status must
be equal; togglesebool is compared on the same starting state.
"""
import os
import subprocess
import sys

S = "system_u:system_r:sshd_t"
T = "system_u:object_r:etc_t"
CASES = [
    ["compute_av", S, T, "file"],
    ["compute_av", S, "system_u:object_r:shadow_t", "file"],
    ["compute_av", "user_u:user_r:user_t", "system_u:object_r:shadow_t",
     "file"],
    ["compute_av", S, "user_u:user_r:user_t", "process"],
    ["compute_av", S, T, "nope"],
    ["compute_av", "bad", T, "file"],
    ["compute_av", S, "bad", "file"],
    ["compute_av", S],
    ["compute_create", S, "system_u:object_r:tmp_t", "file"],
    ["compute_create", "system_u:system_r:init_t",
     "system_u:object_r:sshd_exec_t", "process"],
    ["compute_create", S, T, "nope"],
    ["compute_create", "bad", T, "file"],
    ["compute_member", "user_u:user_r:user_t", "system_u:object_r:tmp_t",
     "dir"],
    ["compute_member", S, T],
    ["compute_relabel", "user_u:user_r:user_t",
     "system_u:object_r:devpts_t", "chr_file"],
    ["compute_relabel", S, "bad", "chr_file"],
    ["validatetrans", S, T, "nope", T],
    ["validatetrans", "bad", T, "file", T],
    ["validatetrans", S, T, "file", "bad"],
    ["validatetrans", S],
    ["getsebool", "-a"],
    ["getsebool", "ssh_sysadm_login"],
    ["getsebool", "ssh_sysadm_login", "allow_user_exec_tmp"],
    ["getsebool", "nope"],
    ["getsebool"],
    ["togglesebool"],
    ["togglesebool", "nope"],
]


def run(prog, args):
    r = subprocess.run([prog] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    name = os.path.basename(prog)
    return (r.returncode, r.stdout.replace(prog, name),
            r.stderr.replace(prog, name))


def compare(label, ref, ours):
    if ref == ours:
        return True
    print("FAIL: %s\n  Debian's: %r\n  ours:     %r" % (label, ref, ours))
    return False


def main():
    if not os.environ.get("SELINUXFS_MNT"):
        return 77
    ours_dir = sys.argv[1]
    ok = True
    n = 0
    for case in CASES:
        ref = run("/usr/sbin/" + case[0], case[1:])
        ours = run(os.path.join(ours_dir, case[0]), case[1:])
        ok &= compare(" ".join(case), ref, ours)
        n += 1
    # togglesebool: Debian's flips, ours flips back, ours again, Debian's
    # back; runs 1 and 3, 2 and 4 start from the same state.
    args = ["ssh_sysadm_login", "allow_user_exec_tmp"]
    deb, our = "/usr/sbin/togglesebool", os.path.join(ours_dir,
                                                      "togglesebool")
    r1 = run(deb, args)
    r2 = run(our, args)
    r3 = run(our, args)
    r4 = run(deb, args)
    ok &= compare("togglesebool (from the defaults)", r1, r3)
    ok &= compare("togglesebool (from the flipped)", r4, r2)
    n += 2
    print("%d comparisons" % n)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
