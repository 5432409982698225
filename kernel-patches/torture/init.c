// SPDX-License-Identifier: GPL-2.0
/*
 * The whole user space of a 'make torture' boot, as the init of
 * rcutorture's own mkinitrd.sh: rcutorture is built in and powers the
 * guest off after rcutorture.shutdown_secs; init only has to exist and
 * stay out of the way.
 */
#include <unistd.h>

int main(void)
{
	for (;;)
		sleep(1000);
}
