# rcuqs guest suite: helpers sourced by every test file (bash).
#
# A test file prints unnumbered TAP lines ("ok - ...", "not ok - ...",
# "# ..."); run-suite numbers them and sends them to the host. The first
# line of each file says in which boots it runs: "# boots: main cmdline".

P=/sys/module/rcutree/parameters
Q=/sys/kernel/rcu_qs
# The counters of /sys/kernel/rcu_qs/ the series has on this kernel: 7.3's
# has no limit, so no limit_qs, and counts rcutree.jiffies_till_nohz_qs's
# requests (kernel-patches/7.3/README).
case $(uname -r) in
7.*) COUNTERS="gp_completed urgent_qs resched_kicks nohz_qs_asks nohz_qs_reports nohz_qs_rescheds cbs_invoked" ;;
*) COUNTERS="gp_completed limit_qs urgent_qs resched_kicks cbs_invoked" ;;
esac
HZ=250	# CONFIG_HZ_250 in both test kernels (kernel-patches/config)
RCUQS_LIB=${RCUQS_LIB:-/usr/lib/rcuqs-test}

ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
diag() { local l; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }

# check DESC COMMAND...: ok when COMMAND succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else nok "$desc"; fi
}

# is GOT WANT DESC
is() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		nok "$3"
		diag "got '$1', want '$2'"
	fi
}

# between VALUE LOW HIGH DESC (integers)
between() {
	if [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; then
		ok "$4"
	else
		nok "$4"
		diag "got '$1', want $2 .. $3"
	fi
}

# cmdline_arg NAME: value of NAME=VALUE on the kernel command line; the
# last one when NAME is given more than once, as for the kernel.
cmdline_arg() {
	local w v found=1
	for w in $(cat /proc/cmdline); do
		case $w in "$1"=*) v=${w#*=} found=0 ;; esac
	done
	[ $found = 0 ] && echo "$v"
	return $found
}

# rd FILE: the first line of FILE, "<unreadable>" when it cannot be read.
# get VAR FILE: the same into VAR, without a fork (TCG makes forks slow).
get() {
	local -n _v=$1
	{ IFS= read -r _v <"$2"; } 2>/dev/null || _v="<unreadable>"
}
rd() { local x; get x "$1"; printf '%s\n' "$x"; }
# ppath NAME: the file of a parameter: rcutree's, or rcu_expedited, the
# runtime knob upstream already has (make bench compares it).
ppath() {
	case $1 in
	rcu_expedited) echo /sys/kernel/rcu_expedited ;;
	*) echo "$P/$1" ;;
	esac
}
param() { rd "$(ppath "$1")"; }
counter() { rd "$Q/$1"; }

# swrite FILE VALUE: one write(2), prints the helper's answer ("ok N" or
# "EINVAL Invalid argument"), returns its status.
swrite() { sysfs-write "$1" "$2"; }

# setp NAME VALUE: write a parameter that must accept VALUE; a failure is
# reported by the caller's checks (the read-back), and said here.
# jiffies_till_sched_qs=auto on a kernel whose parameter takes numbers
# only (the RFC's 1/3, kernel-patches/upstream, make check-rfc): its
# ULONG_MAX, which means "calculate it" there as on the command line.
setp() {
	local out
	out=$(swrite "$(ppath "$1")" "$2") && return
	if [ "$1.$2" = jiffies_till_sched_qs.auto ] && [[ $(param "$1") =~ ^[0-9]+$ ]] &&
		out=$(swrite "$(ppath "$1")" 18446744073709551615); then
		return
	fi
	diag "writing '$2' to $1: $out"
}

# The largest valid jiffies_till_sched_qs: half of rcu_jiffies_till_stall_check(),
# minus 1; that is the stall timeout, plus 5 s under CONFIG_PROVE_RCU
# (RCU_STALL_DELAY_DELTA), which comes with lockdep and so /proc/lockdep.
sched_qs_max() {
	local t
	t=$(cat /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)
	[ -e /proc/lockdep ] && t=$((t + 5))
	echo $((t * HZ / 2 - 1))
}

