/* label/index/image.c: an index image (image.h) mapped and checked: the
 * header and sections at the map, each unit before its first use. */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image.h"
#include "node.h"

const char *const fc_img_role_suffix[FC_IN_NROLES] = {
    ".subs_dist", ".subs",	   "",	     ".bin",
    ".homedirs",  ".homedirs.bin", ".local", ".local.bin",
};

bool fc_image_disabled;
bool fc_image_test_trust;

void fc_img_input_of(const struct stat *st, struct fc_img_input *in)
{
	memset(in, 0, sizeof(*in));
	if (!st)
		return;
	in->present = 1;
	in->dev = st->st_dev;
	in->ino = st->st_ino;
	in->size = st->st_size;
	in->mtime_sec = st->st_mtim.tv_sec;
	in->mtime_nsec = st->st_mtim.tv_nsec;
	in->ctime_sec = st->st_ctim.tv_sec;
	in->ctime_nsec = st->st_ctim.tv_nsec;
}

/* The identities of a and b are equal (their digests aside). */
static bool same_identity(const struct fc_img_input *a,
			  const struct fc_img_input *b)
{
	return a->present == b->present && a->dev == b->dev &&
	       a->ino == b->ino && a->size == b->size &&
	       a->mtime_sec == b->mtime_sec && a->mtime_nsec == b->mtime_nsec &&
	       a->ctime_sec == b->ctime_sec && a->ctime_nsec == b->ctime_nsec;
}

/* base + the suffix of role r into path: false if too long. */
static bool role_path(char path[PATH_MAX], const char *base, size_t blen, int r)
{
	size_t sl = strlen(fc_img_role_suffix[r]);

	if (blen + sl >= PATH_MAX)
		return false;
	memcpy(path, base, blen);
	memcpy(path + blen, fc_img_role_suffix[r], sl + 1);
	return true;
}

/* The identities of base's files into now[] (digests zero): the number
 * that differ from hd's, or -errno (a stat failing otherwise than
 * ENOENT); *base_st is the base file's stat (zeroed if it has none). */
static int stat_inputs(const struct fc_img_hdr *hd, const char *base,
		       size_t blen, struct fc_img_input *now,
		       struct stat *base_st)
{
	char path[PATH_MAX];
	int differ = 0;

	memset(base_st, 0, sizeof(*base_st));
	for (int r = 0; r < FC_IN_NROLES; r++) {
		struct stat st;
		bool have;

		if (!role_path(path, base, blen, r))
			return -ENAMETOOLONG;
		have = stat(path, &st) == 0;
		if (!have && errno != ENOENT)
			return -errno;
		fc_img_input_of(have ? &st : NULL, &now[r]);
		differ += !same_identity(&now[r], &hd->input[r]);
		if (r == FC_IN_BASE && have)
			*base_st = st;
	}
	return differ;
}

/* Which of a text file (t) and its .bin (b) an open tries first: 0 the
 * text, 1 the .bin, -1 neither is there.  file/open.c's rule
 * (process_file): the .bin when it is at least as new, in whole seconds. */
static int first_choice(const struct fc_img_input *t,
			const struct fc_img_input *b)
{
	if (!b->present)
		return t->present ? 0 : -1;
	return !t->present || b->mtime_sec >= t->mtime_sec;
}

/* The digest of the file at path, if it is still the regular file of
 * identity in (of the size recorded): 0, or -ESTALE / -errno. */
static int sum_file(const char *path, const struct fc_img_input *in,
		    uint64_t size, uint64_t sum[2])
{
	struct stat st;
	int fd, r;

	if (in->size != size)
		return -ESTALE;
	/* O_NONBLOCK: a fifo put there meanwhile does not block the open */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_dev != in->dev || (uint64_t)st.st_ino != in->ino ||
	    (uint64_t)st.st_size != size) {
		close(fd);
		return -ESTALE;
	}
	r = fc_content_sum_fd(fd, sum);
	close(fd);
	return r;
}

int fc_image_inputs(const struct fc_img_hdr *hd, const uint32_t *roles,
		    uint32_t nroles, const char *base, bool every,
		    struct fc_img_input *now)
{
	const struct fc_img_input *was = hd->input;
	size_t blen = strlen(base);
	bool read[FC_IN_NROLES] = {false};
	char path[PATH_MAX];
	struct stat base_st;
	int r = stat_inputs(hd, base, blen, now, &base_st);

