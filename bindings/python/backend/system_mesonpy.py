"""The build backend of pyproject.toml: meson-python, the system's own
copy when there is one.

`pip install .` builds in an isolated environment: it installs the
backend that [build-system] requires from the package index first.  With
no index (offline, or a Debian mirror only) that fails, although Debian's
python3-mesonpy is installed: a virtualenv does not see the system's
dist-packages.  So pyproject.toml requires nothing, and this module
delegates each hook to meson-python found, in order,

  1. on sys.path (pip installed it in the build environment, or the
     venv sees it: --no-build-isolation, --system-site-packages);
  2. in the system Python's dist-packages (Debian's python3-mesonpy),
     which is then appended to sys.path of this build process only;

and when neither has it, the get_requires_* hooks ask pip for
meson-python from the index, as an ordinary requirement would.
"""
import os
import sys

_REQUIRES = ["meson-python>=0.12"]


def _system_dirs():
    """Where Debian (and derived distributions) keep python3-* packages."""
    bases = {sys.base_prefix, "/usr"}
    for base in sorted(bases):
        yield os.path.join(base, "lib", "python3", "dist-packages")
        yield os.path.join(base, "lib", "python%d.%d" % sys.version_info[:2],
                           "dist-packages")


def _mesonpy():
    """meson-python's module, or None when this system has none."""
    try:
        import mesonpy
        return mesonpy
    except ImportError:
        pass
    for d in _system_dirs():
        if os.path.isfile(os.path.join(d, "mesonpy", "__init__.py")):
            sys.path.append(d)
            import mesonpy
            return mesonpy
    return None


def _backend():
    m = _mesonpy()
    if m is None:
        raise ImportError("meson-python is not installed: install "
                          "python3-mesonpy (Debian) or let pip fetch "
                          "meson-python")
    return m


def get_requires_for_build_wheel(config_settings=None):
    m = _mesonpy()
    if m is None:
        return list(_REQUIRES)
    return m.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings=None):
    m = _mesonpy()
    if m is None:
        return list(_REQUIRES)
    return m.get_requires_for_build_sdist(config_settings)


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    return _backend().build_wheel(wheel_directory, config_settings,
                                  metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    return _backend().build_sdist(sdist_directory, config_settings)
