/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure --compare: the settings compared on an rcuqs kernel, switched at
 * runtime through apply.c's write path under the lock, and every parameter
 * any of them touches put back afterwards. Runtime parameters only: the
 * active profile, /etc, the boot form and the log are left alone.
 */
#ifndef RCUQS_COMPARE_H
#define RCUQS_COMPARE_H

#include <stddef.h>

#include "apply.h"
#include "profile.h"
#include "rcuqs.h"
#include "tunables.h"

/* The shipped default, the shipped latency, default plus jiffies_till_sched_qs=1. */
enum compare_setting { SET_DEFAULT, SET_LATENCY, SET_JTSQ1, N_SETTINGS };
extern const char *const compare_setting_names[N_SETTINGS];

struct compare {
	struct profile prof[2];		/* default, latency: their values back the changes */
	struct change c[N_SETTINGS][N_TUNABLES];
	size_t n[N_SETTINGS];
	struct change snap[N_TUNABLES];	/* every parameter any setting writes; old: before */
	size_t nsnap;
	int lock;
};

/*
 * The settings' changes, checked on the running kernel: an rcuqs kernel
 * with every parameter they write there and writable. Nothing is written
 * or locked. 0, or -errno (said): -ENODEV for a kernel that cannot take
 * them, the profile's error otherwise.
 */
int compare_prepare(const struct rcuqs_ctx *ctx, struct compare *cmp);

/*
 * Take the lock (waiting as set-profile does), catch SIGINT, SIGTERM and
 * SIGHUP (measure_stop), and read every parameter any setting writes.
 */
int compare_begin(const struct rcuqs_ctx *ctx, struct compare *cmp);

/* Write setting s, all or nothing (apply_changes()). */
int compare_apply(const struct rcuqs_ctx *ctx, struct compare *cmp, enum compare_setting s);

/*
 * Put back every parameter that differs from its value before, then read
 * each one back: 0, or -ENOTRECOVERABLE naming every one that is not.
 */
int compare_restore(const struct rcuqs_ctx *ctx, struct compare *cmp);

/* Release the lock, default signal handling back, the profiles freed. */
void compare_end(struct compare *cmp);

#endif
