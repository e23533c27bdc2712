/* core/compat.c: the release this build replaces (compat.h); built on its
 * own, once per library (libselinux/meson.build), with -DSELINUX_COMPAT. */
#include "compat.h"

#ifndef SELINUX_COMPAT
#error "SELINUX_COMPAT must be given (libselinux/meson.build)"
#endif

const unsigned core_compat = SELINUX_COMPAT;
