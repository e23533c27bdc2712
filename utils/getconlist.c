/* getconlist: the ordered session contexts of a user from a context. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selinux/get_context_list.h>
#include <selinux/selinux.h>

static void usage(const char *name, const char *detail, int rc)
{
	fprintf(stderr, "usage:  %s [-l level] user [context]\n", name);
	if (detail)
		fprintf(stderr, "%s:  %s\n", name, detail);
	exit(rc);
}

int main(int argc, char **argv)
{
	char **list = NULL, *con = NULL;
	const char *level = NULL;
	int opt, r;

	while ((opt = getopt(argc, argv, "l:")) > 0) {
		if (opt != 'l')
			usage(argv[0], "invalid option", 1);
		level = optarg;
	}
	if (argc - optind < 1 || argc - optind > 2)
		usage(argv[0], "invalid number of arguments", 2);
	if (!is_selinux_enabled()) {
		fprintf(stderr,
			"getconlist may be used only on a SELinux kernel.\n");
		return 1;
	}
	if (argc - optind < 2) {
		if (getcon(&con) < 0) {
			fprintf(stderr, "Couldn't get current context:  %s\n",
				strerror(errno));
			return 2;
		}
	} else {
		con = strdup(argv[optind + 1]);
		if (!con)
			return 1;
	}
	if (security_check_context(con)) {
		fprintf(stderr, "Given context '%s' is invalid.\n", con);
		free(con);
		return 3;
	}
	if (level)
		r = get_ordered_context_list_with_level(argv[optind], level,
							con, &list);
	else
		r = get_ordered_context_list(argv[optind], con, &list);
	if (r == -1) {
		fprintf(stderr, "get_ordered_context_list%s failure: %d(%s)\n",
			level ? "_with_level" : "", errno, strerror(errno));
		free(con);
		return 4;
	}
	for (char **p = list; *p; p++)
		puts(*p);
	freeconary(list);
	free(con);
	return 0;
}
