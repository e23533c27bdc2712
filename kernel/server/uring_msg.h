/*
 * uring_msg.h: the messages of FUSE's io_uring transport (uring_msg.c),
 * for uring.c: a request the kernel put into a ring entry, laid out as a
 * read of /dev/fuse gives it to libfuse; a reply libfuse writes, laid
 * into the entry; the INIT exchange that offers and accepts the ring.
 * Pure functions of their arguments (no ring, no thread, no libfuse),
 * so that tests/fuzz/fuzz_server_uring.c calls them as uring.c does.
 */
#ifndef SELINUXFSD_URING_MSG_H
#define SELINUXFSD_URING_MSG_H

#include <linux/fuse.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "uring_abi.h"

/*
 * A payload buffer holds the largest request or reply: the kernel
 * requires at least max(8 KiB, max_write, max_pages pages), 1 MiB with
 * fuse.c's max_write.  A request laid out: its header, its fixed
 * argument (at most URING_HDR_SZ) and a payload.
 */
#define URM_PAYLOAD (1u << 20)
#define URM_REQ_SIZE (URM_PAYLOAD + 4096)

/* A reply: its header, and the length of its arguments in the payload. */
struct uring_out {
	struct fuse_out_header hdr;
	uint32_t len;
};

/*
 * The request in an entry: hdr (the fuse_in_header in in_out, the fixed
 * argument in op_in, ent.payload_sz) and payload, laid out in req
 * (URM_REQ_SIZE bytes) as /dev/fuse gives it.  Its length, or -EIO when
 * the entry's lengths disagree (the header's len shorter than its header
 * and payload, a payload over URM_PAYLOAD, a fixed argument over
 * URING_HDR_SZ): the request is then answered with EIO.  *unique: the
 * request's, either way.
 */
ssize_t urm_request(const struct uring_req_header *hdr, const char *payload,
		    char *req, uint64_t *unique);

/*
 * A reply as libfuse writes it (iov[0]: the fuse_out_header; the rest:
 * its arguments) into an entry's payload (URM_PAYLOAD bytes): *out the
 * header, *outlen the arguments' length.  The bytes of the reply, or
 * -EINVAL (no header, or arguments over URM_PAYLOAD: nothing taken).
 */
ssize_t urm_reply(const struct iovec *iov, int count, char *payload,
		  struct uring_out *out);

/* The entry's header for the reply out, sent with COMMIT_AND_FETCH. */
void urm_commit(struct uring_req_header *hdr, const struct uring_out *out);

/* An error reply (a negative errno) to unique. */
void urm_error(struct uring_out *out, uint64_t unique, int err);

/* Whether n bytes read from /dev/fuse are an INIT request that offers
 * the io_uring transport: its unique, or 0. */
uint64_t urm_init_offer(const void *buf, size_t n);

/* Whether a reply (writev's iov) is the successful INIT reply to
 * unique: it then accepts the offer (flags written into iov[1]). */
bool urm_init_accept(struct iovec *iov, int count, uint64_t unique);

/* After a request or reply of used payload bytes: where the payload's
 * pages may be given back from (past keep, page-aligned), or size if
 * none may. */
size_t urm_trim_from(size_t used, size_t keep, size_t page, size_t size);

#endif
