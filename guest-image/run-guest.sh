#!/bin/bash
# run-guest.sh [-t SECONDS] [-o BODY] VARIANT BOOT [CMDLINE-ARG...]
#
# Boot the rcuqs guest once: kernel $BUILD/kernel-VARIANT, initramfs
# $BUILD/guest-VARIANT/initrd.img, QEMU TCG (KVM only with RCUQS_KVM=1;
# RCUQS_ACCEL replaces the -accel option), 4 CPUs, 1 GiB. BOOT names the
# boot (rcuqs.suite=BOOT): the guest runs the test files whose "# boots:"
# line lists BOOT, or the demo for BOOT=demo.
# Extra arguments go on the kernel command line. RCUQS_KERNEL=FILE boots
# another bzImage (for example an unpatched one, to see the tests fail);
# RCUQS_GUEST_DIR another folder for the initramfs and the logs.
#
# Serial port 0 is the console, kept in $BUILD/guest-VARIANT/BOOT.console;
# port 1 carries only the guest's TAP, kept in BOOT.tap-raw. The host then
# judges the boot and appends unnumbered TAP ("ok - ..." lines, guest
# results first, then one line per harness check) to BODY (default
# $BUILD/guest-VARIANT/BOOT.body). Exit status: 0 when every line is ok.
# For BOOT=demo and BOOT=bench-* the guest's text goes to stdout instead.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
timeout=${RCUQS_TIMEOUT:-600}
body=

usage() { echo "usage: run-guest.sh [-t SECONDS] [-o BODY] VARIANT BOOT [CMDLINE-ARG...]" >&2; exit 2; }
while getopts t:o: opt; do
	case $opt in
	t) timeout=$OPTARG ;;
	o) body=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
v=$1 boot=$2
shift 2
[[ $timeout =~ ^[1-9][0-9]*$ ]] || { echo "run-guest: timeout '$timeout' is not a number of seconds" >&2; exit 2; }

out=${RCUQS_GUEST_DIR:-$BUILD/guest-$v}
kernel=${RCUQS_KERNEL:-$BUILD/kernel-$v/arch/x86/boot/bzImage}
initrd=$out/initrd.img
for f in "$kernel" "$initrd"; do
	[ -f "$f" ] || { echo "run-guest: $f missing (make -C guest-image image)" >&2; exit 2; }
done
console=$out/$boot.console
raw=$out/$boot.tap-raw
# The body file is appended to: a caller collecting several boots in one
# file (check-guest.sh) empties it itself.
if [ -z "$body" ]; then
	body=$out/$boot.body
	: >"$body"
fi
rm -f "$console" "$raw"

# Single-threaded TCG: with QEMU 7.2's multi-threaded TCG, switching a
# static key while another vCPU runs through the patched site traps on a
# stale int3 (text_poke_bp's breakpoint seen after the patching ended):
# tests/35-keyflip.sh shows it in __cond_resched, and a private static key
# in a scratch module on 6.1 without the series crashed the same way, so
# it is QEMU's, not the series' (mttcg-proof.sh; its record,
# mttcg-proof-results.txt: 5 of 5 boots multi-threaded, 0 of 5
# single-threaded, each way). RCUQS_ACCEL overrides, e.g.
# RCUQS_ACCEL="-accel tcg,thread=multi" to see it.
accel=${RCUQS_ACCEL:--accel tcg,thread=single}
[ "${RCUQS_KVM:-0}" = 1 ] && accel="-accel kvm -cpu host"
append="console=ttyS0 panic=-1 rcuqs.suite=$boot systemd.unit=rcuqs-suite.target"
append="$append systemd.show_status=error $*"

