#!/bin/sh
# check-claims.sh TAPFILE [DIR [TARBALL]]: what the RCU review of the
# series asked for, checked in the patch files of DIR (a baseline's
# folder here: 6.1, the default, 6.12 or 7.3; or a path): the code does
# what the changelogs say, and the changelogs and documentation say what
# the code does. Claims about the kernel the series applies to are also
# checked against its kernel/rcu/tree.c, from TARBALL (default
# /usr/src/linux-source-<DIR's name>.tar.xz; those checks skip without
# it). Each check failed on the series before the review's
# fixes (issue 19; 7.3's 2/5: issue 29; issue 38); the guest suite tests the behaviour itself
# (42-tasks-rcu, 40-limit, 10-params, 20-runtime, 62-torture-scope).
#
# Patches are found by their subject, not their number, and the test
# names number them as the 6.1 series does (1/5 .. 5/5). The 7.3 series
# has no cond_resched() limit (6.1's patch 2; cond_resched() is a no-op
# in every preemption mode x86 has there), so its four patches are 6.1's
# 1, 3, 4 and 5: the claims about the limit are skipped there, and only
# when the cover letter says why (checked below, so that a 6.1 or 6.12
# series that lost its patch 2 fails instead).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tap=${1:?usage: check-claims.sh TAPFILE [DIR [TARBALL]]}
dir=${2:-6.1}
[ -d "$dir" ] || [ ! -d "$here/$dir" ] || dir=$here/$dir
tarball=${3:-/usr/src/linux-source-$(basename "$dir").tar.xz}
: >"$tap"
. "$here/../scripts/tap.sh"

# The baseline's kernel/rcu/tree.c (pristine), for tt's checks.
treec=$(mktemp)
trap 'rm -f "$treec"' EXIT
notree=""
if ! { [ -f "$tarball" ] && tar -xOf "$tarball" "$(basename "$tarball" .tar.xz)/kernel/rcu/tree.c" >"$treec" 2>/dev/null &&
	[ -s "$treec" ]; }; then
	notree="no kernel/rcu/tree.c from $tarball"
fi

pick() { ls "$dir"/[0-9][0-9][0-9][0-9]-"$1"*.patch 2>/dev/null | head -n1; }
p1=$(pick rcu-Make-jiffies_till_sched_qs-writable)
p2=$(pick sched-rcu-Report-quiescent-states-from-every-Nth)
p3=$(pick rcu-Add-quiescent-state-counters)
p5=$(pick rcutorture-Add-qs_tunable_interval)
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
# tt: a claim checked against the baseline's tree, skipped without it.
tt() {
	if [ -n "$notree" ]; then skip "$1" "$notree"; else t "$@"; fi
}
# said FILE PATTERN: the changelog of FILE (above its first diff), lines
# joined with single spaces, matches grep -E PATTERN; doc FILE: the lines
# FILE adds, leading whitespace dropped, joined the same way.
said() { [ -f "$1" ] && sed -n '/^diff --git /q;p' "$1" | tr -s '\n ' '  ' | grep -Eq -- "$2"; }
doc() { sed -n 's/^+[[:space:]]*//p' "$1" | tr -s '\n ' '  '; }
# Without the limit's patch, its claims are skipped (tl) and the cover
# letter must say why; with it, tl is t.
nolimit=""
[ -n "$p2" ] || nolimit="no cond_resched() limit in this series (cover letter: cond_resched() is a no-op here)"
tl() {
	if [ -n "$nolimit" ]; then skip "$1" "$nolimit"; else t "$@"; fi
}
# tlt: a claim of the limit's patch checked against the tree.
tlt() {
	if [ -n "$nolimit" ]; then skip "$1" "$nolimit"; else tt "$@"; fi
}

# 1. Tasks RCU: the report is RCU's only.
# fn_lacks FILE FUNCTION PATTERN: the added function lacks PATTERN.
fn_lacks() {
	body=$(fn "$1" "$2")
	[ -n "$body" ] && ! printf '%s\n' "$body" | grep -q -- "$3"
}
tl "2/5: rcu_cond_resched_qs() does not go through rcu_note_context_switch() (Tasks RCU QS, tracing)" \
	fn_lacks "$p2" 'void rcu_cond_resched_qs[(]void[)]$' rcu_note_context_switch
