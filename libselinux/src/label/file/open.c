/* label/label_file.c: the file_contexts backend, opening and closing. */
#include <limits.h>
#include <string.h>
#include <endian.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "fc.h"
#include "release.h"
#include "../index/image.h"
#include "tree.h"

void fc_data_free(struct fc_data *d)
{
	if (!d)
		return;
	fc_index_free(d);
	free(d->ok_spec);
	fc_intern_free(d);
	for (uint32_t i = 0; d->re && i < d->nspec; i++)
		if (d->re[i] != FC_RE_BAD)
			pcre2_code_free(d->re[i]);
	free(d->re);
	if (!d->spec_in_arena)
		free(d->spec);
	fc_arena_free(d);
	for (uint32_t i = 0; i < d->nfiles; i++)
		free(d->files[i]);
	free(d->files);
	if (d->img)
		munmap(d->img, d->img_len);
	fc_subs_free(d->subs, d->nsubs);
	fc_subs_free(d->dist_subs, d->ndist_subs);
	free(d->subs_path);
	free(d->dist_path);
	pthread_mutex_destroy(&d->lock);
	fc_data_free(d->replaced);
	free(d);
}

static int add_file_name(struct fc_data *d, const char *path)
{
	char **nf;

	/* fc_spec.file is 16 bits wide. */
	if (d->nfiles > UINT16_MAX)
		return -EOVERFLOW;
	nf = realloc(d->files, (d->nfiles + 1) * sizeof(*nf));

	if (!nf)
		return -ENOMEM;
	d->files = nf;
	/*
	 * analyzer: false positive (gcc malloc-leak): the name belongs to
	 * d->files, freed with the handle; GCC 12 loses stores through an
	 * index.
	 */
	nf[d->nfiles] = strdup(path);
	if (!nf[d->nfiles])
		return -ENOMEM;
	return d->nfiles++;
}

/*
 * Load one file (text, or compiled if it starts with the magic), read
 * through a small buffer (see fc_parse_text_fd and fc_bin.c), unless the
 * digest needs all of it: then it is mapped.
 */
static int load_one(struct selabel_handle *h, struct fc_data *d,
		    const char *use, const char *prefix)
{
	_cleanup_close_ int fd = -1;
	struct fc_load l = {.h = h, .d = d, .prefix = prefix, .path = use};
	uint32_t magic = 0;
	struct stat st;
	size_t len;
	void *map = NULL;
	int r;

	fd = open(use, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	len = st.st_size;
	if (len >= 4 && pread(fd, &magic, 4, 0) < 0)
		return -errno;
	/* Versions 2-5 are in host order, 6 is big-endian. */
	l.bin = magic == FC_BIN_MAGIC || be32toh(magic) == FC_BIN_MAGIC;
	if (len && h->digest) {
		map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
			   0);
		if (map == MAP_FAILED)
			return -errno;
	}
	r = add_file_name(d, use);
	if (r >= 0) {
		l.file = r;
		if (l.bin)
			r = map ? fc_parse_bin(&l, -1, map, len)
				: fc_parse_bin(&l, fd, NULL, len);
		else if (map || !len)
			r = fc_parse_text(&l, map ? map : "", len);
		else
			r = fc_parse_text_fd(&l, fd, len);
	}
	if (r >= 0 && h->digest)
		r = lbl_digest_add(h->digest, use, map, len);
	if (map)
		munmap(map, len);
	return r;
}

/*
 * Read path, or path.bin when that exists and is at least as new (in
 * whole seconds, the reference's rule: the compiled file wins a tie).
 * If the chosen file fails to load, the other is tried, as the reference
 * does (with one file, it is tried twice, so its messages come twice,
 * as the reference's do).  A missing file is -ENOENT.  A compiled file of
 * a version we do not read is skipped as the reference skips it: the
 * answer is the other file's, or ENOENT without one (the reference's
 * errno is left over from the other file, or from its failed stat); we
 * log that once, so such a file is not tried twice.  Built for 3.8 or
 * later, a .bin older than version 6 is an ordinary failure (EINVAL,
 * fc_parse_bin), tried twice when alone, as those releases do.
 */
