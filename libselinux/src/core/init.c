/* core/init.c: what the library learns once, when it is loaded. */
#include <unistd.h>

#include "internal.h"

/*
 * Both are written only by the constructor (before main and before any
 * thread of the program exists) and by the test hook core_set_config_root;
 * afterwards they are read-only, so no lock guards them.
 */
long core_page_size = 4096;
bool core_has_config;


__attribute__((constructor)) static void core_init(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	if (ps > 0)
		core_page_size = ps;
	core_config_recheck();
	core_mnt_discover();
}

/* The established library frees its state at unload; so do we, which also
 * keeps leak checkers quiet in programs that dlclose() us. */
__attribute__((destructor)) static void core_fini(void)
{
	free(selinux_mnt);
	selinux_mnt = NULL;
}
