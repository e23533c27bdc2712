/*
 * state.c: the enforcing mode and the policy's sequence number.  Only
 * the FUSE session's thread (and main() before it) touches them: no lock.
 */
#include "state.h"

static bool enforcing;
static uint32_t seqno;

bool state_enforcing(void)
{
	return enforcing;
}

void state_set_enforcing(bool e)
{
	enforcing = e;
}

uint32_t state_seqno(void)
{
	return seqno;
}

void state_seqno_bump(void)
{
	seqno++;
}
