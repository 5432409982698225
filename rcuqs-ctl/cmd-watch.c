// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * watch: the counters' rates, one line per interval, as vmstat prints.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "counters.h"
#include "drift.h"
#include "output.h"
#include "util.h"

#define INTERVAL_MAX 86400.0
#define HEADER_EVERY 20	/* lines between headers on a terminal */

/*
 * Set by SIGINT: the one piece of state outside the context, because a
 * signal handler can reach nothing else.
 */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * The active profile and its drift as one short cell: "latency (no
 * drift)"; the recorded name escaped, as list and show escape it.
 */
static void profile_cell(const struct rcuqs_ctx *ctx, char *buf, size_t len, char *name,
			 size_t name_len, size_t *ndrift)
{
	int r = active_drift(ctx, name, name_len, ndrift);
	char *shown = term_text(name);
	const char *s = shown ? shown : "?";

	if (r < 0)
		snprintf(buf, len, "%s%s(unreadable: %s)", s, name[0] ? " " : "", errstr(r));
	else if (!name[0])
		snprintf(buf, len, "none");
	else if (*ndrift)
		snprintf(buf, len, "%s (%zu drifted)", s, *ndrift);
	else
		snprintf(buf, len, "%s (no drift)", s);
	free(shown);
}

/* nohz: the kernel counts jiffies_till_nohz_qs's requests (7.3): two columns more. */
static void print_header(bool nohz)
{
	printf("%8s %8s %10s %11s %8s", "gp/s", "cbs/gp", "limit_qs/s", "urgent_qs/s", "kicks/s");
	if (nohz)
		printf(" %8s %10s", "asks/s", "reports/s");
	printf("  %s\n", "profile");
}

static void print_rate(int width, double v, bool have)
{
	if (have)
		printf(" %*.1f", width, v);
	else
		printf(" %*s", width, "-");
}

static void print_line(const struct rcuqs_ctx *ctx, const struct rates *r, double secs,
		       bool nohz)
{
	char cell[400], name[80];
	size_t ndrift = 0;

	profile_cell(ctx, cell, sizeof(cell), name, sizeof(name), &ndrift);
	if (ctx->json) {
		struct json j = { .f = stdout };

		json_open(&j, NULL, '{');
		json_real(&j, "seconds", secs, true);
		json_real(&j, "gp_per_s", r->per_s[C_GP], r->have[C_GP]);
		json_real(&j, "cbs_per_gp", r->cbs_per_gp, r->have_cbs_per_gp);
		json_real(&j, "limit_qs_per_s", r->per_s[C_LIMIT], r->have[C_LIMIT]);
		json_real(&j, "urgent_qs_per_s", r->per_s[C_URGENT], r->have[C_URGENT]);
		json_real(&j, "resched_kicks_per_s", r->per_s[C_KICKS], r->have[C_KICKS]);
		json_real(&j, "nohz_qs_asks_per_s", r->per_s[C_NOHZ_ASKS], r->have[C_NOHZ_ASKS]);
		json_real(&j, "nohz_qs_reports_per_s", r->per_s[C_NOHZ_REPORTS],
			  r->have[C_NOHZ_REPORTS]);
		json_str(&j, "active_profile", name[0] ? name : NULL);
		json_bool(&j, "drift", ndrift > 0);
		json_close(&j, '}');
		json_end(&j);
	} else {
		print_rate(7, r->per_s[C_GP], r->have[C_GP]);
		print_rate(8, r->cbs_per_gp, r->have_cbs_per_gp);
		print_rate(10, r->per_s[C_LIMIT], r->have[C_LIMIT]);
		print_rate(11, r->per_s[C_URGENT], r->have[C_URGENT]);
		print_rate(8, r->per_s[C_KICKS], r->have[C_KICKS]);
		if (nohz) {
			print_rate(8, r->per_s[C_NOHZ_ASKS], r->have[C_NOHZ_ASKS]);
			print_rate(10, r->per_s[C_NOHZ_REPORTS], r->have[C_NOHZ_REPORTS]);
		}
		printf("  %s\n", cell);
	}
	fflush(stdout);
}

static int do_watch(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct sigaction sa = { .sa_handler = on_sigint };
	unsigned long count = 0, lines = 0;	/* count 0: until interrupted */
	bool tty = isatty(STDOUT_FILENO), nohz;
	double interval = 1.0;
	struct sampler s;
	struct sample a, b;
	int c, r, last = 0;

	optind = 0;	/* a fresh scan of the command's own arguments */
	while ((c = getopt_long(argc, argv, ":i:c:j", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (parse_seconds(optarg, INTERVAL_MAX, &interval) < 0) {
				errmsg("watch: bad --interval '%s' (seconds from %g to %.0f, such "
				       "as 0.5)", optarg, SECONDS_MIN, INTERVAL_MAX);
				return usage_error();
			}
			break;
		case 'c':
			if (parse_count(optarg, 1000000000UL, &count) < 0) {
				errmsg("watch: bad --count '%s' (a number from 1 to 1000000000)",
				       optarg);
				return usage_error();
			}
			break;
		case 'j':
			ctx->json = true;
			break;
		default:
			return cmd_opt_error("watch", c, argv);
		}
	}
	if (optind < argc)
		return cmd_opt_error("watch", 0, argv);
	if ((r = sampler_open(ctx, &s)) < 0)
		return exit_status(r);
	/* No SA_RESTART: the signal must end the sleep. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	if ((r = sampler_read(&s, &a)) < 0) {
		sampler_close(&s);
		return r == -ENODATA ? EXIT_OK : exit_status(r);
	}
	nohz = a.have[C_NOHZ_ASKS] || a.have[C_NOHZ_REPORTS];
	while (!interrupted && (count == 0 || lines < count)) {
		double secs = sampler_wait(&s, interval, &interrupted);
		struct rates rt;

		if (interrupted)
			break;
		r = sampler_read(&s, &b);
		if (r == -ENODATA)
			break;	/* the test hook's snapshots are used up */
		if (r < 0) {
			last = r;
			break;
		}
		if (rates_compute(&s, &a, &b, secs, &rt) < 0)
			last = -ERANGE;
		if (!ctx->json && (lines == 0 || (tty && lines % HEADER_EVERY == 0)))
			print_header(nohz);
		print_line(ctx, &rt, secs, nohz);
		if (ferror(stdout))
			break;	/* nobody reads the lines: main() says so */
		lines++;
		a = b;
	}
	sampler_close(&s);
	return exit_status(last);
}

const struct command cmd_watch = {
	"watch", do_watch, "[--interval S] [--count N] [--json]",
	"counter rates, one line every S seconds (0.1 to 86400; Ctrl-C ends it)",
	"-i --interval -c --count",
};
