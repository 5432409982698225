#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# torture.sh: the kernel's own rcutorture scenarios on a patched tree
# (6.1, 6.12 or 7.3: TORTURE_KERNEL), in QEMU under single-threaded TCG
# (issue 19, item 9; issue 29, item 5). Driven by 'make torture
# [KERNEL=6.12|7.3]' (kernel-patches/Makefile); not part of 'make check'.
#
#   torture.sh build SCENARIO        configure and build its kernel
#   torture.sh run SCENARIO LIMIT    boot it with the knob at LIMIT:
#                                    rcutree.cond_resched_qs_limit on 6.1
#                                    and 6.12, rcutree.jiffies_till_nohz_qs
#                                    on 7.3 (it has no limit)
#   torture.sh rejudge SCENARIO LIMIT  judge a kept boot again (its
#                                    console and QEMU status)
#   torture.sh report                TAP and the scenarios x minutes table
#   torture.sh all                   all three for $TORTURE_SCENARIOS
#
# A SCENARIO is a file of tools/testing/selftests/rcutorture/configs/rcu/
# (TREE01, TREE04, TREE07, TASKS01, TRACE01, ...), taken with its .boot
# file, CFcommon and CFcommon.x86_64 as kvm.sh takes them, or one of ours:
#   LOCKDEP  TREE04 plus PROVE_LOCKING, PROVE_RCU, DEBUG_ATOMIC_SLEEP
#   KCSAN    LOCKDEP plus KCSAN, configured as kvm.sh --kcsan does
#            (not in the default list). A KCSAN report that names no
#            function of the series (series_funcs) is the tree's: it is
#            listed in the verdict and the TAP line, not failed; one
#            that names a series function fails the boot (judge.sh)
#
# Every boot also gets rcutorture.qs_tunable_interval (patch 5/5), which
# rewrites jiffies_till_sched_qs and the knob (cond_resched_qs_limit;
# jiffies_till_nohz_qs on 7.3) during the run for torture_type=rcu; the
# value given on the command line is where those rewrites start and what
# rcutorture restores at the end. The
# Tasks RCU types (TASKS01, TRACE01) leave the tunables alone: there the
# limit holds for the whole boot.
#
# The verdict of a boot is judge.sh's: upstream's parse-console.sh and
# console-badness.sh of the same tree (SUCCESS, no "!!!", no splat,
# stall, warning or lockdep report), then what the series adds (see
# there).
#
# Environment (defaults):
#   TORTURE_KERNEL     6.1: the baseline, its tree $BUILD/linux (6.1) or
#                      $BUILD/linux-6.12, -7.3, its kernels and boots in
#                      $BUILD/torture (6.1) or torture-6.12, torture-7.3
#   TORTURE_SCENARIOS  TREE01 TREE04 TREE07 TASKS01 TRACE01 LOCKDEP
#   TORTURE_MINUTES    10: torture time per scenario, split evenly over
#                      the limits
#   TORTURE_LIMITS     the knob's values, one boot each: 1 16 256 (the
#                      limit); 1 on 7.3 (jiffies_till_nohz_qs)
#   TORTURE_QS_INTERVAL  50 (jiffies; rcutorture.qs_tunable_interval)
#   TORTURE_MAXCPUS    16: a scenario asking for more CPUs gets this many,
#                      as kvm.sh limits it to TORTURE_ALLOTED_CPUS (TCG
#                      runs any number of vCPUs, slowly; 16 is TREE07's,
#                      whose nohz_full=2-9 a smaller guest refuses)
#   TORTURE_JOBS       number of guests at a time (default: online CPUs)
#   TORTURE_MEM        512M (kvm.sh's default)
#   TORTURE_TCG        single (multi: 7.3 only, see run())
#   BUILD, RESULTS, JOBS   as for the rest of kernel-patches/
set -eu
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/../../build}
RESULTS=${RESULTS:-$BUILD/results}
KERNEL=${TORTURE_KERNEL:-6.1}
case $KERNEL in
6.1) SUFFIX= ;;
6.12 | 7.3) SUFFIX=-$KERNEL ;;
*) echo "torture: TORTURE_KERNEL '$KERNEL' is not 6.1, 6.12 or 7.3" >&2; exit 1 ;;
esac
SRC=$BUILD/linux$SUFFIX TB=$BUILD/torture$SUFFIX APPLIED=$BUILD/applied$SUFFIX
# The knob each boot sets, and the word for its value in names and TAP.
if [ "$KERNEL" = 7.3 ]; then
	KNOB=jiffies_till_nohz_qs TAG=nohz_qs DEF_LIMITS=1
