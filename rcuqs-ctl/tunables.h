/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_TUNABLES_H
#define RCUQS_TUNABLES_H

#include <stdbool.h>
#include <stddef.h>

enum tunable_type {
	TT_AUTO_ULONG,	/* "auto" or a decimal in [min, max] */
	TT_ULONG,	/* a decimal in [min, max] */
	TT_CPULIST,	/* "all" or N[-M][,N[-M]...] */
};

/*
 * A tunable rcuqs-ctl knows. No descriptions here: those come from the
 * kernel's own metadata (kmeta.c).
 */
struct tunable {
	const char *name;	/* kernel command-line name */
	const char *sysfs;	/* path below /sys, NULL when boot-only */
	const char *kmod;	/* KBUILD_MODNAME owning its metadata, or NULL */
	const char *param;	/* its name inside that metadata */
	enum tunable_type type;
	unsigned long min, max;
	const char *unit;	/* shown as the type */
	const char *range;	/* for humans and error messages */
	/*
	 * The kernel's own default, left out of the boot form: it would only
	 * restate it, and a kernel without the rcuqs patches would choke on
	 * it. NULL where the default depends on the kernel's configuration.
	 */
	const char *dflt;
};

#define N_TUNABLES 8
extern const struct tunable tunables[N_TUNABLES];

/*
 * What every rcuqs series creates, on every baseline: its counters'
 * directory. Its presence means the kernel has the rcuqs patches; which
 * knobs it has is told by their own files (here.c).
 */
#define RCUQS_MARKER "kernel/rcu_qs"

static inline bool tunable_runtime(const struct tunable *t)
{
	return t->sysfs != NULL;
}

static inline size_t tunable_index(const struct tunable *t)
{
	return (size_t)(t - tunables);
}

/*
 * A value as a profile spells it: a kernel without the rcuqs patches shows
 * jiffies_till_sched_qs's "auto" as the ULONG_MAX it stands for.
 */
const char *tunable_spelling(const struct tunable *t, const char *v);
/*
 * What to write for V when the kernel refused it: ULONG_MAX for "auto"
 * where the parameter reads as a number (NOW), as an unpatched
 * jiffies_till_sched_qs made writable does (the RFC's 1/3), since it
 * means "calculate it" there; NULL when there is nothing else to try.
 */
const char *tunable_kernel_auto(const struct tunable *t, const char *v, const char *now);
/* Lookup by exact name; NULL when unknown. */
const struct tunable *tunable_find(const char *name);
/* A name that must be refused outright: contains '/', "..", or is empty. */
bool tunable_name_unsafe(const char *name);
/* 0 when value is valid for t, else -EINVAL (caller says what is wrong). */
int tunable_check(const struct tunable *t, const char *value);

/*
 * The CPUs in a list as the kernel prints and takes one ("1-3,5": 4), each
 * at most max (CPUs counted twice if listed twice); -EINVAL if it is not
 * such a list.
 */
long cpulist_count(const char *s, unsigned long max);
/*
 * The same walk, calling fn for each CPU in the list's order; fn may be
 * NULL. A list that turns out bad (-EINVAL) may have called fn already.
 */
long cpulist_each(const char *s, unsigned long max, void (*fn)(unsigned long cpu, void *arg),
		  void *arg);

#endif
