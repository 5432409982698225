/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rcuqs-kernel(8)'s records of its trial boots, in /var/lib/rcuqs/kernel,
 * as status shows them: trial (the release on trial, one line),
 * committed (the last release committed, one line), rejected (one release
 * a line) and last (the last assessment, one line "TIME RELEASE OUTCOME"
 * or "TIME RELEASE OUTCOME: REASON"). They are a shell script's files and
 * read as hostile: through open_trusted() (no link, no FIFO or device,
 * root's and not writable by group or others, on the way there too),
 * bounded, every field checked. What does not parse is a problem said
 * beside the rest, never a failure of the command.
 */
#ifndef RCUQS_KTRIAL_H
#define RCUQS_KTRIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "rcuqs.h"

#define KTRIAL_DIR "/var/lib/rcuqs/kernel"
/* A release as uname(2) gives it: at most 64 bytes (struct utsname's 65, less the NUL). */
#define KTRIAL_RELEASE_MAX 64
/* trial and committed: one release and its newline; more is not such a record. */
#define KTRIAL_ONE_MAX 256
/* rejected and last, whole. */
#define KTRIAL_FILE_MAX 4096
/* The rejected releases kept; more are counted in a problem. */
#define KTRIAL_REJECTED_MAX 32
#define KTRIAL_PROBLEMS_MAX 8
/* A malformed line is quoted in its problem up to this many bytes. */
#define KTRIAL_QUOTED_MAX 64

struct ktrial_last {
	char time[21];		/* "2026-12-06T10:29:37Z" */
	char release[KTRIAL_RELEASE_MAX + 1];
	char outcome[33];	/* "committed", "rejected": a lowercase word */
	char reason[KTRIAL_FILE_MAX];	/* "" when none; as read: escape it to show it */
};

struct ktrial {
	bool present;		/* the directory, or something in its place, is there */
	char trial[KTRIAL_RELEASE_MAX + 1];	/* "": none, or unusable (bad) */
	char committed[KTRIAL_RELEASE_MAX + 1];
	/* There, but refused or malformed as a whole. */
	bool trial_bad, committed_bad, rejected_bad, last_bad;
	char rejected[KTRIAL_REJECTED_MAX][KTRIAL_RELEASE_MAX + 1];
	size_t nrejected;
	bool have_last;
	struct ktrial_last last;
	/* What was refused or malformed, as read: escape them to show them. */
	char problems[KTRIAL_PROBLEMS_MAX][320];
	size_t nproblems, more_problems;
};

/*
 * Whether s is a kernel release as rcuqs-kernel records one: 1 to 64 bytes
 * of letters, digits and ._+~- (Debian's "6.12.95+deb13-amd64", a make
 * kernel-deb build's "6.1.192-rcuqs2"), not starting with '.' or '-'.
 */
bool ktrial_release_ok(const char *s);
/*
 * One line of last, without its newline, into l: 0, or -EINVAL with
 * *why saying what is wrong (a static string).
 */
int ktrial_parse_last(const char *line, struct ktrial_last *l, const char **why);
/*
 * A record's content, len bytes as read (NUL bytes included), into kt;
 * name is the file's: "trial", "committed", "rejected" or "last".
 */
void ktrial_parse(struct ktrial *kt, const char *name, const char *buf, size_t len);
/*
 * The records below ctx's root into kt (zeroed first): kt->present is
 * false, and nothing else set, when there is no KTRIAL_DIR. An unsafe or
 * unreadable file is a problem (open_trusted() says why on stderr too).
 */
void ktrial_read(const struct rcuqs_ctx *ctx, struct ktrial *kt);

#endif
