/*
 * status.c: the kernel's status page (struct selinux_kernel_status,
 * version 1), which selinux_status_open() and avc_open() map read-only.
 * Readers retry while sequence is odd or changes under them, so every
 * update makes it odd, writes, then makes it even again.
 */
#include "status.h"

static struct srv_status page = { .version = 1 };
static void (*changed)(void);

const struct srv_status *status_page(void)
{
	return &page;
}

void status_update(uint32_t enforcing, uint32_t policyload,
		   uint32_t deny_unknown)
{
	if (page.enforcing == enforcing && page.policyload == policyload &&
	    page.deny_unknown == deny_unknown)
		return;
	page.sequence++;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	page.enforcing = enforcing;
	page.policyload = policyload;
	page.deny_unknown = deny_unknown;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	page.sequence++;
	if (changed)
		changed();
}

void status_set_hook(void (*hook)(void))
{
	changed = hook;
}
