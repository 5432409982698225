# boots: active
# A machine whose administrator recorded latency (rcuqs.test_active=latency
# plays that part, see units/rcuqs-test-active.service): rcuqs.service,
# enabled from its [Install] section, applied it before sysinit.target;
# the kernel holds the profile's values and verify agrees right after boot.
. "$RCUQS_LIB/lib.sh"

p=$(cmdline_arg rcuqs.test_active)
out=$(rcuqs-ctl verify 2>&1)
is "$?" 0 "verify right after boot exits 0 ($out)"
is "$p" latency "this boot records latency"
is "$(rd /etc/rcuqs/active)" "$p" "/etc/rcuqs/active names $p"
sysfs_matches "$p" "after boot with $p recorded"

u=rcuqs.service
is "$(systemctl is-enabled $u 2>&1)" enabled "$u is enabled"
is "$(unit_prop $u ConditionResult)" yes "$u: ConditionResult=yes"
is "$(unit_prop $u ActiveState)" active "$u: ActiveState=active (oneshot, RemainAfterExit)"
is "$(unit_prop $u Result)" success "$u: Result=success"
is "$(unit_prop $u ExecMainStatus)" 0 "$u: rcuqs-ctl apply exited 0"
diag "$(journalctl -b --no-pager -o short-monotonic -u $u 2>&1 | tail -8)"
# Ordering, as systemd holds it and as it happened.
check "$u: Before= lists sysinit.target" eval '[[ " $(unit_prop $u Before) " == *" sysinit.target "* ]]'
check "sysinit.target: After= lists $u" \
	eval '[[ " $(unit_prop sysinit.target After) " == *" $u "* ]]'
check "rcuqs-test-active.service ordered before $u" \
	eval '[[ " $(unit_prop $u After) " == *" rcuqs-test-active.service "* ]]'
t_u=$(unit_prop $u ActiveEnterTimestampMonotonic)
t_s=$(unit_prop sysinit.target ActiveEnterTimestampMonotonic)
t_a=$(unit_prop rcuqs-test-active.service ActiveEnterTimestampMonotonic)
t_x=$(unit_prop $u InactiveExitTimestampMonotonic)
diag "monotonic us: rcuqs-test-active active $t_a; $u started $t_x, active $t_u; sysinit.target active $t_s"
check "$u was active before sysinit.target was reached ($t_u < $t_s us)" \
	eval '[ "${t_u:-0}" -gt 0 ] && [ "$t_u" -le "${t_s:-0}" ]'
check "$u started after /etc/rcuqs/active was written ($t_a <= $t_x us)" \
	eval '[ "${t_a:-0}" -gt 0 ] && [ "$t_a" -le "${t_x:-0}" ]'
out=$(rcuqs-ctl status 2>&1)
# Where the profile's limit cannot act (6.1, 6.12 under preempt=full),
# status says so on that line (59-preempt-full).
st="no drift"
limit_idle && st="no drift, but its limit cannot act here"
check "status names the active profile, $st" eval 'grep -q "active profile: $p ($st)" <<<"$out"'
diag "$out"
