/* Suite avc_audit_ext: selinux_avc_audit_open/close, messages to audit. */
#include <pthread.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <libaudit.h>
#include <selinux/avc_audit.h>

#include "avc_fixture.h"

/* Test hooks of avc/audit_ext.c (the library loads libaudit itself). */
void cache_audit_set_sender(int (*fn)(int fd, int type, const char *message,
				      const char *hostname, const char *addr,
				      const char *tty, uid_t uid));
void cache_audit_set_library(const char *name);

#define S "a:b:c"
#define T "d:e:f"
/* only read allowed, every denial audited, seqno 1 */
#define R_ONLY "1 ffffffff 0 ffffffff 1 0"
#define DENIED_WRITE                                                           \
	"avc:  denied  { write } for  scontext=a:b:c tcontext=d:e:f "          \
	"tclass=file permissive=0\n"

/*
 * The library's socket(2) and libaudit's send, replaced: this program's
 * definitions come before libc's and libaudit.so's, so the static archive
 * calls these.  No record reaches the host's audit log, and each way of
 * failing is chosen by the test.
 */
static int sock_errno; /* socket() fails with it when non-zero */
static int sock_calls, sock_domain, sock_type, sock_protocol, sock_fd = -1;

int socket(int domain, int type, int protocol)
{
	sock_calls++;
	sock_domain = domain;
	sock_type = type;
	sock_protocol = protocol;
	if (sock_errno) {
		errno = sock_errno;
		return -1;
	}
	/* any descriptor will do, the send below never uses it; keep the
	 * caller's SOCK_CLOEXEC */
	sock_fd = (int)syscall(SYS_socket, AF_UNIX,
			       SOCK_DGRAM | (type & SOCK_CLOEXEC), 0);
	return sock_fd;
}

static int send_errno; /* the send fails with it when non-zero */
static int send_calls, send_fd, send_type;
static bool send_nulls;
static uid_t send_uid;
static char send_msg[8192];
/* threads inside the send at once, and how often that was more than one */
static int send_inside, send_overlaps;

int audit_log_user_avc_message(int audit_fd, int type, const char *message,
			       const char *hostname, const char *addr,
			       const char *tty, uid_t uid)
{
	int calls;

	if (__atomic_add_fetch(&send_inside, 1, __ATOMIC_ACQ_REL) > 1)
		__atomic_add_fetch(&send_overlaps, 1, __ATOMIC_RELAXED);
	calls = ++send_calls;
	send_fd = audit_fd;
	send_type = type;
	send_nulls = !hostname && !addr && !tty;
	send_uid = uid;
	snprintf(send_msg, sizeof(send_msg), "%s", message);
	usleep(20);
	__atomic_sub_fetch(&send_inside, 1, __ATOMIC_ACQ_REL);
	if (send_errno) {
		/* libaudit's way: 0 (or -1) with errno */
		errno = send_errno;
		return 0;
	}
	return calls;
}

static void setup(void)
{
	avx_tree();
	avx_capture_log();
	/* the library loads libaudit.so.1 itself; the test's send instead */
	cache_audit_set_sender(audit_log_user_avc_message);
	ck_assert_int_eq(avc_open(NULL, 0), 0);
	ck_assert_int_eq(string_to_security_class("file"), 6);
}

static void teardown(void)
{
	avc_destroy();
	avx_untree();
}

/* avc_has_perm on a write that only read is allowed: -1 EACCES. */
static void deny_write(void)
{
	avx_answer("access", R_ONLY);
	errno = 0;
	ck_assert_int_eq(
	    avc_has_perm(avx_sid(S), avx_sid(T), 6, 0x2, NULL, NULL), -1);
	ck_assert_int_eq(errno, EACCES);
}

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* selinux_avc_audit_open ---------------------------------------------- */

START_TEST(test_selinux_avc_audit_open_netlink_cloexec)
{
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	ck_assert_int_eq(sock_calls, 1);
	ck_assert_int_eq(sock_domain, AF_NETLINK);
	ck_assert_int_eq(sock_type, SOCK_RAW | SOCK_CLOEXEC);
	ck_assert_int_eq(sock_protocol, NETLINK_AUDIT);
	ck_assert_int_eq(fcntl(sock_fd, F_GETFD), FD_CLOEXEC);
}
END_TEST

START_TEST(test_selinux_avc_audit_open_twice)
{
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	ck_assert_int_eq(sock_calls, 1);
}
END_TEST

START_TEST(test_selinux_avc_audit_open_no_audit)
{
	static const int absent[] = {EPROTONOSUPPORT, EINVAL, EAFNOSUPPORT};

	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		sock_errno = absent[i];
		errno = 0;
		ck_assert_int_eq(selinux_avc_audit_open(), 0);
		ck_assert_int_eq(errno, absent[i]);
	}
	/* the message reaches the log; the check's result is unchanged */
	deny_write();
	ck_assert_str_eq(avx_log, DENIED_WRITE);
	ck_assert_int_eq(avx_log_type, SELINUX_AVC);
	ck_assert_int_eq(send_calls, 0);
}
END_TEST

