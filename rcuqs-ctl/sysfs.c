// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading and writing sysfs attributes below the root. A kernel parameter
 * takes a whole value in one write(2) and answers with an errno when it
 * refuses it; the value is written without a newline so every parser in
 * the kernel accepts it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"
#include "util.h"

static int sysfs_path(const struct rcuqs_ctx *ctx, const char *rel, char *buf, size_t len)
{
	char abs[PATH_MAX];

	if (snprintf(abs, sizeof(abs), "/sys/%s", rel) >= (int)sizeof(abs))
		return -ENAMETOOLONG;
	return root_path(ctx, abs, buf, len);
}

bool sysfs_exists(const struct rcuqs_ctx *ctx, const char *rel)
{
	char path[PATH_MAX];

	return sysfs_path(ctx, rel, path, sizeof(path)) == 0 && access(path, F_OK) == 0;
}

/*
 * sysfs gives an attribute without a store method, such as a module
 * parameter of mode 0444, no write bit, and kernfs refuses to open it for
 * writing, root included: CAP_DAC_OVERRIDE does not help. Root on a fake
 * root is not stopped by a file's mode, so the mode decides here too.
 */
static bool mode_read_only(const struct stat *st)
{
	return S_ISREG(st->st_mode) && !(st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH));
}

bool sysfs_read_only(const struct rcuqs_ctx *ctx, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	/* lstat(): a link or FIFO is not judged here; sysfs_write() refuses it. */
	return sysfs_path(ctx, rel, path, sizeof(path)) == 0 && lstat(path, &st) == 0 &&
	       mode_read_only(&st);
}

int sysfs_read(const struct rcuqs_ctx *ctx, const char *rel, char *buf, size_t len)
{
	char abs[PATH_MAX];

	if (snprintf(abs, sizeof(abs), "/sys/%s", rel) >= (int)sizeof(abs))
		return -ENAMETOOLONG;
	return read_text(ctx, abs, buf, len);
}

int sysfs_write(const struct rcuqs_ctx *ctx, const char *rel, const char *value)
{
	char abs[PATH_MAX];
	size_t len = strlen(value);
	struct stat st;
	ssize_t n;
	int fd, r;

	if (snprintf(abs, sizeof(abs), "/sys/%s", rel) >= (int)sizeof(abs))
		return -ENAMETOOLONG;
	/*
	 * No O_CREAT: a parameter the kernel lacks must not appear. Attributes
	 * are regular files: a link, FIFO or device in their place is refused
	 * rather than followed or waited on. A read-only attribute is refused
	 * as kernfs refuses it, before anything is written. The truncation
	 * matters only to a fake root; sysfs takes each write whole.
	 */
	fault_point();
	fd = open_regular(ctx, abs, O_WRONLY, &st);
	if (fd < 0)
		return fd;
	if (mode_read_only(&st)) {
		close(fd);
		return -EACCES;
	}
	if (ftruncate(fd, 0) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if ((size_t)n != len) {
		close(fd);
		return -EIO;
	}
	if (close(fd) < 0)
		return -errno;
	return 0;
}
