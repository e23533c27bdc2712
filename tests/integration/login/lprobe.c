/*
 * lprobe: the login layer's API (seusers, context lists, default types,
 * customizable and securetty types, colours), one canonical line per call,
 * for running the same requests on Debian's libselinux.so.1 (as linked)
 * and on ours (LD_LIBRARY_PATH set for this program only).
 *
 * Usage: lprobe COMMAND [ARGS]...   (commands chain, left to right; the
 * word NULL stands for a null pointer)
 *   mnt PATH | root PATH          set_selinuxmnt, selinux_set_policy_root
 *   seuser NAME                   getseuserbyname
 *   getseuser NAME SERVICE        getseuser
 *   dtype ROLE                    get_default_type
 *   list USER FROM                get_ordered_context_list
 *   listl USER LEVEL FROM         get_ordered_context_list_with_level
 *   def USER FROM | defl USER LEVEL FROM | defr USER ROLE FROM
 *   defrl USER ROLE LEVEL FROM    get_default_context*
 *   cust CON | tty CON | color CON
 *   execfile FILE TYPE            setexecfilecon
 *   query CON,CON,...             query_user_context (answers on stdin)
 *   manual USER                   manual_user_enter_context (stdin)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/get_context_list.h>
#include <selinux/get_default_type.h>
#include <selinux/selinux.h>

#include "probe_print.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static void show_str(const char *what, int r, char *s)
{
	int e = errno;

	if (r < 0) {
		probe_rc_errno(what, r, e);
		return;
	}
	printf("%s = %d \"%s\"\n", what, r, s ? s : "(null)");
	free(s);
}

static void show_list(const char *what, int r, char **list)
{
	int e = errno;

	if (r <= 0) {
		probe_rc_errno(what, r, e);
		return;
	}
	printf("%s = %d", what, r);
	for (char **p = list; *p; p++)
		printf(" %s", *p);
	printf("\n");
	freeconary(list);
}

static int log_cb(int type, const char *fmt, ...)
{
	(void)type;
	(void)fmt;
	return 0;
}

int main(int argc, char **argv)
{
	union selinux_callback cb = {.func_log = log_cb};

	setvbuf(stdout, NULL, _IONBF, 0);
	selinux_set_callback(SELINUX_CB_LOG, cb);
	for (int i = 1; i < argc; i++) {
		const char *c = argv[i];
		int left = argc - i - 1, r;
		char *s = NULL, *l = NULL, **list = NULL;

#define NEED(n)                                                                \
	do {                                                                   \
		if (left < (n)) {                                              \
			fprintf(stderr, "%s: needs %d args\n", c, n);          \
			return 2;                                              \
		}                                                              \
	} while (0)
		if (!strcmp(c, "mnt")) {
			NEED(1);
			set_selinuxmnt(argv[++i]);
		} else if (!strcmp(c, "root")) {
			NEED(1);
			r = selinux_set_policy_root(argv[++i]);
			if (r < 0)
				probe_rc_errno("root", r, errno);
		} else if (!strcmp(c, "seuser")) {
			NEED(1);
			r = getseuserbyname(probe_arg(argv[i + 1]), &s, &l);
			i++;
			if (r < 0) {
				probe_rc_errno("seuser", r, errno);
			} else {
				printf("seuser %s = %d \"%s\" \"%s\"\n",
				       argv[i], r, s ? s : "(null)",
				       l ? l : "(null)");
				free(s);
				free(l);
			}
		} else if (!strcmp(c, "getseuser")) {
			NEED(2);
			r = getseuser(probe_arg(argv[i + 1]),
				      probe_arg(argv[i + 2]), &s, &l);
			i += 2;
			if (r < 0) {
				probe_rc_errno("getseuser", r, errno);
			} else {
				printf("getseuser = %d \"%s\" \"%s\"\n", r,
				       s ? s : "(null)", l ? l : "(null)");
				free(s);
				free(l);
			}
		} else if (!strcmp(c, "dtype")) {
			NEED(1);
			r = get_default_type(probe_arg(argv[++i]), &s);
			show_str("dtype", r, s);
		} else if (!strcmp(c, "list")) {
			NEED(2);
			r = get_ordered_context_list(probe_arg(argv[i + 1]),
						     probe_arg(argv[i + 2]),
						     &list);
			i += 2;
			show_list("list", r, list);
		} else if (!strcmp(c, "listl")) {
			NEED(3);
			r = get_ordered_context_list_with_level(
			    probe_arg(argv[i + 1]), probe_arg(argv[i + 2]),
			    probe_arg(argv[i + 3]), &list);
			i += 3;
			show_list("listl", r, list);
		} else if (!strcmp(c, "def")) {
			NEED(2);
			r = get_default_context(probe_arg(argv[i + 1]),
						probe_arg(argv[i + 2]), &s);
			i += 2;
			show_str("def", r, s);
		} else if (!strcmp(c, "defl")) {
			NEED(3);
			r = get_default_context_with_level(
			    probe_arg(argv[i + 1]), probe_arg(argv[i + 2]),
			    probe_arg(argv[i + 3]), &s);
			i += 3;
			show_str("defl", r, s);
		} else if (!strcmp(c, "defr")) {
			NEED(3);
			r = get_default_context_with_role(
			    probe_arg(argv[i + 1]), probe_arg(argv[i + 2]),
			    probe_arg(argv[i + 3]), &s);
			i += 3;
			show_str("defr", r, s);
		} else if (!strcmp(c, "defrl")) {
			NEED(4);
			r = get_default_context_with_rolelevel(
			    probe_arg(argv[i + 1]), probe_arg(argv[i + 2]),
			    probe_arg(argv[i + 3]), probe_arg(argv[i + 4]), &s);
			i += 4;
			show_str("defrl", r, s);
		} else if (!strcmp(c, "cust")) {
			NEED(1);
			errno = 0;
			r = is_context_customizable(probe_arg(argv[++i]));
			probe_rc_errno("cust", r, errno);
		} else if (!strcmp(c, "tty")) {
			NEED(1);
			errno = 0;
			r = selinux_check_securetty_context(
			    probe_arg(argv[++i]));
			probe_rc_errno("tty", r, errno);
		} else if (!strcmp(c, "color")) {
			NEED(1);
			r = selinux_raw_context_to_color(probe_arg(argv[++i]),
							 &s);
			show_str("color", r, s);
		} else if (!strcmp(c, "execfile")) {
			NEED(2);
			errno = 0;
			r = setexecfilecon(probe_arg(argv[i + 1]),
					   probe_arg(argv[i + 2]));
			i += 2;
			probe_rc_errno("execfile", r, errno);
		} else if (!strcmp(c, "query")) {
			char *dup, *tok, *save = NULL;
			size_t n = 0;

			NEED(1);
			dup = strdup(argv[++i]);
			list = calloc(strlen(dup) + 2, sizeof(*list));
			for (tok = strtok_r(dup, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				list[n++] = tok;
			r = query_user_context(list, &s);
			show_str("\nquery", r, s);
			free(list);
			free(dup);
		} else if (!strcmp(c, "manual")) {
			NEED(1);
			r = manual_user_enter_context(probe_arg(argv[++i]), &s);
			show_str("\nmanual", r, s);
		} else {
			fprintf(stderr, "unknown command %s\n", c);
			return 2;
		}
	}
	return 0;
}
