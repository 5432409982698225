# boots: early
# rcuqs-ctl set-profile latency run early in boot, beside rcuqs.service
# (issue 29 item 7): units/rcuqs-test-early.service runs it as early as
# rcuqs.service runs "rcuqs-ctl apply" and unordered against it, after
# rcuqs.test_active= recorded another profile, so the two race for the
# lock, /run/rcuqs.lock, at every boot; rcuqs.test_early=MS delays
# set-profile by MS ms, so a series of boots (check-early.sh) sees both
# orders. Whichever wins, set-profile must exit 0 (a set-profile that
# finds the lock taken says so and waits: lock.c), latency must be the
# recorded profile and in force, and in force in effect: a kernel loop on
# nohz_full CPU 2 (47-effect's, ndelay(1000); cond_resched();) reports
# quiescent states through the limit (limit_qs grows) and its grace
# periods stay near the floor measured in this boot (no kernel loop, CPU
# 2 busy in user space: lib.sh's with_userspin; p50 under 1.5x,
# 47-effect's near_floor), not the 200-400 ms of limit 0. The
# limit is never written here: the test measures what the boot left.
. "$RCUQS_LIB/lib.sh"
has_limit || { no_limit_skip "latency set early in boot, in effect"; exit 0; }

LIMIT=256	# rcuqs-ctl/profiles/latency.profile
ROUNDS=${RCUQS_EARLY_ROUNDS:-3}
MS=2500
D=/run/rcuqs-test-early
u=rcuqs.service e=rcuqs-test-early.service
rec=$(cmdline_arg rcuqs.test_active)

# What set-profile did, and how it met apply.
get rc $D/rc
get delay $D/delay
get t0 $D/start
get t1 $D/end
err=$(cat $D/err 2>/dev/null)
diag "set-profile latency (rcuqs.test_early=$delay ms, '$rec' recorded before): exit $rc," \
	"uptime $t0 -> $t1 s; stderr: ${err:-none}" "stdout:" "$(cat $D/out 2>/dev/null)"
is "$rc" 0 "set-profile latency early in boot exits 0"
is "$(unit_prop $e Result)" success "$e: Result=success"
is "$(unit_prop $u Result)/$(unit_prop $u ExecMainStatus)" success/0 \
	"$u: rcuqs-ctl apply of '$rec' exited 0"
# The order, from the two commands' start and end (monotonic us).
as=$(unit_prop $u ExecMainStartTimestampMonotonic) ae=$(unit_prop $u ExecMainExitTimestampMonotonic)
ss=$(unit_prop $e ExecMainStartTimestampMonotonic) se=$(unit_prop $e ExecMainExitTimestampMonotonic)
# Who took the lock first: apply says which profile it applied, the
# recorded one (it went first) or latency (set-profile did); the unit
# timestamps cannot tell, apply's sandbox setup taking most of a second.
# And whether the other waited for the lock (lock.c says so on stderr).
ujournal=$(journalctl -b --no-pager -o short-monotonic -u $u 2>&1)
applied=$(sed -n "s/.*profile '\([^']*\)' applied\$/\1/p" <<<"$ujournal" | tail -1)
case $applied in
latency) order=set-profile-first ;;
"$rec") order=apply-first ;;
*) order=unknown:apply-applied:${applied:-nothing} ;;
esac
grep -q "waiting for /run/rcuqs.lock" <<<"$err" && order=$order,set-profile-waited
grep -q "waiting for /run/rcuqs.lock" <<<"$ujournal" && order=$order,apply-waited
diag "order: $order; monotonic us: apply $as-$ae, set-profile unit $ss-$se"
diag "$(journalctl -b --no-pager -o short-monotonic -u $u -u $e -u rcuqs-test-active.service 2>&1 | tail -20)"
# The record of the profile before: written before set-profile started
# (the unit's After=), so nothing but rcuqs-ctl touches it in the race.
ta=$(unit_prop rcuqs-test-active.service ActiveEnterTimestampMonotonic)
check "rcuqs.test_active='$rec' was recorded before set-profile started ($ta <= $ss us)" \
	eval '[ "${ta:-0}" -gt 0 ] && [ "$ta" -le "${ss:-0}" ]'
diag "$(journalctl -b --no-pager -o short-monotonic -t rcuqs-ctl 2>&1 | tail -6)"

is "$(rd /etc/rcuqs/active)" latency "/etc/rcuqs/active names latency"
is "$(param cond_resched_qs_limit)" $LIMIT "rcutree.cond_resched_qs_limit is latency's $LIMIT"
sysfs_matches latency "after set-profile latency raced apply of '$rec'"
out=$(rcuqs-ctl verify 2>&1)
is "$?" 0 "verify exits 0 ($out)"

# The effect, with the limit as the boot left it.
housekept || true
nohz_cpu || exit 0
gp="gp_load=1 gp_cpu=0 gp_gap_us=5000 gp_log_us=100000 min_gps=5"	# see 47-effect
lp50="" fp50="" lqs="" bad=0
for ((r = 1; r <= ROUNDS; r++)); do
	with_userspin loop ms=$MS $gp cpu=$nz idle=1 || { bad=1; break; }
	fp50+=" $r_gp50"
	loop ms=$MS $gp cpu=$nz delay_ns=1000 || { bad=1; break; }
	[ "$r_gps" -ge 5 ] || nok "round $r: only $r_gps synchronize_rcu() calls timed"
	lp50+=" $r_gp50" lqs+=" ${d[limit_qs]}"
done
[ $bad = 0 ] || exit 0
# shellcheck disable=SC2086
m_l=$(median $lp50) m_f=$(median $fp50) m_q=$(median $lqs)
diag "loop on nohz_full CPU $nz: p50 ms$(for v in $lp50; do printf ' %s' "$(ms $v)"; done);" \
	"  floor p50 ms$(for v in $fp50; do printf ' %s' "$(ms $v)"; done); limit_qs growth$lqs"
min_q=${lqs# } min_q=${min_q%% *}
for q in $lqs; do ((q < min_q)) && min_q=$q; done
check "limit_qs grew in every loop run (least: $min_q)" eval '[ "$min_q" -gt 0 ]'
ratio_le "$m_l" "$m_f" 3 2 \
	"nohz_full CPU $nz loop: median p50 ($(ms $m_l) ms) under 1.5x the floor, no kernel loop, CPU $nz busy in user space ($(ms $m_f) ms)"
# One line for check-early.sh's table.
echo "# early-result: active=$rec delay=$delay order=$order setprofile_rc=$rc" \
	"limit=$(param cond_resched_qs_limit) p50_us=$m_l floor_us=$m_f limit_qs=$m_q"
