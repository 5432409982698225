/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running state against the active profile: what status, verify and watch show. */
#ifndef RCUQS_DRIFT_H
#define RCUQS_DRIFT_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"
#include "tunables.h"

/*
 * A running value's buffer: a boot-only value may be as long as the
 * command line (CMDLINE_MAX), and it is compared whole, never cut to a
 * profile's VALUE_MAX.
 */
#define RUNNING_MAX 4096
/*
 * The running value of tunable i: sysfs for runtime ones, the kernel
 * command line for boot-only ones, into val of RUNNING_MAX bytes. Returns
 * true when there is one.
 */
bool running_value(const struct rcuqs_ctx *ctx, size_t i, const char *cmdline, char *val,
		   size_t len);
/*
 * What tunable i should be: the profile's value (an alternative not taken
 * here is none: profile_here() first), or for a runtime
 * parameter it does not set that rcuqs changed before, the value it had
 * then (set-profile put it back), where the running kernel has it. NULL
 * when rcuqs does not manage it here.
 */
const char *expected_value(const struct rcuqs_ctx *ctx, const struct profile *p,
			   char orig[N_TUNABLES][VALUE_MAX], size_t i);
/* Whether tunable i differs from what it should be (want NULL: never). */
bool tunable_drifts(const struct rcuqs_ctx *ctx, size_t i, const char *want, bool have,
		    const char *val);

/*
 * The active profile's name into name ("" when none is recorded) and how
 * many parameters drifted from it into *ndrift. 0, or -errno when the
 * record, the profile or the recorded originals cannot be read (name
 * still set when the record could be).
 */
int active_drift(const struct rcuqs_ctx *ctx, char *name, size_t len, size_t *ndrift);

#endif
