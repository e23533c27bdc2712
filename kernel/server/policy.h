/*
 * policy.h: the loaded policy and the decisions made from it (policy.c):
 * libsepol's policydb and sidtab, contexts <-> SIDs, access vectors (with
 * a decision cache), transitions, user SIDs, validatetrans, booleans,
 * names.  Below files.c; uses context.h, state.h and log.h.
 */
#ifndef SELINUXFSD_POLICY_H
#define SELINUXFSD_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An access decision, as the kernel's "access" file reports it. */
struct srv_avd {
	uint32_t allowed;
	uint32_t decided;
	uint32_t auditallow;
	uint32_t auditdeny;
	uint32_t seqno;
	uint32_t flags; /* AVD_FLAGS_PERMISSIVE: the source is permissive */
};
#define SRV_AVD_FLAGS_PERMISSIVE 0x0001

enum srv_sid_kind { SRV_TRANSITION, SRV_MEMBER, SRV_CHANGE };

/* Load a binary policy image (replaces the loaded one); -EINVAL if bad.
 * A load bumps the sequence number (state_seqno). */
int pol_load(const void *data, size_t len);
bool pol_loaded(void);
/* Whether data starts as a kernel policy does (magic, platform, a
 * version libsepol reads): what can be told of an image from its first
 * bytes.  pol_load decides the rest. */
bool pol_header_ok(const void *data, size_t len);
/* Free everything (at exit). */
void pol_unload(void);
/* The policy as the kernel's "policy" file gives it: an image made once
 * per load or boolean commit and shared (*data, *len: its bytes), held
 * until pol_image_put (a load in between does not change it). */
struct pol_image;
int pol_image_get(struct pol_image **img, const char **data, size_t *len);
void pol_image_put(struct pol_image *img);
uint32_t pol_mls(void);
uint32_t pol_deny_unknown(void);
uint32_t pol_reject_unknown(void);

/*
 * A request begins (files.c, before each transaction and validatetrans):
 * the SIDs the last one made may now be reclaimed, past a bound
 * (context.h).  A SID is valid from the request that made it until the
 * next pol_begin(); SIDs never leave the server.
 */
void pol_begin(void);
/* The SID table, as ss/sidtab_hash_stats reports it. */
struct srv_sid_stats {
	uint32_t entries, slots, longest;
	uint64_t reclaimed;
};
void pol_sid_stats(struct srv_sid_stats *st);

/* A context (len bytes, a trailing NUL allowed) to a SID: -EINVAL. */
int pol_context_to_sid(const char *con, size_t len, uint32_t *sid);
/* The context of sid, malloc'd, with its length including the NUL. */
int pol_sid_to_context(uint32_t sid, char **con, size_t *len);
int pol_compute_av(uint32_t ssid, uint32_t tsid, uint16_t tclass,
		   struct srv_avd *avd);
/* name: the object's name for named type transitions, or NULL. */
int pol_compute_sid(uint32_t ssid, uint32_t tsid, uint16_t tclass,
		    enum srv_sid_kind kind, const char *name, uint32_t *out);
/* The SIDs user may reach from fromsid; *sids malloc'd. */
int pol_user_sids(uint32_t fromsid, const char *user, uint32_t **sids,
		  uint32_t *n);
/* 0 when the transition is allowed, -EPERM when a constraint denies. */
int pol_validatetrans(uint32_t oldsid, uint32_t newsid, uint32_t tasksid,
		      uint16_t tclass);

/* Booleans: index 0 .. pol_nbools() - 1. */
uint32_t pol_nbools(void);
const char *pol_bool_name(uint32_t i);
int pol_bool_find(const char *name);
void pol_bool_get(uint32_t i, int *active, int *pending);
void pol_bool_set_pending(uint32_t i, int value);
/* Make the pending values active and bump the sequence number. */
int pol_bools_commit(void);

/* Classes 1 .. pol_nclasses(); permissions 1 .. pol_nperms(c). */
uint32_t pol_nclasses(void);
const char *pol_class_name(uint32_t c);
uint32_t pol_nperms(uint32_t c);
const char *pol_perm_name(uint32_t c, uint32_t p);

/* Initial SIDs the kernel names (1 .. SRV_NINITSIDS - 1). */
#define SRV_NINITSIDS 28
const char *pol_initsid_name(uint32_t sid);
/* Policy capabilities the kernel names (0 .. n - 1). */
uint32_t pol_npolcaps(void);
const char *pol_polcap_name(uint32_t i);
bool pol_polcap(uint32_t i);

/* The decision cache's counters (avc/cache_stats). */
struct srv_cache_stats {
	uint32_t lookups, hits, misses, allocations, reclaims, frees;
};
void pol_cache_stats(struct srv_cache_stats *st);
uint32_t pol_cache_entries(void);

#endif