# preempt_model: the preemption model in force, as rcuqs-ctl status should
# name it. Debian's model: PREEMPT_DYNAMIC, voluntary unless preempt= says
# else; lazy on 7.3, where x86 offers only lazy and full. none otherwise
# (the test kernels are PREEMPT_DYNAMIC or PREEMPT_NONE).
preempt_model() {
	local r dflt=voluntary
	if uname -v | grep -q PREEMPT_DYNAMIC; then
		r=$(uname -r)
		case ${r%.*} in 6.1 | 6.12) ;; *) dflt=lazy ;; esac
		cmdline_arg preempt || echo $dflt
	else
		echo none
	fi
}

# limit_idle: the kernel has the cond_resched() limit, but cond_resched()
# does nothing under its preemption model (full on 6.1, 6.12): the limit
# cannot act, as rcuqs-ctl status and verify say.
limit_idle() {
	has_limit || return 1
	case $(preempt_model) in full | rt) return 0 ;; esac
	return 1
}

# has_limit: the kernel has rcutree.cond_resched_qs_limit; 7.3's series
# has not (cond_resched() never runs on x86 there, kernel-patches/7.3/
# README). no_limit_skip DESC: DESC as a TAP skip that says so.
has_limit() { [ -e "$P/cond_resched_qs_limit" ]; }
# knob2: the series' second runtime knob on this kernel: the cond_resched()
# limit (6.1, 6.12), or 7.3's jiffies_till_nohz_qs.
knob2() { if has_limit; then echo cond_resched_qs_limit; else echo jiffies_till_nohz_qs; fi; }
no_limit_skip() {
	ok "$1 # SKIP no rcutree.cond_resched_qs_limit on $(uname -r): no cond_resched() limit there (kernel-patches/7.3/README)"
}

# The rcuqs_loop test module: loading it runs the loop (see its source).
M=/sys/module/rcuqs_loop/parameters
declare -A c0 c1 d

snap() {	# snap ARRAY: all counters into ARRAY
	local c
	for c in $COUNTERS; do
		get "$1[$c]" "$Q/$c"
	done
}

# need_nohz_qs WHAT: true on a kernel with rcutree.jiffies_till_nohz_qs
# (7.3's series); elsewhere WHAT as a TAP skip that says so, and false.
need_nohz_qs() {
	[ -e "$P/jiffies_till_nohz_qs" ] && return 0
	ok "$1 # SKIP rcutree.jiffies_till_nohz_qs is not on this kernel ($(uname -r))"
	return 1
}

# nohz_cpu: $nz, the boot's first nohz_full CPU, which must be neither 0
# nor 1 (CPU 0 times the grace periods, CPU 1 keeps its tick); false, with
# a not ok that shows the layout, when the boot has none.
nohz_cpu() {
	nz=$(rd /sys/devices/system/cpu/nohz_full)
	nz=${nz%%[-,]*}
	case $nz in
	'' | *[!0-9]* | 0 | 1)
		nok "the boot has a nohz_full CPU other than 0 and 1 (nohz_full='$(rd /sys/devices/system/cpu/nohz_full)')"
		return 1
		;;
	esac
}

# housekept: ok when this shell, and so the suite's user space, may not
# run on the nohz_full CPUs (systemd.cpu_affinity= on the command line,
# check-guest.sh), as on a machine set up for nohz_full: a loop there
# then has its CPU to itself.
housekept() {
	local nz allowed cpus c
	nz=$(rd /sys/devices/system/cpu/nohz_full)
	allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
	cpus=" $(cpulist "$allowed") "
	for c in $(cpulist "$nz"); do
		case $cpus in
		*" $c "*) nok "user space may run on nohz_full CPU $c (allowed: $allowed, nohz_full: $nz)"; return 1 ;;
		esac
	done
	ok "user space keeps off the nohz_full CPUs $nz (allowed: $allowed)"
}

