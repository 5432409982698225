// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Commands that write kernel state: set-profile, apply, set. Each one
 * validates everything, then takes the lock, then writes all or nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "bootcfg.h"
#include "cmd.h"
#include "drift.h"
#include "here.h"
#include "kernel.h"
#include "lock.h"
#include "log.h"
#include "profile.h"
#include "sysfs.h"
#include "util.h"

/* Root, kernel support and the lock, in that order; returns the lock fd. */
static int prepare_write(const struct rcuqs_ctx *ctx, const char *what)
{
	int r;

	if ((r = require_root(what)) < 0)
		return r;
	if ((r = require_rcuqs_kernel(ctx)) < 0)
		return r;
	return lock_take(ctx);
}

/*
 * Commit the prepared files in order. When one fails, revert those already
 * committed and write the kernel's old values back: -EIO, or
 * -ENOTRECOVERABLE when something could not be put back.
 */
static int commit_files(const struct rcuqs_ctx *ctx, struct pending_file **pf, size_t npf,
			struct change *c, size_t n)
{
	size_t i;
	int r = 0;

	for (i = 0; i < npf; i++) {
		r = pending_commit(pf[i]);
		if (r < 0)
			break;
	}
	if (i == npf) {
		for (i = 0; i < npf; i++)
			pending_done(pf[i]);
		return 0;
	}
	errmsg("cannot write %s: %s", pf[i]->path + strlen(ctx->root), errstr(r));
	r = -EIO;
	while (i-- > 0) {
		int rr = pending_revert(pf[i]);

		if (rr < 0) {
			errmsg("cannot restore %s: %s", pf[i]->path + strlen(ctx->root), errstr(rr));
			r = -ENOTRECOVERABLE;
		}
	}
	if (apply_undo(ctx, c, n) < 0)
		return -ENOTRECOVERABLE;	/* it said so */
	if (r == -EIO)
		errmsg("nothing was changed: every parameter and file already written was restored");
	else
		errmsg("rollback failed: the system was left partly changed");
	return r;
}

/*
 * Before the first write of a parameter, record the value it had (see
 * ORIGINAL_FILE): read the current values, then commit the record. Undone
 * by forget_originals() when the writes fail.
 */
static int record_originals(const struct rcuqs_ctx *ctx, char orig[N_TUNABLES][VALUE_MAX],
			    struct change *c, size_t n, struct pending_file *pf)
{
	int r;

	memset(pf, 0, sizeof(*pf));
	if ((r = changes_read(ctx, c, n)) < 0)
		return r;
	r = original_prepare(ctx, orig, c, n, pf);
	if (r == 0 && (r = pending_commit(pf)) < 0)
		pending_abort(pf);
	if (r < 0)
		errmsg("cannot write %s: %s; nothing was changed", ORIGINAL_FILE, errstr(r));
	return r;
}

static void forget_originals(struct pending_file *pf)
{
	int r = pending_revert(pf);

	if (r < 0)
		errmsg("warning: cannot restore %s: %s", ORIGINAL_FILE, errstr(r));
}

/* Only verify needs the record: a failure to write it is a warning. */
static void record_adjusted(const struct rcuqs_ctx *ctx, const struct change *c, size_t n)
{
	int r = adjusted_record(ctx, c, n);

	if (r < 0)
		errmsg("warning: cannot record the kernel's adjusted values in %s: %s",
		       ADJUSTED_FILE, errstr(r));
}

/*
 * A limit written on a kernel whose cond_resched() does nothing acts only
 * through the lock variants: say so on stderr; the write stands.
 */
static void warn_limit(const struct rcuqs_ctx *ctx, const struct change *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!c[i].restore && strcmp(c[i].t->name, "rcutree.cond_resched_qs_limit") == 0)
			kernel_warn_limit(ctx, c[i].value);
}

