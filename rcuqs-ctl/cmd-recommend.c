// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recommend: sample the counters, read what else decides it, and name a
 * profile with the evidence. It never writes anything. The rules are
 * rcuqs-ctl(8)'s, the thresholds thresholds.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootcfg.h"
#include "cmd.h"
#include "counters.h"
#include "cpustat.h"
#include "drift.h"
#include "kernel.h"
#include "output.h"
#include "sysfs.h"
#include "thresholds.h"
#include "tunables.h"
#include "util.h"

/* The advice of both rules where the limit reports but too late. */
#define LIMIT_TOO_HIGH "it is too high for these loops; a profile that includes " \
	"the active one with a lower rcutree.cond_resched_qs_limit would report sooner"

#define SECONDS_MAX 3600.0
#define STALL_TIMEOUT "module/rcupdate/parameters/rcu_cpu_stall_timeout"

/*
 * A stock kernel's step that needs no build: the boot parameter, how to
 * set it with this tool (a staged local profile, which a stock kernel
 * boots with), and what it costs. The figures are make bench's on 6.1's
 * PREEMPT_DYNAMIC kernel, doc/bench-figures' dyn_*, each string on one
 * line so that doc/bench-quotes holds it to them (make -C man check).
 */
#define NO_BUILD_PARAM "rcutree.jiffies_till_sched_qs=1"
#define NO_BUILD_HOW "a local profile in /etc/rcuqs/profiles with include=default and " \
	"that line, rcuqs-ctl set-profile --stage NAME, update-grub"
#define NO_BUILD_FIGURES \
	"measured on 6.1, PREEMPT_DYNAMIC: grace periods p50 36 ms against 300 ms by default"
#define NO_BUILD_COST "RCU asks the looping CPU for a quiescent state after every jiffy " \
	"a grace period waits on it: more interrupts and resched IPIs on the isolated CPU"
/* What the rcuqs kernel adds, the same run's figures. */
#define RCUQS_KERNEL_FIGURES \
	"on 6.1, PREEMPT_DYNAMIC: p50 16 ms, the no-loop floor's 16 ms"

/* Everything the decision reads besides the rates. */
struct facts {
	char *nohz_full;	/* malloc'd; "" when there are none */
	long nohz_cpus;		/* how many; -1 when the list is not one */
	char rcu_nocbs[RUNNING_MAX];	/* "" when not on the command line */
	char preempt[24];	/* kernel_preempt_name(): status's word for it */
	char preempt_from[192];	/* where that came from */
	char baseline[16];	/* "6.12"; "" unknown */
	int preemptible_rcu;	/* 1, 0, or -1 unknown */
	int reports;		/* cond_resched() reports QSs: 1, 0, -1 unknown */
	char stall_timeout[32];	/* "" when unreadable */
	char active[80];	/* "" when none */
	size_t ndrift;
	bool limit;		/* the kernel has cond_resched_qs_limit (6.1, 6.12) */
	bool nohz_qs;		/* it has jiffies_till_nohz_qs (7.3) */
};

/* Reasons given: a threshold compared with a rate, or words alone (t < 0). */
struct reason {
	int t;
	double rate;
	bool above;
	const char *text;
	char own[320];		/* text, when it quotes the rates */
};

struct verdict {
	const char *profile;	/* the profile to switch to; NULL: no change */
	const char *param;	/* else a parameter no shipped profile sets; NULL: none */
	const char *kept;	/* with no change: why not "keep NAME"; NULL: keep */
	const char *no_build;	/* stock: NO_BUILD_PARAM named, its figures; NULL: not */
	struct reason why[6];
	size_t n;
	char own[640];		/* a reason that quotes kernel_limit_instead */
	char own2[896];		/* another, on a stock kernel */
};

static void because(struct verdict *v, int t, double rate, const char *text)
{
	if (v->n < sizeof(v->why) / sizeof(v->why[0]))
		v->why[v->n++] = (struct reason){ .t = t, .rate = rate, .text = text,
						  .above = t >= 0 && rate >= thresholds[t].value };
}

/*
 * Everything but the rates. No nohz_full file is no nohz_full CPU (a
 * kernel without NO_HZ_FULL); one that cannot be read is said, and
 * returned (-errno): the decision needs it.
 */