# cpulist LIST: the CPUs of a kernel CPU list ("0-1,3"), one a word.
cpulist() {
	local r a b out=""
	local IFS=,
	for r in $1; do
		a=${r%-*} b=${r#*-}
		[[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]] || continue
		while ((a <= b)); do out="$out $a"; a=$((a + 1)); done
	done
	echo "${out# }"
}

# loop_bg ARGS...: load the module with ARGS in the background (its pid in
# loop_pid) and return once its init runs the loop: its sysfs directory
# appears just before. A busy emulator can take a second or more to load
# a module, so a fixed sleep would sample before the loop began. 1 when
# the module did not appear within 30 s.
loop_bg() {
	local i
	modprobe rcuqs_loop "$@" &
	loop_pid=$!
	for ((i = 0; i < 300; i++)); do
		[ -d $M ] && return 0
		kill -0 "$loop_pid" 2>/dev/null || break
		sleep 0.1
	done
	nok "modprobe rcuqs_loop $*: the module did not start its loop"
	return 1
}

# loop_end: end the loop loop_bg started (ms=T with a generous T) now that
# its sample is taken, and wait for modprobe to return.
loop_end() {
	echo 1 >$M/stop 2>/dev/null
	wait "$loop_pid"
}

# rcuqs-ctl recommend under a load (57-recommend, 59-preempt-full, 59-stock).
# The loop of 47-effect (ndelay(1000); cond_resched();), synchronize_rcu()
# timed from CPU 0 every 5 ms: CPU 2 sees no context switch of its own.
LOAD=(delay_ns=1000 gp_load=1 gp_cpu=0 gp_gap_us=5000)

# recommend_during WHAT MODPROBE-ARGS...: the recommendation rcuqs-ctl
# recommend --seconds 3 gives while the rcuqs_loop module runs a loop
# (WHAT=loop, sampled from 0.3 s after the loop began; the loop may last
# 30 s and ends once recommend returns, so a recommend slow to start on a
# loaded host still samples the loop, not its end) or while open1 runs
# (WHAT=open1), or on an idle system (WHAT=idle); its whole output in
# $rec_out, its "sampled" line in $rec_rates. rcuqs-ctl runs as the
# command $rec_ctl: rcuqs-ctl, or a test's function that runs it in a
# setting of its own (59-stock's private mount namespace).
rec_ctl=rcuqs-ctl
recommend_during() {
	local what=$1 pid=
	shift
	case $what in
	loop) loop_bg ms=30000 "$@"; sleep 0.3 ;;
	open1) open1 2 5000 /tmp >/dev/null & pid=$!; sleep 0.5 ;;
	esac
	rec_out=$("$rec_ctl" recommend --seconds 3 2>&1)
	rec_rc=$?
	case $what in
	loop)
		loop_end || nok "loop $* did not finish cleanly"
		# A loop that ran its whole 30 s ended before recommend returned:
		# the sample may have missed it, and the verdict says nothing.
		[ "$(cat $M/loop_us 2>/dev/null || echo 0)" -lt 30000000 ] ||
			nok "the loop ($*) ran its whole 30 s: $rec_ctl recommend returned after it ended"
		modprobe -r rcuqs_loop || nok "modprobe -r rcuqs_loop" ;;
	open1) wait "$pid" || nok "open1 did not finish cleanly" ;;
	esac
	rec_rates=$(sed -n 's/^sampled //p' <<<"$rec_out")
	rec=$(sed -n 's/^recommendation: //p' <<<"$rec_out")
	diag "recommend during $what $*: exit $rec_rc, recommendation: ${rec:-none}" \
		"$(head -n 24 <<<"$rec_out")"
}

# loop ARGS...: load the module with ARGS (it runs the loop in its init),
# then d[counter] holds each counter's growth and r_* the module's results.
# LOOP_QUIET=1: no diagnostic line (make demo prints its own table).
loop() {
	local c out
	snap c0
	if ! out=$(modprobe rcuqs_loop "$@" 2>&1); then
		nok "modprobe rcuqs_loop $*: $out"
		return 1
	fi
	snap c1
	get r_loops $M/done_loops
	get r_us $M/loop_us
	get r_gps $M/gps
	get r_gpin $M/gps_in_loop
	get r_gpmax $M/gp_max_us
	get r_gp50 $M/gp_p50_us
	get r_gp99 $M/gp_p99_us
	get r_bhs $M/bh_sections
	get r_bhp $M/bh_preempts
	get r_nivcsw $M/loop_nivcsw
	get r_unlresch $M/unlock_rescheds
	modprobe -r rcuqs_loop || nok "modprobe -r rcuqs_loop"
	for c in $COUNTERS; do
		d[$c]=$((c1[$c] - c0[$c]))
	done
	[ -n "${LOOP_QUIET:-}" ] || diag "$*: done_loops=$r_loops loop_us=$r_us loop_nivcsw=$r_nivcsw gps=$r_gps gps_in_loop=$r_gpin" \
		"  gp_p50_us=$r_gp50 gp_p99_us=$r_gp99 gp_max_us=$r_gpmax;" \
		"  growth: $(for c in $COUNTERS; do printf '%s=%s ' $c ${d[$c]}; done)"
}

