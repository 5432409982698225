// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure's core: synchronize_rcu() timed from user space, and the loads.
 *
 * Debian's kernels have no RCU grace-period tracepoints (RCU_TRACE is
 * off), so the source is a system call that waits for a normal grace
 * period in the calling task: dup2(fd, N) with N past the fd table's size
 * makes expand_fdtable() allocate a larger table and, when the table is
 * shared with another task (files->count > 1), call synchronize_rcu()
 * before it frees the old one (fs/file.c, 6.1 to 7.3). A second thread
 * shares the table; each growth is one call. The table only grows, so each
 * batch of samples is a fresh child, whose table fork() makes small again.
 *
 * A sample is a synchronize_rcu() latency: the rest of a grace period in
 * progress plus one whole grace period (one to two), plus the wake-up,
 * not a grace period's length as a tracepoint would give it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"
#include "util.h"

#define GAP_NS 5000000L		/* between two samples of a batch */
/*
 * The largest table a batch grows: 64 to 8192 entries, 7 samples, each
 * table a kmalloc() of at most 64 KiB, so that allocating and copying it
 * stays small beside a grace period.
 */
#define TABLE_MAX 8192UL
#define MUNMAP_BYTES (256UL << 20)
#define PROC_STATUS "/proc/self/status"	/* the running kernel's, not below the root */

/* Why a batch child ended, as its exit status. */
enum { B_OK, B_THREAD = 10, B_NO_ROOM, B_TABLE_BIG, B_FDSIZE, B_DUP2, B_PIPE };

volatile sig_atomic_t measure_stop;

const char *const measure_load_names[N_LOADS] = {
	[LOAD_NONE] = "none", [LOAD_MUNMAP] = "munmap", [LOAD_SYSCALL] = "syscall",
	[LOAD_EXIT] = "exit",
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

int measure_pin(long cpu)
{
	cpu_set_t *set = CPU_ALLOC((int)cpu + 1);
	size_t size = CPU_ALLOC_SIZE((int)cpu + 1);
	int r = 0;

	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(size, set);
	CPU_SET_S((size_t)cpu, size, set);
	if (sched_setaffinity(0, size, set) < 0)
		r = -errno;
	CPU_FREE(set);
	return r;
}

/* A child's last words: it must not run the parent's atexit handlers or flush its stdio. */
static void child_prepare(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);	/* the parent is gone already */
}

/* LOAD_EXIT's room: RLIMIT_NOFILE raised for the sockets (inherited). */
static int exit_load_prepare(void)
{
	struct rlimit rl;
	rlim_t want = MEASURE_EXIT_NOFILE;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		rl.rlim_cur = want;
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
			rl.rlim_max = want;	/* needs CAP_SYS_RESOURCE */
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			return -EMFILE;
	}
	return 0;
}

/*
 * One LOAD_EXIT round: a child opens MEASURE_EXIT_SOCKETS sockets (socket
 * pairs, so no file system is touched) and exits with them open; the
 * kernel closes them in its exit, on this CPU.
 */
static void exit_round(void)
{
	pid_t c = fork();
	int sv[2];

	if (c == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (unsigned long i = 0; i < MEASURE_EXIT_SOCKETS; i += 2)
			if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
				_exit(1);
		_exit(0);
	}
	if (c < 0)
		_exit(1);
	while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
		;
}

static __attribute__((noreturn)) void run_load(enum measure_load load)
{
	for (;;) {
		if (load == LOAD_SYSCALL) {
			syscall(SYS_getppid);
			continue;
		}
		if (load == LOAD_EXIT) {
			exit_round();
			continue;
		}
		/* Populated by the kernel: two long system calls, no page faults. */
		char *p = mmap(NULL, MUNMAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p == MAP_FAILED)
			_exit(1);
		munmap(p, MUNMAP_BYTES);
	}
}