tl "2/5: rcu_cond_resched_note_qs() for both RCU flavours in tree_plugin.h" \
	test "$(grep -c '^+static void rcu_cond_resched_note_qs(struct rcu_data \*rdp)$' "$p2" 2>/dev/null)" -eq 2
tl "2/5: the changelog says the report is not a Tasks RCU quiescent state" has "$p2" 'Tasks RCU'
tl "2/5: no 'voluntary context switch that did not happen' premise" hasnt "$p2" 'voluntary context switch$|switch that did not happen'

# 2. Lock variants count each call once, and only when no break is due.
tl "2/5: the lock variants no longer count before knowing whether they reschedule" \
	hasnt "$p2" 'bool rcu_qs = rcu_cond_resched_qs_due\(\);'
tl "2/5: the three lock variants count in an else branch of the lock break" \
	test "$(grep -c '^+	} else if (rcu_cond_resched_qs_due()) {$' "$p2" 2>/dev/null)" -eq 3
tl "2/5: the changelog says forced lock breaks return 1 and what callers do" has "$p2" 'kvm_mmu_zap_all'

# 3. What the guards can see.
tl "2/5: a CPU going offline reports nothing (cpu_is_offline)" has "$p2" '^\+.*cpu_is_offline\('
tl "2/5: CONFIG_PREEMPT_COUNT's blind spot is stated" has "$p2" 'CONFIG_PREEMPT_COUNT'
tl "2/5: the RCU_STRICT_GRACE_PERIOD interaction is stated" has "$p2" 'RCU_STRICT_GRACE_PERIOD'
# PREEMPT_RT (issue 29, item 7): local_bh_disable() there takes a per-CPU
# local_lock; called with preemption disabled it skips it and warns when
# another task holds it. The report disables bottom halves only with
# preemption enabled, and the changelog says why (guest check-rt boots it).
# bh_outside_preempt FILE: in rcu_cond_resched_qs(), a local_bh_disable(),
# and none between the first preempt_disable() and the last
# preempt_enable() (an early return has its own preempt_enable()).
bh_outside_preempt() {
	fn "$1" 'void rcu_cond_resched_qs[(]void[)]$' | awk '
		/preempt_disable\(\)/ && !pd { pd = NR }
		/preempt_enable\(\)/ { pe = NR }
		/local_bh_disable\(\)/ { bh[++n] = NR }
		END {
			for (i = 1; i <= n; i++) if (pd && bh[i] > pd && bh[i] < pe) exit 1
			exit !n
		}'
}
tl "2/5: the report disables bottom halves only with preemption enabled (PREEMPT_RT's local_lock)" \
	bh_outside_preempt "$p2"
tl "2/5: the changelog says why, against PREEMPT_RT's softirq_ctrl and rcuc" \
	sh -c "grep -q 'softirq_ctrl.cnt' '$p2' && grep -q 'rcuc kthread' '$p2'"
# Where rcu_core() runs (issue 38, Why 6): PREEMPT_RT has use_softirq,
# false there, and no rcutree.use_softirq parameter to change it; the
# RCU_SOFTIRQ of "Debian's kernels" is that of the non-RT ones. 2/5 said
# "RT has no rcutree.use_softirq", read as "no use_softirq".
softirq_said() {
	! said "$p2" 'RT has no rcutree\.use_softirq' && ! said "$p2" "RCU_SOFTIRQ on Debian's kernels" &&
		said "$p2" "RCU_SOFTIRQ on Debian's non-RT kernels" &&
		said "$p2" 'use_softirq is !IS_ENABLED\(CONFIG_PREEMPT_RT\), false there' &&
		said "$p2" 'registers its rcutree\.use_softirq parameter only #ifndef CONFIG_PREEMPT_RT'
}
# softirq_tree: and the tree has it so (tree.c: the variable, then its
# module_param() inside #ifndef CONFIG_PREEMPT_RT).
softirq_tree() {
	grep -A2 -x 'static bool use_softirq = !IS_ENABLED(CONFIG_PREEMPT_RT);' "$treec" | tr '\n' '|' |
		grep -qF 'static bool use_softirq = !IS_ENABLED(CONFIG_PREEMPT_RT);|#ifndef CONFIG_PREEMPT_RT|module_param(use_softirq, bool, 0444);|' ||
		{ echo "tree.c: use_softirq or its parameter is not as 2/5 says"; return 1; }
	softirq_said
}
tl "2/5: under PREEMPT_RT use_softirq is false and its parameter not registered; RCU_SOFTIRQ is the non-RT kernels'" \
	softirq_said
