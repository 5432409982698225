# rcuqs profile: throughput. Format: rcuqs.profile(5).
#
# For open/close-heavy servers: let grace periods run longer, so RCU
# callbacks are invoked in larger batches and the slab allocator sees less
# contention.
#
# Where the numbers come from (to be replaced by the benchmark issue's
# measurements on the patched kernel):
# - The 2014 regression report on 3.16 (will-it-scale open1, about 10%):
#   more frequent grace periods meant smaller callback batches; "a large
#   jiffies_till_sched_qs got within 3%" of 3.15.
# - 1000 jiffies is 4 s at Debian's HZ=250 (1 s at HZ=1000), 40 times the
#   computed default of 25. Values are in jiffies, so they depend on HZ.
# - The kernel refuses a jiffies_till_sched_qs of half the RCU stall
#   timeout or more: Debian's rcupdate.rcu_cpu_stall_timeout=21 s is 5250
#   jiffies at HZ=250, so the limit is 2624; 1000 keeps a wide margin.
#   With a stall timeout of 8 s or less (2000 jiffies, a ceiling of 999)
#   the kernel refuses 1000 and rcuqs-ctl restores everything it had
#   written.
# - cond_resched_qs_limit=0: no extra quiescent states from cond_resched().
#
# Trade-off: a CPU looping in the kernel holds a grace period for up to 4 s
# before RCU asks it for a quiescent state, so callbacks (and the memory
# they free) wait longer. Measured (make bench, 2026-12-03, see
# latency.profile for the setting): with a 2.5 s cond_resched() loop on a
# nohz_full CPU, synchronize_rcu() took the whole loop, 2.5 s, against
# p50 221 ms (PREEMPT_NONE) and 300 ms (PREEMPT_DYNAMIC) with default. Its
# gain on open/close-heavy loads is not yet measured on these kernels.
include=default
description=Fewer, larger grace periods for open/close-heavy servers; trades longer callback delays and more memory held by pending callbacks
rcutree.jiffies_till_sched_qs=1000
rcutree.cond_resched_qs_limit=0
