# boots: cmdline
# The effect the limit exists for, in the seeds' setting: a CPU-bound
# kernel loop (ndelay(1000); cond_resched();) on a nohz_full CPU holds
# grace periods back; with rcutree.cond_resched_qs_limit at the latency
# profile's value they end about as soon as on an idle system.
# synchronize_rcu() is timed from CPU 0 every 5 ms while the loop runs,
# with the limit at 0 and on, interleaved (ABBA), on the nohz_full CPU
# and on a CPU that keeps its tick, several rounds in this one boot.
# Asserted: ratios of latencies measured side by side, never a time; p50
# for the effect, p99 only as "no worse" (see near_floor).
. "$RCUQS_LIB/lib.sh"
has_limit || { no_limit_skip "the cond_resched() limit's effect on a nohz_full loop (46-nohz-qs measures jiffies_till_nohz_qs's)"; exit 0; }

LIMIT=256	# rcuqs-ctl/profiles/latency.profile
ROUNDS=${RCUQS_EFFECT_ROUNDS:-4}
MS=2500
# min_gps=5: a run goes on past MS until 5 calls were timed (a loaded host
# can stall the guest for much of a window), for at most 10 MS.
gp="gp_load=1 gp_cpu=0 gp_gap_us=5000 gp_log_us=100000 min_gps=5"

# A nohz_full CPU and one that keeps its tick, neither of them CPU 0.
nohz_cpu || exit 0
tick=1
preemptible=0
uname -v | grep -q PREEMPT_DYNAMIC && preemptible=1

old_jtsq=$(param jiffies_till_sched_qs)
old_lim=$(param cond_resched_qs_limit)
setp jiffies_till_sched_qs auto
diag "jiffies_to_sched_qs=$(param jiffies_to_sched_qs) (auto), limit $LIMIT," \
	"loop on CPU $nz (nohz_full) and CPU $tick (tick), ${MS} ms a run, $ROUNDS rounds"

# The fixture first: a 500 ms run on the nohz_full CPU with the limit at 0
# (about 300 ms a grace period) must go on until its 5 calls were timed.
setp cond_resched_qs_limit 0
if loop ms=500 $gp cpu=$nz delay_ns=1000; then
	check "min_gps=5: a 500 ms loop held back by the defaults went on to time $r_gps calls in $((r_us / 1000)) ms" \
		test "$r_gps" -ge 5 -a "$r_us" -gt 500000
fi

declare -A p50 p99 max
run() {	# run KEY ARGS...: one loop, latencies appended to the KEY lists
	local key=$1
	shift
	loop ms=$MS $gp "$@" || return
	[ "$r_gps" -ge 5 ] || nok "$key: only $r_gps synchronize_rcu() calls timed"
	p50[$key]+=" $r_gp50" p99[$key]+=" $r_gp99" max[$key]+=" $r_gpmax"
}

for ((r = 1; r <= ROUNDS; r++)); do
	# ABBA across rounds: limit off first in odd rounds, on first in even.
	order="0 $LIMIT"
	[ $((r % 2)) = 0 ] && order="$LIMIT 0"
	for cpu in $nz $tick; do
		for n in $order; do
			setp cond_resched_qs_limit "$n"
			run "$cpu/$n" cpu=$cpu delay_ns=1000
		done
	done
	setp cond_resched_qs_limit 0
	run floor cpu=$nz idle=1
	with_userspin run busy cpu=$nz idle=1
done

declare -A m50 m99
for key in "${!p50[@]}"; do
	# shellcheck disable=SC2086
	m50[$key]=$(median ${p50[$key]}) m99[$key]=$(median ${p99[$key]})
	diag "$key: p50 ms$(for v in ${p50[$key]}; do printf ' %s' "$(ms $v)"; done)," \
		"  p99 ms$(for v in ${p99[$key]}; do printf ' %s' "$(ms $v)"; done)," \
		"  max ms$(for v in ${max[$key]}; do printf ' %s' "$(ms $v)"; done)"
done

