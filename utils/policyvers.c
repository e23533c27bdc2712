/* utils/policyvers.c: print the highest policy version the kernel
 * supports.  Arguments are ignored, as in selinux-utils 3.4. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <selinux/selinux.h>

int main(int argc, char **argv)
{
	int vers = security_policyvers();

	if (vers < 0) {
		fprintf(stderr, "%s:  security_policyvers() failed:  %s\n",
			argv[0], strerror(errno));
		return 2;
	}
	printf("%d\n", vers);
	return 0;
}
