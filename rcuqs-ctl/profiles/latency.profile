# rcuqs profile: latency. Format: rcuqs.profile(5).
#
# Grace periods stay short even when nohz_full CPUs run long loops in the
# kernel: cond_resched() reports a quiescent state every 256 calls, without
# waiting for RCU to ask.
#
# Measured (make bench, 2026-12-03 21:46 UTC, rcuqs kernels 6.1.192 under
# QEMU 7.2 TCG, 4 vCPUs, HZ=250, nohz_full=2-3, host 2 CPUs; synchronize_rcu()
# timed from CPU 0 every 5 ms while CPU 2 runs ndelay(1000); cond_resched();
# medians of 5 runs of 2.5 s, interleaved with the other settings; every
# figure here: doc/bench-figures in the rcuqs sources):
#   PREEMPT_NONE:    default p50 212 ms, p99 338 ms; latency 16 / 18.6 ms
#   PREEMPT_DYNAMIC: default p50 300 ms, p99 788 ms; latency 16 / 19.3 ms
#   no loop at all (the emulator's floor): 16 / 19.5 and 16 / 20.1 ms
#   upstream's best boot setting, jiffies_till_sched_qs=1: 32 / 48 ms and
#   36 / 60 ms
# With this profile a looping nohz_full CPU holds grace periods no longer
# than an idle system does, and no stall warning appeared. Counters per
# second during the loop: urgent_qs 46 (PREEMPT_NONE) and 6 (DYNAMIC)
# with default, 0 with latency, while limit_qs grows by 52000 and 64000.
# Lowering jiffies_till_sched_qs as well did not help (256 plus
# jiffies_till_sched_qs=1: 16 / 18.2 and 16 / 19.9 ms), so it stays
# computed (auto, from default). On a CPU that keeps its tick it helps too
# (PREEMPT_NONE p50/p99 120 / 208 -> 16 / 18 ms; PREEMPT_DYNAMIC, whose
# tick already reports, 16 / 32-48 -> 16 / 17).
# Where 256 comes from: the limit of commit ac1bea85781e ("sched,rcu: Make
# cond_resched() report RCU quiescent states", 3.16).
# The price, per call: every cond_resched() counts down a per-CPU counter
# while the limit is on (make bench-cost, same day). Run natively on the
# host's AMD EPYC, the kernels' own code takes 0.34 ns (PREEMPT_NONE) and
# 0.89 ns (PREEMPT_DYNAMIC) more per bare call, 1.11x and 1.62x a call
# that has nothing else to do; with real work between calls the share
# shrinks (rcuqs(7), CHOOSING A PROFILE). The limit off costs nothing measurable
# (limit 0 against a kernel without the series: 0.996, A/A 1.003).
# The price, per grace period: on open1 (1-4 tasks opening and closing
# files) this profile raised the grace-period rate in some cells (1.38x
# with 2 tasks on PREEMPT_NONE, 2.17x with 4 on PREEMPT_DYNAMIC, with
# callbacks per grace period down to match) and left ops/s within the A/A spread (0.99-1.07 of default, A/A
# 0.97-1.10). 2014's 10% came from cache and slab effects TCG does not model.
#
# On 7.3 (lazy preemption, cond_resched() does nothing on x86) there is
# no limit to set; the series has rcutree.jiffies_till_nohz_qs instead:
# once a grace period has waited that many jiffies on a nohz_full CPU
# running in the kernel, RCU asks that CPU for its quiescent state
# directly. The line below sets it where the kernel has it, else the limit
# (rcuqs.profile(5), Alternatives). With 1, a kthread loop on nohz_full CPU 2 in one 7.3 boot (p50 / p99
# ms): 8.1 / 17.3 against 296.1 / 408.4 with the defaults, 25.4 / 44.1 with jiffies_till_sched_qs=1 and 8.1 /
# 12.6 with no loop (rcuqs(7)). This line is the one place the value is set (linux-3.16 includes this profile).
#
# nohz_full CPUs are callback-offloaded already (as if in rcu_nocbs); add
# rcu_nocbs (boot only, it names CPUs) in a local profile with include=latency
# only for isolated CPUs that are not nohz_full, and not beside tuned's
# cpu-partitioning, whose own rcu_nocbs= the later one would replace. Placing
# the rcuo kthreads and tuned's cpu-partitioning: rcuqs(7), CPU PARTITIONING.
include=default
description=Short RCU grace periods (not application latency) with long kernel loops on nohz_full CPUs (QS every 256 cond_resched() calls; on 7.3, RCU asks the CPU after 1 jiffy); costs: more grace periods, smaller callback batches and more RCU softirqs (6.1, every CPU busy: 3.7x the grace periods, 10x the softirqs), on 7.3 an interrupt to the looping nohz_full CPU per ask (62/s in the measured loop), and an IPI to every CPU when the limit is switched on or off
rcutree.jiffies_till_nohz_qs=1 || rcutree.cond_resched_qs_limit=256
