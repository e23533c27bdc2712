/*
 * Code written against upstream libselinux 3.11's headers, as a program
 * of that release would: it must compile against ours with -Werror, as C
 * and as C++ (check-headers.py does both), and link.  Only main() runs;
 * it needs no SELinux.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/avc.h>
#include <selinux/context.h>
#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>

#ifdef __cplusplus
#define STATIC_ASSERT(e, m) static_assert(e, m)
#else
#define STATIC_ASSERT(e, m) _Static_assert(e, m)
#endif

/* 3.8+: a SID's id keys a table of the program's own, in place of ctx. */
struct per_sid {
	unsigned int id;
	unsigned long hits;
};

unsigned int sid_slot(security_id_t sid, unsigned int nslots);
unsigned int sid_slot(security_id_t sid, unsigned int nslots)
{
	return sid == SECSID_WILD ? 0 : sid->id % nslots;
}

/* The layout 3.4 programs were built with: a pointer, one unsigned int,
 * id and refcnt the same storage. */
struct layout_34 {
	char *ctx;
	unsigned int refcnt;
};
STATIC_ASSERT(sizeof(struct security_id) == sizeof(struct layout_34),
	      "struct security_id changed size");
STATIC_ASSERT(offsetof(struct security_id, id) ==
		      offsetof(struct layout_34, refcnt),
	      "id is not where refcnt was");
STATIC_ASSERT(offsetof(struct security_id, refcnt) ==
		      offsetof(struct layout_34, refcnt),
	      "refcnt moved");

int count_sids(void);
int count_sids(void)
{
	/* 3.7+: avc_open() takes a const option array. */
	static const struct selinux_opt opts[] = {
		{AVC_OPT_SETENFORCE, NULL},
	};
	static struct per_sid table[64];
	security_id_t a, b;

	if (avc_open(opts, 1) < 0)
		return -1;
	if (avc_context_to_sid("system_u:object_r:etc_t:s0", &a) < 0 ||
	    avc_context_to_sid("system_u:object_r:bin_t:s0", &b) < 0)
		return -1;
	table[sid_slot(a, 64)].id = a->id;
	table[sid_slot(b, 64)].hits++;
	return a->id != b->id;
}

/* 3.7+: a read-only class map. */
int map_classes(void);
int map_classes(void)
{
	static const struct security_class_mapping map[] = {
		{"file", {"read", "write", NULL}},
		{"process", {"transition", NULL}},
		{NULL, {NULL}},
	};

	return selinux_set_mapping(map);
}

/* 3.5+: security_load_policy() takes a const image. */
int load(const unsigned char *image, size_t len);
int load(const unsigned char *image, size_t len)
{
	return security_load_policy(image, len);
}

/* 3.6+: selabel_cmp() on handles the caller only reads. */
int same_specs(const struct selabel_handle *a, const struct selabel_handle *b);
int same_specs(const struct selabel_handle *a, const struct selabel_handle *b)
{
	return selabel_cmp(a, b) == SELABEL_EQUAL;
}

/* 3.9/3.10: set user and role too, count what was relabelled. */
long relabel_tree(const char *path);
long relabel_tree(const char *path)
{
	unsigned int flags = SELINUX_RESTORECON_RECURSE |
			     SELINUX_RESTORECON_SET_USER_ROLE |
			     SELINUX_RESTORECON_COUNT_RELABELED |
			     SELINUX_RESTORECON_SKIP_MULTILINK |
			     SELINUX_RESTORECON_COUNT_ERRORS;

	if (selinux_restorecon(path, flags) < 0)
		return -1;
	return (long)selinux_restorecon_get_relabeled_files();
}

/* 3.5+: the previous context of another process. */
int prev_of(pid_t pid, char **con);
int prev_of(pid_t pid, char **con)
{
	return getpidprevcon(pid, con) < 0 ? getpidprevcon_raw(pid, con) : 0;
}

int main(void)
{
	context_t c = context_new("system_u:object_r:etc_t:s0");
	const char *s;
	char *owned;
	int bad;

	if (!c)
		return 1;
	/* 3.5+ declares the result const. */
	s = context_str(c);
	/* 3.9+: a copy the caller frees. */
	owned = context_to_str(c);
	bad = !s || !owned || strcmp(s, "system_u:object_r:etc_t:s0") ||
	      strcmp(owned, s) || owned == s;
	context_free(c);
	if (!bad && strcmp(owned, "system_u:object_r:etc_t:s0"))
		bad = 1;
	free(owned);
	if (bad) {
		fprintf(stderr, "context_str/context_to_str disagree\n");
		return 1;
	}
	return 0;
}
