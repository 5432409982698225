# rcuqs profile: throughput. Format: rcuqs.profile(5).
#
# Let grace periods that CPUs in long kernel loops hold back run up to 4 s
# before RCU asks those CPUs for a quiescent state, so such grace periods
# are fewer and their callback batches larger. Written for the 2014
# open/close regression; the measurements below show it does not help
# open/close loads on these kernels.
#
# Where the numbers come from:
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
# What make bench measured (2026-12-03, rcuqs kernels 6.1.192 under QEMU
# 7.2 TCG, 4 vCPUs, HZ=250, nohz_full=2-3, host 2 CPUs; 5 interleaved
# rounds with default twice as the A/A pair):
# - A 2.5 s cond_resched() loop on a nohz_full CPU: synchronize_rcu() took
#   the whole loop, 2517 ms, against p50 220 / 300 ms with default
#   (PREEMPT_NONE / PREEMPT_DYNAMIC): where loops end grace periods, they
#   become fewer and longer, as meant.
# - open1 (1, 2, 4 tasks opening and closing their own file): grace
#   periods per second and callbacks per grace period the same as default
#   within the A/A spread on both kernels (4 tasks: 5 vs 6-10 GPs/s and
#   6 vs 7 GPs/s), ops/s too (0.91-1.03 of default, A/A 0.98-1.16).
#   Grace periods there end long before 4 s on their own, so this profile
#   makes no measurable difference to open/close-heavy loads on these
#   kernels. Nor did the FQS delays, the other knob for grace-period
#   length (jiffies_till_first/next_fqs of 10 or 25: within the A/A
#   spread, or slower). Use it where urgent_qs grows with gp_completed
#   (rcuqs(7)), not for open/close loads.
#
# Trade-off: a CPU looping in the kernel holds a grace period for up to 4 s
# before RCU asks it for a quiescent state, so callbacks (and the memory
# they free) wait longer.
include=default
description=Fewer, larger grace periods where kernel loops hold them (RCU asks after 4 s); no measured gain for open/close loads; trades longer callback delays
rcutree.jiffies_till_sched_qs=1000
rcutree.cond_resched_qs_limit=0
