/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_LOCK_H
#define RCUQS_LOCK_H

#include "rcuqs.h"

#define LOCK_FILE "/run/rcuqs.lock"

/*
 * Take the lock that serializes writing invocations: flock(2) on
 * <root>/run/rcuqs.lock. When another invocation holds it, say so on
 * stderr and wait. Returns the fd to pass to lock_release(), or -errno.
 */
int lock_take(const struct rcuqs_ctx *ctx);
void lock_release(int fd);

#endif
