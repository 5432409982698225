#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# judge.sh CONSOLE TORTURE_TYPE QEMU_STATUS: the verdict on one 'make
# torture' boot. Prints "ok", or "not ok: REASON", and exits 0 or 1.
#
# Upstream's verdict first: parse-console.sh and console-badness.sh of
# the tree under test (TORTURE_BIN, its tools/testing/selftests/
# rcutorture/bin) leave CONSOLE.diags for a FAILURE or "!!!", a bad or
# hung grace-period sequence, a missing SUCCESS, or any splat, warning,
# lockdep report or stall. Then ours:
#   - QEMU_STATUS 0: the guest powered itself off (rcutorture's
#     shutdown_secs) before the timeout;
#   - no rcutree, rcutorture or nohz_full boot parameter was refused (a
#     nohz_full= range beyond the guest's CPUs is refused, and the
#     scenario then runs without nohz_full);
#   - torture_type=rcu rewrote the tunables (qs_tunable_interval), and
#     found at the end nothing it had not written itself: the guest has
#     no user space to write a tunable, so "written by another" or
#     "cannot restore" is a bug;
#   - other torture types said that they leave the tunables alone.
#
# KCSAN boots: with TORTURE_SERIES_FUNCS naming a file of the series'
# functions (one a line), a KCSAN report none of whose lines names one of
# them is a data race of the tree, not of the series: it is left out of
# the copy upstream's scripts judge (CONSOLE.judged) and its title goes
# to CONSOLE.kcsan-outside, which 'make torture' reports. A report that
# names a series function fails the boot as any splat does; in an
# access's stack only its own frames count, not the ones below an
# interrupt entry (the code the interrupt happened to land in).
set -u
console=$1 ttype=$2 qrc=$3
: "${TORTURE_BIN:?judge.sh: TORTURE_BIN (rcutorture/bin of the tree) not set}"

bad() { echo "not ok: $*"; exit 1; }
first() { grep -a -m1 -e "$1" "$console" | sed 's/^\[[^]]*\] //'; }

[ -r "$console" ] || bad "no console log $console"
[ "$qrc" = 0 ] || bad "qemu exited $qrc (124: timed out)"
judged=$console
rm -f "$console.kcsan-outside" "$console.judged" "$console.judged.diags"
if [ -n "${TORTURE_SERIES_FUNCS:-}" ]; then
	[ -s "$TORTURE_SERIES_FUNCS" ] || bad "TORTURE_SERIES_FUNCS: $TORTURE_SERIES_FUNCS is empty or missing"
	judged=$console.judged
	awk -v funcs="$TORTURE_SERIES_FUNCS" -v outside="$console.kcsan-outside" '
	BEGIN { while ((getline f < funcs) > 0) if (f != "") series[f] = 1 }
	# A serial console ends its lines with CR LF.
	function bare(l) { sub(/\r$/, "", l); sub(/^\[[^]]*\] /, "", l); return l }
	function names_series(l,   t) {
		while (match(l, /[A-Za-z_][A-Za-z0-9_]*/)) {
			t = substr(l, RSTART, RLENGTH)
			if (t in series) return 1
			l = substr(l, RSTART + RLENGTH)
		}
		return 0
	}
	# A report: a rule of "=", "BUG: KCSAN: ...", ..., a rule of "=".
	state == 0 && bare($0) ~ /^=+$/ { rule = $0; state = 1; next }
	state == 1 {
		if (bare($0) ~ /^BUG: KCSAN:/) {
			n = 0; buf[n++] = rule; buf[n++] = $0; title = bare($0)
			hit = names_series($0); under = 0; state = 2; next
		}
		print rule; state = 0
	}
	# Only an access'"'"'s own frames count: those below an interrupt
	# entry (asm_sysvec_*, asm_common_interrupt, asm_exc_*) are the
	# code it interrupted, up to the next access ("read to", "write
	# to") or the end of the report.
	state == 2 {
		buf[n++] = $0
		if (bare($0) ~ /^(read|write|read-write) (\(marked\) )?to /) under = 0
		if (bare($0) ~ /^ *asm_(sysvec_|common_interrupt|exc_)/) under = 1
		if (!under) hit = hit || names_series($0)
		if (bare($0) ~ /^=+$/) {
			if (hit) for (i = 0; i < n; i++) print buf[i]
			else print title >> outside
			state = 0
		}
		next
	}
	{ print }
	END {
		if (state == 1) print rule
		if (state == 2) for (i = 0; i < n; i++) print buf[i]
	}' "$console" >"$judged" || bad "cannot filter KCSAN reports of $console"
fi
rm -f "$judged.diags"
(cd "$(dirname "$console")" && PATH=$TORTURE_BIN:$PATH TORTURE_SUITE=rcu \
	parse-console.sh "$judged" "$(basename "$(dirname "$console")")") >"$console.parse" 2>&1
if [ -s "$judged.diags" ]; then
	bad "$(sed -e 's/\x1b\[[0-9;]*m//g' "$judged.diags" | head -3 | tr '\n' ' ')"
fi
grep -aq 'End of test: SUCCESS' "$console" || bad "no 'End of test: SUCCESS'"
refused='invalid for parameter\|Unknown kernel command line parameters.*\(rcu\|nohz\)\|Housekeeping: .*incorrect CPU range'
grep -aq -e "$refused" "$console" && bad "a boot parameter was refused: $(first "$refused")"
stray='qs_tunables: .*\(written by another\|cannot restore\)'
grep -aq -e "$stray" "$console" && bad "$(first "$stray")"
if [ "$ttype" = rcu ]; then
	grep -aEq 'rcu-torture: qs_tunables: [1-9][0-9]* writes' "$console" ||
		bad "torture_type=rcu rewrote no tunable: $(first 'qs_tunables:' || true)"
else
	grep -aq "$ttype-torture: qs_tunables: for torture_type=rcu only" "$console" ||
		bad "torture_type=$ttype did not say it leaves the tunables alone"
fi
echo ok