/* The record and the boot form in set-profile's JSON, with what is due. */
static void boot_form_json(const struct bootcfg *b, bool grub, struct json *j)
{
	json_str(j, "recorded", ACTIVE_FILE);
	json_open(j, "boot_files", '[');
	json_str(j, NULL, GRUB_DROPIN);
	if (b->have_kcmdline)
		json_str(j, NULL, KERNEL_CMDLINE);
	json_close(j, ']');
	json_bool(j, "update_grub", grub);
	json_bool(j, "kernel_install", b->kcmd_changed);
}

/* Whether the boot form was (--check: would be) rewritten, for people. */
static void boot_form_print(const struct rcuqs_ctx *ctx, const struct bootcfg *b)
{
	if (b->grub_same && !b->kcmd_changed)
		printf("boot form unchanged in %s%s\n", GRUB_DROPIN,
		       b->have_kcmdline ? " and " KERNEL_CMDLINE : "");
	else
		printf("boot form %s %s%s\n", ctx->dry_run ? "would be written to" : "written to",
		       GRUB_DROPIN, b->have_kcmdline ? " and " KERNEL_CMDLINE : "");
}

/* What the boot form needs next: update-grub, kernel-install. */
static void boot_form_due(bool grub, bool kinstall)
{
	if (grub)
		printf("run 'update-grub' to update the boot configuration\n");
	if (kinstall)
		printf("%s takes effect when kernel-install next writes the boot entries\n",
		       KERNEL_CMDLINE);
}

/*
 * What set-profile did, for people or (--json) for programs, and what is
 * due: update-grub when the drop-in changed or GRUB's configuration is
 * older than it, kernel-install when /etc/kernel/cmdline changed, a
 * reboot for each boot-only setting the running kernel's command line
 * lacks. Setting the active profile again leaves the boot form alone,
 * and then nothing is due. changed: whether anything changed (--check:
 * would change), for configuration management.
 */
static void report_set_profile(const struct rcuqs_ctx *ctx, const struct profile *p,
			       const struct change *c, size_t n,
			       const struct tunable *const *gone, size_t ngone,
			       const struct bootcfg *b, bool changed)
{
	struct json j = { .f = stdout };
	bool reboot = false, grub = !b->grub_same || grub_cfg_stale(ctx);
	bool kinstall = b->kcmd_changed;
	char *cmdline = NULL;

	proc_cmdline(ctx, &cmdline);	/* without it every boot-only setting needs a reboot */
	if (ctx->json) {
		json_open(&j, NULL, '{');
		json_str(&j, "profile", p->name);
		json_bool(&j, "check", ctx->dry_run);
		json_bool(&j, "changed", changed);
		changes_json(c, n, &j);
		gone_json(gone, ngone, &j);
		here_json(ctx, p, &j);
		boot_form_json(b, grub, &j);
		json_open(&j, "needs_reboot", '[');
	} else {
		changes_print(c, n, stdout);
		gone_print(gone, ngone, stdout);
		here_print(ctx, p, "", false, stdout);
		if (ctx->dry_run)
			printf("check: profile '%s' %s; nothing was written\n", p->name,
			       changed ? "would change the above" : "is in force, nothing would change");
		else
			printf("profile '%s' applied and recorded in %s\n", p->name, ACTIVE_FILE);
		boot_form_print(ctx, b);
	}
	for (size_t i = 0; i < N_TUNABLES; i++) {
		char arg[160], val[RUNNING_MAX];
		bool have;

		if (!p->set[i].value[0] || tunable_runtime(&tunables[i]))
			continue;
		have = running_value(ctx, i, cmdline, val, sizeof(val));
		if (!tunable_drifts(ctx, i, p->set[i].value, have, val))
			continue;	/* booted with it */
		snprintf(arg, sizeof(arg), "%s=%s", tunables[i].name, p->set[i].value);
		if (ctx->json)
			json_str(&j, NULL, arg);
		else
			printf("%s %s", reboot ? "" : "needs a reboot:", arg);
		reboot = true;
	}
	free(cmdline);
	if (ctx->json) {
		json_close(&j, ']');
		json_close(&j, '}');
		json_end(&j);
		return;
	}
	if (reboot)
		printf("\n");
	boot_form_due(grub, kinstall);
	if (!grub && !kinstall && !reboot)
		printf("nothing is due: no update-grub, no reboot\n");
}

