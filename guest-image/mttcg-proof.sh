#!/bin/bash
# mttcg-proof.sh [PART...]: the "Oops: int3" of a static key switched
# under QEMU's multi-threaded TCG is QEMU's, not the rcuqs series'
# (GitHub issue 41, item 2). A record, not a test: not part of make
# check, nor of any other make target.
#
# What it shows. `make check-quickstart` once booted a VM under
# multi-threaded TCG (QEMU's default for x86-64 on x86-64), and
# `rcuqs-ctl off`, which switches the series' static key in
# __cond_resched() (text_poke_bp() under the hood), oopsed: "Oops: int3
# ... RIP: __cond_resched+0x11/0x70", then a panic. run-guest.sh and the
# quick start have forced -accel tcg,thread=single since. The parts:
#
#   base    kernel-base: make check's lean configuration (PREEMPT_NONE) on
#           a pristine linux-source-6.1, no series at all. A scratch module
#           (modules/rcuqs_keyflip) runs keyflip_site(), a noinline
#           function whose only code is static_branch_unlikely() on a key
#           of the module's own, and cond_resched() back to back on CPUs
#           1-3, while CPU 0 switches that key PROOF_FLIPS times
#           (static_branch_enable()/disable() alternately). PROOF_BOOTS
#           boots under thread=multi, then as many under thread=single.
#           Expected: the same int3 oops, in keyflip_site, under multi;
#           nothing under single.
#   limit   the dynamic kernel (6.1 + the series, PREEMPT_DYNAMIC booting
#           voluntary: make check's 6.1 kernel) under thread=single:
#           PROOF_FLIPS writes switching rcutree.cond_resched_qs_limit
#           between 0 and 1..7 (each one switches the series' key) from CPU
#           0, while rcuqs_loop runs cond_resched() on CPU 1 and
#           rcuqs_keyflip's loops (cond_resched() too; their own key is
#           never switched here) on CPUs 2-3. PROOF_BOOTS boots; expected:
#           no oops.
#   limit-mt  the same under thread=multi (PROOF_BOOTS boots): the int3
#           oops in __cond_resched, as the quick start saw it.
#
# Default PARTs: base limit limit-mt; PART "table" (alone) prints the
# table again from what $PROOF_DIR/consoles/ keeps. Each boot's console
# and TAP are kept in $PROOF_DIR/consoles/, one line per boot appended to
# $PROOF_DIR/table.txt (kernel, TCG mode, switches asked, oops yes/no,
# int3 oopses, seconds, how far the switching came, the first oops line
# with its CPU and task, the first RIP line, the panic, the guest's
# result), the whole run's output in $PROOF_DIR/proof.log.
#
# Result, 2026-12-06, QEMU 7.2.22 (Debian 12), -smp 4, 3000 switches a
# boot, 5 boots each (mttcg-proof-results.txt has the table and console
# excerpts): kernel-base under thread=multi oopsed in 5 of 5 boots,
# "int3: 0000 [#1] SMP", "RIP: 0010:keyflip_site+0x1/0x10
# [rcuqs_keyflip]", "Kernel panic - not syncing: Fatal exception in
# interrupt", within 2000 switches; under thread=single 0 of 5, all 3000
# switches done. The dynamic kernel under thread=single: 0 of 5, all 3000
# limit switches done; under thread=multi 5 of 5, "RIP:
# 0010:__cond_resched+0x10/0x50", within 1000 switches. The oops does not
# need the series, and single-threaded TCG does not show it with or
# without the series.
#
# Inputs: build/kernel-base (make -C kernel-patches kernel-base; its
# build took 950 s at JOBS=2 on the shared 2-CPU host),
# build/kernel-dynamic (make -C kernel-patches kernel-dynamic, or make
# kernel), and the rcuqs .deb (make deb), which build-initrd.sh installs
# into the images. This script builds neither kernel (PROOF_BUILD=1: it
# runs those make commands first); it makes its own images in $PROOF_DIR
# (build-initrd.sh with RCUQS_GUEST_DIR, plus a second, appended cpio
# archive with the scratch module and the two guest test files written
# below), so it touches no image of make check's.
#
# Time (2026-12-06, 2 CPUs shared with other jobs): one minute for both
# images and modules; a thread=multi boot 17-105 s (it ends at the
# panic), a thread=single boot 121-185 s (3000 switches take 108-159 s);
# the default run, 20 boots, 1787 s.
#
# Environment: PROOF_BOOTS (5), PROOF_FLIPS (3000), PROOF_DIR
# ($BUILD/mttcg-proof), PROOF_TIMEOUT (seconds a boot, 900), PROOF_NICE
# (10: QEMU runs under nice -n PROOF_NICE), PROOF_BUILD (0), JOBS (2).
# Every kernel-facing step runs in QEMU (run-guest.sh, RCUQS_ACCEL,
# RCUQS_GUEST_DIR), TCG only; nothing touches the host's kernel.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build}
export BUILD
boots=${PROOF_BOOTS:-5}
flips=${PROOF_FLIPS:-3000}
dir=${PROOF_DIR:-$BUILD/mttcg-proof}
tmo=${PROOF_TIMEOUT:-900}
nice=${PROOF_NICE:-10}
jobs=${JOBS:-2}
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(base limit limit-mt)
for x in "$boots" "$flips" "$tmo"; do
	[[ $x =~ ^[1-9][0-9]*$ ]] || { echo "mttcg-proof: '$x' is not a positive number" >&2; exit 2; }