static int read_facts(const struct rcuqs_ctx *ctx, struct facts *f)
{
	struct kernel_info k;
	char *cmdline = NULL;
	int r;

	memset(f, 0, sizeof(*f));
	if ((r = kernel_nohz_full(ctx, &f->nohz_full)) < 0)
		return r;
	f->nohz_cpus = f->nohz_full[0] ?
		       cpulist_count(f->nohz_full, tunable_find("rcu_nocbs")->max) : 0;
	if (f->nohz_cpus < 0)
		f->nohz_cpus = -1;
	proc_cmdline(ctx, &cmdline);
	if (cmdline && !cmdline_value(cmdline, "rcu_nocbs", f->rcu_nocbs, sizeof(f->rcu_nocbs)))
		f->rcu_nocbs[0] = '\0';
	/* The model as status names it: kernel.c's reading, one for both. */
	kernel_read(ctx, &k);
	snprintf(f->baseline, sizeof(f->baseline), "%s", k.baseline);
	f->limit = k.limit;
	f->nohz_qs = k.nohz_qs;
	snprintf(f->preempt, sizeof(f->preempt), "%s", kernel_preempt_name(k.model));
	snprintf(f->preempt_from, sizeof(f->preempt_from), "%s%s", kernel_source_file(&k),
		 k.source == PS_CMDLINE ? " preempt=" : "");
	f->preemptible_rcu = kernel_preemptible_rcu(&k);
	f->reports = kernel_cond_resched_reports(&k);
	free(cmdline);
	if (sysfs_read(ctx, STALL_TIMEOUT, f->stall_timeout, sizeof(f->stall_timeout)) < 0)
		f->stall_timeout[0] = '\0';
	if (active_drift(ctx, f->active, sizeof(f->active), &f->ndrift) < 0)
		f->active[0] = '\0';	/* status says why; the decision goes on without it */
	return 0;
}

/*
 * What jiffies_till_nohz_qs's requests cost, in words: each is an
 * interrupt of a nohz_full CPU running in the kernel.
 */
static void because_nohz(struct verdict *v, const struct facts *f, const struct rates *r,
			 const char *lead)
{
	struct reason *w;
	char per[64] = "";

	if (v->n >= sizeof(v->why) / sizeof(v->why[0]))
		return;
	w = &v->why[v->n++];
	*w = (struct reason){ .t = -1 };
	if (f->nohz_cpus > 0)
		snprintf(per, sizeof(per), ", %.1f/s for each of %ld nohz_full CPU%s",
			 r->per_s[C_NOHZ_ASKS] / (double)f->nohz_cpus, f->nohz_cpus,
			 f->nohz_cpus == 1 ? "" : "s");
	snprintf(w->own, sizeof(w->own), "%s: nohz_qs_asks %.1f/s%s (each an interrupt of a "
		 "nohz_full CPU running in the kernel), nohz_qs_reports %.1f/s (a quiescent "
		 "state noted at once)", lead, r->per_s[C_NOHZ_ASKS], per,
		 r->per_s[C_NOHZ_REPORTS]);
	w->text = w->own;
}