else
	KNOB=cond_resched_qs_limit TAG=limit DEF_LIMITS="1 16 256"
fi
CONFIGS=$SRC/tools/testing/selftests/rcutorture/configs/rcu
BIN=$SRC/tools/testing/selftests/rcutorture/bin
SCENARIOS=${TORTURE_SCENARIOS:-TREE01 TREE04 TREE07 TASKS01 TRACE01 LOCKDEP}
MINUTES=${TORTURE_MINUTES:-10}
LIMITS=${TORTURE_LIMITS:-$DEF_LIMITS}
QS_INTERVAL=${TORTURE_QS_INTERVAL:-50}
MAXCPUS=${TORTURE_MAXCPUS:-16}
MEM=${TORTURE_MEM:-512M}
JOBS=${JOBS:-2}
TCG=${TORTURE_TCG:-single}

die() { echo "torture: $*" >&2; exit 1; }

is_count() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
is_count "$MINUTES" || die "TORTURE_MINUTES '$MINUTES' is not a whole number of minutes"
is_count "$QS_INTERVAL" || die "TORTURE_QS_INTERVAL '$QS_INTERVAL' is not a number of jiffies"
is_count "$MAXCPUS" || die "TORTURE_MAXCPUS '$MAXCPUS' is not a number of CPUs"
case $TCG in
single | multi) ;;
*) die "TORTURE_TCG '$TCG' is not single or multi" ;;
esac
[ "$TCG" = single ] || [ "$KERNEL" = 7.3 ] ||
	die "TORTURE_TCG=multi: only for 7.3; the $KERNEL series flips a static key, which multi-threaded TCG of QEMU 7.2 cannot take"
