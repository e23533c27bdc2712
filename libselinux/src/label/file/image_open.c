/* label/file/image_open.c: a handle answered from an index image - the
 * image mapped by the engine (index/image.c), the handle's file names,
 * digest and SELABEL_OPT_VALIDATE from it. */
#include <string.h>

#include "../index/image.h"
#include "fc.h"

/* d->files (and the digest's list) from the roles read: the reader's
 * own paths, base plus the suffix of each.  The substitution files are
 * in the digest's list already (the open reads them first). */
static int name_files(struct selabel_handle *h, struct fc_data *d,
		      const uint8_t *m, const struct fc_img_hdr *hd,
		      const char *base)
{
	const uint32_t *roles =
	    (const uint32_t *)(m + hd->sec[FC_SEC_FILES].off);

	d->files = calloc(hd->nfiles, sizeof(*d->files));
	if (!d->files)
		return -ENOMEM;
	for (uint32_t i = 0; i < hd->nfiles; i++) {
		char **f = &d->files[d->nfiles];

		if (roles[i] == FC_IN_SUBS || roles[i] == FC_IN_SUBS_DIST)
			continue;
		if (asprintf(f, "%s%s", base, fc_img_role_suffix[roles[i]]) <
		    0) {
			*f = NULL;
			return -ENOMEM;
		}
		d->nfiles++;
		if (h->digest) {
			struct lbl_digest *g = h->digest;
			char **nf =
			    realloc(g->files, (g->nfiles + 2) * sizeof(*nf));

			if (!nf)
				return -ENOMEM;
			g->files = nf;
			nf[g->nfiles] = strdup(*f);
			if (!nf[g->nfiles])
				return -ENOMEM;
			nf[++g->nfiles] = NULL;
		}
	}
	if (h->digest) {
		memcpy(h->digest->value, hd->digest, LBL_SHA1_LEN);
		h->digest->done = true;
	}
	return 0;
}

/*
 * SELABEL_OPT_VALIDATE on an image: each distinct context through the
 * validator, as the files' open would put each line's: 0 if all pass
 * unchanged, -ESTALE otherwise (the files are read then, and their open
 * reports what fails, as ever) or when the matchpathcon hooks, which are
 * called with each line, are set.
 */
static int validate_ctxs(struct fc_data *d, const uint8_t *m,
			 const struct fc_img_hdr *hd)
{
	const struct fc_img_sec *x = &hd->sec[FC_SEC_CTXS];
	const uint32_t *v = (const uint32_t *)(m + x->off);

	if (lbl_mpc_invalidcon || lbl_mpc_canoncon || x->len % 4 ||
	    x->off % 8 || x->off > d->img_len || x->len > d->img_len - x->off ||
	    fc_sum_end(fc_sum(FC_SUM_INIT, v, x->len)) != hd->ctxs_sum)
		return -ESTALE;
	for (size_t i = 0; i < x->len / 4; i++) {
		char *c;
		bool same;

		if (v[i] >= d->img_nstr)
			return -ESTALE;
		c = strdup(d->istr + v[i]);
		if (!c)
			return -ENOMEM;
		same =
		    core_validate(&c) == 0 && c && !strcmp(c, d->istr + v[i]);
		free(c);
		if (!same)
			return -ESTALE;
	}
	return 0;
}

int fc_image_open(struct selabel_handle *h, struct fc_data *d, const char *base)
{
	struct fc_img_hdr hd;
	int r = fc_image_map(d, base, &hd);

	if (r < 0)
		return r;
	d->digest_nfiles0 = h->digest ? h->digest->nfiles : 0;
	r = name_files(h, d, d->img, &hd, base);
	if (r >= 0 && h->validating)
		r = validate_ctxs(d, d->img, &hd);
	if (r < 0) {
		fc_image_detach(h, d);
		return r;
	}
	d->indexed = 1;
	return 0;
}

void fc_image_detach(struct selabel_handle *h, struct fc_data *d)
{
	for (uint32_t i = 0; i < d->nfiles; i++)
		free(d->files[i]);
	free(d->files);
	d->files = NULL;
	d->nfiles = 0;
	if (h->digest) {
		struct lbl_digest *g = h->digest;

		while (g->nfiles > d->digest_nfiles0)
			free(g->files[--g->nfiles]);
		if (g->files)
			g->files[g->nfiles] = NULL;
		g->done = false;
	}
	fc_image_unmap(d);
}
