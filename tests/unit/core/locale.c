/*
 * Suite core_locale: what the library reads does not depend on the
 * caller's locale.  setuid programs (passwd, su, newrole) call
 * setlocale(LC_ALL, "") with the invoking user's LANG/LC_*, so a locale
 * is caller input.  A real hostile locale, tr_TR.ISO-8859-9 (where the C
 * library's strcasecmp("I", "i") != 0: "I" folds to a dotless i), is
 * compiled with localedef into a temporary LOCPATH and switched on around
 * each read.  The first test checks that the locale really is in effect,
 * so a missing locale fails instead of passing vacuously.  The expected
 * answers are those of the "C" locale, written out by hand.
 */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

void core_set_config_root(const char *dir);

static char locpath[] = "/tmp/selinux-locale-XXXXXX";

#define TURKISH "tr_TR.ISO-8859-9"

static void setup(void)
{
	fx_setup();
	fx_config_root();
}

static void teardown(void)
{
	setlocale(LC_ALL, "C");
	core_set_config_root(NULL);
	fx_teardown();
}

static void use_locale(const char *name)
{
	ck_assert_msg(setlocale(LC_ALL, name) != NULL,
		      "locale %s not available under %s", name, locpath);
}

static void config(const char *text)
{
	fx_writes("etc/selinux/config", text);
	selinux_reset_config();
}

static int mode(void)
{
	int e = 77;

	if (selinux_getenforcemode(&e) < 0)
		return 99;
	return e;
}

static char *type(void)
{
	static char buf[256];
	char *t = NULL;

	ck_assert_int_eq(selinux_getpolicytype(&t), 0);
	snprintf(buf, sizeof(buf), "%s", t);
	free(t);
	return buf;
}

START_TEST(test_turkish_locale_is_hostile)
{
	use_locale(TURKISH);
	/*
	 * The premise of the suite: glibc folds "I" to dotless i here.
	 * Asked through tolower(), not strcasecmp(): the sanitizers
	 * replace strcasecmp with an ASCII-only one, so under ASan the
	 * old code passes (the plain build is the one that catches it).
	 */
	ck_assert_int_ne(tolower((unsigned char)'I'), 'i');
}
END_TEST

START_TEST(test_mode_words_fold_in_turkish_locale)
{
	use_locale(TURKISH);
	config("SELINUX=DISABLED\n");
	ck_assert_int_eq(mode(), -1);
	config("SELINUX=PERMISSIVE\n");
	ck_assert_int_eq(mode(), 0);
	config("SELINUX=Enforcing\n");
	ck_assert_int_eq(mode(), 1);
}
END_TEST

START_TEST(test_keys_fold_in_turkish_locale)
{
	use_locale(TURKISH);
	config("selinuxtype=mls\n");
	ck_assert_str_eq(type(), "mls");
	/* The SELINUX= key itself is case-sensitive, in every locale. */
	config("SeLinuxType=minimum\nSELINUX=disabled\n");
	ck_assert_str_eq(type(), "minimum");
	ck_assert_int_eq(mode(), -1);
}
END_TEST

START_TEST(test_same_answers_as_c_locale)
{
	static const char *const text[] = {
		"SELINUX=DISABLED\nSELINUXTYPE=Strict\n",
		"SELINUX=PermIssive\nselinuxtype=default\n",
		"\tSELINUX = enforcing\nSeLiNuXtYpE=mls\n",
		"REQUIRESEUSERS=1\nselinux=permissive\nSELINUX=DISABLED\n",
	};

	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		char want[256];
		int want_mode;

		setlocale(LC_ALL, "C");
		config(text[i]);
		want_mode = mode();
		snprintf(want, sizeof(want), "%s", type());
		use_locale(TURKISH);
		config(text[i]);
		ck_assert_msg(mode() == want_mode, "text %zu: mode %d, C %d",
			      i, mode(), want_mode);
		ck_assert_str_eq(type(), want);
	}
}
END_TEST

/* Compile the locale into locpath; 0 on success. */
static int make_locale(void)
{
	char cmd[1024];

	if (!mkdtemp(locpath))
		return -1;
	/* -c: warnings (exit 1) still write the locale. */
	snprintf(cmd, sizeof(cmd),
		 "localedef -c -i tr_TR -f ISO-8859-9 %s/%s >/dev/null 2>&1",
		 locpath, TURKISH);
	if (system(cmd) == -1)
		return -1;
	return setenv("LOCPATH", locpath, 1);
}

static Suite *suite(void)
{
	Suite *s = suite_create("core_locale");
	TCase *tc = tcase_create("locale");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_turkish_locale_is_hostile);
	tcase_add_test(tc, test_mode_words_fold_in_turkish_locale);
	tcase_add_test(tc, test_keys_fold_in_turkish_locale);
	tcase_add_test(tc, test_same_answers_as_c_locale);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	char cmd[256];
	int r;

	if (make_locale() < 0) {
		perror("core_locale: localedef");
		return 1;
	}
	r = fx_run(suite());
	snprintf(cmd, sizeof(cmd), "rm -rf %s", locpath);
	if (system(cmd) == -1)
		perror("core_locale: rm");
	return r;
}
