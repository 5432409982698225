# boots: main
# The limit works: a loop of L cond_resched() calls on one CPU (the
# rcuqs_loop test module) makes limit_qs grow by about L/N with the limit
# at N, not at all with 0; grace periods and callbacks move under load.
. "$RCUQS_LIB/lib.sh"
has_limit || { no_limit_skip "the cond_resched() limit reports every Nth call"; exit 0; }

# expect_qs L N DESC [NHI]: limit_qs grew by floor(L/N) - 1 .. L/NHI + 1
# (NHI defaults to N) plus the background: cond_resched() calls elsewhere
# while the module loads and runs, measured as bg (a load with loops=0
# under the same limit), twice that, plus 2% for noise over the loop.
expect_qs() {
	local l=$1 n=$2 nhi=${4:-$2} want lo hi
	want=$((l / n))
	lo=$((want - 1))
	[ $lo -lt 0 ] && lo=0
	hi=$((l / nhi + 1 + 2 * bg + want / 50 + 2))
	between "${d[limit_qs]}" $lo $hi "$3: limit_qs grew by ~$l/$n = $want"
}

modinfo -F parm rcuqs_loop >/dev/null 2>&1
check "modinfo (libkmod) finds rcuqs_loop.ko through the depmod index" modinfo -n rcuqs_loop
cpu=1
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] && cpu=0

# Off: not a single QS from the limit, anywhere, during a long loop.
setp cond_resched_qs_limit 0
loop loops=300000 cpu=$cpu
is "${d[limit_qs]}" 0 "limit 0: limit_qs does not move over 300000 cond_resched() calls"
is "$r_loops" 300000 "the module made the 300000 calls"

for n in 1000 1 256 1048576; do
	setp cond_resched_qs_limit $n
	is "$(param cond_resched_qs_limit)" $n "limit set to $n"
	loop loops=0 ms=0
	bg=${d[limit_qs]}
	case $n in
	1) l=20000 ;;
	*) l=300000 ;;
	esac
	loop loops=$l cpu=$cpu
	expect_qs $l $n "limit $n, $l calls"
done

# The cond_resched_lock() variant counts too, each uncontended call once:
# L calls report L/N quiescent states, one per call at N = 1 (a lock
# variant that reports does not go on into cond_resched() to count the
# same call again).
for n in 1 2 256; do
	setp cond_resched_qs_limit $n
	loop loops=0 ms=0
	bg=${d[limit_qs]}
	l=20000
	[ $n = 256 ] && l=256000
	loop loops=$l cpu=$cpu lock=1
	expect_qs $l $n "limit $n, $l cond_resched_lock() calls"
done

# Under load: grace periods must wait for the looping CPU; they complete,
# and their callbacks run. Limit off, then on.
for n in 0 64; do
	setp cond_resched_qs_limit $n
	loop ms=1500 cpu=$cpu gp_load=1
	check "limit $n, 1.5 s loop with synchronize_rcu() load: gps done ($r_gps)" test "${r_gps:-0}" -ge 1
	check "limit $n: gp_completed grew (${d[gp_completed]}) at least by gps ($r_gps)" \
		test "${d[gp_completed]}" -ge "${r_gps:-1}"
	check "limit $n: cbs_invoked grew (${d[cbs_invoked]}) at least by gps ($r_gps)" \
		test "${d[cbs_invoked]}" -ge "${r_gps:-1}"
	if [ $n = 0 ]; then
		is "${d[limit_qs]}" 0 "limit 0 under load: limit_qs does not move"
		if uname -v | grep -q PREEMPT_DYNAMIC; then
			diag "preemptible RCU: the tick reports this CPU's QS, urgent_qs grew ${d[urgent_qs]}"
		else
			# Non-preemptible RCU: only an urgent request makes
			# cond_resched() report, so RCU must have asked.
			check "limit 0, non-preemptible RCU: urgent_qs grew (${d[urgent_qs]})" \
				test "${d[urgent_qs]}" -ge 1
		fi
	else
		bg=0
		expect_qs "$r_loops" $n "limit $n under load"
	fi
done
setp cond_resched_qs_limit 0
