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
#include "drift.h"
#include "kernel.h"
#include "output.h"
#include "sysfs.h"
#include "thresholds.h"
#include "tunables.h"
#include "util.h"

#define SECONDS_MAX 3600.0
#define NOHZ_FULL "devices/system/cpu/nohz_full"	/* below /sys */
/*
 * nohz_full's list is one sysfs value, at most a page: 4 KiB on x86, 64
 * KiB on arm64 and ppc64 kernels with large pages. "1,3,5,...,255" alone,
 * the odd CPUs of a 256-thread machine, is 457 bytes.
 */
#define NOHZ_FULL_MAX (64 << 10)
#define STALL_TIMEOUT "module/rcupdate/parameters/rcu_cpu_stall_timeout"

/* Everything the decision reads besides the rates. */
struct facts {
	char *nohz_full;	/* malloc'd; "" when there are none */
	long nohz_cpus;		/* how many; -1 when the list is not one */
	char rcu_nocbs[RUNNING_MAX];	/* "" when not on the command line */
	char preempt[24];	/* kernel_preempt_name(): status's word for it */
	char preempt_from[192];	/* where that came from */
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
	struct reason why[6];
	size_t n;
	char own[640];		/* a reason that quotes kernel_limit_instead */
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
	f->nohz_full = malloc(NOHZ_FULL_MAX + 1);
	if (!f->nohz_full)
		return -ENOMEM;
	r = sysfs_read(ctx, NOHZ_FULL, f->nohz_full, NOHZ_FULL_MAX + 1);
	if (r < 0 && r != -ENOENT) {
		errmsg("cannot read /sys/%s: %s", NOHZ_FULL, errstr(r));
		return r;
	}
	if (r < 0 || strcmp(f->nohz_full, "(null)") == 0)
		f->nohz_full[0] = '\0';
	f->nohz_cpus = f->nohz_full[0] ?
		       cpulist_count(f->nohz_full, tunable_find("rcu_nocbs")->max) : 0;
	if (f->nohz_cpus < 0)
		f->nohz_cpus = -1;
	proc_cmdline(ctx, &cmdline);
	if (cmdline && !cmdline_value(cmdline, "rcu_nocbs", f->rcu_nocbs, sizeof(f->rcu_nocbs)))
		f->rcu_nocbs[0] = '\0';
	/* The model as status names it: kernel.c's reading, one for both. */
	kernel_read(ctx, &k);
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
		/* 7.3 under latency: keep it only where RCU stopped asking. */
		if (asked) {
			because(v, tu, urgent, "RCU still asks for quiescent states with latency "
				"in force");
			because_nohz(v, f, r, "jiffies_till_nohz_qs asks");
			because(v, -1, 0, "the loops hold their quiescent states past latency's "
				"requests (a read-side critical section or disabled preemption: "
				"asks without reports), and no shipped profile asks sooner: look at "
				"the loops; rcutree.jiffies_till_sched_qs still acts");
			v->kept = "latency in force, RCU still asks";
		} else {
			because(v, tu, urgent, "RCU does not ask: latency's requests get the "
				"quiescent states first: keep it");
			because_nohz(v, f, r, "what it costs");
		}
	} else if (asked && limit >= thresholds[T_LIMIT_ACTING].value) {
		because(v, tu, urgent, "RCU still asks for quiescent states");
		because(v, T_LIMIT_ACTING, limit, "while the limit reports: it is too high for "
			"these loops; a profile that includes the active one with a lower "
			"rcutree.cond_resched_qs_limit would report sooner");
	} else if (asked && limit >= thresholds[T_LIMIT_STILL].value) {
		/* A limit that reports, rarely (1024 under the same loop): as high. */
		because(v, tu, urgent, "RCU still asks for quiescent states");
		because(v, T_LIMIT_STILL, limit, "the limit reports");
		because(v, T_LIMIT_ACTING, limit, "but rarely: it is too high for these loops; a "
			"profile that includes the active one with a lower "
			"rcutree.cond_resched_qs_limit would report sooner");
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

static void print_text(const struct facts *f, const struct rates *r, double secs,
		       const struct verdict *v)
{
	char *nohz = shown(f->nohz_full), *nocbs = shown(f->rcu_nocbs);
	char *stall = shown(f->stall_timeout), *active = shown(f->active);

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
	printf("nohz_full: %s; rcu_nocbs: %s; stall timeout: %s s\n", nohz ? nohz : "?",
	       nocbs ? nocbs : "?", f->stall_timeout[0] && stall ? stall : "?");
	printf("preemption: %s%s%s%s; RCU: %s\n", f->preempt, f->preempt_from[0] ? " (from " : "",
	       f->preempt_from, f->preempt_from[0] ? ")" : "",
	       f->preemptible_rcu < 0 ? "unknown (preemptible thresholds used)" :
	       f->preemptible_rcu ? "preemptible" : "non-preemptible");
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
	free(nohz);
	free(nocbs);
	free(stall);
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

static void print_json(const struct facts *f, const struct rates *r, double secs,
		       const struct verdict *v)
{
	struct json j = { .f = stdout };
	char ncpus[24];

	json_open(&j, NULL, '{');
	json_real(&j, "seconds", secs, true);
	json_real(&j, "gp_per_s", r->per_s[C_GP], true);
	json_real(&j, "cbs_per_gp", r->cbs_per_gp, r->have_cbs_per_gp);
	json_real(&j, "limit_qs_per_s", r->per_s[C_LIMIT], r->have[C_LIMIT]);
	json_real(&j, "urgent_qs_per_s", r->per_s[C_URGENT], true);
	json_real(&j, "resched_kicks_per_s", r->per_s[C_KICKS], true);
	json_real(&j, "nohz_qs_asks_per_s", r->per_s[C_NOHZ_ASKS], r->have[C_NOHZ_ASKS]);
	json_real(&j, "nohz_qs_reports_per_s", r->per_s[C_NOHZ_REPORTS], r->have[C_NOHZ_REPORTS]);
	json_str(&j, "nohz_full", f->nohz_full[0] ? f->nohz_full : NULL);
	snprintf(ncpus, sizeof(ncpus), "%ld", f->nohz_cpus);
	json_num(&j, "nohz_full_cpus", f->nohz_cpus < 0 ? NULL : ncpus);
	json_str(&j, "rcu_nocbs", f->rcu_nocbs[0] ? f->rcu_nocbs : NULL);
	json_str(&j, "preemption", f->preempt);
	json_str(&j, "preemption_from", f->preempt_from[0] ? f->preempt_from : NULL);
	json_str(&j, "rcu", f->preemptible_rcu < 0 ? "unknown" :
		 f->preemptible_rcu ? "preemptible" : "non-preemptible");
	json_num(&j, "stall_timeout", f->stall_timeout);
	json_str(&j, "active_profile", f->active[0] ? f->active : NULL);
	json_bool(&j, "drift", f->ndrift > 0);
	json_bool(&j, "change", v->profile || v->param);
	json_str(&j, "recommendation", v->profile ? v->profile :
		 (f->active[0] && !v->param ? f->active : NULL));
	json_str(&j, "parameter", v->param);
	json_open(&j, "evidence", '[');
	for (size_t i = 0; i < v->n; i++) {
		const struct reason *w = &v->why[i];

		json_open(&j, NULL, '{');
		if (w->t >= 0) {
			json_str(&j, "threshold", thresholds[w->t].name);
			json_real(&j, "limit", thresholds[w->t].value, true);
			json_real(&j, "rate", w->rate, true);
			json_bool(&j, "crossed", w->above);
			json_str(&j, "bench", thresholds[w->t].bench);
		}
		json_str(&j, "reason", w->text);
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_close(&j, '}');
	json_end(&j);
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
	"sample the counters over S seconds (0.1 to 3600) and name a profile, with the evidence; "
	"writes nothing",
	"-s --seconds",
};
