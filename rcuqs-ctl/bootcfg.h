/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_BOOTCFG_H
#define RCUQS_BOOTCFG_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"
#include "rcuqs.h"
#include "util.h"

#define GRUB_DROPIN "/etc/default/grub.d/rcuqs.cfg"
#define KERNEL_CMDLINE "/etc/kernel/cmdline"
#define PROC_CMDLINE "/proc/cmdline"
#define ACTIVE_FILE "/etc/rcuqs/active"
#define CMDLINE_MAX 4096	/* bytes of a command-line file, as the kernel's COMMAND_LINE_SIZE */

/*
 * "name=value ..." for every setting of p, in table order, but those equal
 * to the kernel's own default (tunable.dflt); malloc'd.
 */
char *boot_args(const struct profile *p);

/*
 * The last value of key on a command line into val ("" for a bare key);
 * false when absent.
 */
bool cmdline_value(const char *cmdline, const char *key, char *val, size_t len);
/* The running kernel's command line (malloc'd into *out). */
int proc_cmdline(const struct rcuqs_ctx *ctx, char **out);

/*
 * old (the content of /etc/kernel/cmdline) with args merged in, keeping
 * every byte rcuqs does not own. rcuqs owns, before the first "--" (what
 * follows goes to init and is kept as is), the tokens of a parameter keys
 * names (every one the profile sets, args those of them that go on the
 * command line) and the tokens byte for byte in prev (what it wrote last
 * time). The first token of a parameter of args takes the new value in
 * place; other owned tokens go with the blanks before them; parameters not
 * yet there are inserted after the last token before "--". malloc'd; NULL
 * without memory.
 */
char *cmdline_merge(const char *old, const char *args, const char *keys, const char *prev);

/*
 * Prepare the boot form of profile p: the GRUB drop-in, and
 * /etc/kernel/cmdline when it exists (*have_kcmdline tells). Nothing is
 * visible until pending_commit().
 */
int bootcfg_prepare(const struct rcuqs_ctx *ctx, const struct profile *p,
		    struct pending_file *grub, struct pending_file *kcmd, bool *have_kcmdline);

/* The recorded active profile name; -ENOENT when none is recorded. */
int active_read(const struct rcuqs_ctx *ctx, char *name, size_t len);

#endif
