/*
 * Fuzz target for the messages of the server's io_uring transport
 * (kernel/server/uring_msg.c), called as uring.c calls them.
 *
 * The input is read as a ring entry and what follows it:
 *   - 280 bytes: the entry's header (uring_req_header: in_out with the
 *     request's fuse_in_header, op_in with its fixed argument, the
 *     ent fields, payload_sz among them, taken modulo a bit more than
 *     the payload buffer so that both sides of its bound come up);
 *   - the payload: the rest of the input, repeated to payload_sz;
 *   - a reply made of the input's bytes: a count of iovecs (0..6) and
 *     their lengths (from the input, some scaled up past the payload
 *     buffer's size), the bytes cycled from the input;
 *   - an INIT request and reply made of the same header bytes.
 * Checked, against what the kernel and libfuse expect:
 *   urm_request: -EIO exactly when the header's len is shorter than its
 *     header and payload, the payload over URM_PAYLOAD or the fixed
 *     argument over URING_HDR_SZ; otherwise the length is len and the
 *     request reads header, fixed argument, payload in order; unique
 *     is the header's either way;
 *   urm_reply: -EINVAL exactly when there is no header or the
 *     arguments pass URM_PAYLOAD (the payload untouched then);
 *     otherwise the arguments in order, their length, and urm_commit
 *     puts the header and length into the entry;
 *   urm_init_offer / urm_init_accept: the unique only for an INIT whose
 *     flags (with flags2 when FUSE_INIT_EXT) offer FUSE_OVER_IO_URING;
 *     the acceptance sets FUSE_INIT_EXT and the io_uring bit and
 *     changes nothing else;
 *   urm_trim_from: page-aligned, at least keep and what was used, at
 *     most the buffer's size.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uring_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HDR_BYTES sizeof(struct uring_req_header)

static char payload[URM_PAYLOAD], out_payload[URM_PAYLOAD];
static char req[URM_REQ_SIZE];
static char src[URM_PAYLOAD + 8192];

static void bad(void)
{
	abort();
}

/* bytes cycled from the input into buf */
static void fill(char *buf, size_t n, const uint8_t *data, size_t size)
{
	if (!size) {
		memset(buf, 0x5a, n);
		return;
	}
	for (size_t i = 0; i < n;) {
		size_t k = n - i < size ? n - i : size;

		memcpy(buf + i, data, k);
		i += k;
	}
}

static uint32_t u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void check_request(struct uring_req_header *hdr, const uint8_t *rest,
			  size_t nrest)
{
	struct fuse_in_header ih;
	uint64_t unique = 0;
	size_t psz;
	ssize_t r;
	bool ok;

	/* payload_sz small, or (its top 4 bits set) up to the bound and
	 * past it, to URM_PAYLOAD + 4096 */
	hdr->ent.payload_sz = (hdr->ent.payload_sz >> 28) == 0xf
				  ? hdr->ent.payload_sz % (URM_PAYLOAD + 4097)
				  : hdr->ent.payload_sz % 4096;
	psz = hdr->ent.payload_sz;
	memcpy(&ih, hdr->in_out, sizeof(ih));
	/* len near the sum, so that both outcomes come up */
	if (ih.len & 1) {
		ih.len = (uint32_t)(sizeof(ih) + psz + (ih.len >> 1) % 200);
		memcpy(hdr->in_out, &ih, sizeof(ih));
	}
	fill(payload, psz <= URM_PAYLOAD ? psz : URM_PAYLOAD, rest, nrest);
	ok = psz <= URM_PAYLOAD && ih.len >= sizeof(ih) + psz &&
	     ih.len - sizeof(ih) - psz <= URING_HDR_SZ;
	r = urm_request(hdr, payload, req, &unique);
	if (unique != ih.unique)
		bad();
	if (!ok) {
		if (r != -EIO)
			bad();
		return;
	}
	if (r != (ssize_t)ih.len)
		bad();
	{
		size_t arg0 = ih.len - sizeof(ih) - psz;

		if (memcmp(req, &ih, sizeof(ih)) ||
		    memcmp(req + sizeof(ih), hdr->op_in, arg0) ||
		    memcmp(req + sizeof(ih) + arg0, payload, psz))
			bad();
	}
}

