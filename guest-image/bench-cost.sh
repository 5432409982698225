#!/bin/bash
# bench-cost.sh: 'make bench-cost'. What cond_resched() costs with the
# series, against the same PREEMPT_NONE kernel built without it
# (kernel-patches: make kernel-base).
#
# 1. Static (cost-static.sh): the instructions and bytes one
#    cond_resched() executes when nothing is to be done, on both vmlinux
#    files, with the limit off and at 256. Host load does not enter into it.
# 2. Timed: boots alternating base and patched, COST_BOOTS (5) of each
#    (base, patched, base, patched, ...), each running tests/bench-cost:
#    a tight cond_resched() loop on CPU 1 (COST_LOOPS, 20000000 calls a
#    run, COST_ROUNDS, 7, rounds; the patched kernel rotates the limit 0,
#    0 again and 256). rcuqs.service is masked in both, so that nothing
#    but the bench sets a tunable.
# 3. Native: tools/cost-native runs the same kernels' own __cond_resched()
#    machine code on the host CPU, in user space (COST_NATIVE_ROUNDS, 15,
#    rounds of COST_LOOPS calls; the dynamic kernel's 256 against its 0
#    too when it is built), then again with COST_NATIVE_WORK (16 64 256
#    1024) iterations of work before each call, where=native-work<N>.
#
# Report: $RESULTS/bench-cost.txt; CSV $RESULTS/bench-cost.csv with the
# columns kernel,bench,setting,round,where,measure,value (bench=cost;
# measure ps_per_call per run, where=boot<N>; instructions, bytes, calls,
# taken_jumps from the static trace, where=static).
#
# RCUQS_LOCK=FILE holds flock(1) on FILE around each boot, so that other
# heavy jobs that take the same lock do not run during a timed boot.
# Images: $BUILD/guest-base (base kernel) and $BUILD/guest-cost-none
# (patched none kernel), both made by build-initrd.sh (the Makefile).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
RESULTS=${RESULTS:-$BUILD/results}
boots=${COST_BOOTS:-5} rounds=${COST_ROUNDS:-7} loops=${COST_LOOPS:-20000000}
lock=${RCUQS_LOCK:-}
txt=$RESULTS/bench-cost.txt csv=$RESULTS/bench-cost.csv
for x in "$boots" "$rounds" "$loops"; do
	[[ $x =~ ^[1-9][0-9]*$ ]] || { echo "bench-cost: '$x' is not a positive number" >&2; exit 2; }
done
mkdir -p "$RESULTS"
: >"$txt"
echo "kernel,bench,setting,round,where,measure,value" >"$csv"
say() { printf '%s\n' "$*" | tee -a "$txt"; }
progress() { echo "bench-cost: $*" >&2; }

say "== bench-cost: cond_resched() with the rcuqs series against the same kernel without it"
say "   $(date -u '+%Y-%m-%d %H:%M UTC'), host $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')),"
say "   PREEMPT_NONE test configuration; base = $BUILD/kernel-base, patched = $BUILD/kernel-none"
say

progress "static: tracing __cond_resched in both vmlinux files"
if ! "$here/cost-static.sh" -c "$csv" "$BUILD/kernel-base/vmlinux" "$BUILD/kernel-none/vmlinux" >>"$txt"; then
	progress "the static trace failed"
	exit 1
fi
sed -n '/^== summary/,$p' "$txt"
say