static int process_file(struct selabel_handle *h, struct fc_data *d,
			const char *path, const char *prefix)
{
	_cleanup_free_ char *bin = NULL;
	struct stat st_text, st_bin;
	bool have_text, have_bin, bin_first;
	const char *order[2];
	int r = -ENOENT;

	if (asprintf(&bin, "%s.bin", path) < 0)
		return -ENOMEM;
	have_text = stat(path, &st_text) == 0;
	have_bin = stat(bin, &st_bin) == 0;
	if (!have_text && !have_bin)
		return -ENOENT;
	bin_first =
	    have_bin && (!have_text || st_bin.st_mtime >= st_text.st_mtime);
	order[0] = bin_first ? bin : path;
	order[1] = have_text && have_bin ? (bin_first ? path : bin) : order[0];
	for (int i = 0; i < 2; i++) {
		uint32_t nspec = d->nspec, nfiles = d->nfiles;
		int prev = r;

		r = load_one(h, d, order[i], prefix);
		if (r >= 0 || r == -ENOMEM)
			return r;
		/* Forget what the failed attempt added. */
		d->nspec = nspec;
		while (d->nfiles > nfiles)
			free(d->files[--d->nfiles]);
		if (r == -FC_EVERSION) {
			r = prev;
			if (order[1] == order[0])
				break;
		}
	}
	return r;
}

/* The kind of a file type in 3.8's order (fc_bin6_kind_mode): 0 any,
 * then dir, chr, blk, sock, fifo, lnk, reg. */
static unsigned kind_of(uint32_t mode)
{
	for (unsigned k = 1; k < FC_BIN6_KINDS; k++)
		if (fc_bin6_kind_mode[k] == mode)
			return k;
	return 0;
}

/* A literal spec and where it was read (its position before sorting):
 * ordered so that the one that should win comes last. */
struct lit_rank {
	struct fc_spec sp;
	int64_t ord; /* the order read within its file: its position, or,
		      * from a version 6 .bin (whose reader gives literal
		      * specs last one in the file first, fc_bin6.c), its
		      * position negated */
};

static int cmp_rank(const void *a, const void *b)
{
	const struct lit_rank *x = a, *y = b;
	uint32_t kx, ky;

	if (rel_literals() == REL_311) {
		/* 3.11: the later file wins; within a file, the first. */
		kx = x->sp.file;
		ky = y->sp.file;
	} else {
		/* 3.8.1: the kind with the higher number (reg, lnk, fifo,
		 * sock, blk, chr, dir, then no type); among equal kinds
		 * the spec read first, whatever its file. */
		kx = kind_of(x->sp.mode);
		ky = kind_of(y->sp.mode);
		if (kx == ky && x->sp.file != y->sp.file)
			return x->sp.file < y->sp.file ? 1 : -1;
	}
	if (kx != ky)
		return (kx > ky) - (kx < ky);
	return (x->ord < y->ord) - (x->ord > y->ord);
}

static bool ends_bin(const char *f)
{
	size_t n = strlen(f);

	return n >= 4 && !strcmp(f + n - 4, ".bin");
}

/*
 * Specs of the same literal path: the lookup takes the last one whose
 * file type fits, the spec read last for 3.4.  The later releases rank
 * them otherwise (measured with matchpathcon -P on file_contexts,
 * .homedirs and .local holding the same path with and without file
 * types, and with each pair of types: cases.sh "prec"): each group is
 * reordered in the places it holds, nothing else moves.
 */
