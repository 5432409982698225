// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small helpers: messages, root-relative paths, small text files, atomic
 * file replacement.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

void errmsg(const char *fmt, ...)
{
	va_list ap;

	fputs(PROGRAM ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int root_path(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s", ctx->root, abs);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

void rstrip(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' ||
			 s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

int read_text(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t got = 0;
	int fd, r;

	r = root_path(ctx, abs, path, sizeof(path));
	if (r < 0)
		return r;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < len - 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return r;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got == len - 1) {
		char extra;
		ssize_t n = read(fd, &extra, 1);

		/* More than fits: refuse rather than act on a truncated file. */
		if (n > 0 && extra != '\0') {
			close(fd);
			return -EFBIG;
		}
	}
	close(fd);
	buf[got] = '\0';
	rstrip(buf);
	return (int)strlen(buf);
}

bool valid_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 64 || name[0] == '.')
		return false;
	for (const char *p = name; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return false;
	}
	return true;
}

static int make_parents(struct pending_file *pf)
{
	char dir[PATH_MAX];
	char *todo[8];
	int ntodo = 0;

	strcpy(dir, pf->path);
	/* Walk up until an existing directory, remembering what is missing. */
	for (;;) {
		char *slash = strrchr(dir, '/');
		struct stat st;

		if (!slash || slash == dir)
			break;
		*slash = '\0';
		if (stat(dir, &st) == 0) {
			if (!S_ISDIR(st.st_mode))
				return -ENOTDIR;
			break;
		}
		if (errno != ENOENT)
			return -errno;
		if (ntodo == (int)(sizeof(todo) / sizeof(todo[0])) ||
		    pf->nmade + ntodo >= (int)(sizeof(pf->made) / sizeof(pf->made[0])))
			return -ENOENT;
		todo[ntodo++] = slash;
	}
	/* Create them outermost first. */
	strcpy(dir, pf->path);
	for (int i = 0; i < ntodo; i++)
		*todo[i] = '\0';
	for (int i = ntodo - 1; i >= 0; i--) {
		if (mkdir(dir, 0755) < 0)
			return -errno;
		strcpy(pf->made[pf->nmade++], dir);
		*todo[i] = '/';
	}
	return 0;
}

int pending_prepare(const struct rcuqs_ctx *ctx, const char *abs, const char *content,
		    struct pending_file *pf)
{
	size_t len = strlen(content), done = 0;
	int fd, r;

	memset(pf, 0, sizeof(*pf));
	r = root_path(ctx, abs, pf->path, sizeof(pf->path));
	if (r < 0)
		return r;
	if (snprintf(pf->tmp, sizeof(pf->tmp), "%s.rcuqs-new", pf->path) >= (int)sizeof(pf->tmp))
		return -ENAMETOOLONG;
	r = make_parents(pf);
	if (r < 0)
		goto fail;
	unlink(pf->tmp);	/* a leftover from a crash; we hold the lock */
	fd = open(pf->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		r = -errno;
		goto fail;
	}
	while (done < len) {
		ssize_t n = write(fd, content + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			unlink(pf->tmp);
			goto fail;
		}
		done += (size_t)n;
	}
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0) {
		r = -errno;
		close(fd);
		unlink(pf->tmp);
		goto fail;
	}
	if (close(fd) < 0) {
		r = -errno;
		unlink(pf->tmp);
		goto fail;
	}
	pf->prepared = true;
	return 0;
fail:
	pending_abort(pf);
	return r;
}

int pending_commit(struct pending_file *pf)
{
	if (!pf->prepared)
		return 0;
	if (rename(pf->tmp, pf->path) < 0)
		return -errno;
	pf->prepared = false;
	pf->nmade = 0;
	return 0;
}

void pending_abort(struct pending_file *pf)
{
	if (pf->prepared)
		unlink(pf->tmp);
	pf->prepared = false;
	while (pf->nmade > 0)
		rmdir(pf->made[--pf->nmade]);
}
