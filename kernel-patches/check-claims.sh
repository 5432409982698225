#!/bin/sh
# check-claims.sh TAPFILE [DIR]: what the RCU review of the series asked
# for, checked in the patch files of DIR (default: this folder): the
# code does what the changelogs say, and the changelogs and documentation
# say what the code does. Each check failed on the series before the
# review's fixes (issue 19); the guest suite tests the behaviour itself
# (42-tasks-rcu, 40-limit, 10-params, 20-runtime, 62-torture-scope).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tap=${1:?usage: check-claims.sh TAPFILE [DIR]}
dir=${2:-$here}
: >"$tap"
. "$here/../scripts/tap.sh"

p1=$(ls "$dir"/0001-*.patch 2>/dev/null) p2=$(ls "$dir"/0002-*.patch 2>/dev/null)
p3=$(ls "$dir"/0003-*.patch 2>/dev/null) p5=$(ls "$dir"/0005-*.patch 2>/dev/null)
cover=$dir/0000-cover-letter.patch

# has FILE PATTERN / hasnt FILE PATTERN: grep -E on the whole patch file.
has() { grep -Eq -- "$2" "$1" 2>/dev/null; }
hasnt() { [ -f "$1" ] && ! grep -Eq -- "$2" "$1"; }
# added FILE START END: the added lines of FILE between the lines matching
# START and END (awk regexes), without the leading +.
added() { sed -n 's/^+//p' "$1" | awk -v s="$2" -v e="$3" '$0 ~ s {on=1} on {print} on && $0 ~ e {exit}'; }
# Same, for what a test expects to see in one function of the patch.
fn() { added "$1" "^$2" '^}'; }
t() { # NAME COMMAND...
	check "$@"
}

# 1. Tasks RCU: the report is RCU's only.
# fn_lacks FILE FUNCTION PATTERN: the added function lacks PATTERN.
fn_lacks() {
	body=$(fn "$1" "$2")
	[ -n "$body" ] && ! printf '%s\n' "$body" | grep -q -- "$3"
}
t "2/5: rcu_cond_resched_qs() does not go through rcu_note_context_switch() (Tasks RCU QS, tracing)" \
	fn_lacks "$p2" 'void rcu_cond_resched_qs[(]void[)]$' rcu_note_context_switch
t "2/5: rcu_cond_resched_note_qs() for both RCU flavours in tree_plugin.h" \
	test "$(grep -c '^+static void rcu_cond_resched_note_qs(struct rcu_data \*rdp)$' "$p2")" -eq 2
t "2/5: the changelog says the report is not a Tasks RCU quiescent state" has "$p2" 'Tasks RCU'
t "2/5: no 'voluntary context switch that did not happen' premise" hasnt "$p2" 'voluntary context switch$|switch that did not happen'

# 2. Lock variants count each call once, and only when no break is due.
t "2/5: the lock variants no longer count before knowing whether they reschedule" \
	hasnt "$p2" 'bool rcu_qs = rcu_cond_resched_qs_due\(\);'
t "2/5: the three lock variants count in an else branch of the lock break" \
	test "$(grep -c '^+	} else if (rcu_cond_resched_qs_due()) {$' "$p2")" -eq 3
t "2/5: the changelog says forced lock breaks return 1 and what callers do" has "$p2" 'kvm_mmu_zap_all'

# 3. What the guards can see.
t "2/5: a CPU going offline reports nothing (cpu_is_offline)" has "$p2" '^\+.*cpu_is_offline\('
t "2/5: CONFIG_PREEMPT_COUNT's blind spot is stated" has "$p2" 'CONFIG_PREEMPT_COUNT'
t "2/5: the RCU_STRICT_GRACE_PERIOD interaction is stated" has "$p2" 'RCU_STRICT_GRACE_PERIOD'

# 4. Patch 1.
t "1/5: kernel-parameters gives the cost of a value below the floor" has "$p1" '^\+.*resched_cpu\(\) IPI'
t "1/5: the ABI changes are stated (18446744073709551615, hex, 0)" \
	sh -c "grep -q '^+.*18446744073709551615' '$p1' && grep -q '^+.*hex' '$p1' && grep -q '^+.*0, which used to' '$p1'"
t "1/5: runtime writes of auto do not log (rcu_calc_jiffies_to_sched_qs)" has "$p1" '^\+static ulong rcu_calc_jiffies_to_sched_qs'
t "1/5: the kicks are rcu_implicit_dynticks_qs()'s, not 'the stall-warning code'" hasnt "$p1" 'stall-warning code'

# 5. Changelogs that match the source.
t "2/5: no early_initcall for the static key (jump_label_init() precedes parse_args())" \
	hasnt "$p2" '^\+early_initcall\(rcu_cond_resched_qs'
t "2/5: the precedent named is __call_rcu_core(), rcu_core() runs from RCU_SOFTIRQ" \
	sh -c "grep -q '__call_rcu_core()' '$p2' && ! grep -q 'rcu_core() in the$' '$p2'"
t "0/5: the cover letter attributes the 10% and 3% figures to LWN's report" has "$cover" 'LWN'

# 6. Counters.
t "3/5: no per-CPU u64 read with READ_ONCE() (tears on 32-bit)" hasnt "$p3" '^\+	u64 (gp_completed|limit_qs|urgent_qs|resched_kicks);'
t "3/5: the ABI file says the counters wrap modulo 2^BITS_PER_LONG" has "$p3" '^\+.*modulo'
t "3/5: the ABI file's KernelVersion says the series is not mainline" has "$p3" '^\+KernelVersion:.*not in mainline'
t "3/5: resched_kicks' description covers callback overload" has "$p3" '^\+.*callback overload'
t "3/5: the changelog says why counters rather than tracepoints" has "$p3" 'Why counters, when tracepoints exist'

# 7. rcutorture.
t "5/5: qs_tunable_interval acts for torture_type=rcu only" has "$p5" '^\+.*cur_ops != &rcu_ops'
t "5/5: a value someone else wrote during the run is kept" has "$p5" '^\+.*written by another, kept'
t "5/5: the changelog says every limit switch IPIs every CPU" has "$p5" 'IPIs'

tap_end patches-claims
