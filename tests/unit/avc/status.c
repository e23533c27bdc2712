/* Suite avc_status: selinux_status_* on a status page file. */
#include <limits.h>
#include <pthread.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include "avc_fixture.h"

static int setenforce_seen = -1, policyload_seen = -1, ncalls;

static int on_setenforce(int enforcing)
{
	setenforce_seen = enforcing;
	ncalls++;
	return 0;
}

static int on_policyload(int seqno)
{
	policyload_seen = seqno;
	ncalls++;
	return 0;
}

static void setup(void)
{
	union selinux_callback cb;

	avx_tree();
	avx_capture_log();
	cb.func_setenforce = on_setenforce;
	selinux_set_callback(SELINUX_CB_SETENFORCE, cb);
	cb.func_policyload = on_policyload;
	selinux_set_callback(SELINUX_CB_POLICYLOAD, cb);
}

static void teardown(void)
{
	selinux_status_close();
	avx_untree();
}

/* selinux_status_open ------------------------------------------------ */

START_TEST(test_selinux_status_open_maps_page)
{
	ck_assert_int_eq(selinux_status_open(0), 0);
	ck_assert_int_eq(selinux_status_open(0), 0);
}
END_TEST

START_TEST(test_selinux_status_open_no_file)
{
	unlink(fx_path("selinuxfs/status"));
	errno = 0;
	ck_assert_int_eq(selinux_status_open(0), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_selinux_status_open_no_selinuxfs)
{
	fini_selinuxmnt();
	errno = 0;
	ck_assert_int_eq(selinux_status_open(1), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

static bool netlink_selinux_here(void)
{
	int fd = socket(PF_NETLINK, SOCK_RAW, NETLINK_SELINUX);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

START_TEST(test_selinux_status_open_fallback)
{
	if (!netlink_selinux_here())
		return; /* no NETLINK_SELINUX in this kernel */
	unlink(fx_path("selinuxfs/status"));
	ck_assert_int_eq(selinux_status_open(1), 1);
	ck_assert_int_eq(selinux_status_open(1), 1);
	/* enforce holds 1; no load notified yet */
	ck_assert_int_eq(selinux_status_getenforce(), 1);
	ck_assert_int_eq(selinux_status_policyload(), 0);
	ck_assert_int_eq(selinux_status_deny_unknown(), 1);
	ck_assert_int_eq(selinux_status_updated(), 0);
	ck_assert_int_ge(avc_netlink_acquire_fd(), 0);
	selinux_status_close();
	/* Closed with the status; acquiring opens a socket again, as the
	 * established library does (dbus-daemon relies on it). */
	ck_assert_int_ge(avc_netlink_acquire_fd(), 0);
	avc_netlink_release_fd();
	avc_netlink_close();
}
END_TEST

START_TEST(test_avc_netlink_acquire_fd_opens_socket)
{
	int fd;

	if (!netlink_selinux_here())
		return; /* no NETLINK_SELINUX in this kernel */
	/* The status page is there, so nothing opened the socket: acquiring
	 * it opens one (dbus-daemon's case after avc_init). */
	ck_assert_int_eq(selinux_status_open(0), 0);
	fd = avc_netlink_acquire_fd();
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(avc_netlink_acquire_fd(), fd);
	avc_netlink_release_fd();
	avc_netlink_close();
}
END_TEST

/* the fields ---------------------------------------------------------- */

START_TEST(test_selinux_status_getenforce_values)
{
	avx_status(4, 0, 9, 0);
	ck_assert_int_eq(selinux_status_open(0), 0);
	ck_assert_int_eq(selinux_status_getenforce(), 0);
	ck_assert_int_eq(selinux_status_policyload(), 9);
	ck_assert_int_eq(selinux_status_deny_unknown(), 0);
	avx_status(6, 1, 10, 1);
	ck_assert_int_eq(selinux_status_getenforce(), 1);
	ck_assert_int_eq(selinux_status_policyload(), 10);
	ck_assert_int_eq(selinux_status_deny_unknown(), 1);
}
END_TEST

/* The kernel counts loads in 32 bits unsigned; past INT_MAX the int
 * comes out negative, as the reference's does, and is no error (the
 * fuzzer's UBSan report: -INT_MIN taken as an errno). */
START_TEST(test_selinux_status_policyload_wraps)
{
	avx_status(4, 1, 0x80000000u, 0);
	ck_assert_int_eq(selinux_status_open(0), 0);
	errno = 0;
	ck_assert_int_eq(selinux_status_policyload(), INT_MIN);
	ck_assert_int_eq(errno, 0);
	avx_status(6, 1, 0xfffffffeu, 0);
	ck_assert_int_eq(selinux_status_policyload(), -2);
	ck_assert_int_eq(errno, 0);
}
END_TEST

START_TEST(test_selinux_status_getenforce_not_open)
{
	errno = 0;
	ck_assert_int_eq(selinux_status_getenforce(), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(selinux_status_policyload(), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(selinux_status_deny_unknown(), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(selinux_status_updated(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

static void *finish_update(void *arg)
{
	(void)arg;
	usleep(100 * 1000);
	avx_status(6, 0, 3, 1);
	return NULL;
}

START_TEST(test_selinux_status_getenforce_waits_for_even_sequence)
{
	pthread_t t;

	ck_assert_int_eq(selinux_status_open(0), 0);
	/* an update in progress: the reader must not take its fields */
	avx_status(5, 1, 3, 1);
	ck_assert_int_eq(pthread_create(&t, NULL, finish_update, NULL), 0);
	ck_assert_int_eq(selinux_status_getenforce(), 0);
	pthread_join(t, NULL);
}
END_TEST

/* selinux_status_updated ---------------------------------------------- */

START_TEST(test_selinux_status_updated_first_call_is_zero)
{
	ck_assert_int_eq(selinux_status_open(0), 0);
	avx_status(4, 1, 2, 1);
	ck_assert_int_eq(selinux_status_updated(), 0);
	ck_assert_int_eq(selinux_status_updated(), 0);
	ck_assert_int_eq(ncalls, 0);
}
END_TEST

START_TEST(test_selinux_status_updated_policyload)
{
	ck_assert_int_eq(selinux_status_open(0), 0);
	ck_assert_int_eq(selinux_status_updated(), 0);
	avx_status(4, 1, 7, 1);
	ck_assert_int_eq(selinux_status_updated(), 1);
	ck_assert_int_eq(policyload_seen, 7);
	ck_assert_int_eq(setenforce_seen, -1);
	ck_assert_int_eq(selinux_status_updated(), 0);
	ck_assert_int_eq(ncalls, 1);
	ck_assert_str_eq(avx_log,
			 "uavc:  op=load_policy lsm=selinux seqno=7 res=1");
	ck_assert_int_eq(avx_log_type, SELINUX_POLICYLOAD);
}
END_TEST

START_TEST(test_selinux_status_updated_setenforce)
{
	ck_assert_int_eq(selinux_status_open(0), 0);
	ck_assert_int_eq(selinux_status_updated(), 0);
	avx_status(4, 0, 1, 1);
	ck_assert_int_eq(selinux_status_updated(), 1);
	ck_assert_int_eq(setenforce_seen, 0);
	ck_assert_int_eq(policyload_seen, -1);
	ck_assert_str_eq(avx_log,
			 "uavc:  op=setenforce lsm=selinux enforcing=0 res=1");
	ck_assert_int_eq(avx_log_type, SELINUX_SETENFORCE);
	avx_status(6, 1, 1, 1);
	ck_assert_int_eq(selinux_status_updated(), 1);
	ck_assert_int_eq(setenforce_seen, 1);
	ck_assert_int_eq(ncalls, 2);
}
END_TEST

START_TEST(test_selinux_status_updated_deny_unknown_only)
{
	ck_assert_int_eq(selinux_status_open(0), 0);
	ck_assert_int_eq(selinux_status_updated(), 0);
	avx_status(4, 1, 1, 0);
	ck_assert_int_eq(selinux_status_updated(), 1);
	ck_assert_int_eq(ncalls, 0);
}
END_TEST

/* Before avc_open the AVC's mode reads 1, whatever the page said at open
 * (Debian's library: a permissive page notifies at the first change). */
START_TEST(test_selinux_status_updated_permissive_page_notifies)
{
	avx_status(2, 0, 1, 1);
	ck_assert_int_eq(selinux_status_open(0), 0);
	ck_assert_int_eq(selinux_status_updated(), 0);
	avx_status(4, 0, 2, 1);
	ck_assert_int_eq(selinux_status_updated(), 1);
	ck_assert_int_eq(setenforce_seen, 0);
	ck_assert_int_eq(policyload_seen, 2);
}
END_TEST

START_TEST(test_selinux_status_updated_after_close)
{
	ck_assert_int_eq(selinux_status_open(0), 0);
	selinux_status_close();
	errno = 0;
	ck_assert_int_eq(selinux_status_updated(), -1);
	ck_assert_int_eq(errno, EINVAL);
	selinux_status_close();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("avc_status");
	TCase *tc;

	tc = avx_tcase(s, "selinux_status_open", setup, teardown);
	tcase_add_test(tc, test_selinux_status_open_maps_page);
	tcase_add_test(tc, test_selinux_status_open_no_file);
	tcase_add_test(tc, test_selinux_status_open_no_selinuxfs);
	tcase_add_test(tc, test_selinux_status_open_fallback);
	tcase_add_test(tc, test_avc_netlink_acquire_fd_opens_socket);

	tc = avx_tcase(s, "selinux_status_getenforce", setup, teardown);
	tcase_add_test(tc, test_selinux_status_getenforce_values);
	tcase_add_test(tc, test_selinux_status_getenforce_not_open);
	tcase_add_test(tc, test_selinux_status_policyload_wraps);
	tcase_add_test(tc,
		       test_selinux_status_getenforce_waits_for_even_sequence);

	tc = avx_tcase(s, "selinux_status_updated", setup, teardown);
	tcase_add_test(tc, test_selinux_status_updated_first_call_is_zero);
	tcase_add_test(tc, test_selinux_status_updated_policyload);
	tcase_add_test(tc, test_selinux_status_updated_setenforce);
	tcase_add_test(tc, test_selinux_status_updated_deny_unknown_only);
	tcase_add_test(tc,
		       test_selinux_status_updated_permissive_page_notifies);
	tcase_add_test(tc, test_selinux_status_updated_after_close);
	return avx_run(s);
}
