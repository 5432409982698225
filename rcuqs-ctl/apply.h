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
#include "util.h"

struct change {
	const struct tunable *t;
	const char *value;	/* validated */
	char old[VALUE_MAX];	/* read before writing, restored on failure */
	char now[VALUE_MAX];	/* read back after writing: what the kernel took */
	bool written;
	bool have_old;	/* old already read (changes_read()) */
	bool restore;	/* value is the one before rcuqs's first write */
};

/*
 * Read the current value of every change into old, so that it can be
 * recorded before anything is written; message on failure. apply_changes()
 * reads those not read yet itself.
 */
int changes_read(const struct rcuqs_ctx *ctx, struct change *c, size_t n);

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
 * How many of the changes have (or, before apply_changes(), would have)
 * the kernel hold another value than old: what "changed" counts.
 */
size_t changes_count(const struct change *c, size_t n);

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

/*
 * The value each runtime parameter had before rcuqs first wrote it, so
 * that switching profiles and 'off' can put back what a profile no longer
 * sets: comment lines, then "NAME=VALUE" lines, in /etc/rcuqs (kept across
 * reboots and package removal, gone with 'off' and purge).
 */
#define ORIGINAL_FILE "/etc/rcuqs/original"
/*
 * The record into orig[i] for tunables[i] ("" for none); a missing record
 * is an empty one. -EINVAL (said why) for an unsafe or invalid record.
 */
int original_read(const struct rcuqs_ctx *ctx, char orig[N_TUNABLES][VALUE_MAX]);
/*
 * Append to c (room for N_TUNABLES) a change back to orig for every
 * recorded runtime parameter that c does not set; returns the new count.
 * Those the running kernel lacks (recorded under another kernel: 6.1's
 * limit on 7.3, 7.3's jiffies_till_nohz_qs on 6.1) have nothing to
 * restore there: they go to gone (room for N_TUNABLES), their count to
 * *ngone, and stay in the record for the kernel that has them.
 */
size_t changes_add_restores(const struct rcuqs_ctx *ctx, struct change *c, size_t n,
			    char orig[N_TUNABLES][VALUE_MAX], const struct tunable **gone,
			    size_t *ngone);
/* "NAME: not in the running kernel, nothing to restore", one a line. */
void gone_print(const struct tunable *const *gone, size_t ngone, FILE *out);
/* The same for --json: "not_in_kernel": [NAME, ...]. */
void gone_json(const struct tunable *const *gone, size_t ngone, struct json *j);
/*
 * Prepare the record with the old value of every change to a parameter
 * not recorded yet (changes_read() first). Nothing prepared (pf->prepared
 * false) when there is nothing to add.
 */
int original_prepare(const struct rcuqs_ctx *ctx, char orig[N_TUNABLES][VALUE_MAX],
		     const struct change *c, size_t n, struct pending_file *pf);

/*
 * The runtime settings of a profile as changes, but alternatives not
 * taken on this kernel (profile_here()); returns how many.
 */
size_t changes_from_profile(const struct profile *p, struct change c[N_TUNABLES]);

#endif
