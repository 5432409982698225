#!/bin/bash
# beside-build.sh N VARIANT...: the boots whose tests assert time as a
# ratio to a floor (cmdline: 47-effect; nohz-qs on 7.3: 46-nohz-qs), N
# rounds, each round every VARIANT's boots at once beside a kernel build
# from an empty folder (x86_64_defconfig of the 6.1 tree, make -j2), as
# make check boots a suite beside the next kernel's build. Issue 38, item
# 7: a pass/fail bound must hold on a busy host. RCUQS_BOOTS overrides
# the boots. Each round's TAP in $RESULTS/beside-build/ROUND/; the
# summary, one line a variant and round, in $RESULTS/beside-build.txt.
# Exit 1 when any round failed. Not part of make check: about 4 minutes
# a round on 2 CPUs, after make check built the kernels and images.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
RESULTS=${RESULTS:-$BUILD/results}
usage() { echo "usage: beside-build.sh ROUNDS VARIANT..." >&2; exit 2; }
[ $# -ge 2 ] || usage
n=$1
shift
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "beside-build: '$n' is not a number of rounds" >&2; exit 2; }
src=$BUILD/linux
[ -f "$src/Makefile" ] || { echo "beside-build: no 6.1 tree in $src (make check makes it)" >&2; exit 1; }
for v in "$@"; do
	for f in "$BUILD/kernel-$v/arch/x86/boot/bzImage" "$BUILD/guest-$v/initrd.img"; do
		[ -f "$f" ] || { echo "beside-build: $v: no $f (make -C guest-image check-$v builds it)" >&2; exit 1; }
	done
done
kb=$BUILD/beside-build-kernel
out=$RESULTS/beside-build
summary=$RESULTS/beside-build.txt
mkdir -p "$out"
: >"$summary"
bpid=
stop_build() {
	[ -n "$bpid" ] || return 0
	kill -- -"$bpid" 2>/dev/null
	wait "$bpid" 2>/dev/null
	bpid=
}
trap 'stop_build; exit 130' INT TERM
rc=0
for ((r = 1; r <= n; r++)); do
	rm -rf "$kb"
	mkdir -p "$kb" "$out/$r"
	# Its own process group, so that stop_build ends every compiler.
	set -m
	(make -s -C "$src" O="$kb" x86_64_defconfig >/dev/null 2>&1 &&
		exec make -s -C "$src" O="$kb" -j2 >/dev/null 2>&1) &
	bpid=$!
	set +m
	sleep 20
	pids=()
	for v in "$@"; do
		boots=${RCUQS_BOOTS:-cmdline}
		[ -n "${RCUQS_BOOTS:-}" ] || case $v in *-7.3) boots=nohz-qs ;; esac
		RCUQS_BOOTS=$boots RESULTS=$out/$r "$here/check-guest.sh" "$v" >"$out/$r/$v.log" 2>&1 &
		pids+=($!)
	done
	i=0
	for v in "$@"; do
		wait "${pids[$i]}"
		x=$?
		i=$((i + 1))
		objs=$(find "$kb" -name '*.o' 2>/dev/null | wc -l)
		line="round $r $v: $(grep -c '^ok ' "$out/$r/guest-$v.tap" 2>/dev/null) ok, $(grep -c '^not ok ' "$out/$r/guest-$v.tap" 2>/dev/null) not ok (exit $x; the build beside it at $objs objects)"
		[ $x = 0 ] || rc=1
		{
			echo "$line"
			grep -E '^not ok|under 1.5x the floor|at most 1.5x the floor' "$out/$r/guest-$v.tap" | sed 's/^/  /'
			grep -E '^# (2/256|floor|busy|nohzqs1|nohzqs1/sys): p50' "$out/$r/guest-$v.tap" | sed 's/^/  /'
		} >>"$summary"
		echo "beside-build: $line"
	done
	stop_build
done
rm -rf "$kb"
echo "beside-build: $(grep -c ' 0 not ok (exit 0' "$summary") of $((n * $#)) runs passed; $summary"
exit $rc