	if (r < 0)
		return r;
	for (int i = 0; i < FC_IN_NROLES; i++)
		memcpy(now[i].sum, was[i].sum, sizeof(now[i].sum));
	if (!r)
		return 0;
	/* The files an open reads: the substitutions, the first choice of
	 * each pair (the other is read only if it fails, as it did for the
	 * writer if the other is among roles[]: its bytes then fail again). */
	read[FC_IN_SUBS] = read[FC_IN_SUBS_DIST] = true;
	for (int t = FC_IN_BASE; t <= FC_IN_LOCAL; t += 2) {
		int c = first_choice(&now[t], &now[t + 1]);

		if (c != first_choice(&was[t], &was[t + 1]))
			return -ESTALE;
		if (c >= 0)
			read[t + c] = true;
	}
	for (uint32_t i = 0; i < nroles; i++)
		if (roles[i] < FC_IN_NROLES)
			read[roles[i]] = true;
	/* the cheap tests first: presence, sizes */
	for (int i = 0; i < FC_IN_NROLES; i++)
		if (now[i].present != was[i].present ||
		    ((read[i] || every) && now[i].size != was[i].size))
			return -ESTALE;
	for (int i = 0; i < FC_IN_NROLES; i++) {
		uint64_t sum[2];

		if (!now[i].present || same_identity(&now[i], &was[i]) ||
		    !(read[i] || every))
			continue;
		if (!role_path(path, base, blen, i))
			return -ENAMETOOLONG;
		r = sum_file(path, &now[i], was[i].size, sum);
		if (r < 0)
			return r;
		if (memcmp(sum, was[i].sum, sizeof(sum)))
			return -ESTALE;
	}
	return 1;
}

/* Section s of the image at m (len bytes), checked: it lies inside the
 * file, 8-aligned, and holds n elements of size sz exactly (n ~0: any
 * whole number of them, counted in *n). */
static const void *section(const uint8_t *m, size_t len,
			   const struct fc_img_hdr *hd, int s, size_t sz,
			   uint64_t *n)
{
	const struct fc_img_sec *x = &hd->sec[s];

	if (x->off % 8 || x->off > len || x->len > len - x->off)
		return NULL;
	if (*n == UINT64_MAX) {
		if (x->len % sz)
			return NULL;
		*n = x->len / sz;
	} else if (*n > UINT64_MAX / sz || x->len != *n * sz) {
		return NULL;
	}
	return m + x->off;
}

/* Is bit i of the verified set v on?  Set it. */
static bool bit(const uint64_t *v, uint32_t i)
{
	return __atomic_load_n(&v[i / 64], __ATOMIC_ACQUIRE) >> (i % 64) & 1;
}

static void set_bit(uint64_t *v, uint32_t i)
{
	__atomic_fetch_or(&v[i / 64], 1ull << (i % 64), __ATOMIC_RELEASE);
}

uint32_t fc_spec_sum(const struct fc_data *d, uint32_t i)
{
	const struct fc_ispec *s = &d->ispec[i];
	const struct fc_ix *x = &d->ix[i];
	const char *ctx = d->istr + s->ctx;
	uint64_t h = FC_SUM_INIT;

	h = fc_sum(h, s, sizeof(*s));
	h = fc_sum(h, x, sizeof(*x));
	h = fc_sum(h, d->istr + s->regex, s->rlen + 1);
	h = fc_sum(h, ctx, strnlen(ctx, d->img_nstr - s->ctx));
	h = fc_sum(h, d->lits + x->lit, x->lit_len + 1);
	return fc_sum_end(h);
}

bool fc_spec_check(const struct fc_data *d, uint32_t i)
{
	const struct fc_ispec *s;
	const struct fc_ix *x;

	if (bit(d->ok_spec, i))
		return true;
	s = &d->ispec[i];
	x = &d->ix[i];
	/* The strings end in their pools (whose last byte is a NUL); who
	 * reads a regex by its length stays inside too. */
	if (!(s->regex < d->img_nstr && s->rlen < d->img_nstr - s->regex &&
	      s->ctx < d->img_nstr && s->file < d->nfiles &&
	      !(s->mode & ~(uint32_t)S_IFMT) && s->meta <= 1 &&
	      x->lit < d->img_nlits && x->lit_len < d->img_nlits - x->lit &&
	      x->rem_off <= s->rlen && x->stem_len <= s->rlen &&
	      x->prefix_len <= s->rlen && x->kind <= FC_SINGLE &&
	      (x->hnext == UINT32_MAX || x->hnext < i)) ||
	    fc_spec_sum(d, i) != d->sum_spec[i])
		return false;
	set_bit(d->ok_spec, i);
	return true;
}

