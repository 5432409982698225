/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measuring core of measure: synchronize_rcu() timed from user space,
 * and loads that keep a CPU in the kernel. Processes and clocks only: no
 * file below the root is read here, nothing of the kernel's is written.
 */
#ifndef RCUQS_MEASURE_H
#define RCUQS_MEASURE_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * LOAD_NONE runs nothing (the floor); LOAD_MUNMAP maps a large anonymous
 * region with MAP_POPULATE and unmaps it, over and over (the kernel
 * zeroing and freeing its pages: two long system calls); LOAD_SYSCALL
 * makes short system calls in a loop; LOAD_EXIT has one process after
 * another open MEASURE_EXIT_SOCKETS sockets and exit with them open, so
 * that the kernel closes them all in one long stretch (the seeds' case).
 * It needs RLIMIT_NOFILE at MEASURE_EXIT_NOFILE: the sockets, and room
 * for the descriptors a process starts with.
 */
enum measure_load { LOAD_NONE, LOAD_MUNMAP, LOAD_SYSCALL, LOAD_EXIT, N_LOADS };
#define MEASURE_EXIT_SOCKETS 16384UL
#define MEASURE_EXIT_NOFILE (MEASURE_EXIT_SOCKETS + 64)
extern const char *const measure_load_names[N_LOADS];

/*
 * Set (to the signal's number) by a handler to end a run early:
 * measure_sync_rcu() then kills and reaps its timing process and returns
 * -EINTR. 0 otherwise.
 */
extern volatile sig_atomic_t measure_stop;

/* The calling process and what it forks later, onto cpu alone: 0 or -errno. */
int measure_pin(long cpu);

/*
 * Fork a process that pins itself to cpu and runs load until
 * measure_load_stop() (or this process's end) kills it. *pid is 0 for
 * LOAD_NONE. 0, or -errno: that of the pinning (sched_setaffinity) when
 * the process could not be pinned, or -EMFILE when LOAD_EXIT could not
 * raise RLIMIT_NOFILE to MEASURE_EXIT_NOFILE; then it has ended already.
 * LOAD_EXIT's exiting processes are reaped by measure_load_stop(): the
 * calling process becomes a child subreaper (PR_SET_CHILD_SUBREAPER).
 */
int measure_load_start(enum measure_load load, long cpu, pid_t *pid);
void measure_load_stop(pid_t pid);

/* synchronize_rcu() latencies, in nanoseconds. */
struct measure_samples {
	unsigned long long *ns;
	size_t n, cap;
};

/* Called after each sample with how far the run is, for a progress line. */
typedef void measure_progress_fn(double elapsed, size_t samples, void *arg);

/*
 * For secs seconds, time synchronize_rcu() from the calling process's CPU:
 * short-lived children whose fd table is shared with a second thread grow
 * it with dup2() past its size, one expand_fdtable() (and so one
 * synchronize_rcu()) a call, about 5 ms apart; each call's duration on
 * CLOCK_MONOTONIC is appended to s. 0, or -errno (said): -EMFILE when
 * RLIMIT_NOFILE leaves the table no room to grow, -ENODATA when no call
 * could be timed, -EINTR when measure_stop was set.
 */
int measure_sync_rcu(double secs, struct measure_samples *s, measure_progress_fn *progress,
		     void *arg);
void measure_samples_free(struct measure_samples *s);

/* The p-quantile (0 < p <= 1, nearest rank) of s in ms; s gets sorted. */
double measure_quantile_ms(struct measure_samples *s, double p);

#endif
