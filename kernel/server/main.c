/*
 * selinuxfsd - serve a binary SELinux policy as a selinuxfs, in userspace
 *
 * SYNOPSIS
 *     selinuxfsd [-f] [-v] [-e 0|1] POLICY MOUNTPOINT
 *     selinuxfsd [-f] [-v] [-e 0|1] -n MOUNTPOINT
 *
 * DESCRIPTION
 *     The kernel's half of SELinux, for kernels without it: loads the
 *     binary policy POLICY with libsepol, makes the security server's
 *     decisions as the kernel does, and presents them at MOUNTPOINT through
 *     FUSE as the files of a selinuxfs (enforce, access, create, relabel,
 *     member, user, context, load, booleans/, commit_pending_bools, class/,
 *     policyvers, mls, status, initial_contexts/ ...), byte for byte in the
 *     kernel's formats.
 *
 *     It mounts with fsname=selinuxfs,subtype=selinuxfs, allow_other and
 *     default_permissions, so mountinfo shows "fuse.selinuxfs", which this
 *     libselinux finds as it finds a kernel's selinuxfs; any libselinux can
 *     also be pointed at it with set_selinuxmnt(3).  It must run as root.
 *     SIGTERM, SIGINT and SIGHUP unmount and end it.
 *
 *     Requests come through /dev/fuse.  Where the kernel also offers
 *     FUSE's io_uring transport (Linux 6.14 and later, with the fuse
 *     module's enable_uring parameter on), selinuxfsd takes it: one queue
 *     of requests per CPU, served by a thread on that CPU, so that
 *     clients on two CPUs are answered on both at once.
 *
 * OPTIONS
 *     -f
 *         Stay in the foreground (otherwise detach once mounted).
 *     -v
 *         Log each policy load (with the bytes the server has allocated
 *         after it), enforcing change and libsepol's messages.
 *     -e 0|1
 *         Start permissive (0, the default) or enforcing (1).
 *     -n
 *         Start with no policy: a later write to load (as
 *         selinux_mkload_policy(3) does) loads one.
 *     -h
 *         Print the usage and exit.
 *
 * EXIT STATUS
 *     0
 *         Unmounted after a signal (or the usage printed with -h).
 *     1
 *         Wrong arguments, or POLICY cannot be read or is not a valid
 *         binary policy.
 *     2
 *         FUSE is missing or /dev/fuse is not usable.
 *     3
 *         Not root, or the mount failed.
 *
 * EXAMPLES
 *         selinuxfsd -f policy.33 /mnt/selinux &
 *         getenforce
 *
 * SEE ALSO
 *     getenforce(8), setenforce(8), set_selinuxmnt(3), selinux_config(5)
 */
#define FUSE_USE_VERSION 34
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "fuse_run.h"
#include "log.h"
#include "mem.h"
#include "policy.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: selinuxfsd [-f] [-v] [-e 0|1] POLICY MOUNTPOINT\n"
		   "       selinuxfsd [-f] [-v] [-e 0|1] -n MOUNTPOINT\n");
}

static int read_file(const char *path, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t n = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	*data = malloc((size_t)st.st_size + 1);
	if (!*data) {
		close(fd);
		return -ENOMEM;
	}
	while (n < (size_t)st.st_size) {
		ssize_t r = read(fd, *data + n, (size_t)st.st_size - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return 0;
}

int main(int argc, char **argv)
{
	int foreground = 0, enforcing = 0, nopolicy = 0, c, r;
	const char *policy = NULL, *mnt;
	char *data = NULL;
	size_t len = 0;
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);

	mem_setup();
	while ((c = getopt(argc, argv, "fve:nh")) != -1) {
		switch (c) {
		case 'f':
			foreground = 1;
			break;
		case 'v':
			srv_log_set_verbose(true);
			break;
		case 'e':
			if (strcmp(optarg, "0") && strcmp(optarg, "1")) {
				usage(stderr);
				return 1;
			}
			enforcing = optarg[0] == '1';
			break;
		case 'n':
			nopolicy = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (argc - optind != (nopolicy ? 1 : 2)) {
		usage(stderr);
		return 1;
	}
	if (!nopolicy)
		policy = argv[optind++];
	mnt = argv[optind];

	if (access("/dev/fuse", R_OK | W_OK) != 0) {
		fprintf(stderr,
			"selinuxfsd: /dev/fuse is not usable (%s): FUSE is "
			"missing (modprobe fuse; apt-get install fuse3)\n",
			strerror(errno));
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "selinuxfsd: must run as root (a selinuxfs "
				"is found only when root mounted it)\n");
		return 3;
	}
	if (policy) {
		r = read_file(policy, &data, &len);
		if (r < 0) {
			fprintf(stderr, "selinuxfsd: %s: %s\n", policy,
				strerror(-r));
			return 1;
		}
	}
	r = sfs_start(data, len, enforcing);
	free(data);
	if (r < 0) {
		fprintf(stderr, "selinuxfsd: %s: not a valid binary policy\n",
			policy);
		return 1;
	}

	if (fuse_opt_add_arg(&args, argv[0]) ||
	    fuse_opt_add_arg(&args, "-o") ||
	    fuse_opt_add_arg(&args, "fsname=selinuxfs,subtype=selinuxfs,"
				    "allow_other,default_permissions")) {
		fprintf(stderr, "selinuxfsd: out of memory\n");
		return 1;
	}
	r = srv_fuse_run(&args, mnt, foreground);
	fuse_opt_free_args(&args);
	pol_unload();
	if (r == 2)
		fprintf(stderr, "selinuxfsd: cannot start a FUSE session\n");
	else if (r == 3)
		fprintf(stderr, "selinuxfsd: cannot mount on %s\n", mnt);
	return r;
}