int measure_load_start(enum measure_load load, long cpu, pid_t *pid)
{
	pid_t parent = getpid();
	int p[2], err = 0;
	ssize_t n;

	*pid = 0;
	if (load == LOAD_NONE)
		return 0;
	if (load == LOAD_EXIT && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		return -errno;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL);
	*pid = fork();
	if (*pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		*pid = 0;
		return err;
	}
	if (*pid == 0) {
		close(p[0]);
		child_prepare(parent);
		setpgid(0, 0);	/* measure_load_stop() kills its children with it */
		err = measure_pin(cpu);
		if (err == 0 && load == LOAD_EXIT)
			err = exit_load_prepare();
		if (write(p[1], &err, sizeof(err)) != sizeof(err) || err)
			_exit(1);
		close(p[1]);
		run_load(load);
	}
	close(p[1]);
	do
		n = read(p[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	if (n != sizeof(err))
		err = -EIO;	/* it died before it said */
	if (err) {
		measure_load_stop(*pid);
		*pid = 0;
	}
	return err;
}

void measure_load_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	/*
	 * LOAD_EXIT's child, if one was running, is ours now (the subreaper):
	 * wait until its exit has closed its sockets, so that the next run
	 * starts on a quiet CPU.
	 */
	while (waitpid(-pid, NULL, 0) > 0 || errno == EINTR)
		;
}

/* The "FDSize:" of /proc/self/status: the size of this process's fd table; 0 unknown. */
static unsigned long fd_table_size(void)
{
	char buf[4096], *p;
	unsigned long v = 0;
	ssize_t n;
	int fd = open(PROC_STATUS, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if ((p = strstr(buf, "\nFDSize:")))
		v = strtoul(p + 8, NULL, 10);
	return v;
}

static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/*
 * A batch: with a second thread sharing the table, grow it by dup2() to
 * its size, timing each call, until TABLE_MAX, the file limit or the
 * deadline. Each duration goes down out as 8 bytes.
 */
static __attribute__((noreturn)) void batch(int out, unsigned long long deadline, pid_t parent)
{
	struct rlimit rl;
	unsigned long limit = ULONG_MAX, size;
	pthread_t t;
	int timed = 0;

	child_prepare(parent);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
		if (rl.rlim_cur < limit)
			limit = (unsigned long)rl.rlim_cur;
	}
	/* A parent's descriptor far up (bash's 255) makes fork() copy a large table. */
	if (fd_table_size() >= TABLE_MAX)
		_exit(B_TABLE_BIG);
	if (pthread_create(&t, NULL, idle_thread, NULL) != 0)
		_exit(B_THREAD);
	while ((size = fd_table_size()) < limit && size < TABLE_MAX && now_ns() < deadline) {
		unsigned long long t0, t1, d;
		struct timespec gap = { 0, GAP_NS };

		if (size == 0)
			_exit(B_FDSIZE);
		t0 = now_ns();
		if (dup2(out, (int)size) < 0)
			_exit(B_DUP2);
		t1 = now_ns();
		close((int)size);
		if (fd_table_size() <= size)
			_exit(B_FDSIZE);	/* it did not grow: not a synchronize_rcu() */
		d = t1 - t0;
		if (write(out, &d, sizeof(d)) != sizeof(d))
			_exit(B_PIPE);
		timed++;
		nanosleep(&gap, NULL);
	}
	_exit(timed || size < limit ? B_OK : B_NO_ROOM);
}

static int add_sample(struct measure_samples *s, unsigned long long ns)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		unsigned long long *ns2 = realloc(s->ns, cap * sizeof(*ns2));

		if (!ns2)
			return -ENOMEM;
		s->ns = ns2;
		s->cap = cap;
	}
	s->ns[s->n++] = ns;
	return 0;
}

/* A batch's exit status in words; NULL when it ended well. */
static const char *batch_failure(int status)
{
	if (!WIFEXITED(status))
		return "it was killed";
	switch (WEXITSTATUS(status)) {
	case B_OK:
		return NULL;
	case B_THREAD:
		return "it could not start its second thread";
	case B_NO_ROOM:
		return "RLIMIT_NOFILE's hard limit leaves its fd table no room to grow "
		       "(ulimit -Hn: 8192 gives 7 calls a child)";
	case B_TABLE_BIG:
		return "its fd table starts with 8192 entries or more (a descriptor that high "
		       "inherited: close it)";
	case B_FDSIZE:
		return "FDSize in " PROC_STATUS " is missing or did not grow with its fd table";
	case B_DUP2:
		return "dup2() failed";
	default:
		return "it failed";
	}
}

int measure_sync_rcu(double secs, struct measure_samples *s, measure_progress_fn *progress,
		     void *arg)
{
	unsigned long long start = now_ns(), deadline = start + (unsigned long long)(secs * 1e9);
	pid_t parent = getpid();
	int r = 0;

	while (r == 0 && now_ns() < deadline && !measure_stop) {
		unsigned long long ns;
		const char *why;
		int p[2], status;
		pid_t pid;
		ssize_t n;

		if (pipe2(p, O_CLOEXEC) < 0)
			return -errno;
		fflush(NULL);
		pid = fork();
		if (pid < 0) {
			r = -errno;
			close(p[0]);
			close(p[1]);
			break;
		}
		if (pid == 0) {
			close(p[0]);
			batch(p[1], deadline, parent);
		}
		close(p[1]);
		while ((n = read(p[0], &ns, sizeof(ns))) == sizeof(ns) || (n < 0 && errno == EINTR)) {
			if (n < 0 && measure_stop) {
				r = -EINTR;
				break;
			}
			if (n < 0)
				continue;
			if ((r = add_sample(s, ns)) < 0)
				break;
			if (progress)
				progress((double)(now_ns() - start) / 1e9, s->n, arg);
		}
		close(p[0]);
		if (r < 0)
			kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR) {
				status = 0;
				break;
			}
		}
		if (r == 0 && measure_stop)
			r = -EINTR;	/* a terminal's ^C may have ended the batch too */
		if (r == 0 && (why = batch_failure(status))) {
			errmsg("measure: a timing process failed: %s", why);
			r = WIFEXITED(status) && WEXITSTATUS(status) == B_NO_ROOM ? -EMFILE : -EIO;
		}
	}
	if (r == 0 && measure_stop)
		r = -EINTR;
	if (r == 0 && s->n == 0) {
		errmsg("measure: no synchronize_rcu() call could be timed in %g s", secs);
		r = -ENODATA;
	}
	return r;
}

void measure_samples_free(struct measure_samples *s)
{
	free(s->ns);
	memset(s, 0, sizeof(*s));
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

double measure_quantile_ms(struct measure_samples *s, double p)
{
	size_t rank;

	if (s->n == 0)
		return 0;
	qsort(s->ns, s->n, sizeof(*s->ns), cmp_ull);
	rank = (size_t)ceil(p * (double)s->n);
	if (rank < 1)
		rank = 1;
	if (rank > s->n)
		rank = s->n;
	return (double)s->ns[rank - 1] / 1e6;
}
