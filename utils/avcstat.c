/*
 * avcstat - print the statistics of the kernel's access vector cache
 *
 * SYNOPSIS
 *     avcstat [-c] [-f status_file] [interval]
 *
 * DESCRIPTION
 *     Reads the counters of selinuxfs's avc/cache_stats (summed over the
 *     processors) and prints lookups, hits, misses, allocations, reclaims
 *     and frees.  With an interval (in seconds), it repeats every interval
 *     seconds, printing the change since the previous line, until it is
 *     interrupted; the column header is repeated each screenful.
 *
 * OPTIONS
 *     -c
 *         Print cumulative values instead of changes.
 *     -f status_file
 *         Read this file instead of avc/cache_stats under the selinuxfs
 *         mount.
 *     -h
 *         Print the usage and exit.
 *
 * EXIT STATUS
 *     0
 *         The statistics were printed (or the usage, for -h or an interval
 *         of 0).
 *     1
 *         The file could not be read or does not have the kernel's format.
 *
 * SEE ALSO
 *     avc_cache_stats(3), selinuxfsd(8)
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <selinux/selinux.h>

/*
 * The selinuxfs mount point, exported by the library as a variable (see
 * set_selinuxmnt() in selinux.h); NULL when no selinuxfs was found.
 */
extern char *selinux_mnt;

/*
 * avc/cache_stats as the kernel writes it: this header line, then one
 * line of six counters per CPU, which are summed.
 */
#define STATS_HEADER "lookups hits misses allocations reclaims frees"
#define NCOUNTERS 6

/*
 * Everything below copies Debian's selinux-utils 3.4 on purpose, as
 * observed from its program:
 *  - the file is read with a single read() of at most 8191 bytes (a
 *    kernfs file must be read in one go; a longer file is cut there),
 *    then reread from offset 0 each interval;
 *  - the header line must be exactly STATS_HEADER; blank lines are
 *    skipped; every other line must start with six numbers (sscanf
 *    %llu, so "-1" wraps and an overflow saturates);
 *  - relative values are unsigned differences, and wrap when a counter
 *    goes down;
 *  - the column header is repeated before data line i when i is a
 *    multiple of (terminal rows - 2); 24 rows when stdout is no terminal
 *    or has fewer than 3 rows (SIGWINCH rereads the size, and cuts
 *    the current sleep short);
 *  - errors print "ERROR: ", the message and, when errno is set, ": " and
 *    strerror(errno) of whatever call last set it, and exit 1;
 *  - the interval is strtoul()'s value cut to unsigned int; 0 (so also
 *    no digits at all) prints the usage and exits 0, and one out of
 *    strtoul()'s range prints the usage and an error;
 *  - -h, and any option letter '-' (as in "--help"), print the usage
 *    and exit 0; '?' is accepted silently as an unknown option.
 */
#define READ_MAX 8191
#define DEFAULT_ROWS 24

/*
 * The terminal's height, set at start and by the SIGWINCH handler,
 * read by the main loop; sig_atomic_t is all the guarding it needs.
 */
static volatile sig_atomic_t term_rows = DEFAULT_ROWS;

static void read_rows(void)
{
	struct winsize ws;

	if (ioctl(fileno(stdout), TIOCGWINSZ, &ws) == 0)
		term_rows = ws.ws_row;
}

static void on_winch(int sig)
{
	int saved = errno;

	(void)sig;
	read_rows();
	errno = saved;
}

