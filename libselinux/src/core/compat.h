/*
 * core/compat.h: the release of libselinux this build replaces.
 *
 * One library, built for one release (meson -Dcompat=3.4|3.8|3.11, see
 * README "Which release a build replaces"): where Debian 12's 3.4, Debian
 * 13's 3.8.1 and upstream's 3.11 behave differently in a way a program
 * can observe (a message, a format written or accepted, a rule's
 * precedence, a digest), the chosen release's rule applies.  Each layer
 * names its differences in one file, which alone asks compat_since():
 * label/file/release.h, restore/release.h.  The value is a constant of the build (compat.c,
 * compiled once per build with -DSELINUX_COMPAT); there is no run-time
 * switch.
 */
#ifndef SELINUX_CORE_COMPAT_H
#define SELINUX_CORE_COMPAT_H

#include <stdbool.h>

/* The release as major * 100 + minor: 304, 308 or 311. */
extern const unsigned core_compat;

/* Whether this build follows release MAJOR.MINOR or a later one. */
static inline bool compat_since(unsigned major, unsigned minor)
{
	return core_compat >= major * 100 + minor;
}

#endif
