/* compute/get_boolean_names.c: security_get_boolean_names. */
#include <dirent.h>
#include <limits.h>
#include <string.h>

#include "internal.h"

static int not_dots(const struct dirent *d)
{
	return strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * The entries of booleans/ in alphasort() order, as the established
 * library lists them.  Like it, a policy without booleans is -1 with
 * ENOENT, and *len is written even then (0, or -1 when the directory
 * cannot be read).
 */
static int get_boolean_names(char ***names, int *len)
{
	struct dirent **list = NULL;
	char path[PATH_MAX];
	char **out;
	int n, r;

	if (!names || !len)
		return -EINVAL;
	r = core_fs_path("booleans", path, sizeof(path));
	if (r < 0)
		return r;
	n = scandir(path, &list, not_dots, alphasort);
	*len = n;
	if (n <= 0) {
		free(list);
		return -ENOENT;
	}
	out = calloc((size_t)n, sizeof(*out));
	for (int i = 0; i < n; i++) {
		if (out) {
			out[i] = strdup(list[i]->d_name);
			if (!out[i]) {
				free_names(out, i);
				out = NULL;
			}
		}
		free(list[i]);
	}
	free(list);
	if (!out) {
		*len = 0;
		return -ENOMEM;
	}
	*names = out;
	return 0;
}

_public_ int security_get_boolean_names(char ***names, int *len)
{
	return RET_ERRNO(get_boolean_names(names, len));
}
