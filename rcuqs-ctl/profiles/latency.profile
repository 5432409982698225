# rcuqs profile: latency. Format: rcuqs.profile(5).
#
# Grace periods stay short even when nohz_full CPUs run long loops in the
# kernel: cond_resched() reports a quiescent state every 256 calls, without
# waiting for RCU to ask.
#
# Where the numbers come from (to be replaced by the benchmark issue's
# measurements on the patched kernel):
# - 256 is the limit of commit ac1bea85781e ("sched,rcu: Make
#   cond_resched() report RCU quiescent states", 3.16), which fixed grace
#   periods held back by CPU-bound kernel loops on nohz_full CPUs (for
#   example exit() closing thousands of sockets).
# - The same commit cost about 10% on will-it-scale open1 in 2014: more
#   grace periods, smaller callback batches, slab contention. That is the
#   price of this profile on open/close-heavy loads.
# - jiffies_till_sched_qs stays computed (auto, from default).
#
# Boot-only parameters belong with this profile on nohz_full machines but
# name CPUs, so none is shipped: for example an /etc/rcuqs/profiles/
# latency-nohz.profile with "include=latency" and "rcu_nocbs=1-7" to offload
# callbacks from the nohz_full CPUs (rcu_nocbs goes to the boot form only).
include=default
description=Short grace periods even with long kernel loops on nohz_full CPUs (QS every 256 cond_resched() calls); trades more grace periods and smaller callback batches
rcutree.cond_resched_qs_limit=256