static void check_reply(struct uring_req_header *hdr, const uint8_t *p,
			size_t n)
{
	struct iovec iov[6];
	struct uring_out out;
	size_t off = 0, args = 0;
	int count;
	ssize_t r;
	bool ok;

	if (n < 1)
		return;
	count = p[0] % 7;
	for (int i = 0; i < count; i++) {
		size_t len = i < (int)(n - 1) / 2
				 ? (size_t)(p[1 + 2 * i] | p[2 + 2 * i] << 8)
				 : (size_t)i;

		/* now and then (the top 4 bits set) up to and past the
		 * payload's size */
		if ((len & 0xf000) == 0xf000)
			len = (len & 0x0fff) * 300;
		else
			len &= 0x0fff;
		if (i == 0)
			len %= 64;
		if (len > sizeof(src) - off)
			len = sizeof(src) - off;
		iov[i].iov_base = src + off;
		iov[i].iov_len = len;
		off += len;
		if (i)
			args += len;
	}
	fill(src, off, p, n);
	ok = count >= 1 && iov[0].iov_len >= sizeof(out.hdr) &&
	     args <= URM_PAYLOAD;
	memset(out_payload, 0xee, 64);
	r = urm_reply(iov, count, out_payload, &out);
	if (!ok) {
		if (r != -EINVAL || (unsigned char)out_payload[0] != 0xee)
			bad();
		return;
	}
	if (r != (ssize_t)(iov[0].iov_len + args) || out.len != args ||
	    memcmp(&out.hdr, iov[0].iov_base, sizeof(out.hdr)))
		bad();
	off = 0;
	for (int i = 1; i < count; i++) {
		if (memcmp(out_payload + off, iov[i].iov_base, iov[i].iov_len))
			bad();
		off += iov[i].iov_len;
	}
	urm_commit(hdr, &out);
	if (memcmp(hdr->in_out, &out.hdr, sizeof(out.hdr)) ||
	    hdr->ent.payload_sz != out.len)
		bad();
	urm_error(&out, 77, -EIO);
	if (out.hdr.len != sizeof(out.hdr) || out.hdr.error != -EIO ||
	    out.hdr.unique != 77 || out.len)
		bad();
}

static void check_init(const uint8_t *p, size_t n)
{
	char buf[sizeof(struct fuse_in_header) + sizeof(struct fuse_init_in)];
	struct fuse_in_header ih;
	struct fuse_init_in in;
	struct fuse_out_header oh;
	struct fuse_init_out o, before;
	struct iovec iov[2];
	uint64_t flags, offer;
	size_t len;
	bool want;

	fill(buf, sizeof(buf), p, n);
	memcpy(&ih, buf, sizeof(ih));
	if (n && p[0] & 1) { /* an INIT now and then */
		ih.opcode = FUSE_INIT;
		memcpy(buf, &ih, sizeof(ih));
	}
	memcpy(&in, buf + sizeof(ih), sizeof(in));
	len = n ? sizeof(buf) - p[n - 1] % 8 : sizeof(buf);
	flags = in.flags;
	if (flags & FUSE_INIT_EXT)
		flags |= (uint64_t)in.flags2 << 32;
	offer = urm_init_offer(buf, len);
	if (offer != (len == sizeof(buf) && ih.opcode == FUSE_INIT &&
			      (flags & FUSE_OVER_IO_URING)
			  ? ih.unique
			  : 0))
		bad();
	/* the reply: accepted only for that unique, without an error, and
	 * long enough to hold flags2 */
	fill((char *)&o, sizeof(o), p + (n > 3 ? 3 : 0), n > 3 ? n - 3 : n);
	before = o;
	oh.len = sizeof(oh) + sizeof(o);
	oh.error = n > 1 && p[1] & 1 ? -EPROTO : 0;
	oh.unique = n > 2 && p[2] & 1 ? ih.unique + 1 : ih.unique;
	iov[0] = (struct iovec){&oh, sizeof(oh)};
	iov[1] = (struct iovec){&o, n > 2 && p[2] & 2 ? 20 : sizeof(o)};
	want = offer && oh.unique == offer && !oh.error &&
	       iov[1].iov_len >= offsetof(struct fuse_init_out, flags2) + 4;
	if (urm_init_accept(iov, 2, offer) != want)
		bad();
	if (want) {
		before.flags |= FUSE_INIT_EXT;
		before.flags2 |= (uint32_t)(FUSE_OVER_IO_URING >> 32);
	}
	if (memcmp(&o, &before, sizeof(o)))
		bad(); /* only those two fields, and only when accepted */
}

static void check_trim(const uint8_t *p, size_t n)
{
	size_t used = n >= 4 ? u32(p) : n, page = 4096,
	       keep = n >= 5 ? (size_t)p[4] << 10 : 65536;
	size_t from = urm_trim_from(used, keep, page, URM_PAYLOAD);

	if (from > URM_PAYLOAD ||
	    (from < URM_PAYLOAD && (from % page || from < used || from < keep)))
		bad();
	if (from == URM_PAYLOAD && used < URM_PAYLOAD - page &&
	    keep < URM_PAYLOAD - page)
		bad(); /* pages past both were left */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uring_req_header hdr;
	size_t take = size < HDR_BYTES ? size : HDR_BYTES;

	memset(&hdr, 0, sizeof(hdr));
	memcpy(&hdr, data, take);
	check_request(&hdr, data + take, size - take);
	check_reply(&hdr, data + take, size - take);
	check_init(data, size);
	check_trim(data, size);
	return 0;
}
