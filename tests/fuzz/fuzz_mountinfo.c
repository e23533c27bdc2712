/*
 * Fuzz target for /proc/self/mountinfo, which decides which selinuxfs
 * the library trusts when none is at /sys/fs/selinux or /selinux: the
 * input is the mountinfo file, scanned as at load time
 * (core_mountinfo_scan, unexported, with the fixture's file instead of
 * /proc's) and line by line (core_mountinfo_line).
 *
 * Checked against a parse written here from mountinfo(5) and the rule
 * in core/selinuxfs.c: a line is trusted when its file system type
 * (the field after the "-" that ends the optional fields) is
 * "selinuxfs", or "fuse.selinuxfs" with the option user_id=0 in its
 * super options (a FUSE file system mounted by root); the mount point
 * is field 5 with its \ooo escapes undone.  The scan adopts the first
 * trusted mount point that statvfs() accepts, unless it is read-only
 * (a container's "SELinux is off": the scan stops, nothing adopted).
 */
#include <stdbool.h>
#include <sys/statvfs.h>

#include "fuzz_common.h"

/* Unexported, from core/ (see core/internal.h). */
int core_mountinfo_line(const char *line, char **mnt, bool *ro);
void core_mountinfo_scan(const char *path);
extern char *selinux_mnt;

#define MAXTOK 64

/* "\ooo" (first digit 0-3) undone in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				    (s[3] - '0'));
			s += 4;
		} else {
			*o = *s++;
		}
	}
	*o = '\0';
}

static bool has_opt(const char *list, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *p = list;;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len == n && !memcmp(p, opt, n))
			return true;
		if (!c)
			return false;
		p = c + 1;
	}
}

/* The oracle: 1 and *mnt (malloc'd) for a trusted line, else 0.  line
 * is one C string (mountinfo's line up to its first NUL). */
static int oracle(const char *line, char **mnt)
{
	char *copy = strdup(line), *tok[MAXTOK], *p;
	size_t n = 0, sep;
	int r = 0;

	if (!copy)
		abort();
	copy[strcspn(copy, "\n")] = '\0';
	/* Words are separated by runs of spaces. */
	for (p = copy; *p && n < MAXTOK;) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		tok[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	if (n == MAXTOK)
		goto out; /* not for this oracle: the caller skips it */
	for (sep = 6; sep < n && strcmp(tok[sep], "-"); sep++)
		;
	/* The separator, the type and the source at least. */
	if (sep + 2 >= n)
		goto out;
	if (!strcmp(tok[sep + 1], "selinuxfs") ||
	    (!strcmp(tok[sep + 1], "fuse.selinuxfs") && sep + 3 < n &&
	     has_opt(tok[sep + 3], "user_id=0"))) {
		unescape(tok[4]);
		*mnt = strdup(tok[4]);
		if (!*mnt)
			abort();
		r = 1;
	}
out:
	free(copy);
	return n == MAXTOK ? -1 : r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *expect = NULL;
	/* decided: the scan's answer is known (expect, NULL for none);
	 * unknown: a line too long for the oracle came first. */
	bool decided = false, unknown = false;
	size_t at = 0;

	if (!text)
		abort();
	fz_init("mountinfo");
	fz_write("mountinfo", data, size);
	memcpy(text, data, size);
	text[size] = '\0';

	/* Each line alone, and what the scan must adopt. */
	while (at < size) {
		char *got = NULL, *want = NULL, *line = text + at;
		bool ro = false;
		size_t end = at;
		int r, w;

		while (end < size && text[end] != '\n')
			end++;
		text[end] = '\0';
		at = end + 1;
		w = oracle(line, &want);
		r = core_mountinfo_line(line, &got, &ro);
		if (r < 0 || r > 1 || (w >= 0 && r != w))
			abort();
		if (r != !!got || (w == 1 && strcmp(got, want)))
			abort();
		if (w < 0 && !decided)
			unknown = true;
		if (r == 1 && !decided && !unknown) {
			struct statvfs vfs;

			if (statvfs(got, &vfs) == 0) {
				decided = true;
				if (!(vfs.f_flag & ST_RDONLY) &&
				    !(expect = strdup(got)))
					abort();
			}
		}
		free(got);
		free(want);
	}

	fini_selinuxmnt();
	core_mountinfo_scan(fz_path("mountinfo"));
	if (!unknown && (!expect != !selinux_mnt ||
			 (expect && strcmp(expect, selinux_mnt))))
		abort();
	fini_selinuxmnt();
	free(expect);
	free(text);
	return 0;
}
