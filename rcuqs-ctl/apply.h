/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_APPLY_H
#define RCUQS_APPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output.h"
#include "profile.h"
#include "rcuqs.h"
#include "tunables.h"

struct change {
	const struct tunable *t;
	const char *value;	/* validated */
	char old[VALUE_MAX];	/* read before writing, restored on failure */
	char now[VALUE_MAX];	/* read back after writing: what the kernel took */
	bool written;
};

/*
 * Write every change, all or nothing: current values are read first, then
 * written in an order that keeps the kernel's relations (a larger stall
 * timeout goes first, a smaller one last); if a write fails, everything
 * already written is restored.
 * Returns 0; -EIO when a write failed and all was restored (the error names
 * the parameter, value and the kernel's answer); -ENOTRECOVERABLE when a
 * restore failed too; another -errno when reading failed (nothing written).
 */
int apply_changes(const struct rcuqs_ctx *ctx, struct change *c, size_t n);
/*
 * "NAME: OLD -> NEW" (or "NAME: VALUE (unchanged)") for each change, and
 * what the kernel made of a value it adjusted (clamped) instead of taking.
 */
void changes_print(const struct change *c, size_t n, FILE *out);
/* The same as "changes": [{"name", "old", "new", "asked"}, ...] for --json. */
void changes_json(const struct change *c, size_t n, struct json *j);

/*
 * Undo a successful apply_changes() (a later step failed): write the old
 * values back. Returns 0 or -ENOTRECOVERABLE, naming what stayed changed.
 */
int apply_undo(const struct rcuqs_ctx *ctx, struct change *c, size_t n);

/*
 * What the kernel made of a value it adjusted instead of taking (it clamps
 * the FQS delays to HZ), recorded by set-profile and apply so that verify
 * and status do not call a cleanly applied profile drifted: one line
 * "NAME ASKED GOT" each, in /run (gone at reboot, when apply runs again).
 */
#define ADJUSTED_FILE "/run/rcuqs.adjusted"
/* Record the adjusted values of c (the file goes when there is none). */
int adjusted_record(const struct rcuqs_ctx *ctx, const struct change *c, size_t n);
/* Whether the kernel, asked for want for t, was recorded storing got. */
bool adjusted_match(const struct rcuqs_ctx *ctx, const struct tunable *t, const char *want,
		    const char *got);

/* The runtime settings of a profile as changes; returns how many. */
size_t changes_from_profile(const struct profile *p, struct change c[N_TUNABLES]);

#endif