# The floor: no kernel loop. p50 moves in whole jiffies (4 ms): 16 ms for
# the floor and for a report that reaches the tree at once, 24 ms for one
# that waits for two FQS scans (a momentary EQS), so 1.5x tells them
# apart. The floor asserted against is the busy one (with_userspin: CPU
# $nz spinning in user space), which shares the emulator as the loop runs
# do: beside a kernel build on a 2-CPU host the idle floor stayed at 16
# ms while every loop run, even one the tick serves, took a jiffy or two
# more. The idle floor is reported beside it. p99 of a CPU-bound TCG
# guest does not move in jiffies (a busy host adds hundreds of
# milliseconds to single runs), so p99 is asserted only as "not worse"
# and otherwise reported.
near_floor() {	# near_floor KEY WHERE
	ratio_le "${m50[$1]}" "${m50[busy]}" 3 2 \
		"$2: median p50 with limit $LIMIT ($(ms ${m50[$1]:-0}) ms) under 1.5x the floor, no kernel loop, CPU $nz busy in user space ($(ms ${m50[busy]:-0}) ms)"
	diag "$2: median p50 with limit $LIMIT $(ms ${m50[$1]:-0}) ms, idle floor $(ms ${m50[floor]:-0}) ms;" \
		"  median p99 with limit $LIMIT $(ms ${m99[$1]:-0}) ms, busy floor $(ms ${m99[busy]:-0}) ms, idle floor $(ms ${m99[floor]:-0}) ms"
}

# The busy floor is a floor: the spinner in user space holds no grace
# period back, as the loop with limit 0 does.
ratio_le "${m50[busy]}" "${m50[$nz/0]}" 1 3 \
	"the busy floor (CPU $nz spinning in user space) holds no grace period back: median p50 $(ms ${m50[busy]:-0}) ms at most 1/3 of the loop's with limit 0 ($(ms ${m50[$nz/0]:-0}) ms)"

k0=$nz/0 k1=$nz/$LIMIT
ratio_le "${m50[$k1]}" "${m50[$k0]}" 1 3 \
	"nohz_full CPU $nz loop: median p50 grace-period latency with limit $LIMIT ($(ms ${m50[$k1]:-0}) ms) at most 1/3 of limit 0 ($(ms ${m50[$k0]:-0}) ms)"
ratio_le "${m99[$k1]}" "${m99[$k0]}" 1 1 \
	"nohz_full CPU $nz loop: median p99 with limit $LIMIT ($(ms ${m99[$k1]:-0}) ms) no worse than limit 0 ($(ms ${m99[$k0]:-0}) ms)"
near_floor "$k1" "nohz_full CPU $nz loop"

k0=$tick/0 k1=$tick/$LIMIT
if [ $preemptible = 0 ]; then
	# Non-preemptible RCU: the tick reports no quiescent state for a CPU
	# in kernel code, so without the limit this CPU waits for urgent_qs.
	ratio_le "${m50[$k1]}" "${m50[$k0]}" 1 3 \
		"tick CPU $tick loop: median p50 with limit $LIMIT ($(ms ${m50[$k1]:-0}) ms) at most 1/3 of limit 0 ($(ms ${m50[$k0]:-0}) ms)"
else
	# Preemptible RCU: the tick already reports a quiescent state for a
	# CPU outside a read-side critical section; the limit must not hurt.
	ratio_le "${m50[$k1]}" "${m50[$k0]}" 5 4 \
		"tick CPU $tick loop, preemptible RCU: median p50 with limit $LIMIT ($(ms ${m50[$k1]:-0}) ms) at most 1.25x limit 0 ($(ms ${m50[$k0]:-0}) ms)"
fi
near_floor "$k1" "tick CPU $tick loop"

setp cond_resched_qs_limit "$old_lim"
setp jiffies_till_sched_qs "$old_jtsq"
is "$(param cond_resched_qs_limit)/$(param jiffies_till_sched_qs)" "$old_lim/$old_jtsq" \
	"the command line's values are back after the effect runs"
