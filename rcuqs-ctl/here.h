/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which settings of a profile act on the running kernel: a runtime
 * parameter acts where the kernel has its file below /sys/module; of a
 * line of alternatives, the first the kernel has acts and the others do
 * not; a boot-only parameter always goes to the boot form.
 */
#ifndef RCUQS_HERE_H
#define RCUQS_HERE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output.h"
#include "profile.h"
#include "rcuqs.h"

/* Set p->set[i].here for every setting of p. */
void profile_here(const struct rcuqs_ctx *ctx, struct profile *p);
/*
 * Every line the running kernel can act on none of, said on stderr
 * naming file, line and the parameters it lacks: -ENODEV, else 0.
 */
int profile_require_here(const struct profile *p);
/*
 * The settings of the line of setting i, in their order in it: their
 * indices into tunables[] in idx (room for N_TUNABLES); their count.
 */
size_t profile_line_of(const struct profile *p, size_t i, size_t idx[]);
/*
 * For people: one line per alternative not taken here ("NAME=VALUE: not
 * in the running kernel; NAME=VALUE acts instead (FILE:LINE)"), and with
 * missing, one per line of which the kernel has nothing ("A=x || B=y:
 * none of these is in the running kernel: ..."), each after prefix.
 */
void here_print(const struct rcuqs_ctx *ctx, const struct profile *p, const char *prefix,
		bool missing, FILE *out);
/*
 * The same for --json, lines the kernel has nothing of included:
 * "not_here": [{"name", "value", "in_kernel", "instead" (null when none
 * acts), "file", "line"}].
 */
void here_json(const struct rcuqs_ctx *ctx, const struct profile *p, struct json *j);

#endif
