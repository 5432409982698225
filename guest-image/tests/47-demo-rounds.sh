# boots: demo-rounds
# make demo's own sequence, repeated: rcuqs-ctl set-profile default,
# throughput, latency, each followed by the demo's loop (demo_loop: 1.5 s
# of ndelay(1000); cpu_relax(); cond_resched(); on nohz_full CPU 2 while
# CPU 0 times synchronize_rcu() every 5 ms), ROUNDS (8) times in this
# one boot, each round beside the no-loop floor measured in the same
# round. Asserted in every round, as make demo judges its one run
# (demo_effect): latency's p50 within issue 16's goal (1.5 times the
# round's floor, or the boot's median floor where that is lower; at
# least 40 ms), default's beyond it.
#
# Issue 40: on 6.1, latency had no effect in about one make demo in three
# (p50 400-500 ms). The cause was the test loop, not the series: a CPU
# whose loops_per_jiffy 6.1's calibration left near zero under TCG ran
# ndelay() without a PAUSE, and single-threaded TCG then kept the other
# vCPUs off for its 100 ms kick (rcuqs_loop.c, loop_pause()). A round
# failed on its own, so one run could not tell; 8 rounds miss a
# one-in-three failure with probability (2/3)^8 < 4%. The boot has lpj=1
# on its command line: every CPU's ndelay() then returns before its
# first PAUSE, the worst calibration a TCG boot can draw, so that every
# run meets the condition of the failing demos. How often that condition
# failed a round depends on the host: with two busy processes on the
# host's two cores, latency's p50 missed in 2 of 16 rounds (and its p99
# exceeded 40 ms in 13 of 16); on a quiet host the old loop passed this
# test in 2 of 2 boots.
. "$RCUQS_LIB/lib.sh"

ROUNDS=${RCUQS_DEMO_ROUNDS:-8}
nohz_cpu || exit 0
grep -qw 'lpj=1' /proc/cmdline ||
	diag "no lpj=1 on the command line: CPUs keep their own delay calibration"
diag "BogoMIPS per CPU: $(awk -F': ' '/^bogomips/ { printf "%s ", $2 }' /proc/cpuinfo)"
declare -a fl la de
# A round's floor is the lower of its own and the median of the boot's
# floors: a floor window the host or the boot's last jobs disturbed (a
# fresh clone's make check once measured 122 ms in round 1, 15-16 ms in
# the seven others) is not what a grace period takes here, and would
# judge default's held-back grace periods as "not held back". The lower
# floor can only make latency's goal stricter.
judge() {	# judge PROFILE P50: round r's verdict on it, against its floor
	local w f=${fl[r]:-}
	[[ $f =~ ^[0-9]+$ && $mfl =~ ^[0-9]+$ ]] && ((f > mfl)) && f=$mfl
	if w=$(demo_effect "$1" "$2" "$f"); then ok "round $r: $w"; else nok "round $r: $w"; fi
}
for ((r = 1; r <= ROUNDS; r++)); do
	demo_loop floor
	fl[r]=$r_gp50
	line="floor p50 $((r_gp50 / 1000)) ms"
	for p in default throughput latency; do
		if ! out=$(rcuqs-ctl set-profile $p 2>&1); then
			nok "round $r: rcuqs-ctl set-profile $p: $out"
			continue
		fi
		demo_loop
		line="$line; $p p50 $((r_gp50 / 1000)) ms ($r_gps timed, ${d[gp_completed]} grace periods)"
		case $p in
		default) de[r]=$r_gp50 ;;
		latency) la[r]=$r_gp50 ;;
		esac
	done
	diag "round $r: $line"
done
mfl=$(median "${fl[@]}" 2>/dev/null)
diag "the boot's median floor p50: $((mfl / 1000)) ms"
for ((r = 1; r <= ROUNDS; r++)); do
	judge latency "${la[r]:-}"
	judge default "${de[r]:-}"
done
diag "latency p50 per round (ms): $(for v in "${la[@]}"; do printf '%s ' $((v / 1000)); done)" \
	"floor p50 per round (ms): $(for v in "${fl[@]}"; do printf '%s ' $((v / 1000)); done)"
rcuqs-ctl set-profile default >/dev/null 2>&1 || nok "rcuqs-ctl set-profile default at the end"
