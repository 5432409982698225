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
second=$(knob2)
old_j=$(param jiffies_till_sched_qs) old_l=$(param $second)
setp jiffies_till_sched_qs auto
swrite /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout 3 >/dev/null
is "$(rd /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)" 3 "stall timeout lowered to 3 s"
MS=5000
# The counters this kernel has (lib.sh's COUNTERS; 7.3: no limit_qs,
# nohz_qs_asks instead), but the callbacks'.
ctrs=${COUNTERS/ cbs_invoked/}

# run PROFILE: the loop for MS ms on the nohz_full CPU, the counters read
# about every 500 ms while it runs; sets slices (gp_completed growth per
# slice), stalls, and shows each slice's real length (the shell's sleeps
# stretch when the emulator is busy) and the other counters' growth. A
# slice ends the series once the loop is over (done_loops set), so that
# the idle system after the loop is not mistaken for slow grace periods.
run() {
	local t c t0 t1 ms lens="" pid dl
	local -A c0 c1 per
	out=$(rcuqs-ctl set-profile "$1" 2>&1) || nok "set-profile $1: $out"
	dmesg -C
	modprobe rcuqs_loop ms=$MS cpu=$nz delay_ns=1000 gp_load=1 gp_cpu=0 gp_gap_us=5000 &
	pid=$!
	for c in $ctrs; do get "c0[$c]" $Q/$c; done
	t0=${EPOCHREALTIME/./}
	for ((t = 0; t < 2 * MS / 500; t++)); do
		sleep 0.5
		get dl $M/done_loops
		[ "$dl" = 0 ] || [ "$dl" = "<unreadable>" ] && kill -0 "$pid" 2>/dev/null || break
		t1=${EPOCHREALTIME/./}
		ms=$(((t1 - t0) / 1000)) t0=$t1
		lens="$lens $ms"
		for c in $ctrs; do
			get "c1[$c]" $Q/$c
			per[$c]="${per[$c]-} $((c1[$c] - c0[$c]))"
			c0[$c]=${c1[$c]}
		done
	done
	slices=${per[gp_completed]-}
	wait "$pid"
	get r_gps $M/gps
	get r_gp99 $M/gp_p99_us
	get r_gpmax $M/gp_max_us
	get r_loops $M/done_loops
	get r_loopus $M/loop_us
	modprobe -r rcuqs_loop
	stalls=$(dmesg | grep -cE 'detected stalls on CPUs/tasks|self-detected stall')
	diag "$1: ${MS} ms loop on CPU $nz, $r_loops calls ($((r_loopus * 1000 / (r_loops + 1))) ns each, ndelay(1000) included);" \
		"  slices of the loop (ms):$lens; gp_completed:$slices;" \
		"  limit_qs:${per[limit_qs]-}; urgent_qs:${per[urgent_qs]-}; resched_kicks:${per[resched_kicks]-}; nohz_qs_asks:${per[nohz_qs_asks]-};" \
		"  synchronize_rcu() calls $r_gps, p99 $((r_gp99 / 1000)) ms, max $((r_gpmax / 1000)) ms, stall warnings $stalls"
}

run latency
min=${slices# }
min=${min%% *}
for s in $slices; do [ "$s" -lt "$min" ] && min=$s; done
# How many slices fit in the loop depends on when single-threaded TCG
# runs the shell's vCPU (one 500 ms sleep took 3 s), so only one is
# required: none at all would mean the shell saw nothing of the loop.
check "latency: grace periods completed in every slice of the loop ($(wc -w <<<"$slices") slices, fewest ${min:-none})" \
	test "${min:-0}" -ge 1
is "$stalls" 0 "latency: no stall warning over a loop longer than the stall timeout"
run default
diag "default on the same loop: the kicks at 3 x jiffies_to_sched_qs end its grace periods, slowly"

swrite /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout "$old_stall" >/dev/null
setp jiffies_till_sched_qs "$old_j"
setp $second "$old_l"
rm -f /etc/rcuqs/active
is "$(param jiffies_till_sched_qs)/$(param $second)" "$old_j/$old_l" \
	"the command line's values are back"