# boot KIND N: one timed boot; appends its COST lines to $runs.
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
rc=0
boot() {
	local kind=$1 b=$2 v dir out
	if [ "$kind" = base ]; then v=base dir=$BUILD/guest-base; else v=none dir=$BUILD/guest-cost-none; fi
	progress "boot $b of $boots, $kind kernel ($(date -u +%H:%M:%S))"
	out=$(RCUQS_GUEST_DIR=$dir RCUQS_TIMEOUT=${RCUQS_TIMEOUT:-1200} \
		${lock:+flock "$lock"} "$here/run-guest.sh" "$v" bench-cost \
		systemd.mask=rcuqs.service rcuqs.bench_rounds="$rounds" rcuqs.bench_loops="$loops")
	local grc=$?
	printf '%s\n' "$out" | sed "s/^/   [$kind boot $b] /" >>"$txt"
	if [ $grc != 0 ]; then
		progress "the $kind boot $b did not finish (console: $dir/bench-cost.console)"
		rc=1
	fi
	if grep -aE 'WARNING:|detected stalls on CPUs/tasks|self-detected stall|Call Trace' \
		"$dir/bench-cost.console"; then
		say "bench-cost: kernel badness on the $kind console of boot $b (above)"
		rc=1
	fi
	grep '^COST ' <<<"$out" | sed "s/^/boot=$b /" >>"$runs"
	grep -- '^-- cond_resched\|^[0-9a-z-]* *[0-9]* ([0-9]*-[0-9]*)' <<<"$out" | sed 's/^/   /' >&2
}
for ((b = 1; b <= boots; b++)); do
	boot base "$b"
	boot patched "$b"
done

