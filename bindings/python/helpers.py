
# The pure-Python helpers of the established module (restorecon, chcon,
# copytree, install), written on the calls above.  selinux_restorecon() is
# not in this tree's library yet, so restorecon() walks the tree itself:
# matchpathcon() gives each file's default context, lgetfilecon_raw() its
# current one, lsetfilecon() applies the change.


def _customizable_types():
    """The types listed in customizable_types: restorecon leaves files of
    these types alone unless forced (restorecon(8), -F)."""
    try:
        with open(selinux_customizable_types_path()) as f:
            return {line.strip() for line in f
                    if line.strip() and not line.startswith("#")}
    except OSError:
        return set()


def _restorecon_one(path, force, verbose, customizable):
    """Relabel one file; True when done (or nothing to do), False on an
    error that was reported."""
    mode = os.lstat(path).st_mode
    try:
        spec = matchpathcon(path, mode)[1]
    except FileNotFoundError:
        # no spec, or <<none>>: the file keeps its label
        return True
    try:
        cur = lgetfilecon_raw(path)[1]
    except OSError as e:
        if e.errno not in (errno.ENODATA, errno.ENOTSUP):
            raise
        cur = None
    new = spec
    if cur is not None and not force:
        # Without force only the type changes (selinux_restorecon(3),
        # SELINUX_RESTORECON_SET_SPECFILE_CTX), and customizable types
        # are kept.
        ctx = context_new(cur)
        if ctx is None:
            sys.stderr.write("Could not set context for %s:  %s\n" %
                             (path, os.strerror(errno.EINVAL)))
            return False
        try:
            if context_type_get(ctx) in customizable:
                return True
            spec_ctx = context_new(spec)
            if spec_ctx is None:
                return True
            try:
                context_type_set(ctx, context_type_get(spec_ctx))
            finally:
                context_free(spec_ctx)
            new = context_str(ctx)
        finally:
            context_free(ctx)
    if new == cur:
        return True
    try:
        lsetfilecon(path, new)
    except OSError as e:
        sys.stderr.write("Could not set context for %s:  %s\n" %
                         (path, e.strerror))
        return False
    if verbose:
        sys.stderr.write("Relabeled %s from %s to %s\n" %
                         (path, cur if cur is not None else "(null)", new))
    return True


def restorecon(path, recursive=False, verbose=False, force=False, nthreads=1):
    """ Restore SELinux context on a given path

    Arguments:
    path -- The pathname for the file or directory to be relabeled.

    Keyword arguments:
    recursive -- Change files and directories file labels recursively (default False)
    verbose -- Show changes in file labels (default False)
    force -- Force reset of context to match file_context for customizable files,
    and the default file context, changing the user, role, range portion  as well
    as the type (default False)
    nthreads -- accepted for compatibility; the files are relabeled one
    after the other (default 1)

    Raises OSError when path does not exist, or after the walk when a file
    could not be relabeled (each such file is reported on stderr).
    """
    top = os.path.realpath(os.path.expanduser(path))
    customizable = set() if force else _customizable_types()
    os.lstat(top)  # a missing path is an error, before anything changes
    ok = _restorecon_one(top, force, verbose, customizable)
    if recursive and os.path.isdir(top) and not os.path.islink(top):
        for root, dirs, files in os.walk(top):
            for name in dirs + files:
                ok = _restorecon_one(os.path.join(root, name), force,
                                     verbose, customizable) and ok
    if not ok:
        raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))


def chcon(path, context, recursive=False):
    """ Set the SELinux context on a given path """
    lsetfilecon(path, context)
    if recursive:
        for root, dirs, files in os.walk(path):
            for name in dirs + files:
                lsetfilecon(os.path.join(root, name), context)


def copytree(src, dest):
    """ An SELinux-friendly shutil.copytree method """
    shutil.copytree(src, dest)
    restorecon(dest, recursive=True)


def install(src, dest):
    """ An SELinux-friendly shutil.move method """
    shutil.move(src, dest)
    restorecon(dest, recursive=True)
