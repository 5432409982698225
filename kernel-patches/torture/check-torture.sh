#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-torture.sh TAPFILE: 'make torture' without booting anything, in
# make check: judge.sh's verdicts on console logs made to show each
# thing it must catch (and a clean one it must pass), and torture.sh's
# refusals of bad settings. The verdicts use upstream's parse-console.sh
# and console-badness.sh, taken from linux-source-6.1's tarball.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tap=${1:?usage: check-torture.sh TAPFILE}
BUILD=${BUILD:-$here/../../build}
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
scratch=$BUILD/torture-check
rm -rf "$scratch" && mkdir -p "$scratch"
n=0 bad=0
: >"$tap.tmp"
result() { # STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2" >>"$tap.tmp"
	else
		echo "not ok $n - $2" >>"$tap.tmp"
		bad=$((bad + 1))
	fi
}

# The patched tree's copy when there is one (make kernel made it),
# else the three scripts from the tarball.
bin=$BUILD/linux/tools/testing/selftests/rcutorture/bin
if [ -f "$bin/parse-console.sh" ]; then
	result 0 "upstream's parse-console.sh and console-badness.sh from $BUILD/linux"
else
	bin=$scratch/bin
	mkdir -p "$bin"
	tar -xJf "$TARBALL" -C "$bin" --strip-components=6 --wildcards \
		'*/tools/testing/selftests/rcutorture/bin/parse-console.sh' \
		'*/tools/testing/selftests/rcutorture/bin/console-badness.sh' \
		'*/tools/testing/selftests/rcutorture/bin/functions.sh' 2>"$scratch/tar.err"
	result $? "upstream's parse-console.sh and console-badness.sh from $(basename "$TARBALL")"
fi