/* libaudit.so.1 missing: "no audit here", messages to the log. */
START_TEST(test_selinux_avc_audit_open_no_libaudit)
{
	cache_audit_set_library("libaudit-not-here.so.1");
	errno = 0;
	ck_assert_int_eq(selinux_avc_audit_open(), 0);
	ck_assert_int_eq(errno, ELIBACC);
	ck_assert_int_eq(sock_calls, 0);
	deny_write();
	ck_assert_str_eq(avx_log, DENIED_WRITE);
	cache_audit_set_library("libaudit.so.1");
}
END_TEST

/*
 * The real libaudit.so.1, loaded by the library: its send, on this test's
 * stand-in socket (an unconnected AF_UNIX one), fails, so the message
 * reaches the log - proof that the loaded function was called.
 */
START_TEST(test_selinux_avc_audit_open_loads_libaudit)
{
	cache_audit_set_sender(NULL);
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	deny_write();
	ck_assert_int_eq(send_calls, 0);
	ck_assert_ptr_nonnull(strstr(avx_log, DENIED_WRITE));
}
END_TEST

START_TEST(test_selinux_avc_audit_open_other_error)
{
	sock_errno = EMFILE;
	errno = 0;
	ck_assert_int_eq(selinux_avc_audit_open(), -1);
	ck_assert_int_eq(errno, EMFILE);
	deny_write();
	ck_assert_str_eq(avx_log, DENIED_WRITE);
	ck_assert_int_eq(send_calls, 0);
}
END_TEST

START_TEST(test_selinux_avc_audit_open_before_avc_open)
{
	avc_destroy();
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	ck_assert_int_eq(avc_open(NULL, 0), 0);
	deny_write();
	ck_assert_int_eq(send_calls, 1);
	ck_assert_str_eq(send_msg, DENIED_WRITE);
}
END_TEST

/* the messages -------------------------------------------------------- */

START_TEST(test_avc_has_perm_audit_off)
{
	deny_write();
	ck_assert_str_eq(avx_log, DENIED_WRITE);
	ck_assert_int_eq(send_calls, 0);
}
END_TEST

START_TEST(test_avc_has_perm_audit_denied_sent)
{
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	deny_write();
	ck_assert_int_eq(send_calls, 1);
	ck_assert_int_eq(send_fd, sock_fd);
	ck_assert_int_eq(send_type, AUDIT_USER_AVC);
	ck_assert_int_eq(send_type, 1107);
	ck_assert_str_eq(send_msg, DENIED_WRITE);
	ck_assert(send_nulls);
	ck_assert_uint_eq(send_uid, getuid());
	/* sent, so not logged */
	ck_assert_str_eq(avx_log, "");
}
END_TEST

START_TEST(test_avc_audit_granted_sent)
{
	struct av_decision avd = {0x7, 0xffffffff, 0x1, 0xffffffff, 1, 0};

	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	avc_audit(avx_sid(S), avx_sid(T), 6, 0x1, &avd, 0, NULL);
	ck_assert_str_eq(send_msg,
			 "avc:  granted  { read } for  scontext=a:b:c "
			 "tcontext=d:e:f tclass=file\n");
	ck_assert_str_eq(avx_log, "");
}
END_TEST

START_TEST(test_avc_has_perm_audit_other_types_logged)
{
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	avc_av_stats();
	ck_assert_str_eq(avx_log, "avc:  0 AV entries and 0/512 buckets used, "
				  "longest chain length 0\n");
	ck_assert_int_eq(send_calls, 0);
}
END_TEST

START_TEST(test_avc_has_perm_audit_eperm)
{
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	send_errno = EPERM;
	deny_write();
	ck_assert_int_eq(send_calls, 1);
	ck_assert_str_eq(avx_log,
			 "avc:  audit refused an AVC message (Operation not "
			 "permitted); AVC messages go to the log from now "
			 "on\n" DENIED_WRITE);
	ck_assert_int_eq(avx_log_type, SELINUX_AVC);
	ck_assert(!fd_open(sock_fd));
	/* the next one goes straight to the log, without a warning */
	avx_log[0] = '\0';
	deny_write();
	ck_assert_int_eq(send_calls, 1);
	ck_assert_str_eq(avx_log, DENIED_WRITE);
	/* until it is turned on again */
	send_errno = 0;
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	deny_write();
	ck_assert_int_eq(send_calls, 2);
}
END_TEST

