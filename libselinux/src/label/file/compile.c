/* label/file/compile.c: text file_contexts to file_contexts.bin, for
 * sefcontext_compile (which links the static archive for it). */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fc.h"
#include "file.h"

/* The specs of the text file in, read into d (h's), in the reference's
 * order (regex specs first, each group as read), each context passed
 * through validate (unless NULL): 0 or -errno. */
static int read_specs(struct selabel_handle *h, struct fc_data *d,
		      const char *in, int (*validate)(const char *ctx))
{
	_cleanup_free_ char *buf = NULL;
	struct fc_load l = {
	    .h = h, .d = d, .path = in, .file = 0, .check_regex = true};
	struct fc_spec *v;
	struct stat st;
	uint32_t o = 0;
	size_t len;
	int r = lbl_read_file(in, &buf, &len, &st);

	if (r < 0)
		return r;
	d->files = calloc(1, sizeof(*d->files));
	if (!d->files || !(d->files[0] = strdup(in)))
		return -ENOMEM;
	d->nfiles = 1;
	r = fc_parse_text(&l, buf, len);
	if (r < 0)
		return r;
	v = malloc((d->nspec + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
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
			return -EINVAL;
		}
	}
	return 0;
}

/* d's specs written as the .bin out of the given version, through a
 * temporary file renamed into place: 0 or -errno, *what naming the
 * call that failed. */
static int write_bin(struct fc_data *d, const char *out, int version,
		     bool no_regex, const char **what)
{
	_cleanup_free_ char *tmp = NULL;
	_cleanup_close_ int fd = -1;
	int r;

	/* The reference's temporary name: out + six random characters. */
	if (asprintf(&tmp, "%sXXXXXX", out) < 0) {
		tmp = NULL;
		return -ENOMEM;
	}
	*what = "mkstemp";
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*what = "write";
	r = version == FC_BIN6_VERSION ? fc_write_bin6(d, fd, no_regex)
				       : fc_write_bin(d, fd, no_regex);
	if (r >= 0 && fchmod(fd, 0644) < 0) {
		*what = "fchmod";
		r = -errno;
	}
	if (r >= 0)
		r = lbl_fc_install(fd, tmp, out, what);
	if (r < 0)
		unlink(tmp);
	return r;
}

int lbl_fc_compile(const char *in, const char *out, int version, bool no_regex,
		   int (*validate)(const char *ctx), int *stage,
		   const char **what)
{
	struct selabel_handle h = {.backend = SELABEL_CTX_FILE};
	struct fc_data *d;
	int r;

	*stage = LBL_FC_READ;
	*what = NULL;
	if (version != 5 && version != FC_BIN6_VERSION)
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	pthread_mutex_init(&d->lock, NULL);
	d->jit = -1;
	h.data = d;
	r = read_specs(&h, d, in, validate);
	if (r >= 0) {
		*stage = LBL_FC_WRITE;
		r = write_bin(d, out, version, no_regex, what);
	}
	fc_data_free(d);
	return r;
}