/* The rules of rcuqs-ctl(8) RECOMMEND, in order; the first that holds decides. */
static void decide(const struct facts *f, const struct rates *r, struct verdict *v)
{
	int tu = f->preemptible_rcu == 0 ? T_URGENT_NONPREEMPT : T_URGENT_PREEMPT;
	double urgent = r->per_s[C_URGENT], limit = r->per_s[C_LIMIT], gp = r->per_s[C_GP];
	bool asked = urgent >= thresholds[tu].value;
	bool on_latency = strcmp(f->active, "latency") == 0;

	memset(v, 0, sizeof(*v));
	if (on_latency && f->nohz_qs && r->have[C_NOHZ_ASKS] && r->have[C_NOHZ_REPORTS]) {
		/*
		 * 7.3 under latency: keep it unless RCU still asks while most of
		 * latency's requests report nothing. Where most report, the
		 * urgent requests left come from the few that did not (the
		 * scan's resched_cpu() kick follows a missed request).
		 */
		if (asked && 2 * r->per_s[C_NOHZ_REPORTS] < r->per_s[C_NOHZ_ASKS]) {
			because(v, tu, urgent, "RCU still asks for quiescent states with latency "
				"in force");
			because_nohz(v, f, r, "jiffies_till_nohz_qs asks");
			because(v, -1, 0, "the loops hold their quiescent states past latency's "
				"requests (a read-side critical section or disabled preemption: "
				"asks without reports), and no shipped profile asks sooner: look at "
				"the loops; rcutree.jiffies_till_sched_qs still acts");
			v->kept = "latency in force, RCU still asks";
		} else if (asked) {
			because(v, tu, urgent, "RCU still asks now and then");
			because_nohz(v, f, r, "but most of latency's requests report: keep it; "
				     "what it costs");
		} else {
			because(v, tu, urgent, "RCU does not ask: latency's requests get the "
				"quiescent states first: keep it");
			because_nohz(v, f, r, "what it costs");
		}
	} else if (asked && limit >= thresholds[T_LIMIT_ACTING].value) {
		because(v, tu, urgent, "RCU still asks for quiescent states");
		because(v, T_LIMIT_ACTING, limit, "while the limit reports: " LIMIT_TOO_HIGH);
	} else if (asked && limit >= thresholds[T_LIMIT_STILL].value) {
		/* A limit that reports, rarely (1024 under the same loop): as high. */
		because(v, tu, urgent, "RCU still asks for quiescent states");
		because(v, T_LIMIT_STILL, limit, "the limit reports");
		because(v, T_LIMIT_ACTING, limit, "but rarely: " LIMIT_TOO_HIGH);
	} else if (asked && !f->limit) {
		because(v, tu, urgent, "loops hold grace periods back until RCU asks");
		if (!f->nohz_full[0]) {
			because(v, -1, 0, "but no CPU is nohz_full: every CPU's tick reports "
				"quiescent states");
		} else if (f->nohz_qs) {
			because(v, -1, 0, "this kernel has no cond_resched() limit; nohz_full CPUs "
				"are there to run such loops: latency sets "
				"rcutree.jiffies_till_nohz_qs, which asks them for their quiescent "
				"states directly");
			v->profile = "latency";
		} else {
			because(v, -1, 0, "but this kernel has neither cond_resched_qs_limit nor "
				"jiffies_till_nohz_qs: only jiffies_till_sched_qs is left to tune");
		}
	} else if (asked && limit < thresholds[T_LIMIT_STILL].value) {
		because(v, tu, urgent, "loops hold grace periods back until RCU asks");
		because(v, T_LIMIT_STILL, limit, "the limit reports nothing");
		if (!f->nohz_full[0]) {
			because(v, -1, 0, "but no CPU is nohz_full: every CPU's tick reports "
				"quiescent states, and the limit would not make them come sooner");
		} else if (f->reports == 0 && f->limit && !f->nohz_qs) {
			/* 6.1, 6.12 under full or RT: what the limit was for, undone. */
			snprintf(v->own, sizeof(v->own), "but under %s preemption cond_resched() "
				 "does nothing: the limit cannot act, and no shipped profile "
				 "shortens grace periods here; %s", f->preempt, kernel_limit_instead);
			because(v, -1, 0, v->own);
			v->param = "rcutree.jiffies_till_sched_qs=1";
		} else if (f->reports == 0) {
			because(v, -1, 0, "but under full, lazy or RT preemption cond_resched() does "
				"nothing: the limit cannot act, and a kick preempts the loop "
				"directly");
		} else {
			because(v, -1, 0, "nohz_full CPUs are there to run such loops: latency "
				"makes cond_resched() report before RCU asks");
			v->profile = "latency";
		}
	} else if (on_latency && limit >= thresholds[T_LIMIT_ACTING].value) {
		because(v, T_LIMIT_ACTING, limit, "latency's limit reports quiescent states");
		because(v, tu, urgent, "before RCU has to ask: keep it");
	} else if (gp >= thresholds[T_GP_BUSY].value) {
		because(v, T_GP_BUSY, gp, "grace periods end on their own");
		because(v, tu, urgent, "without RCU asking: no profile changed such loads "
			"beyond the noise (make bench open1), latency only raises the "
			"grace-period rate");
	} else {
		because(v, T_GP_BUSY, gp, "few grace periods");
		because(v, tu, urgent, "and RCU does not ask: nothing to tune");
	}
	if (v->profile && on_latency)
		v->profile = NULL;	/* in force but not acting: verify says why */
}

/*
 * A fact as read, for a terminal: escaped, as list and show escape
 * profiles; "(none)" when empty. malloc'd (NULL without memory).
 */
static char *shown(const char *s)
{
	return term_text(s[0] ? s : "(none)");
}

