# rcuqs profile: latency. Format: rcuqs.profile(5).
#
# Grace periods stay short even when nohz_full CPUs run long loops in the
# kernel: cond_resched() reports a quiescent state every 256 calls, without
# waiting for RCU to ask.
#
# Measured (make bench, 2026-12-03, rcuqs kernels 6.1.192 under QEMU TCG,
# 4 vCPUs, HZ=250, nohz_full=2-3; synchronize_rcu() timed from CPU 0 every
# 5 ms while CPU 2 runs ndelay(1000); cond_resched(); medians of 5 runs of
# 2.5 s, interleaved with the other profiles in one boot):
#   PREEMPT_NONE:    default p50 221 ms, p99 389 ms; latency 16 / 21 ms
#   PREEMPT_DYNAMIC: default p50 300 ms, p99 528 ms; latency 16 / 20 ms
#   no loop at all (the emulator's floor): 16 / 20-22 ms
#   upstream's best boot setting, jiffies_till_sched_qs=1: 32 / 48 ms
#   (PREEMPT_NONE), 36 / 110 ms (PREEMPT_DYNAMIC)
# With this profile a looping nohz_full CPU holds grace periods no longer
# than an idle system does. Lowering jiffies_till_sched_qs as well did not
# help on either kernel (256 plus jiffies_till_sched_qs=1: 16 / 23 and
# 16 / 20 ms), so it stays computed (auto, from default). On a CPU that
# keeps its tick the profile helps too (PREEMPT_NONE 120 / 216 ms -> 16 /
# 25 ms; PREEMPT_DYNAMIC, whose tick already reports, 16 / 36 -> 16 / 18).
# Where 256 comes from: the limit of commit ac1bea85781e ("sched,rcu: Make
# cond_resched() report RCU quiescent states", 3.16).
# The price, from the same commit: about 10% on will-it-scale open1 in 2014
# (more grace periods, smaller callback batches, slab contention); not yet
# measured on these kernels.
#
# Boot-only parameters belong with this profile on nohz_full machines but
# name CPUs, so none is shipped: for example an /etc/rcuqs/profiles/
# latency-nohz.profile with "include=latency" and "rcu_nocbs=1-7" to offload
# callbacks from the nohz_full CPUs (rcu_nocbs goes to the boot form only).
include=default
description=Short grace periods even with long kernel loops on nohz_full CPUs (QS every 256 cond_resched() calls); trades more grace periods and smaller callback batches
rcutree.cond_resched_qs_limit=256
