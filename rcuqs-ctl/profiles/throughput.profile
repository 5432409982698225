# rcuqs profile: throughput. Format: rcuqs.profile(5).
#
# What it does: RCU waits 4 s (1000 jiffies at HZ=250) instead of the
# computed 100 ms before it asks a CPU that holds a grace period back for
# a quiescent state. Grace periods that kernel loops hold back become
# fewer and longer, with larger callback batches. Grace periods that end
# on their own, because every CPU passes a context switch, user mode, idle
# or a tick within 100 ms, do not change at all.
#
# What it does not do: make anything measurably faster. The name comes
# from the 2014 open/close regression, where "a large jiffies_till_sched_qs
# got within 3%" of 3.15 (LWN's report of the discussion, rcuqs(7)); on
# these kernels no gain was measured, and the harm was (rcuqs(7), CHOOSING
# A PROFILE). It is shipped as the example of the other side of the
# trade, for comparisons (A B B A, rcuqs(7) EXAMPLES), not as a
# recommendation for file servers or any other load.
#
# Measured (make bench, 2026-12-03 21:46 UTC; the setup and every figure:
# doc/bench-figures in the rcuqs sources):
# - A 2.5 s cond_resched() loop on a nohz_full CPU: synchronize_rcu() took
#   the whole loop, 2518 ms (PREEMPT_NONE) and 2520 ms (PREEMPT_DYNAMIC),
#   against p50 212 and 300 ms with default: the loop holds every grace
#   period for its whole length.
# - open1 (1, 2 and 4 tasks opening and closing their own file): no
#   profile moved ops/s beyond the spread of default against itself (A/A
#   0.97-1.10). Grace periods there end long before 4 s on their own.
#
# Values:
# - 1000 jiffies is 4 s at Debian's HZ=250 (1 s at HZ=1000), 40 times the
#   computed default of 25. Values are in jiffies, so they depend on HZ.
# - The kernel refuses a jiffies_till_sched_qs of half the RCU stall
#   timeout or more: Debian's rcupdate.rcu_cpu_stall_timeout=21 s is 5250
#   jiffies at HZ=250, so the limit is 2624; 1000 keeps a wide margin.
#   With a stall timeout of 8 s or less (2000 jiffies, a ceiling of 999)
#   the kernel refuses 1000 and rcuqs-ctl restores everything it had
#   written.
# - cond_resched_qs_limit=0: no extra quiescent states from cond_resched();
#   on 7.3, which has no limit, jiffies_till_nohz_qs=0: RCU asks a looping
#   nohz_full CPU no earlier than jiffies_till_sched_qs says.
#
# Cost: a CPU looping in the kernel holds a grace period for up to 4 s
# before RCU asks it for a quiescent state, so synchronize_rcu() callers,
# callbacks and the memory they free wait that long.
include=default
description=Fewer, longer grace periods where kernel loops hold them (RCU asks after 4 s); no throughput gain measured; such loops then hold grace periods up to 4 s
rcutree.jiffies_till_sched_qs=1000
rcutree.jiffies_till_nohz_qs=0 || rcutree.cond_resched_qs_limit=0
