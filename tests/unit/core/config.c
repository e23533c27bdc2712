/* Suite core_config: /etc/selinux/config and the policy paths. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <selinux/get_default_type.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* selinux_booleans_path and selinux_users_path are deprecated. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

void core_set_config_root(const char *dir);

static void setup(void)
{
	fx_setup();
	fx_config_root();
}

static void teardown(void)
{
	core_set_config_root(NULL);
	fini_selinuxmnt();
	fx_teardown();
}

static void config(const char *text)
{
	fx_writes("etc/selinux/config", text);
	selinux_reset_config();
}

static char *type(void)
{
	static char buf[8192];
	char *t = NULL;

	ck_assert_int_eq(selinux_getpolicytype(&t), 0);
	snprintf(buf, sizeof(buf), "%s", t);
	free(t);
	return buf;
}

static int mode(void)
{
	int e = 77;

	if (selinux_getenforcemode(&e) < 0)
		return 99;
	return e;
}

/* selinux_getpolicytype ------------------------------------------------- */

START_TEST(test_selinux_getpolicytype_plain)
{
	config("SELINUX=enforcing\nSELINUXTYPE=mls\n");
	ck_assert_str_eq(type(), "mls");
}
END_TEST

START_TEST(test_selinux_getpolicytype_no_config_is_targeted)
{
	ck_assert_str_eq(type(), "targeted");
}
END_TEST

START_TEST(test_selinux_getpolicytype_comments_and_blanks)
{
	config("# SELINUXTYPE=commented\n\n   \n\t# also\nSELINUXTYPE=real\n");
	ck_assert_str_eq(type(), "real");
}
END_TEST

START_TEST(test_selinux_getpolicytype_indented_key_and_value)
{
	config("  \tSELINUXTYPE=\t spaced \t\n");
	ck_assert_str_eq(type(), "spaced");
}
END_TEST

START_TEST(test_selinux_getpolicytype_key_case_insensitive)
{
	config("selinuxtype=lower\n");
	ck_assert_str_eq(type(), "lower");
}
END_TEST

START_TEST(test_selinux_getpolicytype_last_wins)
{
	config("SELINUXTYPE=first\nSELINUXTYPE=second\n");
	ck_assert_str_eq(type(), "second");
}
END_TEST

/* Debian's 3.4 keeps quotes and inline comments as part of the value. */
START_TEST(test_selinux_getpolicytype_quotes_kept)
{
	config("SELINUXTYPE=\"quoted\"\n");
	ck_assert_str_eq(type(), "\"quoted\"");
	config("SELINUXTYPE=foo # note\n");
	ck_assert_str_eq(type(), "foo # note");
}
END_TEST

START_TEST(test_selinux_getpolicytype_space_before_equals_ignored)
{
	config("SELINUXTYPE = nope\n");
	ck_assert_str_eq(type(), "targeted");
}
END_TEST

START_TEST(test_selinux_getpolicytype_no_trailing_newline)
{
	config("SELINUXTYPE=last");
	ck_assert_str_eq(type(), "last");
}
END_TEST

START_TEST(test_selinux_getpolicytype_crlf)
{
	config("SELINUXTYPE=dos\r\nSELINUX=permissive\r\n");
	ck_assert_str_eq(type(), "dos");
	ck_assert_int_eq(mode(), 0);
}
END_TEST

START_TEST(test_selinux_getpolicytype_empty_value)
{
	config("SELINUXTYPE=\n");
	ck_assert_str_eq(type(), "");
	ck_assert_str_eq(selinux_policy_root(), fx_path("etc/selinux/"));
}
END_TEST

START_TEST(test_selinux_getpolicytype_huge_line)
{
	size_t n = 1 << 20;
	char *text = malloc(n + 64);

	memset(text, 'x', n);
	strcpy(text + n, "\nSELINUXTYPE=after\n");
	config(text);
	free(text);
	ck_assert_str_eq(type(), "after");
}
END_TEST

START_TEST(test_selinux_getpolicytype_garbage)
{
	static const char junk[] = "\x01\x02\xff\xfe=\x00SELINUXTYPE=hidden\n"
				   "=\n==\nSELINUXTYPE\n";

	fx_write("etc/selinux/config", junk, sizeof(junk) - 1);
	selinux_reset_config();
	ck_assert_str_eq(type(), "targeted");
}
END_TEST

