# boots: main
# Switching the limit on and off patches the cond_resched() fast path (a
# static key). Do it many times while another CPU runs cond_resched() in
# a tight loop, the worst moment for the patching; the host fails the boot
# on any oops, int3 trap or other splat in the console log.
. "$RCUQS_LIB/lib.sh"
has_limit || { no_limit_skip "switching cond_resched_qs_limit during a cond_resched() loop"; exit 0; }

flips=${RCUQS_FLIPS:-300}
loop_bg ms=8000 cpu=2
pid=$loop_pid
sleep 0.3
bad=0
for ((i = 0; i < flips; i++)); do
	sysfs-write $P/cond_resched_qs_limit $((i % 2 ? 0 : 1 + i % 7)) >/dev/null || bad=$((bad + 1))
done
is "$bad" 0 "$flips writes switching cond_resched_qs_limit between 0 and 1..7 during a cond_resched() loop"
wait $pid
check "the loop module ran to its end meanwhile ($(rd $M/done_loops) calls)" test -d /sys/module/rcuqs_loop
modprobe -r rcuqs_loop
setp cond_resched_qs_limit 0
