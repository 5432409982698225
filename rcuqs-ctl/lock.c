// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lock.h"
#include "util.h"

int lock_take(const struct rcuqs_ctx *ctx)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, r;

	r = root_path(ctx, LOCK_FILE, path, sizeof(path));
	if (r < 0)
		return r;
	/* Never a link, and never a FIFO that would block the open. */
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0600);
	if (fd < 0) {
		r = errno == ENXIO ? -E_NOTREG : -errno;
		errmsg("cannot open lock %s: %s", LOCK_FILE, errstr(r));
		return r;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		errmsg("cannot open lock %s: %s", LOCK_FILE, errstr(-E_NOTREG));
		close(fd);
		return -E_NOTREG;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	if (errno == ENOSYS) {
		/* Refuse rather than run unserialized; Debian's kernels have it. */
		errmsg("cannot lock %s: the kernel has no file locking (CONFIG_FILE_LOCKING is off)",
		       LOCK_FILE);
		close(fd);
		return -ENOSYS;
	}
	if (errno != EWOULDBLOCK) {
		r = -errno;
		goto fail;
	}
	errmsg("waiting for %s: another rcuqs-ctl is running", LOCK_FILE);
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			r = -errno;
			goto fail;
		}
	}
	return fd;
fail:
	errmsg("cannot lock %s: %s", LOCK_FILE, errstr(r));
	close(fd);
	return r;
}

void lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
