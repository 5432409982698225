// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Commands that read the running state: status, verify, params.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "bootcfg.h"
#include "cmd.h"
#include "debpkg.h"
#include "drift.h"
#include "here.h"
#include "kernel.h"
#include "kmeta.h"
#include "ktrial.h"
#include "output.h"
#include "profile.h"
#include "sysfs.h"
#include "tunables.h"
#include "util.h"

static const char *const counters[] = {
	"gp_completed", "limit_qs", "urgent_qs", "resched_kicks", "cbs_invoked",
};

/*
 * The counters in /sys/kernel/rcu_qs beside the known ones, by name: a
 * series may add its own (7.3's for jiffies_till_nohz_qs), and what the
 * kernel counts is shown whatever it is called.
 */
static void extra_counters(const struct rcuqs_ctx *ctx, struct json *j, struct table *t)
{
	char dir[PATH_MAX], rel[PATH_MAX], val[32];
	struct dirent **names = NULL;
	int n;

	if (root_path(ctx, "/sys/" RCUQS_MARKER, dir, sizeof(dir)) < 0 ||
	    (n = scandir(dir, &names, NULL, alphasort)) < 0)
		return;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		bool known = name[0] == '.' || !valid_name(name) || strlen(name) > 64;

		for (size_t k = 0; k < sizeof(counters) / sizeof(counters[0]); k++)
			known |= strcmp(name, counters[k]) == 0;
		snprintf(rel, sizeof(rel), RCUQS_MARKER "/%s", name);
		if (!known && sysfs_read(ctx, rel, val, sizeof(val)) >= 0) {
			if (ctx->json)
				json_num(j, name, val);
			else
				table_row(t, name, val);
		}
		free(names[i]);
	}
	free(names);
}

/* The kernel: release, series, preemption model and what acts there. */
static void print_kernel(const struct kernel_info *k, const struct deb_kernel *d)
{
	char line[768];

	kernel_describe(k, line, sizeof(line));
	printf("kernel: %s\n", line);
	printf("what acts: %s\n", kernel_acts(k));
	/* Said only for a make kernel-deb package dpkg knows (its version). */
	if (!d->built_from[0])
		return;
	if (!d->newest[0])
		printf("kernel package: built from Debian %s\n", d->built_from);
	else if (d->stale)
		printf("kernel package: built from Debian %s; %s %s is installed: stale, "
		       "rebuild it (rcuqs(7), Kernel updates)\n", d->built_from, d->newest_pkg,
		       d->newest);
	else
		printf("kernel package: built from Debian %s; current (Debian's newest %s "
		       "kernel here: %s %s)\n", d->built_from, k->baseline, d->newest_pkg,
		       d->newest);
}

static void json_kernel(struct json *j, const struct kernel_info *k, const struct deb_kernel *d)
{
	int reports = kernel_cond_resched_reports(k);

	json_open(j, "kernel", '{');
	json_str(j, "release", k->release[0] ? k->release : NULL);
	json_str(j, "baseline", k->baseline[0] ? k->baseline : NULL);
	json_bool(j, "rcuqs", k->rcuqs);
	json_bool(j, "cond_resched_qs_limit", k->limit);
	json_bool(j, "jiffies_till_nohz_qs", k->nohz_qs);
	json_str(j, "preempt", kernel_preempt_name(k->model));
	json_str(j, "preempt_source", kernel_source_name(k->source));
	if (k->dynamic < 0)
		json_str(j, "preempt_dynamic", NULL);
	else
		json_bool(j, "preempt_dynamic", k->dynamic);
	json_str(j, "preempt_ignored", k->refused[0] ? k->refused : NULL);
	if (reports < 0)
		json_str(j, "cond_resched_reports", NULL);
	else
		json_bool(j, "cond_resched_reports", reports);
	if (d->built_from[0]) {
		json_str(j, "built_from", d->built_from);
		json_str(j, "debian_newest", d->newest[0] ? d->newest : NULL);
		json_bool(j, "stale", d->stale);
	}
	json_close(j, '}');
}

/*
 * rcuqs-kernel(8)'s trial records, where it keeps them: the release on
 * trial, the last committed, the rejected ones, the last assessment, and
 * each record refused or line malformed (said, not fatal). Releases are
 * checked to be plain; a reason and a problem are shown escaped.
 */
