# boots: torture
# rcutorture.qs_tunable_interval acts only with torture_type=rcu, and at
# its end leaves a tunable someone else wrote during the run as it is.
. "$RCUQS_LIB/lib.sh"

j=$(param jiffies_till_sched_qs)
# The tunable written during the run: the limit, or on 7.3, which has
# none, jiffies_till_nohz_qs (rcutorture rewrites that one there).
other=$(knob2)
lim=$(param $other)
mine=64
[ "$lim" = $mine ] && mine=65
args="stat_interval=0 verbose=0 onoff_interval=0 fwd_progress=0"

# since N: the kernel log after its first N lines.
since() { dmesg | tail -n +$(($1 + 1)); }

n0=$(dmesg | wc -l)
out=$(modprobe rcutorture torture_type=srcu qs_tunable_interval=5 $args 2>&1)
check "rcutorture torture_type=srcu qs_tunable_interval=5 loads ($out)" test -d /sys/module/rcutorture
sleep 2
modprobe -r rcutorture
log=$(since "$n0")
check "torture_type=srcu: qs_tunable_interval says it is for torture_type=rcu only" \
	grep -q 'qs_tunables: for torture_type=rcu only' <<<"$log"
is "$(grep -c 'qs_tunables: [0-9]* writes' <<<"$log")" 0 "torture_type=srcu: no tunable rewrites"
is "$(param jiffies_till_sched_qs) $(param $other)" "$j $lim" \
	"torture_type=srcu left both tunables alone"

# qs_tunable_interval so long that rcutorture writes nothing before its
# end: the administrator's write is the last one, and it stays.
n0=$(dmesg | wc -l)
out=$(modprobe rcutorture torture_type=rcu qs_tunable_interval=100000000 $args 2>&1)
check "rcutorture torture_type=rcu with a long qs_tunable_interval loads ($out)" test -d /sys/module/rcutorture
setp $other $mine
sleep 1
modprobe -r rcutorture
log=$(since "$n0")
diag "$(grep qs_tunables <<<"$log")"
is "$(param $other)" $mine \
	"a $other written during the run ($mine) is kept at rcutorture's end"
check "rcutorture says it kept it" \
	grep -q "qs_tunables: rcutree.$other=$mine written by another, kept" <<<"$log"
is "$(param jiffies_till_sched_qs)" "$j" "jiffies_till_sched_qs, which nobody wrote, is as before"
setp $other "$lim"