/*
 * The changes of apply and set; with the profile applied (apply), the
 * recorded parameters the kernel lacks and what is not here.
 */
static void report_changes(const struct rcuqs_ctx *ctx, const struct profile *p,
			   const struct change *c, size_t n,
			   const struct tunable *const *gone, size_t ngone)
{
	struct json j = { .f = stdout };

	if (!ctx->json) {
		changes_print(c, n, stdout);
		if (p) {
			gone_print(gone, ngone, stdout);
			here_print(ctx, p, "", false, stdout);
			printf("profile '%s' applied\n", p->name);
		}
		return;
	}
	json_open(&j, NULL, '{');
	if (p)
		json_str(&j, "profile", p->name);
	json_bool(&j, "changed", changes_count(c, n) > 0);
	changes_json(c, n, &j);
	if (p) {
		gone_json(gone, ngone, &j);
		here_json(ctx, p, &j);
	}
	json_close(&j, '}');
	json_end(&j);
}

/*
 * The changes of profile p with every recorded parameter it does not set
 * put back (set-profile, apply). A recorded parameter the kernel lacks
 * goes to gone, but an alternative of p not taken here: the report says
 * that one (here_print()).
 */
static size_t profile_changes(const struct rcuqs_ctx *ctx, const struct profile *p,
			      char orig[N_TUNABLES][VALUE_MAX], struct change c[N_TUNABLES],
			      const struct tunable **gone, size_t *ngone)
{
	size_t n = changes_from_profile(p, c), k = 0;

	n = changes_add_restores(ctx, c, n, orig, gone, ngone);
	for (size_t i = 0; i < *ngone; i++)
		if (!p->set[gone[i] - tunables].value[0])
			gone[k++] = gone[i];
	*ngone = k;
	return n;
}

/*
 * Whether set-profile changed (or would change) anything: the profile
 * recorded active, a parameter's value in the kernel, or the boot form.
 */
static bool set_profile_changed(const char *from, const struct profile *p,
				const struct change *c, size_t n, const struct bootcfg *b)
{
	return strcmp(from, p->name) != 0 || changes_count(c, n) > 0 || !b->grub_same ||
	       b->kcmd_changed;
}

/*
 * set-profile --check, once the boot form was prepared on paper: what
 * would change, read and reported; 1 when something would, 0 when
 * nothing would, or -errno.
 */
static int check_set_profile(struct rcuqs_ctx *ctx, const struct profile *p, const char *from,
			     const struct bootcfg *b)
{
	char orig[N_TUNABLES][VALUE_MAX];
	struct change c[N_TUNABLES];
	const struct tunable *gone[N_TUNABLES];
	size_t n, ngone;
	bool changed;
	int r;

	if ((r = original_read(ctx, orig)) < 0)
		return r;
	n = profile_changes(ctx, p, orig, c, gone, &ngone);
	if ((r = changes_read(ctx, c, n)) < 0)
		return r;
	/*
	 * A value the kernel adjusted when it was last written (ADJUSTED_FILE:
	 * jiffies_till_first_fqs above HZ is stored as HZ) would be adjusted
	 * the same way again: writing it leaves what reads now, as a real
	 * set-profile and verify find.
	 */
	for (size_t i = 0; i < n; i++)
		if (!c[i].now[0] && strcmp(c[i].old, c[i].value) != 0 &&
		    adjusted_match(ctx, c[i].t, c[i].value, c[i].old))
			snprintf(c[i].now, sizeof(c[i].now), "%s", c[i].old);
	changed = set_profile_changed(from, p, c, n, b);
	report_set_profile(ctx, p, c, n, gone, ngone, b, changed);
	return changed;
}

/*
 * The originals a staged profile needs (see ORIGINAL_FILE): the value of
 * each runtime parameter it sets, read from the running kernel where it
 * has the file (a stock kernel's ULONG_MAX for jiffies_till_sched_qs is
 * its "auto"), else the kernel's own default, since at the next boot the
 * boot form sets them before rcuqs.service could read them. Prepared into
 * pf (nothing when all are recorded already); -errno, said, on failure.
 */
