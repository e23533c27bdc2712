/*
 * Fuzz target for the substitution files and the file_contexts beside
 * the base: the input, cut at lines "@@" (fuzz_common.h), is
 * booleans.subs_dist of a fixture policy root, then
 * file_contexts.subs_dist, file_contexts.subs, file_contexts.homedirs and
 * file_contexts.local beside a small fixed file_contexts.
 * selinux_boolean_sub() is asked for a few names and for the first word
 * of each line of the booleans file; the file_contexts handle, opened
 * once with SELABEL_OPT_BASEONLY and once without (.homedirs and .local
 * read too), is looked up with paths that the aliases may rewrite (and
 * with the first word of each alias line).  Checked: selinux_boolean_sub never
 * returns NULL for a name (no file or no match gives a copy), and never
 * a name with a slash; the file handle opens and its lookups succeed or
 * fail with errno.
 */
#include <errno.h>

#include <selinux/label.h>

#include "fuzz_common.h"
#include "fuzz_explain.h"

#define ROOT "etc/selinux/t/"
#define FC ROOT "contexts/files/file_contexts"

/* The first word of each line of part, NUL-terminated, into v (max). */
static size_t first_words(const struct fz_part *part, char (*v)[64], size_t max)
{
	size_t n = 0, i = 0;

	while (i < part->n && n < max) {
		size_t k = 0;

		while (i < part->n && (part->p[i] == ' ' || part->p[i] == '\t'))
			i++;
		while (i < part->n && k < 63 && part->p[i] != '\n' &&
		       part->p[i] != ' ' && part->p[i] != '\t' && part->p[i])
			v[n][k++] = (char)part->p[i++];
		v[n][k] = '\0';
		if (k)
			n++;
		while (i < part->n && part->p[i] != '\n')
			i++;
		i++;
	}
	return n;
}

static void booleans(const struct fz_part *part)
{
	static const char *const fixed[] = {"allow_ypbind", "nis_enabled", "",
					    "x/y", "#"};
	char words[16][64];
	size_t n = first_words(part, words, 16);

	for (size_t i = 0; i < 5 + n; i++) {
		const char *name = i < 5 ? fixed[i] : words[i - 5];
		char *sub;

		errno = 0;
		sub = selinux_boolean_sub(name);
		if (!sub) {
			if (errno != ENOMEM)
				abort();
			continue;
		}
		if (strcmp(sub, name) && strchr(sub, '/'))
			abort();
		free(sub);
	}
}

/* Lookups of fixed keys and of words (the aliases' first words), and of
 * a path under each, which an alias rewrites too. */
static void lookups(struct selabel_handle *h, char (*words)[64], size_t n)
{
	static const char *const keys[] = {
	    "/",   "/a",       "/a/b", "/usr/lib/x", "/home/jo/.ssh", "//",
	    "/a/", "relative", ""};
	const size_t nkeys = sizeof(keys) / sizeof(keys[0]);

	for (size_t i = 0; i < nkeys + n; i++) {
		const char *key = i < nkeys ? keys[i] : words[i - nkeys];
		char *con = NULL;
		char sub[80];

		errno = 0;
		if (selabel_lookup_raw(h, &con, key, 0) == 0)
			freecon(con);
		else if (!errno)
			abort();
		fz_explain(h, key, 0, true);
		snprintf(sub, sizeof(sub), "%s/x", key);
		if (selabel_lookup_raw(h, &con, sub, 0100000) == 0)
			freecon(con);
	}
}

/* The file_contexts handle with BASEONLY (2 options), then without it
 * (1 option: .homedirs and .local are read too). */
static void file_subs(const struct fz_part *dist, const struct fz_part *subs)
{
	struct selinux_opt opts[] = {
	    {SELABEL_OPT_PATH, NULL},
	    {SELABEL_OPT_BASEONLY, (char *)1},
	};
	char words[16][64];
	size_t n = first_words(subs, words, 8);

	n += first_words(dist, words + n, 8);
	opts[0].value = fz_path(FC);
	for (unsigned nopts = 2; nopts >= 1; nopts--) {
		struct selabel_handle *h;

		errno = 0;
		h = selabel_open(SELABEL_CTX_FILE, opts, nopts);
		if (!h) {
			if (!errno)
				abort();
			continue;
		}
		lookups(h, words, n);
		selabel_close(h);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_part part[5];

	if (fz_init("subs")) {
		fz_mkdirs("etc/selinux");
		core_set_config_root(fz_path("etc/selinux"));
		fz_mkdirs(ROOT "contexts/files");
		fz_writes(FC, "/.*\t\tsystem_u:object_r:default_t\n"
			      "/a(/.*)?\t\tsystem_u:object_r:a_t\n"
			      "/usr/lib(/.*)?\tsystem_u:object_r:lib_t\n"
			      "/home/[^/]+/\\.ssh(/.*)?\tu:object_r:ssh_t\n"
			      "/\t\t-d\tsystem_u:object_r:root_t\n");
		if (selinux_set_policy_root(fz_path("etc/selinux/t")) < 0)
			abort();
	}
	fz_split(data, size, part, 5);
	fz_write(ROOT "booleans.subs_dist", part[0].p, part[0].n);
	fz_write(FC ".subs_dist", part[1].p, part[1].n);
	fz_write(FC ".subs", part[2].p, part[2].n);
	fz_write(FC ".homedirs", part[3].p, part[3].n);
	fz_write(FC ".local", part[4].p, part[4].n);

	booleans(&part[0]);
	file_subs(&part[1], &part[2]);
	return 0;
}