tlt "2/5: ... as the tree's tree.c has use_softirq and its parameter" softirq_tree

# 4. Patch 1.
t "1/5: kernel-parameters gives the cost of a value below the floor" has "$p1" '^\+.*resched_cpu\(\) IPI'
t "1/5: the ABI changes are stated (18446744073709551615, hex, 0)" \
	sh -c "grep -q '^+.*18446744073709551615' '$p1' && grep -q '^+.*hex' '$p1' && grep -q '^+.*0, which used to' '$p1'"
t "1/5: runtime writes of auto do not log (rcu_calc_jiffies_to_sched_qs)" has "$p1" '^\+static ulong rcu_calc_jiffies_to_sched_qs'
t "1/5: the kicks are rcu_implicit_dynticks_qs()'s, not 'the stall-warning code'" hasnt "$p1" 'stall-warning code'
# At jiffies_till_sched_qs=1 (issue 38, Why 6): the heavy request and the
# nohz_full kick come past twice and three times the value, by
# time_after(), which is strict: at 3 and about every 4 jiffies, where
# 1/5 said 2 and 3.
# ages_said FILE HEAVY KICK: the changelog and the documentation give them.
ages_said() {
	if said "$1" "heavy quiescent states from $2 jiffies on" && said "$1" "IPI about every $3 jiffies" &&
		doc "$1" | grep -q "twice the value old (from $2 jiffies at 1)" &&
		doc "$1" | grep -q "three times the value old (about every $3 jiffies at 1)"; then
		return 0
	fi
	echo "1/5 does not give $2 and $3 jiffies at 1 (changelog and kernel-parameters.txt)"
	return 1
}
t "1/5: at 1, heavy quiescent states from 3 jiffies and a kick about every 4 (time_after()), not 2 and 3" \
	hasnt "$p1" 'from 2 jiffies on|about every 3 jiffies|\(2 jiffies at 1\)'
t "1/5: the changelog and kernel-parameters.txt give 3 and 4 jiffies at 1" ages_said "$p1" 3 4
# ages_tree: the same ages from the tree's rcu_implicit_dynticks_qs() /
# rcu_watching_snap_recheck(): time_after(jiffies, gp_start + jtsq * H)
# and time_after(jiffies, last_fqs_resched + jtsq * K) give H + 1 and
# K + 1 jiffies at jtsq = 1.
ages_tree() {
	h=$(sed -n 's/.*time_after(jiffies, rcu_state\.gp_start + jtsq \* \([0-9]*\)).*/\1/p' "$treec" | head -n1)
	k=$(sed -n 's/.*time_after(jiffies, READ_ONCE(rdp->last_fqs_resched) + jtsq \* \([0-9]*\)).*/\1/p' "$treec" | head -n1)
	if [ -z "$h" ] || [ -z "$k" ]; then
		echo "tree.c: no time_after() of gp_start + jtsq * H or of last_fqs_resched + jtsq * K"
		return 1
	fi
	ages_said "$p1" $((h + 1)) $((k + 1))
}
tt "1/5: ... as the tree's time_after() of gp_start and last_fqs_resched makes them" ages_tree

# 5. Changelogs that match the source.
tl "2/5: no early_initcall for the static key (jump_label_init() precedes parse_args())" \
	hasnt "$p2" '^\+early_initcall\(rcu_cond_resched_qs'
tl "2/5: the precedent named is __call_rcu_core(), rcu_core() runs from RCU_SOFTIRQ" \
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
tl "5/5: the changelog says every limit switch IPIs every CPU" has "$p5" 'IPIs'