/* The facts' lines: nohz_full, rcu_nocbs, stall timeout; the model and RCU's flavour. */
static void print_facts(const struct facts *f, const char *rcu_unknown)
{
	char *nohz = shown(f->nohz_full), *nocbs = shown(f->rcu_nocbs);
	char *stall = shown(f->stall_timeout);

	printf("nohz_full: %s; rcu_nocbs: %s; stall timeout: %s s\n", nohz ? nohz : "?",
	       nocbs ? nocbs : "?", f->stall_timeout[0] && stall ? stall : "?");
	printf("preemption: %s%s%s%s; RCU: %s\n", f->preempt, f->preempt_from[0] ? " (from " : "",
	       f->preempt_from, f->preempt_from[0] ? ")" : "",
	       f->preemptible_rcu < 0 ? rcu_unknown :
	       f->preemptible_rcu ? "preemptible" : "non-preemptible");
	free(nohz);
	free(nocbs);
	free(stall);
}

/* The same facts in JSON. */
static void json_facts(struct json *j, const struct facts *f)
{
	char ncpus[24];

	json_str(j, "nohz_full", f->nohz_full[0] ? f->nohz_full : NULL);
	snprintf(ncpus, sizeof(ncpus), "%ld", f->nohz_cpus);
	json_num(j, "nohz_full_cpus", f->nohz_cpus < 0 ? NULL : ncpus);
	json_str(j, "rcu_nocbs", f->rcu_nocbs[0] ? f->rcu_nocbs : NULL);
	json_str(j, "preemption", f->preempt);
	json_str(j, "preemption_from", f->preempt_from[0] ? f->preempt_from : NULL);
	json_str(j, "rcu", f->preemptible_rcu < 0 ? "unknown" :
		 f->preemptible_rcu ? "preemptible" : "non-preemptible");
	json_num(j, "stall_timeout", f->stall_timeout);
}

static void print_text(const struct facts *f, const struct rates *r, double secs,
		       const struct verdict *v)
{
	char *active = shown(f->active);

	printf("sampled %.1f s: %.1f grace periods/s, ", secs, r->per_s[C_GP]);
	if (r->have_cbs_per_gp)
		printf("%.1f callbacks/grace period, ", r->cbs_per_gp);
	if (r->have[C_LIMIT])
		printf("limit_qs %.1f/s, ", r->per_s[C_LIMIT]);
	else
		printf("limit_qs - (no limit on this kernel), ");
	printf("urgent_qs %.1f/s, resched_kicks %.1f/s", r->per_s[C_URGENT], r->per_s[C_KICKS]);
	if (r->have[C_NOHZ_ASKS] && r->have[C_NOHZ_REPORTS])
		printf(", nohz_qs_asks %.1f/s, nohz_qs_reports %.1f/s", r->per_s[C_NOHZ_ASKS],
		       r->per_s[C_NOHZ_REPORTS]);
	printf("\n");
	print_facts(f, "unknown (preemptible thresholds used)");
	if (!f->active[0])
		printf("active profile: none\n");
	else
		printf("active profile: %s (%s)\n", active ? active : "?",
		       f->ndrift ? "drifted" : "no drift");
	if (v->profile)
		printf("recommendation: %s\n", v->profile);
	else if (v->param)
		printf("recommendation: %s, not a profile (none helps under preemption %s)\n",
		       v->param, f->preempt);
	else if (v->kept)
		printf("recommendation: no change (%s)\n", v->kept);
	else
		printf("recommendation: no change (keep %s)\n",
		       !f->active[0] ? "the running values" : active ? active : "?");
	free(active);
	for (size_t i = 0; i < v->n; i++) {
		const struct reason *w = &v->why[i];

		if (w->t < 0) {
			printf("  %s\n", w->text);
			continue;
		}
		printf("  %s %.1f/s %s %s %g%s: %s\n", counter_names[w->t == T_GP_BUSY ? C_GP :
				w->t >= T_LIMIT_STILL ? C_LIMIT : C_URGENT],
		       w->rate, w->above ? ">=" : "<", thresholds[w->t].name, thresholds[w->t].value,
		       thresholds[w->t].unit, w->text);
		printf("    (make bench: %s)\n", thresholds[w->t].bench);
	}
	printf("thresholds and their figures: rcuqs(7) RECOMMENDATION THRESHOLDS; nothing was "
	       "changed\n");
}

