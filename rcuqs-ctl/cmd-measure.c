// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure: on this machine, with the settings that run, how long
 * synchronize_rcu() takes while a nohz_full CPU stays in the kernel, and
 * how often that CPU is interrupted for it. Timed from a housekeeping CPU
 * (measure.c); the isolated CPU's interrupts and softirqs from
 * /proc/interrupts and /proc/softirqs before and after each load; grace
 * periods completed from gp_completed where the kernel has the rcuqs
 * counters. It writes nothing, but with --compare on an rcuqs kernel:
 * then each load runs under each setting of compare.c in turn, and every
 * parameter is put back afterwards.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "compare.h"
#include "counters.h"
#include "cpustat.h"
#include "kernel.h"
#include "lock.h"
#include "measure.h"
#include "output.h"
#include "sysfs.h"
#include "tunables.h"
#include "util.h"

#define SECONDS_LEAST 1.0	/* fewer gives a handful of samples */
#define SECONDS_MAX 3600.0
#define RCU_EXPEDITED "kernel/rcu_expedited"	/* below /sys */
#define SETTLE_NS 100000000L	/* a load runs this long before its interval starts */
#define SOURCE "synchronize_rcu() latency, timed around dup2() growing a shared fd table"
/*
 * What to run next to compare, on a stock kernel and on an rcuqs one: on
 * the rcuqs kernel --compare runs the three settings side by side in one
 * run and puts every parameter back, nothing to set by hand.
 */
#define COMPARE_STOCK "run again after a reboot with rcutree.jiffies_till_sched_qs=1 on the " \
	"kernel command line (no build); on the rcuqs kernel (a kernel build: rcuqs-ctl " \
	"recommend), rcuqs-ctl measure --compare runs default, latency and " \
	"jiffies_till_sched_qs=1 side by side"
#define COMPARE_RCUQS "rcuqs-ctl measure --compare: default, latency and " \
	"jiffies_till_sched_qs=1 side by side in one run, every parameter put back after"
#define SETTINGS "default, latency, jtsq1 (default with rcutree.jiffies_till_sched_qs=1)"
#define NOT_GP "a sample is one synchronize_rcu() call: the rest of a grace period in " \
	"progress plus one whole grace period (one to two) and the wake-up, not a grace " \
	"period's length as RCU's tracepoints would give it"

struct options {
	long cpu;		/* -1: the first nohz_full CPU */
	double seconds;
	enum measure_load loads[N_LOADS];
	size_t nloads;
	bool compare;
};

/* One load's run: its samples and the isolated CPU's counts around it. */
struct run {
	enum measure_load load;
	int setting;		/* enum compare_setting; -1 without --compare */
	double secs;
	struct measure_samples s;
	double p50, p99, max;
	struct cpu_irqs a, b;
	struct sample ga, gb;
};

/* The figures of a run, each with whether it is known. */
struct figures {
	double irq_s, irq_call, irq_gp, gp_s, res_s, cal_s, loc_s, soft_s, rcu_s;
	bool irq, gp, soft;
	bool counter;		/* gp_completed was read, whether or not it grew */
};

static long max_cpu(void)
{
	return (long)tunable_find("rcu_nocbs")->max;
}

/* A CPU number as the kernel prints one: decimal, no sign, no leading zero. */
static int parse_cpu(const char *s, long *cpu)
{
	char *end;
	unsigned long v;

	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1]))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > (unsigned long)max_cpu())
		return -EINVAL;
	*cpu = (long)v;
	return 0;
}

/* "none,munmap,syscall,exit": each load once, in that order. */
static int parse_loads(const char *arg, struct options *o)
{
	char *copy = strdup(arg), *save = NULL;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	o->nloads = 0;
	for (char *w = strtok_r(copy, ",", &save); w && r == 0; w = strtok_r(NULL, ",", &save)) {
		size_t i, k;

		for (i = 0; i < N_LOADS && strcmp(w, measure_load_names[i]) != 0; i++)
			;
		for (k = 0; k < o->nloads && o->loads[k] != (enum measure_load)i; k++)
			;
		if (i == N_LOADS || k < o->nloads)
			r = -EINVAL;
		else
			o->loads[o->nloads++] = (enum measure_load)i;
	}
	free(copy);
	if (r == 0 && (o->nloads == 0 || arg[0] == ',' || arg[strlen(arg) - 1] == ',' ||
		       strstr(arg, ",,")))
		r = -EINVAL;
	return r;
}

