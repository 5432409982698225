#!/bin/bash
# bench.sh [VARIANT...]: 'make bench'. Boots each test kernel (default: none
# dynamic) once with CPUs 2-3 nohz_full and runs the guest's bench-latency
# (see tests/bench-latency), then once without nohz_full for bench-open1
# (open/close throughput per profile, tests/bench-open1). The reports go to
# stdout and to $RESULTS/bench-{latency,open1}-VARIANT.txt; BENCH_OPEN1_MS
# sets the length of an open1 run (2000).
#
# BENCH_EXTRA adds reference settings, NAME:param=value[,param=value]
# separated by ';' (default: upstream's best boot setting,
# jiffies_till_sched_qs=1, alone). BENCH_ROUNDS (5) and BENCH_MS (2500)
# set the rounds and the length of each run.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
RESULTS=${RESULTS:-$BUILD/results}
extra=${BENCH_EXTRA-jtsq=1:jiffies_till_sched_qs=1}
[ $# -gt 0 ] || set -- none dynamic
mkdir -p "$RESULTS"
rc=0
for v in "$@"; do
	out=$RESULTS/bench-latency-$v.txt
	args=(nohz_full=2-3 rcuqs.bench_rounds=${BENCH_ROUNDS:-5} rcuqs.bench_ms=${BENCH_MS:-2500})
	[ -n "$extra" ] && args+=("rcuqs.bench_extra=$extra")
	echo "== bench: $v kernel ($(date -u '+%Y-%m-%d %H:%M UTC'), host $(nproc) CPUs, QEMU TCG single-threaded, -smp 4)"
	RCUQS_TIMEOUT=${RCUQS_TIMEOUT:-1800} "$here/run-guest.sh" "$v" bench-latency "${args[@]}" |
		tee "$out"
	[ "${PIPESTATUS[0]}" = 0 ] || { echo "bench: the $v boot did not finish" >&2; rc=1; }
	out=$RESULTS/bench-open1-$v.txt
	RCUQS_TIMEOUT=${RCUQS_TIMEOUT:-1800} "$here/run-guest.sh" "$v" bench-open1 \
		rcuqs.bench_rounds=${BENCH_ROUNDS:-5} rcuqs.bench_ms=${BENCH_OPEN1_MS:-2000} | tee "$out"
	[ "${PIPESTATUS[0]}" = 0 ] || { echo "bench: the $v open1 boot did not finish" >&2; rc=1; }
	if grep -aE 'WARNING:|detected stalls on CPUs/tasks|self-detected stall|Call Trace' \
		"$BUILD/guest-$v/bench-latency.console" "$BUILD/guest-$v/bench-open1.console"; then
		echo "bench: kernel badness on the $v console (above)" | tee -a "$out"
		rc=1
	else
		echo "no stall warning or other badness on the console" | tee -a "$out"
	fi
done
exit $rc
