/*
 * uring.h: FUSE's io_uring transport under fuse.c's libfuse session
 * (uring.c).  Below main.c only, beside fuse.c.
 *
 * Linux 6.14 and later can carry a FUSE connection's requests through
 * io_uring, one queue per CPU, each request on the queue of the CPU its
 * caller runs on; the fuse module offers it when its enable_uring
 * parameter is on (off by default).  Debian 12's libfuse (3.14) does not
 * take the offer; these functions take it for it: the session's reads
 * and writes of /dev/fuse pass through uring.c, which accepts the offer
 * in the INIT reply, then serves each CPU's queue by a thread pinned to
 * that CPU, handing every request to libfuse's own dispatch
 * (fuse_session_process_buf) and the reply back to the kernel.  /dev/fuse
 * keeps what the ring does not carry (INIT, FORGET, INTERRUPT, and every
 * request until all the queues are registered), served by fuse.c's loop
 * as before.  Without the offer, or if a queue cannot be set up, nothing
 * changes: every request comes through /dev/fuse.
 */
#ifndef SELINUXFSD_URING_H
#define SELINUXFSD_URING_H

struct fuse_session;

/* After fuse_session_mount: route the session's I/O through uring.c.
 * 0, or -errno (the session is then left as it was). */
int srv_uring_attach(struct fuse_session *se);

/* After the loop and fuse_session_unmount, before
 * fuse_session_destroy: stop and join the queue threads, free them. */
void srv_uring_detach(void);

#endif