# CSV rows, and the per-setting lists.
declare -A ALL
while read -r bt _ k s r _ _ p; do
	b=${bt#boot=} k=${k#kernel=} s=${s#setting=} r=${r#run=} p=${p#ps=}
	echo "$k,cost,$s,$r,boot$b,ps_per_call,$p" >>"$csv"
	ALL[$k/$s]+=" $p"
done <"$runs"

# stats LIST: "median (min-max) n=N"
stats() {
	sort -n <<<"$(tr ' ' '\n' <<<"$1" | sed '/^$/d')" | awk '
		{ v[NR] = $1 }
		END { if (NR == 0) { print "no runs"; exit }
		      printf "%d (%d-%d) n=%d\n", v[int((NR + 1) / 2)], v[1], v[NR], NR }'
}
med() { stats "$1" | cut -d' ' -f1; }
lo() { stats "$1" | sed 's/.*(\([0-9]*\)-.*/\1/'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }

say "== timed: ps per cond_resched() call, all runs of all boots (${boots} boots per kernel, alternating;"
say "   $rounds rounds of $loops calls a boot), median (min-max), ratio of medians to base"
mb=$(med "${ALL[base/base]-}")
for ks in base/base base/base-aa patched/0 patched/0-aa patched/256; do
	printf -v line '%-20s %-24s x base %s' "$ks" "$(stats "${ALL[$ks]-}")" "$(ratio "$(med "${ALL[$ks]-}")" "$mb")"
	say "$line"
done
say
say "-- per boot pair (base boot N, then patched boot N): median ps per call"
say "   (base, base-aa | 0, 0-aa, 256), and the pair's ratios to its base"
pr0="" pr256=""
for ((b = 1; b <= boots; b++)); do
	line="boot $b:"
	for ks in base/base base/base-aa patched/0 patched/0-aa patched/256; do
		l=$(awk -v b="$b" -v k="${ks%/*}" -v s="${ks#*/}" \
			'$1 == "boot=" b && $3 == "kernel=" k && $4 == "setting=" s { sub(/ps=/, "", $8); print $8 }' "$runs" | tr '\n' ' ')
		line="$line $(med "$l")"
		[ "$ks" = base/base-aa ] && line="$line |"
		[ "$ks" = base/base ] && pb=$(med "$l")
		[ "$ks" = patched/0 ] && p0=$(med "$l")
		[ "$ks" = patched/256 ] && p256=$(med "$l")
	done
	r0=$(ratio "$p0" "$pb") r256=$(ratio "$p256" "$pb")
	pr0="$pr0 $r0" pr256="$pr256 $r256"
	say "$line   0 x base $r0, 256 x base $r256, 256 x 0 $(ratio "$p256" "$p0")"
done
say
m0=$(med "${ALL[patched/0]-}") m256=$(med "${ALL[patched/256]-}")
say "base : patched limit 0 : patched limit 256 = 1 : $(ratio "$m0" "$mb") : $(ratio "$m256" "$mb")"
# rstats LIST: "median (min-max)" of decimal ratios
rstats() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 }
	END { printf "%s (%s-%s)", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
say "the same per boot pair (the host drifts between boots; a pair's boots are"
say "  neighbours in time): limit 0 x base $(rstats "$pr0"), limit 256 x base $(rstats "$pr256")"
say "the same by the fastest run of each (what the code costs when nothing else"
say "  takes the host's CPU): 1 : $(ratio "$(lo "${ALL[patched/0]-}")" "$(lo "${ALL[base/base]-}")") : $(ratio "$(lo "${ALL[patched/256]-}")" "$(lo "${ALL[base/base]-}")")"
say "limit 256 against limit 0 (same boots): $(ratio "$m256" "$m0")"
say "A/A spreads (base-aa x base, 0-aa x 0): $(ratio "$(med "${ALL[base/base-aa]-}")" "$mb"), $(ratio "$(med "${ALL[patched/0-aa]-}")" "$m0")"
say "TCG times the emulator, not a CPU: the instruction counts above are the exact answer;"
say "the timed ratios only show whether anything beyond them is measurable here."
say

# 3. Natively: the kernels' own __cond_resched() code run on the host CPU
# in user space (tools/cost-native.c; nothing is loaded into the host's
# kernel), settings interleaved in each round; the dynamic kernel too
# when it is built (it has no base of its own: its 256 against its 0).
native=$BUILD/cost-native
progress "native: the kernels' own __cond_resched() code on the host CPU"
imgs=("base=$BUILD/kernel-base/vmlinux" "none=$BUILD/kernel-none/vmlinux")
[ -f "$BUILD/kernel-dynamic/vmlinux" ] && imgs+=("dynamic=$BUILD/kernel-dynamic/vmlinux")
say "== native: ps per call on the host CPU, the kernels' own machine code (tools/cost-native.c),"
say "   ${COST_NATIVE_ROUNDS:-15} rounds of $loops calls, settings rotated in each round; median"
if gcc -O2 -Wall -o "$native" "$here/tools/cost-native.c" &&
	${lock:+flock "$lock"} "$native" -n "$loops" -r "${COST_NATIVE_ROUNDS:-15}" "${imgs[@]}" >"$txt.native"; then
	sed -n '/^--/,$p' "$txt.native" | tee -a "$txt"
	awk -v OFS=, '!/^--/ && NF == 4 {
		k = $1 == "base" ? "base" : $1 == "none" ? "patched" : $1
		print k, "cost", $2, $3, "native", "ps_per_call", $4
	}' "$txt.native" >>"$csv"
	rm -f "$txt.native"
else
	progress "cost-native failed"
	rc=1
fi
# The same with work between the calls, as real loops have: what 256
# costs as a share of a loop iteration. COST_NATIVE_WORK: iterations of a
# one-cycle loop before each call (none: skip).
patched=("${imgs[@]:1}")
for w in ${COST_NATIVE_WORK-16 64 256 1024}; do
	say
	say "-- native, $w work iterations before each call (2000000 calls, 7 rounds)"
	if "$native" -n 2000000 -r 7 -w "$w" "${patched[@]}" >"$txt.native"; then
		sed -n '/^--/,$p' "$txt.native" | tail -n +2 | tee -a "$txt"
		awk -v OFS=, -v w="$w" '!/^--/ && NF == 4 {
			k = $1 == "none" ? "patched" : $1
			print k, "cost", $2, $3, "native-work" w, "ps_per_call", $4
		}' "$txt.native" >>"$csv"
		rm -f "$txt.native"
	else
		progress "cost-native -w $w failed"
		rc=1
	fi
done
progress "done; report $txt, CSV $csv"
exit $rc
