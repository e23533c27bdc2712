/* label/sha1.c: SHA-1 (FIPS 180-4), for the spec file digests. */
#include <string.h>

#include "internal.h"

static uint32_t rol(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void block(struct lbl_sha1 *s, const uint8_t *p)
{
	uint32_t w[80], a, b, c, d, e;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = s->h[0];
	b = s->h[1];
	c = s->h[2];
	d = s->h[3];
	e = s->h[4];
	for (int i = 0; i < 80; i++) {
		uint32_t f, k, t;

		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = t;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
}

void lbl_sha1_init(struct lbl_sha1 *s)
{
	static const uint32_t iv[5] = { 0x67452301, 0xefcdab89, 0x98badcfe,
					0x10325476, 0xc3d2e1f0 };

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->used = 0;
}

void lbl_sha1_update(struct lbl_sha1 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->len += len;
	while (len) {
		size_t n = 64 - s->used;

		if (n > len)
			n = len;
		memcpy(s->buf + s->used, p, n);
		s->used += n;
		p += n;
		len -= n;
		if (s->used == 64) {
			block(s, s->buf);
			s->used = 0;
		}
	}
}

void lbl_sha1_final(struct lbl_sha1 *s, uint8_t out[LBL_SHA1_LEN])
{
	uint64_t bits = s->len * 8;
	uint8_t pad = 0x80, zero = 0, lenb[8];

	lbl_sha1_update(s, &pad, 1);
	while (s->used != 56)
		lbl_sha1_update(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		lenb[i] = bits >> (56 - 8 * i);
	lbl_sha1_update(s, lenb, 8);
	for (int i = 0; i < 5; i++) {
		out[4 * i] = s->h[i] >> 24;
		out[4 * i + 1] = s->h[i] >> 16;
		out[4 * i + 2] = s->h[i] >> 8;
		out[4 * i + 3] = s->h[i];
	}
}
