# boots: nohzmt
# What rcutree.jiffies_till_nohz_qs's request does on the CPU it asks,
# where the asking CPU and the asked one run at once: this boot runs under
# multi-threaded TCG (check-guest.sh; the 7.3 series flips no static key,
# the one thing thread=multi breaks here, see run-guest.sh), so the
# handler can run while the FQS scan that queued it still holds the leaf
# rcu_node lock. Each run loads rcuqs_loop on nohz_full CPU 2 with
# synchronize_rcu() timed from CPU 0 every 5 ms, settings rotated over the
# rounds; asserted are counts and ratios of counts, never a time:
# - a plain kthread loop (cpu_relax() only: outside any reader, preemption
#   on; ndelay() disables preemption while it spins): nearly every request
#   reports the quiescent state (nohz_qs_reports against nohz_qs_asks),
#   even when the scan still held the lock at ask time;
# - a loop that spends its time in rcu_read_lock() sections, preemption
#   enabled at rcu_read_unlock(): no reschedule forced by a request
#   before the grace period is jiffies_to_sched_qs old (nohz_qs_rescheds
#   against urgent_qs, and the loop task's preemptions), and at least 1
#   request in 20 reports (a request that finds the reader misses; the
#   second one flags the reader, need_qs, and rcu_read_unlock() notes the
#   quiescent state for a later one to report);
# - the same loop ending each section with preemption disabled, where
#   rcu_read_unlock() reschedules to note a flagged quiescent state:
#   with jiffies_till_sched_qs=2000, so that only the requests end the
#   grace periods, such reschedules (the module's unlock_rescheds) at
#   most once for every two requests that reported nothing (issue 38,
#   item 1: only the second request of a grace period flags a reader;
#   2/5 before the third review flagged it at the first);
# - a loop with preemption disabled 40 ms at a time, outside readers:
#   at most one reschedule a grace period, asked by the request so that
#   the stretch's preempt_enable() notes the quiescent state, and the
#   grace periods end there: urgent requests (jiffies_to_sched_qs, 100
#   ms, which every grace period would reach without a request) in at
#   most 1 grace period in 4;
#   with jiffies_till_sched_qs=1, whose urgent request turns the tick
#   back on, no more requests once the tick is forced (a few per grace
#   period, not one every jiffy).
# Counters read from a kernel without nohz_qs_rescheds (2/5 before the
# review) count as missing and fail.
. "$RCUQS_LIB/lib.sh"

ROUNDS=${RCUQS_NOHZ_QS_MT_ROUNDS:-3}
MS=2500
gp="gp_load=1 gp_cpu=0 gp_gap_us=5000"

need_nohz_qs "jiffies_till_nohz_qs under MTTCG" || exit 0
housekept
nohz_cpu || exit 0
diag "vCPUs run in parallel: $(grep -c '^processor' /proc/cpuinfo) CPUs; loop on CPU $nz, ${MS} ms a run, $ROUNDS rounds"

# num NAME: a counter, or -1 when this kernel lacks it.
num() {
	local x
	get x "$Q/$1"
	[[ $x =~ ^[0-9]+$ ]] && echo "$x" || echo -1
}
# sum LIST: the sum of the integers in LIST.
sum() { local x t=0; for x in $1; do t=$((t + x)); done; echo $t; }

old_jtsq=$(param jiffies_till_sched_qs)
old_jnq=$(param jiffies_till_nohz_qs)

declare -A asks reps rsch gps nivcsw p50 urg unl kick per
run() {	# run KEY JTSQ LOOP-ARGS... (jiffies_till_nohz_qs 1, or $JNQ)
	local key=$1 a0 r0 s0 g0 u0 k0
	setp jiffies_till_sched_qs "$2"
	setp jiffies_till_nohz_qs "${JNQ:-1}"
	shift 2
	a0=$(num nohz_qs_asks) r0=$(num nohz_qs_reports) s0=$(num nohz_qs_rescheds) g0=$(num gp_completed)
	u0=$(num urgent_qs) k0=$(num resched_kicks)
	loop ms=$MS cpu=$nz $gp "$@" || return
	asks[$key]+=" $(($(num nohz_qs_asks) - a0))"
	reps[$key]+=" $(($(num nohz_qs_reports) - r0))"
	if [ "$s0" -ge 0 ]; then
		rsch[$key]+=" $(($(num nohz_qs_rescheds) - s0))"
	else
		rsch[$key]+=" missing"
	fi
	gps[$key]+=" $(($(num gp_completed) - g0))"
	nivcsw[$key]+=" $r_nivcsw"
	p50[$key]+=" $r_gp50"
	urg[$key]+=" $(($(num urgent_qs) - u0))"
	kick[$key]+=" $(($(num resched_kicks) - k0))"
	unl[$key]+=" ${r_unlresch:-missing}"
	per[$key]+=" $((r_us / (r_loops > 0 ? r_loops : 1)))"
}

