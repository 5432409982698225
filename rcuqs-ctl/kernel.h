/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_KERNEL_H
#define RCUQS_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "rcuqs.h"

/*
 * Which kernel rcuqs-ctl drives: its release, the series baseline
 * (major.minor), whether it has the rcuqs patches, and the preemption
 * model in force with the source that told. Everything is read below the
 * root; nothing is mounted or written.
 */
/* PM_NONVOL: none or voluntary, the build's version string tells no more. */
enum preempt_model { PM_UNKNOWN, PM_NONE, PM_VOLUNTARY, PM_FULL, PM_LAZY, PM_RT, PM_NONVOL };
enum preempt_source { PS_NONE, PS_DEBUGFS, PS_CMDLINE, PS_CONFIG, PS_VERSION };

struct kernel_info {
	char release[65];	/* /proc/sys/kernel/osrelease; "" unknown */
	char baseline[16];	/* "6.1", "6.12"; "" unknown */
	bool rcuqs;		/* RCUQS_MARKER present */
	bool limit;		/* rcutree.cond_resched_qs_limit present (6.1, 6.12) */
	bool nohz_qs;		/* rcutree.jiffies_till_nohz_qs present (7.3) */
	int dynamic;		/* PREEMPT_DYNAMIC: 1, 0, -1 unknown */
	enum preempt_model model;
	enum preempt_source source;
	char config[96];	/* "/boot/config-RELEASE" */
	bool config_read;	/* it was read */
	char refused[64];	/* a preempt= value the kernel ignored, raw */
	/* What a config that contradicts the version string said ("full"): ignored. */
	const char *config_ignored;
	int reports;		/* cond_resched() reports QSs: 1, 0, -1 unknown */
};

void kernel_read(const struct rcuqs_ctx *ctx, struct kernel_info *k);
/*
 * The running release, /proc/sys/kernel/osrelease, when it is one uname -r
 * could give ("6.12.95+bpo-amd64": letters, digits, "._+~-", no "..", up
 * to 64): safe in a path. False, buf "", otherwise.
 */
bool kernel_release(const struct rcuqs_ctx *ctx, char *buf, size_t len);
/* "none", "voluntary", "full", "lazy", "rt", "none or voluntary", "unknown". */
const char *kernel_preempt_name(enum preempt_model m);
/* "debugfs", "cmdline", "config", "version", "none". */
const char *kernel_source_name(enum preempt_source s);
/* Whether cond_resched() reports quiescent states: 1, 0, -1 unknown. */
int kernel_cond_resched_reports(const struct kernel_info *k);
/* Whether RCU is preemptible (PREEMPT_RCU): 1, 0, -1 unknown. */
int kernel_preemptible_rcu(const struct kernel_info *k);
/* The file the model came from ("/proc/cmdline"); "" none. */
const char *kernel_source_file(const struct kernel_info *k);
/* "6.12.95, rcuqs series for 6.12, preemption voluntary (...)" */
void kernel_describe(const struct kernel_info *k, char *buf, size_t len);
/* Which knobs act on this kernel, one sentence. */
const char *kernel_acts(const struct kernel_info *k);
/*
 * After a write of cond_resched_qs_limit=value (NULL: none): a warning on
 * stderr when the value is not 0 and cond_resched() does nothing on the
 * running kernel.
 */
void kernel_warn_limit(const struct rcuqs_ctx *ctx, const char *value);
/*
 * Whether no shipped profile can shorten grace periods here: an rcuqs
 * kernel with cond_resched_qs_limit (6.1, 6.12) whose cond_resched() does
 * nothing (full or RT preemption), so the limit cannot act on a loop.
 */
bool kernel_limit_idle(const struct kernel_info *k);
/*
 * What does act there instead, with make bench's figures, one clause:
 * "rcutree.jiffies_till_sched_qs=1 does (...)".
 */
extern const char kernel_limit_instead[];
/* Its figures alone: "measured on 6.1 under preempt=full, ...". */
extern const char kernel_limit_figures[];

#define NOHZ_FULL "devices/system/cpu/nohz_full"	/* below /sys */
/*
 * The nohz_full CPUs, as the kernel lists them, malloc'd into *list: ""
 * when there are none (no file: a kernel without NO_HZ_FULL; "(null)" or
 * empty: none booted). 0, or -errno when the file is there but cannot be
 * read (said), or -ENOMEM.
 */
int kernel_nohz_full(const struct rcuqs_ctx *ctx, char **list);

#endif
