/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_LOG_H
#define RCUQS_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "apply.h"
#include "bootcfg.h"
#include "rcuqs.h"

/*
 * Tests only: on a fake root (--root other than /), a switch is never
 * logged to this machine's syslog; with RCUQS_TEST_LOG=FILE its line,
 * "rcuqs-ctl: " first, is appended to FILE (not below the root) instead.
 */
#define LOG_TEST_ENV "RCUQS_TEST_LOG"

/*
 * The profile recorded active, for the log: the name, quoted when it is
 * not a valid one, or "none". buf holds it.
 */
const char *log_profile_name(const struct rcuqs_ctx *ctx, char *buf, size_t len);

/*
 * After a successful set-profile, apply or off (cmd): one line to syslog
 * (LOG_USER, LOG_NOTICE, ident "rcuqs-ctl"),
 * "profile FROM -> TO (CMD, N parameters changed)", N counting the changes
 * of c whose value the kernel now holds differs from the old one. Nothing
 * when nothing changed: FROM is TO, no parameter changed and other (files
 * changed) is false.
 */
void log_switch(const struct rcuqs_ctx *ctx, const char *cmd, const char *from, const char *to,
		const struct change *c, size_t n, bool other);

#endif
