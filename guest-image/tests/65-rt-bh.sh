# boots: rt-bh
# PREEMPT_RT (make check-rt, issue 29 item 7): the limit's report must not
# call local_bh_disable() with preemption disabled. Under RT a
# bottom-half-disabled section is preemptible (a per-CPU local_lock); when
# another task on the CPU was preempted inside one, a local_bh_disable()
# that finds itself non-preemptible skips the lock and trips
# DEBUG_LOCKS_WARN_ON(this_cpu_read(softirq_ctrl.cnt)) in
# __local_bh_disable_ip(), and leaves the task's softirq_disable_cnt wrong.
# rcu_cond_resched_qs() did preempt_disable() then local_bh_disable()
# until v3 of 2/5. The reproducer: a cond_resched_lock() loop (the
# variant RT still runs) with the limit at 1 on CPU 1, beside a kthread
# on CPU 1 that spends its time in local_bh_disable() sections (as a
# threaded interrupt handler does) and gets preempted there, while CPU 0
# runs grace periods back to back. The host (run-guest.sh) fails the boot
# on any WARNING or lockdep splat in the console; this file checks that
# the reproducer did reproduce the situation, and the kernel log.
. "$RCUQS_LIB/lib.sh"
has_limit || { no_limit_skip "the cond_resched() limit under PREEMPT_RT"; exit 0; }
if ! uname -v | grep -q PREEMPT_RT; then
	ok "the limit's report under PREEMPT_RT # SKIP $(uname -r) is not a PREEMPT_RT kernel ($(uname -v))"
	exit 0
fi
ok "PREEMPT_RT kernel: $(uname -v)"
check "lockdep is on (/proc/lockdep)" test -e /proc/lockdep
is "$(param cond_resched_qs_limit)" 1 "the limit is 1 (rcutree.cond_resched_qs_limit=1 on the command line)"
# No rcutree.use_softirq under PREEMPT_RT: rcu_core() always runs in the
# per-CPU rcuc kthreads, which take the bottom-half lock as the report does.
check "rcu_core() runs in the rcuc kthreads (rcuc/1 exists, no rcutree.use_softirq)" \
	bash -c 'grep -qx rcuc/1 /proc/[0-9]*/comm && test ! -e /sys/module/rcutree/parameters/use_softirq'

MS=${RCUQS_RT_MS:-8000}
loop ms="$MS" cpu=1 lock=1 gp_load=1 gp_cpu=0 bh_load=1 bh_us=200
diag "bh_load: $r_bhs sections, $r_bhp of them preempted"
between "$r_bhp" 1 999999999 "the bottom-half kthread on CPU 1 was preempted inside local_bh_disable()"
between "${d[limit_qs]}" 1 999999999 "the cond_resched_lock() loop on CPU 1 reported quiescent states (limit_qs +${d[limit_qs]})"
between "$r_gps" 1 999999999 "grace periods completed meanwhile ($r_gps synchronize_rcu())"
w=$(dmesg | grep -E 'DEBUG_LOCKS_WARN_ON|WARNING:|BUG:|possible recursive locking|inconsistent lock state|suspicious RCU usage' | head -5)
is "$w" "" "no lockdep or WARNING line in the kernel log"
if [ -n "$w" ]; then
	diag "$(dmesg | grep -A 30 -E 'DEBUG_LOCKS_WARN_ON|WARNING:' | head -60)"
fi
check "lockdep still on after the loop (debug_locks=1)" \
	grep -qE '^ *debug_locks: *1$' /proc/lockdep_stats
