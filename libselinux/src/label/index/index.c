/* label/index/index.c: the index built from the specs - their analysis,
 * the exact-string table, the trie of prefixes - once, on first use. */
#include <string.h>
#include <sys/mman.h>

#include "node.h"

/* ---- the radix trie ---- */

/*
 * Built as linked nodes (struct bnode) and their arrays in a scratch
 * arena of their own (thousands of them: a malloc, realloc and free each
 * cost as much as the rest of the build), then flattened into d->trie
 * (struct fc_tnode, index.h), and the arena freed whole.
 */
struct bnode {
	const char *label; /* edge label (points into a spec's lit) */
	uint32_t label_len;
	uint32_t depth;
	uint32_t nchild;
	struct bnode **child; /* sorted by label[0] */
	uint8_t *keys;	      /* keys[i] == child[i]->label[0] */
	uint32_t *specs;      /* spec indices, highest first */
	uint32_t nspecs, aspecs;
};

/* The scratch arena: chunks of 64 KiB or more, bump-allocated. */
struct scratch {
	struct fc_chunk *chunk;
};

static void *scratch_alloc(struct scratch *t, size_t n)
{
	struct fc_chunk *c = t->chunk;
	size_t off = c ? (c->used + 7) & ~(size_t)7 : 0;

	if (!c || off > c->size || c->size - off < n) {
		size_t size = n > 65536 ? n : 65536;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->next = t->chunk;
		t->chunk = c;
		off = 0;
	}
	c->used = off + n;
	return c->mem + off;
}

static void scratch_free(struct scratch *t)
{
	while (t->chunk) {
		struct fc_chunk *n = t->chunk->next;

		free(t->chunk);
		t->chunk = n;
	}
}

/* A copy of the n first elements (size each) of old in room for cap. */
static void *scratch_grow(struct scratch *t, const void *old, size_t n,
			  size_t cap, size_t size)
{
	void *p = scratch_alloc(t, cap * size);

	if (p && n)
		memcpy(p, old, n * size);
	return p;
}

static struct bnode *bnode_new(struct scratch *t, const char *label,
			       uint32_t len, uint32_t depth)
{
	struct bnode *n = scratch_alloc(t, sizeof(*n));

	if (!n)
		return NULL;
	memset(n, 0, sizeof(*n));
	n->label = label;
	n->label_len = len;
	n->depth = depth;
	return n;
}

