/*
 * login/query.c: choosing a session context interactively (stdin/stdout),
 * with the reference's prompts byte for byte.
 */
#include <string.h>

#include <selinux/get_context_list.h>

#include "internal.h"

/* One line of stdin without its newline; false at end of input. */
static bool read_line(char *buf, int size)
{
	size_t n;

	if (!fgets(buf, size, stdin))
		return false;
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return true;
}

static int query(char **list, char **newcon)
{
	char buf[10];
	long n = 0, choice;

	if (!list || !list[0] || !newcon)
		return -EINVAL;
	printf("\nYour default context is %s.\n", list[0]);
	choice = 0;
	if (list[1]) {
		printf("Do you want to choose a different one? [n]");
		fflush(stdout);
		if (!read_line(buf, sizeof(buf)))
			return -ENOENT;
		if (buf[0] == 'y' || buf[0] == 'Y') {
			printf("\n");
			for (n = 0; list[n]; n++)
				printf("\n[%ld] %s", n + 1, list[n]);
			printf("\n");
			/* Ask until the answer is one of the numbers. */
			for (;;) {
				printf("Enter number of choice: ");
				fflush(stdout);
				if (!read_line(buf, sizeof(buf)))
					return -ENOENT;
				choice = strtol(buf, NULL, 10);
				if (choice >= 1 && choice <= n)
					break;
			}
			choice--;
		}
	}
	*newcon = strdup(list[choice]);
	return *newcon ? 0 : -ENOMEM;
}

_public_ int query_user_context(char **list, char **newcon)
{
	return RET_ERRNO(query(list, newcon));
}

/*
 * Prompt until a non-empty answer.  At the end of input the reference
 * prompts forever; we give up (false).
 */
static bool get_field(const char *name, char *buf, int size)
{
	for (;;) {
		printf("\tEnter %s ", name);
		fflush(stdout);
		if (!read_line(buf, size))
			return false;
		if (buf[0])
			return true;
		printf("You must enter a %s\n", name);
	}
}

static int manual(const char *user, char **newcon)
{
	char answer[10], role[100], type[100], level[100];
	bool mls = is_selinux_mls_enabled() == 1;

	if (!user || !newcon)
		return -EINVAL;
	for (;;) {
		_cleanup_free_ char *con = NULL;
		int r;

		printf("Would you like to enter a security context? [y]");
		fflush(stdout);
		if (!read_line(answer, sizeof(answer)) || answer[0] == 'n' ||
		    answer[0] == 'N')
			return -EINVAL;
		if (!get_field("role", role, sizeof(role)) ||
		    !get_field("type", type, sizeof(type)) ||
		    (mls && !get_field("level", level, sizeof(level))))
			return -EINVAL;
		if (mls)
			r = asprintf(&con, "%s:%s:%s:%s", user, role, type,
				     level);
		else
			r = asprintf(&con, "%s:%s:%s", user, role, type);
		if (r < 0)
			return -ENOMEM;
		if (security_check_context(con) == 0) {
			*newcon = TAKE_PTR(con);
			return 0;
		}
		printf("Not a valid security context\n");
	}
}

_public_ int manual_user_enter_context(const char *user, char **newcon)
{
	return RET_ERRNO(manual(user, newcon));
}
