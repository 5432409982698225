// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bootcfg.h"
#include "cmd.h"
#include "util.h"

int cmd_args(int argc, char **argv, int min, int max)
{
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1] != '\0') {
			errmsg("%s: unknown option '%s'", argv[0], argv[i]);
			return -EINVAL;
		}
	}
	if (argc - 1 < min) {
		errmsg("%s: missing argument", argv[0]);
		return -EINVAL;
	}
	if (argc - 1 > max) {
		errmsg("%s: unexpected argument '%s'", argv[0], argv[max + 1]);
		return -EINVAL;
	}
	return 0;
}

int active_name(const struct rcuqs_ctx *ctx, char *name, size_t len)
{
	int r = active_read(ctx, name, len);

	if (r == -ENOENT) {
		errmsg("no active profile recorded in %s (run 'rcuqs-ctl set-profile NAME')",
		       ACTIVE_FILE);
		return r;
	}
	if (r < 0) {
		errmsg("cannot read %s: %s", ACTIVE_FILE, strerror(-r));
		return r;
	}
	if (!valid_name(name)) {
		errmsg("%s: invalid profile name '%s'", ACTIVE_FILE, name);
		return -EINVAL;
	}
	return 0;
}
