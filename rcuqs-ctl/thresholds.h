/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The counter-rate thresholds recommend decides by: the one copy.
 * rcuqs(7) RECOMMENDATION THRESHOLDS lists the same names and values, and
 * man/tests/check-man.sh compares the two.
 */
#ifndef RCUQS_THRESHOLDS_H
#define RCUQS_THRESHOLDS_H

enum {
	T_URGENT_NONPREEMPT,	/* urgent_qs/s: loops hold GPs back, non-preemptible RCU */
	T_URGENT_PREEMPT,	/* the same on preemptible RCU */
	T_LIMIT_STILL,		/* limit_qs/s below this: the limit is not reporting */
	T_LIMIT_ACTING,		/* limit_qs/s from this on: the limit reports */
	T_GP_BUSY,		/* gp/s from this on: grace periods end on their own */
	T_NOHZ_SYSTEM,		/* stock kernel: % of a nohz_full CPU's time in the kernel */
	N_THRESHOLDS
};

struct threshold {
	const char *name;
	double value;
	const char *unit;	/* "/s", "%" */
	const char *bench;	/* the make bench figure behind the value */
};

extern const struct threshold thresholds[N_THRESHOLDS];

#endif