static void print_ktrial(const struct ktrial *kt)
{
	char *reason;

	if (!kt->present)
		return;
	printf("kernel on trial: %s\n", kt->trial[0] ? kt->trial :
	       kt->trial_bad ? "unknown" : "none");
	printf("last committed kernel: %s\n", kt->committed[0] ? kt->committed :
	       kt->committed_bad ? "unknown" : "none");
	printf("rejected kernels:");
	for (size_t i = 0; i < kt->nrejected; i++)
		printf(" %s", kt->rejected[i]);
	if (!kt->nrejected)
		printf(" %s", kt->rejected_bad ? "unknown" : "none");
	printf("\n");
	if (kt->have_last) {
		reason = term_text(kt->last.reason);
		printf("last kernel assessment: %s %s %s%s%s\n", kt->last.time, kt->last.release,
		       kt->last.outcome, kt->last.reason[0] ? ": " : "",
		       !kt->last.reason[0] ? "" : reason ? reason : "?");
		free(reason);
	} else {
		printf("last kernel assessment: %s\n", kt->last_bad ? "unknown" : "none");
	}
	for (size_t i = 0; i < kt->nproblems; i++) {
		char *t = term_text(kt->problems[i]);

		printf("kernel trial record: %s\n", t ? t : "?");
		free(t);
	}
	if (kt->more_problems)
		printf("kernel trial record: %zu more problem%s\n", kt->more_problems,
		       kt->more_problems == 1 ? "" : "s");
}

/* The same as "kernel_trial": an object, or null when there are no records. */
static void json_ktrial(struct json *j, const struct ktrial *kt)
{
	char more[64];

	if (!kt->present) {
		json_str(j, "kernel_trial", NULL);
		return;
	}
	json_open(j, "kernel_trial", '{');
	json_str(j, "trial", kt->trial[0] ? kt->trial : NULL);
	json_str(j, "committed", kt->committed[0] ? kt->committed : NULL);
	json_open(j, "rejected", '[');
	for (size_t i = 0; i < kt->nrejected; i++)
		json_str(j, NULL, kt->rejected[i]);
	json_close(j, ']');
	if (kt->have_last) {
		json_open(j, "last", '{');
		json_str(j, "time", kt->last.time);
		json_str(j, "release", kt->last.release);
		json_str(j, "outcome", kt->last.outcome);
		json_str(j, "reason", kt->last.reason[0] ? kt->last.reason : NULL);
		json_close(j, '}');
	} else {
		json_str(j, "last", NULL);
	}
	json_open(j, "problems", '[');
	for (size_t i = 0; i < kt->nproblems; i++)
		json_str(j, NULL, kt->problems[i]);
	if (kt->more_problems) {
		snprintf(more, sizeof(more), "%zu more problem%s", kt->more_problems,
			 kt->more_problems == 1 ? "" : "s");
		json_str(j, NULL, more);
	}
	json_close(j, ']');
	json_close(j, '}');
}

/*
 * The profile's cond_resched_qs_limit when it is in force but cannot act
 * (kernel_limit_idle()); NULL otherwise, and for a limit of 0.
 */
static const char *idle_limit(const struct kernel_info *k, const struct profile *p)
{
	size_t i = tunable_index(tunable_find("rcutree.cond_resched_qs_limit"));
	const char *v = p->set[i].value;

	if (!kernel_limit_idle(k) || !v[0] || p->set[i].here != HERE_ACTS ||
	    strspn(v, "0") == strlen(v))
		return NULL;
	return v;
}

/* What verify and status say of such a limit, after "but ". */
static void print_idle_limit(const struct kernel_info *k, const char *limit)
{
	printf("its rcutree.cond_resched_qs_limit=%s cannot act under preemption %s: "
	       "cond_resched() does nothing, and no shipped profile shortens grace periods "
	       "here; %s\n", limit, kernel_preempt_name(k->model), kernel_limit_instead);
}

