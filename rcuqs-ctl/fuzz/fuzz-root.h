/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fake root the libFuzzer harnesses write their inputs to: made once
 * under /tmp (fuzz_root_init()), removed at exit, files put and taken
 * away between runs. Static functions: each harness is one program.
 */
#ifndef RCUQS_FUZZ_ROOT_H
#define RCUQS_FUZZ_ROOT_H

#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rcuqs.h"

static char root[PATH_MAX];
static const struct rcuqs_ctx ctx = { .root = root };

/* rel and its parents below the root. */
static void mkdirs(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	mkdir(path, 0755);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void cleanup(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The root, 0755 under /tmp, removed at exit. */
static void fuzz_root_init(void)
{
	snprintf(root, sizeof(root), "/tmp/rcuqs-fuzz-XXXXXX");
	if (!mkdtemp(root))
		abort();
	atexit(cleanup);
	chmod(root, 0755);
}

/* rel with len bytes of data, times over; NULL data: no file. */
static void put(const char *rel, const uint8_t *data, size_t len, size_t times)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	unlink(path);
	if (!data)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		abort();
	while (times--)
		if (write(fd, data, len) != (ssize_t)len)
			abort();
	close(fd);
}

#endif
