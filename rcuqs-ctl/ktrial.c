// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rcuqs-kernel(8)'s trial records, read for status: ktrial.h. The parser
 * (ktrial_parse(), ktrial_parse_last()) takes bytes and touches no file,
 * for the unit tests; ktrial_read() opens the files as rcuqs's own records
 * are opened, through open_trusted().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrial.h"
#include "util.h"

#define RELEASE_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+~-"

/* A problem, printf-style; past KTRIAL_PROBLEMS_MAX only counted. */
static void __attribute__((format(printf, 2, 3)))
problem(struct ktrial *kt, const char *fmt, ...)
{
	va_list ap;

	if (kt->nproblems >= KTRIAL_PROBLEMS_MAX) {
		kt->more_problems++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(kt->problems[kt->nproblems++], sizeof(kt->problems[0]), fmt, ap);
	va_end(ap);
}

/* The record called name is there but cannot be used as a whole. */
static void set_bad(struct ktrial *kt, const char *name)
{
	if (!strcmp(name, "trial"))
		kt->trial_bad = true;
	else if (!strcmp(name, "committed"))
		kt->committed_bad = true;
	else if (!strcmp(name, "rejected"))
		kt->rejected_bad = true;
	else
		kt->last_bad = true;
}

bool ktrial_release_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > KTRIAL_RELEASE_MAX || s[0] == '.' || s[0] == '-')
		return false;
	return strspn(s, RELEASE_CHARS) == n;
}

int ktrial_parse_last(const char *line, struct ktrial_last *l, const char **why)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";	/* date -u +%Y-%m-%dT%H:%M:%SZ */
	const char *p = line, *sp, *rest;
	size_t n;

	memset(l, 0, sizeof(*l));
	/* Checked byte by byte: a shorter line stops at its NUL, never past it. */
	for (size_t i = 0; i < sizeof(shape) - 1; i++) {
		if (shape[i] == 'd' ? !(p[i] >= '0' && p[i] <= '9') : p[i] != shape[i]) {
			*why = "no time (YYYY-MM-DDTHH:MM:SSZ) first";
			return -EINVAL;
		}
	}
	if (p[sizeof(shape) - 1] != ' ') {
		*why = "no release after the time";
		return -EINVAL;
	}
	memcpy(l->time, p, sizeof(shape) - 1);
	p += sizeof(shape);
	sp = strchr(p, ' ');
	n = sp ? (size_t)(sp - p) : strlen(p);
	if (!sp || n == 0 || n > KTRIAL_RELEASE_MAX) {
		*why = !sp ? "no outcome after the release" : "no kernel release after the time";
		goto bad;
	}
	memcpy(l->release, p, n);
	l->release[n] = '\0';
	if (!ktrial_release_ok(l->release)) {
		*why = "no kernel release after the time";
		goto bad;
	}
	rest = sp + 1;
	n = strspn(rest, "abcdefghijklmnopqrstuvwxyz");
	if (n == 0 || n >= sizeof(l->outcome)) {
		*why = "no outcome (a lowercase word) after the release";
		goto bad;
	}
	memcpy(l->outcome, rest, n);
	rest += n;
	if (rest[0] == '\0')
		return 0;
	/* rcuqs-kernel's "OUTCOME: REASON", the reason never empty. */
	if (rest[0] != ':' || rest[1] != ' ' || rest[2] == '\0') {
		*why = "not ': REASON' after the outcome";
		goto bad;
	}
	rest += 2;
	if (strlen(rest) >= sizeof(l->reason)) {
		*why = "an over-long reason";
		goto bad;
	}
	strcpy(l->reason, rest);
	return 0;
bad:
	memset(l, 0, sizeof(*l));
	return -EINVAL;
}

/* "path: line N: what: 'LINE'", LINE (n bytes, no NUL) cut at KTRIAL_QUOTED_MAX. */
static void bad_line(struct ktrial *kt, const char *name, size_t lineno, const char *what,
		     const char *line, size_t n)
{
	problem(kt, KTRIAL_DIR "/%s: line %zu: %s: '%.*s%s'", name, lineno, what,
		(int)(n > KTRIAL_QUOTED_MAX ? KTRIAL_QUOTED_MAX : n), line,
		n > KTRIAL_QUOTED_MAX ? "..." : "");
}