static int do_status(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	bool support = sysfs_exists(ctx, RCUQS_MARKER);
	char active[80] = "", in_force[VALUE_MAX], orig[N_TUNABLES][VALUE_MAX];
	struct kernel_info k;
	struct deb_kernel deb;
	struct ktrial kt;
	struct json j = { .f = stdout };
	struct profile p;
	char *cmdline = NULL;
	bool have_profile = false, have_in_force;
	const char *idle = NULL;
	size_t ndrift = 0;
	struct table t;
	int r, last = 0, active_err = 0;

	memset(&p, 0, sizeof(p));
	if ((r = cmd_args(&argc, argv, 0, 0)) < 0)
		return usage_error();
	r = active_read(ctx, active, sizeof(active));
	if (r == 0) {
		r = profile_load(ctx, active, &p);
		if (r < 0)
			last = r;
		else
			have_profile = true;
		profile_here(ctx, &p);
	} else if (r != -ENOENT) {
		/* Not "none": a record that cannot be read is not no record. */
		errmsg("cannot read %s: %s", ACTIVE_FILE, errstr(r));
		last = active_err = r;
	}
	if ((r = original_read(ctx, orig)) < 0)
		last = r;	/* said why; shown without the values it holds */
	proc_cmdline(ctx, &cmdline);	/* without it boot-only values show as unset */
	have_in_force = sysfs_read(ctx, "module/rcutree/parameters/jiffies_to_sched_qs",
				   in_force, sizeof(in_force)) >= 0;
	kernel_read(ctx, &k);
	if (have_profile)
		idle = idle_limit(&k, &p);
	if (k.rcuqs)
		deb_kernel_read(ctx, &k, &deb);	/* unreadable: nothing said */
	else
		memset(&deb, 0, sizeof(deb));
	ktrial_read(ctx, &kt);	/* what cannot be read is shown, never a failure */

	if (ctx->json) {
		json_open(&j, NULL, '{');
		json_bool(&j, "rcuqs_kernel", support);
		json_str(&j, "active_profile", active[0] ? active : NULL);
		json_num(&j, "jiffies_to_sched_qs", have_in_force ? in_force : NULL);
		json_open(&j, "tunables", '[');
	} else if (table_init(&t, 5, "PARAMETER", "WHEN", "RUNNING", "PROFILE", "DRIFT") < 0) {
		free(cmdline);
		profile_free(&p);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < N_TUNABLES; i++) {
		char val[RUNNING_MAX], shown[VALUE_MAX + 16] = "";
		bool have = running_value(ctx, i, cmdline, val, sizeof(val));
		const char *want = expected_value(ctx, have_profile ? &p : NULL, orig, i);
		bool drift = tunable_drifts(ctx, i, want, have, val);
		bool other = have_profile && p.set[i].value[0] && p.set[i].here == HERE_OTHER;
		bool restored = want && !(have_profile && p.set[i].value[0] && !other);

		if (restored)	/* a recorded value: shorter than VALUE_MAX */
			snprintf(shown, sizeof(shown), "%.*s (original)", VALUE_MAX - 1, want);
		else if (other)	/* an alternative not taken: said below the table */
			snprintf(shown, sizeof(shown), "%.*s (not here)", VALUE_MAX - 1,
				 p.set[i].value);

		ndrift += drift;
		if (ctx->json) {
			json_open(&j, NULL, '{');
			json_str(&j, "name", tunables[i].name);
			json_bool(&j, "runtime", tunable_runtime(&tunables[i]));
			json_str(&j, "running", have ? val : NULL);
			json_str(&j, "profile", restored ? NULL : want);
			json_bool(&j, "acts_here", have_profile && p.set[i].value[0] &&
				  p.set[i].here == HERE_ACTS);
			json_str(&j, "original", orig[i][0] ? orig[i] : NULL);
			json_bool(&j, "drift", drift);
			json_close(&j, '}');
		} else {
			table_row(&t, tunables[i].name,
				  tunable_runtime(&tunables[i]) ? "runtime" : "boot",
				  have ? val : (tunable_runtime(&tunables[i]) ? "(missing)" :
						"(unset)"),
				  restored || other ? shown : want, drift ? "*" : "");
		}
	}
	if (ctx->json) {
		json_close(&j, ']');
		json_open(&j, "counters", '{');
	} else {
		printf("rcuqs kernel support: %s\n", support ? "yes" :
		       "no (no /sys/" RCUQS_MARKER ")");
		/* The record and sysfs as read: escaped, as list and show escape. */
		char *name = term_text(active), *jiffies = term_text(in_force);

		print_kernel(&k, &deb);
		print_ktrial(&kt);
		if (active_err)
			printf("active profile: unreadable (%s)\n", errstr(active_err));
		else if (!active[0])
			printf("active profile: none\n");
		else if (!have_profile)
			printf("active profile: %s (invalid)\n", name ? name : "?");
		else if (ndrift)
			printf("active profile: %s (%zu parameter%s drifted)\n", name ? name : "?",
			       ndrift, ndrift == 1 ? "" : "s");
		else
			printf("active profile: %s (no drift%s)\n", name ? name : "?",
			       idle ? ", but its limit cannot act here" : "");
		if (idle) {
			printf("limit: ");
			print_idle_limit(&k, idle);
		}
		if (have_in_force)
			printf("jiffies_to_sched_qs in force: %s\n", jiffies ? jiffies : "?");
		free(name);
		free(jiffies);
		printf("\n");
		table_print(&t, stdout);
		table_free(&t);
		if (have_profile)
			here_print(ctx, &p, "not here: ", true, stdout);
		printf("\n");
		if (table_init(&t, 2, "COUNTER", "VALUE") < 0) {
			free(cmdline);
			profile_free(&p);
			return EXIT_FAIL;
		}
	}
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		char rel[64], val[32];
		bool have;

		snprintf(rel, sizeof(rel), "kernel/rcu_qs/%s", counters[i]);
		have = sysfs_read(ctx, rel, val, sizeof(val)) >= 0;
		if (ctx->json)
			json_num(&j, counters[i], have ? val : NULL);
		else
			table_row(&t, counters[i], have ? val : "(missing)");
	}
	extra_counters(ctx, &j, &t);
	if (ctx->json) {
		json_close(&j, '}');
		if (have_profile)
			here_json(ctx, &p, &j);
		json_bool(&j, "drift", ndrift > 0);
		if (have_profile)
			json_bool(&j, "limit_acts", !idle);
		json_kernel(&j, &k, &deb);
		json_ktrial(&j, &kt);
		json_close(&j, '}');
		json_end(&j);
	} else {
		table_print(&t, stdout);
		table_free(&t);
	}
	free(cmdline);
	profile_free(&p);
	if (!support)
		return EXIT_NOKERNEL;
	return exit_status(last);
}

