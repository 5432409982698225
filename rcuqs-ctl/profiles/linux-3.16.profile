# rcuqs profile: linux-3.16. Format: rcuqs.profile(5).
#
# A fixture for regression hunting: as close to Linux 3.16's
# quiescent-state reporting as 6.1 allows, to see whether a slowdown or a
# stall depends on the 3.16 counter (bisecting a difference between
# 3.16-era and 6.1 behaviour). It is not a tuning recommendation.
#
# What it reproduces, and what it cannot:
# - Reproduced: cond_resched() counts calls per CPU and reports a quiescent
#   state every 256 (ac1bea85781e): cond_resched_qs_limit=256.
# - Not reproduced: 3.16 had no jiffies_till_sched_qs and no per-CPU
#   "urgent QS" flag; both came with 4a81e8328d37 in 3.17, and 6.1 cannot
#   switch the flag off. This profile only makes RCU ask as late as the
#   kernel allows, just under half the stall timeout: Debian's
#   rcupdate.rcu_cpu_stall_timeout=21 s is 5250 jiffies at HZ=250 (limit
#   2624), so 2500 jiffies (10 s). A loop that calls cond_resched() is
#   never asked, because the counter reports first; one that does not
#   (or callback overload, rcutree.qovld, which sets the flag at any
#   grace-period age) still meets 6.1's request, heavy quiescent states
#   and resched kicks, which 3.16 did not have. Values are in jiffies and
#   depend on HZ; with a shorter stall timeout the kernel refuses 2500 and
#   rcuqs-ctl restores everything it had written.
#
# Measured (make bench, 2026-12-03 21:46 UTC; the setup and every figure:
# doc/bench-figures in the rcuqs sources): a cond_resched() loop on a
# nohz_full CPU holds grace periods as briefly as with latency (p50/p99
# 16 / 19.5 ms PREEMPT_NONE, 16 / 18.5 ms PREEMPT_DYNAMIC). On open1 (1-4
# tasks opening and closing files) 2014's rise in the grace-period rate
# showed in some cells (1.38x with 2 tasks on PREEMPT_NONE, 2.00x with 4
# on PREEMPT_DYNAMIC, callbacks per grace period down to match); ops/s
# stayed within the A/A spread (0.93-1.04 of default, A/A 0.97-1.10). TCG
# models no caches or slab contention, where 2014's 10% came from.
#
# The counter comes from the latency profile, included: its line
# "rcutree.jiffies_till_nohz_qs=1 || rcutree.cond_resched_qs_limit=256"
# sets the limit of 256 on 6.1 and 6.12. 7.3 has no cond_resched() to
# count in, so 3.16's counter cannot be reproduced there; the same line
# sets 7.3's nearest effect, RCU asking a looping nohz_full CPU directly
# (rcutree.jiffies_till_nohz_qs), and this fixture is then only "latency
# with the urgent-QS request delayed".
include=latency
description=Regression-hunting fixture: 3.16's QS every 256 cond_resched() calls (from latency), with 6.1's urgent-QS request delayed to 10 s (6.1 cannot remove it); not a tuning recommendation
rcutree.jiffies_till_sched_qs=2500