/* The verdict's reasons, as "evidence": [...]. */
static void json_evidence(struct json *j, const struct verdict *v)
{
	json_open(j, "evidence", '[');
	for (size_t i = 0; i < v->n; i++) {
		const struct reason *w = &v->why[i];

		json_open(j, NULL, '{');
		if (w->t >= 0) {
			json_str(j, "threshold", thresholds[w->t].name);
			json_real(j, "limit", thresholds[w->t].value, true);
			json_real(j, "rate", w->rate, true);
			json_bool(j, "crossed", w->above);
			json_str(j, "bench", thresholds[w->t].bench);
		}
		json_str(j, "reason", w->text);
		json_close(j, '}');
	}
	json_close(j, ']');
}

static void print_json(const struct facts *f, const struct rates *r, double secs,
		       const struct verdict *v)
{
	struct json j = { .f = stdout };

	json_open(&j, NULL, '{');
	json_real(&j, "seconds", secs, true);
	json_real(&j, "gp_per_s", r->per_s[C_GP], true);
	json_real(&j, "cbs_per_gp", r->cbs_per_gp, r->have_cbs_per_gp);
	json_real(&j, "limit_qs_per_s", r->per_s[C_LIMIT], r->have[C_LIMIT]);
	json_real(&j, "urgent_qs_per_s", r->per_s[C_URGENT], true);
	json_real(&j, "resched_kicks_per_s", r->per_s[C_KICKS], true);
	json_real(&j, "nohz_qs_asks_per_s", r->per_s[C_NOHZ_ASKS], r->have[C_NOHZ_ASKS]);
	json_real(&j, "nohz_qs_reports_per_s", r->per_s[C_NOHZ_REPORTS], r->have[C_NOHZ_REPORTS]);
	json_facts(&j, f);
	json_str(&j, "active_profile", f->active[0] ? f->active : NULL);
	json_bool(&j, "drift", f->ndrift > 0);
	json_bool(&j, "change", v->profile || v->param);
	json_str(&j, "recommendation", v->profile ? v->profile :
		 (f->active[0] && !v->param ? f->active : NULL));
	json_str(&j, "parameter", v->param);
	json_evidence(&j, v);
	json_close(&j, '}');
	json_end(&j);
}

/*
 * A stock kernel: the nohz_full CPUs' time in the kernel and the RCU
 * softirqs over the interval, from two cpustat readings.
 */
struct stock {
	const struct cpustat *a, *b;
	double secs;
	long busiest;		/* the nohz_full CPU most in the kernel; -1: none measured */
	double busiest_pct;
	double rcu_nohz;	/* RCU softirqs/s on the nohz_full CPUs */
	bool have_rcu_nohz;
	struct json *j;		/* the "cpus" list being written, or NULL */
	FILE *text;		/* the text list being written, or NULL */
	size_t shown;
};

#define STOCK_SHOWN 16	/* CPUs the text names; JSON lists them all */

static void stock_cpu(unsigned long cpu, void *arg)
{
	struct stock *st = arg;
	const struct cpu_times *a = &st->a->cpu[cpu], *b = &st->b->cpu[cpu];
	bool rcu = a->have_rcu && b->have_rcu && b->rcu >= a->rcu;
	double pct = 0, rate = rcu ? (double)(b->rcu - a->rcu) / st->secs : 0;
	bool time = a->have_time && b->have_time && b->total > a->total &&
		    b->system >= a->system && b->system - a->system <= b->total - a->total;
	char n[24];

	if (time)
		pct = 100.0 * (double)(b->system - a->system) / (double)(b->total - a->total);
	if (st->j || st->text)
		goto show;	/* the first walk summed; these only show */
	if (time) {
		if (st->busiest < 0 || pct > st->busiest_pct) {
			st->busiest = (long)cpu;
			st->busiest_pct = pct;
		}
	}
	if (rcu) {
		st->rcu_nohz += rate;
		st->have_rcu_nohz = true;
	}
	return;
show:
	if (st->j) {
		json_open(st->j, NULL, '{');
		snprintf(n, sizeof(n), "%lu", cpu);
		json_num(st->j, "cpu", n);
		json_real(st->j, "system_pct", pct, time);
		json_real(st->j, "rcu_softirqs_per_s", rate, rcu);
		json_close(st->j, '}');
	} else if (st->text && st->shown++ < STOCK_SHOWN) {
		fprintf(st->text, "%s CPU %lu ", st->shown > 1 ? "," : "", cpu);
		if (time)
			fprintf(st->text, "%.1f%%", pct);
		else
			fprintf(st->text, "?");
	}
}

/*
 * The stock kernel's verdict where a nohz_full CPU spends most of its
 * time in the kernel: first the boot parameter that needs no build, with
 * its cost, then what the rcuqs kernel adds, with its own (a build for
 * every Debian kernel update); the parameter alone where the rcuqs
 * kernel's knob could not act either (6.1, 6.12 under full or RT); no
 * change otherwise.
 */
