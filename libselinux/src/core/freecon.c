/* core/freecon.c: freecon and freeconary. */
#include <selinux/selinux.h>

#include "internal.h"

_public_ void freecon(char *con)
{
	free(con);
}

_public_ void freeconary(char **con)
{
	if (!con)
		return;
	for (char **p = con; *p; p++)
		free(*p);
	free(con);
}