for ((r = 0; r < ROUNDS; r++)); do
	for s in $(rotated $r plain reader readeroff readerunl nopreempt nopreempt1); do
		case $s in
		plain) run plain auto spin=1 ;;
		reader) run reader auto reader=1 delay_ns=1000 ;;
		readeroff) JNQ=0 run readeroff auto reader=1 delay_ns=1000 ;;
		readerunl) run readerunl 2000 reader=1 unlock_nopreempt=1 delay_ns=1000 ;;
		nopreempt) run nopreempt auto nopreempt_us=40000 ;;
		nopreempt1) run nopreempt1 1 nopreempt_us=40000 ;;
		esac
	done
done
apply_old() { setp jiffies_till_sched_qs "$old_jtsq"; setp jiffies_till_nohz_qs "$old_jnq"; }
apply_old

for key in plain reader readeroff readerunl nopreempt nopreempt1; do
	diag "$key: per run: asks${asks[$key]:-} reports${reps[$key]:-} rescheds${rsch[$key]:-}" \
		"  grace periods${gps[$key]:-} urgent${urg[$key]:-} kicks${kick[$key]:-} loop preemptions${nivcsw[$key]:-}" \
		"  unlock rescheds${unl[$key]:-} p50 us${p50[$key]:-} us per loop${per[$key]:-}"
done

# 1. The lock the scan holds when it asks does not lose the request.
a=$(sum "${asks[plain]:-}") rp=$(sum "${reps[plain]:-}")
if [ "$a" -ge 20 ] && [ $((20 * rp)) -ge $((19 * a)) ]; then
	ok "kthread loop, vCPUs in parallel: at least 19 in 20 requests reported the quiescent state ($rp of $a)"
else
	nok "kthread loop, vCPUs in parallel: at least 19 in 20 requests reported the quiescent state ($rp of $a, at least 20 asked)"
fi

# 2. No reschedule forced inside a preemptible reader before the grace
# period is jiffies_to_sched_qs old: at most one for each urgent request
# (urgent_qs), when the tick, which that request turns back on, forces
# one too.
a=$(sum "${asks[reader]:-}") u=$(sum "${urg[reader]:-}")
case " ${rsch[reader]:-missing} " in
*" missing "*) nok "reader loop: nohz_qs_rescheds is on this kernel" ;;
*)
	s=$(sum "${rsch[reader]}")
	check "reader loop: $a requests, no reschedule forced before the urgent request (nohz_qs_rescheds +$s, urgent_qs +$u)" \
		eval '[ "$a" -gt 0 ] && [ "$s" -le "$u" ]'
	;;
esac
# The requests still end the reader loop's grace periods: a request that
# finds the loop in a reader misses, and a later one (twice as late each
# time) finds it outside and reports: at least 1 request in 20 does
# (12.6 to 31 in 100 measured, 12.6 in a fresh clone's make check). Its p50 against the same loop without
# requests is reported, not asserted: without them the grace periods end
# at the scan's resched_cpu() kick, which came at 25 ms in one boot and
# at 300 ms in others, the same kernel under multi-threaded TCG.
rp=$(sum "${reps[reader]:-}")
check "reader loop: at least 1 in 20 requests reported the quiescent state ($rp of $a)" \
	eval '[ "$a" -gt 0 ] && [ $((20 * rp)) -ge "$a" ]'
