/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the unit tests: a scratch fake root, stderr capture, and
 * wrappers of sysfs_write(), sysfs_read() and rename() (linked with
 * -Wl,--wrap=...) that record calls and fail the ones a test asks them to.
 */
#ifndef RCUQS_UNIT_H
#define RCUQS_UNIT_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "rcuqs.h"

static char unit_root[PATH_MAX];
static struct rcuqs_ctx unit_ctx;

/* mkdir -p below the scratch root. */
static inline void unit_mkdirs(const char *rel, mode_t mode)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", unit_root, rel);
	for (char *p = path + strlen(unit_root) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	mkdir(path, mode);
	assert_int_equal(chmod(path, mode), 0);
}

/* Write a file below the root (parents made), with mode. */
static inline void unit_write(const char *rel, mode_t mode, const char *fmt, ...)
{
	char path[PATH_MAX], dir[PATH_MAX];
	va_list ap;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", rel);
	if (strrchr(dir, '/')) {
		*strrchr(dir, '/') = '\0';
		unit_mkdirs(dir, 0755);
	}
	snprintf(path, sizeof(path), "%s/%s", unit_root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static inline char *unit_read(const char *rel)
{
	static char buf[4096];
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", unit_root, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static inline int unit_setup_root(void **state)
{
	(void)state;
	snprintf(unit_root, sizeof(unit_root), "/tmp/rcuqs-unit-XXXXXX");
	assert_non_null(mkdtemp(unit_root));
	unit_ctx.root = unit_root;
	unit_ctx.json = false;
	return 0;
}

static inline int unit_teardown_root(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", unit_root);
	return system(cmd) == 0 ? 0 : -1;
}

/* stderr into a file while a call runs, then into a buffer. */
static char unit_err[8192];
static int unit_saved_fd = -1;

static inline void capture_begin(void)
{
	FILE *tmp = tmpfile();

	assert_non_null(tmp);
	fflush(stderr);
	unit_saved_fd = dup(2);
	dup2(fileno(tmp), 2);
	fclose(tmp);	/* fd 2 keeps the file open */
}

static inline const char *capture_end(void)
{
	ssize_t n;

	fflush(stderr);
	lseek(2, 0, SEEK_SET);
	n = read(2, unit_err, sizeof(unit_err) - 1);
	unit_err[n > 0 ? n : 0] = '\0';
	dup2(unit_saved_fd, 2);
	close(unit_saved_fd);
	return unit_err;
}

#define assert_contains(hay, needle)						\
	do {									\
		if (!strstr((hay), (needle)))					\
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

/* Fault injection for sysfs_write(): the Nth write to rel fails with err. */
struct unit_fault {
	const char *rel;
	int nth;	/* 1 = first write to rel */
	int err;
};
static struct unit_fault unit_faults[4];
static int unit_nfaults;
static char unit_log[16][128];	/* "rel=value" of every write attempted */
static int unit_nlog;

int __real_sysfs_write(const struct rcuqs_ctx *ctx, const char *rel, const char *value);
int __wrap_sysfs_write(const struct rcuqs_ctx *ctx, const char *rel, const char *value);
int __wrap_sysfs_write(const struct rcuqs_ctx *ctx, const char *rel, const char *value)
{
	int seen = 0;

	for (int i = 0; i < unit_nlog; i++)
		if (strncmp(unit_log[i], rel, strlen(rel)) == 0 && unit_log[i][strlen(rel)] == '=')
			seen++;
	if (unit_nlog < 16)
		snprintf(unit_log[unit_nlog++], sizeof(unit_log[0]), "%s=%s", rel, value);
	for (int i = 0; i < unit_nfaults; i++)
		if (strcmp(unit_faults[i].rel, rel) == 0 && unit_faults[i].nth == seen + 1)
			return -unit_faults[i].err;
	return __real_sysfs_write(ctx, rel, value);
}

/*
 * After unit_read_skip reads of unit_read_rel, sysfs_read() of it answers
 * unit_read_value instead of the file (a kernel that clamped a write).
 */
static const char *unit_read_rel, *unit_read_value;
static int unit_read_skip;

int __real_sysfs_read(const struct rcuqs_ctx *ctx, const char *rel, char *buf, size_t len);
int __wrap_sysfs_read(const struct rcuqs_ctx *ctx, const char *rel, char *buf, size_t len);
int __wrap_sysfs_read(const struct rcuqs_ctx *ctx, const char *rel, char *buf, size_t len)
{
	if (unit_read_rel && strcmp(rel, unit_read_rel) == 0 && unit_read_skip-- <= 0) {
		snprintf(buf, len, "%s", unit_read_value);
		return (int)strlen(buf);
	}
	return __real_sysfs_read(ctx, rel, buf, len);
}

/*
 * rename(2) (linked with -Wl,--wrap=rename): the unit_rename_fail-th call
 * fails with EIO, as a file commit that fails after every check passed.
 */
static int unit_rename_fail, unit_nrename;

int __real_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to)
{
	if (++unit_nrename == unit_rename_fail) {
		errno = EIO;
		return -1;
	}
	return __real_rename(from, to);
}

static inline void unit_faults_reset(void)
{
	unit_rename_fail = unit_nrename = 0;
	unit_read_rel = unit_read_value = NULL;
	unit_nfaults = 0;
	unit_nlog = 0;
}

static inline void unit_fault(const char *rel, int nth, int err)
{
	unit_faults[unit_nfaults++] = (struct unit_fault){ rel, nth, err };
}

#endif
