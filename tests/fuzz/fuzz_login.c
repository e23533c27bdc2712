/*
 * Fuzz target for the login layer's files: the input, cut at lines "@@"
 * (fuzz_common.h), is, in order, seusers, contexts/users/jo,
 * contexts/default_contexts, contexts/failsafe_context,
 * contexts/customizable_types, contexts/securetty_types,
 * contexts/default_type and logins/daemon of a fixture policy root; a fake
 * selinuxfs (MLS on) takes every context, as tests/unit/login does.
 * Then getseuserbyname and getseuser, get_ordered_context_list and the
 * get_default_context family, is_context_customizable,
 * selinux_check_securetty_context and get_default_type are asked.
 * Each call must succeed or fail with errno set; a list is
 * NULL-terminated and holds as many contexts as the count says.
 */
#include <errno.h>

#include <selinux/get_context_list.h>
#include <selinux/get_default_type.h>

#include "fuzz_common.h"

/* Unexported: forget the customizable types read by the last input. */
void login_customizable_reset(void);

#define ROOT "etc/selinux/t/"
#define FROM "system_u:system_r:sshd_t:s0"

static const char *const files[] = {
    ROOT "seusers",
    ROOT "contexts/users/jo",
    ROOT "contexts/default_contexts",
    ROOT "contexts/failsafe_context",
    ROOT "contexts/customizable_types",
    ROOT "contexts/securetty_types",
    ROOT "contexts/default_type",
    ROOT "logins/daemon",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static void fail_sets_errno(int r)
{
	if (r < 0 && errno == 0)
		abort();
}

static void seusers(void)
{
	/*
	 * Users that /etc/passwd has: a name NSS does not find goes on to
	 * nss-systemd's userdb, dozens of system calls a lookup (and each
	 * "%group" line costs a getgrouplist(), which asks it anyway).
	 */
	static const char *const names[] = {"root", "nobody"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *seuser = NULL, *level = NULL;
		int r;

		errno = 0;
		r = getseuserbyname(names[i], &seuser, &level);
		fail_sets_errno(r);
		if (r == 0 && !seuser)
			abort();
		free(seuser);
		free(level);
	}
	{
		char *seuser = NULL, *level = NULL;
		int r;

		errno = 0;
		r = getseuser("daemon", "sshd", &seuser, &level);
		fail_sets_errno(r);
		free(seuser);
		free(level);
	}
}

static void context_lists(void)
{
	char **list = NULL, *con = NULL;
	int r;

	errno = 0;
	r = get_ordered_context_list("jo", FROM, &list);
	fail_sets_errno(r);
	if (r >= 0) {
		for (int i = 0; i < r; i++)
			if (!list[i])
				abort();
		if (list[r])
			abort();
		freeconary(list);
	}
	list = NULL;
	errno = 0;
	r = get_ordered_context_list_with_level("jo", "s0-s0:c0.c3", FROM,
						&list);
	fail_sets_errno(r);
	if (r >= 0)
		freeconary(list);
	errno = 0;
	r = get_default_context_with_role("jo", "user_r", FROM, &con);
	fail_sets_errno(r);
	if (r == 0)
		freecon(con);
	errno = 0;
	r = get_default_context_with_rolelevel("jo", "staff_r", "s0", FROM,
					       &con);
	fail_sets_errno(r);
	if (r == 0)
		freecon(con);
}

static void types(void)
{
	static const char *const cons[] = {"u:object_r:tty_device_t:s0",
					   "u:r:user_home_t", "u:r", "u:r:"};
	char *type = NULL;
	int r;

	login_customizable_reset();
	for (size_t i = 0; i < sizeof(cons) / sizeof(cons[0]); i++) {
		errno = 0;
		fail_sets_errno(is_context_customizable(cons[i]));
		errno = 0;
		fail_sets_errno(selinux_check_securetty_context(cons[i]));
	}
	errno = 0;
	r = get_default_type("sysadm_r", &type);
	fail_sets_errno(r);
	if (r == 0)
		free(type);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_part part[NFILES];

	if (fz_init("login")) {
		fz_mkdirs("etc/selinux");
		core_set_config_root(fz_path("etc/selinux"));
		fz_mkdirs(ROOT "contexts/users");
		fz_mkdirs(ROOT "logins");
		fz_mkdirs("selinuxfs");
		fz_writes("selinuxfs/context", "");
		fz_writes("selinuxfs/mls", "1");
		set_selinuxmnt(fz_path("selinuxfs"));
		if (selinux_set_policy_root(fz_path("etc/selinux/t")) < 0)
			abort();
	}
	fz_split(data, size, part, NFILES);
	for (size_t i = 0; i < NFILES; i++)
		fz_write(files[i], part[i].p, part[i].n);

	seusers();
	context_lists();
	types();
	return 0;
}