START_TEST(test_avc_has_perm_audit_eperm_permissive)
{
	struct selinux_opt opt = {AVC_OPT_SETENFORCE, NULL};

	ck_assert_int_eq(avc_open(&opt, 1), 0);
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	send_errno = EPERM;
	avx_answer("access", R_ONLY);
	ck_assert_int_eq(
	    avc_has_perm(avx_sid(S), avx_sid(T), 6, 0x2, NULL, NULL), 0);
	ck_assert_ptr_nonnull(strstr(avx_log, "{ write } for  scontext=a:b:c "
					      "tcontext=d:e:f tclass=file "
					      "permissive=1\n"));
}
END_TEST

START_TEST(test_avc_has_perm_audit_transient_failure)
{
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	send_errno = ENOBUFS;
	deny_write();
	ck_assert_str_eq(avx_log, DENIED_WRITE);
	ck_assert(fd_open(sock_fd));
	/* still on: the next message is sent */
	send_errno = 0;
	avx_log[0] = '\0';
	deny_write();
	ck_assert_int_eq(send_calls, 2);
	ck_assert_str_eq(avx_log, "");
}
END_TEST

START_TEST(test_avc_has_perm_audit_errno_kept)
{
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	send_errno = ENOBUFS;
	/* deny_write() checks errno is EACCES after the failed send */
	deny_write();
}
END_TEST

/* selinux_avc_audit_close --------------------------------------------- */

START_TEST(test_selinux_avc_audit_close_back_to_log)
{
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	selinux_avc_audit_close();
	ck_assert(!fd_open(sock_fd));
	deny_write();
	ck_assert_int_eq(send_calls, 0);
	ck_assert_str_eq(avx_log, DENIED_WRITE);
	selinux_avc_audit_close(); /* a no-op */
}
END_TEST

START_TEST(test_selinux_avc_audit_close_at_avc_destroy)
{
	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	avc_destroy();
	ck_assert(!fd_open(sock_fd));
	ck_assert_int_eq(avc_open(NULL, 0), 0);
	deny_write();
	ck_assert_int_eq(send_calls, 0);
	ck_assert_str_eq(avx_log, DENIED_WRITE);
}
END_TEST

/* threads ------------------------------------------------------------- */

#define THREADS 4
#define PER_THREAD 200

static void *audit_many(void *arg)
{
	struct av_decision avd = {0x1, 0xffffffff, 0, 0xffffffff, 1, 0};
	security_id_t *sids = arg;

	for (int i = 0; i < PER_THREAD; i++)
		avc_audit(sids[0], sids[1], 6, 0x2, &avd, -1, NULL);
	return NULL;
}

START_TEST(test_avc_audit_threads_one_send_at_a_time)
{
	security_id_t sids[2] = {avx_sid(S), avx_sid(T)};
	pthread_t t[THREADS];

	ck_assert_int_eq(selinux_avc_audit_open(), 1);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, audit_many, sids),
				 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(send_calls, THREADS * PER_THREAD);
	ck_assert_int_eq(send_overlaps, 0);
	ck_assert_str_eq(send_msg, DENIED_WRITE);
	ck_assert_str_eq(avx_log, "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("avc_audit_ext");
	TCase *tc;

	tc = avx_tcase(s, "selinux_avc_audit_open", setup, teardown);
	tcase_add_test(tc, test_selinux_avc_audit_open_netlink_cloexec);
	tcase_add_test(tc, test_selinux_avc_audit_open_twice);
	tcase_add_test(tc, test_selinux_avc_audit_open_no_audit);
	tcase_add_test(tc, test_selinux_avc_audit_open_no_libaudit);
	tcase_add_test(tc, test_selinux_avc_audit_open_loads_libaudit);
	tcase_add_test(tc, test_selinux_avc_audit_open_other_error);
	tcase_add_test(tc, test_selinux_avc_audit_open_before_avc_open);

	tc = avx_tcase(s, "avc_has_perm_audit", setup, teardown);
	tcase_add_test(tc, test_avc_has_perm_audit_off);
	tcase_add_test(tc, test_avc_has_perm_audit_denied_sent);
	tcase_add_test(tc, test_avc_audit_granted_sent);
	tcase_add_test(tc, test_avc_has_perm_audit_other_types_logged);
	tcase_add_test(tc, test_avc_has_perm_audit_eperm);
	tcase_add_test(tc, test_avc_has_perm_audit_eperm_permissive);
	tcase_add_test(tc, test_avc_has_perm_audit_transient_failure);
	tcase_add_test(tc, test_avc_has_perm_audit_errno_kept);

	tc = avx_tcase(s, "selinux_avc_audit_close", setup, teardown);
	tcase_add_test(tc, test_selinux_avc_audit_close_back_to_log);
	tcase_add_test(tc, test_selinux_avc_audit_close_at_avc_destroy);

	tc = avx_tcase(s, "threads", setup, teardown);
	tcase_add_test(tc, test_avc_audit_threads_one_send_at_a_time);
	return avx_run(s);
}