static bool wants_load(const struct options *o, enum measure_load load)
{
	for (size_t i = 0; i < o->nloads; i++)
		if (o->loads[i] == load)
			return true;
	return false;
}

static void exit_room_error(void)
{
	errmsg("measure: the exit load needs %lu open files, and RLIMIT_NOFILE cannot be raised "
	       "that far (run as root, or raise the hard limit)", MEASURE_EXIT_NOFILE);
}

struct cpu_mark {
	bool *set;
	long first;
};

static void mark_cpu(unsigned long cpu, void *arg)
{
	struct cpu_mark *m = arg;

	m->set[cpu] = true;
	if (m->first < 0)
		m->first = (long)cpu;
}

/*
 * The first CPU this process may run on that is not nohz_full: where the
 * timing runs. -1 when there is none.
 */
static long housekeeping_cpu(const bool *nohz)
{
	cpu_set_t *set = CPU_ALLOC((int)max_cpu() + 1);
	size_t size = CPU_ALLOC_SIZE((int)max_cpu() + 1);
	long hk = -1;

	if (!set)
		return -1;
	if (sched_getaffinity(0, size, set) == 0) {
		for (long c = 0; c <= max_cpu() && hk < 0; c++)
			if (CPU_ISSET_S((size_t)c, size, set) && !nohz[c])
				hk = c;
	}
	CPU_FREE(set);
	return hk;
}

/*
 * Whether this run may go on: rcu_expedited, when readable, must be 0,
 * else every synchronize_rcu() is an expedited one. *expedited: 0, 1, -1
 * unknown (no file: said in the output).
 */
static int check_expedited(const struct rcuqs_ctx *ctx, int *expedited)
{
	char v[16];

	*expedited = -1;
	if (sysfs_read(ctx, RCU_EXPEDITED, v, sizeof(v)) < 0)
		return 0;
	*expedited = strcmp(v, "0") != 0;
	if (*expedited) {
		errmsg("measure: /sys/%s is %s: every synchronize_rcu() is then an expedited "
		       "one, and no sample would say anything about the tunables; write 0 there "
		       "(or boot without rcupdate.rcu_expedited=1) and run again", RCU_EXPEDITED,
		       v);
		return -EPERM;
	}
	return 0;
}

struct progress {
	char load[32];
	double secs;
};

static void show_progress(double elapsed, size_t samples, void *arg)
{
	const struct progress *p = arg;

	fprintf(stderr, "\rmeasure: %-7s %5.1f of %.1f s, %zu samples ", p->load, elapsed,
		p->secs, samples);
}

/* One snapshot of the isolated CPU's counts and of the counters. */
static int snapshot(const struct rcuqs_ctx *ctx, struct sampler *sm, long cpu,
		    struct sample *g, struct cpu_irqs *q)
{
	int r = sampler_read(sm, g);

	if (r == -ENODATA) {
		memset(g, 0, sizeof(*g));	/* the test hook's lines are used up */
		r = sampler_read(&(struct sampler){ .ctx = ctx }, g);
	}
	if (r < 0)
		return r;
	return cpustat_irqs(ctx, g->interrupts, g->softirqs, cpu, q);
}

static int run_load(const struct rcuqs_ctx *ctx, struct sampler *sm, const struct options *o,
		    struct run *run, bool tty)
{
	struct progress pg = { .secs = o->seconds };
	struct timespec settle = { 0, SETTLE_NS }, t0, t1;
	pid_t pid;
	int r;