START_TEST(test_selinux_getpolicytype_null_is_einval)
{
	errno = 0;
	ck_assert_int_eq(selinux_getpolicytype(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* selinux_getenforcemode ------------------------------------------------ */

START_TEST(test_selinux_getenforcemode_values)
{
	config("SELINUX=enforcing\n");
	ck_assert_int_eq(mode(), 1);
	config("SELINUX=permissive\n");
	ck_assert_int_eq(mode(), 0);
	config("SELINUX=disabled\n");
	ck_assert_int_eq(mode(), -1);
}
END_TEST

START_TEST(test_selinux_getenforcemode_case_and_prefix)
{
	config("SELINUX=Enforcing\n");
	ck_assert_int_eq(mode(), 1);
	config("SELINUX=PERMISSIVEly\n");
	ck_assert_int_eq(mode(), 0);
	config("SELINUX=   disabled\n");
	ck_assert_int_eq(mode(), -1);
}
END_TEST

START_TEST(test_selinux_getenforcemode_first_valid_wins)
{
	config("SELINUX=bogus\nSELINUX=permissive\nSELINUX=enforcing\n");
	ck_assert_int_eq(mode(), 0);
}
END_TEST

/* The key must start the line, spelt exactly. */
START_TEST(test_selinux_getenforcemode_strict_key)
{
	config(" SELINUX=enforcing\n");
	ck_assert_int_eq(mode(), 99);
	config("SELINUX = enforcing\n");
	ck_assert_int_eq(mode(), 99);
	config("selinux=enforcing\n");
	ck_assert_int_eq(mode(), 99);
	config("SELINUX=\"enforcing\"\n");
	ck_assert_int_eq(mode(), 99);
}
END_TEST

START_TEST(test_selinux_getenforcemode_missing_file)
{
	int e = 77;

	errno = 0;
	ck_assert_int_eq(selinux_getenforcemode(&e), -1);
	ck_assert_int_eq(e, 77);
}
END_TEST

START_TEST(test_selinux_getenforcemode_overlong_line_is_one_line)
{
	char text[8192];

	/* 4095 x then the key, on one line: not a SELINUX= line. */
	memset(text, 'x', 4095);
	strcpy(text + 4095, "SELINUX=enforcing\n");
	config(text);
	ck_assert_int_eq(mode(), 99);
}
END_TEST

START_TEST(test_selinux_getenforcemode_null_is_einval)
{
	config("SELINUX=enforcing\n");
	errno = 0;
	ck_assert_int_eq(selinux_getenforcemode(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* is_selinux_enabled --------------------------------------------------- */

START_TEST(test_is_selinux_enabled_needs_mount_and_config)
{
	fini_selinuxmnt();
	ck_assert_int_eq(is_selinux_enabled(), 0);
	fx_selinuxfs();
	/* A mount but no config file: disabled, like the reference. */
	ck_assert_int_eq(is_selinux_enabled(), 0);
	fx_writes("etc/selinux/config", "SELINUX=permissive\n");
	core_set_config_root(fx_path("etc/selinux"));
	ck_assert_int_eq(is_selinux_enabled(), 1);
	fini_selinuxmnt();
	ck_assert_int_eq(is_selinux_enabled(), 0);
}
END_TEST

/* paths --------------------------------------------------------------- */

typedef const char *(*path_fn)(void);

static const struct {
	path_fn fn;
	const char *suffix;
} paths[] = {
	{ selinux_binary_policy_path, "/policy/policy" },
	{ selinux_contexts_path, "/contexts" },
	{ selinux_file_context_path, "/contexts/files/file_contexts" },
	{ selinux_homedir_context_path, "/contexts/files/homedir_template" },
	{ selinux_default_context_path, "/contexts/default_contexts" },
	{ selinux_user_contexts_path, "/contexts/users/" },
	{ selinux_failsafe_context_path, "/contexts/failsafe_context" },
	{ selinux_default_type_path, "/contexts/default_type" },
	{ selinux_securetty_types_path, "/contexts/securetty_types" },
	{ selinux_booleans_path, "/booleans" },
	{ selinux_media_context_path, "/contexts/files/media" },
	{ selinux_removable_context_path, "/contexts/removable_context" },
	{ selinux_customizable_types_path, "/contexts/customizable_types" },
	{ selinux_users_path, "/users/" },
	{ selinux_usersconf_path, "/seusers" },
	{ selinux_translations_path, "/setrans.conf" },
	{ selinux_netfilter_context_path, "/contexts/netfilter_contexts" },
	{ selinux_file_context_homedir_path,
	  "/contexts/files/file_contexts.homedirs" },
	{ selinux_file_context_local_path,
	  "/contexts/files/file_contexts.local" },
	{ selinux_x_context_path, "/contexts/x_contexts" },
	{ selinux_colors_path, "/secolor.conf" },
	{ selinux_virtual_domain_context_path,
	  "/contexts/virtual_domain_context" },
	{ selinux_virtual_image_context_path,
	  "/contexts/virtual_image_context" },
	{ selinux_lxc_contexts_path, "/contexts/lxc_contexts" },
	{ selinux_file_context_subs_path, "/contexts/files/file_contexts.subs" },
	{ selinux_file_context_subs_dist_path,
	  "/contexts/files/file_contexts.subs_dist" },
	{ selinux_sepgsql_context_path, "/contexts/sepgsql_contexts" },
	{ selinux_systemd_contexts_path, "/contexts/systemd_contexts" },
	{ selinux_booleans_subs_path, "/booleans.subs_dist" },
	{ selinux_openrc_contexts_path, "/contexts/openrc_contexts" },
	{ selinux_snapperd_contexts_path, "/contexts/snapperd_contexts" },
	{ selinux_openssh_contexts_path, "/contexts/openssh_contexts" },
};

START_TEST(test_paths_under_policy_root)
{
	char want[8192];

	config("SELINUXTYPE=foo\n");
	snprintf(want, sizeof(want), "%s%s", fx_path("etc/selinux/foo"),
		 paths[_i].suffix);
	ck_assert_str_eq(paths[_i].fn(), want);
}
END_TEST

START_TEST(test_paths_follow_set_policy_root)
{
	char want[8192];

	config("SELINUXTYPE=foo\n");
	ck_assert_int_eq(selinux_set_policy_root("/x/y/z"), 0);
	snprintf(want, sizeof(want), "/x/y/z%s", paths[_i].suffix);
	ck_assert_str_eq(paths[_i].fn(), want);
}
END_TEST

START_TEST(test_selinux_path_and_policy_root)
{
	char want[8192];

	config("SELINUXTYPE=foo\n");
	snprintf(want, sizeof(want), "%s/", fx_path("etc/selinux"));
	ck_assert_str_eq(selinux_path(), want);
	ck_assert_str_eq(selinux_policy_root(), fx_path("etc/selinux/foo"));
}
END_TEST

START_TEST(test_selinux_path_default)
{
	core_set_config_root(NULL);
	ck_assert_str_eq(selinux_path(), "/etc/selinux/");
}
END_TEST

START_TEST(test_selinux_set_policy_root_type_is_last_component)
{
	config("SELINUXTYPE=foo\n");
	ck_assert_int_eq(selinux_set_policy_root("/x/y/z"), 0);
	ck_assert_str_eq(selinux_policy_root(), "/x/y/z");
	ck_assert_str_eq(type(), "z");
	ck_assert_int_eq(selinux_set_policy_root("/x/y/"), 0);
	ck_assert_str_eq(type(), "");
	ck_assert_str_eq(selinux_file_context_path(),
			 "/x/y//contexts/files/file_contexts");
}
END_TEST

START_TEST(test_selinux_set_policy_root_bad)
{
	errno = 0;
	ck_assert_int_eq(selinux_set_policy_root("relative"), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(selinux_set_policy_root(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_selinux_reset_config_rereads)
{
	config("SELINUXTYPE=one\n");
	ck_assert_str_eq(type(), "one");
	fx_writes("etc/selinux/config", "SELINUXTYPE=two\n");
	ck_assert_str_eq(type(), "one"); /* read once */
	selinux_reset_config();
	ck_assert_str_eq(type(), "two");
	ck_assert_str_eq(selinux_policy_root(), fx_path("etc/selinux/two"));
}
END_TEST

/* selinux_current_policy_path ------------------------------------------ */

START_TEST(test_current_policy_path_prefers_kernel)
{
	char want[8192];

	fx_selinuxfs();
	fx_writes("selinuxfs/policy", "");
	snprintf(want, sizeof(want), "%s", fx_path("selinuxfs/policy"));
	ck_assert_str_eq(selinux_current_policy_path(), want);
}
END_TEST

START_TEST(test_current_policy_path_newest_supported)
{
	config("SELINUXTYPE=foo\n");
	fx_selinuxfs();
	fx_writes("selinuxfs/policyvers", "33");
	fx_writes("etc/selinux/foo/policy/policy.35", "");
	fx_writes("etc/selinux/foo/policy/policy.30", "");
	fx_writes("etc/selinux/foo/policy/policy.29", "");
	ck_assert_str_eq(selinux_current_policy_path(),
			 fx_path("etc/selinux/foo/policy/policy.30"));
}
END_TEST

START_TEST(test_current_policy_path_no_policyvers_means_15)
{
	config("SELINUXTYPE=foo\n");
	fx_selinuxfs();
	fx_writes("etc/selinux/foo/policy/policy.30", "");
	ck_assert_ptr_null(selinux_current_policy_path());
	fx_writes("etc/selinux/foo/policy/policy.14", "");
	ck_assert_str_eq(selinux_current_policy_path(),
			 fx_path("etc/selinux/foo/policy/policy.14"));
}
END_TEST

START_TEST(test_current_policy_path_no_mount)
{
	config("SELINUXTYPE=foo\n");
	fx_writes("etc/selinux/foo/policy/policy.33", "");
	fini_selinuxmnt();
	ck_assert_ptr_null(selinux_current_policy_path());
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("core_config");
	int n = (int)(sizeof(paths) / sizeof(paths[0]));
	TCase *tc;

	tc = tcase_create("selinux_getpolicytype");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selinux_getpolicytype_plain);
	tcase_add_test(tc, test_selinux_getpolicytype_no_config_is_targeted);
	tcase_add_test(tc, test_selinux_getpolicytype_comments_and_blanks);
	tcase_add_test(tc, test_selinux_getpolicytype_indented_key_and_value);
	tcase_add_test(tc, test_selinux_getpolicytype_key_case_insensitive);
	tcase_add_test(tc, test_selinux_getpolicytype_last_wins);
	tcase_add_test(tc, test_selinux_getpolicytype_quotes_kept);
	tcase_add_test(tc,
		       test_selinux_getpolicytype_space_before_equals_ignored);
	tcase_add_test(tc, test_selinux_getpolicytype_no_trailing_newline);
	tcase_add_test(tc, test_selinux_getpolicytype_crlf);
	tcase_add_test(tc, test_selinux_getpolicytype_empty_value);
	tcase_add_test(tc, test_selinux_getpolicytype_huge_line);
	tcase_add_test(tc, test_selinux_getpolicytype_garbage);
	tcase_add_test(tc, test_selinux_getpolicytype_null_is_einval);
	suite_add_tcase(s, tc);

	tc = tcase_create("selinux_getenforcemode");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selinux_getenforcemode_values);
	tcase_add_test(tc, test_selinux_getenforcemode_case_and_prefix);
	tcase_add_test(tc, test_selinux_getenforcemode_first_valid_wins);
	tcase_add_test(tc, test_selinux_getenforcemode_strict_key);
	tcase_add_test(tc, test_selinux_getenforcemode_missing_file);
	tcase_add_test(tc,
		       test_selinux_getenforcemode_overlong_line_is_one_line);
	tcase_add_test(tc, test_selinux_getenforcemode_null_is_einval);
	suite_add_tcase(s, tc);

	tc = tcase_create("is_selinux_enabled");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_is_selinux_enabled_needs_mount_and_config);
	suite_add_tcase(s, tc);

	tc = tcase_create("paths");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_paths_under_policy_root, 0, n);
	tcase_add_loop_test(tc, test_paths_follow_set_policy_root, 0, n);
	tcase_add_test(tc, test_selinux_path_and_policy_root);
	tcase_add_test(tc, test_selinux_path_default);
	tcase_add_test(tc, test_selinux_set_policy_root_type_is_last_component);
	tcase_add_test(tc, test_selinux_set_policy_root_bad);
	tcase_add_test(tc, test_selinux_reset_config_rereads);
	suite_add_tcase(s, tc);

	tc = tcase_create("selinux_current_policy_path");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_current_policy_path_prefers_kernel);
	tcase_add_test(tc, test_current_policy_path_newest_supported);
	tcase_add_test(tc, test_current_policy_path_no_policyvers_means_15);
	tcase_add_test(tc, test_current_policy_path_no_mount);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
