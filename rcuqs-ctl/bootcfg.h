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
 * follows goes to init and is kept as is), only the tokens byte for byte
 * in prev (what it wrote last time): the first of them that sets a key of
 * args takes the new value in place, the others go with the blanks before
 * them. The administrator's own tokens stay even for a key args sets: the
 * parameters of args not placed yet go after the last token before "--",
 * so that theirs is the last value and the one the kernel takes. malloc'd;
 * NULL without memory.
 */
char *cmdline_merge(const char *old, const char *args, const char *prev);

/*
 * Prepare the boot form of profile p: the GRUB drop-in, and
 * /etc/kernel/cmdline when it exists (*have_kcmdline tells). Nothing is
 * visible until pending_commit().
 */
int bootcfg_prepare(const struct rcuqs_ctx *ctx, const struct profile *p,
		    struct pending_file *grub, struct pending_file *kcmd, bool *have_kcmdline);

/*
 * Prepare the boot form's removal ('off'): the GRUB drop-in goes, and
 * rcuqs's own tokens leave /etc/kernel/cmdline (every other byte stays).
 */
int bootcfg_prepare_off(const struct rcuqs_ctx *ctx, struct pending_file *grub,
			struct pending_file *kcmd, bool *have_kcmdline);

/* The recorded active profile name; -ENOENT when none is recorded. */
int active_read(const struct rcuqs_ctx *ctx, char *name, size_t len);

#endif
