/* label/fc_compile.c: text file_contexts to file_contexts.bin, for
 * sefcontext_compile (which links the static archive for it). */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "fc.h"
#include "file.h"

int lbl_fc_compile(const char *in, const char *out, int version, bool no_regex,
		   int (*validate)(const char *ctx), int *stage,
		   const char **what)
{
	struct selabel_handle h = {.backend = SELABEL_CTX_FILE};
	struct fc_data *d = calloc(1, sizeof(*d));
	_cleanup_free_ char *tmp = NULL, *buf = NULL;
	_cleanup_close_ int fd = -1;
	struct stat st;
	size_t len;
	int r;

	*stage = LBL_FC_READ;
	*what = NULL;
	if (!d)
		return -ENOMEM;
	if (version != 5 && version != FC_BIN6_VERSION) {
		free(d);
		return -EINVAL;
	}
	pthread_mutex_init(&d->lock, NULL);
	d->jit = -1;
	h.data = d;
	r = lbl_read_file(in, &buf, &len, &st);
	if (r < 0)
		goto out;
	d->files = calloc(1, sizeof(*d->files));
	if (!d->files || !(d->files[0] = strdup(in))) {
		r = -ENOMEM;
		goto out;
	}
	d->nfiles = 1;
	struct fc_load l = {
	    .h = &h, .d = d, .path = in, .file = 0, .check_regex = true};

	r = fc_parse_text(&l, buf, len);
	if (r < 0)
		goto out;
	/* The reference's order: regex specs first, each group as read. */
	struct fc_spec *v = malloc((d->nspec + 1) * sizeof(*v));
	uint32_t o = 0;

	if (!v) {
		r = -ENOMEM;
		goto out;
	}
	/*
	 * analyzer: false positive (clang CallAndMessage): meta is 0 or 1
	 * (fc_spec.c, fc_text.c), so the two passes copy every one of the nspec
	 * specs into v.
	 */
	for (int pass = 1; pass >= 0; pass--)
		for (uint32_t i = 0; i < d->nspec; i++)
			if (d->spec[i].meta == pass)
				v[o++] = d->spec[i];
	if (!d->spec_in_arena)
		free(d->spec);
	d->spec_in_arena = false;
	d->spec = v;
	for (uint32_t i = 0; validate && i < d->nspec; i++) {
		struct fc_spec *s = &d->spec[i];

		if (strcmp(s->ctx, "<<none>>") && validate(s->ctx) < 0) {
			core_log(SELINUX_ERROR,
				 "%s: line %u has invalid context %s\n", in,
				 s->lineno, s->ctx);
			r = -EINVAL;
			goto out;
		}
	}
	*stage = LBL_FC_WRITE;
	/* The reference's temporary name: out + six random characters. */
	if (asprintf(&tmp, "%sXXXXXX", out) < 0) {
		tmp = NULL;
		r = -ENOMEM;
		goto out;
	}
	*what = "mkstemp";
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	*what = "write";
	r = version == FC_BIN6_VERSION ? fc_write_bin6(d, fd, no_regex)
				       : fc_write_bin(d, fd, no_regex);
	if (r >= 0 && fchmod(fd, 0644) < 0) {
		*what = "fchmod";
		r = -errno;
	}
	if (r >= 0 && rename(tmp, out) < 0) {
		*what = "rename";
		r = -errno;
	}
	if (r < 0)
		unlink(tmp);
out:
	fc_data_free(d);
	return r;
}
