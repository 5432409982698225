# rcuqs profile: linux-3.16. Format: rcuqs.profile(5).
#
# Reproduces Linux 3.16's quiescent-state reporting, for regression hunting
# (bisecting a difference between 3.16-era and 6.1 behaviour).
#
# What 3.16 did, and its closest 6.1 equivalent:
# - cond_resched() counted calls per CPU and reported a quiescent state
#   every 256 (ac1bea85781e): cond_resched_qs_limit=256.
# - There was no jiffies_till_sched_qs and no per-CPU "urgent QS" flag; that
#   came with 4a81e8328d37 in 3.17. A holding CPU was only kicked late, near
#   half the stall timeout. 6.1 cannot switch the flag off, so the
#   equivalent is asking as late as the kernel allows: just under half the
#   stall timeout. Debian's rcupdate.rcu_cpu_stall_timeout=21 s is 5250
#   jiffies at HZ=250 (limit 2624), so 2500 jiffies (10 s). Values are in
#   jiffies and depend on HZ; with a shorter stall timeout the kernel refuses
#   2500 and rcuqs-ctl restores everything it had written.
#
# Measured (make bench, 2026-12-03, see latency.profile for the setup): a
# cond_resched() loop on a nohz_full CPU holds grace periods as briefly as
# with latency (p50/p99 16 / 19.5 ms PREEMPT_NONE, 16 / 18.5 ms
# PREEMPT_DYNAMIC). On open1 (1-4 tasks opening and closing files) 2014's
# rise in the grace-period rate showed in some cells of one run (1.38x
# with 2 tasks on PREEMPT_NONE, 2.00x with 4 on PREEMPT_DYNAMIC, callbacks
# per grace period down to match) and in none of an earlier one; ops/s
# stayed within the A/A spread (0.93-1.04 of default, A/A 0.97-1.10). TCG
# models no caches or slab contention, where 2014's 10% came from.
include=default
description=Linux 3.16 behaviour for regression hunting: QS every 256 cond_resched() calls and no early urgent-QS request; trades both profiles' costs for fidelity
rcutree.cond_resched_qs_limit=256
rcutree.jiffies_till_sched_qs=2500