static int rank_literals(const struct fc_data *d, struct fc_spec *lit,
			 uint32_t n)
{
	/* The groups, found with a hash table of their first specs (most
	 * paths have one spec: sorting them all by their strings cost a
	 * fifth of the open).  next[i]: the spec after i in its group, in
	 * position order, or n; last[i]: the group's last spec, for its
	 * first i. */
	_cleanup_free_ uint32_t *tab = NULL, *next = NULL, *last = NULL;
	_cleanup_free_ struct lit_rank *g = NULL;
	uint32_t mask = 15, ng = 0;

	if (rel_literals() == REL_34 || n < 2)
		return 0;
	while (mask < 2 * n)
		mask = 2 * mask + 1;
	tab = malloc(((size_t)mask + 1) * sizeof(*tab));
	next = malloc((size_t)n * sizeof(*next));
	last = malloc((size_t)n * sizeof(*last));
	if (!tab || !next || !last)
		return -ENOMEM;
	memset(tab, 0xff, ((size_t)mask + 1) * sizeof(*tab));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t b = fc_hash(lit[i].regex, lit[i].rlen) & mask;

		next[i] = n;
		while (tab[b] != UINT32_MAX &&
		       (lit[tab[b]].rlen != lit[i].rlen ||
			memcmp(lit[tab[b]].regex, lit[i].regex, lit[i].rlen)))
			b = (b + 1) & mask;
		if (tab[b] == UINT32_MAX) {
			tab[b] = last[i] = i;
			continue;
		}
		next[last[tab[b]]] = i;
		last[tab[b]] = i;
		ng++;
	}
	if (!ng)
		return 0;
	g = malloc((size_t)n * sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (uint32_t b = 0; b <= mask; b++) {
		uint32_t first = tab[b], k = 0;

		if (first == UINT32_MAX || next[first] == n)
			continue;
		for (uint32_t i = first; i < n; i = next[i]) {
			const struct fc_spec *sp = &lit[i];
			bool v6 = sp->file < d->nfiles &&
				  ends_bin(d->files[sp->file]);

			g[k++] = (struct lit_rank){*sp, v6 ? -(int64_t)i
							   : (int64_t)i};
		}
		qsort(g, k, sizeof(*g), cmp_rank);
		/* the group's places, in ascending order */
		k = 0;
		for (uint32_t i = first; i < n; i = next[i])
			lit[i] = g[k++].sp;
	}
	return 0;
}

/* The reference's order: regex specs, then literal ones, each group in
 * the order read; later specs win (literal specs of one path: see
 * rank_literals). */
static int sort_specs(struct fc_data *d)
{
	uint32_t nlit = 0, o = 0, k = 0;
	struct fc_spec *lit;

	/* In place: the literal specs (the fewer) go aside, the regex ones
	 * move down, the literal ones follow. */
	for (uint32_t i = 0; i < d->nspec; i++)
		nlit += !d->spec[i].meta;
	if (!nlit)
		return 0;
	if (nlit == d->nspec)
		return rank_literals(d, d->spec, nlit);
	lit = malloc(nlit * sizeof(*lit));
	if (!lit)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->nspec; i++) {
		if (d->spec[i].meta)
			d->spec[o++] = d->spec[i];
		else
			lit[k++] = d->spec[i];
	}
	memcpy(d->spec + o, lit, nlit * sizeof(*lit));
	free(lit);
	return rank_literals(d, d->spec + o, nlit);
}

static int cmp_regex(const void *a, const void *b, void *u)
{
	const struct fc_data *d = u;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int c = strcmp(d->spec[i].regex, d->spec[j].regex);

	return c ? c : (i > j) - (i < j);
}