	snprintf(pg.load, sizeof(pg.load), "%s%s%s", run->setting < 0 ? "" :
		 compare_setting_names[run->setting], run->setting < 0 ? "" : " ",
		 measure_load_names[run->load]);
	if ((r = measure_load_start(run->load, o->cpu, &pid)) == -EMFILE) {
		exit_room_error();
		return -ENODEV;
	} else if (r < 0) {
		errmsg("measure: cannot pin the %s load to CPU %ld: %s", measure_load_names[run->load],
		       o->cpu, errstr(r));
		return -ENODEV;
	}
	if (pid)
		nanosleep(&settle, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = snapshot(ctx, sm, o->cpu, &run->ga, &run->a);
	if (r == 0)
		r = measure_sync_rcu(o->seconds, &run->s, tty ? show_progress : NULL, &pg);
	if (r == 0)
		r = snapshot(ctx, sm, o->cpu, &run->gb, &run->b);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	measure_load_stop(pid);
	if (tty)
		fprintf(stderr, "\r%60s\r", "");
	run->secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (r == 0) {
		run->max = measure_quantile_ms(&run->s, 1.0);
		run->p99 = measure_quantile_ms(&run->s, 0.99);
		run->p50 = measure_quantile_ms(&run->s, 0.5);
	}
	return r;
}

/* A count's growth, when both readings have it and it did not go down. */
static bool delta(unsigned long long a, unsigned long long b, bool have, double *d)
{
	*d = have && b >= a ? (double)(b - a) : 0;
	return have && b >= a;
}

static void figures(const struct run *run, struct figures *f)
{
	bool hi = run->a.have_irqs && run->b.have_irqs;
	bool hs = run->a.have_softirqs && run->b.have_softirqs;
	double irqs, gps = 0, d;

	memset(f, 0, sizeof(*f));
	f->irq = delta(run->a.irqs, run->b.irqs, hi, &irqs);
	f->irq_s = irqs / run->secs;
	f->irq_call = run->s.n ? irqs / (double)run->s.n : 0;
	f->counter = run->ga.have[C_GP] && run->gb.have[C_GP];
	f->gp = delta(run->ga.v[C_GP], run->gb.v[C_GP], f->counter, &gps) && gps > 0;
	f->gp_s = gps / run->secs;
	f->irq_gp = f->gp ? irqs / gps : 0;
	f->res_s = delta(run->a.res, run->b.res, hi, &d) ? d / run->secs : 0;
	f->cal_s = delta(run->a.cal, run->b.cal, hi, &d) ? d / run->secs : 0;
	f->loc_s = delta(run->a.loc, run->b.loc, hi, &d) ? d / run->secs : 0;
	f->soft = delta(run->a.softirqs, run->b.softirqs, hs, &d);
	f->soft_s = d / run->secs;
	f->rcu_s = delta(run->a.rcu, run->b.rcu, hs, &d) ? d / run->secs : 0;
}

/* "%.1f" of v into buf, or NULL (shown as "-") when not known. */
static const char *cell(char *buf, size_t len, double v, bool have, int decimals)
{
	if (!have)
		return NULL;
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

/* "NAME=VALUE, ..." of what --compare put back. */
static void print_restored(const struct compare *cmp)
{
	printf("every parameter put back and read back:");
	for (size_t i = 0; i < cmp->nsnap; i++)
		printf("%s %s=%s", i ? "," : "", cmp->snap[i].t->name, cmp->snap[i].old);
	printf("\n");
}

/*
 * The i-th run to print: runs[] is in the order measured, by setting then
 * load with --compare, and printed by load then setting.
 */
static const struct run *nth_run(const struct options *o, const struct run *runs, size_t i)
{
	if (!o->compare)
		return &runs[i];
	return &runs[(i % N_SETTINGS) * o->nloads + i / N_SETTINGS];
}

static int print_text(const struct options *o, long hk, int expedited, bool rcuqs,
		      const struct compare *cmp, const struct run *runs, size_t n)
{
	struct table t;
	bool counter = false;
	int r;

	printf("%s\n", SOURCE);
	printf("timed on housekeeping CPU %ld; loads on nohz_full CPU %ld, %.1f s each; "
	       "rcu_expedited: %s\n", hk, o->cpu, o->seconds,
	       expedited < 0 ? "unknown (no /sys/" RCU_EXPEDITED ")" : "0");
	if (o->compare)
		r = table_init(&t, 12, "load", "setting", "samples", "p50_ms", "p99_ms", "irq/s",
			       "irq/call", "irq/gp", "RES/s", "CAL/s", "LOC/s", "RCU_softirq/s");
	else
		r = table_init(&t, 11, "load", "samples", "p50_ms", "p99_ms", "irq/s", "irq/call",
			       "irq/gp", "RES/s", "CAL/s", "LOC/s", "RCU_softirq/s");
	if (r < 0)
		return r;
	for (size_t i = 0; i < n && r == 0; i++) {
		const struct run *run = nth_run(o, runs, i);
		char c[10][32];
		struct figures f;

		figures(run, &f);
		counter |= f.counter;
		snprintf(c[0], sizeof(c[0]), "%zu", run->s.n);
		/* With --compare, the setting's column after the load's. */
#define ROW(...) (o->compare ? table_row(&t, measure_load_names[run->load], \
				       compare_setting_names[run->setting], __VA_ARGS__) : \
		  table_row(&t, measure_load_names[run->load], __VA_ARGS__))
		r = ROW(c[0], cell(c[1], 32, run->p50, true, 1), cell(c[2], 32, run->p99, true, 1),
			cell(c[3], 32, f.irq_s, f.irq, 1), cell(c[4], 32, f.irq_call, f.irq, 2),
			cell(c[5], 32, f.irq_gp, f.gp && f.irq, 2),
			cell(c[6], 32, f.res_s, f.irq, 1), cell(c[7], 32, f.cal_s, f.irq, 1),
			cell(c[8], 32, f.loc_s, f.irq, 1), cell(c[9], 32, f.rcu_s, f.soft, 1));
#undef ROW
	}
	if (r == 0)
		table_print(&t, stdout);
	table_free(&t);
	printf("%s\n", NOT_GP);
	printf("irq/s, irq/call: interrupts of CPU %ld (every row of /proc/interrupts) per second "
	       "and per timed call; irq/gp: per grace period completed (%s)\n", o->cpu,
	       counter ? "gp_completed, every CPU's; - when none completed" :
	       "- without /sys/" COUNTERS_DIR "/gp_completed: a kernel without the rcuqs patches");
	if (o->compare) {
		printf("settings: %s, switched at runtime under %s, each for every load in turn\n",
		       SETTINGS, LOCK_FILE);
		print_restored(cmp);
	} else {
		printf("measured with the settings that run; nothing was changed\n");
		printf("to compare: %s\n", rcuqs ? COMPARE_RCUQS : COMPARE_STOCK);
	}
	return r;
}