uint32_t fc_node_sum(const struct fc_data *d, uint32_t k)
{
	const struct fc_trie *t = &d->trie;
	const struct fc_tnode *n = &t->node[k];
	uint64_t h = FC_SUM_INIT;

	h = fc_sum(h, n, sizeof(*n));
	h = fc_sum(h, t->keys + n->child, n->nchild);
	h = fc_sum(h, t->kids + n->child, n->nchild * sizeof(*t->kids));
	h = fc_sum(h, t->labels + n->label, n->label_len);
	h = fc_sum(h, t->specs + n->specs, n->nspecs * sizeof(*t->specs));
	if (n->set != UINT32_MAX) {
		const struct fc_iset *is = &t->sets[n->set];

		h = fc_sum(h, is, sizeof(*is));
		h = fc_sum(h, t->dfas + is->dfa, is->ndfa * sizeof(*t->dfas));
		h = fc_sum(h, t->dfa_sum + is->dfa,
			   is->ndfa * sizeof(*t->dfa_sum));
		h = fc_sum(h, t->rest + is->rest, is->nrest * sizeof(*t->rest));
	}
	return fc_sum_end(h);
}

/* Node k's ranges inside the trie's arrays (its set's too): then
 * fc_node_sum(d, k) reads inside the image. */
static bool node_in_bounds(const struct fc_trie *t, uint32_t k)
{
	const struct fc_tnode *n = &t->node[k];
	const struct fc_iset *is;

	if (n->child > t->nkids || n->nchild > t->nkids - n->child ||
	    n->label > t->nlabels || n->label_len > t->nlabels - n->label ||
	    n->specs > t->nspecs || n->nspecs > t->nspecs - n->specs ||
	    (k && !n->label_len) || (!k && (n->label_len || n->depth)))
		return false;
	if (n->set == UINT32_MAX)
		return !n->nspecs;
	if (n->set >= t->nsets || !n->nspecs)
		return false;
	is = &t->sets[n->set];
	return is->dfa <= t->ndfas && is->ndfa <= t->ndfas - is->dfa &&
	       is->rest <= t->nrest && is->nrest <= t->nrest - is->rest;
}

bool fc_node_check(const struct fc_data *d, uint32_t k)
{
	if (bit(d->ok_node, k))
		return true;
	if (!node_in_bounds(&d->trie, k) || fc_node_sum(d, k) != d->sum_node[k])
		return false;
	set_bit(d->ok_node, k);
	return true;
}

uint32_t fc_heads_sum(const struct fc_data *d, uint32_t blk)
{
	uint32_t n = d->mask + 1 - blk * 64;

	return fc_sum_end(fc_sum(FC_SUM_INIT, d->heads + blk * 64,
				 (n < 64 ? n : 64) * sizeof(*d->heads)));
}

bool fc_heads_check(const struct fc_data *d, uint32_t b)
{
	if (bit(d->ok_head, b / 64))
		return true;
	if (fc_heads_sum(d, b / 64) != d->sum_head[b / 64])
		return false;
	set_bit(d->ok_head, b / 64);
	return true;
}

int fc_image_check_all(struct fc_data *d)
{
	int r = __atomic_load_n(&d->img_checked, __ATOMIC_ACQUIRE);

	if (!d->img)
		return 0;
	if (r)
		return r < 0 ? -EINVAL : 0;
	r = 1;
	for (uint32_t i = 0; i < d->nspec && r > 0; i++)
		if (!fc_spec_check(d, i))
			r = -1;
	if (r < 0)
		__atomic_store_n(&d->img_bad, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&d->img_checked, r, __ATOMIC_RELEASE);
	return r < 0 ? -EINVAL : 0;
}

/* Attach the image m (len bytes) to d: 0, or -EINVAL if it does not
 * check out (the caller unmaps it). */
