/* label/file/durable.c: a written file put in place crash-safely. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fc.h"
#include "file.h"

/* The directory holding path, opened for fsync: a descriptor or -errno. */
static int open_parent(const char *path)
{
	_cleanup_free_ char *dir = strdup(path);
	char *slash;
	int fd;

	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int lbl_fc_install(int fd, const char *tmp, const char *path, const char **what)
{
	_cleanup_close_ int dfd = -1;

	/* The bytes on the disk before the name: after a crash, path is
	 * the old file or the whole new one, never a part or zeros (a
	 * journal may commit the rename before the data). */
	*what = "fsync";
	if (fsync(fd) < 0)
		return -errno;
	*what = "rename";
	if (rename(tmp, path) < 0)
		return -errno;
	/* The rename itself lives in the directory: until its block is
	 * on the disk, a crash may bring back the old file (or none). */
	*what = "fsync";
	dfd = open_parent(path);
	if (dfd < 0)
		return dfd;
	/* Some file systems cannot sync a directory (EINVAL): nothing
	 * more can be done there, and the file is in place. */
	if (fsync(dfd) < 0 && errno != EINVAL)
		return -errno;
	return 0;
}