static int stage_originals(const struct rcuqs_ctx *ctx, const struct profile *p,
			   char orig[N_TUNABLES][VALUE_MAX], struct pending_file *pf)
{
	struct change c[N_TUNABLES];
	size_t n = 0;
	int r;

	memset(pf, 0, sizeof(*pf));
	for (size_t i = 0; i < N_TUNABLES; i++) {
		const struct tunable *t = &tunables[i];

		if (!p->set[i].value[0] || !tunable_runtime(t) || orig[i][0])
			continue;
		memset(&c[n], 0, sizeof(c[n]));
		c[n].t = t;
		c[n].value = p->set[i].value;
		if (sysfs_exists(ctx, t->sysfs)) {
			if ((r = changes_read(ctx, &c[n], 1)) < 0)
				return r;
			if (tunable_spelling(t, c[n].old) != c[n].old)	/* "auto" */
				snprintf(c[n].old, sizeof(c[n].old), "%s",
					 tunable_spelling(t, c[n].old));
		} else if (t->dflt) {
			snprintf(c[n].old, sizeof(c[n].old), "%s", t->dflt);
		} else {
			continue;	/* no default known: apply records it */
		}
		n++;
	}
	r = original_prepare(ctx, orig, c, n, pf);
	if (r < 0)
		errmsg("cannot write %s: %s; nothing was changed", ORIGINAL_FILE, errstr(r));
	return r;
}

/* What set-profile --stage did (--check: would do), for people or --json. */
static void report_stage(const struct rcuqs_ctx *ctx, const struct profile *p,
			 const struct bootcfg *b, bool changed)
{
	struct json j = { .f = stdout };
	bool grub = !b->grub_same || grub_cfg_stale(ctx);

	if (ctx->json) {
		json_open(&j, NULL, '{');
		json_str(&j, "profile", p->name);
		json_bool(&j, "check", ctx->dry_run);
		json_bool(&j, "stage", true);
		json_bool(&j, "changed", changed);
		boot_form_json(b, grub, &j);
		json_close(&j, '}');
		json_end(&j);
		return;
	}
	if (ctx->dry_run)
		printf("check: staging profile '%s' %s; nothing was written\n", p->name,
		       changed ? "would change the record or the boot form" :
				 "would change nothing, it is staged");
	else
		printf("profile '%s' staged: recorded in %s, runtime parameters untouched; "
		       "rcuqs.service applies it at the next boot of an rcuqs kernel\n",
		       p->name, ACTIVE_FILE);
	boot_form_print(ctx, b);
	boot_form_due(grub, b->kcmd_changed);
}

/*
 * set-profile --stage: the record and the boot form of profile p, for the
 * next boot of an rcuqs kernel, on any kernel (a stock one too) and
 * without a runtime write; originals first, then the files, all or
 * nothing. 1 when --check finds something to change, else 0 or -errno.
 */
static int stage_profile(struct rcuqs_ctx *ctx, const struct profile *p, const char *from,
			 struct bootcfg *boot, struct pending_file *active)
{
	char orig[N_TUNABLES][VALUE_MAX];
	struct pending_file origf;
	bool changed;
	int r;

	memset(&origf, 0, sizeof(origf));
	if ((r = original_read(ctx, orig)) < 0 || (r = stage_originals(ctx, p, orig, &origf)) < 0)
		return r;
	changed = strcmp(from, p->name) != 0 || !boot->grub_same || boot->kcmd_changed ||
		  origf.prepared;
	if (ctx->dry_run) {
		report_stage(ctx, p, boot, changed);
		return changed;
	}
	if (origf.prepared && (r = pending_commit(&origf)) < 0) {
		errmsg("cannot write %s: %s; nothing was changed", ORIGINAL_FILE, errstr(r));
		pending_abort(&origf);
		return r;
	}
	if ((r = bootcfg_record(boot)) < 0 ||
	    (r = commit_files(ctx, (struct pending_file *[]){ active, &boot->kcmd, &boot->grub },
			      3, NULL, 0)) < 0) {
		forget_originals(&origf);
		return r;
	}
	pending_done(&origf);
	bootcfg_finish(ctx, boot);
	report_stage(ctx, p, boot, changed);
	log_switch(ctx, "set-profile --stage", from, p->name, NULL, 0,
		   !boot->grub_same || boot->kcmd_changed);
	return 0;
}

