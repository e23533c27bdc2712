/*
 * uring_abi.h: the io_uring part of the FUSE protocol (7.42, Linux 6.14),
 * newer than Debian 12's <linux/fuse.h>: the kernel's layout, for uring.c
 * and bench/server/nullfs_uring.c.
 *
 * An entry is a header buffer (struct uring_req_header) and a payload
 * buffer, registered with URING_CMD_REGISTER (the two as an iovec array)
 * in a 128-byte SQE of IORING_OP_URING_CMD on /dev/fuse, whose command
 * area holds a struct uring_cmd_req.  A request arrives as the entry's
 * command completing: in_out holds its fuse_in_header (len counts the
 * fixed argument and the payload), op_in the opcode's fixed argument,
 * ent.payload_sz the rest's length in the payload.  The reply: in_out
 * the fuse_out_header, the payload its arguments, ent.payload_sz their
 * length, sent with URING_CMD_COMMIT_AND_FETCH (commit_id: ent.commit_id),
 * which also waits for the entry's next request.
 */
#ifndef SELINUXFSD_URING_ABI_H
#define SELINUXFSD_URING_ABI_H

#include <stdint.h>

#ifndef FUSE_OVER_IO_URING
#define FUSE_OVER_IO_URING (1ULL << 41) /* INIT flags2 bit 9 */
#endif
#define URING_HDR_SZ 128

struct uring_ent_in_out {
	uint64_t flags;
	uint64_t commit_id;
	uint32_t payload_sz;
	uint32_t padding;
	uint64_t reserved;
};

struct uring_req_header {
	char in_out[URING_HDR_SZ];
	char op_in[URING_HDR_SZ];
	struct uring_ent_in_out ent;
};

enum { URING_CMD_REGISTER = 1, URING_CMD_COMMIT_AND_FETCH = 2 };

struct uring_cmd_req {
	uint64_t flags;
	uint64_t commit_id;
	uint16_t qid;
	uint8_t padding[6];
};

#endif
