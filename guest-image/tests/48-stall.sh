# boots: cmdline
# A cond_resched() loop on a nohz_full CPU that runs longer than the RCU
# CPU stall timeout (lowered to its 3 s minimum for this test): under the
# latency profile grace periods keep completing throughout and no stall
# warning comes; default on the same loop is reported alongside. The
# host also scans the console for stall warnings.
. "$RCUQS_LIB/lib.sh"

nz=$(rd /sys/devices/system/cpu/nohz_full)
nz=${nz%%[-,]*}
old_stall=$(rd /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)
old_j=$(param jiffies_till_sched_qs) old_l=$(param cond_resched_qs_limit)
setp jiffies_till_sched_qs auto
swrite /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout 3 >/dev/null
is "$(rd /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)" 3 "stall timeout lowered to 3 s"
MS=5000

# run PROFILE: the loop for MS ms on the nohz_full CPU, gp_completed read
# every 500 ms meanwhile; sets slices (growth per 500 ms) and stalls.
run() {
	local g0 g1 t
	out=$(rcuqs-ctl set-profile "$1" 2>&1) || nok "set-profile $1: $out"
	dmesg -C
	modprobe rcuqs_loop ms=$MS cpu=$nz delay_ns=1000 gp_load=1 gp_cpu=0 gp_gap_us=5000 &
	slices=""
	get g0 $Q/gp_completed
	for ((t = 0; t < MS / 500 - 1; t++)); do
		sleep 0.5
		get g1 $Q/gp_completed
		slices="$slices $((g1 - g0))"
		g0=$g1
	done
	wait $!
	get r_gps $M/gps
	get r_gp99 $M/gp_p99_us
	get r_gpmax $M/gp_max_us
	modprobe -r rcuqs_loop
	stalls=$(dmesg | grep -cE 'detected stalls on CPUs/tasks|self-detected stall')
	diag "$1: ${MS} ms loop on CPU $nz, gp_completed per 500 ms:$slices;" \
		"  synchronize_rcu() calls $r_gps, p99 $((r_gp99 / 1000)) ms, max $((r_gpmax / 1000)) ms, stall warnings $stalls"
}

run latency
min=${slices# }
min=${min%% *}
for s in $slices; do [ "$s" -lt "$min" ] && min=$s; done
check "latency: grace periods completed in every 500 ms of the loop (fewest $min)" test "$min" -ge 1
is "$stalls" 0 "latency: no stall warning over a loop longer than the stall timeout"
run default
diag "default on the same loop: the kicks at 3 x jiffies_to_sched_qs end its grace periods, slowly"

swrite /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout "$old_stall" >/dev/null
setp jiffies_till_sched_qs "$old_j"
setp cond_resched_qs_limit "$old_l"
rm -f /etc/rcuqs/active
is "$(param jiffies_till_sched_qs)/$(param cond_resched_qs_limit)" "$old_j/$old_l" \
	"the command line's values are back"