done
for p in "${parts[@]}"; do
	case $p in base | limit | limit-mt) ;; table) [ ${#parts[@]} = 1 ] || { echo "mttcg-proof: 'table' goes alone" >&2; exit 2; } ;;
	*) echo "mttcg-proof: no part '$p' (base, limit, limit-mt, table)" >&2; exit 2 ;; esac
done
deb=$BUILD/rcuqs_$(head -n 1 "$top/debian/changelog" | cut -d ' ' -f 2 | tr -d '()')_$(dpkg --print-architecture).deb
mkdir -p "$dir/consoles"
log=$dir/proof.log
table=$dir/table.txt
say() { echo "mttcg-proof: $*"; }
die() { say "$*"; exit 1; }
t_start=$(date +%s)
if [ "${parts[*]}" != table ]; then
	exec > >(tee -a "$log") 2>&1
	say "$(date -u '+%Y-%m-%d %H:%M:%S UTC'), parts: ${parts[*]}, $boots boots each, $flips switches a boot, $(qemu-system-x86_64 --version | head -n 1)"
	if [ "${PROOF_BUILD:-0}" = 1 ]; then
		nice -n 10 make -C "$top/kernel-patches" JOBS="$jobs" kernel-base kernel-dynamic || die "kernel build failed"
	fi
	[ -f "$deb" ] || die "$deb missing: make deb"
fi

# The guest side: two test files for run-suite (boots mttcg-key and
# mttcg-limit), appended to the images with the scratch module.
guest_key() {
	cat <<'EOF'
# boots: mttcg-key
# mttcg-proof.sh's guest side (not in make check's images): the scratch
# module's key switched rcuqs.flips times from CPU 0 while its loops run
# keyflip_site() and cond_resched() on CPUs 1..rcuqs.loops.
. "$RCUQS_LIB/lib.sh"
flips=$(cmdline_arg rcuqs.flips) || flips=3000
nl=$(cmdline_arg rcuqs.loops) || nl=3
K=/sys/module/rcuqs_keyflip/parameters
out=$(insmod "$RCUQS_LIB/rcuqs_keyflip.ko" cpu=1 nr_loops="$nl" ms=1200000 2>&1)
check "insmod rcuqs_keyflip cpu=1 nr_loops=$nl${out:+: $out}" test -d $K || exit 0
for ((i = 0; i < 300; i++)); do
	[ "$(rd $K/running)" = "$nl" ] && break
	sleep 0.1
done
is "$(rd $K/running)" "$nl" "the module's $nl loops run (CPUs 1-$nl) before the switching"
sleep 1
t0=$(date +%s%N)
w=$(taskset -c 0 sysfs-write $K/flips "$flips")
ms=$((($(date +%s%N) - t0) / 1000000))
is "$(rd $K/flips)" "$flips" "$flips switches of the module's key from CPU 0 while they loop ($w, $ms ms)"
echo 1 >$K/stop
sleep 2
done=$(rd $K/done)
diag "proof: $(uname -r) flips=$(rd $K/flips) in $ms ms, hits=$(rd $K/hits), passes per loop=$done"
check "every loop ended its own way (none died: no 0 in passes per loop '$done')" \
	eval '! [[ ",$done," == *,0,* ]]'
EOF
}
guest_limit() {
	cat <<'EOF'
# boots: mttcg-limit
# mttcg-proof.sh's guest side (not in make check's images): the series'
# key switched through rcutree.cond_resched_qs_limit rcuqs.flips times
# from CPU 0 while rcuqs_loop runs cond_resched() on CPU 1 and
# rcuqs_keyflip's loops (keyflip_site() and cond_resched(); their key
# stays off) on CPUs 2 and 3.
. "$RCUQS_LIB/lib.sh"
has_limit || { no_limit_skip "switching the limit"; exit 0; }
flips=$(cmdline_arg rcuqs.flips) || flips=3000
K=/sys/module/rcuqs_keyflip/parameters
loop_bg ms=1200000 cpu=1 || exit 0
out=$(insmod "$RCUQS_LIB/rcuqs_keyflip.ko" cpu=2 nr_loops=2 ms=1200000 2>&1)
check "insmod rcuqs_keyflip cpu=2 nr_loops=2${out:+: $out}" test -d $K || exit 0
for ((i = 0; i < 300; i++)); do
	[ "$(rd $K/running)" = 2 ] && break
	sleep 0.1
done
is "$(rd $K/running)" 2 "cond_resched() loops on CPUs 1 (rcuqs_loop), 2 and 3 (rcuqs_keyflip) before the switching"
sleep 1
t0=$(date +%s%N)
# One write(2) per switch (bash's printf), no fork: 0, then 1..7, ...;
# every 500th write logs a line to the console.
bad=$(taskset -c 0 bash -c '
	f=$1 bad=0
	for ((i = 0; i < $2; i++)); do
		printf "%d" $((i % 2 ? 0 : 1 + i % 7)) 2>/dev/null >"$f" || bad=$((bad + 1))
		((i % 500 != 499)) || echo "mttcg-limit: $((i + 1)) writes" >/dev/kmsg
	done
	echo $bad' sw "$P/cond_resched_qs_limit" "$flips")
ms=$((($(date +%s%N) - t0) / 1000000))
is "$bad" 0 "$flips writes switching cond_resched_qs_limit between 0 and 1..7 from CPU 0 during the loops ($ms ms)"
is "$(param cond_resched_qs_limit)" 0 "the limit is 0 after the last write"
echo 1 >$K/stop
loop_end
sleep 1
done=$(rd $K/done)
diag "proof: $(uname -r) limit switches=$flips in $ms ms, rcuqs_loop done_loops=$(rd $M/done_loops), rcuqs_keyflip passes=$done"
check "rcuqs_loop and both rcuqs_keyflip loops ended their own way (passes '$done', rcuqs_loop $(rd $M/done_loops))" \
	eval '! [[ ",$done," == *,0,* ]] && [ "$(rd $M/done_loops)" -gt 0 ]'
EOF
}

# image KERNEL: $dir/guest-KERNEL/initrd.img, build-initrd.sh's image for
# that kernel followed by a gzip'd cpio with the module and the tests.
image() {
	local k=$1 g=$dir/guest-$1 t rel ov
	t=$(date +%s)
	rel=$(cat "$BUILD/kernel-$k/include/config/kernel.release") || die "kernel-$k is not built (make -C kernel-patches kernel-$k)"
	RCUQS_GUEST_DIR=$g/base nice -n 10 "$here/build-initrd.sh" "$k" "$deb" >"$g.initrd.log" 2>&1 ||
		{ cat "$g.initrd.log"; die "build-initrd.sh $k failed"; }
	rm -rf "$g/mod" "$g/overlay"
	mkdir -p "$g/mod" "$g/overlay/usr/lib/rcuqs-test/tests"
	cp "$here"/modules/rcuqs_keyflip/{Kbuild,rcuqs_keyflip.c} "$g/mod/"
	nice -n 10 make -s -C "$BUILD/kernel-$k" M="$g/mod" modules || die "rcuqs_keyflip against kernel-$k"
	cp "$g/mod/rcuqs_keyflip.ko" "$g/overlay/usr/lib/rcuqs-test/"
	guest_key >"$g/overlay/usr/lib/rcuqs-test/tests/90-mttcg-key.sh"
	guest_limit >"$g/overlay/usr/lib/rcuqs-test/tests/91-mttcg-limit.sh"
	ov=$g/overlay.cpio.gz
	(cd "$g/overlay" && find usr -type f | cpio --quiet -o -H newc -R 0:0) | gzip -9 >"$ov"
	# The kernel unpacks one archive after the other; zeros between
	# them are skipped.
	{
		cat "$g/base/initrd.img"
		head -c $(((4 - $(stat -c %s "$g/base/initrd.img") % 4) % 4)) /dev/zero
		cat "$ov"
	} >"$g/initrd.img"
	say "image $g/initrd.img: $rel, $(du -h "$g/initrd.img" | cut -f1), $(($(date +%s) - t)) s"
	objdump -d "$g/mod/rcuqs_keyflip.ko" | awk '/<keyflip_site>:/,/^$/' | sed 's/^/    /'
}

# run KERNEL MODE BOOT N: one boot under -accel tcg,thread=MODE; its
# console and TAP body kept in $dir/consoles/ (with NAME.meta: switches
# asked, seconds, run-guest.sh's status), its line of the table written.
run() {
	local k=$1 mode=$2 b=$3 n=$4 g=$dir/guest-$1 t rc
	local name=$k-$mode-$b-$n
	t=$(date +%s)
	: >"$g/$name.body"
	RCUQS_GUEST_DIR=$g RCUQS_ACCEL="-accel tcg,thread=$mode" \
		nice -n "$nice" "$here/run-guest.sh" -t "$tmo" -o "$g/$name.body" "$k" "$b" \
		rcuqs.flips="$flips" rcuqs.loops=3 systemd.cpu_affinity=0 >/dev/null 2>"$g/$name.run"
	rc=$?
	tr -d '\r' <"$g/$b.console" >"$dir/consoles/$name.console"
	cp "$g/$name.body" "$dir/consoles/$name.body"
	echo "flips=$flips secs=$(($(date +%s) - t)) rc=$rc" >"$dir/consoles/$name.meta"
	row "$name" | tee -a "$table"
	[ "$rc" = 0 ] || say "  ($name: run-guest.sh exited $rc: $(grep -c '^not ok' "$g/$name.body") not ok; $(grep '^not ok' "$g/$name.body" | head -n 3 | tr '\n' ' '))"
}

# row NAME: the table's line for the boot NAME (KERNEL-MODE-BOOT-N) from
# what $dir/consoles/ keeps of it: kernel, TCG mode, boot, N, switches
# asked, oops yes/no, int3 oopses, seconds, how far the switching came
# (the guest's own count when it got to the end, else the last progress
# line before the first oops: module and guest script log one every 500),
# the first oops line with its CPU and task, the first RIP line, the
# panic line, the guest's result line.
row() {
	local name=$1 c=$dir/consoles/$1.console ts='^\[ *[0-9.]*\] '
	local k mode b n flips='?' secs='?' rc='?' oops first rip pan got upto
	[[ $name =~ ^(.+)-(multi|single)-(mttcg-[a-z]+)-([0-9]+)$ ]] || return 0
	k=${BASH_REMATCH[1]} mode=${BASH_REMATCH[2]} b=${BASH_REMATCH[3]} n=${BASH_REMATCH[4]}
	# shellcheck disable=SC1090 # flips= secs= rc=
	[ -f "$dir/consoles/$name.meta" ] && . "$dir/consoles/$name.meta"
	# An oops's first line: "int3: 0000 [#1] ..." on 6.1, "Oops: int3:
	# 0000 [#1] ..." from 6.9 on (the quick start's 6.12).
	oops=$(grep -cE "^($ts)?(Oops: )?int3: [0-9a-f]{4} \[#" "$c")
	first=$(grep -m1 -E "^($ts)?(Oops: )?[a-z0-9 ]+: [0-9a-f]{4} \[#[0-9]+\]" "$c" | sed "s/$ts//")
	[ -z "$first" ] || first="$first, $(grep -m1 -E "^($ts)?CPU: [0-9]+ PID: " "$c" | sed -E "s/$ts//; s/ +Tainted.*| +Not tainted.*//")"
	rip=$(grep -m1 -E "^($ts)?RIP: " "$c" | sed "s/$ts//")
	pan=$(grep -m1 'Kernel panic' "$c" | sed "s/$ts//")
	got=$(sed -n 's/.*# proof: //p' "$dir/consoles/$name.body" | head -n 1)
	if [ -n "$got" ]; then
		upto=all
	else
		upto=$(awk '/^(\[ *[0-9.]*\] )?(Oops: )?[a-z0-9 ]+: [0-9a-f]{4} \[#[0-9]+\]/ { exit }
			match($0, /(rcuqs_keyflip: [0-9]+ switches|mttcg-limit: [0-9]+ writes)/) {
				s = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); last = s }
			END { print last + 0 }' "$c")
		upto="$upto-$((upto + 499))"
	fi
	printf '%-8s %-6s %-12s %2s %5s  %-3s %2s %4ss %9s  %s | %s | %s | %s\n' "$k" "$mode" "$b" "$n" "$flips" \
		"$([ "$oops" -gt 0 ] && echo yes || echo no)" "$oops" "$secs" "$upto" "${first:--}" "${rip:--}" \
		"${pan:-no panic}" "${got:-no result line from the guest}"
}
header() {
	echo "# kernel mode boot n switches oops int3-oopses secs switches-done first-oops | first-RIP | panic | guest's result"
}

needs() { for p in "${parts[@]}"; do case $p in "$1"*) return 0 ;; esac; done; return 1; }
if [ "${parts[*]}" = table ]; then
	header
	for c in "$dir"/consoles/*.console; do row "$(basename "$c" .console)"; done
	exit 0
fi
needs base && image base
needs limit && image dynamic
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC')"
	header
} >>"$table"
for p in "${parts[@]}"; do
	case $p in
	base)
		for ((i = 1; i <= boots; i++)); do run base multi mttcg-key "$i"; done
		for ((i = 1; i <= boots; i++)); do run base single mttcg-key "$i"; done
		;;
	limit) for ((i = 1; i <= boots; i++)); do run dynamic single mttcg-limit "$i"; done ;;
	limit-mt) for ((i = 1; i <= boots; i++)); do run dynamic multi mttcg-limit "$i"; done ;;
	esac
done
say "done in $(($(date +%s) - t_start)) s; table $table, consoles $dir/consoles/"
