# boots: cmdline
# On a nohz_full CPU (the seeds' setting), a kernel loop that never calls
# cond_resched() holds grace periods back until RCU asks (urgent_qs) and
# then kicks the CPU (resched_kicks); a cond_resched() loop with the limit
# on reports by itself (limit_qs).
. "$RCUQS_LIB/lib.sh"

nohz=$(rd /sys/devices/system/cpu/nohz_full)
want=$(cmdline_arg nohz_full) || want=none
is "$nohz" "$want" "nohz_full CPUs are those of the command line"
housekept
cpu=2
preemptible=0
uname -v | grep -q PREEMPT_DYNAMIC && preemptible=1
lim=$(param cond_resched_qs_limit)

has_limit && setp cond_resched_qs_limit 0
loop ms=1500 cpu=$cpu spin=1 gp_load=1
if [ $preemptible = 0 ]; then
	check "spin on nohz_full CPU $cpu, non-preemptible RCU: urgent_qs grew (${d[urgent_qs]})" \
		test "${d[urgent_qs]}" -ge 1
	check "spin on nohz_full CPU $cpu, non-preemptible RCU: resched_kicks grew (${d[resched_kicks]})" \
		test "${d[resched_kicks]}" -ge 1
else
	diag "preemptible RCU: urgent_qs +${d[urgent_qs]}, resched_kicks +${d[resched_kicks]}"
fi
check "spin: gp_completed grew (${d[gp_completed]}) at least by gps ($r_gps)" \
	test "${d[gp_completed]}" -ge "${r_gps:-1}"
if ! has_limit; then
	no_limit_skip "spin, limit 0: limit_qs does not move; a cond_resched() loop with the limit reports by itself"
	exit 0
fi
is "${d[limit_qs]}" 0 "spin, limit 0: limit_qs does not move"

setp cond_resched_qs_limit "$lim"
n=$(param cond_resched_qs_limit)
loop ms=1500 cpu=$cpu gp_load=1
want=$((r_loops / n))
between "${d[limit_qs]}" $((want - 1)) $((want + want / 50 + 20)) \
	"cond_resched() loop on nohz_full CPU $cpu, limit $n (command line): limit_qs ~ $r_loops/$n"
