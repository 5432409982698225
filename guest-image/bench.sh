#!/bin/bash
# bench.sh [VARIANT...]: 'make bench'. Boots each test kernel named (default: none
# dynamic) once with CPUs 2-3 nohz_full and runs the guest's bench-latency
# (see tests/bench-latency: grace-period latency per profile with a kernel
# loop on a nohz_full CPU and on a ticking one, and cond_resched() cost),
# then once more, also with CPUs 2-3 nohz_full, for bench-open1 (open/close
# throughput per profile, tests/bench-open1), and once more for bench-open1
# without nohz_full (bench open1_tick in the CSV): every CPU keeps its tick
# and no CPU is nocb, the shape of a file server, where the trade a profile
# makes shows: grace periods per second, callbacks per grace period, the
# CPU time of RCU's kthreads, the RCU softirqs and ksoftirqd's CPU time
# per second beside ops/s. Before the boots, on the
# host, tools/cost-native times the kernel's own __cond_resched() machine
# code natively (limit 0, 0 again and 256; where=native in the CSV): TCG
# times the emulator, this times a CPU.
#
# Results, in $RESULTS (build/results):
#   bench.csv                  kernel,bench,setting,round,where,measure,value
#   bench-summary.md           median (min-max) and ratio to default, per table
#   bench-*.png                gnuplot plots (bench-report.sh)
#   bench-{latency,open1}-VARIANT.txt   the guests' own text reports
# The latency boot also counts every interrupt the looping CPU takes and
# the grace periods completed: irqs/s and irqs/GP per setting. The
# README's "what latency buys" quotes those of default, jtsq=1 and latency
# from doc/bench-figures; after a run, bench-report.sh --update-figures
# $RESULTS/bench.csv doc/bench-figures puts the run's kernels' figures
# there (the other kernels' stay), then make -C man check says which
# quote no longer reads as the docs do. One kernel, the latency boot only:
#   BENCH_BOOTS=latency make -C guest-image bench BENCH_KERNELS=lazy-7.3
#
# BENCH_EXTRA adds reference settings to the latency bench,
# NAME:param=value[,param=value] separated by ';' (default: upstream's best
# boot setting, jiffies_till_sched_qs=1, alone and with the limit, and
# upstream's runtime knob /sys/kernel/rcu_expedited=1, with the IPIs the
# loop CPU takes and the normal grace periods call_rcu() still waits for);
# BENCH_OPEN1_EXTRA the same for open1 (default: FQS delays of 10 and of 25
# jiffies, the knob that can move the grace-period rate there while some
# CPUs idle). BENCH_ROUNDS (5), BENCH_MS (2500), BENCH_OPEN1_MS (2000) and
# BENCH_OPEN1_TICK_MS (4000: CPU times come in 10 ms ticks, so a longer
# run resolves them better) set rounds and run lengths. BENCH_BOOTS
# (default "latency open1 open1_tick") picks the boots.
# BENCH_SMOKE=1: one short round of the latency and open1 boots, then check
# that every measure of every setting produced a number (make check's
# bench-smoke step, TAP in $RESULTS/bench-smoke.tap).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
RESULTS=${RESULTS:-$BUILD/results}
extra=${BENCH_EXTRA-jtsq=1:jiffies_till_sched_qs=1;latency+jtsq=1:cond_resched_qs_limit=256,jiffies_till_sched_qs=1;expedited:rcu_expedited=1}
oextra=${BENCH_OPEN1_EXTRA-fqs=10:jiffies_till_first_fqs=10,jiffies_till_next_fqs=10;fqs=25:jiffies_till_first_fqs=25,jiffies_till_next_fqs=25}
rounds=${BENCH_ROUNDS:-5} lms=${BENCH_MS:-2500} oms=${BENCH_OPEN1_MS:-2000} tms=${BENCH_OPEN1_TICK_MS:-4000}
cost=20000000
boots=${BENCH_BOOTS:-latency open1 open1_tick}
prefix=bench
if [ "${BENCH_SMOKE:-}" = 1 ]; then
	# open1_tick is the open1 boot without nohz_full: the same guest
	# code, a boot make check's time is better spent on elsewhere.
	rounds=1 lms=300 oms=300 tms=300 cost=200000 prefix=bench-smoke boots="latency open1"
fi
for b in $boots; do
	case $b in latency | open1 | open1_tick) ;; *) echo "bench: BENCH_BOOTS: no boot '$b'" >&2; exit 2 ;; esac
