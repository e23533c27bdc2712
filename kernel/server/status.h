/*
 * status.h: the page selinux_status_open() maps (status.c).  In the
 * state layer: it depends on nothing; files.c writes it, fuse.c pushes
 * it to the page cache through the hook.
 */
#ifndef SELINUXFSD_STATUS_H
#define SELINUXFSD_STATUS_H

#include <stdint.h>

struct srv_status {
	uint32_t version; /* 1 */
	uint32_t sequence; /* odd while an update is in progress */
	uint32_t enforcing;
	uint32_t policyload;
	uint32_t deny_unknown;
};
const struct srv_status *status_page(void);
/* Record a change; calls the hook registered (fuse.c pushes the page). */
void status_update(uint32_t enforcing, uint32_t policyload,
		   uint32_t deny_unknown);
void status_set_hook(void (*hook)(void));

#endif
