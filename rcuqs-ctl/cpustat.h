/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-CPU time from /proc/stat and RCU softirqs from /proc/softirqs: what
 * recommend reads on a stock kernel, which has no /sys/kernel/rcu_qs; and
 * one CPU's interrupts and softirqs, what measure counts.
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

#define INTERRUPTS_FILE "/proc/interrupts"
#define SOFTIRQS_FILE "/proc/softirqs"

/*
 * What one CPU took, its column of /proc/interrupts (every row summed,
 * and the RES, CAL and LOC rows: rescheduling and function-call IPIs,
 * local timer interrupts) and of /proc/softirqs (every row, and RCU's).
 */
struct cpu_irqs {
	unsigned long long irqs, res, cal, loc;
	unsigned long long softirqs, rcu;
	bool have_irqs, have_softirqs;	/* the file was read and has the column */
};

/*
 * cpu's columns of interrupts and softirqs (INTERRUPTS_FILE and
 * SOFTIRQS_FILE, or the test hook's), paths below the root, read as
 * cpustat_read() reads; a file that is missing or lacks the column reads
 * as missing. 0, or -ENOMEM.
 */
int cpustat_irqs(const struct rcuqs_ctx *ctx, const char *interrupts, const char *softirqs,
		 long cpu, struct cpu_irqs *out);
/* The same from the files' text (changed in place; NULL: not read). */
int cpustat_irqs_parse(char *interrupts, char *softirqs, long cpu, struct cpu_irqs *out);

#endif
