// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tunables rcuqs-ctl knows: command-line name, sysfs file, where the
 * kernel's metadata about it lives, type and accepted range.
 *
 * The ranges are what the kernel accepts (see doc/kernel-interface.md and kernel/rcu/);
 * the fqs limits use HZ's largest value since the tool cannot know HZ, and
 * the kernel clamps to HZ itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tunables.h"

const struct tunable tunables[N_TUNABLES] = {
	{
		.name = "rcutree.jiffies_till_sched_qs",
		.sysfs = "module/rcutree/parameters/jiffies_till_sched_qs",
		.kmod = "tree", .param = "jiffies_till_sched_qs",
		.type = TT_AUTO_ULONG, .min = 1, .max = ULONG_MAX - 1,
		.unit = "jiffies",
		.range = "auto, or 1..ULONG_MAX-1 (kernel: < stall timeout/2)",
		.dflt = "auto",
	},
	{
		.name = "rcutree.cond_resched_qs_limit",
		.sysfs = "module/rcutree/parameters/cond_resched_qs_limit",
		.kmod = "tree", .param = "cond_resched_qs_limit",
		.type = TT_ULONG, .min = 0, .max = 1048576,
		.unit = "calls", .range = "0..1048576 (0 = off)", .dflt = "0",
	},
	{
		/* 7.3's series: ask a looping nohz_full CPU directly, from age N. */
		.name = "rcutree.jiffies_till_nohz_qs",
		.sysfs = "module/rcutree/parameters/jiffies_till_nohz_qs",
		.kmod = "tree", .param = "jiffies_till_nohz_qs",
		.type = TT_ULONG, .min = 0, .max = ULONG_MAX - 1,
		.unit = "jiffies",
		.range = "0..ULONG_MAX-1 (0 = off; kernel: < stall timeout/2)", .dflt = "0",
	},
	{
		.name = "rcutree.jiffies_till_first_fqs",
		.sysfs = "module/rcutree/parameters/jiffies_till_first_fqs",
		.kmod = "tree", .param = "jiffies_till_first_fqs",
		.type = TT_ULONG, .min = 0, .max = 1000,
		.unit = "jiffies", .range = "0..HZ (kernel clamps)",
	},
	{
		.name = "rcutree.jiffies_till_next_fqs",
		.sysfs = "module/rcutree/parameters/jiffies_till_next_fqs",
		.kmod = "tree", .param = "jiffies_till_next_fqs",
		.type = TT_ULONG, .min = 1, .max = 1000,
		.unit = "jiffies", .range = "1..HZ (kernel clamps)",
	},
	{
		.name = "rcupdate.rcu_cpu_stall_timeout",
		.sysfs = "module/rcupdate/parameters/rcu_cpu_stall_timeout",
		.kmod = "update", .param = "rcu_cpu_stall_timeout",
		.type = TT_ULONG, .min = 3, .max = 300,
		.unit = "seconds", .range = "3..300",
	},
	{
		.name = "rcutree.kthread_prio",
		.sysfs = NULL,
		.kmod = "tree", .param = "kthread_prio",
		.type = TT_ULONG, .min = 0, .max = 99,
		.unit = "priority", .range = "0..99",
	},
	{
		.name = "rcu_nocbs",
		.sysfs = NULL,
		.kmod = NULL, .param = "rcu_nocbs",	/* __setup(): no metadata */
		.type = TT_CPULIST, .min = 0, .max = 8191,
		.unit = "cpulist", .range = "all, or a CPU list such as 1-3,5",
	},
};

/* A TT_AUTO_ULONG's "auto" as the kernel spells it without the series. */
static const char auto_ulong_max[] = "18446744073709551615";

const char *tunable_spelling(const struct tunable *t, const char *v)
{
	return t->type == TT_AUTO_ULONG && strcmp(v, auto_ulong_max) == 0 ? "auto" : v;
}

const char *tunable_kernel_auto(const struct tunable *t, const char *v, const char *now)
{
	if (t->type != TT_AUTO_ULONG || strcmp(v, "auto") != 0 || !*now ||
	    strspn(now, "0123456789") != strlen(now))
		return NULL;
	return auto_ulong_max;
}

const struct tunable *tunable_find(const char *name)
{
	for (size_t i = 0; i < N_TUNABLES; i++)
		if (strcmp(tunables[i].name, name) == 0)
			return &tunables[i];
	return NULL;
}

bool tunable_name_unsafe(const char *name)
{
	return name[0] == '\0' || strchr(name, '/') || strstr(name, "..");
}

/*
 * A strict decimal: digits only, no sign, no overflow, and no leading zero:
 * the kernel would read "0256" back as "256" and verify would report a
 * drift that is none (and parsers with base 0 take "010" as 8).
 */
static int parse_decimal(const char *s, const char **end, unsigned long *out)
{
	const char *p = s;
	unsigned long v = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	if (*p == '0' && p[1] >= '0' && p[1] <= '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned long d = (unsigned long)(*p - '0');

		if (v > (ULONG_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*end = p;
	*out = v;
	return 0;
}

long cpulist_each(const char *s, unsigned long max, void (*fn)(unsigned long cpu, void *arg),
		  void *arg)
{
	long n = 0;

	for (;;) {
		unsigned long a, b;
		const char *end;

		if (parse_decimal(s, &end, &a) < 0 || a > max)
			return -EINVAL;
		b = a;
		s = end;
		if (*s == '-') {
			if (parse_decimal(s + 1, &end, &b) < 0 || b > max || b < a)
				return -EINVAL;
			s = end;
		}
		for (unsigned long c = a; fn && c <= b; c++)
			fn(c, arg);
		n += (long)(b - a + 1);
		if (*s == '\0')
			return n;
		if (*s != ',')
			return -EINVAL;
		s++;
	}
}

long cpulist_count(const char *s, unsigned long max)
{
	return cpulist_each(s, max, NULL, NULL);
}

static int check_cpulist(const struct tunable *t, const char *s)
{
	if (strcmp(s, "all") == 0)
		return 0;
	return cpulist_count(s, t->max) < 0 ? -EINVAL : 0;
}

int tunable_check(const struct tunable *t, const char *value)
{
	unsigned long v;
	const char *end;

	switch (t->type) {
	case TT_CPULIST:
		return check_cpulist(t, value);
	case TT_AUTO_ULONG:
		if (strcmp(value, "auto") == 0)
			return 0;
		/* fall through */
	case TT_ULONG:
		if (parse_decimal(value, &end, &v) < 0 || *end != '\0')
			return -EINVAL;
		return v >= t->min && v <= t->max ? 0 : -EINVAL;
	}
	return -EINVAL;
}
