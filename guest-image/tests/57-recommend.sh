# boots: cmdline
# rcuqs-ctl recommend as an administrator meets it, under a real load on
# this kernel (CPUs 2-3 nohz_full): the recommendation, not the numbers.
#   - a cond_resched() loop on nohz_full CPU 2 under default: latency
#   - the same loop under latency: no change (keep latency)
#   - an idle system, an open/close load (open1, 2 tasks): not latency
#   - preemptible RCU only: the loop on CPU 1, which keeps its tick (the
#     tick reports its quiescent states already): not latency
# And rcuqs-ctl watch --count 3 prints its header and three lines of rates
# while the loop runs; on 7.3 watch --json carries the rates of
# nohz_qs_asks and nohz_qs_reports, and recommend's evidence under latency
# names them. Nothing here depends on how fast the guest is.
. "$RCUQS_LIB/lib.sh"

preemptible=0
uname -v | grep -q PREEMPT_DYNAMIC && preemptible=1
second=$(knob2)
old_2nd=$(param $second) old_jtsq=$(param jiffies_till_sched_qs)
out=$(rcuqs-ctl set-profile default 2>&1)
is "$?" 0 "set-profile default exits 0 ($out)"

recommend_during loop cpu=2 "${LOAD[@]}"
is "$rec_rc/$rec" 0/latency \
	"default, cond_resched() loop on nohz_full CPU 2: recommend names latency$(
	[ "$rec_rc/$rec" = 0/latency ] || echo " (sampled $rec_rates)")"

# watch while a loop runs: a header and one line per interval.
loop_bg ms=30000 cpu=2 "${LOAD[@]}"
sleep 0.3
w=$(rcuqs-ctl watch --interval 1 --count 3 2>&1)
wrc=$?
wj=$(rcuqs-ctl watch --interval 0.5 --count 2 --json 2>&1)
loop_end
modprobe -r rcuqs_loop
lines=$(grep -cE '^ *([0-9]|-)' <<<"$w")
is "$wrc/$lines" 0/3 "watch --count 3 during the loop: exits 0 after three lines of rates"
diag "$w"
is "$(grep -c '^{.*}$' <<<"$wj")" 2 "watch --json --count 2: two JSON objects, one a line"
# 7.3's jiffies_till_nohz_qs counters: a rate in every object where the
# kernel counts them, null where it has none (6.1, 6.12).
if [ -e $Q/nohz_qs_asks ]; then nohz=1 want="a rate"; else nohz=0 want="null"; fi
nbad=0
while IFS= read -r l; do
	for k in nohz_qs_asks_per_s nohz_qs_reports_per_s; do
		if [ $nohz = 1 ]; then
			[[ $l == *"\"$k\":"[0-9]* ]] || nbad=$((nbad + 1))
		else
			[[ $l == *"\"$k\":null"* ]] || nbad=$((nbad + 1))
		fi
	done
done < <(grep '^{' <<<"$wj")
check "watch --json during the loop: nohz_qs_asks_per_s and nohz_qs_reports_per_s are $want in each object$(
	[ $nbad = 0 ] || printf ' (got: %s)' "$(tr '\n' ' ' <<<"$wj")")" \
	eval '[ $nbad = 0 ] && [ -n "$wj" ]'

out=$(rcuqs-ctl set-profile latency 2>&1)
is "$?" 0 "set-profile latency exits 0 ($out)"
recommend_during loop cpu=2 "${LOAD[@]}"
is "$rec_rc/$rec" "0/no change (keep latency)" \
	"latency, the same loop: recommend says no change (keep latency)$(
	[ "$rec_rc/$rec" = "0/no change (keep latency)" ] ||
		echo " (sampled $rec_rates)")"
# Its evidence, on 7.3, the interrupts latency costs the nohz_full CPUs:
# both of jiffies_till_nohz_qs's counters with their rates.
ev=$(sed -n '/^recommendation: /,$p' <<<"$rec_out" | tail -n +2)
if [ $nohz = 1 ]; then
	check "latency, the same loop: recommend's evidence names nohz_qs_asks and nohz_qs_reports with their rates$(
		grep -q 'nohz_qs_asks [0-9.]*/s.*nohz_qs_reports [0-9.]*/s' <<<"$ev" ||
			printf ' (evidence: %s)' "$(tr '\n' ' ' <<<"$ev")")" \
		grep -q 'nohz_qs_asks [0-9.]*/s.*nohz_qs_reports [0-9.]*/s' <<<"$ev"
else
	check "latency, the same loop: recommend's evidence names no nohz_qs_* counter, which $(uname -r) lacks$(
		grep -q nohz_qs_ <<<"$ev" && printf ' (evidence: %s)' "$(tr '\n' ' ' <<<"$ev")")" \
		eval '! grep -q nohz_qs_ <<<"$ev"'
fi

out=$(rcuqs-ctl set-profile default 2>&1)
recommend_during idle
check "default, idle system: recommend does not name latency (got '$rec')" \
	eval '[ "$rec_rc" = 0 ] && [ -n "$rec" ] && [ "$rec" != latency ]'

recommend_during open1
check "default, open1 with 2 tasks: recommend does not name latency (got '$rec')" \
	eval '[ "$rec_rc" = 0 ] && [ -n "$rec" ] && [ "$rec" != latency ]'

if [ $preemptible = 1 ]; then
	recommend_during loop cpu=1 "${LOAD[@]}"
	check "default, preemptible RCU, loop on CPU 1 (keeps its tick): recommend does not name latency (got '$rec')" \
		eval '[ "$rec_rc" = 0 ] && [ -n "$rec" ] && [ "$rec" != latency ]'
fi

# Back to the command line's values, nothing recorded.
out=$(rcuqs-ctl off 2>&1) || nok "rcuqs-ctl off: $out"
setp $second "$old_2nd"
setp jiffies_till_sched_qs "$old_jtsq"
is "$(param $second)/$(param jiffies_till_sched_qs)" "$old_2nd/$old_jtsq" \
	"the command line's values are back after the recommend runs"
