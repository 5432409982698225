/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the cmd-*.c files. */
#ifndef RCUQS_CMD_H
#define RCUQS_CMD_H

#include "rcuqs.h"

/*
 * argv[0] is the command. Checks that *argc-1 operands are within [min,max]
 * and none before a "--" looks like an option; the "--" is removed from
 * argv. On error prints why and returns -EINVAL.
 */
int cmd_args(int *argc, char **argv, int min, int max);

/*
 * A getopt_long() error c of command cmd, after a scan with a leading ':'
 * in its option string, or with c 0 an operand at optind where none is
 * taken: said; returns EXIT_USAGE.
 */
int cmd_opt_error(const char *cmd, int c, char **argv);

/* The profile recorded active, or the one named; message on failure. */
int active_name(const struct rcuqs_ctx *ctx, char *name, size_t len);

/* Commands in files of their own, beside the ones rcuqs.h declares. */
extern const struct command cmd_watch, cmd_recommend, cmd_measure;

#endif
