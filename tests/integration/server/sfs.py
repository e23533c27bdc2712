"""What the server's Python tests (server_test.py, stress.py, hostile.py)
share: the files of the selinuxfs mount with-server.sh made
(SELINUXFS_MNT), read, written and asked as a client does, and a client
that is not root."""
import os

MNT = os.environ["SELINUXFS_MNT"]


def path(name):
    return os.path.join(MNT, name)


def read(name):
    with open(path(name), "rb") as f:
        return f.read()


def write(name, data, offset=None):
    """None on success, else the errno of the open or the write."""
    try:
        fd = os.open(path(name), os.O_WRONLY)
    except OSError as e:
        return e.errno
    try:
        if offset is None:
            os.write(fd, data)
        else:
            os.pwrite(fd, data, offset)
        return None
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)


def transact(name, req):
    """(errno or None, answer) of a write then a read on one open file."""
    fd = os.open(path(name), os.O_RDWR)
    try:
        try:
            os.write(fd, req)
        except OSError as e:
            return e.errno, b""
        return None, os.read(fd, 65536)
    finally:
        os.close(fd)


def as_nobody(fn):
    """fn() in a child with uid/gid 65534; its exit code."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setresgid(65534, 65534, 65534)
            os.setresuid(65534, 65534, 65534)
            os._exit(fn())
        except BaseException:
            os._exit(100)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
