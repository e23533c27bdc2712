/*
 * selabel_digest - print the digest of the files a labelling backend read
 *
 * SYNOPSIS
 *     selabel_digest -b backend [-d] [-v] [-B] [-i] [-f file]
 *
 * DESCRIPTION
 *     Opens a handle of the backend with SELABEL_OPT_DIGEST and prints the
 *     SHA-1 digest of the specification files it read and their names
 *     (selabel_digest(3)).
 *
 * OPTIONS
 *     -b backend
 *         file, media, x or db (prop is accepted and fails: not built).
 *     -d
 *         Accepted for compatibility; no effect.
 *     -v
 *         Also run "cat FILES | openssl dgst -sha1 -hex" on the files read,
 *         to compare the two digests.
 *     -B
 *         Base file_contexts only: no .homedirs or .local (file backend).
 *     -i
 *         Do not ask for a digest (selabel_digest then fails).
 *     -f file
 *         Read this file instead of the policy's.
 *
 * EXIT STATUS
 *     0
 *         The digest was printed.
 *     1
 *         Wrong arguments.
 *     255
 *         The handle or the digest could not be obtained.
 *
 * SEE ALSO
 *     selabel_lookup(8), sefcontext_compile(8), selabel_digest(3)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

#include "util.h"

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s -b backend [-d] [-v] [-B] [-i] [-f file]\n\n"
		"Where:\n\t"
		"-b  The backend - \"file\", \"media\", \"x\", \"db\" or "
		"\"prop\"\n\t"
		"-v  Run \"cat <specfile_list> | openssl dgst -sha1 -hex\"\n\t"
		"    on the list of specfiles to compare the SHA1 digests.\n\t"
		"-B  Use base specfiles only (valid for \"-b file\" only).\n\t"
		"-i  Do not request a digest.\n\t"
		"-f  Optional file containing the specs (defaults to\n\t"
		"    those used by loaded policy).\n\n",
		prog);
	exit(1);
}

/* "cat FILES | openssl dgst -sha1 -hex", its hex digest in out. */
static int openssl_digest(char **files, size_t n, char *out, size_t size)
{
	size_t len = 64;
	char *cmd, line[256], *eq;
	FILE *p;

	for (size_t i = 0; i < n; i++)
		len += strlen(files[i]) + 3;
	cmd = malloc(len);
	if (!cmd)
		return -1;
	strcpy(cmd, "cat");
	for (size_t i = 0; i < n; i++) {
		strcat(cmd, " ");
		strcat(cmd, files[i]);
	}
	strcat(cmd, " | openssl dgst -sha1 -hex");
	p = popen(cmd, "r");
	free(cmd);
	if (!p)
		return -1;
	if (!fgets(line, sizeof(line), p)) {
		pclose(p);
		return -1;
	}
	pclose(p);
	eq = strchr(line, '=');
	if (!eq)
		return -1;
	eq++;
	while (*eq == ' ')
		eq++;
	eq[strcspn(eq, "\n")] = '\0';
	snprintf(out, size, "%s", eq);
	return 0;
}

int main(int argc, char **argv)
{
	int backend = SELABEL_CTX_FILE, validate = 0, c;
	unsigned char *digest = NULL;
	size_t digest_len, nfiles;
	char **files, hex[64] = "";
	struct selinux_opt opts[3] = { { SELABEL_OPT_BASEONLY, NULL },
				       { SELABEL_OPT_PATH, NULL },
				       { SELABEL_OPT_DIGEST, (char *)1 } };
	struct selabel_handle *h;

	if (argc < 3)
		usage(argv[0]);
	while ((c = getopt(argc, argv, "ib:Bvf:")) != -1) {
		switch (c) {
		case 'b':
			backend = util_selabel_backend(optarg);
			if (backend < 0) {
				fprintf(stderr, "Unknown backend: %s\n",
					optarg);
				usage(argv[0]);
			}
			break;
		case 'B':
			opts[0].value = (char *)1;
			break;
		case 'v':
			validate = 1;
			break;
		case 'i':
			opts[2].value = NULL;
			break;
		case 'f':
			opts[1].value = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	/*
	 * As Debian's: -b is optional (file), and this program's message
	 * is not selabel_lookup's.
	 */
	h = selabel_open(backend, opts, 3);
	if (!h) {
		fprintf(stderr, "ERROR: selabel_open: %s\n", strerror(errno));
		return -1;
	}
	if (selabel_digest(h, &digest, &digest_len, &files, &nfiles) < 0) {
		if (errno == EINVAL)
			fprintf(stderr, "No digest available.\n");
		else
			fprintf(stderr, "selabel_digest ERROR: %s\n",
				strerror(errno));
		selabel_close(h);
		return -1;
	}
	for (size_t i = 0; i < digest_len && 2 * i + 2 < sizeof(hex); i++)
		sprintf(hex + 2 * i, "%02x", digest[i]);
	printf("SHA1 digest: %s\n", hex);
	printf("calculated using the following specfile(s):\n");
	for (size_t i = 0; i < nfiles; i++)
		printf("%s\n", files[i]);
	if (validate) {
		char other[128];

		if (openssl_digest(files, nfiles, other, sizeof(other)) < 0) {
			fprintf(stderr, "Could not run openssl\n");
			selabel_close(h);
			return -1;
		}
		if (!strcmp(other, hex))
			printf("Passed validation - digest: %s\n", other);
		else
			printf("Failed validation:\n\tselabel_digest: %s\n\t"
			       "SHA1 digest:    %s\n",
			       hex, other);
	}
	selabel_close(h);
	return 0;
}
