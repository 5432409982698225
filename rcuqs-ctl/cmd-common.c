// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every command shares: argument checks, the checks before a write,
 * and the one place a -errno becomes an exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootcfg.h"
#include "cmd.h"
#include "sysfs.h"
#include "tunables.h"
#include "util.h"

int usage_error(void)
{
	fputs("Try 'rcuqs-ctl --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

int exit_status(int r)
{
	switch (-r) {
	case 0:
		return EXIT_OK;
	case EINVAL:
		return EXIT_USAGE;
	case ENODEV:
		return EXIT_NOKERNEL;
	case EACCES:
	case EPERM:
		/* Only a user who is not root is told "not root". */
		return geteuid() == 0 ? EXIT_FAIL : EXIT_PERM;
	case ENOTRECOVERABLE:
		return EXIT_PARTIAL;
	default:
		return EXIT_FAIL;
	}
}

/*
 * Writing commands need root. The check is on the effective uid, before
 * the lock and before anything is read, whatever --root points at: an
 * unprivileged user gets one clear line, not a half-done attempt.
 */
int require_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	errmsg("permission denied: '%s' writes kernel parameters and needs root", what);
	return -EACCES;
}

int require_rcuqs_kernel(const struct rcuqs_ctx *ctx)
{
	if (sysfs_exists(ctx, RCUQS_MARKER))
		return 0;
	errmsg("the running kernel lacks the rcuqs patches (no /sys/%s)", RCUQS_MARKER);
	return -ENODEV;
}

int cmd_args(int *argc, char **argv, int min, int max)
{
	for (int i = 1; i < *argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			/* The rest are operands, whatever they look like. */
			memmove(&argv[i], &argv[i + 1], (size_t)(*argc - i) * sizeof(*argv));
			(*argc)--;
			break;
		}
		if (argv[i][0] == '-' && argv[i][1] != '\0') {
			errmsg("%s: unknown option '%s'", argv[0], argv[i]);
			return -EINVAL;
		}
	}
	if (*argc - 1 < min) {
		errmsg("%s: missing argument", argv[0]);
		return -EINVAL;
	}
	if (*argc - 1 > max) {
		errmsg("%s: unexpected argument '%s'", argv[0], argv[max + 1]);
		return -EINVAL;
	}
	return 0;
}

int cmd_opt_error(const char *cmd, int c, char **argv)
{
	if (c == 0)
		errmsg("%s: unexpected argument '%s'", cmd, argv[optind]);
	else if (c == ':')
		errmsg("%s: option '%s' needs an argument", cmd, argv[optind - 1]);
	else
		errmsg("%s: unknown option '%s'", cmd, argv[optind - 1]);
	return usage_error();
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
		errmsg("cannot read %s: %s", ACTIVE_FILE, errstr(r));
		return r;
	}
	if (!valid_name(name)) {
		char q[QUOTE_BUF];

		errmsg("%s: invalid profile name '%s'", ACTIVE_FILE, quote(name, q));
		return -EINVAL;
	}
	return 0;
}