# make demo's loop (tests/demo), which 47-demo-rounds repeats: 1.5 s of
# ndelay(1000); cpu_relax(); cond_resched(); on nohz_full CPU $nz while CPU 0 times
# synchronize_rcu() every 5 ms. demo_loop floor: the same window with no
# loop (idle=1), the grace periods' floor. Results as loop() leaves them.
demo_loop() {
	local what="cpu=$nz delay_ns=1000"
	[ "${1:-}" = floor ] && what="idle=1"
	LOOP_QUIET=1 loop ms=1500 $what gp_load=1 gp_cpu=0 gp_gap_us=5000
}
# demo_effect PROFILE P50 FLOOR (us): whether PROFILE's row shows the
# effect the profile is for, one line of words, and true when it does.
# The line is issue 16's goal (p99_goal: 1.5 times the no-loop floor, at
# least 40 ms, for the TCG floor's own spread and a host busy with other
# work): latency's p50 within it, every other profile's beyond it, held
# back by the loop (nothing asks the looping CPU before
# jiffies_to_sched_qs, 100 ms by default).
demo_effect() {
	local p=$1 v=$2 f=$3 g
	[[ $v =~ ^[0-9]+$ && $f =~ ^[0-9]+$ ]] && ((f > 0)) || { echo "$p: no figures (p50 '$v', floor '$f')"; return 1; }
	g=$(p99_goal "$f")
	local x="p50 $((v / 1000)) ms, $((v * 10 / f / 10)).$((v * 10 / f % 10))x the floor's $((f / 1000)) ms; goal $((g / 1000)) ms"
	if [ "$p" = latency ]; then
		if ((v <= g)); then
			echo "$p: within the goal ($x): its expected effect"
			return 0
		fi
		echo "$p: NOT within the goal ($x): not its expected effect"
		return 1
	fi
	if ((v > g)); then
		echo "$p: held back by the loop ($x), as expected without the mitigation"
		return 0
	fi
	echo "$p: NOT held back by the loop ($x): the loop did not hold grace periods"
	return 1
}

