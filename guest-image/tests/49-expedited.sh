# boots: cmdline
# rcuqs(7)'s account of upstream's runtime knob, rcu_expedited, as make
# bench compares it: with a kernel loop on nohz_full CPU 2, expedited
# synchronize_rcu() calls interrupt that CPU (IPIs), where normal ones
# wait for RCU to ask it; normal grace periods, which call_rcu()
# callbacks wait for, get nothing from it.
. "$RCUQS_LIB/lib.sh"

cpu=2
lim=$(param cond_resched_qs_limit)
setp cond_resched_qs_limit 0
declare -A ipi gps
for e in 0 1; do
	setp rcu_expedited $e
	i0=$(ipis $cpu)
	loop ms=1500 cpu=$cpu delay_ns=1000 gp_load=1 gp_cpu=0 gp_gap_us=5000 || continue
	ipi[$e]=$(($(ipis $cpu) - i0)) gps[$e]=$r_gps
	diag "rcu_expedited=$e: $r_gps synchronize_rcu() calls, ${ipi[$e]} IPIs on CPU $cpu, normal grace periods +${d[gp_completed]}"
done
setp rcu_expedited 0
check "rcu_expedited=1: CPU $cpu took an IPI for at least every other expedited synchronize_rcu() (${ipi[1]:-?} for ${gps[1]:-?})" \
	test "${ipi[1]:-0}" -ge $(( ${gps[1]:-2} / 2 ))
check "rcu_expedited=1: more IPIs on CPU $cpu than without (${ipi[1]:-?} > ${ipi[0]:-?})" \
	test "${ipi[1]:-0}" -gt "${ipi[0]:-0}"
setp cond_resched_qs_limit "$lim"
