// SPDX-License-Identifier: GPL-2.0
/*
 * open1 N MS DIR: the shape of will-it-scale's open1. N processes, each
 * bound to CPU (i mod online CPUs), open and close a file of their own in
 * DIR in a tight loop for MS milliseconds; prints the total number of
 * open+close pairs and the ops per second:
 *
 *   open1: 2 tasks, 2000 ms, 123456 ops, 61728 ops/s
 *
 * Every close() frees a struct file through call_rcu(), so the loop makes
 * RCU callbacks at the rate of the benchmark, as in 2014.
 * Exit status: 0 on success, 1 on a system error, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static long parse(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	return v;
}

static int run(int i, long ms, const char *dir, unsigned long *ops)
{
	long long end = now_ms() + ms;
	char path[4096];
	cpu_set_t set;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(&set);
	CPU_SET(i % (ncpu > 0 ? ncpu : 1), &set);
	sched_setaffinity(0, sizeof(set), &set);
	snprintf(path, sizeof(path), "%s/open1.%d", dir, i);
	if (close(open(path, O_RDWR | O_CREAT, 0600)) < 0) {
		perror(path);
		return 1;
	}
	/* The clock is read every 256 pairs: tinyconfig has no POSIX timers. */
	while ((*ops & 255) || now_ms() < end) {
		int fd = open(path, O_RDWR);

		if (fd < 0) {
			perror(path);
			return 1;
		}
		close(fd);
		(*ops)++;
	}
	unlink(path);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long *ops, total = 0;
	long n, ms;
	int i, rc = 0;

	if (argc != 4 || (n = parse(argv[1], 1, 256)) < 0 || (ms = parse(argv[2], 1, 3600000)) < 0) {
		fprintf(stderr, "usage: open1 N MS DIR\n");
		return 2;
	}
	ops = mmap(NULL, n * sizeof(*ops), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ops == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid)
			_exit(run(i, ms, argv[3], &ops[i]));
	}
	for (i = 0; i < n; i++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			rc = 1;
	}
	for (i = 0; i < n; i++)
		total += ops[i];
	printf("open1: %ld tasks, %ld ms, %lu ops, %lu ops/s\n", n, ms, total, total * 1000 / ms);
	return rc;
}
