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

/*
 * The header line of /proc/softirqs or /proc/interrupts at buf, "CPU0
 * CPU1 ...": the CPU of each column into col (CPUSTAT_CPUS entries, -1
 * for a word that names none), cut off; the rows after it. NULL when
 * there is no header.
 */
static char *header_columns(char *buf, long *col, size_t *ncol)
{
	char *save = NULL, *nl = strchr(buf, '\n');

	*ncol = 0;
	if (!nl)
		return NULL;
	*nl++ = '\0';
	for (char *w = strtok_r(buf, " \t", &save); w && *ncol < CPUSTAT_CPUS;
	     w = strtok_r(NULL, " \t", &save)) {
		size_t len;
		long cpu = cpu_word(w, "CPU", &len);

		col[(*ncol)++] = w[len] == '\0' ? cpu : -1;
	}
	return nl;
}

static void parse_softirqs(char *buf, struct cpustat *c)
{
	long *col = calloc(CPUSTAT_CPUS, sizeof(*col));
	size_t ncol = 0;
	char *line, *nl;

	if (!col || !(nl = header_columns(buf, col, &ncol))) {
		free(col);
		return;
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

/*
 * The rows of a /proc/interrupts or /proc/softirqs at buf ("NAME: n0 n1
 * ... [description]"): fn with each row's name and its count in the
 * column of cpu. A row with fewer counts (ERR, MIS: one for the whole
 * machine) is left out. -ENOENT when no column is cpu's.
 */
static int column_rows(char *buf, long cpu, void (*fn)(const char *name,
		       unsigned long long v, void *arg), void *arg)
{
	long *col = calloc(CPUSTAT_CPUS, sizeof(*col));
	size_t ncol = 0, want = 0;
	char *line, *nl;

	if (!col)
		return -ENOMEM;
	nl = header_columns(buf, col, &ncol);
	while (want < ncol && col[want] != cpu)
		want++;
	free(col);
	if (!nl || want == ncol)
		return -ENOENT;
	for (line = nl; line && *line; line = nl) {
		unsigned long long v = 0;
		char *colon;
		const char *p;
		size_t i;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		line += strspn(line, " \t");
		if (!(colon = strchr(line, ':')))
			continue;
		*colon = '\0';
		for (p = colon + 1, i = 0; i <= want && number(&p, &v); i++)
			;
		if (i > want)
			fn(line, v, arg);
	}
	return 0;
}

static void irq_row(const char *name, unsigned long long v, void *arg)
{
	struct cpu_irqs *q = arg;

	if (strcmp(name, "ERR") == 0 || strcmp(name, "MIS") == 0)
		return;	/* the machine's, not CPU 0's: one count in its first column */
	q->irqs += v;
	if (strcmp(name, "RES") == 0)
		q->res = v;
	else if (strcmp(name, "CAL") == 0)
		q->cal = v;
	else if (strcmp(name, "LOC") == 0)
		q->loc = v;
}

static void softirq_row(const char *name, unsigned long long v, void *arg)
{
	struct cpu_irqs *q = arg;

	q->softirqs += v;
	if (strcmp(name, "RCU") == 0)
		q->rcu = v;
}

int cpustat_irqs_parse(char *interrupts, char *softirqs, long cpu, struct cpu_irqs *out)
{
	struct cpu_irqs irqs = { 0 }, soft = { 0 };
	int r = 0;

	memset(out, 0, sizeof(*out));
	if (interrupts && (r = column_rows(interrupts, cpu, irq_row, &irqs)) == 0) {
		out->irqs = irqs.irqs;
		out->res = irqs.res;
		out->cal = irqs.cal;
		out->loc = irqs.loc;
		out->have_irqs = true;
	}
	if (r == -ENOMEM)
		return r;
	if (softirqs && (r = column_rows(softirqs, cpu, softirq_row, &soft)) == 0) {
		out->softirqs = soft.softirqs;
		out->rcu = soft.rcu;
		out->have_softirqs = true;
	}
	return r == -ENOMEM ? r : 0;
}

int cpustat_irqs(const struct rcuqs_ctx *ctx, const char *interrupts, const char *softirqs,
		 long cpu, struct cpu_irqs *out)
{
	char *irqs = malloc(STAT_MAX), *soft = malloc(STAT_MAX);
	int r = -ENOMEM;

	if (irqs && soft) {
		bool hi = read_file(ctx, interrupts, irqs, STAT_MAX, NULL) >= 0;
		bool hs = read_file(ctx, softirqs, soft, STAT_MAX, NULL) >= 0;

		r = cpustat_irqs_parse(hi ? irqs : NULL, hs ? soft : NULL, cpu, out);
	}
	free(irqs);
	free(soft);
	return r;
}