static int do_set_profile(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	struct pending_file active, origf;
	char orig[N_TUNABLES][VALUE_MAX];
	struct change c[N_TUNABLES];
	const struct tunable *gone[N_TUNABLES];
	struct bootcfg boot;
	struct profile p;
	char *content = NULL, was[80];
	const char *from;
	int fd, r;
	size_t n, ngone;
	bool stage = false;

	memset(&p, 0, sizeof(p));
	memset(&active, 0, sizeof(active));
	memset(&origf, 0, sizeof(origf));
	memset(&boot, 0, sizeof(boot));
	/*
	 * --check, before a "--": a dry run (ctx->dry_run); --stage: the
	 * record and boot form only, for the next boot.
	 */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		bool check = strcmp(argv[i], "--check") == 0;

		if (check || strcmp(argv[i], "--stage") == 0) {
			if (check)
				ctx->dry_run = true;
			else
				stage = true;
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) * sizeof(*argv));
			argc--;
			i--;
		}
	}
	if ((r = cmd_args(&argc, argv, 1, 1)) < 0)
		return usage_error();
	if (profile_name_check(argv[1]) < 0)
		return EXIT_USAGE;
	/* Staging needs no rcuqs kernel: a stock one stages for the next boot. */
	if (stage && (r = require_root("set-profile")) < 0)
		return exit_status(r);
	fd = stage ? lock_take(ctx) : prepare_write(ctx, "set-profile");
	if (fd < 0)
		return exit_status(fd);
	r = profile_load(ctx, argv[1], &p);
	if (r < 0)
		goto out;
	profile_here(ctx, &p);
	if (!stage && (r = profile_require_here(&p)) < 0)
		goto out;
	from = log_profile_name(ctx, was, sizeof(was));
	/* Everything that could fail is written aside first... */
	r = bootcfg_prepare(ctx, &p, &boot);
	if (r < 0)
		goto out;
	if (asprintf(&content, "%s\n", p.name) < 0) {
		content = NULL;
		r = -ENOMEM;
		goto abort;
	}
	r = pending_prepare(ctx, ACTIVE_FILE, content, &active);
	if (r < 0) {
		errmsg("cannot write %s: %s", ACTIVE_FILE, errstr(r));
		goto abort;
	}
	if (stage) {
		r = stage_profile(ctx, &p, from, &boot, &active);
		if (r != 0 || ctx->dry_run)
			goto abort;	/* (--check: nothing was written) */
		goto out;
	}
	if (ctx->dry_run) {
		r = check_set_profile(ctx, &p, from, &boot);
		goto abort;	/* nothing was written: nothing to undo */
	}
	/*
	 * ...then the kernel, all or nothing, with every parameter an earlier
	 * profile or 'set' changed and this one does not set put back...
	 */
	if ((r = original_read(ctx, orig)) < 0)
		goto abort;
	n = profile_changes(ctx, &p, orig, c, gone, &ngone);
	if ((r = record_originals(ctx, orig, c, n, &origf)) < 0 ||
	    (r = bootcfg_record(&boot)) < 0)
		goto abort;
	r = apply_changes(ctx, c, n);
	if (r < 0)
		goto abort;
	/*
	 * ...then the files, by rename; one failing undoes everything.
	 * /etc/kernel/cmdline before the drop-in, which an older rcuqs's
	 * tokens are known by.
	 */
	r = commit_files(ctx, (struct pending_file *[]){ &active, &boot.kcmd, &boot.grub }, 3,
			 c, n);
	if (r < 0)
		goto abort;
	pending_done(&origf);
	bootcfg_finish(ctx, &boot);
	record_adjusted(ctx, c, n);
	report_set_profile(ctx, &p, c, n, gone, ngone, &boot,
			   set_profile_changed(from, &p, c, n, &boot));
	warn_limit(ctx, c, n);
	/* A boot form rewritten is a change too, parameters or not. */
	log_switch(ctx, "set-profile", from, p.name, c, n, !boot.grub_same || boot.kcmd_changed);
	goto out;
