# rcuqs profile: latency. Format: rcuqs.profile(5).
#
# Grace periods stay short even when nohz_full CPUs run long loops in the
# kernel: cond_resched() reports a quiescent state every 256 calls, without
# waiting for RCU to ask.
#
# Measured (make bench, 2026-12-03, rcuqs kernels 6.1.192 under QEMU 7.2
# TCG, 4 vCPUs, HZ=250, nohz_full=2-3, host 2 CPUs; synchronize_rcu()
# timed from CPU 0 every 5 ms while CPU 2 runs ndelay(1000); cond_resched();
# medians of 5 runs of 2.5 s, interleaved with the other settings):
#   PREEMPT_NONE:    default p50 220 ms, p99 328 ms; latency 16 / 16.9 ms
#   PREEMPT_DYNAMIC: default p50 300 ms, p99 612 ms; latency 16 / 24.3 ms
#   no loop at all (the emulator's floor): 16 / 16.4 and 16 / 16.9 ms
#   upstream's best boot setting, jiffies_till_sched_qs=1: 32 / 49 ms and
#   36 / 80 ms
# With this profile a looping nohz_full CPU holds grace periods no longer
# than an idle system does, and no stall warning appeared. Counters per
# second during the loop: urgent_qs 47 (PREEMPT_NONE) and 6 (DYNAMIC)
# with default, 0 with latency, while limit_qs grows by about 45000.
# Lowering jiffies_till_sched_qs as well did not help (256 plus
# jiffies_till_sched_qs=1: 16 / 16.8 and 16 / 20.1 ms), so it stays
# computed (auto, from default). On a CPU that keeps its tick it helps too
# (PREEMPT_NONE p50/p99 120 / 216 -> 16 / 19 ms; PREEMPT_DYNAMIC, whose
# tick already reports, 16 / 32 -> 16 / 19).
# Where 256 comes from: the limit of commit ac1bea85781e ("sched,rcu: Make
# cond_resched() report RCU quiescent states", 3.16).
# The price: each cond_resched() call costs more with the limit on (a
# tight loop of bare calls under TCG: 1.42x and 1.77x the ps per call of
# limit 0: 14 and 23 ns more a call, about 1.4% and 2.3% of a loop doing
# 1 us of work per call; an inline per-CPU countdown would shrink it). The limit off
# costs nothing measurable (limit 0 against a kernel without the series:
# 0.998, A/A 0.991). On open1 the profile changed neither the grace-period
# rate nor ops/s beyond the A/A spread here (2014's 10% came from cache
# and slab effects that TCG does not model).
#
# Boot-only parameters belong with this profile on nohz_full machines but
# name CPUs, so none is shipped: for example an /etc/rcuqs/profiles/
# latency-nohz.profile with "include=latency" and "rcu_nocbs=1-7" to offload
# callbacks from the nohz_full CPUs (rcu_nocbs goes to the boot form only).
include=default
description=Short grace periods even with long kernel loops on nohz_full CPUs (QS every 256 cond_resched() calls); trades more grace periods and smaller callback batches
rcutree.cond_resched_qs_limit=256