done
has() { case " $boots " in *" $1 "*) return 0 ;; esac; return 1; }
[ $# -gt 0 ] || set -- none dynamic
mkdir -p "$RESULTS"
csv=$RESULTS/$prefix.csv
echo "kernel,bench,setting,round,where,measure,value" >"$csv"
rc=0
start=$(date +%s)

# boot VARIANT SUITE NAME ARGS...: one bench boot (rcuqs.suite=bench-SUITE);
# the guest's @csv lines go to the CSV file (with the kernel in front),
# the rest to the screen and to the text report (bench-NAME-VARIANT.txt),
# as it comes; then the console is searched for kernel badness, and the
# verdict is the report's last line.
boot() {
	local v=$1 suite=$2 b=$3 line con
	shift 3
	echo "== $prefix: $b on the $v kernel, $(date -u '+%H:%M:%S UTC'), $(($(date +%s) - start)) s in"
	RCUQS_TIMEOUT=${RCUQS_TIMEOUT:-1800} "$here/run-guest.sh" "$v" "bench-$suite" "$@" |
		while IFS= read -r line; do
			case $line in
			@csv,*) echo "$v,${line#@csv,}" >>"$csv" ;;
			*) echo "$line" ;;
			esac
		done | tee "$RESULTS/$prefix-$b-$v.txt"
	[ "${PIPESTATUS[0]}" = 0 ] || { echo "bench: the $v $b boot did not finish" >&2; rc=1; }
	con=$BUILD/guest-$v/bench-$suite.console
	if grep -aE 'WARNING:|detected stalls on CPUs/tasks|self-detected stall|Call Trace' "$con"; then
		echo "bench: kernel badness on the $v console in the $b boot (above)" | tee -a "$RESULTS/$prefix-$b-$v.txt"
		rc=1
	else
		echo "no stall warning or other badness on the $v console in the $b boot" | tee -a "$RESULTS/$prefix-$b-$v.txt"
	fi
}

# The native cost: built here, run on the host between boots (no guest
# runs then), nothing loaded into the host's kernel (see the tool).
native=$BUILD/cost-native
if ! gcc -O2 -Wall -o "$native" "$here/tools/cost-native.c"; then
	echo "bench: cannot build $native" >&2
	exit 1
fi
for v in "$@"; do
	case $v in *-7.3)
		echo "== $prefix: the $v kernel has no cond_resched() limit: no native cost to time"
		continue ;;
	esac
	echo "== $prefix: cond_resched() natively on the host CPU, the $v kernel's code, $(date -u '+%H:%M:%S UTC')"
	if "$native" -n "$cost" -r "$rounds" "$v=$BUILD/kernel-$v/vmlinux" >"$RESULTS/$prefix-native-$v.txt"; then
		sed -n '/^--/,$p' "$RESULTS/$prefix-native-$v.txt"
		awk -v OFS=, '!/^--/ && NF == 4 {
			s = $2 == "0" ? "limit_0" : $2 == "0-aa" ? "limit_0b" : "limit_" $2
			print $1, "cost", s, $3, "native", "ps_per_call", $4
		}' "$RESULTS/$prefix-native-$v.txt" >>"$csv"
	else
		echo "bench: cost-native failed on the $v kernel" >&2
		rc=1
	fi
done

for v in "$@"; do
	if has latency; then
		args=(nohz_full=2-3 rcuqs.bench_rounds=$rounds rcuqs.bench_ms=$lms rcuqs.bench_cost_loops=$cost)
		# 7.3 has no limit: its reference rows set jiffies_till_nohz_qs=1,
		# what latency sets there, where 6.1's set the limit of 256.
		vextra=$extra
		case $v in *-7.3) vextra=${extra//cond_resched_qs_limit=256/jiffies_till_nohz_qs=1} ;; esac
		[ -n "$vextra" ] && args+=("rcuqs.bench_extra=$vextra")
		boot "$v" latency latency "${args[@]}"
	fi
	if has open1; then
		args=(nohz_full=2-3 rcuqs.bench_rounds=$rounds rcuqs.bench_ms=$oms)
		[ -n "$oextra" ] && args+=("rcuqs.bench_extra=$oextra")
		boot "$v" open1 open1 "${args[@]}"
	fi
	# The file-server shape: no nohz_full (so no nocb CPU either), every
	# CPU keeps its tick.
	if has open1_tick; then
		args=(rcuqs.bench_name=open1_tick rcuqs.bench_rounds=$rounds rcuqs.bench_ms=$tms)
		[ -n "$oextra" ] && args+=("rcuqs.bench_extra=$oextra")
		boot "$v" open1 open1_tick "${args[@]}"
	fi
done

if [ "$prefix" = bench-smoke ]; then
	tap=$RESULTS/bench-smoke.tap
	BENCH_BOOTS="$boots" "$here/bench-report.sh" --check "$csv" "$@" >"$tap" || rc=1
	[ "$rc" = 0 ] || grep -q '^not ok' "$tap" ||
		echo "not ok - bench smoke: a bench boot failed or its console showed badness (above)" >>"$tap"
	echo "bench smoke: $(grep -c '^ok' "$tap") measures with numbers, $(grep -c '^not ok' "$tap") failures (TAP: $tap)"
	exit $rc
fi
"$here/bench-report.sh" "$csv" "$RESULTS" || rc=1
echo
echo "bench: $(($(date +%s) - start)) s. Results in $RESULTS:"
echo "  $csv (one row per kernel, setting, round and measure)"
echo "  $RESULTS/bench-summary.md"
ls "$RESULTS"/bench-*.png 2>/dev/null | sed 's/^/  /'
exit $rc