# Under multi-threaded TCG the same stale int3 also hits the static keys
# that the kernel itself switches while booting, with the other vCPUs
# already up: an "int3" oops seconds into the boot, before the suite has
# written a line. Such a boot is booted again, at most
# RCUQS_MT_INT3_RETRIES times (default 2), its console kept beside as
# BOOT.console.int3-N and said in BODY; an oops of any kind once the suite
# has started, or under single-threaded TCG, is judged below as always.
retries=${RCUQS_MT_INT3_RETRIES:-2}
[[ $retries =~ ^[0-9]+$ ]] || { echo "run-guest: RCUQS_MT_INT3_RETRIES '$retries' is not a number" >&2; exit 2; }
rm -f "$console".int3-*
retried=()
for ((try = 0; ; try++)); do
	echo "run-guest: $v/$boot: booting ($accel, timeout ${timeout} s): $append" >&2
	start=$(date +%s)
	# shellcheck disable=SC2086
	timeout -k 10 "$timeout" qemu-system-x86_64 $accel -smp 4 -m 1G \
		-nodefaults -display none -monitor none -no-reboot \
		-kernel "$kernel" -initrd "$initrd" -append "$append" \
		-serial "file:$console" -serial "file:$raw" </dev/null
	qrc=$?
	secs=$(($(date +%s) - start))
	echo "run-guest: $v/$boot: QEMU exited $qrc after $secs s; console log $console" >&2
	case $accel in *thread=multi*) ;; *) break ;; esac
	if [ "$try" -ge "$retries" ] || [ -s "$raw" ]; then break; fi
	oops=$(tr -d '\r' <"$console" | grep -m1 -E '(^|\] |Oops: )int3: [0-9a-f]{4} \[#') || break
	mv "$console" "$console.int3-$((try + 1))"
	retried+=("boot $((try + 1)) oopsed on int3 after $secs s, before the suite started: $oops (console: $console.int3-$((try + 1)))")
	echo "run-guest: $v/$boot: multi-threaded TCG's int3 oops before the suite started; booting again" >&2
	rm -f "$raw"
done

case $boot in
demo | bench-*)
	tr -d '\r' <"$raw" | grep -v '^RCUQS-SUITE-END$'
	grep -q 'RCUQS-SUITE-END' "$raw" 2>/dev/null
	exit
	;;
esac

fails=0
emit() {	# emit OK DESC [DIAG...]
	local good=$1 desc=$2
	shift 2
	if [ "$good" = 1 ]; then
		echo "ok - [$boot] $desc"
	else
		echo "not ok - [$boot] $desc"
		fails=$((fails + 1))
	fi
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
} >>"$body"

# The guest's own results, renumbered later: strip the numbers, tag the boot.
tap=$(tr -d '\r' <"$raw" 2>/dev/null)
sed -n -e 's/^ok [0-9]* - /ok - ['"$boot"'] /p' \
	-e 's/^not ok [0-9]* - /not ok - ['"$boot"'] /p' -e '/^#/p' <<<"$tap" >>"$body"
fails=$(grep -c '^not ok [0-9]' <<<"$tap")

# Harness checks, each a TAP line of its own.
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	emit 0 "guest finished within ${timeout} s" "timed out; console tail:" \
		"$(tail -n 15 "$console" | tr -d '\r')"
else
	emit 1 "guest finished within ${timeout} s ($secs s)"
fi
emit "$([ "$qrc" = 0 ] && echo 1)" "QEMU exited 0 (got $qrc)"
emit "$(grep -q 'reboot: Power down' "$console" && echo 1)" "guest powered off cleanly"
for l in "${retried[@]}"; do
	echo "# [$boot] booted again, multi-threaded TCG's int3 (QEMU's, mttcg-proof.sh): $l"
done >>"$body"
emit "$(grep -qx 'RCUQS-SUITE-END' <<<"$tap" && echo 1)" "guest suite reached its end"

plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' <<<"$tap" | tail -1)
count=$(grep -cE '^(not )?ok [0-9]+ ' <<<"$tap")
if [ -n "$plan" ] && [ "$plan" = "$count" ] && [ "$count" -gt 0 ]; then
	emit 1 "guest TAP plan 1..$plan matches $count results"
else
	emit 0 "guest TAP plan matches the results" "plan '${plan:-missing}', $count results"
fi
# Every test file meant for this boot must have run to its end.
for t in "$here"/tests/[0-9]*.sh; do
	grep -q "^# boots:.* $boot\b" "$t" || continue
	name=$(basename "$t" .sh)
	emit "$(grep -qE "^ok [0-9]+ - $name: ran to the end" <<<"$tap" && echo 1)" \
		"test file $name ran to its end"
done
# Kernel badness, as tools/testing/selftests/rcutorture/bin/console-badness.sh
# sees it; our own lines (RCUQS-) are not the kernel's.
bad=$(tr -d '\r' <"$console" | grep -v '^RCUQS-' |
	grep -E 'Badness|WARNING:|(^|[^A-Za-z_])BUG([^A-Za-z_]|$)|Oops|Call Trace|detected stalls on CPUs/tasks|self-detected stall|Stall ended before state dump start|rcu_.*kthread starved|!!!|Kernel panic|=========' |
	grep -v 'ODEBUG: ' | head -20)
if [ -z "$bad" ]; then
	emit 1 "no kernel badness in the console log"
else
	emit 0 "no kernel badness in the console log" "$bad"
fi
[ "$fails" -eq 0 ]
