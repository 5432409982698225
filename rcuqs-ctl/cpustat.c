// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/stat's "cpuN user nice system idle iowait irq softirq steal ..."
 * lines (USER_HZ ticks; guest time is counted in user already) and
 * /proc/softirqs' RCU row, one column a CPU under a "CPU0 CPU1 ..."
 * header. A line or column that is not of that form is skipped: what it
 * would have said reads as missing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpustat.h"
#include "util.h"

#define STAT_MAX (4 << 20)	/* /proc/stat of 8192 CPUs with their intr line */

/* A decimal count at *s, no sign; advances *s. */
static bool number(const char **s, unsigned long long *v)
{
	const char *p = *s + strspn(*s, " \t");
	char *end;

	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	*v = strtoull(p, &end, 10);
	if (errno || (*end && *end != ' ' && *end != '\t' && *end != '\n'))
		return false;
	*s = end;
	return true;
}

/* "cpuN" at s: N, or -1. */
static long cpu_word(const char *s, const char *prefix, size_t *len)
{
	size_t n = strlen(prefix), d;
	long cpu = 0;

	if (strncmp(s, prefix, n) != 0)
		return -1;
	d = strspn(s + n, "0123456789");
	if (d == 0 || d > 4)
		return -1;
	for (size_t i = 0; i < d; i++)
		cpu = cpu * 10 + (s[n + i] - '0');
	*len = n + d;
	return cpu < CPUSTAT_CPUS ? cpu : -1;
}

static void parse_stat(char *buf, struct cpustat *c)
{
	for (char *line = buf, *nl; line && *line; line = nl) {
		unsigned long long v[8] = { 0 };
		const char *p;
		size_t len;
		long cpu;
		int n = 0;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		cpu = cpu_word(line, "cpu", &len);
		if (cpu < 0 || (line[len] != ' ' && line[len] != '\t'))
			continue;
		for (p = line + len; n < 8 && number(&p, &v[n]); n++)
			;
		if (n < 4)
			continue;	/* user nice system idle at the least */
		c->cpu[cpu].system = v[2];
		c->cpu[cpu].total = 0;
		for (int i = 0; i < n; i++)
			c->cpu[cpu].total += v[i];
		c->cpu[cpu].have_time = true;
	}
}

static void parse_softirqs(char *buf, struct cpustat *c)
{
	long *col = NULL;
	size_t ncol = 0;
	char *save = NULL, *line, *nl = buf;

	/* The header: the CPU of each column. */
	line = nl;
	if (!line || !(nl = strchr(line, '\n')))
		return;
	*nl++ = '\0';
	col = calloc(CPUSTAT_CPUS, sizeof(*col));
	if (!col)
		return;
	for (char *w = strtok_r(line, " \t", &save); w && ncol < CPUSTAT_CPUS;
	     w = strtok_r(NULL, " \t", &save)) {
		size_t len;
		long cpu = cpu_word(w, "CPU", &len);

		col[ncol++] = w[len] == '\0' ? cpu : -1;
	}
	for (line = nl; line && *line; line = nl) {
		const char *p;
		size_t i;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		p = line + strspn(line, " \t");
		if (strncmp(p, "RCU:", 4) != 0)
			continue;
		p += 4;
		c->rcu_all = 0;
		for (i = 0; i < ncol; i++) {
			unsigned long long v;

			if (!number(&p, &v))
				break;
			c->rcu_all += v;
			if (col[i] >= 0) {
				c->cpu[col[i]].rcu = v;
				c->cpu[col[i]].have_rcu = true;
			}
		}
		c->have_rcu_all = i == ncol && ncol > 0;
		break;
	}
	free(col);
}

int cpustat_read(const struct rcuqs_ctx *ctx, const char *stat, const char *softirqs,
		 struct cpustat *out)
{
	char *buf;
	int r;

	memset(out, 0, sizeof(*out));
	out->cpu = calloc(CPUSTAT_CPUS, sizeof(*out->cpu));
	buf = malloc(STAT_MAX);
	if (!out->cpu || !buf) {
		free(buf);
		cpustat_free(out);
		return -ENOMEM;
	}
	r = read_file(ctx, stat, buf, STAT_MAX, NULL);
	if (r < 0) {
		free(buf);
		cpustat_free(out);
		return r;
	}
	parse_stat(buf, out);
	if (read_file(ctx, softirqs, buf, STAT_MAX, NULL) >= 0)
		parse_softirqs(buf, out);
	free(buf);
	return 0;
}

void cpustat_free(struct cpustat *c)
{
	free(c->cpu);
	c->cpu = NULL;
}
