/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rcuqs-ctl: shared context, exit codes and the subcommand interface.
 */
#ifndef RCUQS_H
#define RCUQS_H

#include <stdbool.h>

#ifndef RCUQS_VERSION
#define RCUQS_VERSION "0.3"
#endif

/*
 * Exit status, as documented in rcuqs-ctl(8). Small numbers, clear of
 * sysexits.h's 64..78 (64 is EX_USAGE) and of the shell's 126 and up.
 */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* a write failed (restored), I/O error */
	EXIT_USAGE = 2,		/* usage or invalid input, bad/unsafe profile */
	EXIT_NOKERNEL = 3,	/* running kernel lacks the rcuqs patches */
	EXIT_PERM = 4,		/* a non-root user tried to write */
	EXIT_DRIFT = 5,		/* verify: running state differs */
	EXIT_PARTIAL = 6,	/* rollback failed: system left partly changed */
};

/* The one context: options and the root everything is relative to. */
struct rcuqs_ctx {
	const char *root;	/* "" for the real system, else a directory */
	bool json;
	/*
	 * set-profile --check: pending_prepare() checks and writes nothing
	 * (no temporary, no directory, no leftover removed).
	 */
	bool dry_run;
};

struct command {
	const char *name;
	int (*fn)(struct rcuqs_ctx *ctx, int argc, char **argv);
	const char *args;	/* argument synopsis, "" if none */
	const char *help;
	/*
	 * The command's own options that take a value, as separate words
	 * ("-o --output"): global options after the command are looked for
	 * everywhere but in their values. NULL if none.
	 */
	const char *valued;
};

extern const struct command cmd_list, cmd_show, cmd_status, cmd_set_profile,
	cmd_apply, cmd_verify, cmd_set, cmd_off, cmd_boot_args, cmd_params, cmd_active;
extern const struct command cmd_export;

/* Map a helper's -errno to an exit status (rcuqs-ctl.c). */
int exit_status(int r);
/* Print "Try 'rcuqs-ctl --help'..." after a usage error; returns EXIT_USAGE. */
int usage_error(void);

/* Checks shared by commands (rcuqs-ctl.c). */
int require_root(const char *what);	/* -EACCES with a message if euid != 0 */
int require_rcuqs_kernel(const struct rcuqs_ctx *ctx);	/* -ENODEV + message */

#endif