static void decide_stock(const struct facts *f, const struct stock *st, struct verdict *v,
			 const char **kernel)
{
	bool series = !strcmp(f->baseline, "6.1") || !strcmp(f->baseline, "6.12") ||
		      !strcmp(f->baseline, "7.3");

	memset(v, 0, sizeof(*v));
	*kernel = NULL;
	if (!f->nohz_full[0]) {
		because(v, -1, 0, "no CPU is nohz_full: every CPU's tick reports quiescent "
			"states, and a kernel loop holds a grace period back only until its next "
			"tick: the rcuqs kernel would not help");
		return;
	}
	snprintf(v->own, sizeof(v->own), "nohz_full CPU %ld in the kernel %s of the time",
		 st->busiest, st->busiest_pct >= thresholds[T_NOHZ_SYSTEM].value ? "most" :
		 "less than half");
	because(v, T_NOHZ_SYSTEM, st->busiest_pct, v->own);
	if (st->busiest_pct < thresholds[T_NOHZ_SYSTEM].value) {
		because(v, -1, 0, "the nohz_full CPUs run user code or idle: nothing holds grace "
			"periods back there; the rcuqs kernel would not help");
		return;
	}
	because(v, -1, 0, "a loop in the kernel on a nohz_full CPU has no tick to report "
		"its quiescent states: it holds every grace period back until RCU asks, hundreds "
		"of milliseconds (rcuqs(7))");
	if (f->reports == 0 && (!strcmp(f->baseline, "6.1") || !strcmp(f->baseline, "6.12"))) {
		snprintf(v->own2, sizeof(v->own2), "but under %s preemption cond_resched() does "
			 "nothing: the rcuqs kernel's limit could not act either; "
			 "rcutree.jiffies_till_sched_qs=1 on the kernel command line does, on this "
			 "kernel too (%s)", f->preempt, kernel_limit_figures);
		because(v, -1, 0, v->own2);
		because(v, -1, 0, "it needs a reboot, no build (" NO_BUILD_HOW "); its cost: "
			NO_BUILD_COST);
		v->param = NO_BUILD_PARAM;
		v->no_build = kernel_limit_figures;
		return;
	}
	because(v, -1, 0, "first, with no build: " NO_BUILD_PARAM " on the kernel command "
		"line and a reboot (" NO_BUILD_HOW "): RCU asks such a CPU for its quiescent "
		"state sooner (" NO_BUILD_FIGURES ")");
	because(v, -1, 0, "its cost: " NO_BUILD_COST);
	because(v, -1, 0, "what the rcuqs kernel adds, with rcuqs-ctl set-profile latency "
		"there: grace periods shorter still (" RCUQS_KERNEL_FIGURES "), with fewer "
		"interrupts on the isolated CPU");
	because(v, -1, 0, "its cost: a kernel of your own: make kernel-deb builds it from "
		"Debian's sources, again for every Debian kernel update (rcuqs-kernel(8) tries "
		"each build at boot before GRUB boots it by default)");
	v->no_build = NO_BUILD_FIGURES;
	*kernel = series ? f->baseline : "";
}

static void print_stock_text(const struct facts *f, struct stock *st, bool have_rcu_all,
			     double rcu_all, const struct verdict *v, const char *kernel)
{
	printf("sampled %.1f s on a kernel without the rcuqs patches (no /sys/%s): ", st->secs,
	       COUNTERS_DIR);
	if (have_rcu_all)
		printf("RCU softirqs %.1f/s", rcu_all);
	else
		printf("RCU softirqs - (no /proc/softirqs)");
	if (st->have_rcu_nohz)
		printf(", %.1f/s on the nohz_full CPUs", st->rcu_nohz);
	printf("\n");
	print_facts(f, "unknown");
	if (f->nohz_full[0]) {
		printf("time in the kernel (system):");
		st->text = stdout;
		st->shown = 0;
		cpulist_each(f->nohz_full, tunable_find("rcu_nocbs")->max, stock_cpu, st);
		st->text = NULL;
		if (st->shown > STOCK_SHOWN)
			printf(" and %zu more", st->shown - STOCK_SHOWN);
		printf("\n");
	}
	if (kernel)
		printf("recommendation: %s on the kernel command line first (a reboot, no "
		       "build); for more, the rcuqs kernel%s%s, then set-profile latency\n",
		       NO_BUILD_PARAM, kernel[0] ? " for " : "", kernel);
	else if (v->param)
		printf("recommendation: %s, not the rcuqs kernel (its limit cannot act under "
		       "preemption %s)\n", v->param, f->preempt);
	else
		printf("recommendation: no change (the rcuqs kernel would not help)\n");
	for (size_t i = 0; i < v->n; i++) {
		const struct reason *w = &v->why[i];

		if (w->t < 0)
			printf("  %s\n", w->text);
		else
			printf("  %s: %.1f%s %s %s %g%s\n    (%s)\n", w->text, w->rate,
			       thresholds[w->t].unit, w->above ? ">=" : "<", thresholds[w->t].name,
			       thresholds[w->t].value, thresholds[w->t].unit, thresholds[w->t].bench);
	}
	printf("thresholds: rcuqs(7) RECOMMENDATION THRESHOLDS; nothing was changed\n");
}

