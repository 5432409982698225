# boots: main
# Two rcuqs-ctl set-profile commands racing, 100 times, on the real
# kernel: the lock serializes them, so after every round sysfs holds one
# whole profile (never latency's limit with throughput's delay or the
# reverse), /etc/rcuqs/active names that profile, and verify exits 0.
. "$RCUQS_LIB/lib.sh"

N=${RCUQS_RACE:-100}
fails=0 torn=0 wrong=0 rounds=0
# What each profile leaves in jiffies_till_sched_qs and the series'
# second knob on this kernel (the limit, or 7.3's jiffies_till_nohz_qs).
second=$(knob2)
declare -A want
for p in latency throughput; do
	pv=()
	profile_load $p
	want[$p]="${pv[rcutree.jiffies_till_sched_qs]} ${pv[rcutree.$second]}"
done
diag "latency leaves '${want[latency]}', throughput '${want[throughput]}' (jiffies_till_sched_qs $second)"
for ((i = 1; i <= N; i++)); do
	rcuqs-ctl set-profile latency >/dev/null 2>&1 &
	a=$!
	rcuqs-ctl set-profile throughput >/dev/null 2>&1 &
	b=$!
	wait $a || fails=$((fails + 1))
	wait $b || fails=$((fails + 1))
	get j $P/jiffies_till_sched_qs
	get l $P/$second
	get act /etc/rcuqs/active
	case "$j $l" in
	"${want[latency]}") got=latency ;;
	"${want[throughput]}") got=throughput ;;
	*) got=torn torn=$((torn + 1)); diag "round $i: torn: jiffies_till_sched_qs=$j $second=$l" ;;
	esac
	if [ "$got" != torn ] && [ "$act" != "$got" ]; then
		wrong=$((wrong + 1))
		diag "round $i: sysfs holds $got, /etc/rcuqs/active names '$act'"
	fi
	rounds=$i
done
is "$fails" 0 "$rounds racing pairs of set-profile: every command exited 0"
is "$torn" 0 "after every round sysfs held one whole profile"
is "$wrong" 0 "after every round /etc/rcuqs/active named the profile sysfs held"
out=$(rcuqs-ctl verify 2>&1)
is "$?" 0 "verify exits 0 after the race ($out)"
sysfs_matches "$(rd /etc/rcuqs/active)" "after the race"
rcuqs-ctl set-profile default >/dev/null 2>&1
