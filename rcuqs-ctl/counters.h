/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rcuqs kernel's counters in /sys/kernel/rcu_qs/, sampled at intervals
 * and turned into rates: what watch prints and recommend decides on.
 */
#ifndef RCUQS_COUNTERS_H
#define RCUQS_COUNTERS_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "rcuqs.h"

#define COUNTERS_DIR "kernel/rcu_qs"	/* below /sys */

/*
 * C_LIMIT only on 6.1 and 6.12 (cond_resched_qs_limit); C_NOHZ_ASKS and
 * C_NOHZ_REPORTS only on 7.3 (jiffies_till_nohz_qs: the requests queued on
 * nohz_full CPUs, each an interrupt, and those that noted a quiescent
 * state at once).
 */
enum { C_GP, C_CBS, C_LIMIT, C_URGENT, C_KICKS, C_NOHZ_ASKS, C_NOHZ_REPORTS, N_COUNTERS };
extern const char *const counter_names[N_COUNTERS];	/* the file names */

/* One reading of every counter; have[i] false when it could not be read. */
struct sample {
	unsigned long long v[N_COUNTERS];
	bool have[N_COUNTERS];
	/*
	 * Where this snapshot's per-CPU time, softirqs and interrupts are,
	 * below the root: /proc/stat, /proc/softirqs and /proc/interrupts, or
	 * the test hook's stat=, softirqs= and interrupts= words. recommend
	 * on a stock kernel reads the first two, measure the last two.
	 */
	char stat[128], softirqs[128], interrupts[128];
};

/*
 * Where samples come from: the root's sysfs, or, when the environment
 * variable RCUQS_TEST_SAMPLES names a file, that file's lines, one
 * snapshot each, taken in turn without sleeping (the test hook; see
 * rcuqs-ctl(8) ENVIRONMENT). bits is the kernel's unsigned long width,
 * which decides whether a counter that went down wrapped.
 */
struct sampler {
	const struct rcuqs_ctx *ctx;
	FILE *snapshots;
	unsigned int line;
	unsigned int bits;
};

/*
 * Open: -ENODEV with a message naming the missing directory when the
 * kernel has no counters, another -errno (said) when the test hook's file
 * cannot be opened.
 */
int sampler_open(const struct rcuqs_ctx *ctx, struct sampler *s);
/* The same on a kernel without the counters: only the test hook's errors. */
int sampler_open_stock(const struct rcuqs_ctx *ctx, struct sampler *s);
void sampler_close(struct sampler *s);
/* Read one sample: 0, -ENODATA when the test hook's file is used up, -EINVAL (said). */
int sampler_read(struct sampler *s, struct sample *out);
/*
 * Wait secs seconds or until *stop is set; the seconds that passed (secs
 * itself under the test hook).
 */
double sampler_wait(const struct sampler *s, double secs, volatile sig_atomic_t *stop);

/* Rates over an interval; have[i] false where a counter was missing. */
struct rates {
	double per_s[N_COUNTERS];
	bool have[N_COUNTERS];
	double cbs_per_gp;	/* callbacks per grace period */
	bool have_cbs_per_gp;	/* false when no grace period completed */
};

/*
 * Rates from a to b over secs seconds. A counter that went down is taken
 * as a wrap modulo 2^32 on a 32-bit kernel (both values below 2^32, with a
 * note on stderr); anywhere else it went backwards: said, and -ERANGE.
 */
int rates_compute(const struct sampler *s, const struct sample *a, const struct sample *b,
		  double secs, struct rates *r);

/*
 * The shortest interval watch and recommend take: a shorter one measures
 * the clock rather than the counters (and, under the test hook, drove the
 * rates to inf).
 */
#define SECONDS_MIN 0.1
/* A decimal number of seconds in [SECONDS_MIN, max]; -EINVAL (caller says why) otherwise. */
int parse_seconds(const char *s, double max, double *out);
/* A decimal count in [1, max]; -EINVAL otherwise. */
int parse_count(const char *s, unsigned long max, unsigned long *out);

#endif