static void print_stock_json(const struct facts *f, struct stock *st, bool have_rcu_all,
			     double rcu_all, const struct verdict *v, const char *kernel)
{
	struct json j = { .f = stdout };

	json_open(&j, NULL, '{');
	json_real(&j, "seconds", st->secs, true);
	json_bool(&j, "rcuqs_kernel", false);
	json_real(&j, "rcu_softirqs_per_s", rcu_all, have_rcu_all);
	json_real(&j, "nohz_rcu_softirqs_per_s", st->rcu_nohz, st->have_rcu_nohz);
	json_facts(&j, f);
	json_open(&j, "cpus", '[');
	if (f->nohz_full[0]) {
		st->j = &j;
		cpulist_each(f->nohz_full, tunable_find("rcu_nocbs")->max, stock_cpu, st);
		st->j = NULL;
	}
	json_close(&j, ']');
	json_bool(&j, "change", kernel || v->param);
	json_bool(&j, "rcuqs_kernel_helps", kernel != NULL);
	json_str(&j, "rcuqs_kernel_baseline", kernel && kernel[0] ? kernel : NULL);
	json_str(&j, "recommendation", kernel ? "latency" : NULL);
	json_str(&j, "parameter", v->param);
	if (v->no_build) {
		/* The step that needs no build, first where the kernel helps too. */
		json_open(&j, "no_build", '{');
		json_str(&j, "param", NO_BUILD_PARAM);
		json_str(&j, "needs", "reboot");
		json_str(&j, "how", NO_BUILD_HOW);
		json_str(&j, "figures", v->no_build);
		json_str(&j, "cost", NO_BUILD_COST);
		json_close(&j, '}');
	} else {
		json_str(&j, "no_build", NULL);
	}
	json_evidence(&j, v);
	json_close(&j, '}');
	json_end(&j);
}

/* One reading; /proc/stat is needed only with nohz_full CPUs to measure. */
static int stock_read(const struct rcuqs_ctx *ctx, const struct facts *f, const char *stat,
		      const char *softirqs, struct cpustat *c)
{
	int r = cpustat_read(ctx, stat, softirqs, c);

	if (r == -ENOMEM || (r < 0 && f->nohz_full[0])) {
		errmsg("cannot read %s: %s", stat, errstr(r));
		return r;
	}
	return 0;
}

/*
 * recommend on a stock kernel: two readings of /proc/stat and
 * /proc/softirqs S seconds apart (the test hook's stat= and softirqs=
 * words instead), the nohz_full layout, and a verdict. /proc/stat is
 * needed only with nohz_full CPUs to measure.
 */
