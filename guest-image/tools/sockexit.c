// SPDX-License-Identifier: GPL-2.0
/*
 * sockexit CPU N: a process bound to CPU opens N AF_UNIX sockets (N/2
 * socket pairs), says "ready PID" on standard output, waits for SIGUSR1
 * and then exits with every socket still open, so that the kernel closes
 * them all on its exit path, on CPU: the seeds' other workload (a process
 * with many thousands of open sockets exits on a nohz_full CPU; issue 29,
 * item 6). Each socket's inode is freed through call_rcu(), so the exit
 * queues about N RCU callbacks from CPU.
 *
 * The parent (this command) waits for the child and prints how long the
 * exit took, from the signal to the end of waitpid():
 *
 *   sockexit: cpu 2, 100000 sockets, exit 612 ms
 *
 * SIGUSR1 to this command is passed on to the child. Exit status: 0 on
 * success, 1 on a system error, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int number(const char *s, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && end != s && !*end && *out >= 0 && *out <= max;
}

static void child(int cpu, long n, int ready)
{
	cpu_set_t set;
	struct rlimit rl = { n + 64, n + 64 };
	sigset_t mask, old;
	long i;
	int sv[2];

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "sockexit: cannot run on CPU %d: %s\n", cpu, strerror(errno));
		_exit(1);
	}
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		fprintf(stderr, "sockexit: cannot allow %ld open files: %s\n", n + 64, strerror(errno));
		_exit(1);
	}
	for (i = 0; i < n; i += 2) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
			fprintf(stderr, "sockexit: socketpair #%ld: %s\n", i / 2 + 1, strerror(errno));
			_exit(1);
		}
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, &old);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	close(ready);
	while (!go)
		sigsuspend(&old);
	_exit(0);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t mask, old;
	long cpu, n;
	long long t0;
	int p[2], st;
	pid_t pid;
	char c;

	if (argc != 3 || !number(argv[1], CPU_SETSIZE - 1, &cpu) ||
	    !number(argv[2], 10000000, &n) || n < 2) {
		fprintf(stderr, "usage: sockexit CPU N (N sockets, 2 to 10000000)\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) || pipe(p)) {
		perror("sockexit");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("sockexit: fork");
		return 1;
	}
	if (!pid) {
		close(p[0]);
		child(cpu, n, p[1]);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1) {
		waitpid(pid, &st, 0);
		fprintf(stderr, "sockexit: the child failed before it was ready\n");
		return 1;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, &old);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		sigsuspend(&old);
	t0 = now_us();
	if (kill(pid, SIGUSR1) || waitpid(pid, &st, 0) != pid) {
		perror("sockexit");
		return 1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "sockexit: the child ended with status 0x%x\n", st);
		return 1;
	}
	printf("sockexit: cpu %ld, %ld sockets, exit %lld ms\n", cpu, n, (now_us() - t0) / 1000);
	return 0;
}