abort:
	forget_originals(&origf);
	pending_abort(&active);
	bootcfg_abort(&boot);
out:
	free(content);
	profile_free(&p);
	lock_release(fd);
	/* --check: 5 when something would change, as verify's drift. */
	return r > 0 ? EXIT_DRIFT : exit_status(r);
}

static int do_apply(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	char orig[N_TUNABLES][VALUE_MAX];
	struct pending_file origf;
	struct change c[N_TUNABLES];
	const struct tunable *gone[N_TUNABLES];
	char name[80];
	struct profile p;
	int fd, r;
	size_t n, ngone;

	memset(&p, 0, sizeof(p));
	if ((r = cmd_args(&argc, argv, 0, 0)) < 0)
		return usage_error();
	fd = prepare_write(ctx, "apply");
	if (fd < 0)
		return exit_status(fd);
	r = active_name(ctx, name, sizeof(name));
	if (r < 0) {
		if (r == -ENOENT)
			r = -EIO;	/* nothing to apply: a failure, not bad input */
		goto out;
	}
	r = profile_load(ctx, name, &p);
	if (r < 0)
		goto out;
	profile_here(ctx, &p);
	if ((r = profile_require_here(&p)) < 0)
		goto out;
	/*
	 * At boot: what set-profile left, restores included. The profile may
	 * have been edited or upgraded since: what it now changes first is
	 * recorded, as by set-profile.
	 */
	if ((r = original_read(ctx, orig)) < 0)
		goto out;
	n = profile_changes(ctx, &p, orig, c, gone, &ngone);
	if ((r = record_originals(ctx, orig, c, n, &origf)) < 0)
		goto out;
	r = apply_changes(ctx, c, n);
	if (r == 0) {
		pending_done(&origf);
		record_adjusted(ctx, c, n);
		report_changes(ctx, &p, c, n, gone, ngone);
		warn_limit(ctx, c, n);
		log_switch(ctx, "apply", p.name, p.name, c, n, false);
	} else {
		forget_originals(&origf);
	}
out:
	profile_free(&p);
	lock_release(fd);
	return exit_status(r);
}

static int do_set(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	char orig[N_TUNABLES][VALUE_MAX];
	struct pending_file origf;
	struct change c[N_TUNABLES];
	size_t n = 0;
	int fd, r;

	if ((r = cmd_args(&argc, argv, 1, argc)) < 0)
		return usage_error();
	for (int i = 1; i < argc; i++) {
		const struct tunable *t;
		char *eq = strchr(argv[i], '=');
		size_t len = eq ? (size_t)(eq - argv[i]) : 0;
		char name[80];

		if (!eq) {
			errmsg("set: missing '=' in '%s'", argv[i]);
			return usage_error();
		}
		if (len >= sizeof(name)) {
			errmsg("unknown parameter '%.*s'", (int)len, argv[i]);
			return EXIT_USAGE;
		}
		memcpy(name, argv[i], len);
		name[len] = '\0';
		if (tunable_name_unsafe(name)) {
			errmsg("invalid parameter name '%s'", name);
			return EXIT_USAGE;
		}
		t = tunable_find(name);
		if (!t) {
			errmsg("unknown parameter '%s' (see 'rcuqs-ctl params')", name);
			return EXIT_USAGE;
		}
		if (!tunable_runtime(t)) {
			errmsg("%s is boot-only: put it in a profile and use set-profile", name);
			return EXIT_USAGE;
		}
		if (strlen(eq + 1) >= VALUE_MAX || tunable_check(t, eq + 1) < 0) {
			errmsg("bad value '%s' for %s: expected %s", eq + 1, name, t->range);
			return EXIT_USAGE;
		}
		for (size_t k = 0; k < n; k++) {
			if (c[k].t == t) {
				errmsg("%s given twice", name);
				return EXIT_USAGE;
			}
		}
		memset(&c[n], 0, sizeof(c[n]));
		c[n].t = t;
		c[n].value = eq + 1;
		n++;
	}
	fd = prepare_write(ctx, "set");
	if (fd < 0)
		return exit_status(fd);
	if ((r = original_read(ctx, orig)) < 0 ||
	    (r = record_originals(ctx, orig, c, n, &origf)) < 0)
		goto out;
	r = apply_changes(ctx, c, n);
	if (r == 0) {
		pending_done(&origf);
		report_changes(ctx, NULL, c, n, NULL, 0);
		warn_limit(ctx, c, n);
	} else {
		forget_originals(&origf);
	}
out:
	lock_release(fd);
	return exit_status(r);
}

