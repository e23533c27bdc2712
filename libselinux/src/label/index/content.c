/* label/index/content.c: the digest of a file's bytes that an index image
 * records for each of its inputs, so that a copy of the files (new
 * inodes, new times, the same bytes) is known for what it is.
 *
 * What it must catch is accidental change: another policy's files, a
 * file compiled again, a truncated copy.  Not forgery: whoever can write
 * the files can write the image beside them (the image is no more
 * writable than its base file, image.c).  So a wide non-cryptographic
 * hash does: 128 bits out of eight 64-bit lanes, each taking a word per
 * 64-byte stripe by a 32x32->64 bit multiply of its halves (the data
 * mixed with a key, so that a zero word does not vanish) plus the word
 * itself, the lanes scrambled every 1 KiB.  Each lane depends on its own
 * words only, so the compiler vectorises it (SSE2's pmuludq); a cryptographic
 * digest (the SHA-1 of SELABEL_OPT_DIGEST) costs ten times as much, and
 * an open checking a copy of refpolicy's files hashes 7.8 MB of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image.h"

#define LANES 8
#define STRIPE (LANES * 8)
#define STRIPES_PER_BLOCK 16
/* read() through this much at a time: a multiple of STRIPE */
#define CHUNK 65536

/* Fractional digits of pi (and the golden ratio's), no structure. */
static const uint64_t key[LANES + 1] = {
    0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull,
    0x082efa98ec4e6c89ull, 0x452821e638d01377ull, 0xbe5466cf34e90c6cull,
    0xc0ac29b7c97c50ddull, 0x3f84d5b5b5470917ull, 0x9216d5d98979fb1bull,
};

void fc_csum_init(struct fc_csum *c)
{
	memcpy(c->acc, key, sizeof(c->acc));
	c->len = 0;
	c->stripes = 0;
	c->ntail = 0;
}

static void stripe(uint64_t *restrict acc, const unsigned char *restrict p)
{
	for (int i = 0; i < LANES; i++) {
		uint64_t v, k;

		memcpy(&v, p + 8 * i, 8);
		k = v ^ key[i];
		acc[i] += (k & 0xffffffffu) * (k >> 32) + v;
	}
}

static void scramble(uint64_t *acc)
{
	for (int i = 0; i < LANES; i++) {
		uint64_t a = acc[i];

		a ^= a >> 47;
		a ^= key[i + 1];
		acc[i] = a * 0x9e3779b1u;
	}
}

static void stripes(struct fc_csum *c, const unsigned char *p, size_t n)
{
	for (; n >= STRIPE; n -= STRIPE, p += STRIPE) {
		stripe(c->acc, p);
		if (++c->stripes == STRIPES_PER_BLOCK) {
			scramble(c->acc);
			c->stripes = 0;
		}
	}
}

void fc_csum_update(struct fc_csum *c, const void *data, size_t n)
{
	const unsigned char *p = data;

	c->len += n;
	if (c->ntail) {
		size_t k = STRIPE - c->ntail < n ? STRIPE - c->ntail : n;

		memcpy(c->tail + c->ntail, p, k);
		c->ntail += k;
		p += k;
		n -= k;
		if (c->ntail < STRIPE)
			return;
		stripes(c, c->tail, STRIPE);
		c->ntail = 0;
	}
	stripes(c, p, n - n % STRIPE);
	memcpy(c->tail, p + n - n % STRIPE, n % STRIPE);
	c->ntail = n % STRIPE;
}

static uint64_t fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

void fc_csum_final(struct fc_csum *c, uint64_t out[2])
{
	uint64_t a = c->len * 0x9e3779b97f4a7c15ull, b = ~c->len;

	memset(c->tail + c->ntail, 0, STRIPE - c->ntail);
	stripe(c->acc, c->tail);
	scramble(c->acc);
	for (int i = 0; i < LANES; i++) {
		a = fmix(a ^ c->acc[i]);
		b = fmix(b + c->acc[LANES - 1 - i] * key[i]);
	}
	out[0] = a;
	out[1] = b;
}

int fc_content_sum_fd(int fd, uint64_t out[2])
{
	unsigned char *buf = malloc(CHUNK);
	struct fc_csum c;
	ssize_t k;

	if (!buf)
		return -ENOMEM;
	fc_csum_init(&c);
	while ((k = read(fd, buf, CHUNK)) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = -errno;

			free(buf);
			return e;
		}
		fc_csum_update(&c, buf, k);
	}
	free(buf);
	fc_csum_final(&c, out);
	return 0;
}
