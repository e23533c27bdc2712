#!/bin/sh
# libselinux/install-devlink.sh SHLIBDIR LIBDIR - meson's install script
# when -Dshlibdir is set: both_libraries installs libselinux.so.1,
# libselinux.so and libselinux.a into SHLIBDIR; the link-time files go to
# LIBDIR, the libselinux.so link by absolute path, as Debian 12's
# libselinux1-dev has them (/usr/lib/x86_64-linux-gnu/libselinux.so ->
# /lib/x86_64-linux-gnu/libselinux.so.1).
set -eu
shlibdir=$1 libdir=$2
d=${DESTDIR:-}
mkdir -p "$d$libdir"
mv -f "$d$shlibdir/libselinux.a" "$d$libdir/libselinux.a"
rm -f "$d$shlibdir/libselinux.so"
ln -sfn "$shlibdir/libselinux.so.1" "$d$libdir/libselinux.so"
echo "Moved libselinux.a and the libselinux.so link to $d$libdir"
