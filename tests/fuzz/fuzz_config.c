/*
 * Fuzz target for /etc/selinux/config: the input is the config file of
 * a fixture root (the unexported core_set_config_root hook, as the unit
 * tests use it), read again after selinux_reset_config() each time.
 * selinux_getenforcemode() must give 0 with -1, 0 or 1, or -1 with
 * EINVAL; selinux_getpolicytype() must give a type, and the policy root
 * and the paths built from it must be there and start with the root.
 */
#include <errno.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *root, *p;
	char *type = NULL;
	int mode = 77;

	if (fz_init("config")) {
		fz_mkdirs("etc/selinux");
		core_set_config_root(fz_path("etc/selinux"));
	}
	fz_write("etc/selinux/config", data, size);
	selinux_reset_config();

	errno = 0;
	if (selinux_getenforcemode(&mode) == 0) {
		if (mode < -1 || mode > 1)
			abort();
	} else if (errno != EINVAL) {
		abort();
	}
	if (selinux_getpolicytype(&type) < 0 || !type)
		abort();
	root = selinux_policy_root();
	if (!root)
		abort();
	p = selinux_default_context_path();
	if (!p || strncmp(p, root, strlen(root)))
		abort();
	(void)selinux_binary_policy_path();
	(void)selinux_file_context_path();
	free(type);
	return 0;
}
