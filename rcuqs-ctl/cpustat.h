/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-CPU time from /proc/stat and RCU softirqs from /proc/softirqs: what
 * recommend reads on a stock kernel, which has no /sys/kernel/rcu_qs.
 */
#ifndef RCUQS_CPUSTAT_H
#define RCUQS_CPUSTAT_H

#include <stdbool.h>

#include "rcuqs.h"

/* CPUs 0 to 8191, the range of rcu_nocbs and nohz_full lists rcuqs takes. */
#define CPUSTAT_CPUS 8192

struct cpu_times {
	unsigned long long system;	/* ticks in the kernel, not irq or softirq */
	unsigned long long total;	/* user to steal: every tick the CPU had */
	unsigned long long rcu;		/* RCU softirqs */
	bool have_time, have_rcu;
};

struct cpustat {
	struct cpu_times *cpu;		/* CPUSTAT_CPUS entries, by CPU number */
	unsigned long long rcu_all;	/* RCU softirqs on every CPU */
	bool have_rcu_all;
};

/*
 * Read stat (required: -errno, not said) and softirqs (optional: what it lacks
 * reads as missing), both paths below the root, as every file is read:
 * bounded, a regular file only, nothing trusted. Free with cpustat_free().
 */
int cpustat_read(const struct rcuqs_ctx *ctx, const char *stat, const char *softirqs,
		 struct cpustat *out);
void cpustat_free(struct cpustat *c);

#endif
