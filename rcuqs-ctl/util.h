/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_UTIL_H
#define RCUQS_UTIL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "rcuqs.h"

#define PROGRAM "rcuqs-ctl"

void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "<root><abs>" into buf; -ENAMETOOLONG if it does not fit. */
int root_path(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len);

/*
 * Read a small text file below the root into buf (NUL-terminated), cut at
 * the first NUL byte and strip trailing whitespace. Returns length or -errno
 * (-EFBIG when the file does not fit).
 */
int read_text(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len);
/* Strip trailing whitespace in place. */
void rstrip(char *s);

/* Profile and other names a user may give: [A-Za-z0-9_.-], no leading '.'. */
bool valid_name(const char *name);

/*
 * A file replaced atomically: prepared (written to a temporary name beside
 * it, creating missing parent directories), then committed (renamed) or
 * aborted (temporary and created directories removed).
 */
struct pending_file {
	char path[PATH_MAX];	/* absolute, under the root */
	char tmp[PATH_MAX];
	char made[4][PATH_MAX];	/* directories we created, innermost last */
	int nmade;
	bool prepared;
};
int pending_prepare(const struct rcuqs_ctx *ctx, const char *abs, const char *content,
		    struct pending_file *pf);
int pending_commit(struct pending_file *pf);
void pending_abort(struct pending_file *pf);

#endif
