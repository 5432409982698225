// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Thresholds of recommend. One entry a line, "{ NAME, VALUE, UNIT,": the
 * man page check reads them from here. The figures are make bench's: a
 * CPU-bound cond_resched() loop on a nohz_full CPU and the open1 load, 4
 * CPUs, HZ=250 (rcuqs(7) CONFIRMING THE EFFECT); every figure in the
 * bench strings is one of doc/bench-figures, which the man check compares.
 * urgent_qs has one threshold per RCU flavour: the same loop drew 46
 * requests/s on non-preemptible RCU and 6/s on preemptible RCU (Debian's
 * kernels), for grace periods held back as long; recommend picks the
 * flavour it detects (the preemptible one when it cannot tell). On
 * preemptible RCU the FQS scan asks once per held-back grace period, and
 * default holds each back about a third of a second: the preemptible
 * threshold sits well under that rate, so that a guest slowed by a busy
 * host still crosses it. The /s rates are machine-wide and not scaled by
 * the CPU count: urgent_qs and limit_qs come only from CPUs a grace period
 * still waits for, so one looping CPU crosses them on any machine size
 * (rcuqs(7) RECOMMENDATION THRESHOLDS). nohz_system_busy is the stock kernel's: the share
 * of a nohz_full CPU's time spent in the kernel (/proc/stat's system),
 * "most of its time", above which a loop there is the seeds' case; it
 * has no make bench figure of its own.
 */
#include "thresholds.h"

const struct threshold thresholds[N_THRESHOLDS] = {
	[T_URGENT_NONPREEMPT] = { "urgent_qs_nonpreempt", 20, "/s",
		"loop on a nohz_full CPU, non-preemptible RCU: 46/s under default, 0/s under latency" },
	[T_URGENT_PREEMPT] = { "urgent_qs_preempt", 1.5, "/s",
		"loop on a nohz_full CPU, PREEMPT_DYNAMIC: 6/s under default, 0/s under latency" },
	[T_LIMIT_STILL] = { "limit_qs_still", 1, "/s",
		"0/s whenever rcutree.cond_resched_qs_limit is 0" },
	[T_LIMIT_ACTING] = { "limit_qs_acting", 100, "/s",
		"loop on a nohz_full CPU under latency: 52000/s non-preemptible, 64000/s preemptible" },
	[T_GP_BUSY] = { "gp_busy", 5, "/s",
		"open1, 1 to 4 tasks: 5 to 23 grace periods/s, 7000 to 20000 callbacks each "
		"with nohz_full CPUs, 8 to 15/s, 5600 to 9600 each without (default, 6.1 PREEMPT_NONE); "
		"latency raised it to 33/s (65/s on PREEMPT_DYNAMIC) with every CPU busy, throughput unchanged" },
	[T_NOHZ_SYSTEM] = { "nohz_system_busy", 50, "%",
		"a stock kernel's nohz_full CPU in the kernel most of the time: the case the limit and jiffies_till_nohz_qs are for" },
};