# 8. A series without the limit (7.3): it says why, and nothing of the
# limit is left in its other patches.
if [ -n "$nolimit" ]; then
	t "0/5: the cover letter says why the cond_resched() limit is left out (7.3's __sched_dynamic_update())" \
		sh -c "grep -q '__sched_dynamic_update()' '$cover' && grep -q 'preempt_dynamic_disable(cond_resched)' '$cover'"
	t "0/5: the cover letter says what the lock variants still do, and the measurement that left them out" \
		sh -c "grep -q '__cond_resched_lock()' '$cover' && grep -q 'lock variants need no limit' '$cover' && ! grep -qi 'pending measurement' '$cover'"
	t "2/5: the request asks a CPU it cannot note a quiescent state on to reschedule (the lock-variant loops)" \
		has "$(pick rcu-Ask-looping-nohz_full)" '^\+.*set_need_resched_current\(\)'
	# The second review of 7.3's 2/5 (issue 29, items 1-4 and 6).
	pa=$(pick rcu-Ask-looping-nohz_full)
	h='static void rcu_nohz_qs_handler'
	ask='static void rcu_nohz_qs_ask'
	# fn_has FILE FUNCTION PATTERN: the added function has PATTERN.
	fn_has() { fn "$1" "$2" | grep -q -- "$3"; }
	note='static bool rcu_nohz_qs_note'
	# The handler's work with bottom halves enabled is rcu_nohz_qs_note().
	handler_body() { fn "$pa" "$h"; fn "$pa" "$note"; }
	handler_locks() { handler_body | grep -q 'raw_spin_lock_rcu_node(rnp)' && ! handler_body | grep -q '[^_]note_gp_changes(rdp)'; }
	# KCSAN (make torture KERNEL=7.3 TORTURE_SCENARIOS=KCSAN) caught the
	# handler's report racing with the rcu_core() it interrupted.
	handler_bh() { fn "$pa" "$h" | grep -q '!softirq_count() && rcu_nohz_qs_note(rdp)' && fn_lacks "$pa" "$h" 'rcu_report_qs_rdp'; }
	resched_urgent() { fn "$pa" "$h" | grep -B1 'set_need_resched_current' | grep -q 'rcu_urgent_qs'; }
	help='static bool rcu_nohz_qs_help'
	# The help's early reschedule: only outside readers, with preemption
	# disabled, and not again while one is pending.
	help_resched() { fn "$pa" "$help" | grep -B4 'set_need_resched_current' | grep -q 'if (!(preempt_count() & PREEMPT_MASK) || test_tsk_need_resched(t))' &&
		fn "$pa" "$help" | grep -B6 'set_need_resched_current' | grep -q 'if (!rcu_preempt_depth())'; }
	# need_qs only where a request of this grace period already missed.
	help_flag_second() { fn "$pa" "$help" | grep -B3 'rcu_read_unlock_special.b.need_qs = true' | grep -q 'nohz_qs_miss_gp) != gp_seq'; }
	# The help runs on preemptible RCU, with bottom halves enabled, before
	# ->rcu_urgent_qs, and spares the request its back-off.
	# Said in kernel-parameters.txt, the changelog and the code.
	flag_said() { [ "$(grep -c '^+.*from the second request of a$\|only from the second$\|^+.*from the second request of this$' "$pa")" -eq 3 ] && grep -q 'pte_offset_map_lock()' "$pa"; }
	help_where() { fn "$pa" "$h" | grep -A1 'if (!softirq_count() && !READ_ONCE(rdp->rcu_urgent_qs) &&' | grep -q 'rcu_nohz_qs_help(rdp, gp_seq)' && has "$pa" '^\+#ifdef CONFIG_PREEMPT_RCU$' &&
		fn "$pa" "$h" | grep -n 'rcu_nohz_qs_help\|nohz_qs_misses, 1' | head -1 | grep -q rcu_nohz_qs_help; }
	ask_restrained() { fn_has "$pa" "$ask" 'nohz_full_patience_delay_jiffies' && fn_has "$pa" "$ask" 'rdp->rcu_forced_tick)'; }
	# The lockless ->gp_seq check comes before the leaf lock in the note.
	note_prechecks() { fn "$pa" "$note" | grep -B6 'raw_spin_lock_rcu_node(rnp)' | grep -q 'rcu_seq_current(&rnp->gp_seq)'; }
	# Off, the request returns on jiffies_till_nohz_qs before it reads gp_start.
	ask_off_first() { fn "$pa" "$ask" | grep -n 'if (!j)\|READ_ONCE(rcu_state.gp_start)' | head -1 | grep -q 'if (!j)'; }
	changelog_true() { has "$pa" 'last_fqs_resched' && hasnt "$pa" 'what its scheduling-clock' && hasnt "$pa" 'at three times that age'; }
	t "2/5: the handler waits for the leaf lock (raw_spin_lock_rcu_node()), no note_gp_changes() trylock" handler_locks
	t "2/5: with bottom halves disabled the handler changes nothing in rcu_data (softirq_count() before rcu_nohz_qs_note(), no report of its own)" handler_bh
	t "2/5: the handler raises no softirq and wakes no rcuc (no invoke_rcu_core())" \
		fn_lacks "$pa" "$h" 'invoke_rcu_core'
	# The third review of 7.3's 2/5 (issue 38, items 1-6): each of these
	# failed on the 2/5 of 2026-12-06.
	t "2/5: a request flags a reader (need_qs) only where an earlier request of the grace period reported nothing, never at the first (rcu_read_unlock() would reschedule early where it ends with preemption disabled)" \
		help_flag_second
	t "2/5: an early reschedule is asked only outside readers with preemption disabled, and not while one is pending" \
		help_resched
	t "2/5: the handler's help runs on preemptible RCU with bottom halves enabled and before rcu_urgent_qs, ahead of the back-off" \
		help_where
	t "2/5: the documentation and changelog say the reader is flagged from the second request, and why munmap() needs it" \
		flag_said
	t "2/5: the changelog says what softirq_count() misses on PREEMPT_RT, and rcu_check_quiescent_state()'s read is marked" \
		sh -c "grep -q 'On\$' '$pa' && grep -q '^PREEMPT_RT softirq_count() is the current task' '$pa' && grep -q '^+.*if (!READ_ONCE(rdp->core_needs_qs))' '$pa'"
	t "2/5: a request that reported nothing makes the next one wait longer (back-off)" \
		fn_has "$pa" "$ask" 'nohz_qs_misses'
	t "2/5: the first scan asks only a CPU that stayed in the kernel since an earlier scan (RCU_WATCHING unchanged)" \
		has "$pa" '^\+.*if \(rdp->watching_snap == snap\)'
	t "2/5: the handler checks ->gp_seq without the lock before taking it" \
		note_prechecks
	t "2/5: learning of a grace period resets ->ticks_this_gp (said) and leaves the scan's resched_cpu() kick where it was (->last_fqs_resched put back)" \
		sh -c "grep -q 'resets ->ticks_this_gp' '$pa' && ! grep -q 'it neither counts ->ticks_this_gp' '$pa' && grep -q '^+.*WRITE_ONCE(rdp->last_fqs_resched, kick);' '$pa'"
	t "2/5: off, the request reads nothing but jiffies_till_nohz_qs ('one load and one branch')" \
		ask_off_first
	t "2/5: the documentation and changelog do not say a CPU in user space is never interrupted, but which CPUs are asked" \
		sh -c "! grep -q 'are never asked' '$pa' && grep -q 'stayed in the kernel' '$pa'"
	t "3/5: nohz_qs_reports counts a report only once rcu_report_qs_rdp() made it" \
		sh -c "grep -A4 '^ 	rcu_report_qs_rdp(rdp);' '$p3' | grep -q '^+.*nohz_qs_reports' && ! grep -B3 'rcu_report_qs_rdp(rdp);' '$p3' | grep -q '^+.*nohz_qs_reports'"
	t "5/5: no hunk that only adds a blank line" \
		sh -c "awk '/^@@/ { if (h && !real) bad=1; h=1; real=0; next } /^\+/ && !/^\+\+\+/ && !/^\+[[:space:]]*\$/ {real=1} END { if (h && !real) bad=1; exit bad }' '$p5'"
	t "2/5: in a reader, the handler reschedules only once rcu_urgent_qs is set" resched_urgent
	t "2/5: the scan honours nohz_full_patience_delay and a forced tick" ask_restrained
	t "2/5: the changelog gives resched_cpu()'s age from ->last_fqs_resched, and no 'what the tick would do'" changelog_true
	t "0/5: the testing section does not say rcutorture was not run" \
		hasnt "$cover" 'yet through the whole rcuqs guest suite nor rcutorture'
	t "3/5: no limit_qs counter without the limit" hasnt "$p3" '^\+.*limit_qs'
	t "5/5: rcutorture does not write a cond_resched_qs_limit that does not exist" hasnt "$p5" '^\+.*cond_resched_qs_limit'
	t "4/5: no MODULE_PARM_DESC for a cond_resched_qs_limit that does not exist" \
		sh -c "! grep -q '^+.*cond_resched_qs_limit' $dir/*MODULE_PARM_DESC*.patch"
fi

tap_end patches-claims