static int cmp_pair(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	if (x[0] != y[0])
		return (x[0] > y[0]) - (x[0] < y[0]);
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/*
 * With VALIDATE, two specs of the same regex (as written) and
 * overlapping file types (equal, or either without one) make the open
 * fail with EINVAL, whether their contexts differ or not.  As Debian
 * 12's library does, only the specs of the base file (here: of every
 * PATH) are checked, in file order, before file_contexts.homedirs and
 * .local are read: a duplicate within those or between them and the
 * base file is accepted (refpolicy's homedirs repeats /root/\.k5login
 * of the base file with another user), the later spec winning.
 * Specs [0, n) are the base file's, not yet sorted.  One message per
 * pair (i, j), i < j, in the order of i then j.
 */
static int check_dups(struct fc_data *d, uint32_t n, const char *path)
{
	_cleanup_free_ uint32_t *ix = malloc((n + 1) * sizeof(*ix));
	_cleanup_free_ uint32_t *pairs = NULL;
	size_t npairs = 0, apairs = 0;

	if (!ix)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		ix[i] = i;
	qsort_r(ix, n, sizeof(*ix), cmp_regex, d);
	for (uint32_t a = 0; a < n; a++) {
		struct fc_spec *s1 = &d->spec[ix[a]];

		for (uint32_t b = a + 1; b < n; b++) {
			struct fc_spec *s2 = &d->spec[ix[b]];

			if (strcmp(s1->regex, s2->regex))
				break;
			if (s1->mode && s2->mode && s1->mode != s2->mode)
				continue;
			if (npairs == apairs) {
				size_t na = apairs ? apairs * 2 : 16;
				uint32_t *np = realloc(pairs, na * 2 * 4);

				if (!np)
					return -ENOMEM;
				pairs = np;
				apairs = na;
			}
			pairs[2 * npairs] = ix[a];
			pairs[2 * npairs + 1] = ix[b];
			npairs++;
		}
	}
	if (!npairs)
		return 0;
	qsort(pairs, npairs, 2 * sizeof(*pairs), cmp_pair);
	for (size_t k = 0; k < npairs; k++) {
		struct fc_spec *s1 = &d->spec[pairs[2 * k]];
		struct fc_spec *s2 = &d->spec[pairs[2 * k + 1]];

		if (strcmp(s1->ctx, s2->ctx))
			core_log(SELINUX_ERROR,
				 "%s: Multiple different specifications for %s "
				 " (%s and %s).\n",
				 path, s1->regex, s2->ctx, s1->ctx);
		else
			core_log(SELINUX_ERROR,
				 "%s: Multiple same specifications for %s.\n",
				 path, s1->regex);
	}
	return -EINVAL;
}

/*
 * An estimate of the specs the local files (.homedirs, .local) will add,
 * for the spec array's first allocation: a text line takes at least 16
 * bytes in practice (refpolicy: ~70), a compiled spec ~64 without its
 * regex.  Too low only costs a copy of the array when it grows.
 */
static uint32_t extra_hint(const char *first)
{
	static const char *const sfx[] = {"homedirs", "local", "homedirs.bin",
					  "local.bin"};
	size_t n = 0;

	for (size_t i = 0; i < ELEMENTSOF(sfx); i++) {
		char p[PATH_MAX];
		struct stat st;

		if ((size_t)snprintf(p, sizeof(p), "%s.%s", first, sfx[i]) >=
			sizeof(p) ||
		    stat(p, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		n += st.st_size / (i < 2 ? 16 : 64);
	}
	return n > 1u << 20 ? 1u << 20 : n;
}

/* Are the substitution files base.subs and base.subs_dist (what an
 * index image of base records)? */
static bool subs_beside(const char *base, const char *subs, const char *dist)
{
	size_t n = strlen(base);

	return !strncmp(subs, base, n) && !strcmp(subs + n, ".subs") &&
	       !strncmp(dist, base, n) && !strcmp(dist + n, ".subs_dist");
}

static struct fc_data *data_new(void)
{
	struct fc_data *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	pthread_mutex_init(&d->lock, NULL);
	d->jit = -1;
	return d;
}

/* Fill d for h: from an index image if try_image and there is a fresh
 * one, else from the files.  0 or -errno. */
static int open_data(struct selabel_handle *h, struct fc_data *d,
		     const struct selinux_opt *opts, unsigned int n,
		     bool try_image)
{
	const char *prefix = lbl_opt_value(opts, n, SELABEL_OPT_SUBSET);
	bool baseonly = lbl_opt_bool(opts, n, SELABEL_OPT_BASEONLY);
	const char *first = NULL;
	_cleanup_free_ char *subs = NULL, *dist = NULL, *extra = NULL;
	int r;

	for (unsigned int i = 0; i < n && opts; i++)
		if (opts[i].type == SELABEL_OPT_PATH && opts[i].value) {
			first = opts[i].value;
			break;
		}
	if (first) {
		if (asprintf(&dist, "%s.subs_dist", first) < 0 ||
		    asprintf(&subs, "%s.subs", first) < 0)
			return -ENOMEM;
	} else {
		first = selinux_file_context_path();
		if (!first)
			return -ENOENT;
		dist = strdup(selinux_file_context_subs_dist_path());
		subs = strdup(selinux_file_context_subs_path());
		if (!dist || !subs)
			return -ENOMEM;
	}
	h->spec_file = strdup(first);
	if (!h->spec_file)
		return -ENOMEM;
	r = fc_subs_load(h, dist, &d->dist_subs, &d->ndist_subs);
	if (r < 0)
		return r;
	r = fc_subs_load(h, subs, &d->subs, &d->nsubs);
	if (r < 0)
		return r;
	/* kept for selabel_lookup_explain(), which names them */
	d->subs_path = subs;
	d->dist_path = dist;
	subs = dist = NULL;

	/* The index image of the default open, when there is a fresh one
	 * (fc_image.h): then no file is read. */
	unsigned int npath = 0;

	for (unsigned int i = 0; i < n && opts; i++)
		npath += opts[i].type == SELABEL_OPT_PATH && opts[i].value;
	if (try_image && npath <= 1 && !prefix && !baseonly &&
	    subs_beside(first, d->subs_path, d->dist_path) &&
	    fc_image_open(h, d, first) == 0)
		return 0;

	/* Every PATH, in order (the newest releases merge them; Debian's
	 * 3.4 reads only the first), or the policy's file_contexts. */
	bool any = false;

	if (!baseonly)
		d->hint = extra_hint(first);

	for (unsigned int i = 0; i < n && opts; i++) {
		if (opts[i].type != SELABEL_OPT_PATH || !opts[i].value)
			continue;
		r = process_file(h, d, opts[i].value, prefix);
		if (r < 0)
			return r;
		any = true;
	}
	if (!any && (r = process_file(h, d, first, prefix)) < 0)
		return r;
	/* (3.8 and later: once sorted, below) */
	uint32_t nbase = d->nfiles;

	if (h->validating && !rel_tree() &&
	    (r = check_dups(d, d->nspec, first)) < 0)
		return r;
	if (!baseonly) {
		static const char *const sfx[] = {"homedirs", "local"};

		for (size_t i = 0; i < ELEMENTSOF(sfx); i++) {
			free(extra);
			if (asprintf(&extra, "%s.%s", first, sfx[i]) < 0) {
				extra = NULL;
				return -ENOMEM;
			}
			r = process_file(h, d, extra, prefix);
			if (r < 0 && r != -ENOENT)
				return r;
		}
	}
	/* Later files are not interned against: the table goes. */
	fc_intern_free(d);
	r = sort_specs(d);
	if (r >= 0 && h->validating && rel_tree())
		r = fc_tree_check_dups(d, nbase, first);
	return r;
}

int lbl_file_open(struct selabel_handle *h, const struct selinux_opt *opts,
		  unsigned int n)
{
	struct fc_data *d = data_new();

	if (!d)
		return -ENOMEM;
	h->data = d;
	h->ops = &fc_ops;
	return open_data(h, d, opts, n, true);
}

struct fc_data *fc_image_fallback(struct selabel_handle *h, struct fc_data *d)
{
	struct fc_data *n;

	pthread_mutex_lock(&d->lock);
	n = d->replacement;
	if (!n && !d->fallback_failed) {
		/* The open the image stood for (fc_image.h): the one PATH,
		 * nothing else.  The digest stays the image's: it is the
		 * digest of these files, which are as it recorded them. */
		struct selinux_opt opt = {SELABEL_OPT_PATH, h->spec_file};
		struct lbl_digest *dg = h->digest;
		char *spec_file = h->spec_file;
		int r = -ENOMEM;

		core_log(SELINUX_WARNING,
			 "%s%s: the index image does not check out, reading "
			 "the files\n",
			 spec_file, FC_IMG_SUFFIX);
		n = data_new();
		if (n) {
			h->digest = NULL;
			h->spec_file = NULL;
			r = open_data(h, n, &opt, 1, false);
			free(h->spec_file);
			h->spec_file = spec_file;
			h->digest = dg;
		}
		if (r < 0) {
			fc_data_free(n);
			n = NULL;
			d->fallback_failed = true;
		} else {
			n->replaced = d;
			d->replacement = n;
			__atomic_store_n(&h->data, (void *)n, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&d->lock);
	return n;
}
