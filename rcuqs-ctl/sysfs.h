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
/*
 * Whether rel is a parameter the kernel shows but takes no write to: a
 * regular file without any write bit (a 0444 module parameter, such as
 * jiffies_till_sched_qs on a kernel without the rcuqs patches).
 * sysfs_write() refuses one with -EACCES, as kernfs does even for root.
 */
bool sysfs_read_only(const struct rcuqs_ctx *ctx, const char *rel);
/* Value without the trailing newline; length or -errno. */
int sysfs_read(const struct rcuqs_ctx *ctx, const char *rel, char *buf, size_t len);
/* One write(2) of value; 0 or the kernel's -errno. */
int sysfs_write(const struct rcuqs_ctx *ctx, const char *rel, const char *value);

#endif