static int do_verify(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	char active[80], *cmdline = NULL, orig[N_TUNABLES][VALUE_MAX];
	struct json j = { .f = stdout };
	struct kernel_info k;
	struct profile p;
	const char *idle;
	size_t ndiff = 0;
	int r;

	if ((r = cmd_args(&argc, argv, 0, 0)) < 0)
		return usage_error();
	if ((r = require_rcuqs_kernel(ctx)) < 0)
		return exit_status(r);
	if ((r = active_name(ctx, active, sizeof(active))) < 0) {
		if (r != -ENOENT)
			return exit_status(r);
		if (ctx->json) {
			/* No profile to match: an answer for programs too. */
			json_open(&j, NULL, '{');
			json_str(&j, "profile", NULL);
			json_open(&j, "differences", '[');
			json_close(&j, ']');
			json_bool(&j, "match", false);
			json_close(&j, '}');
			json_end(&j);
		}
		return EXIT_DRIFT;
	}
	r = profile_load(ctx, active, &p);
	if (r == 0)
		r = original_read(ctx, orig);
	if (r < 0) {
		profile_free(&p);
		return exit_status(r);
	}
	profile_here(ctx, &p);
	kernel_read(ctx, &k);
	idle = idle_limit(&k, &p);
	r = proc_cmdline(ctx, &cmdline);
	if (r < 0) {
		errmsg("cannot read %s: %s", PROC_CMDLINE, errstr(r));
		profile_free(&p);
		return exit_status(r);
	}
	if (ctx->json) {
		json_open(&j, NULL, '{');
		json_str(&j, "profile", active);
		json_open(&j, "differences", '[');
	}
	for (size_t i = 0; i < N_TUNABLES; i++) {
		const struct tunable *t = &tunables[i];
		const char *want = expected_value(ctx, &p, orig, i);
		char val[RUNNING_MAX], *shown;
		const char *running;
		bool have;

		if (!want)
			continue;
		have = running_value(ctx, i, cmdline, val, sizeof(val));
		/* What the kernel stored for it on set-profile is a match too. */
		if (!tunable_drifts(ctx, i, want, have, val))
			continue;
		ndiff++;
		shown = have ? term_text(val) : NULL;	/* as read: escaped */
		running = !have ? NULL : shown ? shown : "?";
		if (ctx->json) {
			json_open(&j, NULL, '{');
			json_str(&j, "name", t->name);
			json_str(&j, "expected", want);
			json_str(&j, "actual", have ? val : NULL);
			json_str(&j, "source", tunable_runtime(t) ? "sysfs" : "cmdline");
			json_str(&j, "expected_from", p.set[i].value[0] &&
				 p.set[i].here != HERE_OTHER ? "profile" : "original");
			json_bool(&j, "in_kernel", !tunable_runtime(t) || sysfs_exists(ctx, t->sysfs));
			json_close(&j, '}');
		} else if (p.set[i].here == HERE_MISSING) {
			printf("%s: not in the running kernel (no /sys/%s), profile '%s' wants %s "
			       "(%s:%d)%s\n", t->name, t->sysfs, active, want, p.set[i].file,
			       p.set[i].line, p.set[i].nalt > 1 ? "; nor is any alternative on that line" : "");
		} else if (!p.set[i].value[0] || p.set[i].here == HERE_OTHER) {
			printf("%s: running %s, profile '%s' does not set it: rcuqs put back %s, "
			       "its value before rcuqs\n", t->name, running ? running : "(missing)", active,
			       want);
		} else if (tunable_runtime(t)) {
			printf("%s: running %s, profile '%s' wants %s\n", t->name,
			       running ? running : "(missing)", active, want);
		} else {
			printf("%s: %s on %s, profile '%s' wants %s (boot-only: update-grub and reboot)\n",
			       t->name, running ? running : "not set", PROC_CMDLINE, active, want);
		}
		free(shown);
	}
	if (ctx->json) {
		json_close(&j, ']');
		here_json(ctx, &p, &j);
		json_bool(&j, "match", ndiff == 0);
		json_bool(&j, "limit_acts", !idle);
		json_close(&j, '}');
		json_end(&j);
	} else {
		if (ndiff == 0)
			printf("running state matches profile '%s'\n", active);
		/* A match, and exit 0: but the profile cannot do what it is for. */
		if (idle) {
			printf("but ");
			print_idle_limit(&k, idle);
		}
		/* Lines the kernel has none of are differences, said above. */
		here_print(ctx, &p, "not here: ", false, stdout);
	}
	free(cmdline);
	profile_free(&p);
	return ndiff ? EXIT_DRIFT : EXIT_OK;
}

