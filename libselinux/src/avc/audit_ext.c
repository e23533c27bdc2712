/* avc/audit_ext.c: the AVC's messages as USER_AVC records (an extension). */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libaudit.h>
#include <linux/netlink.h>

#include <selinux/avc_audit.h>

#include "internal.h"

/*
 * The audit socket, or -1 when the extension is off.  Written only with
 * audit_mutex held; cache_audit_send() first reads it without the lock
 * (an atomic load), so that a program that never turns the extension on
 * takes no lock per message.
 *
 * audit_mutex also serialises the sends: audit_log_user_avc_message()
 * sends the record, then reads the kernel's acknowledgement from the same
 * socket without matching it to its request, so two threads sending at
 * once could each take the other's answer (and libaudit numbers its
 * requests with a plain static counter).  Only messages take it, never
 * the AVC's cache hits.
 */
static int audit_fd = -1;
static pthread_mutex_t audit_mutex = PTHREAD_MUTEX_INITIALIZER;

/*
 * libaudit is loaded by the first selinux_avc_audit_open(), not linked:
 * every program that links libselinux (ls, dpkg, sshd ...) would load it
 * otherwise, for an extension few of them turn on.  sender and
 * audit_library are guarded by audit_mutex; the handle stays loaded
 * (RTLD_NODELETE) for the life of the process.
 */
typedef int (*send_fn)(int fd, int type, const char *message,
		       const char *hostname, const char *addr,
		       const char *tty, uid_t uid);
static send_fn sender;
static const char *audit_library = "libaudit.so.1";

/* Test hooks: a sender of the test's, or another library to load. */
void cache_audit_set_sender(send_fn fn)
{
	pthread_mutex_lock(&audit_mutex);
	sender = fn;
	pthread_mutex_unlock(&audit_mutex);
}

void cache_audit_set_library(const char *name)
{
	pthread_mutex_lock(&audit_mutex);
	audit_library = name;
	sender = NULL;
	pthread_mutex_unlock(&audit_mutex);
}

/* audit_mutex held: 0, or -ELIBACC when libaudit cannot be loaded. */
static int load_sender(void)
{
	void *h;

	if (sender)
		return 0;
	h = dlopen(audit_library, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!h)
		return -ELIBACC;
	*(void **)&sender = dlsym(h, "audit_log_user_avc_message");
	if (!sender) {
		dlclose(h);
		return -ELIBACC;
	}
	return 0;
}

/* socket(2)'s answers on a kernel with no audit socket (no CONFIG_AUDIT,
 * or a container that hides it). */
static bool audit_absent(int err)
{
	return err == EPROTONOSUPPORT || err == EINVAL ||
	       err == EAFNOSUPPORT || err == ELIBACC;
}

/* Answers to a send that the next one would get too. */
static bool refused_for_good(int err)
{
	return err == EPERM || err == EACCES || err == ECONNREFUSED;
}

/* audit_mutex held. */
static int open_locked(void)
{
	int fd;

	if (audit_fd >= 0)
		return 1;
	if ((fd = load_sender()) < 0)
		return fd;
	/*
	 * Not audit_open(): it marks the socket close-on-exec with an
	 * fcntl() after socket(), and another thread's fork and exec in
	 * between would inherit it.
	 */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0)
		return -errno;
	__atomic_store_n(&audit_fd, fd, __ATOMIC_RELEASE);
	return 1;
}

/* audit_mutex held. */
static void close_locked(void)
{
	if (audit_fd < 0)
		return;
	close(audit_fd);
	__atomic_store_n(&audit_fd, -1, __ATOMIC_RELEASE);
}

_public_ int selinux_avc_audit_open(void)
{
	int r;

	pthread_mutex_lock(&audit_mutex);
	r = open_locked();
	pthread_mutex_unlock(&audit_mutex);
	if (r < 0 && audit_absent(-r)) {
		errno = -r;
		return 0;
	}
	return RET_ERRNO(r);
}

void cache_audit_close(void)
{
	pthread_mutex_lock(&audit_mutex);
	close_locked();
	pthread_mutex_unlock(&audit_mutex);
}

_public_ void selinux_avc_audit_close(void)
{
	int saved = errno;

	cache_audit_close();
	errno = saved;
}

bool cache_audit_send(const char *msg)
{
	int saved = errno, err = 0;
	bool sent;

	if (__atomic_load_n(&audit_fd, __ATOMIC_ACQUIRE) < 0)
		return false;

	pthread_mutex_lock(&audit_mutex);
	if (audit_fd < 0) {
		pthread_mutex_unlock(&audit_mutex);
		return false;
	}
	/* The sequence number (> 0), or <= 0 with errno set (0 when libaudit
	 * takes the kernel's answer for "no audit here"). */
	errno = 0;
	sent = sender(audit_fd, AUDIT_USER_AVC, msg, NULL, NULL, NULL,
		      getuid()) > 0;
	if (!sent && refused_for_good(errno)) {
		err = errno;
		close_locked();
	}
	pthread_mutex_unlock(&audit_mutex);

	/* After the unlock: the callback may call selinux_avc_audit_open(). */
	if (err)
		cache_log(
		    SELINUX_WARNING,
		    "%s:  audit refused an AVC message (%s); AVC messages "
		    "go to the log from now on\n",
		    cache_avc.prefix, strerror(err));
	errno = saved;
	return sent;
}
