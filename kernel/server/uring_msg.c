/*
 * uring_msg.c: the messages of FUSE's io_uring transport (uring_msg.h).
 */
#include <errno.h>
#include <string.h>

#include "uring_msg.h"

ssize_t urm_request(const struct uring_req_header *hdr, const char *payload,
		    char *req, uint64_t *unique)
{
	struct fuse_in_header ih;
	size_t rest = hdr->ent.payload_sz, arg0;

	memcpy(&ih, hdr->in_out, sizeof(ih));
	*unique = ih.unique;
	if (rest > URM_PAYLOAD || ih.len < sizeof(ih) + rest ||
	    (arg0 = ih.len - sizeof(ih) - rest) > URING_HDR_SZ)
		return -EIO;
	memcpy(req, &ih, sizeof(ih));
	memcpy(req + sizeof(ih), hdr->op_in, arg0);
	memcpy(req + sizeof(ih) + arg0, payload, rest);
	return (ssize_t)ih.len;
}

ssize_t urm_reply(const struct iovec *iov, int count, char *payload,
		  struct uring_out *out)
{
	size_t len = 0;

	if (count < 1 || iov[0].iov_len < sizeof(out->hdr))
		return -EINVAL;
	for (int i = 1; i < count; i++) {
		if (iov[i].iov_len > URM_PAYLOAD - len)
			return -EINVAL;
		len += iov[i].iov_len;
	}
	len = 0;
	for (int i = 1; i < count; i++) {
		if (iov[i].iov_len)
			memcpy(payload + len, iov[i].iov_base, iov[i].iov_len);
		len += iov[i].iov_len;
	}
	memcpy(&out->hdr, iov[0].iov_base, sizeof(out->hdr));
	out->len = (uint32_t)len;
	return (ssize_t)(iov[0].iov_len + len);
}

void urm_commit(struct uring_req_header *hdr, const struct uring_out *out)
{
	memcpy(hdr->in_out, &out->hdr, sizeof(out->hdr));
	hdr->ent.payload_sz = out->len;
}

void urm_error(struct uring_out *out, uint64_t unique, int err)
{
	out->hdr.len = sizeof(out->hdr);
	out->hdr.error = err;
	out->hdr.unique = unique;
	out->len = 0;
}

uint64_t urm_init_offer(const void *buf, size_t n)
{
	struct fuse_in_header ih;
	struct fuse_init_in in;
	uint64_t flags;

	if (n < sizeof(ih) + sizeof(in))
		return 0;
	memcpy(&ih, buf, sizeof(ih));
	if (ih.opcode != FUSE_INIT)
		return 0;
	memcpy(&in, (const char *)buf + sizeof(ih), sizeof(in));
	flags = in.flags;
	if (flags & FUSE_INIT_EXT)
		flags |= (uint64_t)in.flags2 << 32;
	return flags & FUSE_OVER_IO_URING ? ih.unique : 0;
}

bool urm_init_accept(struct iovec *iov, int count, uint64_t unique)
{
	struct fuse_out_header oh;
	struct fuse_init_out o;

	if (!unique || count < 2 || iov[0].iov_len < sizeof(oh) ||
	    iov[1].iov_len < offsetof(struct fuse_init_out, flags2) + 4)
		return false;
	memcpy(&oh, iov[0].iov_base, sizeof(oh));
	if (oh.unique != unique || oh.error != 0)
		return false;
	/* the fields up to flags2, wherever libfuse's buffer is */
	memcpy(&o, iov[1].iov_base, offsetof(struct fuse_init_out, flags2) + 4);
	o.flags |= FUSE_INIT_EXT;
	o.flags2 |= (uint32_t)(FUSE_OVER_IO_URING >> 32);
	memcpy(iov[1].iov_base, &o, offsetof(struct fuse_init_out, flags2) + 4);
	return true;
}

size_t urm_trim_from(size_t used, size_t keep, size_t page, size_t size)
{
	size_t from = used < keep ? keep : used;

	if (from > size - page)
		return size;
	from = (from + page - 1) / page * page;
	return from < size ? from : size;
}
