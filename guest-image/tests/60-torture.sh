# boots: torture
# rcutorture (torture_type=rcu, CPU hotplug on) while a loop rewrites
# jiffies_till_sched_qs and cond_resched_qs_limit, including auto and 0.
# Pass: rcutorture's "End of test: SUCCESS"; the host scans the console for
# stalls and splats.
. "$RCUQS_LIB/lib.sh"

secs=${RCUQS_TORTURE_SECS:-$(cmdline_arg rcuqs.torture_secs || echo 60)}
max=$(sched_qs_max)
args="torture_type=rcu stat_interval=15 onoff_interval=3 onoff_holdoff=5 verbose=0"
diag "modprobe rcutorture $args; rewriting the tunables for $secs s"
out=$(modprobe rcutorture $args 2>&1)
check "rcutorture loads ($out)" test -d /sys/module/rcutorture

writes=0 bad=0
end=$((SECONDS + secs))
js=(1 3 auto 25 $max 100 auto 7)
ls=(0 1 256 0 1048576 7 0 100)
i=0
while [ $SECONDS -lt $end ]; do
	k=$((i % ${#js[@]}))
	swrite $P/jiffies_till_sched_qs "${js[k]}" >/dev/null || bad=$((bad + 1))
	swrite $P/cond_resched_qs_limit "${ls[k]}" >/dev/null || bad=$((bad + 1))
	writes=$((writes + 2))
	i=$((i + 1))
	sleep 0.2
done
is "$bad" 0 "$writes valid writes during the torture run all succeeded"
setp jiffies_till_sched_qs auto
setp cond_resched_qs_limit 0

out=$(modprobe -r rcutorture 2>&1)
check "rcutorture unloads ($out)" test ! -d /sys/module/rcutorture
log=$(dmesg | grep -E 'rcu-torture|rcu_torture' )
diag "$(grep -E 'End of test|Reader Pipe|Free-Block|!!!' <<<"$log" | tail -6)"
check "rcutorture: End of test: SUCCESS" grep -q 'End of test: SUCCESS' <<<"$log"
fails=$(grep -c '!!!' <<<"$log")
is "$fails" 0 "rcutorture printed no '!!!' error line"
diag "onlines/offlines: $(grep -oE 'onoff: [0-9]+/[0-9]+:[0-9]+/[0-9]+' <<<"$log" | tail -1)"
