// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sampling /sys/kernel/rcu_qs/. The kernel keeps each counter as an
 * unsigned long summed over the CPUs, so it wraps at 2^BITS_PER_LONG: at
 * 2^32 on a 32-bit kernel, which a busy machine reaches in days; never,
 * in practice, at 2^64. A difference is therefore taken modulo 2^32 only
 * when the kernel is 32-bit.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counters.h"
#include "cpustat.h"
#include "sysfs.h"
#include "util.h"

const char *const counter_names[N_COUNTERS] = {
	[C_GP] = "gp_completed", [C_CBS] = "cbs_invoked", [C_LIMIT] = "limit_qs",
	[C_URGENT] = "urgent_qs", [C_KICKS] = "resched_kicks",
	[C_NOHZ_ASKS] = "nohz_qs_asks", [C_NOHZ_REPORTS] = "nohz_qs_reports",
};

/*
 * The kernel's word size from its machine name (/proc/sys/kernel/arch, as
 * uname -m prints it): 64 for names with "64" in them and s390x, 32 for
 * any other; this program's own when the file is missing.
 */
static unsigned int kernel_bits(const struct rcuqs_ctx *ctx)
{
	char arch[64];

	if (read_text(ctx, "/proc/sys/kernel/arch", arch, sizeof(arch)) <= 0)
		return sizeof(unsigned long) * 8;
	return strstr(arch, "64") || strcmp(arch, "s390x") == 0 ? 64 : 32;
}

static int open_sampler(const struct rcuqs_ctx *ctx, struct sampler *s, bool counters)
{
	const char *hook = getenv("RCUQS_TEST_SAMPLES");

	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	if (counters && !sysfs_exists(ctx, COUNTERS_DIR)) {
		errmsg("the running kernel lacks the rcuqs counters (no /sys/%s)", COUNTERS_DIR);
		return -ENODEV;
	}
	s->bits = kernel_bits(ctx);
	if (hook && *hook) {
		s->snapshots = fopen(hook, "re");
		if (!s->snapshots) {
			int r = -errno;

			errmsg("RCUQS_TEST_SAMPLES: %s: %s", hook, errstr(r));
			return r;
		}
	}
	return 0;
}

int sampler_open(const struct rcuqs_ctx *ctx, struct sampler *s)
{
	return open_sampler(ctx, s, true);
}

int sampler_open_stock(const struct rcuqs_ctx *ctx, struct sampler *s)
{
	return open_sampler(ctx, s, false);
}

void sampler_close(struct sampler *s)
{
	if (s->snapshots)
		fclose(s->snapshots);
	s->snapshots = NULL;
}

static int parse_counter(const char *text, unsigned long long *v)
{
	char *end;

	if (text[0] < '0' || text[0] > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(text, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

/* One line "name=value ..." of the test hook's file; blank and # lines skipped. */
static int snapshot_read(struct sampler *s, struct sample *out)
{
	char line[512];

	for (;;) {
		char *p, *save = NULL;

		if (!fgets(line, sizeof(line), s->snapshots))
			return -ENODATA;
		s->line++;
		p = line + strspn(line, " \t");
		if (*p == '#' || *p == '\n' || *p == '\0')
			continue;
		for (char *w = strtok_r(p, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
			char *eq = strchr(w, '=');
			size_t i;

			/* The per-CPU files, as paths below the root. */
			if (eq && eq[1] == '/' && strlen(eq + 1) < sizeof(out->stat) &&
			    (strncmp(w, "stat=", 5) == 0 || strncmp(w, "softirqs=", 9) == 0 ||
			     strncmp(w, "interrupts=", 11) == 0)) {
				strcpy(w[0] == 'i' ? out->interrupts : w[1] == 't' ? out->stat :
				       out->softirqs, eq + 1);
				continue;
			}
			for (i = 0; i < N_COUNTERS; i++)
				if (eq && strncmp(w, counter_names[i], (size_t)(eq - w)) == 0 &&
				    counter_names[i][eq - w] == '\0')
					break;
			if (i == N_COUNTERS || parse_counter(eq + 1, &out->v[i]) < 0) {
				errmsg("RCUQS_TEST_SAMPLES line %u: bad word '%s'", s->line, w);
				return -EINVAL;
			}
			out->have[i] = true;
		}
		return 0;
	}
}

int sampler_read(struct sampler *s, struct sample *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->stat, sizeof(out->stat), "/proc/stat");
	snprintf(out->softirqs, sizeof(out->softirqs), "%s", SOFTIRQS_FILE);
	snprintf(out->interrupts, sizeof(out->interrupts), "%s", INTERRUPTS_FILE);
	if (s->snapshots)
		return snapshot_read(s, out);
	for (size_t i = 0; i < N_COUNTERS; i++) {
		char rel[64], val[32];

		snprintf(rel, sizeof(rel), "%s/%s", COUNTERS_DIR, counter_names[i]);
		out->have[i] = sysfs_read(s->ctx, rel, val, sizeof(val)) >= 0 &&
			       parse_counter(val, &out->v[i]) == 0;
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double sampler_wait(const struct sampler *s, double secs, volatile sig_atomic_t *stop)
{
	double start = now(), left = secs;

	if (s->snapshots)
		return secs;
	/* A signal ends nanosleep() early: then *stop says whether to go on. */
	while (left > 0 && !*stop) {
		struct timespec ts = { .tv_sec = (time_t)left,
				       .tv_nsec = (long)((left - floor(left)) * 1e9) };

		nanosleep(&ts, NULL);
		left = secs - (now() - start);
	}
	return now() - start;
}

int rates_compute(const struct sampler *s, const struct sample *a, const struct sample *b,
		  double secs, struct rates *r)
{
	unsigned long long d[N_COUNTERS] = { 0 };
	int ret = 0;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < N_COUNTERS; i++) {
		if (!a->have[i] || !b->have[i])
			continue;
		if (b->v[i] >= a->v[i]) {
			d[i] = b->v[i] - a->v[i];
		} else if (s->bits == 32 && a->v[i] <= UINT32_MAX) {
			d[i] = (b->v[i] - a->v[i]) & UINT32_MAX;
			fprintf(stderr, "%s: note: %s wrapped at 2^32 (%llu, then %llu)\n", PROGRAM,
				counter_names[i], a->v[i], b->v[i]);
		} else {
			errmsg("%s went backwards (%llu, then %llu): not a wrap on a %u-bit kernel",
			       counter_names[i], a->v[i], b->v[i], s->bits);
			ret = -ERANGE;
			continue;
		}
		r->per_s[i] = (double)d[i] / secs;
		r->have[i] = true;
	}
	if (r->have[C_GP] && r->have[C_CBS] && d[C_GP] > 0) {
		r->cbs_per_gp = (double)d[C_CBS] / (double)d[C_GP];
		r->have_cbs_per_gp = true;
	}
	return ret;
}

int parse_seconds(const char *s, double max, double *out)
{
	char *end;

	if (!s[0] || strspn(s, "0123456789.") != strlen(s))
		return -EINVAL;	/* no sign, blank, exponent, hex, "inf" or "nan" */
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out) || *out < SECONDS_MIN || *out > max)
		return -EINVAL;
	return 0;
}

int parse_count(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno || *end || *out < 1 || *out > max)
		return -EINVAL;
	return 0;
}
