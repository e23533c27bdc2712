/* tests/unit/login/common.h: a policy tree and a fake selinuxfs. */
#ifndef TESTS_UNIT_LOGIN_COMMON_H
#define TESTS_UNIT_LOGIN_COMMON_H

#include <check.h>
#include <selinux/selinux.h>
#include <string.h>

#include "fixture.h"

void core_set_config_root(const char *dir);

#define TREE "etc/selinux/t/"

/*
 * A fixture tree etc/selinux/t (the policy root) and a fake selinuxfs
 * whose "context" file takes any write, so that every context is valid,
 * and whose "mls" says whether MLS is on.
 */
static inline void login_setup(int mls)
{
	fx_setup();
	fx_config_root();
	fx_mkdir(TREE "contexts/users");
	fx_selinuxfs();
	fx_writes("selinuxfs/context", "");
	fx_writes("selinuxfs/mls", mls ? "1" : "0");
	ck_assert_int_eq(selinux_set_policy_root(fx_path("etc/selinux/t")), 0);
}

static inline void login_teardown(void)
{
	core_set_config_root(NULL);
	fini_selinuxmnt();
	fx_teardown();
}

/* A line of n copies of c plus a newline, malloc'd. */
static inline char *huge_line(size_t n, char c)
{
	char *s = malloc(n + 2);

	ck_assert_ptr_nonnull(s);
	memset(s, c, n);
	s[n] = '\n';
	s[n + 1] = '\0';
	return s;
}

#endif