# rotated R WORD...: the WORDs, one a line, starting from the (R mod N)+1-th
# and wrapping around: round R of a comparison of settings side by side
# in one boot, so that no setting always runs first or after the same one.
rotated() {
	local r=$1 i idx
	shift
	for ((i = 0; i < $#; i++)); do
		idx=$(((i + r) % $# + 1))
		printf '%s\n' "${!idx}"
	done
}

# p99_goal FLOOR_P99: issue 16's goal for a looping nohz_full CPU's p99,
# max(40 ms, 1.5x the no-loop floor's p99), in us (46-nohz-qs, 66-study).
p99_goal() {
	local g=$(($1 * 3 / 2))
	((g < 40000)) && g=40000
	echo $g
}

# ratio_le A B NUM DEN DESC: ok when A * DEN <= B * NUM (A, in us, at
# most NUM/DEN of B): the effect tests' same-boot comparisons.
ratio_le() {
	if [[ $1 =~ ^[0-9]+$ && $2 =~ ^[0-9]+$ ]] && (($1 * $4 <= $2 * $3)); then
		ok "$5"
	else
		nok "$5"
		diag "got $1 us against $2 us, want at most $3/$4"
	fi
}

# with_userspin CMD...: CMD run while a task spins in user space on CPU
# $nz (tools/userspin.c: PAUSE in a loop), CMD's status. The floor a
# loop's grace periods are held against (47-effect, 46-nohz-qs,
# 56-early): no kernel loop on CPU $nz, RCU sees that CPU in an extended
# quiescent state as it sees an idle one, but its vCPU is as busy as in a
# loop run. Single-threaded TCG runs busy vCPUs in turn, so a loop run's
# CPU takes its share of the emulator from CPUs 0-1 (the grace-period
# kthread, the timing kthread), and that share costs more guest time the
# busier the host is (make check boots a suite beside a kernel build and
# other guests): the idle floor (idle=1 alone) has no such share, this
# one has it. A spinner that dies early fails the test.
with_userspin() {
	local pid rc
	userspin "$nz" &
	pid=$!
	sleep 0.2
	"$@"
	rc=$?
	if kill "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null
	else
		wait "$pid"
		nok "userspin $nz ended before the run did (exit $?)"
	fi
	return $rc
}

# median N...: the middle value of the integers N (the lower middle for an
# even count), without forking.
median() {
	local -a v=("$@")
	local i j t
	for ((i = 1; i < ${#v[@]}; i++)); do
		for ((j = i; j > 0 && v[j - 1] > v[j]; j--)); do
			t=${v[j]} v[j]=${v[j - 1]} v[j - 1]=$t
		done
	done
	echo "${v[(${#v[@]} - 1) / 2]}"
}

# The rcuqs package as installed in the image (build-initrd.sh).
PROFILES=/usr/lib/rcuqs/profiles
shipped_profiles() {	# the names of the shipped profiles
	local f
	for f in "$PROFILES"/*.profile; do
		f=${f##*/}
		echo "${f%.profile}"
	done
}

# profile_load NAME: pv[KEY]=VALUE for every kernel parameter the shipped
# profile NAME sets, includes first, later lines winning: read here
# without rcuqs-ctl, so that the tool is checked against the files. Of a
# line of alternatives, "A=x || B=y" (rcuqs.profile(5)), the first whose
# parameter this kernel has in /sys/module.
declare -A pv
profile_load() {
	local line k v alt n
	local -a alts
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in '' | '#'* | ';'*) continue ;; esac
		alts=()
		while [ -n "$line" ]; do
			alt=${line%%||*}
			[ "$alt" = "$line" ] && line="" || line=${line#*||}
			alts+=("$alt")
		done
		n=${#alts[@]}
		for alt in "${alts[@]}"; do
			k=${alt%%=*} v=${alt#*=}
			k=${k//[[:space:]]/}
			v=${v#"${v%%[![:space:]]*}"} v=${v%"${v##*[![:space:]]}"}
			case $k in
			include) profile_load "$v" ;;
			rcutree.* | rcupdate.*)
				[ "$n" = 1 ] || [ -e "/sys/module/${k%%.*}/parameters/${k#*.}" ] || continue
				pv[$k]=$v
				;;
			esac
			break
		done
	done <"$PROFILES/$1.profile"
}

# sysfs_matches NAME DESC: every parameter of profile NAME reads back from
# /sys/module exactly as the profile sets it.
sysfs_matches() {
	local k got bad=""
	pv=()
	profile_load "$1"
	for k in "${!pv[@]}"; do
		get got "/sys/module/${k%%.*}/parameters/${k#*.}"
		[ "$got" = "${pv[$k]}" ] || bad="$bad $k=$got (want ${pv[$k]})"
	done
	if [ ${#pv[@]} -gt 0 ] && [ -z "$bad" ]; then
		ok "$2: sysfs holds $1's values ($(for k in "${!pv[@]}"; do printf '%s=%s ' "$k" "${pv[$k]}"; done))"
	else
		nok "$2: sysfs holds $1's values"
		diag "differs:${bad:- profile $1 sets nothing}"
	fi
}

# unit_prop UNIT PROP: one property of UNIT as systemd reports it.
unit_prop() { systemctl show -P "$2" "$1" 2>/dev/null; }

# json_num JSON KEY: the number after "KEY": in JSON (flat keys only;
# digits and a decimal point).
json_num() { sed -n 's/.*"'"$2"'":\([0-9.]*\).*/\1/p' <<<"$1"; }

# measure_row JSON LOAD [SETTING]: the row of "rcuqs-ctl measure --json"
# for LOAD (under SETTING, with --compare), for json_num.
measure_row() { tr '{' '\n' <<<"$1" | grep "\"load\":\"$2\"" | grep -F "${3:+\"setting\":\"$3\"}"; }

# rcu_params: every rcutree and rcupdate parameter as FILE:VALUE lines,
# to compare before and after a command that must leave them as they were.
rcu_params() { grep -H . /sys/module/rcutree/parameters/* /sys/module/rcupdate/parameters/* 2>/dev/null; }

# The benchmarks' helpers (bench-latency, bench-open1).

# profile_values NAME: "param=value ..." that profile NAME sets in rcutree
# (profile_load's reading, prefix dropped).
profile_values() {
	local k out=""
	local -A pv=()
	[ -f "$PROFILES/$1.profile" ] || { echo "no profile $PROFILES/$1.profile" >&2; return 1; }
	profile_load "$1"
	for k in "${!pv[@]}"; do
		case $k in rcutree.*) out="$out ${k#rcutree.}=${pv[$k]}" ;; esac
	done
	echo "$out"
}

# spread FORMAT LIST: "median (min-max)" of the integers in LIST, each
# passed through the function FORMAT (e.g. echo).
spread() {
	local fmt=$1 lo hi x
	local -a v=($2)
	lo=${v[0]} hi=${v[0]}
	for x in "${v[@]}"; do
		((x < lo)) && lo=$x
		((x > hi)) && hi=$x
	done
	printf '%s (%s-%s)' "$($fmt "$(median "${v[@]}")")" "$($fmt "$lo")" "$($fmt "$hi")"
}

# setp_values NAME "param=value ...": setp each, saying where the kernel
# reads back something else (NAME labels the message).
setp_values() {
	local kv
	for kv in $2; do
		setp "${kv%%=*}" "${kv#*=}"
		[ "$(param "${kv%%=*}")" = "${kv#*=}" ] ||
			echo "!! $1: ${kv%%=*} reads $(param "${kv%%=*}"), not ${kv#*=}"
	done
}

# effective "k=v ...": the values in force after writing them in order
# (the last value of each key, in the order keys first appear).
effective() {
	local kv k order=""
	local -A e=()
	for kv in $1; do
		k=${kv%%=*}
		[ -n "${e[$k]+x}" ] || order="$order $k"
		e[$k]=${kv#*=}
	done
	for k in $order; do printf ' %s=%s' "$k" "${e[$k]}"; done
}

# ipis CPU: rescheduling and function-call IPIs CPU has taken since boot
# (the RES and CAL lines of /proc/interrupts).
# Plain bash: the image has no awk.
ipis() {
	local -a f
	local n=0
	while read -r -a f; do
		case ${f[0]} in RES: | CAL:) n=$((n + f[$1 + 1])) ;; esac
	done </proc/interrupts
	echo $n
}

# cpu_total FILE CPU: the sum of CPU's column over the lines of FILE,
# /proc/interrupts (device, timer, IPIs, irq_work: every interrupt CPU
# took so far) or /proc/softirqs; ERR and MIS, one column for all CPUs,
# are skipped, as is the header.
cpu_total() {
	local -a f
	local n=0
	while read -r -a f; do
		case ${f[0]} in ERR: | MIS:) continue ;; esac
		[[ ${f[$2 + 1]:-} =~ ^[0-9]+$ ]] && n=$((n + f[$2 + 1]))
	done <"$1"
	echo $n
}

# csv BENCH SETTING ROUND WHERE MEASURE VALUE: one row of the bench's
# machine-readable results; the host moves these lines to its CSV file
# (prefixing the kernel) and keeps them out of the text report.
csv() { printf '@csv,%s,%s,%s,%s,%s,%s\n' "$@"; }

# ms US: microseconds as milliseconds with one decimal.
ms() { echo "$(($1 / 1000)).$(($1 % 1000 / 100))"; }

# ratio A B: A/B to two decimals (B of 0 counts as 1).
ratio() {
	local b=$(($2 > 0 ? $2 : 1))
	printf '%d.%02d' $(($1 / b)) $(($1 * 100 / b % 100))
}
