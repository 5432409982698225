/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_SYSFS_H
#define RCUQS_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

#include "rcuqs.h"

/*
 * The only code that touches files under <root>/sys. Paths are relative to
 * /sys, e.g. "module/rcutree/parameters/cond_resched_qs_limit".
 */
bool sysfs_exists(const struct rcuqs_ctx *ctx, const char *rel);
/* Value without the trailing newline; length or -errno. */
int sysfs_read(const struct rcuqs_ctx *ctx, const char *rel, char *buf, size_t len);
/* One write(2) of value; 0 or the kernel's -errno. */
int sysfs_write(const struct rcuqs_ctx *ctx, const char *rel, const char *value);

#endif
