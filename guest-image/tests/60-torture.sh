# boots: torture
# rcutorture (torture_type=rcu, CPU hotplug on) rewriting
# jiffies_till_sched_qs and cond_resched_qs_limit (7.3: jiffies_till_nohz_qs) itself, including auto
# and 0 (rcutorture.qs_tunable_interval, patch 5), while rcuqs-ctl
# set-profile switches to a random shipped profile every 100 ms.
# Pass: rcutorture's "End of test: SUCCESS", every switch succeeded, the
# values in force before the run are back after it, and the recorded
# profile applies and verifies. The host scans the console for stalls and
# splats.
. "$RCUQS_LIB/lib.sh"

secs=${RCUQS_TORTURE_SECS:-$(cmdline_arg rcuqs.torture_secs || echo 60)}
args="torture_type=rcu stat_interval=15 onoff_interval=3 onoff_holdoff=5 verbose=0"
args="$args qs_tunable_interval=50"
# The series' second tunable (rcutorture rewrites whichever the kernel has).
second=$(knob2)
before="$(param jiffies_till_sched_qs) $(param $second)"
diag "modprobe rcutorture $args; set-profile every 100 ms for $secs s"
out=$(modprobe rcutorture $args 2>&1)
check "rcutorture loads ($out)" test -d /sys/module/rcutorture

mapfile -t profiles < <(shipped_profiles)
switches=0 failed=0
end=$((SECONDS + secs))
while [ $SECONDS -lt $end ]; do
	p=${profiles[RANDOM % ${#profiles[@]}]}
	if out=$(rcuqs-ctl set-profile "$p" 2>&1); then
		switches=$((switches + 1))
		last=$p
	else
		failed=$((failed + 1))
		[ $failed -le 3 ] && diag "set-profile $p failed: $out"
	fi
	sleep 0.1
done
is "$failed" 0 "$switches set-profile switches during the torture run all succeeded"
diag "switches survived: $switches (profiles: ${profiles[*]})"

out=$(modprobe -r rcutorture 2>&1)
check "rcutorture unloads ($out)" test ! -d /sys/module/rcutorture
log=$(dmesg | grep -E 'rcu-torture|rcu_torture')
diag "$(grep -E 'End of test|Reader Pipe|Free-Block|qs_tunables|!!!' <<<"$log" | tail -8)"
check "rcutorture: End of test: SUCCESS" grep -q 'End of test: SUCCESS' <<<"$log"
fails=$(grep -c '!!!' <<<"$log")
is "$fails" 0 "rcutorture printed no '!!!' error line"
w=$(grep -oE 'qs_tunables: [0-9]+ writes, [0-9]+ refused' <<<"$log" | tail -1)
check "rcutorture rewrote the tunables itself ($w)" \
	eval '[[ $w =~ ^qs_tunables:\ ([0-9]+)\ writes ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]'
diag "onlines/offlines: $(grep -oE 'onoff: [0-9]+/[0-9]+:[0-9]+/[0-9]+' <<<"$log" | tail -1)"
# rcutorture puts back what was in force when it started, unless the
# last write of a tunable was rcuqs-ctl's: then it says so and keeps it.
set -- $before
for name in jiffies_till_sched_qs $second; do
	b=$1
	shift
	cur=$(param $name)
	kept=$(sed -n "s/.*qs_tunables: rcutree.$name=\(.*\) written by another, kept.*/\1/p" <<<"$log" | tail -1)
	if [ -n "$kept" ]; then
		is "$cur" "$kept" "rcutorture kept $name=$kept, which rcuqs-ctl wrote last"
	else
		is "$cur" "$b" "rcutorture restored the $name it found ($b)"
	fi
done

# The recorded profile is one whole profile, the last one switched to.
is "$(rd /etc/rcuqs/active)" "${last:-}" "/etc/rcuqs/active names the last profile set ($last)"
out=$(rcuqs-ctl verify 2>&1)
diag "verify right after rcutorture's restore (exit $?): $out"
out=$(rcuqs-ctl apply 2>&1)
is "$?" 0 "rcuqs-ctl apply of the recorded profile exits 0"
out=$(rcuqs-ctl verify 2>&1)
is "$?" 0 "verify at the end exits 0 ($out)"
sysfs_matches "$last" "at the end"