/* Whether a read-only parameter already has its value before rcuqs. */
static bool same_value(const struct tunable *t, const char *now, const char *orig)
{
	return strcmp(tunable_spelling(t, now), orig) == 0;
}

/* What off did (or, with nothing recorded, that there was nothing to do). */
static void report_off(const struct rcuqs_ctx *ctx, const struct change *c, size_t n,
		       const struct tunable *const *gone, size_t ngone,
		       const struct change *ro, size_t nro,
		       struct pending_file *const *pf, const bool *done, size_t npf)
{
	struct json j = { .f = stdout };
	bool grub = false, reboot = false, any = n || ngone || nro;

	bool files = false;

	for (size_t i = 0; i < npf; i++)
		files |= done[i];
	any |= files;
	if (ctx->json) {
		json_open(&j, NULL, '{');
		json_bool(&j, "changed", files || changes_count(c, n) > 0);
		changes_json(c, n, &j);
		gone_json(gone, ngone, &j);
		json_open(&j, "read_only", '[');
	} else {
		changes_print(c, n, stdout);
		gone_print(gone, ngone, stdout);
	}
	for (size_t i = 0; i < nro; i++) {
		bool same = same_value(ro[i].t, ro[i].old, ro[i].value);

		reboot |= !same;
		if (ctx->json) {
			json_open(&j, NULL, '{');
			json_str(&j, "name", ro[i].t->name);
			json_str(&j, "now", ro[i].old);
			json_str(&j, "original", ro[i].value);
			json_bool(&j, "reboot", !same);
			json_close(&j, '}');
		} else if (same) {
			printf("%s: %s (unchanged; read-only in the running kernel)\n",
			       ro[i].t->name, ro[i].old);
		} else {
			printf("%s: %s, read-only in the running kernel: its value before rcuqs, "
			       "%s, comes back only with a reboot\n", ro[i].t->name, ro[i].old,
			       ro[i].value);
		}
	}
	if (ctx->json) {
		json_close(&j, ']');
		json_open(&j, "files", '[');
	}
	for (size_t i = 0; i < npf; i++) {
		const char *path = pf[i]->path + strlen(ctx->root);

		if (!done[i])
			continue;
		grub |= strcmp(path, GRUB_DROPIN) == 0 || strcmp(path, KERNEL_CMDLINE) == 0;
		if (ctx->json)
			json_str(&j, NULL, path);
		else if (pf[i]->remove)
			printf("removed %s\n", path);
		else
			printf("removed rcuqs's parameters from %s\n", path);
	}
	if (ctx->json) {
		json_close(&j, ']');
		json_bool(&j, "update_grub", grub);
		json_bool(&j, "reboot", reboot);
		json_close(&j, '}');
		json_end(&j);
		return;
	}
	if (!any)
		printf("nothing to undo: rcuqs has no record of a change\n");
	else if (grub)
		printf("run 'update-grub' to update the boot configuration\n");
	if (!reboot)
		return;
	printf("%s: only a reboot restores", grub ? "then reboot" : "reboot");
	for (size_t i = 0; i < nro; i++)
		if (!same_value(ro[i].t, ro[i].old, ro[i].value))
			printf(" %s=%s", ro[i].t->name, ro[i].value);
	printf("\n");
}

