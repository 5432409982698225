# boots: nohzpatience
# rcutree.jiffies_till_nohz_qs keeps upstream's restraint for nohz_full
# CPUs: while a grace period is younger than rcutree.nohz_full_patience_delay
# (500 ms in this boot), during which the tick ignores RCU on a nohz_full
# CPU (rcu_pending()), the FQS scan asks no such CPU for its quiescent
# state. A kthread loop on nohz_full CPU 2 then holds grace periods back
# about as long with jiffies_till_nohz_qs=1 as with 0, where asking from
# the first scan would end them at the idle floor. synchronize_rcu() is
# timed from CPU 0, the two settings interleaved in this boot; asserted
# is the ratio of their medians, and at most one request per grace period.
. "$RCUQS_LIB/lib.sh"

ROUNDS=${RCUQS_NOHZ_PATIENCE_ROUNDS:-2}
MS=2500
gp="gp_load=1 gp_cpu=0 gp_gap_us=5000"

need_nohz_qs "jiffies_till_nohz_qs and nohz_full_patience_delay" || exit 0
housekept
nohz_cpu || exit 0
pd=$(param nohz_full_patience_delay)
case $pd in
'' | *[!0-9]* | 0)
	nok "the boot has a patience delay (nohz_full_patience_delay='$pd')"
	exit 0
	;;
esac

old_jnq=$(param jiffies_till_nohz_qs)
declare -A p50 asks gps
for ((r = 0; r < ROUNDS; r++)); do
	for s in $(if ((r % 2)); then echo "1 0"; else echo "0 1"; fi); do
		setp jiffies_till_nohz_qs "$s"
		a0=$(counter nohz_qs_asks) g0=$(counter gp_completed)
		loop ms=$MS cpu=$nz $gp delay_ns=1000 || continue
		p50[$s]+=" $r_gp50"
		asks[$s]+=" $(($(counter nohz_qs_asks) - a0))"
		gps[$s]+=" $(($(counter gp_completed) - g0))"
	done
done
setp jiffies_till_nohz_qs "$old_jnq"
# shellcheck disable=SC2086
m0=$(median ${p50[0]:-0}) m1=$(median ${p50[1]:-0})
diag "nohz_full_patience_delay=$pd ms: p50 us with jiffies_till_nohz_qs=0:${p50[0]:-} (median $m0), =1:${p50[1]:-} (median $m1);" \
	"  asks at 1:${asks[1]:-} for grace periods:${gps[1]:-}"
ratio_le "$m0" "$m1" 2 1 \
	"kthread loop on nohz_full CPU $nz, nohz_full_patience_delay=$pd: median p50 with jiffies_till_nohz_qs=1 ($(ms $m1) ms) at least half of that with 0 ($(ms $m0) ms): no request inside the patience delay"
sum() { local x t=0; for x in $1; do t=$((t + x)); done; echo $t; }
a=$(sum "${asks[1]:-}") g=$(sum "${gps[1]:-}")
if [ "$g" -gt 0 ] && [ "$a" -le "$g" ]; then
	ok "jiffies_till_nohz_qs=1 under the patience delay: $a requests for $g grace periods (at most one each)"
else
	nok "jiffies_till_nohz_qs=1 under the patience delay: $a requests for $g grace periods (at most one each)"
fi
