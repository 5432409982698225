# boots: main
# The limit's reports are RCU quiescent states, not Tasks RCU ones: a
# kthread looping on cond_resched() neither sleeps nor enters user space,
# so a synchronize_rcu_tasks() that starts during the loop must wait for
# the loop's end, whatever the limit (only a real voluntary context
# switch, or cond_resched_tasks_rcu_qs(), is a Tasks RCU quiescent state;
# a cond_resched() that reschedules is a preemption for Tasks RCU).
. "$RCUQS_LIB/lib.sh"

cpu=1
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] && cpu=0
lim=$(param cond_resched_qs_limit)
for n in 0 1 256; do
	setp cond_resched_qs_limit $n
	loop ms=3000 cpu=$cpu gp_load=1 gp_tasks=1 || continue
	check "limit $n: synchronize_rcu_tasks() was called during the 3 s loop (${r_gps:-0} times)" \
		test "${r_gps:-0}" -ge 1
	is "${r_gpin:-missing}" 0 \
		"limit $n: no synchronize_rcu_tasks() started during the cond_resched() loop returned before its end"
done
setp cond_resched_qs_limit "$lim"