static int attach(struct fc_data *d, const uint8_t *m, size_t len,
		  const struct fc_img_hdr *hd, bool verify)
{
	uint64_t nstr = UINT64_MAX, nlits = UINT64_MAX, nheads, nfiles;
	uint64_t nnode = UINT64_MAX, nkids = UINT64_MAX, nkeys,
		 ntspecs = UINT64_MAX;
	uint64_t nlabels = UINT64_MAX, nsets = UINT64_MAX, ndfas = UINT64_MAX;
	uint64_t nrest = UINT64_MAX, ndfa = UINT64_MAX, nspec = hd->nspec;
	uint64_t nsingle = hd->nsingle, nhsum, nnsum, ndsum;
	const uint32_t *roles, *heads, *single;
	struct fc_trie *t = &d->trie;
	uint32_t nspecfiles = 0;
	size_t words;

	nfiles = hd->nfiles;
	nheads = (uint64_t)hd->mask + 1;
	if (!hd->nspec || !hd->nfiles || hd->nfiles > FC_IN_NROLES ||
	    (nheads & (nheads - 1)) || nheads > UINT32_MAX ||
	    hd->nsingle > hd->nspec)
		return -EINVAL;
	nhsum = (nheads + 63) / 64;
	roles = section(m, len, hd, FC_SEC_FILES, 4, &nfiles);
	d->ispec =
	    section(m, len, hd, FC_SEC_SPEC, sizeof(struct fc_ispec), &nspec);
	d->istr = section(m, len, hd, FC_SEC_STR, 1, &nstr);
	d->ix = section(m, len, hd, FC_SEC_IX, sizeof(struct fc_ix), &nspec);
	d->lits = section(m, len, hd, FC_SEC_LITS, 1, &nlits);
	heads = section(m, len, hd, FC_SEC_HEADS, 4, &nheads);
	single = section(m, len, hd, FC_SEC_SINGLE, 4, &nsingle);
	t->node = section(m, len, hd, FC_SEC_TNODE, sizeof(*t->node), &nnode);
	t->kids = section(m, len, hd, FC_SEC_TKIDS, 4, &nkids);
	nkeys = nkids;
	t->keys = section(m, len, hd, FC_SEC_TKEYS, 1, &nkeys);
	t->specs = section(m, len, hd, FC_SEC_TSPECS, 4, &ntspecs);
	t->labels = section(m, len, hd, FC_SEC_TLABELS, 1, &nlabels);
	t->sets = section(m, len, hd, FC_SEC_SETS, sizeof(*t->sets), &nsets);
	t->dfas = section(m, len, hd, FC_SEC_DFAS, 8, &ndfas);
	t->rest = section(m, len, hd, FC_SEC_REST, 4, &nrest);
	t->dfa_base = section(m, len, hd, FC_SEC_DFA, 1, &ndfa);
	d->sum_spec = section(m, len, hd, FC_SEC_SPECSUM, 4, &nspec);
	nnsum = nnode;
	d->sum_node = section(m, len, hd, FC_SEC_NODESUM, 4, &nnsum);
	d->sum_head = section(m, len, hd, FC_SEC_HEADSUM, 4, &nhsum);
	ndsum = ndfas;
	t->dfa_sum = section(m, len, hd, FC_SEC_DFASUM, 4, &ndsum);
	if (!roles || !d->ispec || !d->istr || !d->ix || !d->lits || !heads ||
	    !single || !t->node || !t->kids || !t->keys || !t->specs ||
	    !t->labels || !t->sets || !t->dfas || !t->rest || !t->dfa_base ||
	    !d->sum_spec || !d->sum_node || !d->sum_head || !t->dfa_sum)
		return -EINVAL;
	/* Counts the lookups keep in 32 bits; strings that end inside. */
	if (nstr == 0 || nstr > UINT32_MAX || d->istr[nstr - 1] || nlits == 0 ||
	    nlits > UINT32_MAX || d->lits[nlits - 1] || nnode == 0 ||
	    nnode > UINT32_MAX || nkids > UINT32_MAX || ntspecs > UINT32_MAX ||
	    nlabels > UINT32_MAX || nsets > UINT32_MAX || ndfas > UINT32_MAX ||
	    nrest > UINT32_MAX)
		return -EINVAL;
	/* The small lists, checked whole now. */
	if (verify && (fc_sum_end(fc_sum(FC_SUM_INIT, roles, nfiles * 4)) !=
			   hd->files_sum ||
		       fc_sum_end(fc_sum(FC_SUM_INIT, single, nsingle * 4)) !=
			   hd->single_sum))
		return -EINVAL;
	for (uint64_t i = 0; i < nfiles; i++) {
		if (roles[i] >= FC_IN_NROLES)
			return -EINVAL;
		nspecfiles +=
		    roles[i] != FC_IN_SUBS && roles[i] != FC_IN_SUBS_DIST;
	}
	if (!nspecfiles)
		return -EINVAL;
	for (uint64_t i = 0; i < nsingle; i++)
		if (single[i] >= hd->nspec)
			return -EINVAL;
	/* Each spec, head block and node is checked (bounds, checksum)
	 * where an index of it comes out of the image, not here: an open
	 * touches none but the root. */
	d->nspec = hd->nspec;
	d->img_nstr = (uint32_t)nstr;
	d->img_nlits = (uint32_t)nlits;
	t->nnode = (uint32_t)nnode;
	t->nkids = (uint32_t)nkids;
	t->nspecs = (uint32_t)ntspecs;
	t->nlabels = (uint32_t)nlabels;
	t->nsets = (uint32_t)nsets;
	t->ndfas = (uint32_t)ndfas;
	t->nrest = (uint32_t)nrest;
	t->dfa_len = ndfa;
	d->heads = heads;
	d->mask = hd->mask;
	d->single = single;
	d->nsingle = hd->nsingle;
	memcpy(d->fixed_lens, hd->fixed_lens, sizeof(d->fixed_lens));
	/* The verified units: a bit each. */
	words = (d->nspec + 63) / 64 + (nnode + 63) / 64 + (nhsum + 63) / 64;
	d->ok_spec = calloc(words, sizeof(uint64_t));
	if (!d->ok_spec)
		return -ENOMEM;
	d->ok_node = d->ok_spec + (d->nspec + 63) / 64;
	d->ok_head = d->ok_node + (nnode + 63) / 64;
	return !verify || fc_node_check(d, 0) ? 0 : -EINVAL;
}

