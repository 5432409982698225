#!/bin/bash
# cost-static.sh [-c CSV] BASE_VMLINUX PATCHED_VMLINUX: the instructions one
# cond_resched() executes when nothing is to be done (no reschedule due,
# RCU asks for nothing: the tight loop of 'make bench-cost'), on a kernel
# without the series and on the patched one with the limit off and at
# 256. Static and deterministic: host load does not enter into it.
#
# The path is traced through objdump's disassembly from __cond_resched's
# entry to its return, into every function it calls on the way
# (rcu_all_qs, and with the limit, every 256th call, rcu_cond_resched_qs).
# The limit's countdown itself is inline in __cond_resched. Conditional branches go the way the
# tight loop takes them; the compiler's layout does not say which way
# that is, so each path below lists its decisions (T taken, N not) in the
# order the branches come, and the trace, printed with each branch's
# decision, shows what was assumed. A path that calls anything else, does
# not return, or leaves decisions unused is an error: after a change of
# compiler or series, read the new disassembly and update the lists.
#
# The jump-label NOP in __cond_resched (2-byte 66 90 or 5-byte 0f 1f 44 00
# 00) is a NOP with the limit off; with the limit on, the kernel patches
# it into a jump of the same length to the limit's out-of-line block.
# That block's address is the NOP's entry in __jump_table.
#
# Prints a report on stdout; -c appends CSV rows
# (kernel,bench,setting,round,where,measure,value) to CSV.
set -uo pipefail
csv=
[ "${1-}" = -c ] && { csv=$2; shift 2; }
[ $# = 2 ] || { echo "usage: cost-static.sh [-c CSV] BASE_VMLINUX PATCHED_VMLINUX" >&2; exit 2; }
base=$1 patched=$2
for f in "$base" "$patched"; do
	[ -f "$f" ] || { echo "cost-static: $f missing" >&2; exit 2; }
done

FUNCS="__cond_resched rcu_all_qs rcu_cond_resched_qs"

# dis VMLINUX: the functions above, one instruction a line (no wrapped
# byte lines: --insn-width), those the kernel has.
dis() {
	local f
	for f in $FUNCS; do
		objdump -d --insn-width=16 --disassemble="$f" "$1" 2>/dev/null |
			sed -n "/<$f>:\$/,/^\$/p"
	done
}

# jl_target VMLINUX ADDR: the jump target (hex) of the jump label whose
# site is at ADDR (hex), read from __jump_table. x86-64 entries are
# relative: s32 code, s32 target, each from its own field, then a long key.
jl_target() {
	local v=$1 addr=$((16#$2)) start stop name a off i=0 e c t
	local -a w
	start=$((16#$(nm "$v" | awk '$3 == "__start___jump_table" { print $1 }')))
	stop=$((16#$(nm "$v" | awk '$3 == "__stop___jump_table" { print $1 }')))
	# The file offset of start: through the section that holds it.
	while read -r name a off; do
		a=$((16#$a)) off=$((16#$off))
		if [ "$start" -ge "$a" ] && [ "$start" -lt $((a + 16#$(readelf -SW "$v" |
			awk -v n="$name" '$2 == n || $3 == n { print $(NF - 5) }' | head -1))) ]; then
			break
		fi
		name=
	done < <(readelf -SW "$v" | sed -n 's/^ *\[ *[0-9]*\] *\([^ ]*\) *[A-Z_]* *\([0-9a-f]\{16\}\) \([0-9a-f]*\) .*/\1 \2 \3/p')
	[ -n "$name" ] || return 1
	read -r -a w < <(od -An -v -t d4 -j $((off + start - a)) -N $((stop - start)) "$v" | tr -s ' \n' '  ')
	while [ $((i * 4 + 1)) -lt ${#w[@]} ]; do
		e=$((start + 16 * i)) c=${w[i * 4]} t=${w[i * 4 + 1]}
		if [ $((e + c)) = "$addr" ]; then
			printf '%x\n' $((e + 4 + t))
			return 0
		fi
		i=$((i + 1))
	done
	return 1
}

# trace VMLINUX-DISASSEMBLY KEY(on|off) DECISIONS [JUMP-LABEL-TARGET]: prints
# the path and, last, "RESULT insns bytes calls taken".
trace() {
	awk -v key="$2" -v dec="$3" -v jt="${4-}" '
	# hex S: the low 28 bits of the hex number S. mawk has no strtonum,
	# and turns numbers of 2^31 and more into array keys through CONVFMT
	# ("%.6g"), so that neighbours collide; the traced functions lie in
	# one 256 MiB stretch of kernel text (checked below).
	function hex(s,   i, v) {
		s = tolower(substr(s, length(s) > 7 ? length(s) - 6 : 1)); v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/^[0-9a-f]+ <[^>]+>:$/ {
		fn = $2; gsub(/[<>:]/, "", fn); entry[fn] = hex($1)
		hi = substr($1, 1, length($1) - 7)
		if (high != "" && hi != high) { print "ERROR traced functions more than 256 MiB apart"; bad = 1 }
		high = hi; next
	}
	/^ *[0-9a-f]+:\t/ {
		split($0, c, "\t")
		a = c[1]; sub(/^ */, "", a); sub(/:$/, "", a)
		pc = hex(a)
		b = c[2]; sub(/ +$/, "", b)
		nb = split(b, bb, " ")
		len[pc] = nb; bytes[pc] = b; text[pc] = c[3]; infn[pc] = fn; as[pc] = a
		next
	}
	END {
		if (bad) exit 1
		nd = split(dec, d, " ")
		di = 0; sp = 0; n = 0; nbytes = 0; calls = 0; taken = 0
		if (!("__cond_resched" in entry)) { print "ERROR no __cond_resched"; exit 1 }
		pc = entry["__cond_resched"]
		while (1) {
			if (!(pc in len)) { print "ERROR path leaves the traced functions"; exit 1 }
			if (++n > 400) { print "ERROR path longer than 400 instructions"; exit 1 }
			nbytes += len[pc]
			t = text[pc]; note = ""
			next_pc = pc + len[pc]
			mn = t; sub(/[ \t].*/, "", mn)
			tgt = -1
			if (match(t, /[0-9a-f]+ </)) { s = substr(t, RSTART, RLENGTH - 2); tgt = hex(s) }
			if (infn[pc] == "__cond_resched" && (bytes[pc] == "66 90" || bytes[pc] == "0f 1f 44 00 00")) {
				if (key == "on") {
					if (jt == "") { print "ERROR no __jump_table entry for the jump label"; exit 1 }
					note = "jump label: patched to jmp " jt " (limit on)"
					next_pc = hex(jt); taken++
				} else {
					note = "jump label: NOP (limit off)"
				}
			} else if (mn == "call") {
				f = t; sub(/.*</, "", f); sub(/>.*/, "", f)
				if (!(f in entry)) { printf "ERROR call to %s, not traced\n", f; exit 1 }
				stack[++sp] = next_pc; next_pc = entry[f]; calls++
			} else if (mn ~ /^ret/) {
				if (sp == 0) {
					printf "    %s %-22s %s\n", as[pc], bytes[pc], t
					break
				}
				next_pc = stack[sp--]
			} else if (mn == "jmp") {
				next_pc = tgt; taken++
			} else if (mn ~ /^j/) {
				if (di >= nd) { print "ERROR more conditional branches than decisions at " as[pc] " " t; exit 1 }
				dd = d[++di]
				note = "branch " dd
				if (dd == "T") { next_pc = tgt; taken++ }
			}
			printf "    %s %-22s %s%s\n", as[pc], bytes[pc], t, note == "" ? "" : "    <- " note
			pc = next_pc
		}
		if (di != nd) { printf "ERROR %d decisions given, %d used\n", nd, di; exit 1 }
		printf "RESULT %d %d %d %d\n", n, nbytes, calls, taken
	}' <(printf '%s\n' "$1")
}

db=$(dis "$base")
dp=$(dis "$patched")
grep -q '<rcu_cond_resched_qs>:' <<<"$db" &&
	{ echo "cost-static: $base has the series; want a kernel without it" >&2; exit 1; }
grep -q '<rcu_cond_resched_qs>:' <<<"$dp" ||
	{ echo "cost-static: $patched lacks the series (no rcu_cond_resched_qs)" >&2; exit 1; }
# The limit's jump label: the NOP in __cond_resched, and where it jumps.
nop=$(sed -n '/<__cond_resched>:$/,/^$/p' <<<"$dp" |
	sed -n 's/^ *\([0-9a-f]*\):\t\(66 90\|0f 1f 44 00 00\) *\t.*/\1/p')
[ "$(wc -w <<<"$nop")" = 1 ] ||
	{ echo "cost-static: want one jump-label NOP in $patched's __cond_resched, found: ${nop:-none}" >&2; exit 1; }
jt=$(jl_target "$patched" "$nop") ||
	{ echo "cost-static: no __jump_table entry for $nop in $patched" >&2; exit 1; }

# name|kernel|setting|key|decisions|what
# Decisions, in path order (PREEMPT_NONE test kernel, gcc 12):
#   __cond_resched: should_resched(0) false (preempt count non-zero) N;
#   rcu_all_qs: rcu_urgent_qs clear T (to its early return);
#   the countdown, after the jump label: not due T (255 calls in 256, back
#   to the return) or due N (every 256th);
#   rcu_cond_resched_qs (no grace period waiting on this CPU): limit
#   non-zero N, preempt count zero N, irqs on N, not blocking the grace
#   period N, no QS needed T, rcu_urgent_qs clear T, not blocking N,
#   irqs were on N.
paths="base|base|-|off|N T|unpatched __cond_resched
off|patched|0|off|N T|limit 0: the NOP not taken
on|patched|256|on|N T T|limit 256, the 255 calls in 256 that only count down
due|patched|256-due|on|N T N N N N N T T N N|limit 256, every 256th call (rcu_cond_resched_qs)"

declare -A I B C J
echo "== cond_resched() when nothing is to be done: instructions on the path"
echo "   base:    $base"
echo "   patched: $patched"
echo "   (T/N: the decision assumed at each conditional branch)"
while IFS='|' read -r name kern set key decs what; do
	d=$dp
	[ "$kern" = base ] && d=$db
	out=$(trace "$d" "$key" "$decs" "$jt")
	if ! grep -q '^RESULT' <<<"$out"; then
		echo "cost-static: $what: $(grep ERROR <<<"$out")" >&2
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		exit 1
	fi
	read -r _ I[$name] B[$name] C[$name] J[$name] < <(grep '^RESULT' <<<"$out")
	echo
	echo "-- $what: ${I[$name]} instructions, ${B[$name]} bytes, ${C[$name]} calls, ${J[$name]} taken jumps"
	grep -v '^RESULT' <<<"$out"
	if [ -n "$csv" ]; then
		for m in instructions:I bytes:B calls:C taken_jumps:J; do
			declare -n arr=${m#*:}
			echo "$kern,cost,$set,0,static,${m%%:*},${arr[$name]}" >>"$csv"
			unset -n arr
		done
	fi
done <<<"$paths"

# Per call at 256, averaged over 256 calls: 255 counting ones, one due.
avg() { echo "scale=2; (255 * $1 + $2) / 256" | bc; }
echo
echo "== summary: per cond_resched() call (tight loop, nothing to do)"
printf '%-34s %6s %6s %6s %6s\n' path insns bytes calls jumps
printf '%-34s %6s %6s %6s %6s\n' "base (no series)" "${I[base]}" "${B[base]}" "${C[base]}" "${J[base]}"
printf '%-34s %6s %6s %6s %6s\n' "patched, limit 0" "${I[off]}" "${B[off]}" "${C[off]}" "${J[off]}"
printf '%-34s %6s %6s %6s %6s\n' "patched, limit 256 (255 of 256)" "${I[on]}" "${B[on]}" "${C[on]}" "${J[on]}"
printf '%-34s %6s %6s %6s %6s\n' "patched, limit 256 (1 of 256)" "${I[due]}" "${B[due]}" "${C[due]}" "${J[due]}"
a=$(avg "${I[on]}" "${I[due]}")
printf '%-34s %6s %6s\n' "patched, limit 256, average" "$a" "$(avg "${B[on]}" "${B[due]}")"
echo "limit 0 against base: $((I[off] - I[base])) instruction(s), $((B[off] - B[base])) byte(s) more"
echo "limit 256 against base: $(echo "$a - ${I[base]}" | bc) instructions more on average"
[ -n "$csv" ] && echo "patched,cost,256-avg,0,static,instructions,$a" >>"$csv"
exit 0
