/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_PROFILE_H
#define RCUQS_PROFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "rcuqs.h"
#include "tunables.h"

#define PROFILE_DIR_ETC "/etc/rcuqs/profiles"
#define PROFILE_DIR_USR "/usr/lib/rcuqs/profiles"
#define PROFILE_SUFFIX ".profile"
#define PROFILE_MAX_DEPTH 8	/* files in one include chain */
#define VALUE_MAX 64
#define PROFILE_LINE_MAX 1024	/* bytes in one line, newline included */
#define ALT_SEP "||"		/* between the alternatives of a line */

/*
 * Where a setting stands on the running kernel, once here.c has looked
 * (profile_here()); HERE_UNKNOWN until then.
 */
enum here {
	HERE_UNKNOWN,
	HERE_ACTS,	/* written (runtime) or put on the command line (boot) */
	HERE_OTHER,	/* an alternative not taken: an earlier one acts here */
	HERE_MISSING,	/* the kernel lacks it and every alternative of its line */
};

/*
 * A line "KEY=VALUE || KEY=VALUE ..." sets alternatives: the first whose
 * parameter the kernel has acts, the others are not written. Each keeps
 * its file and line; alt is its place in the line, nalt the count (1 for
 * a plain setting).
 */
struct setting {
	char value[VALUE_MAX];	/* "" when the profile does not set it */
	const char *file;	/* points into profile.files[] */
	int line;
	int alt, nalt;
	enum here here;
};

struct profile {
	char *name;
	char *description;	/* later file wins, like settings; NULL if none */
	struct setting set[N_TUNABLES];
	char *files[PROFILE_MAX_DEPTH];	/* root-relative, top file first */
	size_t nfiles;
};

enum profile_where {
	PROFILE_NONE,		/* no such profile */
	PROFILE_USR,		/* shipped */
	PROFILE_ETC,		/* admin's, no shipped one of that name */
	PROFILE_OVERRIDE,	/* admin's, replaces a shipped one */
	PROFILE_MASKED,		/* /etc link to /dev/null */
};

struct profile_entry {
	char name[72];
	enum profile_where where;
	char path[PATH_MAX];	/* root-relative path that wins */
};

/* Where NAME resolves; path gets the winning root-relative file, "" when none does. */
int profile_locate(const struct rcuqs_ctx *ctx, const char *name,
		   enum profile_where *where, char *path, size_t len);

/* 0 for a valid profile name, else -EINVAL with a message saying why. */
int profile_name_check(const char *name);

/*
 * Parse NAME with its includes into p. Every problem is reported on stderr
 * naming file and line; returns -EINVAL for bad input (unknown, masked,
 * unsafe, malformed profile, include loop or depth) or another -errno for
 * I/O errors. p is always safe to profile_free().
 */
int profile_load(const struct rcuqs_ctx *ctx, const char *name, struct profile *p);
void profile_free(struct profile *p);

/* All profile names in both directories, sorted; caller frees *out. */
int profile_list(const struct rcuqs_ctx *ctx, struct profile_entry **out, size_t *n);

#endif
