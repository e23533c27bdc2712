/*
 * A 3.8+ program that includes only <selinux/restorecon.h> and still opens
 * its own file-contexts handle: since 3.8 that header includes
 * <selinux/label.h>.
 */
#include <stddef.h>

#include <selinux/restorecon.h>

int use_own_handle(const char *path);
int use_own_handle(const char *path)
{
	struct selinux_opt opts[] = {
		{SELABEL_OPT_DIGEST, (const char *)1},
	};
	struct selabel_handle *h = selabel_open(SELABEL_CTX_FILE, opts, 1);

	if (!h)
		return -1;
	selinux_restorecon_set_sehandle(h);
	return selinux_restorecon(path, SELINUX_RESTORECON_IGNORE_DIGEST);
}

int main(void)
{
	return 0;
}