static int do_params(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	struct json j = { .f = stdout };
	struct kmeta *km = NULL;
	char *cmdline = NULL;
	struct table t;
	int r;

	if ((r = cmd_args(&argc, argv, 0, 0)) < 0)
		return usage_error();
	if ((r = kmeta_open(ctx, &km)) < 0)
		return exit_status(r);
	proc_cmdline(ctx, &cmdline);
	if (ctx->json)
		json_open(&j, NULL, '[');
	else if (table_init(&t, 6, "PARAMETER", "WHEN", "TYPE", "RANGE", "VALUE",
			    "DESCRIPTION") < 0)
		goto out;
	for (size_t i = 0; i < N_TUNABLES; i++) {
		const struct tunable *tu = &tunables[i];
		const char *desc = kmeta_description(km, tu);
		const char *ktype = kmeta_type(km, tu);
		char val[RUNNING_MAX], type[64];
		bool have = running_value(ctx, i, cmdline, val, sizeof(val));

		if (ctx->json) {
			json_open(&j, NULL, '{');
			json_str(&j, "name", tu->name);
			json_bool(&j, "runtime", tunable_runtime(tu));
			json_str(&j, "type", tu->unit);
			json_str(&j, "kernel_type", ktype);
			json_str(&j, "range", tu->range);
			json_str(&j, "value", have ? val : NULL);
			json_str(&j, "description", desc);
			json_str(&j, "description_from", kmeta_source(km, tu));
			json_close(&j, '}');
			continue;
		}
		if (ktype)
			snprintf(type, sizeof(type), "%s (%s)", tu->unit, ktype);
		else
			snprintf(type, sizeof(type), "%s", tu->unit);
		table_row(&t, tu->name, tunable_runtime(tu) ? "runtime" : "boot", type,
			  tu->range, have ? val : (tunable_runtime(tu) ? "(missing)" : "(unset)"),
			  desc ? desc : "(no description in kernel metadata)");
	}
	if (ctx->json) {
		json_close(&j, ']');
		json_end(&j);
	} else {
		table_print(&t, stdout);
		table_free(&t);
	}
out:
	free(cmdline);
	kmeta_close(km);
	return EXIT_OK;
}

const struct command cmd_status = {
	"status", do_status, "",
	"kernel support, running tunables, counters, active profile and drift; rcuqs-kernel's "
	"trial records where it keeps them", NULL,
};
const struct command cmd_verify = {
	"verify", do_verify, "", "exit 0 if the running state matches the active profile", NULL,
};
const struct command cmd_params = {
	"params", do_params, "",
	"every known tunable: description, type, range, when, current value", NULL,
};