# A console log as a boot of torture_type TYPE prints it, with LINES
# (one per argument) spliced in before the end of the test.
mklog() { # NAME TYPE [LINE...]
	local f=$scratch/$1/console.log t=$2
	shift 2
	mkdir -p "$(dirname "$f")"
	{
		echo "[    0.053414] Kernel command line: console=ttyS0 rcutree.cond_resched_qs_limit=16"
		echo "[    1.413217] $t-torture: Creating torture_shuffle task"
		if [ "$t" = rcu ]; then
			echo "[    1.413217] rcu-torture: qs_tunables: rewrites every 1..50 jiffies"
		else
			echo "[    1.413217] $t-torture: qs_tunables: for torture_type=rcu only, not testing"
		fi
		echo "[   16.000000] $t-torture: rtc: 000000009d8c7b6a ver: 100 tfle: 0 rta: 101 rtaf: 0 rtf: 90 rtmbe: 0"
		echo "[   31.000000] $t-torture: rtc: 000000009d8c7b6a ver: 200 tfle: 0 rta: 201 rtaf: 0 rtf: 190 rtmbe: 0"
		[ $# -gt 0 ] && printf '%s\n' "$@"
		[ "$t" = rcu ] && echo "[   61.531354] rcu-torture: qs_tunables: 388 writes, 51 refused"
		echo "[   62.954928] $t-torture:--- End of test: SUCCESS: nreaders=7 shutdown_secs=60"
	} >"$f"
	echo "$f"
}
judge() { # EXPECT(ok|not ok) DESCRIPTION CONSOLE TYPE QEMU_STATUS [REASON-PATTERN]
	local want=$1 what=$2 out st
	out=$(TORTURE_BIN=$bin "$here/judge.sh" "$3" "$4" "$5" 2>&1)
	st=$?
	if [ "$want" = ok ]; then
		[ $st = 0 ] && [ "$out" = ok ]
	else
		[ $st = 1 ] && [[ $out == "not ok: "* ]] && { [ -z "${6:-}" ] || grep -q -e "$6" <<<"$out"; }
	fi
	st=$?
	[ $st = 0 ] || echo "# judge.sh said: $out" >>"$tap.tmp"
	result $st "judge: $what: $want"
}

judge ok "a clean rcu boot" "$(mklog clean rcu)" rcu 0
judge ok "a clean tasks boot" "$(mklog tasks tasks)" tasks 0
judge "not ok" "qemu timed out" "$(mklog timeout rcu)" rcu 124 'qemu exited 124'
f=$(mklog nosuccess rcu)
sed -i '/End of test: SUCCESS/d' "$f"
judge "not ok" "no SUCCESS" "$f" rcu 0 'no success message\|SUCCESS'
judge "not ok" "an rcutorture error (!!!)" \
	"$(mklog bang rcu '[   40.000000] rcu-torture: !!! rcutree.cond_resched_qs_limit=7: got -22')" rcu 0
judge "not ok" "a FAILURE" \
	"$(mklog failure rcu '[   61.000000] rcu-torture:--- End of test: FAILURE: nreaders=7')" rcu 0 'FAILURE'
judge "not ok" "a WARNING splat" \
	"$(mklog warn rcu '[   33.1] WARNING: CPU: 2 PID: 51 at kernel/rcu/tree.c:777 rcu_cond_resched_qs+0x1/0x2' \
		'[   33.2] Call Trace:')" rcu 0 'WARNING: CPU'
judge "not ok" "a stall warning" \
	"$(mklog stall rcu '[   50.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:')" rcu 0
judge "not ok" "a lockdep report" \
	"$(mklog lockdep rcu '[   20.0] ============================================' \
		'[   20.0] WARNING: possible recursive locking detected')" rcu 0
judge "not ok" "a grace-period hang (ver stuck)" \
	"$(mklog hang rcu '[   46.000000] rcu-torture: rtc: 000000009d8c7b6a ver: 200 tfle: 0 rta: 201' \
		'[   61.000000] rcu-torture: rtc: 000000009d8c7b6a ver: 200 tfle: 0 rta: 201')" rcu 0 'GP HANG\|BAD SEQ'
judge "not ok" "a refused rcutree boot parameter" \
	"$(mklog param rcu "[    0.06] rcutree: 'x' invalid for parameter 'cond_resched_qs_limit'")" rcu 0 'refused'
judge "not ok" "an unknown rcu boot parameter" \
	"$(mklog unknown rcu '[    0.06] Unknown kernel command line parameters "rcutree.cond_resched_qs_limt=16", will be passed to user space.')" \
	rcu 0 'refused'
judge "not ok" "a nohz_full= range beyond the guest's CPUs" \
	"$(mklog nohz rcu '[    0.000000] Housekeeping: nohz_full= or isolcpus= incorrect CPU range' \
		'[    0.06] Unknown kernel command line parameters "selinux=0 nohz_full=2-9", will be passed to user space.')" \
	rcu 0 'refused'
judge ok "an unknown non-RCU boot parameter (selinux=0 without SELinux)" \
	"$(mklog selinux rcu '[    0.06] Unknown kernel command line parameters "selinux=0", will be passed to user space.')" rcu 0
judge "not ok" "a tunable found rewritten (no one else writes in the guest)" \
	"$(mklog another rcu '[   61.6] rcu-torture: qs_tunables: rcutree.jiffies_till_sched_qs= written by another, kept')" \
	rcu 0 'written by another'
judge "not ok" "a tunable not restored" \
	"$(mklog restore rcu '[   61.6] rcu-torture: qs_tunables: cannot restore rcutree.cond_resched_qs_limit=16')" \
	rcu 0 'cannot restore'
f=$(mklog nowrites rcu)
sed -i '/writes, .* refused/d' "$f"
judge "not ok" "torture_type=rcu without rewrites" "$f" rcu 0 'rewrote no tunable'
f=$(mklog tasksrewrite tasks)
sed -i '/for torture_type=rcu only/d' "$f"
judge "not ok" "a Tasks RCU type that does not say it leaves the tunables alone" "$f" tasks 0 'leaves the tunables alone'

# KCSAN boots: a data race the series has no part in is the tree's, told
# apart by the series' function names (TORTURE_SERIES_FUNCS).
kcsan() { # NAME FUNCTION...: a console log with one KCSAN report whose frames are FUNCTIONs
	local r='[   30.100000] ==================================================================' fr=() f
	for f in "${@:2}"; do fr+=("[   30.100002]  $f+0x3c/0x1a0"); done
	mklog "$1" rcu "$r" "[   30.100001] BUG: KCSAN: data-race in $2 / $3" \
		'[   30.100001] ' '[   30.100001] write to 0xffff88800f81e4a8 of 1 bytes by interrupt on cpu 2:' \
		"${fr[@]}" '[   30.100003] Reported by Kernel Concurrency Sanitizer on:' "$r"
}
printf '%s\n' rcu_nohz_qs_handler rcu_nohz_qs_ask >"$scratch/series.funcs"
f=$(kcsan kcsan-tree tick_nohz_idle_enter tick_sched_timer tick_nohz_idle_enter tick_sched_timer)
TORTURE_SERIES_FUNCS=$scratch/series.funcs judge ok "a KCSAN report outside the series (tick code only)" "$f" rcu 0
grep -qx 'BUG: KCSAN: data-race in tick_nohz_idle_enter / tick_sched_timer' "$f.kcsan-outside"
result $? "judge: the report outside the series is listed in console.log.kcsan-outside"
judge "not ok" "the same report without the series' function list (upstream's verdict)" "$f" rcu 0 'KCSAN\|====='
# A series function below an interrupt entry is only the code the racing
# interrupt landed in; in the access's own frames it is the series'.
f=$(kcsan kcsan-under hrtimer_active hrtimer_run_queues hrtimer_active asm_sysvec_apic_timer_interrupt force_qs_rnp)
TORTURE_SERIES_FUNCS=$scratch/series.funcs judge ok "a KCSAN report whose series function is only below an interrupt entry" "$f" rcu 0
printf '%s\n' force_qs_rnp >>"$scratch/series.funcs"
f=$(kcsan kcsan-above rcu_report_qs_rdp note_gp_changes rcu_report_qs_rdp force_qs_rnp asm_sysvec_apic_timer_interrupt)
TORTURE_SERIES_FUNCS=$scratch/series.funcs judge "not ok" "a KCSAN report with a series function above the interrupt entry" "$f" rcu 0 'KCSAN'
# As a serial console writes it: CR LF line ends.
f=$(kcsan kcsan-crlf tick_nohz_handler look_up_lock_class tick_nohz_handler look_up_lock_class)
sed -i 's/$/\r/' "$f"
TORTURE_SERIES_FUNCS=$scratch/series.funcs judge ok "a KCSAN report outside the series, CR LF line ends" "$f" rcu 0
f=$(kcsan kcsan-series note_gp_changes rcu_core note_gp_changes rcu_nohz_qs_handler rcu_core)
TORTURE_SERIES_FUNCS=$scratch/series.funcs judge "not ok" "a KCSAN report with a series function in a frame" "$f" rcu 0 'KCSAN'
TORTURE_SERIES_FUNCS=$scratch/none.funcs judge "not ok" "a missing series function list" "$f" rcu 0 'empty or missing'

# torture.sh refuses bad settings before building or booting anything.
refuses() { # DESCRIPTION PATTERN VAR=VALUE... -- ARGS...
	local what=$1 pat=$2 out st
	shift 2
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	out=$(env "${env[@]}" BUILD="$scratch/build" "$here/torture.sh" "$@" 2>&1)
	st=$?
	[ $st != 0 ] && grep -q -e "$pat" <<<"$out" && [ ! -e "$scratch/build/torture" ]
	st=$?
	[ $st = 0 ] || echo "# torture.sh said: $out" >>"$tap.tmp"
	result $st "torture.sh refuses $what"
}
refuses "TORTURE_MINUTES=0" "TORTURE_MINUTES '0'" TORTURE_MINUTES=0 -- all
refuses "TORTURE_MINUTES=ten" "TORTURE_MINUTES 'ten'" TORTURE_MINUTES=ten -- all
refuses "a limit above 1048576" "'1048577' is not a cond_resched_qs_limit" TORTURE_LIMITS="1 1048577" -- all
refuses "an empty TORTURE_LIMITS" "TORTURE_LIMITS is empty" TORTURE_LIMITS=" " -- all
refuses "TORTURE_QS_INTERVAL=-1" "TORTURE_QS_INTERVAL '-1'" TORTURE_QS_INTERVAL=-1 -- all
refuses "a scenario name with a slash" "'../x': not a scenario name" TORTURE_MINUTES=1 -- build ../x
refuses "an unknown command" "usage:" TORTURE_MINUTES=1 -- boot TREE01
refuses "an unknown baseline" "TORTURE_KERNEL '6.2' is not 6.1, 6.12 or 7.3" TORTURE_KERNEL=6.2 -- all
refuses "a 7.3 value above 1048576" "'1048577' is not a jiffies_till_nohz_qs" TORTURE_KERNEL=7.3 TORTURE_LIMITS=1048577 -- all
refuses "TORTURE_TCG=multi on 6.12" "only for 7.3" TORTURE_KERNEL=6.12 TORTURE_TCG=multi -- all
refuses "TORTURE_TCG=mttcg" "TORTURE_TCG 'mttcg'" TORTURE_KERNEL=7.3 TORTURE_TCG=mttcg -- all

{ echo "1..$n"; cat "$tap.tmp"; } >"$tap"
rm -f "$tap.tmp"
echo "check-torture: $((n - bad)) ok, $bad not ok ($tap)"
[ "$bad" = 0 ]
