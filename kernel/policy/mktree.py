#!/usr/bin/env python3
"""Assemble the /etc/selinux trees of the bundled policies.

    mktree.py SRC_TREE ROOT NONMLS_POLICY MLS_POLICY STAMP

Writes ROOT/etc/selinux/bundled/ and ROOT/etc/selinux/bundled-mls/ (every
file of SRC_TREE expanded by gen.py for its variant, plus policy/policy.33),
ROOT/etc/selinux/config (SELINUXTYPE=bundled) and
ROOT/etc/selinux/config.bundled-mls (SELINUXTYPE=bundled-mls), then STAMP.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

CONFIG = """# This file controls the state of SELinux on the system.
SELINUX=enforcing
SELINUXTYPE=%s
"""


def build(src, dest, policy, mls):
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    for dirpath, _dirs, names in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        outdir = os.path.normpath(os.path.join(dest, rel))
        os.makedirs(outdir, exist_ok=True)
        for name in sorted(names):
            with open(os.path.join(dirpath, name)) as f:
                lines = gen.expand(f.readlines(), mls)
            with open(os.path.join(outdir, name), 'w') as f:
                f.writelines(lines)
    os.makedirs(os.path.join(dest, 'policy'), exist_ok=True)
    shutil.copyfile(policy, os.path.join(dest, 'policy', 'policy.33'))


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    src, root, policy, mls_policy, stamp = sys.argv[1:]
    etc = os.path.join(root, 'etc', 'selinux')
    os.makedirs(etc, exist_ok=True)
    build(src, os.path.join(etc, 'bundled'), policy, False)
    build(src, os.path.join(etc, 'bundled-mls'), mls_policy, True)
    with open(os.path.join(etc, 'config'), 'w') as f:
        f.write(CONFIG % 'bundled')
    with open(os.path.join(etc, 'config.bundled-mls'), 'w') as f:
        f.write(CONFIG % 'bundled-mls')
    with open(stamp, 'w') as f:
        f.write(etc + '\n')


if __name__ == '__main__':
    main()