static unsigned lines_per_header(void)
{
	int rows = term_rows;

	return rows > 2 ? (unsigned)rows - 2 : DEFAULT_ROWS - 2;
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	fputs("ERROR: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (e)
		fprintf(stderr, ": %s", strerror(e));
	fputc('\n', stderr);
	exit(1);
}

static void usage(const char *progname)
{
	printf("\nUsage: %s [-c] [-f status_file] [interval]\n\n"
	       "Display SELinux AVC statistics.  If the interval parameter "
	       "is specified, the\n"
	       "program will loop, displaying updated statistics every "
	       "'interval' seconds.\n"
	       "Relative values are displayed by default. Use the -c option "
	       "to specify the\n"
	       "display of cumulative values.  The -f option specifies the "
	       "location of the\n"
	       "AVC statistics file, defaulting to "
	       "'%s/avc/cache_stats'.\n\n",
	       progname, selinux_mnt ? selinux_mnt : "(null)");
}

static void print_header(void)
{
	printf("%10s %10s %10s %10s %10s %10s\n", "lookups", "hits", "misses",
	       "allocs", "reclaims", "frees");
}

/*
 * Read path's counters (fd at offset 0) into sum.  i is the number of
 * data lines printed so far: the column header goes out once the file's
 * header is known good, before its numbers are parsed.
 */
static void read_stats(int fd, const char *path, unsigned long long i,
		       unsigned long long sum[NCOUNTERS])
{
	char buf[READ_MAX + 1];
	unsigned long long v[NCOUNTERS];
	char *line;
	ssize_t n;
	int lines = 0;

	n = read(fd, buf, READ_MAX);
	if (n < 0)
		die("read");
	if (n == 0)
		die("read: '%s': unexpected end of file", path);
	buf[n] = '\0';
	line = strtok(buf, "\n");
	if (!line)
		die("unable to parse '%s': end of line not found", path);
	if (strcmp(line, STATS_HEADER) != 0)
		die("unable to parse '%s': invalid headers", path);
	if (i % lines_per_header() == 0)
		print_header();
	memset(sum, 0, NCOUNTERS * sizeof(*sum));
	while ((line = strtok(NULL, "\n"))) {
		if (sscanf(line, "%llu %llu %llu %llu %llu %llu", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5]) != NCOUNTERS)
			die("unable to parse '%s': scan error", path);
		for (int k = 0; k < NCOUNTERS; k++)
			sum[k] += v[k];
		lines++;
	}
	if (!lines)
		die("unable to parse '%s': no data", path);
}

int main(int argc, char **argv)
{
	static char path[PATH_MAX];
	const char *progname = basename(argc > 0 ? argv[0] : "avcstat");
	unsigned long long cur[NCOUNTERS], prev[NCOUNTERS] = {0};
	unsigned interval = 0;
	int cumulative = 0;
	struct sigaction sa;
	int c, fd;

	snprintf(path, sizeof(path), "%s/avc/cache_stats",
		 selinux_mnt ? selinux_mnt : "(null)");
	while ((c = getopt(argc, argv, "cf:h-?")) != -1) {
		switch (c) {
		case 'c':
			cumulative = 1;
			break;
		case 'f':
			strncpy(path, optarg, sizeof(path) - 1);
			break;
		case 'h':
		case '-':
			usage(progname);
			exit(0);
		default:
			usage(progname);
			die("unrecognized parameter '%c'", c);
		}
	}
	if (optind < argc) {
		/* errno keeps its stale value for later messages, as there */
		int saved = errno;
		unsigned long v;

		errno = 0;
		v = strtoul(argv[optind], NULL, 10);
		if (errno == ERANGE) {
			usage(progname);
			die("invalid interval '%s'", argv[optind]);
		}
		errno = saved;
		interval = (unsigned)v;
		if (!interval) {
			usage(progname);
			exit(0);
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_winch;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
	read_rows();

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open: '%s'", path);
	for (unsigned long long i = 0;; i++) {
		read_stats(fd, path, i, cur);
		for (int k = 0; k < NCOUNTERS; k++) {
			unsigned long long x = cur[k];

			if (!cumulative)
				x -= prev[k];
			printf(k ? " %10llu" : "%10llu", x);
			prev[k] = cur[k];
		}
		putchar('\n');
		if (!interval)
			break;
		/* a resize cuts the sleep short, as there */
		sleep(interval);
		if (lseek(fd, 0, SEEK_SET) < 0)
			die("lseek");
	}
	close(fd);
	return 0;
}