set -f
read -r -a limits <<<"$LIMITS"
set +f
[ ${#limits[@]} -gt 0 ] || die "TORTURE_LIMITS is empty"
for l in "${limits[@]}"; do
	[[ $l =~ ^[0-9]+$ ]] && [ "$l" -le 1048576 ] ||
		die "TORTURE_LIMITS: '$l' is not a $KNOB value (0 to 1048576)"
done
# Torture seconds per boot: the scenario's minutes over its boots.
secs=$(( (MINUTES * 60 + ${#limits[@]} - 1) / ${#limits[@]} ))

# The upstream scenario a name stands for, and our fragments on top.
upstream_of() {
	case $1 in
	LOCKDEP | KCSAN) echo TREE04 ;;
	*) echo "$1" ;;
	esac
}
extra_frags_of() {
	case $1 in
	LOCKDEP) echo "$here/lockdep.config" ;;
	KCSAN) echo "$here/lockdep.config $here/kcsan.config" ;;
	esac
}
check_scenario() {
	local up
	[[ $1 =~ ^[A-Za-z0-9_-]+$ ]] || die "scenario '$1': not a scenario name"
	up=$(upstream_of "$1")
	[ -f "$CONFIGS/$up" ] ||
		die "scenario '$1': no $CONFIGS/$up (is the $KERNEL tree there? make -C kernel-patches tree)"
}
# kvm.sh's order: CFcommon, then CFcommon.ARCH where the tree has one
# (6.12 and 7.3: CONFIG_HYPERVISOR_GUEST, which CFcommon's PARAVIRT needs
# there), then the scenario's.
frags_of() {
	local arch=
	[ -f "$CONFIGS/CFcommon.x86_64" ] && arch=$CONFIGS/CFcommon.x86_64
	echo "$here/base.config $CONFIGS/CFcommon $arch $CONFIGS/$(upstream_of "$1") $(extra_frags_of "$1")"
}
boot_of() {
	local f
	f=$CONFIGS/$(upstream_of "$1").boot
	[ -f "$f" ] && sed -e 's/#.*//' "$f" | tr '\n' ' '
	return 0
}

kmake() {
	make -C "$SRC" O="$TB/$1/kernel" ARCH=x86_64 "${@:2}"
}

# build SCENARIO: tinyconfig + fragments, reconfigured only when a
# fragment changed, then an incremental bzImage build.
build() {
	local s=$1 o frags sum start
	check_scenario "$s"
	o=$TB/$s/kernel
	mkdir -p "$o"
	# A verdict is the kernel's built now: a build that fails leaves none.
	rm -f "$TB/$s"/*/verdict
	frags=$(frags_of "$s")
	# shellcheck disable=SC2086
	sum=$(cat $frags | md5sum | cut -d' ' -f1)
	if [ ! -f "$o/.config" ] || [ "$(cat "$o/frags.md5" 2>/dev/null)" != "$sum" ]; then
		rm -f "$o/frags.md5"
		kmake "$s" -s tinyconfig
		# shellcheck disable=SC2086
		(cd "$o" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" \
			-m -O "$o" .config $frags >merge.log)
		kmake "$s" -s olddefconfig
		# What the fragments ask for, and rcutorture's own #CHECK#
		# lines, must hold after olddefconfig.
		# shellcheck disable=SC2086
		sed -n 's/^#CHECK#//p' $frags >"$o/check.config"
		# shellcheck disable=SC2086
		"$here/../check-config.sh" "$o/.config" $frags "$o/check.config" ||
			{ rm -f "$o/.config"; die "$s: configuration does not match its fragments"; }
		echo "$sum" >"$o/frags.md5"
	fi
	start=$(date +%s)
	kmake "$s" -j"$JOBS" bzImage >"$TB/$s/build.log" 2>&1 ||
		{ tail -20 "$TB/$s/build.log" >&2; die "$s: build failed, see $TB/$s/build.log"; }
	echo "torture: $s built in $(( $(date +%s) - start )) s"
}

# The initrd: /init from init.c, /dev/console, packed with the tree's
# own gen_init_cpio.
initrd() {
	mkdir -p "$TB"
	[ "$TB/initrd.cpio" -nt "$here/init.c" ] && return 0
	gcc -static -Os -Wall -o "$TB/init" "$here/init.c"
	gcc -O2 -o "$TB/gen_init_cpio" "$SRC/usr/gen_init_cpio.c"
	printf '%s\n' 'dir /dev 0755 0 0' 'nod /dev/console 0600 0 0 c 5 1' \
		"file /init $TB/init 0755 0 0" >"$TB/initrd.list"
	"$TB/gen_init_cpio" "$TB/initrd.list" >"$TB/initrd.cpio.tmp"
	mv "$TB/initrd.cpio.tmp" "$TB/initrd.cpio"
}

# CPUs a scenario boots with: maxcpus= on its command line, else its
# CONFIG_NR_CPUS, else one; at most TORTURE_MAXCPUS.
cpus_of() {
	local s=$1 n
	n=$(boot_of "$s" | grep -o 'maxcpus=[0-9]*' | cut -d= -f2 || true)
	[ -n "$n" ] || n=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$CONFIGS/$(upstream_of "$s")")
	[ -n "$n" ] || n=1
	if [ "$n" -gt "$MAXCPUS" ]; then
		echo "torture: $s: CPU count limited from $n to $MAXCPUS" >&2
		n=$MAXCPUS
	fi
	echo "$n"
}

# The series' functions, for judging KCSAN reports: every function the
# applied patches define, and every function a hunk of theirs names in its
# header (the function it changes, or the one before a new function:
# more names than strictly the series', never fewer).
series_funcs() {
	local p
	for p in $(sed -e 's/#.*//' "$APPLIED/series"); do
		sed -n -E -e 's/^\+[a-z].*[ *]([a-z_][a-z0-9_]*)\(.*[^;]$/\1/p' \
			-e 's/^@@ .* @@ .*[ *]([a-z_][a-z0-9_]*)\(.*/\1/p' "$APPLIED/$p"
	done | sort -u
}

# run SCENARIO LIMIT: one boot, its verdict in $TB/SCENARIO/$TAG-LIMIT/.
run() {
	local s=$1 l=$2 d o append ttype cpus rc start el
	check_scenario "$s"
	o=$TB/$s/kernel
	[ -f "$o/arch/x86/boot/bzImage" ] || die "$s: not built (torture.sh build $s)"
	initrd
	d=$TB/$s/$TAG-$l
	rm -rf "$d" && mkdir -p "$d"
	cpus=$(cpus_of "$s" 2>>"$d/warnings")
	# kvm.sh's boot arguments for x86 and for rcutorture
	# (functions.sh identify_qemu_append, configs/rcu/ver_functions.sh
	# per_version_boot_params), the scenario's own, then ours.
	append="debug_boot_weak_hash panic=-1 selinux=0 initcall_debug debug console=ttyS0"
	append+=" $(boot_of "$s")"
	if grep -q '^CONFIG_HOTPLUG_CPU=y' "$o/.config" && ! grep -q 'rcutorture\.onoff_interval' <<<"$append"; then
		append+=" rcutorture.onoff_interval=1000 rcutorture.onoff_holdoff=30"
	fi
	grep -q 'rcutorture\.n_barrier_cbs' <<<"$append" || append+=" rcutorture.n_barrier_cbs=4"
	grep -q 'rcutorture\.stat_interval' <<<"$append" || append+=" rcutorture.stat_interval=15"
	append+=" rcutorture.shutdown_secs=$secs rcutorture.test_no_idle_hz=1 rcutorture.verbose=1"
	append+=" rcutorture.qs_tunable_interval=$QS_INTERVAL rcutree.$KNOB=$l"
	echo "$append" >"$d/append"
	ttype=$(grep -o 'rcutorture\.torture_type=[^ ]*' <<<"$append" | tail -1 | cut -d= -f2)
	ttype=${ttype:-rcu}
	echo "torture: $KERNEL $s $TAG $l: $cpus CPUs, $secs s of torture" >&2
	start=$(date +%s)
	# Single-threaded TCG by default: multi-threaded TCG of QEMU 7.2
	# oopses on int3 when a static key flips while another vCPU runs the
	# site, and on 6.1 and 6.12 qs_tunable_interval flips the limit's
	# key all the time. TORTURE_TCG=multi is for 7.3, whose series flips
	# no key, where vCPUs then race for real.
	rc=0
	timeout -k 10 $(( secs + 900 )) qemu-system-x86_64 -accel tcg,thread="$TCG" \
		-smp "$cpus" -m "$MEM" -nodefaults -display none -monitor none \
		-no-reboot -kernel "$o/arch/x86/boot/bzImage" -initrd "$TB/initrd.cpio" \
		-append "$append" -serial "file:$d/console.log" </dev/null || rc=$?
	el=$(( $(date +%s) - start ))
	printf '%s\t%s\t%s\n' "$rc" "$el" "$ttype" >"$d/qemu"
	judge_boot "$s" "$l"
}

# judge_boot SCENARIO LIMIT: the verdict on a boot that ran (its console
# and $d/qemu: QEMU's status, seconds, torture type), into $d/verdict;
# 'torture.sh rejudge' runs it again on a kept console.
judge_boot() {
	local s=$1 l=$2 d rc el ttype funcs= why verdict note=
	d=$TB/$s/$TAG-$l
	[ -f "$d/qemu" ] || die "$s $TAG $l: never booted ($d/qemu missing)"
	IFS=$'\t' read -r rc el ttype <"$d/qemu"
	# judge.sh: upstream's parse-console.sh and console-badness.sh,
	# then what the series adds. KCSAN: a data race in the tree, away
	# from the series, is listed, not failed (judge.sh).
	if [ "$s" = KCSAN ]; then
		funcs=$d/series.funcs
		series_funcs >"$funcs"
	fi
	why=$(TORTURE_BIN=$BIN TORTURE_SERIES_FUNCS=$funcs "$here/judge.sh" "$d/console.log" "$ttype" "$rc") && why=
	why=${why#not ok: }
	if [ -z "$why" ]; then verdict=ok; else verdict="not ok"; fi
	if [ -s "$d/console.log.kcsan-outside" ]; then
		note="$(wc -l <"$d/console.log.kcsan-outside") KCSAN reports outside the series' $(wc -l <"$funcs") functions"
		note+=" ($(sort "$d/console.log.kcsan-outside" | uniq -c | sort -rn | head -3 |
			sed 's/ *\([0-9]*\) BUG: KCSAN: data-race in /\1x /' | paste -sd';'))"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$verdict" "$s" "$l" "$secs" "$el" "$why" "$note" >"$d/verdict"
	echo "torture: $KERNEL $s $TAG $l: $verdict in $el s${why:+: $why}${note:+; $note}"
	[ "$verdict" = ok ]
}

# report: TAP over every boot of TORTURE_SCENARIOS x TORTURE_LIMITS, and
# the table the cover letter quotes.
report() {
	local s l v n=0 bad=0 tap=$RESULTS/torture$SUFFIX.tap txt=$RESULTS/torture$SUFFIX.txt
	mkdir -p "$RESULTS"
	{
		for s in $SCENARIOS; do for l in "${limits[@]}"; do n=$((n + 1)); done; done
		echo "1..$n"
		n=0
		for s in $SCENARIOS; do
			for l in "${limits[@]}"; do
				n=$((n + 1))
				v=$TB/$s/$TAG-$l/verdict
				if [ -f "$v" ] && [ "$(cut -f1 "$v")" = ok ]; then
					echo "ok $n - $KERNEL $s $TAG $l: $(cut -f4 "$v") s SUCCESS, no splat$(cut -f7 "$v" | sed '/./s/^/; /')"
				else
					echo "not ok $n - $KERNEL $s $TAG $l: $( [ -f "$v" ] && cut -f6 "$v" || echo 'not run')"
				fi
			done
		done
	} >"$tap"
	{
		echo "make torture: $KERNEL series on $(cut -d' ' -f1-2 "$APPLIED/source" 2>/dev/null || echo 'an unrecorded tree'), $(date -u +%Y-%m-%d), TORTURE_MINUTES=$MINUTES, $KNOB ${limits[*]}, qs_tunable_interval=$QS_INTERVAL, TCG thread=$TCG"
		printf '%-9s %5s %s\n' scenario CPUs "torture seconds per $KNOB value (verdict)"
		for s in $SCENARIOS; do
			printf '%-9s %5s' "$s" "$(cpus_of "$s" 2>/dev/null)"
			for l in "${limits[@]}"; do
				v=$TB/$s/$TAG-$l/verdict
				if [ -f "$v" ]; then
					printf ' %s:%ss(%s)' "$l" "$(cut -f4 "$v")" "$(cut -f1 "$v")"
				else
					printf ' %s:-' "$l"
				fi
			done
			echo
		done
	} >"$txt"
	cat "$txt"
	bad=$(grep -c '^not ok' "$tap" || true)
	echo "torture: $(grep -c '^ok' "$tap") ok, $bad not ok ($tap)"
	[ "$bad" -eq 0 ]
}

# all: build the scenarios one after the other, and boot each built one
# while the next builds, TORTURE_JOBS guests at a time.
all() {
	local s l q rc=0
	for s in $SCENARIOS; do check_scenario "$s"; done
	initrd
	q=$TB/queue
	rm -f "$q" && mkfifo "$q"
	{
		for s in $SCENARIOS; do
			if build "$s" >&2; then
				for l in "${limits[@]}"; do echo "$s $l"; done
			fi
		done
	} >"$q" &
	xargs -P "${TORTURE_JOBS:-$(nproc)}" -L1 "$0" run <"$q" || true
	wait $! || rc=1
	rm -f "$q"
	report || rc=1
	return $rc
}

case ${1:-} in
build) [ $# -eq 2 ] || die "usage: torture.sh build SCENARIO"; build "$2" ;;
run) [ $# -eq 3 ] || die "usage: torture.sh run SCENARIO LIMIT"
	[[ $3 =~ ^[0-9]+$ ]] && [ "$3" -le 1048576 ] || die "$KNOB '$3' is not 0 to 1048576"
	run "$2" "$3" ;;
rejudge) [ $# -eq 3 ] || die "usage: torture.sh rejudge SCENARIO LIMIT"
	[[ $3 =~ ^[0-9]+$ ]] || die "$KNOB '$3' is not a number"
	check_scenario "$2"; judge_boot "$2" "$3" ;;
report) report ;;
all) all ;;
*) die "usage: torture.sh build SCENARIO | run SCENARIO LIMIT | rejudge SCENARIO LIMIT | report | all" ;;
esac