pa=$(median ${p50[reader]:-}) pb=$(median ${p50[readeroff]:-})
diag "reader loop: median p50 with jiffies_till_nohz_qs=1 $(ms "${pa:-0}") ms, with 0 $(ms "${pb:-0}") ms"
# Sections that end with preemption disabled: rcu_read_unlock() asks for
# a reschedule when the reader has something to report: need_qs, or a
# preemption inside the reader (->blocked), which upstream's urgent
# request and resched_cpu() kick cause. With jiffies_till_sched_qs=2000
# (8 s) neither comes in a run, and the tick's need_qs comes only at a
# second: the requests alone end the grace periods. A request that finds
# the reader misses; the next one of the grace period flags it (need_qs),
# so rcu_read_unlock() reschedules; a later one reports what the
# reschedule noted. Each such reschedule thus costs at least two
# requests that reported nothing (the miss and the flag), and a grace
# period that its first request ends costs none. 2/5 before the third
# review flagged the reader at the first request: one reschedule for each
# request that reported nothing. Asserted: reschedules at most half the
# requests that reported nothing, and at most one a grace period.
case " ${unl[readerunl]:-missing} " in
*" missing "*) nok "reader loop ending with preemption disabled: the module counts unlock_rescheds" ;;
*)
	s=$(sum "${unl[readerunl]}") a=$(sum "${asks[readerunl]:-}") g=$(sum "${gps[readerunl]:-}")
	rp=$(sum "${reps[readerunl]:-}")
	check "reader loop ending with preemption disabled, jiffies_till_sched_qs=2000: rcu_read_unlock() rescheduled $s times, at most once for two of the $((a - rp)) requests of $a that reported nothing, and at most once in each of $g grace periods" \
		eval '[ "$a" -gt 0 ] && [ "$g" -gt 0 ] && [ $((2 * s)) -le $((a - rp)) ] && [ "$s" -le "$g" ]'
	;;
esac
# The loop task's own preemptions stay few against the requests (a forced
# reschedule that switched away from it counts here; one that found
# nothing else to run does not, so this is a lower bound).
pv=$(sum "${nivcsw[reader]:-}") a=$(sum "${asks[reader]:-}")
if [ $((4 * pv)) -le "$a" ]; then
	ok "reader loop: the looping task was preempted $pv times for $a requests (at most 1 in 4)"
else
	nok "reader loop: the looping task was preempted $pv times for $a requests (at most 1 in 4)"
fi

# 3. With preemption disabled outside readers: the first request that
# finds a 40 ms stretch asks for a reschedule, which the stretch's
# preempt_enable() takes, noting the quiescent state for a later request
# to report; requests that find the reschedule still pending ask nothing
# more. So at most one reschedule a grace period, and the grace periods
# end at the stretch's end instead of waiting for the urgent request at
# jiffies_to_sched_qs (auto: 100 ms, which every grace period would reach
# without a request): urgent requests, counted with the scan's periodic
# resched_cpu() kicks, in at most 1 grace period in 4.
case " ${rsch[nopreempt]:-missing} " in
*" missing "*) nok "preemption-disabled loop: nohz_qs_rescheds is on this kernel" ;;
*)
	s=$(sum "${rsch[nopreempt]}") a=$(sum "${asks[nopreempt]:-}") g=$(sum "${gps[nopreempt]:-}")
	u=$(sum "${urg[nopreempt]:-}")
	# The premise: each stretch ends before jiffies_to_sched_qs (100 ms).
	# The module times it with ktime_get(); counted in udelay(1) calls, as
	# before, it lasted over 100 ms on a slower CI host, and the urgent
	# request then came in most grace periods whatever the request did.
	slow=0
	for x in ${per[nopreempt]:-}; do [ "$x" -lt 60000 ] || slow=1; done
	check "preemption-disabled loop: each run's loop took under 60 ms a pass (40 ms with preemption disabled; us per pass:${per[nopreempt]:-none})" \
		eval '[ -n "${per[nopreempt]:-}" ] && [ "$slow" = 0 ]'
	check "preemption-disabled loop, jiffies_till_sched_qs=auto: $s reschedules for $g grace periods and $a requests (at most one a grace period), urgent requests in $u (at most 1 in 4)" \
		eval '[ "$g" -gt 0 ] && [ "$s" -le "$g" ] && [ $((4 * u)) -le "$g" ]'
	;;
esac

# 4. No request to a CPU whose tick RCU has forced back on: with
# jiffies_till_sched_qs=1 the urgent request forces the tick on within
# a jiffy or two of the grace period's start, so a grace period that the
# 40 ms stretch (10 jiffies) holds back gets a request or two, not one
# a jiffy: fewer requests than grace periods (which the counter counts
# over the whole run, module load and unload included).
# Reported, not asserted: the ratio is a timing (0.94 after the fix, 1.29
# before, 1.15 once in a loaded clean-clone run), too close to 1 to be a
# pass/fail line; a side-by-side test of the forced-tick skip is still to
# write (issue 29).
a=$(sum "${asks[nopreempt1]:-}") g=$(sum "${gps[nopreempt1]:-}")
diag "preemption-disabled loop, jiffies_till_sched_qs=1: $a requests for $g grace periods (fewer than one a grace period expected once the tick is forced)"

is "$(param jiffies_till_sched_qs)/$(param jiffies_till_nohz_qs)" "$old_jtsq/$old_jnq" \
	"the boot's values are back after the runs"