void ktrial_parse(struct ktrial *kt, const char *name, const char *buf, size_t len)
{
	bool one = !strcmp(name, "trial") || !strcmp(name, "committed");
	bool last = !strcmp(name, "last");
	char *value = !strcmp(name, "trial") ? kt->trial : kt->committed;
	const char *p = buf, *end = buf + len;
	size_t lineno = 0, extra = 0;

	if (memchr(buf, '\0', len)) {
		problem(kt, KTRIAL_DIR "/%s: a NUL byte: not a text record", name);
		set_bad(kt, name);
		return;
	}
	/* A last line without its newline counts too; nothing after a final one. */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *start = p;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[KTRIAL_FILE_MAX];
		const char *why = NULL;

		lineno++;
		p = nl ? nl + 1 : end;
		if ((one || last) && lineno > 1) {
			/* rcuqs-kernel reads the first line only: so does status. */
			bad_line(kt, name, lineno, "more than the one line of this record",
				 start, n);
			break;
		}
		if (n >= sizeof(line)) {
			bad_line(kt, name, lineno, "an over-long line", start, n);
			if (one || last)
				set_bad(kt, name);
			continue;
		}
		memcpy(line, start, n);
		line[n] = '\0';
		if (last) {
			if (ktrial_parse_last(line, &kt->last, &why) == 0) {
				kt->have_last = true;
			} else {
				bad_line(kt, name, lineno, why, line, n);
				kt->last_bad = true;
			}
			continue;
		}
		if (!ktrial_release_ok(line)) {
			bad_line(kt, name, lineno, n > KTRIAL_RELEASE_MAX ?
				 "not a kernel release (over 64 bytes)" : "not a kernel release",
				 line, n);
			if (one)
				set_bad(kt, name);
			continue;
		}
		if (one)
			strcpy(value, line);
		else if (kt->nrejected < KTRIAL_REJECTED_MAX)
			strcpy(kt->rejected[kt->nrejected++], line);
		else
			extra++;
	}
	if (extra)
		problem(kt, KTRIAL_DIR "/%s: %zu more release%s not shown (the first %d are)",
			name, extra, extra == 1 ? "" : "s", KTRIAL_REJECTED_MAX);
}

/*
 * Why rel could not be opened (r), for its problem. A refusal is
 * open_trusted()'s decision, said on stderr; what the path is now only
 * names it here.
 */
static const char *not_read(const struct rcuqs_ctx *ctx, const char *rel, bool dir, int r)
{
	char path[PATH_MAX];
	struct stat st;

	if (r != -EINVAL)
		return errstr(r);
	if (root_path(ctx, rel, path, sizeof(path)) < 0 || lstat(path, &st) < 0)
		return "refused";
	if (S_ISLNK(st.st_mode))
		return "refused: a symbolic link";
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return dir ? "refused: not a directory" : "refused: not a regular file";
	if (st.st_uid != 0)
		return "refused: not owned by root";
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return "refused: writable by group or others";
	return "refused: a directory on the way is unsafe";
}

/* One record, at most cap bytes, into kt. */
static void read_record(const struct rcuqs_ctx *ctx, struct ktrial *kt, const char *name,
			size_t cap)
{
	char rel[64], buf[KTRIAL_FILE_MAX + 1];
	size_t len = 0;
	int fd, r = 0;

	snprintf(rel, sizeof(rel), KTRIAL_DIR "/%s", name);
	fd = open_trusted(ctx, rel, "record");
	if (fd == -ENOENT)
		return;
	if (fd < 0) {
		problem(kt, "%s: not read: %s", rel, not_read(ctx, rel, false, fd));
		set_bad(kt, name);
		return;
	}
	/* One byte past cap tells a record too long for its kind. */
	while (len < cap + 1) {
		ssize_t got = read(fd, buf + len, cap + 1 - len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			r = -errno;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (r < 0 || len > cap) {
		if (r < 0)
			problem(kt, "%s: not read: %s", rel, errstr(r));
		else
			problem(kt, "%s: not read: over %zu bytes, more than such a record holds",
				rel, cap);
		set_bad(kt, name);
		return;
	}
	ktrial_parse(kt, name, buf, len);
}

void ktrial_read(const struct rcuqs_ctx *ctx, struct ktrial *kt)
{
	static const struct {
		const char *name;
		size_t cap;
	} records[] = {
		{ "trial", KTRIAL_ONE_MAX },
		{ "committed", KTRIAL_ONE_MAX },
		{ "rejected", KTRIAL_FILE_MAX },
		{ "last", KTRIAL_FILE_MAX },
	};
	char path[PATH_MAX];
	struct stat st;
	int dfd;

	memset(kt, 0, sizeof(*kt));
	/*
	 * Nothing there, nothing said: whatever the root is (one not safe
	 * for records included), a machine without rcuqs-kernel's records
	 * shows nothing of them.
	 */
	if (root_path(ctx, KTRIAL_DIR, path, sizeof(path)) < 0 ||
	    (lstat(path, &st) < 0 && (errno == ENOENT || errno == ENOTDIR)))
		return;
	kt->present = true;
	dfd = open_trusted_dir(ctx, KTRIAL_DIR, "record");
	if (dfd == -ENOENT)
		kt->present = false;	/* gone meanwhile */
	if (dfd < 0) {
		if (kt->present) {
			problem(kt, KTRIAL_DIR ": not read: %s",
				not_read(ctx, KTRIAL_DIR, true, dfd));
			kt->trial_bad = kt->committed_bad = kt->rejected_bad = kt->last_bad = true;
		}
		return;
	}
	close(dfd);
	for (size_t i = 0; i < sizeof(records) / sizeof(records[0]); i++)
		read_record(ctx, kt, records[i].name, records[i].cap);
}
