/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_BOOTCFG_H
#define RCUQS_BOOTCFG_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"
#include "rcuqs.h"
#include "util.h"

#define GRUB_DROPIN "/etc/default/grub.d/rcuqs.cfg"
#define GRUB_CFG "/boot/grub/grub.cfg"	/* what update-grub writes */
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
 * The value the kernel takes for key from a command line, as it reads one:
 * tokens split at the kernel's isspace() (0xa0 included), the last token
 * for key before "--" (what follows goes to init), '-' and '_' alike in
 * the name, quotes taken off; "" for a bare key. False when absent. The
 * one tokenizer of every reader of /proc/cmdline and /etc/kernel/cmdline.
 */
bool cmdline_value(const char *cmdline, const char *key, char *val, size_t len);
/*
 * Every value of key, in the order the kernel reads them (as
 * cmdline_value(), which gives only the last): *pos starts at the command
 * line; each call puts the next value into val and moves *pos past it.
 * False when none is left.
 */
bool cmdline_next_value(const char **pos, const char *key, char *val, size_t len);
/* The running kernel's command line (malloc'd into *out). */
int proc_cmdline(const struct rcuqs_ctx *ctx, char **out);

/*
 * The tokens rcuqs put in /etc/kernel/cmdline: "tokens=..." (one space
 * apart), and while a rewrite is under way "next=..." and "next-sum=LEN
 * SUM", the tokens of the new content and its length and FNV-1a sum, so
 * that a crash on either side of the rewrite leaves a record of which are
 * rcuqs's. Without it (an older rcuqs), the GRUB drop-in says.
 */
#define KCMDLINE_RECORD "/etc/rcuqs/cmdline"
#define KCMDLINE_RECORD_HEAD \
	"# Written by rcuqs-ctl: its own parameters in /etc/kernel/cmdline; a switch\n" \
	"# and 'off' take out only those. Do not edit.\n"

/*
 * old (the content of /etc/kernel/cmdline) without own, rcuqs's tokens:
 * the last token before "--" byte for byte each of own goes, with the
 * blanks before it on its line, or at the start of old with one space
 * after it, so that the result is old before cmdline_append() byte for
 * byte. An administrator's token with the same bytes as one of own,
 * before it, stays. malloc'd; NULL without memory.
 */
char *cmdline_strip(const char *old, const char *own);
/*
 * old with args after its last parameter before "--" (and before a last
 * one whose quote never closes, lest it swallow them), one space before
 * them; with no parameter, args then a space (none before a newline or
 * the end) at the start. The kernel takes the last value of a parameter,
 * so args win over the administrator's own tokens. malloc'd.
 */
char *cmdline_append(const char *old, const char *args);
/* cmdline_append(cmdline_strip(old, prev), args). */
char *cmdline_merge(const char *old, const char *args, const char *prev);

/* The boot form being written: what is prepared, and the record. */
struct bootcfg {
	struct pending_file grub, kcmd;
	struct pending_file rec;	/* KCMDLINE_RECORD, before and after */
	char *final;		/* the tokens to record once all is committed */
	bool have_kcmdline;	/* /etc/kernel/cmdline exists */
	bool skipped;		/* 'off': not a regular file, left alone */
	bool grub_same;		/* the drop-in has this content already: left alone */
	bool kcmd_changed;	/* /etc/kernel/cmdline gets a new content */
};

/*
 * Prepare the boot form of profile p: the GRUB drop-in (unless it holds
 * that already: b->grub_same), and /etc/kernel/cmdline when it exists. Nothing is visible until
 * bootcfg_record(), then pending_commit() of kcmd before grub, then
 * bootcfg_finish(); bootcfg_abort() undoes it until then.
 */
int bootcfg_prepare(const struct rcuqs_ctx *ctx, const struct profile *p, struct bootcfg *b);
/*
 * Prepare the boot form's removal ('off'): the GRUB drop-in goes, and
 * rcuqs's own tokens leave /etc/kernel/cmdline (every other byte stays).
 */
int bootcfg_prepare_off(const struct rcuqs_ctx *ctx, struct bootcfg *b);
/* Commit the record of the tokens before and after: first of all. */
int bootcfg_record(struct bootcfg *b);
/* After the commits: record only the new tokens (none after 'off'). */
void bootcfg_finish(const struct rcuqs_ctx *ctx, struct bootcfg *b);
void bootcfg_abort(struct bootcfg *b);

/*
 * Whether update-grub is due for the drop-in as it is: GRUB_CFG exists
 * and is older than the drop-in (update-grub was not run since the drop-in
 * last changed). False without either file.
 */
bool grub_cfg_stale(const struct rcuqs_ctx *ctx);

/* The recorded active profile name; -ENOENT when none is recorded. */
int active_read(const struct rcuqs_ctx *ctx, char *name, size_t len);

#endif