static int recommend_stock(struct rcuqs_ctx *ctx, double seconds)
{
	volatile sig_atomic_t never = 0;
	struct cpustat ca = { 0 }, cb = { 0 };
	struct stock st = { .a = &ca, .b = &cb, .busiest = -1 };
	struct sampler s;
	struct sample a, b;
	struct facts f;
	struct verdict v;
	const char *kernel = NULL;
	bool have_rcu_all;
	double rcu_all;
	int ret;

	memset(&f, 0, sizeof(f));
	if ((ret = sampler_open_stock(ctx, &s)) < 0)
		return exit_status(ret);
	ret = read_facts(ctx, &f);
	if (ret == 0)
		ret = sampler_read(&s, &a);
	if (ret == 0)
		ret = stock_read(ctx, &f, a.stat, a.softirqs, &ca);
	if (ret == 0) {
		st.secs = sampler_wait(&s, seconds, &never);
		ret = sampler_read(&s, &b);
	}
	if (ret == 0)
		ret = stock_read(ctx, &f, b.stat, b.softirqs, &cb);
	if (ret == -ENODATA)
		errmsg("RCUQS_TEST_SAMPLES: recommend needs two snapshots");
	sampler_close(&s);
	if (ret == 0 && f.nohz_full[0]) {
		cpulist_each(f.nohz_full, tunable_find("rcu_nocbs")->max, stock_cpu, &st);
		if (st.busiest < 0) {
			if (f.nohz_cpus < 0)
				errmsg("/sys/%s is not a CPU list", NOHZ_FULL);
			else
				errmsg("no time in the kernel measured for the nohz_full CPUs in %s",
				       b.stat);
			ret = -EIO;
		}
	}
	if (ret == 0) {
		have_rcu_all = ca.have_rcu_all && cb.have_rcu_all && cb.rcu_all >= ca.rcu_all;
		rcu_all = have_rcu_all ? (double)(cb.rcu_all - ca.rcu_all) / st.secs : 0;
		decide_stock(&f, &st, &v, &kernel);
		if (ctx->json)
			print_stock_json(&f, &st, have_rcu_all, rcu_all, &v, kernel);
		else
			print_stock_text(&f, &st, have_rcu_all, rcu_all, &v, kernel);
	}
	cpustat_free(&ca);
	cpustat_free(&cb);
	free(f.nohz_full);
	if (ret < 0)
		return exit_status(ret == -EINVAL || ret == -ENODATA ? -EIO : ret);
	return EXIT_OK;
}

static int do_recommend(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	volatile sig_atomic_t never = 0;
	double seconds = 3.0, secs = 0;
	struct sampler s;
	struct sample a, b;
	struct facts f;
	struct rates r;
	struct verdict v;
	int c, ret;

	optind = 0;	/* a fresh scan of the command's own arguments */
	while ((c = getopt_long(argc, argv, ":s:j", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_seconds(optarg, SECONDS_MAX, &seconds) < 0) {
				errmsg("recommend: bad --seconds '%s' (from %g to %.0f, such as "
				       "0.5)", optarg, SECONDS_MIN, SECONDS_MAX);
				return usage_error();
			}
			break;
		case 'j':
			ctx->json = true;
			break;
		default:
			return cmd_opt_error("recommend", c, argv);
		}
	}
	if (optind < argc)
		return cmd_opt_error("recommend", 0, argv);
	/* A stock kernel: its own evidence, and whether the rcuqs kernel would help. */
	if (!sysfs_exists(ctx, COUNTERS_DIR))
		return recommend_stock(ctx, seconds);
	if ((ret = sampler_open(ctx, &s)) < 0)
		return exit_status(ret);
	ret = sampler_read(&s, &a);
	if (ret == 0) {
		secs = sampler_wait(&s, seconds, &never);
		ret = sampler_read(&s, &b);
	}
	if (ret == -ENODATA)
		errmsg("RCUQS_TEST_SAMPLES: recommend needs two snapshots");
	if (ret == 0)
		ret = rates_compute(&s, &a, &b, secs, &r);
	memset(&f, 0, sizeof(f));
	if (ret == 0)
		ret = read_facts(ctx, &f);
	/*
	 * Every counter, limit_qs only where the kernel has the limit; 7.3's
	 * nohz_qs_* where they are (rules that need them need both).
	 */
	for (size_t i = 0; ret == 0 && i < C_NOHZ_ASKS; i++) {
		if (!r.have[i] && (i != C_LIMIT || f.limit)) {
			errmsg("cannot read /sys/%s/%s", COUNTERS_DIR, counter_names[i]);
			ret = -EIO;
		}
	}
	sampler_close(&s);
	if (ret == 0) {
		decide(&f, &r, &v);
		if (ctx->json)
			print_json(&f, &r, secs, &v);
		else
			print_text(&f, &r, secs, &v);
	}
	free(f.nohz_full);
	if (ret < 0)
		return exit_status(ret == -EINVAL || ret == -ENODATA ? -EIO : ret);
	return EXIT_OK;
}

const struct command cmd_recommend = {
	"recommend", do_recommend, "[--seconds S] [--json]",
	"sample over S seconds (0.1 to 3600) and name a profile or a parameter, or on a stock "
	"kernel the boot parameter that needs no build and whether the rcuqs kernel would help, "
	"with the evidence; writes nothing",
	"-s --seconds",
};
