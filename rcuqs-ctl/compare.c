// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure --compare's settings: switched through apply_changes() under
 * the lock, every parameter put back and read back afterwards, also when
 * a signal ends the run (its handler only sets measure_stop).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "apply.h"
#include "compare.h"
#include "here.h"
#include "lock.h"
#include "measure.h"
#include "sysfs.h"
#include "util.h"

#define JTSQ "rcutree.jiffies_till_sched_qs"
/* What to run instead, where the parameters cannot be switched at runtime. */
#define ALTERNATIVES "measure without --compare, then again after a reboot with " \
	"rcutree.jiffies_till_sched_qs=1 on the kernel command line (no build), or on the " \
	"rcuqs kernel (a kernel build: rcuqs-ctl recommend), which --compare switches at runtime"

const char *const compare_setting_names[N_SETTINGS] = {
	[SET_DEFAULT] = "default", [SET_LATENCY] = "latency", [SET_JTSQ1] = "jtsq1",
};

static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int signo)
{
	measure_stop = signo;
}

/* The profile's runtime settings that act here as s's changes. */
static int load_setting(const struct rcuqs_ctx *ctx, struct compare *cmp, size_t k,
			enum compare_setting s)
{
	struct profile *p = &cmp->prof[k];
	int r;

	if ((r = profile_load(ctx, compare_setting_names[s], p)) < 0)
		return r;
	profile_here(ctx, p);
	if ((r = profile_require_here(p)) < 0) {
		errmsg("measure --compare: profile '%s' cannot act on the running kernel; nothing "
		       "was changed", p->name);
		return r;
	}
	cmp->n[s] = changes_from_profile(p, cmp->c[s]);
	return 0;
}

/* default's changes with jiffies_till_sched_qs=1 in place of its value. */
static void jtsq1(struct compare *cmp)
{
	const struct tunable *t = tunable_find(JTSQ);
	size_t n = cmp->n[SET_DEFAULT], i;

	memcpy(cmp->c[SET_JTSQ1], cmp->c[SET_DEFAULT], n * sizeof(struct change));
	for (i = 0; i < n && cmp->c[SET_JTSQ1][i].t != t; i++)
		;
	if (i == n) {
		memset(&cmp->c[SET_JTSQ1][i], 0, sizeof(struct change));
		cmp->c[SET_JTSQ1][i].t = t;
		n++;
	}
	cmp->c[SET_JTSQ1][i].value = "1";
	cmp->n[SET_JTSQ1] = n;
}

/* Each parameter a setting writes must be there and take writes; added to snap once. */
static int check_changes(const struct rcuqs_ctx *ctx, struct compare *cmp, enum compare_setting s)
{
	for (size_t i = 0; i < cmp->n[s]; i++) {
		const struct change *c = &cmp->c[s][i];
		size_t k;

		if (tunable_check(c->t, c->value) < 0) {
			errmsg("measure --compare: setting '%s': bad value %s=%s (%s); nothing was "
			       "changed", compare_setting_names[s], c->t->name, c->value, c->t->range);
			return -EINVAL;
		}
		if (!sysfs_exists(ctx, c->t->sysfs) || sysfs_read_only(ctx, c->t->sysfs)) {
			errmsg("measure --compare: setting '%s' writes %s, and the running kernel %s "
			       "(/sys/%s); nothing was changed", compare_setting_names[s], c->t->name,
			       sysfs_exists(ctx, c->t->sysfs) ? "has it read-only" : "lacks it",
			       c->t->sysfs);
			return -ENODEV;
		}
		for (k = 0; k < cmp->nsnap && cmp->snap[k].t != c->t; k++)
			;
		if (k == cmp->nsnap) {
			memset(&cmp->snap[k], 0, sizeof(cmp->snap[k]));
			cmp->snap[cmp->nsnap++].t = c->t;
		}
	}
	return 0;
}

int compare_prepare(const struct rcuqs_ctx *ctx, struct compare *cmp)
{
	int r;

	memset(cmp, 0, sizeof(*cmp));
	cmp->lock = -1;
	if (!sysfs_exists(ctx, RCUQS_MARKER)) {
		errmsg("measure --compare: the running kernel lacks the rcuqs patches (no /sys/%s): "
		       "its parameters cannot be switched at runtime; %s", RCUQS_MARKER,
		       ALTERNATIVES);
		return -ENODEV;
	}
	if ((r = load_setting(ctx, cmp, 0, SET_DEFAULT)) < 0 ||
	    (r = load_setting(ctx, cmp, 1, SET_LATENCY)) < 0)
		return r;
	jtsq1(cmp);
	for (int s = 0; s < N_SETTINGS && r == 0; s++)
		r = check_changes(ctx, cmp, (enum compare_setting)s);
	return r;
}

int compare_begin(const struct rcuqs_ctx *ctx, struct compare *cmp)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART: reads end */

	if ((cmp->lock = lock_take(ctx)) < 0)
		return cmp->lock;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(signals) / sizeof(*signals); i++)
		sigaction(signals[i], &sa, NULL);
	return changes_read(ctx, cmp->snap, cmp->nsnap);
}

int compare_apply(const struct rcuqs_ctx *ctx, struct compare *cmp, enum compare_setting s)
{
	return apply_changes(ctx, cmp->c[s], cmp->n[s]);
}

int compare_restore(const struct rcuqs_ctx *ctx, struct compare *cmp)
{
	size_t bad = 0;

	for (size_t i = cmp->nsnap; i-- > 0;) {
		const struct change *c = &cmp->snap[i];
		char now[VALUE_MAX];
		int r;

		if (!c->have_old)
			continue;	/* never read: nothing was written */
		r = sysfs_read(ctx, c->t->sysfs, now, sizeof(now));
		if (r >= 0 && strcmp(now, c->old) == 0)
			continue;
		r = sysfs_write(ctx, c->t->sysfs, c->old);
		if (r >= 0)
			r = sysfs_read(ctx, c->t->sysfs, now, sizeof(now));
		if (r < 0) {
			errmsg("measure --compare: cannot restore %s=%s: %s", c->t->name, c->old,
			       errstr(r));
			bad++;
		} else if (strcmp(now, c->old) != 0) {
			errmsg("measure --compare: cannot restore %s=%s: it reads %s", c->t->name,
			       c->old, now);
			bad++;
		}
	}
	if (bad) {
		errmsg("measure --compare: %zu parameter%s left changed", bad, bad == 1 ? "" : "s");
		return -ENOTRECOVERABLE;
	}
	return 0;
}

void compare_end(struct compare *cmp)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(signals) / sizeof(*signals); i++)
		sigaction(signals[i], &sa, NULL);
	lock_release(cmp->lock);
	cmp->lock = -1;
	profile_free(&cmp->prof[0]);
	profile_free(&cmp->prof[1]);
}
