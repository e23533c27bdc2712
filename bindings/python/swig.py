#!/usr/bin/python3
"""swig.py SWIG INTERFACE WRAP_C INIT_PY

Runs SWIG on the interface file, writing the C wrapper to WRAP_C and the
Python half (SWIG names it after the module: selinux.py) to INIT_PY, the
package's __init__.py.  The interface's directory is on SWIG's include
path (for %pythoncode "helpers.py")."""
import os
import subprocess
import sys
import tempfile

swig, interface, wrap_c, init_py = sys.argv[1:5]
with tempfile.TemporaryDirectory(dir=os.path.dirname(init_py)) as outdir:
    subprocess.run([swig, '-python', '-I' + os.path.dirname(interface),
                    '-outdir', outdir, '-o', wrap_c, interface], check=True)
    os.replace(os.path.join(outdir, 'selinux.py'), init_py)