/* The child whose label starts with c, and its slot in *pos. */
static struct bnode *bnode_child(const struct bnode *n, uint8_t c,
				 uint32_t *pos)
{
	uint32_t lo = 0, hi = n->nchild;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		uint8_t m = n->keys[mid];

		if (m == c) {
			*pos = mid;
			return n->child[mid];
		}
		if (m < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pos = lo;
	return NULL;
}

/* child and keys hold room for nchild rounded up to a power of two. */
static int bnode_add_child(struct scratch *t, struct bnode *n, uint32_t pos,
			   struct bnode *c)
{
	struct bnode **nc = n->child;
	uint8_t *nk = n->keys;

	if (!(n->nchild & (n->nchild - 1))) {
		uint32_t cap = n->nchild ? 2 * n->nchild : 1;

		nc = scratch_grow(t, n->child, n->nchild, cap, sizeof(*nc));
		nk = scratch_grow(t, n->keys, n->nchild, cap, 1);
		if (!nc || !nk)
			return -ENOMEM;
		n->child = nc;
		n->keys = nk;
	}
	memmove(nc + pos + 1, nc + pos, (n->nchild - pos) * sizeof(*nc));
	memmove(nk + pos + 1, nk + pos, n->nchild - pos);
	nk[pos] = c->label[0];
	nc[pos] = c;
	n->nchild++;
	return 0;
}

static int bnode_add_spec(struct scratch *t, struct bnode *n, uint32_t idx)
{
	if (n->nspecs == n->aspecs) {
		uint32_t a = n->aspecs ? n->aspecs * 2 : 4;
		uint32_t *ns =
		    scratch_grow(t, n->specs, n->nspecs, a, sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		n->specs = ns;
		n->aspecs = a;
	}
	n->specs[n->nspecs++] = idx;
	return 0;
}

static int trie_insert(struct scratch *t, struct bnode *root, const char *s,
		       uint32_t len, uint32_t idx)
{
	struct bnode *n = root;
	uint32_t p = 0;

	for (;;) {
		struct bnode *c, *mid;
		uint32_t pos, k;

		if (p == len)
			return bnode_add_spec(t, n, idx);
		c = bnode_child(n, s[p], &pos);
		if (!c) {
			c = bnode_new(t, s + p, len - p, len);
			if (!c || bnode_add_child(t, n, pos, c) < 0)
				return -ENOMEM;
			return bnode_add_spec(t, c, idx);
		}
		for (k = 0;
		     k < c->label_len && p + k < len && c->label[k] == s[p + k];
		     k++)
			;
		if (k == c->label_len) {
			n = c;
			p += k;
			continue;
		}
		/* Split c's edge after k bytes. */
		mid = bnode_new(t, c->label, k, n->depth + k);
		if (!mid)
			return -ENOMEM;
		mid->child = scratch_alloc(t, sizeof(*mid->child));
		mid->keys = scratch_alloc(t, 1);
		if (!mid->child || !mid->keys)
			return -ENOMEM;
		mid->child[0] = c;
		mid->nchild = 1;
		c->label += k;
		c->label_len -= k;
		mid->keys[0] = c->label[0];
		n->child[pos] = mid;
		n = mid;
		p += k;
	}
}

struct flat {
	struct fc_tnode *node;
	uint8_t *keys;
	uint32_t *kids, *specs;
	char *labels;
	uint32_t nnode, nkids, nspecs, nlabels;
};

static void count(const struct bnode *n, struct flat *f)
{
	f->nnode++;
	f->nkids += n->nchild;
	f->nspecs += n->nspecs;
	f->nlabels += n->label_len;
	for (uint32_t i = 0; i < n->nchild; i++)
		count(n->child[i], f);
}

/* Node n becomes f->node[k]; its children follow it, each subtree
 * before the next (so a child's index is above its parent's). */
static void flatten(const struct bnode *n, struct flat *f, uint32_t k)
{
	struct fc_tnode *t = &f->node[k];
	uint32_t first = f->nkids;

	t->label = f->nlabels;
	t->label_len = n->label_len;
	if (n->label_len)
		memcpy(f->labels + f->nlabels, n->label, n->label_len);
	f->nlabels += n->label_len;
	t->depth = n->depth;
	t->specs = f->nspecs;
	t->nspecs = n->nspecs;
	if (n->nspecs)
		memcpy(f->specs + f->nspecs, n->specs,
		       n->nspecs * sizeof(*f->specs));
	f->nspecs += n->nspecs;
	t->child = first;
	t->nchild = n->nchild;
	t->set = UINT32_MAX;
	if (n->nchild)
		memcpy(f->keys + first, n->keys, n->nchild);
	f->nkids += n->nchild;
	for (uint32_t i = 0; i < n->nchild; i++) {
		f->kids[first + i] = f->nnode;
		flatten(n->child[i], f, f->nnode++);
	}
}

/* d->trie from the linked trie at root, in one allocation (d->trie.node
 * is its start). */
static int trie_flatten(struct fc_data *d, const struct bnode *root)
{
	struct flat c = {0}, f = {0};
	size_t sz_node, sz_kids, sz_specs, sz_keys;
	char *mem;

	count(root, &c);
	sz_node = (size_t)c.nnode * sizeof(*f.node);
	sz_kids = (size_t)c.nkids * sizeof(*f.kids);
	sz_specs = (size_t)c.nspecs * sizeof(*f.specs);
	sz_keys = c.nkids;
	mem = malloc(sz_node + sz_kids + sz_specs + sz_keys + c.nlabels + 1);
	if (!mem)
		return -ENOMEM;
	f.node = (struct fc_tnode *)mem;
	f.kids = (uint32_t *)(mem + sz_node);
	f.specs = (uint32_t *)(mem + sz_node + sz_kids);
	f.keys = (uint8_t *)(mem + sz_node + sz_kids + sz_specs);
	f.labels = (char *)f.keys + sz_keys;
	f.nnode = 1;
	flatten(root, &f, 0);
	d->trie.node = f.node;
	d->trie.nnode = f.nnode;
	d->trie.keys = f.keys;
	d->trie.kids = f.kids;
	d->trie.nkids = f.nkids;
	d->trie.specs = f.specs;
	d->trie.nspecs = f.nspecs;
	d->trie.labels = f.labels;
	d->trie.nlabels = f.nlabels;
	return 0;
}

static int index_build(struct fc_data *d)
{
	uint32_t nfixed = 0, size = 16, lits_len = 0;
	struct fc_ix *ix;
	uint32_t *heads, *single;
	char *lits;
	size_t lits_cap = 1;
	struct scratch t = {NULL};
	struct bnode *root;
	int r;

	for (uint32_t i = 0; i < d->nspec; i++)
		lits_cap += (size_t)d->spec[i].rlen + 1;
	if (lits_cap > UINT32_MAX)
		return -EOVERFLOW;
	d->ix = ix = malloc((d->nspec + 1) * sizeof(*ix));
	d->lits = lits = malloc(lits_cap);
	if (!ix || !lits)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->nspec; i++) {
		r = fc_spec_analyze(d, &d->spec[i], &ix[i], lits, &lits_len);
		if (r < 0)
			return r;
		nfixed += ix[i].kind == FC_FIXED;
	}
	d->nlits = lits_len;

	while (size < nfixed * 2)
		size *= 2;
	d->heads = heads = malloc(size * sizeof(*heads));
	d->single = single = malloc((d->nspec + 1) * sizeof(*single));
	root = bnode_new(&t, "", 0, 0);
	if (!heads || !single || !root) {
		scratch_free(&t);
		return -ENOMEM;
	}
	d->mask = size - 1;
	memset(heads, 0xff, size * sizeof(*heads));
	/* Ascending, so a chain's head is its highest index. */
	for (uint32_t i = 0; i < d->nspec; i++) {
		struct fc_ix *s = &ix[i];

		if (s->kind == FC_FIXED) {
			uint32_t b =
			    fc_hash(fc_lit(d, s), s->lit_len) & d->mask;

			if (s->lit_len < FC_LENBITS)
				d->fixed_lens[s->lit_len / 64] |=
				    1ull << (s->lit_len % 64);
			s->hnext = heads[b];
			heads[b] = i;
		}
	}
	/* Descending, so node and single lists run highest first. */
	d->nsingle = 0;
	r = 0;
	for (uint32_t i = d->nspec; i-- > 0 && r >= 0;) {
		struct fc_ix *s = &ix[i];

		if (s->kind == FC_SINGLE)
			single[d->nsingle++] = i;
		else if (s->kind == FC_TRIE)
			r = trie_insert(&t, root, fc_lit(d, s), s->lit_len, i);
	}
	if (r >= 0)
		r = trie_flatten(d, root);
	scratch_free(&t);
	if (r < 0)
		return r;
	return fc_nstate_alloc(d);
}

/*
 * LeakSanitizer does not look for pointers in memory the program maps
 * itself: the sets the node states point to would show as leaks in a
 * process that exits with a handle open (restorecon's default one).
 */
#if defined(__SANITIZE_ADDRESS__)
#define FC_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define FC_LSAN 1
#endif
#endif
#ifdef FC_LSAN
#include <sanitizer/lsan_interface.h>
#endif

static size_t nstate_len(const struct fc_data *d)
{
	return d->trie.nnode ? (size_t)d->trie.nnode * sizeof(*d->ns) : 1;
}

int fc_nstate_alloc(struct fc_data *d)
{
	/* Mapped, not calloc'd: zero pages that only the nodes a process
	 * uses ever fault in (calloc clears the whole array, a page fault
	 * per 4 KiB: a third of an index image's open). */
	size_t len = nstate_len(d);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -ENOMEM;
#ifdef FC_LSAN
	__lsan_register_root_region(p, len);
#endif
	d->ns = p;
	return 0;
}

void fc_nstate_free(struct fc_data *d)
{
	if (!d->ns)
		return;
#ifdef FC_LSAN
	__lsan_unregister_root_region(d->ns, nstate_len(d));
#endif
	munmap(d->ns, nstate_len(d));
	d->ns = NULL;
}

/*
 * The analysis of the specs and the index are built on first use, under
 * d->lock, and published with d->indexed: an open that is followed by
 * few lookups (matchpathcon from the shell) or none pays nothing for it.
 * With an index image, they come with it (fc_image.c) and indexed is set
 * at the open.
 */
int fc_index_ensure(struct fc_data *d)
{
	int r;

	if (__atomic_load_n(&d->indexed, __ATOMIC_ACQUIRE))
		return d->index_err;
	pthread_mutex_lock(&d->lock);
	if (!d->indexed) {
		r = index_build(d);
		d->index_err = r < 0 ? r : 0;
		__atomic_store_n(&d->indexed, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&d->lock);
	return d->index_err;
}

void fc_index_free(struct fc_data *d)
{
	fc_nodes_free(d);
	fc_nstate_free(d);
	free(d->used);
	d->used = NULL;
	if (!d->img) {
		free((struct fc_ix *)d->ix);
		free((char *)d->lits);
		free((uint32_t *)d->heads);
		free((uint32_t *)d->single);
		free((struct fc_tnode *)d->trie.node);
	}
	d->ix = NULL;
	d->lits = NULL;
	d->heads = NULL;
	d->single = NULL;
	memset(&d->trie, 0, sizeof(d->trie));
}
