/*
 * A 3.8+ program that takes uint32_t from <selinux/selinux.h> alone: since
 * 3.8 that header includes <stdint.h>.
 */
#include <selinux/selinux.h>

uint32_t av_bits(struct av_decision *avd);
uint32_t av_bits(struct av_decision *avd)
{
	return (uint32_t)(avd->allowed & ~avd->auditdeny);
}

int main(void)
{
	struct av_decision avd = {0x7, 0, 0, 0x2, 0, 0};

	return av_bits(&avd) != 0x5;
}
