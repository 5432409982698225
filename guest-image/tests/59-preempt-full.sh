# boots: active
# Where no shipped profile helps: 6.1 and 6.12 under preempt=full, where
# cond_resched() does nothing and latency's limit cannot act (check-guest
# boots dynamic-6.12's 'active' so, CPUs 2-3 nohz_full). With latency
# recorded and in force:
#   - verify exits 0 (the values match) and says the limit cannot act;
#     status says so on its profile line and in a line of its own; both
#     --json's limit_acts is false
#   - a cond_resched() loop on nohz_full CPU 2: recommend names
#     rcutree.jiffies_till_sched_qs=1, not a profile, not "no change"
# Elsewhere (the limit acts, or there is none: 7.3) limit_acts is true and
# neither says it cannot act. Nothing here depends on how fast the guest is.
. "$RCUQS_LIB/lib.sh"

model=$(preempt_model)
p=$(rd /etc/rcuqs/active)
vout=$(rcuqs-ctl verify 2>&1)
vrc=$?
vj=$(rcuqs-ctl --json verify 2>&1)
sout=$(rcuqs-ctl status 2>&1)
sj=$(rcuqs-ctl --json status 2>&1)
vline=$(grep 'cannot act' <<<"$vout")
sline=$(grep -E '^(active profile|limit): ' <<<"$sout" | tr '\n' ' ')
vacts=$(grep -o '"limit_acts":[a-z]*' <<<"$vj")
sacts=$(grep -o '"limit_acts":[a-z]*' <<<"$sj")
diag "preemption $model, $(has_limit && echo "limit $(param cond_resched_qs_limit)" || echo "no limit")" \
	"verify (exit $vrc):" "$vout" "status: $sline"

if limit_idle; then
	cant="cannot act under preemption $model"
	vok() { [ $vrc = 0 ] && grep -q "^but its rcutree.cond_resched_qs_limit=[0-9]* $cant" <<<"$vout"; }
	check "verify, $p under preemption $model: exits 0 and says its limit $cant$(
		vok || echo " (exit $vrc: ${vline:-no such line})")" vok
	is "$vacts" '"limit_acts":false' "verify --json under preemption $model: limit_acts is false"
	sok() {
		grep -q "^active profile: $p (no drift, but its limit cannot act here)" <<<"$sout" &&
			grep -q "^limit: its rcutree.cond_resched_qs_limit=[0-9]* $cant" <<<"$sout"
	}
	check "status, $p under preemption $model: its limit cannot act, on the profile line and a line of its own$(
		sok || echo " ($sline)")" sok
	is "$sacts" '"limit_acts":false' "status --json under preemption $model: limit_acts is false"

	want="rcutree.jiffies_till_sched_qs=1, not a profile"
	recommend_during loop cpu=2 "${LOAD[@]}"
	check "$p, preemption $model, cond_resched() loop on nohz_full CPU 2: recommend names jiffies_till_sched_qs, exit 0 (got exit $rec_rc, '$rec'$(
		[[ $rec_rc = 0 && $rec == "$want"* ]] || echo "; sampled $rec_rates"))" \
		eval '[ "$rec_rc" = 0 ] && [[ $rec == "$want"* ]]'
else
	check "verify, $p under preemption $model: exits 0 and does not say the limit cannot act (exit $vrc${vline:+: $vline})" \
		eval '[ $vrc = 0 ] && [ -z "$vline" ]'
	is "$vacts" '"limit_acts":true' "verify --json under preemption $model: limit_acts is true"
	check "status, $p under preemption $model: no word of a limit that cannot act ($sline)" \
		eval '! grep -q "cannot act" <<<"$sout"'
	is "$sacts" '"limit_acts":true' "status --json under preemption $model: limit_acts is true"
	ok "recommend under preempt=full # SKIP preemption $model, $(has_limit && echo "the limit acts" || echo "no cond_resched() limit on $(uname -r)")"
fi