int fc_image_view(struct fc_data *d, const void *m, size_t len)
{
	const struct fc_img_hdr *hd = m;
	int r;

	if (len < sizeof(*hd))
		return -EINVAL;
	r = attach(d, m, len, hd, false);
	if (r < 0) {
		free(d->ok_spec);
		d->ok_spec = NULL;
	}
	return r;
}

bool fc_image_header_ok(const struct fc_img_hdr *hd, size_t len)
{
	return len >= sizeof(*hd) &&
	       !memcmp(hd->magic, FC_IMG_MAGIC, sizeof(hd->magic)) &&
	       hd->version == FC_IMG_VERSION &&
	       hd->semantics == FC_IMG_SEMANTICS && hd->order == FC_IMG_ORDER &&
	       hd->word == FC_IMG_WORD && hd->sizes == FC_IMG_SIZES &&
	       hd->size == (uint64_t)len &&
	       (fc_image_test_trust ||
		hd->check ==
		    fc_img_check(hd, offsetof(struct fc_img_hdr, check)));
}

int fc_image_map(struct fc_data *d, const char *base, struct fc_img_hdr *hd)
{
	size_t blen = strlen(base), sl = strlen(FC_IMG_SUFFIX);
	struct fc_img_input now[FC_IN_NROLES];
	char path[PATH_MAX];
	struct stat st, base_st;
	int differ = 0;
	void *m;
	int fd, r;

	if (fc_image_disabled || blen + sl >= sizeof(path))
		return -ENOENT;
	memcpy(path, base, blen);
	memcpy(path + blen, FC_IMG_SUFFIX, sl + 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size < sizeof(*hd) ||
	    pread(fd, hd, sizeof(*hd), 0) != (ssize_t)sizeof(*hd)) {
		close(fd);
		return -EINVAL;
	}
	if (!fc_image_test_trust)
		differ = stat_inputs(hd, base, blen, now, &base_st);
	if (!fc_image_header_ok(hd, st.st_size) || differ < 0 ||
	    /* no more writable than the files it stands for */
	    (!fc_image_test_trust &&
	     (st.st_uid != base_st.st_uid || (st.st_mode & 022)))) {
		close(fd);
		return -ESTALE;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	d->img = m;
	d->img_len = st.st_size;
	r = attach(d, m, st.st_size, hd, true);
	/* Identities that differ: the image is taken if the files an open
	 * would read hold the bytes it was made of (a copy of them). */
	if (r >= 0 && differ &&
	    fc_image_inputs(hd,
			    (const uint32_t *)((const uint8_t *)m +
					       hd->sec[FC_SEC_FILES].off),
			    hd->nfiles, base, false, now) < 0)
		r = -ESTALE;
	if (r >= 0)
		r = fc_nstate_alloc(d);
	if (r < 0)
		fc_image_unmap(d);
	return r;
}

void fc_image_unmap(struct fc_data *d)
{
	fc_nstate_free(d);
	free(d->ok_spec);
	d->ok_spec = d->ok_node = d->ok_head = NULL;
	d->sum_spec = d->sum_node = d->sum_head = NULL;
	d->ispec = NULL;
	d->istr = NULL;
	d->ix = NULL;
	d->lits = NULL;
	d->heads = NULL;
	d->single = NULL;
	d->nsingle = 0;
	d->nspec = 0;
	memset(d->fixed_lens, 0, sizeof(d->fixed_lens));
	memset(&d->trie, 0, sizeof(d->trie));
	munmap(d->img, d->img_len);
	d->img = NULL;
	d->img_len = 0;
}