static void print_json(const struct options *o, long hk, int expedited, bool rcuqs,
		       const char *nohz, const struct compare *cmp, const struct run *runs, size_t n)
{
	struct json j = { .f = stdout };
	char num[24];

	json_open(&j, NULL, '{');
	json_str(&j, "source", "synchronize_rcu");
	json_str(&j, "method", "dup2() growing a shared fd table");
	json_str(&j, "note", NOT_GP);
	json_str(&j, "nohz_full", nohz);
	snprintf(num, sizeof(num), "%ld", o->cpu);
	json_num(&j, "cpu", num);
	snprintf(num, sizeof(num), "%ld", hk);
	json_num(&j, "housekeeping_cpu", num);
	json_real(&j, "seconds", o->seconds, true);
	snprintf(num, sizeof(num), "%d", expedited);
	json_num(&j, "rcu_expedited", expedited < 0 ? NULL : num);
	json_bool(&j, "rcuqs_kernel", rcuqs);
	json_str(&j, "compare", o->compare ? SETTINGS : rcuqs ? COMPARE_RCUQS : COMPARE_STOCK);
	if (o->compare) {
		json_open(&j, "settings", '[');
		for (size_t i = 0; i < N_SETTINGS; i++)
			json_str(&j, NULL, compare_setting_names[i]);
		json_close(&j, ']');
		json_open(&j, "restored", '{');
		for (size_t i = 0; i < cmp->nsnap; i++)
			json_str(&j, cmp->snap[i].t->name, cmp->snap[i].old);
		json_close(&j, '}');
	}
	json_open(&j, "loads", '[');
	for (size_t i = 0; i < n; i++) {
		const struct run *r = nth_run(o, runs, i);
		struct figures f;

		figures(r, &f);
		json_open(&j, NULL, '{');
		json_str(&j, "load", measure_load_names[r->load]);
		if (o->compare)
			json_str(&j, "setting", compare_setting_names[r->setting]);
		json_real(&j, "seconds", r->secs, true);
		snprintf(num, sizeof(num), "%zu", r->s.n);
		json_num(&j, "samples", num);
		json_real(&j, "p50_ms", r->p50, true);
		json_real(&j, "p99_ms", r->p99, true);
		json_real(&j, "max_ms", r->max, true);
		json_real(&j, "interrupts_per_s", f.irq_s, f.irq);
		json_real(&j, "interrupts_per_call", f.irq_call, f.irq);
		json_real(&j, "interrupts_per_gp", f.irq_gp, f.irq && f.gp);
		json_real(&j, "gp_per_s", f.gp_s, f.counter);
		json_real(&j, "res_per_s", f.res_s, f.irq);
		json_real(&j, "cal_per_s", f.cal_s, f.irq);
		json_real(&j, "loc_per_s", f.loc_s, f.irq);
		json_real(&j, "softirqs_per_s", f.soft_s, f.soft);
		json_real(&j, "rcu_softirqs_per_s", f.rcu_s, f.soft);
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_close(&j, '}');
	json_end(&j);
}

/*
 * The CPUs: the isolated one (o->cpu, checked or chosen) and the
 * housekeeping one (*hk). 0, or -errno (said): -EINVAL for a --cpu that
 * is not nohz_full, -ENODEV where there is no nohz_full CPU or no
 * housekeeping CPU.
 */
static int choose_cpus(const struct rcuqs_ctx *ctx, struct options *o, char **nohz, long *hk)
{
	struct cpu_mark m = { .first = -1 };
	int r;

	if ((r = kernel_nohz_full(ctx, nohz)) < 0)
		return r;
	if (!(*nohz)[0]) {
		errmsg("measure: no nohz_full CPU: /sys/%s %s", NOHZ_FULL,
		       sysfs_exists(ctx, NOHZ_FULL) ? "is empty (boot with nohz_full=LIST)" :
		       "is missing (a kernel built without NO_HZ_FULL)");
		return -ENODEV;
	}
	if (!(m.set = calloc((size_t)max_cpu() + 1, sizeof(*m.set))))
		return -ENOMEM;
	if (cpulist_each(*nohz, (unsigned long)max_cpu(), mark_cpu, &m) < 0) {
		errmsg("measure: /sys/%s is not a CPU list", NOHZ_FULL);
		r = -ENODEV;
	} else if (o->cpu >= 0 && !m.set[o->cpu]) {
		errmsg("measure: --cpu %ld: CPU %ld is not nohz_full (nohz_full: %s)", o->cpu,
		       o->cpu, *nohz);
		r = -EINVAL;
	} else if ((*hk = housekeeping_cpu(m.set)) < 0) {
		errmsg("measure: no housekeeping CPU: every CPU this process may run on is "
		       "nohz_full (nohz_full: %s), and the timing must not run on one", *nohz);
		r = -ENODEV;
	}
	if (o->cpu < 0)
		o->cpu = m.first;
	free(m.set);
	return r;
}

/*
 * Every load under every setting, by setting (one switch a setting), into
 * runs[] (room for N_SETTINGS * N_LOADS); *n: how many ran. The
 * parameters are put back whatever happens, a signal included.
 */
static int compare_runs(struct rcuqs_ctx *ctx, struct sampler *sm, const struct options *o,
			struct compare *cmp, struct run *runs, size_t *n, bool tty)
{
	int r, rr;

	if ((r = compare_begin(ctx, cmp)) < 0)
		return r;
	for (int st = 0; r == 0 && st < N_SETTINGS && !measure_stop; st++) {
		r = compare_apply(ctx, cmp, (enum compare_setting)st);
		for (size_t l = 0; r == 0 && l < o->nloads; l++, (*n)++) {
			runs[*n].load = o->loads[l];
			runs[*n].setting = st;
			r = run_load(ctx, sm, o, &runs[*n], tty);
		}
	}
	if (measure_stop)
		r = -EINTR;
	rr = compare_restore(ctx, cmp);
	if (rr == 0 && r < 0)
		errmsg("measure --compare: every parameter put back as it was");
	return rr < 0 ? rr : r;
}

static int measure(struct rcuqs_ctx *ctx, struct options *o)
{
	struct run runs[N_SETTINGS * N_LOADS] = { 0 };
	struct sampler sm = { 0 };
	struct compare cmp = { .lock = -1 };
	bool tty = isatty(STDERR_FILENO), rcuqs = sysfs_exists(ctx, RCUQS_MARKER);
	char *nohz = NULL;
	long hk = -1;
	int expedited = -1, r = 0;
	pid_t probe;
	size_t n = 0;

	/* --compare: root, an rcuqs kernel and every setting's parameter, before anything. */
	if (o->compare && (r = require_root("measure --compare")) < 0)
		return exit_status(r);
	if (o->compare && (r = compare_prepare(ctx, &cmp)) < 0) {
		compare_end(&cmp);
		return exit_status(r);
	}
	r = choose_cpus(ctx, o, &nohz, &hk);
	if (r == 0)
		r = check_expedited(ctx, &expedited);
	if (r == 0 && (r = measure_pin(hk)) < 0) {
		errmsg("measure: cannot pin the timing to housekeeping CPU %ld: %s", hk, errstr(r));
		r = -ENODEV;
	}
	/*
	 * Whether a load can be pinned there, and the exit load have its
	 * open files, before any figure is taken.
	 */
	if (r == 0) {
		r = measure_load_start(wants_load(o, LOAD_EXIT) ? LOAD_EXIT : LOAD_SYSCALL, o->cpu,
				       &probe);
		if (r == -EMFILE)
			exit_room_error();
		else if (r < 0)
			errmsg("measure: cannot pin a load to CPU %ld (sched_setaffinity: %s): it is "
			       "not online, or not in this process's cpuset", o->cpu, errstr(r));
		if (r < 0)
			r = -ENODEV;
	}
	measure_load_stop(r == 0 ? probe : 0);
	if (r == 0)
		r = sampler_open_stock(ctx, &sm);
	if (r == 0 && o->compare)
		r = compare_runs(ctx, &sm, o, &cmp, runs, &n, tty);
	for (; r == 0 && !o->compare && n < o->nloads; n++) {
		runs[n].load = o->loads[n];
		runs[n].setting = -1;
		r = run_load(ctx, &sm, o, &runs[n], tty);
	}
	sampler_close(&sm);
	if (r == 0 && ctx->json)
		print_json(o, hk, expedited, rcuqs, nohz, &cmp, runs, n);
	else if (r == 0)
		r = print_text(o, hk, expedited, rcuqs, &cmp, runs, n);
	if (o->compare)
		compare_end(&cmp);
	for (size_t i = 0; i < N_SETTINGS * N_LOADS; i++)
		measure_samples_free(&runs[i].s);
	free(nohz);
	if (measure_stop)
		return 128 + measure_stop;	/* after the parameters went back */
	if (r == -ENODEV || r == -EPERM || r == -EMFILE || r == -ENODATA)
		return EXIT_FAIL;	/* the machine, not the tool: no nohz_full, ... */
	return exit_status(r);
}

static int do_measure(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 's' },
		{ "load", required_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "compare", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { .cpu = -1, .seconds = 5.0,
			     .loads = { LOAD_NONE, LOAD_MUNMAP, LOAD_SYSCALL, LOAD_EXIT },
			     .nloads = 4 };
	int c, r;

	optind = 0;	/* a fresh scan of the command's own arguments */
	while ((c = getopt_long(argc, argv, ":c:s:l:jC", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_cpu(optarg, &o.cpu) < 0) {
				errmsg("measure: bad --cpu '%s' (a CPU number from 0 to %ld)", optarg,
				       max_cpu());
				return usage_error();
			}
			break;
		case 's':
			if (parse_seconds(optarg, SECONDS_MAX, &o.seconds) < 0 ||
			    o.seconds < SECONDS_LEAST) {
				errmsg("measure: bad --seconds '%s' (from %g to %.0f, such as 5)", optarg,
				       SECONDS_LEAST, SECONDS_MAX);
				return usage_error();
			}
			break;
		case 'l':
			if ((r = parse_loads(optarg, &o)) == -EINVAL) {
				errmsg("measure: bad --load '%s' (a list of none, munmap, syscall, "
				       "exit, each once, such as none,syscall)", optarg);
				return usage_error();
			} else if (r < 0) {
				return exit_status(r);
			}
			break;
		case 'j':
			ctx->json = true;
			break;
		case 'C':
			o.compare = true;
			break;
		default:
			return cmd_opt_error("measure", c, argv);
		}
	}
	if (optind < argc)
		return cmd_opt_error("measure", 0, argv);
	return measure(ctx, &o);
}

const struct command cmd_measure = {
	"measure", do_measure, "[--cpu N] [--seconds S] [--load LIST] [--compare] [--json]",
	"time synchronize_rcu() on a housekeeping CPU while loads run on nohz_full CPU N, S "
	"seconds each (1 to 3600), and count that CPU's interrupts; writes nothing, but "
	"--compare (rcuqs kernel, root): each load under default, latency and "
	"jiffies_till_sched_qs=1 in turn, every parameter put back",
	"-c --cpu -s --seconds -l --load",
};
