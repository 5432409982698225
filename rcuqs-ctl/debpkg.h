/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_DEBPKG_H
#define RCUQS_DEBPKG_H

#include <stdbool.h>

#include "kernel.h"
#include "rcuqs.h"

/*
 * What dpkg says of the running kernel's package, from
 * dpkg-query (with --root for a root other than /): the Debian upload a make
 * kernel-deb package was built from (its version is the upload plus the
 * series, "6.1.192-3+rcuqs2"), and the newest Debian kernel of the same
 * baseline installed beside it ("linux-image-6.1.0-29-amd64" at
 * "6.1.195-1"). A newer upload there means the rcuqs kernel lacks its
 * fixes: it is stale until rebuilt (rcuqs(7), Kernel updates).
 */
struct deb_kernel {
	char built_from[64];	/* "" unknown */
	char newest[64];	/* Debian's newest version of the baseline; "" none */
	char newest_pkg[96];
	bool stale;		/* newest is above built_from */
};

/* 0 (d filled, possibly with nothing known) or -errno reading the file. */
int deb_kernel_read(const struct rcuqs_ctx *ctx, const struct kernel_info *k,
		    struct deb_kernel *d);
/* dpkg's order of two version strings: <0, 0, >0 (epoch, upstream, revision). */
int deb_version_cmp(const char *a, const char *b);

#endif