/*
 * Undo everything rcuqs did: each recorded parameter back to its value
 * before rcuqs, then the record, the active profile and the boot form go.
 * Runs on any kernel: what it lacks is said and skipped, and so is what it
 * shows read-only (a stock kernel's jiffies_till_sched_qs, which the boot
 * form may have set): only a reboot restores that.
 */
static int do_off(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	struct pending_file active, origf, adj;
	struct bootcfg boot;
	/* The record of the original values last: a crash before leaves it. */
	struct pending_file *pf[] = { &boot.kcmd, &boot.grub, &active, &adj, &origf };
	const char *const gone_abs[] = { ACTIVE_FILE, ORIGINAL_FILE, ADJUSTED_FILE };
	struct pending_file *gone_pf[] = { &active, &origf, &adj };
	const struct tunable *gone[N_TUNABLES];
	char orig[N_TUNABLES][VALUE_MAX];
	struct change c[N_TUNABLES], ro[N_TUNABLES];
	bool done[5];
	size_t n = 0, ngone = 0, nro = 0;
	int fd, r;
	/* The profile it turns off, for the log. */
	char was[80];
	const char *from;

	memset(&boot, 0, sizeof(boot));
	for (size_t i = 0; i < 5; i++)
		memset(pf[i], 0, sizeof(*pf[i]));
	if ((r = cmd_args(&argc, argv, 0, 0)) < 0)
		return usage_error();
	if ((r = require_root("off")) < 0)
		return exit_status(r);
	fd = lock_take(ctx);	/* no rcuqs kernel needed: stock ones have some too */
	if (fd < 0)
		return exit_status(fd);
	if ((r = original_read(ctx, orig)) < 0)
		goto out;
	/*
	 * Every recorded parameter back, but those the running kernel lacks
	 * or shows read-only (their value now is read, to say whether a
	 * reboot is due).
	 */
	for (size_t i = 0, all = changes_add_restores(ctx, c, 0, orig, gone, &ngone); i < all;
	     i++) {
		if (sysfs_read_only(ctx, c[i].t->sysfs))
			ro[nro++] = c[i];
		else
			c[n++] = c[i];
	}
	if ((r = changes_read(ctx, ro, nro)) < 0)
		goto out;
	if ((r = bootcfg_prepare_off(ctx, &boot)) < 0)
		goto out;
	for (size_t i = 0; i < 3; i++) {
		r = pending_prepare(ctx, gone_abs[i], NULL, gone_pf[i]);
		if (r < 0) {
			errmsg("cannot remove %s: %s", gone_abs[i], errstr(r));
			goto abort;
		}
	}
	for (size_t i = 0; i < 5; i++)
		done[i] = pf[i]->prepared;
	from = log_profile_name(ctx, was, sizeof(was));
	if ((r = bootcfg_record(&boot)) < 0)
		goto abort;
	r = apply_changes(ctx, c, n);
	if (r < 0)
		goto abort;
	r = commit_files(ctx, pf, 5, c, n);
	if (r < 0)
		goto abort;
	bootcfg_finish(ctx, &boot);
	record_adjusted(ctx, c, n);
	report_off(ctx, c, n, gone, ngone, ro, nro, pf, done, 5);
	log_switch(ctx, "off", from, "none", c, n, memchr(done, true, sizeof(done)) != NULL);
	goto out;
abort:
	for (size_t i = 2; i < 5; i++)
		pending_abort(pf[i]);
	bootcfg_abort(&boot);
out:
	lock_release(fd);
	return exit_status(r);
}

const struct command cmd_set_profile = {
	"set-profile", do_set_profile, "[--check] [--stage] NAME",
	"apply NAME now, record it active, write its boot form (--check: dry run; "
	"--stage: for the next boot only)",
	NULL,
};
const struct command cmd_apply = {
	"apply", do_apply, "", "apply the recorded active profile (rcuqs.service)", NULL,
};
const struct command cmd_set = {
	"set", do_set, "PARAM=VALUE...", "ad-hoc runtime change, all or nothing", NULL,
};
const struct command cmd_off = {
	"off", do_off, "",
	"undo rcuqs: restore every parameter, remove the record and boot form", NULL,
};
