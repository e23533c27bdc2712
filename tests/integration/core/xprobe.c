/*
 * xprobe CALL PATH: one call of the file-label family on PATH, printed as
 * a probe line (tests/lib/probe_print.h): "CALL = RC con=\"...\"" or
 * "CALL = -1 errno=ENAME".  CALL is getfilecon, getfilecon_raw,
 * lgetfilecon_raw, fgetfilecon_raw (PATH opened O_RDONLY) or
 * fgetfilecon_opath (PATH opened O_PATH).  Exit 0 once the line is
 * printed, 2 on wrong arguments or when PATH cannot be opened.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <selinux/selinux.h>

#include "probe_print.h"

int main(int argc, char **argv)
{
	const char *call = argc == 3 ? argv[1] : "";
	char *con = NULL;
	int fd, r;

	if (strcmp(call, "getfilecon") == 0) {
		r = getfilecon(argv[2], &con);
	} else if (strcmp(call, "getfilecon_raw") == 0) {
		r = getfilecon_raw(argv[2], &con);
	} else if (strcmp(call, "lgetfilecon_raw") == 0) {
		r = lgetfilecon_raw(argv[2], &con);
	} else if (strcmp(call, "fgetfilecon_raw") == 0 ||
		   strcmp(call, "fgetfilecon_opath") == 0) {
		fd = open(argv[2], call[12] == 'o' ? O_PATH : O_RDONLY);
		if (fd < 0) {
			perror(argv[2]);
			return 2;
		}
		r = fgetfilecon_raw(fd, &con);
		close(fd);
	} else {
		fprintf(stderr, "usage: xprobe getfilecon|getfilecon_raw|"
				"lgetfilecon_raw|fgetfilecon_raw|"
				"fgetfilecon_opath PATH\n");
		return 2;
	}
	probe_con(call, r, con);
	return 0;
}
