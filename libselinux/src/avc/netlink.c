/* avc/netlink.c: avc_netlink_*, the kernel's NETLINK_SELINUX messages. */
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/selinux_netlink.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "internal.h"

/*
 * The socket: written by open and close, read by the receivers (one may be
 * the avc_netlink_loop thread, blocked in recvfrom, so no lock can be held
 * across a receive); an atomic int.  The kernel multicasts one message per
 * event to group SELNL_GRP_AVC: SELNL_MSG_SETENFORCE { int32 val } and
 * SELNL_MSG_POLICYLOAD { u32 seqno }.
 */
static int nl_fd = -1;
static pthread_mutex_t nl_lock = PTHREAD_MUTEX_INITIALIZER;

int cache_netlink_fd(void)
{
	return __atomic_load_n(&nl_fd, __ATOMIC_ACQUIRE);
}

static int netlink_open(int blocking)
{
	struct sockaddr_nl addr = {
	    .nl_family = AF_NETLINK,
	    .nl_groups = SELNL_GRP_AVC,
	};
	_cleanup_close_ int fd = -1;
	int r = 0;

	pthread_mutex_lock(&nl_lock);
	if (cache_netlink_fd() >= 0)
		goto out;
	fd = socket(PF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SELINUX);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	if (!blocking && fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		r = -errno;
		goto out;
	}
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		r = -errno;
		goto out;
	}
	__atomic_store_n(&nl_fd, TAKE_FD(fd), __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&nl_lock);
	return r;
}

_public_ int avc_netlink_open(int blocking)
{
	return RET_ERRNO(netlink_open(blocking));
}

_public_ void avc_netlink_close(void)
{
	int fd;

	pthread_mutex_lock(&nl_lock);
	fd = __atomic_exchange_n(&nl_fd, -1, __ATOMIC_ACQ_REL);
	if (fd >= 0)
		close(fd);
	pthread_mutex_unlock(&nl_lock);
}

/*
 * The socket is opened here when the AVC has none (it uses the status page
 * when it can): dbus-daemon asks for it right after avc_init() to watch it
 * in its main loop, and gives up on the bus when it gets -1 (found by the
 * system test: dbus.service failed, and logind and logins with it).  As
 * the established library does, it is opened non-blocking.
 */
_public_ int avc_netlink_acquire_fd(void)
{
	int fd = cache_netlink_fd(), r;

	if (fd < 0) {
		r = netlink_open(0);
		if (r < 0) {
			cache_log(SELINUX_ERROR,
				  "%s:  could not open netlink socket: %d (%s)\n",
				  cache_avc.prefix, r, strerror(-r));
			errno = -r;
			return -1;
		}
		fd = cache_netlink_fd();
	}
	__atomic_store_n(&cache_avc.app_main_loop, true, __ATOMIC_RELEASE);
	return fd;
}

_public_ void avc_netlink_release_fd(void)
{
	__atomic_store_n(&cache_avc.app_main_loop, false, __ATOMIC_RELEASE);
}

/* One datagram into buf: its length, -EAGAIN when none waits (and not
 * blocking), -errno. */
static ssize_t receive(char *buf, size_t size, bool blocking)
{
	struct sockaddr_nl from;
	socklen_t fromlen = sizeof(from);
	struct pollfd pfd;
	ssize_t n;
	int fd = cache_netlink_fd();

	if (fd < 0)
		return -EBADF;
	pfd.fd = fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	n = RETRY_EINTR(poll(&pfd, 1, blocking ? -1 : 0));
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EAGAIN;
	n = recvfrom(fd, buf, size, MSG_DONTWAIT, (struct sockaddr *)&from,
		     &fromlen);
	if (n < 0)
		return -errno;
	/*
	 * analyzer: false positive (clang UndefinedBinaryOperatorResult,
	 * CallAndMessage): a successful recvfrom() fills from and fromlen,
	 * which clang does not model.
	 */
	if (fromlen != sizeof(from) || from.nl_pid != 0) {
		/* Only the kernel (port 0) speaks for the policy. */
		cache_log(SELINUX_WARNING,
			  "%s:  warning: received spoofed netlink packet from: "
			  "%u\n",
			  cache_avc.prefix, from.nl_pid);
		return -EBADMSG;
	}
	return n;
}

static int process(char *buf, size_t len)
{
	int r = 0;

	/*
	 * analyzer: false positive (clang UndefinedBinaryOperatorResult): len
	 * bytes of buf were written by recvfrom(); clang assumes a failing
	 * poll() may leave errno 0, so receive()'s "return -errno" looks like a
	 * length.
	 */
	for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, len);
	     h = NLMSG_NEXT(h, len)) {
		switch (h->nlmsg_type) {
		case NLMSG_ERROR: {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			if (e->error == 0)
				break;
			cache_log(SELINUX_ERROR, "%s:  netlink error: %d\n",
				  cache_avc.prefix, e->error);
			return e->error < 0 ? e->error : -EBADMSG;
		}
		case SELNL_MSG_SETENFORCE: {
			const struct selnl_msg_setenforce *m = NLMSG_DATA(h);

			cache_status_fallback_event(SELINUX_CB_SETENFORCE,
						    (uint32_t)m->val);
			r = cache_process_setenforce(m->val ? 1 : 0);
			break;
		}
		case SELNL_MSG_POLICYLOAD: {
			const struct selnl_msg_policyload *m = NLMSG_DATA(h);

			cache_status_fallback_event(SELINUX_CB_POLICYLOAD,
						    m->seqno);
			r = cache_process_policyload(m->seqno);
			break;
		}
		default:
			cache_log(SELINUX_WARNING,
				  "%s:  warning: unknown netlink message %d\n",
				  cache_avc.prefix, h->nlmsg_type);
			break;
		}
		if (r < 0)
			return r;
	}
	return 0;
}

static int check_nb(void)
{
	char buf[1024] __attribute__((aligned(NLMSG_ALIGNTO)));
	ssize_t n;
	int r;

	for (;;) {
		n = receive(buf, sizeof(buf), false);
		if (n == -EAGAIN)
			return 0;
		if (n < 0) {
			cache_log(SELINUX_ERROR,
				  "%s:  netlink recvfrom: error %d\n",
				  cache_avc.prefix, (int)-n);
			return (int)n;
		}
		r = process(buf, (size_t)n);
		if (r < 0)
			return r;
	}
}

_public_ int avc_netlink_check_nb(void)
{
	return RET_ERRNO(check_nb());
}

_public_ void avc_netlink_loop(void)
{
	char buf[1024] __attribute__((aligned(NLMSG_ALIGNTO)));
	ssize_t n;

	for (;;) {
		n = receive(buf, sizeof(buf), true);
		if (n == -EAGAIN || n == -EINTR)
			continue;
		if (n < 0) {
			cache_log(SELINUX_ERROR,
				  "%s:  netlink recvfrom: error %d\n",
				  cache_avc.prefix, (int)-n);
			break;
		}
		if (process(buf, (size_t)n) < 0)
			break;
	}
	avc_netlink_close();
	cache_log(SELINUX_ERROR,
		  "%s:  netlink thread: errors encountered, terminating\n",
		  cache_avc.prefix);
}
