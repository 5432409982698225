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
	ssize_t n;
	int fd, r;

	if (snprintf(abs, sizeof(abs), "/sys/%s", rel) >= (int)sizeof(abs))
		return -ENAMETOOLONG;
	/*
	 * No O_CREAT: a parameter the kernel lacks must not appear. Attributes
	 * are regular files: a link, FIFO or device in their place is refused
	 * rather than followed or waited on. The truncation matters only to a
	 * fake root; sysfs takes each write whole.
	 */
	fault_point();
	fd = open_regular(ctx, abs, O_WRONLY, NULL);
	if (fd < 0)
		return fd;
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
