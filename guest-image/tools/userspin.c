// SPDX-License-Identifier: GPL-2.0
/*
 * userspin CPU: pin this task to CPU and spin there in user space, one
 * PAUSE an iteration, until a signal ends it.
 *
 * The grace-period floor of the effect tests (47-effect, 46-nohz-qs,
 * 56-early): on a nohz_full CPU a task in user space is in an extended
 * quiescent state, so it holds no grace period back, yet its vCPU is as
 * busy as one running a kernel loop. Single-threaded TCG runs the busy
 * vCPUs in turn, switching at each PAUSE, so a floor measured with this
 * task on the loop's CPU shares the emulator's time as the loop runs do.
 *
 * Exit status: 2 on a usage error, 1 when the CPU cannot be set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	cpu_set_t set;
	char *end;
	long cpu;

	if (argc != 2) {
		fprintf(stderr, "usage: userspin CPU\n");
		return 2;
	}
	errno = 0;
	cpu = strtol(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || cpu < 0 || cpu >= CPU_SETSIZE) {
		fprintf(stderr, "userspin: '%s' is not a CPU number\n", argv[1]);
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "userspin: CPU %ld: %s\n", cpu, strerror(errno));
		return 1;
	}
	for (;;)
		__builtin_ia32_pause();
}
