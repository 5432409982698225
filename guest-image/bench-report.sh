#!/bin/bash
# bench-report.sh CSV OUTDIR: the markdown summary (OUTDIR/bench-summary.md)
# and the gnuplot plots (OUTDIR/bench-latency.png, bench-open1.png) of a
# 'make bench' CSV (kernel,bench,setting,round,where,measure,value).
#
# bench-report.sh --check CSV VARIANT...: TAP on stdout, one line per
# kernel, bench, setting, place and measure the bench must produce (the
# shipped profiles, the A/A pair, the reference rows): ok when the CSV has
# a number for it. What the numbers are is not judged (timings are not
# tests); that a measure went missing or produced garbage is.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
profiles=$(cd "$here/../rcuqs-ctl/profiles" && ls *.profile | sed 's/\.profile$//')

if [ "${1:-}" = --check ]; then
	csv=$2
	shift 2
	lsets="default default2 $profiles jtsq=1 latency+jtsq=1"
	osets="default default2 $profiles fqs=10 fqs=25"
	n=0 bad=0
	want() {	# want KERNEL BENCH SETTING WHERE MEASURE
		local got
		n=$((n + 1))
		got=$(awk -F, -v k="$1" -v b="$2" -v s="$3" -v w="$4" -v m="$5" \
			'$1 == k && $2 == b && $3 == s && $5 == w && $6 == m { print $7 }' "$csv")
		if [ -n "$got" ] && ! grep -qv '^[0-9][0-9]*$' <<<"$got"; then
			echo "ok $n - bench smoke: $1 $2 $3 $4 $5: $(echo $got)"
		else
			echo "not ok $n - bench smoke: $1 $2 $3 $4 $5: no number (got '$(echo $got)')"
			bad=$((bad + 1))
		fi
	}
	for k in "$@"; do
		# 7.3 has no limit: nohz_qs_asks where the others count limit_qs,
		# and no cond_resched() cost.
		c2=limit_qs
		case $k in *-7.3) c2=nohz_qs_asks ;; esac
		for s in $(echo $lsets | tr ' ' '\n' | sort -u); do
			for w in nohz_full tick; do
				for m in p50_us p99_us max_us gps gp_completed_per_s ${c2}_per_s urgent_qs_per_s resched_kicks_per_s irqs_per_s; do
					want "$k" latency "$s" "$w" "$m"
				done
			done
		done
		for m in p50_us p99_us max_us gps; do want "$k" latency default no_loop "$m"; done
		for s in limit_0 limit_0b limit_256; do
			[ "$c2" = limit_qs ] || break
			for w in tick native; do want "$k" cost "$s" "$w" ps_per_call; done
		done
		# The open1 boots that ran (BENCH_BOOTS, from bench.sh).
		for b in ${BENCH_BOOTS:-open1 open1_tick}; do
			case $b in open1*) ;; *) continue ;; esac
			for s in $(echo $osets | tr ' ' '\n' | sort -u); do
				for t in 1 2 4; do
					for m in ops_per_s gps_per_s cbs_per_gp rcu_kthread_us_per_s rcu_softirqs_per_s ksoftirqd_us_per_s; do
						want "$k" "$b" "$s" "tasks_$t" "$m"
					done
				done
			done
		done
	done
	echo "1..$n"
	[ "$bad" = 0 ]
	exit
fi

# bench-report.sh --figures CSV: the figures README.md's "what latency
# buys" quotes (doc/bench-quotes), as doc/bench-figures' KEY=VALUE lines,
# for each kernel whose latency boot the CSV has: per setting (default,
# jtsq=1 as jtsq1, latency) the loop on the nohz_full CPU's p50 and p99
# (ms), its interrupts per second and per grace period, and the date of
# the CSV. bench-report.sh --update-figures CSV FILE: those lines put in
# FILE (doc/bench-figures) in place of the same keys, new keys appended;
# the other kernels' keys stay as they are, so a bench of one kernel
# (BENCH_KERNELS=lazy-7.3) updates that kernel's figures only; then the
# quotes of doc/bench-quotes (beside FILE) in README.md and doc/*.md that
# name a changed key are rewritten to read with the new values
# (requote.py); make -C man check then confirms every quote.
mode=report
case ${1:-} in
--figures) mode=figures csv=${2:?bench-report.sh --figures CSV} ;;
--update-figures) mode=update csv=${2:?bench-report.sh --update-figures CSV FILE} figfile=${3:?bench-report.sh --update-figures CSV FILE} ;;
*) csv=$1 out=$2 md=$out/bench-summary.md ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# stats.tsv: kernel bench where setting measure median min max n, settings
# in the order the CSV first has them; ratios against the same kernel,
# bench, place and measure of 'default' (cost: of limit_0).
awk -F, 'NR > 1 && $7 ~ /^[0-9]+$/ {
	key = $1 SUBSEP $2 SUBSEP $5 SUBSEP $3 SUBSEP $6
	if (!(key in cnt)) order[++nk] = key
	v[key, ++cnt[key]] = $7 + 0
}
END {
	for (i = 1; i <= nk; i++) {
		key = order[i]; c = cnt[key]
		for (a = 1; a <= c; a++) s[a] = v[key, a]
		for (a = 2; a <= c; a++) { x = s[a]; b = a - 1; while (b > 0 && s[b] > x) { s[b + 1] = s[b]; b-- } s[b + 1] = x }
		split(key, f, SUBSEP)
		printf "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\n", f[1], f[2], f[3], f[4], f[5], s[int((c + 1) / 2)], s[1], s[c], c
	}
}' "$csv" >"$tmp/stats.tsv"

# get KERNEL BENCH WHERE SETTING MEASURE: "median min max" or nothing
get() { awk -F'\t' -v k="$1" -v b="$2" -v w="$3" -v s="$4" -v m="$5" \
	'$1 == k && $2 == b && $3 == w && $4 == s && $5 == m { print $6, $7, $8 }' "$tmp/stats.tsv"; }
# fmt DIV "median min max": "M (LO-HI)" divided by DIV (1000: us to ms)
fmt() { [ -n "$2" ] && awk -v d="$1" -v s="$2" 'BEGIN { split(s, a, " ");
	f = d == 1 ? "%d (%d-%d)" : "%.1f (%.1f-%.1f)"; printf f, a[1] / d, a[2] / d, a[3] / d }'; }
ratio() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="${1%% *}" -v b="${2%% *}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
kernels=$(cut -f1 "$tmp/stats.tsv" | awk '!seen[$0]++')
settings() { awk -F'\t' -v k="$1" -v b="$2" '$1 == k && $2 == b && !seen[$4]++ { print $4 }' "$tmp/stats.tsv"; }
label() { case $1 in none) echo "PREEMPT_NONE" ;; dynamic) echo "PREEMPT_DYNAMIC" ;; lazy-7.3) echo "7.3 PREEMPT_DYNAMIC (lazy)" ;; *) echo "$1" ;; esac; }

# figure_lines: the --figures output. Keys irqgp_K_SETTING_MEASURE, K
# 61 (dynamic), 612 (dynamic-6.12), 73 (lazy-7.3), none (none).
figure_lines() {
	local k p s n key v
	for k in $kernels; do
		[ -n "$(get "$k" latency nohz_full default p50_us)" ] || continue
		case $k in dynamic) p=61 ;; dynamic-6.12) p=612 ;; lazy-7.3) p=73 ;; *) p=$(printf '%s' "$k" | tr -c 'a-z0-9' _) ;; esac
		echo "irqgp_${p}_run=$(date -u -r "$csv" '+%Y-%m-%d %H:%M UTC')"
		for s in default:default jtsq=1:jtsq1 latency:latency; do
			n=${s%%:*} key=irqgp_${p}_${s#*:}
			for m in p50_us:p50:1000:%.1f p99_us:p99:1000:%.1f irqs_per_s:irqs:1:%.0f irqs_per_kgp:per_gp:1000:%.2f; do
				IFS=: read -r cm name div f <<<"$m"
				v=$(get "$k" latency nohz_full "$n" "$cm")
				[ -n "$v" ] || { echo "bench-report: $k: no $cm for $n in $csv" >&2; return 1; }
				echo "${key}_$name=$(awk -v x="${v%% *}" -v d="$div" -v f="$f" 'BEGIN { printf f, x / d }')"
			done
		done
	done
}
case $mode in
figures) figure_lines; exit ;;
update)
	figure_lines >"$tmp/new" || exit 1
	[ -s "$tmp/new" ] || { echo "bench-report: no latency boot in $csv" >&2; exit 1; }
	awk 'NR == FNR { i = index($0, "="); k = substr($0, 1, i - 1); v[k] = substr($0, i + 1); ord[++n] = k; next }
		!/^#/ && index($0, "=") { k = substr($0, 1, index($0, "=") - 1)
			if (k in v) { print k "=" v[k]; seen[k] = 1; next } }
		{ print }
		END { for (i = 1; i <= n; i++) if (!(ord[i] in seen)) print ord[i] "=" v[ord[i]] }' "$tmp/new" "$figfile" >"$tmp/fig"
	diff "$figfile" "$tmp/fig" | sed -n 's/^> /bench-report: /p'
	cp "$figfile" "$tmp/old"
	cat "$tmp/fig" >"$figfile"
	# The quotes of the changed figures in README.md and doc/*.md, made
	# to read with the new values (requote.py).
	"$here/requote.py" "$tmp/old" "$figfile" "$(dirname "$figfile")/bench-quotes" "$here/.."
	exit ;;
esac

{
	echo "# make bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "QEMU $(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p') TCG single-threaded, -smp 4, HZ=250," \
		"nohz_full=2-3 except in open1_tick (no nohz_full, no nocb CPU: every CPU keeps its tick);" \
		"host: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)."
	echo "Each cell: median of the runs (min-max). Ratios: median over default's median, same kernel, same table."
	echo "default2 is default again (A/A): a difference smaller than default2's is noise."
	echo "TCG models no caches and these timings move with host load: compare rows of one table only."
	for k in $kernels; do
		echo
		echo "## $(label "$k") kernel"
		for w in nohz_full tick; do
			[ -n "$(settings "$k" latency)" ] || continue
			echo
			if [ "$w" = nohz_full ]; then
				echo "### synchronize_rcu() latency (ms), cond_resched() loop on nohz_full CPU 2"
			else
				echo "### synchronize_rcu() latency (ms), cond_resched() loop on CPU 1 (keeps its tick)"
			fi
			echo
			c2=limit_qs
			case $k in *-7.3) c2=nohz_qs_asks ;; esac
			echo "| setting | p50 | p99 | max | p99 x default | GPs per run | $c2/s | urgent_qs/s | resched_kicks/s | irqs/s | irqs/GP |"
			echo "|---|---|---|---|---|---|---|---|---|---|---|"
			d99=$(get "$k" latency "$w" default p99_us)
			for s in $(settings "$k" latency); do
				p99=$(get "$k" latency "$w" "$s" p99_us)
				[ -n "$p99" ] || continue
				echo "| $s | $(fmt 1000 "$(get "$k" latency "$w" "$s" p50_us)") | $(fmt 1000 "$p99") |" \
					"$(fmt 1000 "$(get "$k" latency "$w" "$s" max_us)") | $(ratio "$p99" "$d99") |" \
					"$(fmt 1 "$(get "$k" latency "$w" "$s" gps)") |" \
					"$(fmt 1 "$(get "$k" latency "$w" "$s" ${c2}_per_s)") |" \
					"$(fmt 1 "$(get "$k" latency "$w" "$s" urgent_qs_per_s)") |" \
					"$(fmt 1 "$(get "$k" latency "$w" "$s" resched_kicks_per_s)") |" \
					"$(fmt 1 "$(get "$k" latency "$w" "$s" irqs_per_s)") |" \
					"$(fmt 1000 "$(get "$k" latency "$w" "$s" irqs_per_kgp)") |"
			done
			if [ "$w" = tick ]; then
				echo "| no loop (floor) | $(fmt 1000 "$(get "$k" latency no_loop default p50_us)") |" \
					"$(fmt 1000 "$(get "$k" latency no_loop default p99_us)") |" \
					"$(fmt 1000 "$(get "$k" latency no_loop default max_us)") | | $(fmt 1 "$(get "$k" latency no_loop default gps)") | | | | | |"
			fi
		done
		[ -n "$(settings "$k" cost)" ] && echo && echo "### cond_resched() cost, tight loop of bare calls (ps per call)"
		[ -n "$(settings "$k" cost)" ] && echo && echo "| where | limit 0 | limit 0 again (A/A) | limit 256 | 256 x 0 |" &&
			echo "|---|---|---|---|---|"
		for w in tick native; do
			c0=$(get "$k" cost "$w" limit_0 ps_per_call)
			[ -n "$c0" ] || continue
			c256=$(get "$k" cost "$w" limit_256 ps_per_call)
			[ "$w" = tick ] && where="guest (TCG), CPU 1" || where="host CPU, natively (the kernel's code)"
			echo "| $where | $(fmt 1 "$c0") | $(fmt 1 "$(get "$k" cost "$w" limit_0b ps_per_call)") | $(fmt 1 "$c256") | $(ratio "$c256" "$c0") |"
		done
		# The open1 boots that ran (BENCH_BOOTS, from bench.sh).
		for b in ${BENCH_BOOTS:-open1 open1_tick}; do
			case $b in open1*) ;; *) continue ;; esac
			[ -n "$(settings "$k" "$b")" ] || continue
			if [ "$b" = open1 ]; then
				shape="nohz_full=2-3 (CPUs 2-3 nocb)"
			else
				shape="no nohz_full, every CPU keeps its tick, no nocb CPU (the file-server shape)"
			fi
			for t in 1 2 4; do
				echo
				echo "### $b, $t task(s), $shape"
				echo
				echo "open+close pairs per second, grace periods per second, callbacks per grace period," \
					"CPU ms per second of run of RCU's kthreads, RCU softirqs per second, ksoftirqd's CPU ms per second"
				echo
				echo "| setting | ops/s | x default | GPs/s | x default | cbs/GP | RCU kthreads ms/s | RCU softirqs/s | ksoftirqd ms/s |"
				echo "|---|---|---|---|---|---|---|---|---|"
				dops=$(get "$k" "$b" "tasks_$t" default ops_per_s)
				dgps=$(get "$k" "$b" "tasks_$t" default gps_per_s)
				for s in $(settings "$k" "$b"); do
					ops=$(get "$k" "$b" "tasks_$t" "$s" ops_per_s)
					gps=$(get "$k" "$b" "tasks_$t" "$s" gps_per_s)
					[ -n "$ops" ] || continue
					echo "| $s | $(fmt 1 "$ops") | $(ratio "$ops" "$dops") | $(fmt 1 "$gps") | $(ratio "$gps" "$dgps") |" \
						"$(fmt 1 "$(get "$k" "$b" "tasks_$t" "$s" cbs_per_gp)") |" \
						"$(fmt 1000 "$(get "$k" "$b" "tasks_$t" "$s" rcu_kthread_us_per_s)") |" \
						"$(fmt 1 "$(get "$k" "$b" "tasks_$t" "$s" rcu_softirqs_per_s)") |" \
						"$(fmt 1000 "$(get "$k" "$b" "tasks_$t" "$s" ksoftirqd_us_per_s)") |"
				done
			done
		done
	done
	echo
	echo "irqs/s: every interrupt the looping CPU took (its column of every /proc/interrupts row: LOC, RES,"
	echo "CAL, ...) per second of run; irqs/GP: those interrupts per grace period completed (gp_completed,"
	echo "every CPU's grace periods), the median of the runs' own ratios (a run with none completed has none)."
	echo
	echo "RCU kthreads: the grace-period kthread (rcu_preempt or rcu_sched), the expedited workers and any"
	echo "rcuog/rcuop/rcuos, rcuc and rcub kthreads, utime+stime from /proc/PID/stat, in ticks of 10 ms"
	echo "(USER_HZ=100; the kernels have no CONFIG_SCHEDSTATS for /proc/PID/schedstat): one tick is 5 ms/s"
	echo "in a 2 s run, 2.5 ms/s in a 4 s one. Where no CPU is nocb, callbacks run in RCU_SOFTIRQ, on irq"
	echo "exit (charged to the interrupted task) or in ksoftirqd (which runs other softirqs too): the RCU"
	echo "softirq count and ksoftirqd's time are shown apart, not counted as RCU's kthreads."
} >"$md"
echo "bench-report: $md"

if ! command -v gnuplot >/dev/null; then
	echo "bench-report: no gnuplot (apt-get install gnuplot-nox), no plots" >&2
	exit 1
fi
# Latency: p50 and p99 per setting, loop on the nohz_full CPU, one panel
# per kernel, log scale (the throughput profile holds a GP for the loop).
nk=$(echo $kernels | wc -w)
grep -q "	latency	nohz_full	" "$tmp/stats.tsv" && {
	echo "set terminal pngcairo noenhanced size $((560 * nk)),520 font ',10'"
	echo "set output '$out/bench-latency.png'"
	echo "set multiplot layout 1,$nk title 'synchronize_rcu() latency, cond_resched() loop on nohz_full CPU 2 (median, min-max)'"
	echo "set logscale y; set ylabel 'ms'; set grid ytics; set xtics rotate by -30; set key top left; set offsets 0.5,0.5,0,0"
	for k in $kernels; do
		i=0
		for s in $(settings "$k" latency); do
			p50=$(get "$k" latency nohz_full "$s" p50_us) p99=$(get "$k" latency nohz_full "$s" p99_us)
			[ -n "$p99" ] && echo "$i $s $p50 $p99" && i=$((i + 1))
		done >"$tmp/lat-$k.dat"
		echo "set title '$(label "$k")'"
		echo "plot '$tmp/lat-$k.dat' using (\$1-0.1):(\$3/1000):(\$4/1000):(\$5/1000):xtic(2) with yerrorbars pt 7 title 'p50', " \
			"'' using (\$1+0.1):(\$6/1000):(\$7/1000):(\$8/1000) with yerrorbars pt 5 title 'p99'"
	done
	echo "unset multiplot"
} >"$tmp/lat.gp" && gnuplot "$tmp/lat.gp" && echo "bench-report: $out/bench-latency.png"
# open1 (and open1_tick): ops/s over default's, GPs/s and RCU's kthread
# CPU ms/s against the number of tasks, one line per setting, a column per
# kernel.
for b in open1 open1_tick; do
	bk=$(awk -F'\t' -v b="$b" '$2 == b { print $1 }' "$tmp/stats.tsv" | awk '!seen[$0]++')
	[ -n "$bk" ] || continue
	nb=$(echo $bk | wc -w)
	{
		echo "set terminal pngcairo noenhanced size $((560 * nb)),1280 font ',10'"
		echo "set output '$out/bench-$b.png'"
		echo "set multiplot layout 3,$nb title '$b (open+close per task, tight loop): throughput, grace-period rate, RCU kthread CPU (medians)'"
		echo "set grid; set xtics (1, 2, 4); set xrange [0.8:4.2]; set key outside right"
		for row in ops gps kt; do
			for k in $bk; do
				plots=""
				m=${row}_per_s
				[ $row = kt ] && m=rcu_kthread_us_per_s
				for s in $(settings "$k" "$b"); do
					for t in 1 2 4; do
						v=$(get "$k" "$b" "tasks_$t" "$s" "$m")
						d=$(get "$k" "$b" "tasks_$t" default "$m")
						[ -n "$v" ] || continue
						case $row in
						ops) echo "$t $(ratio "$v" "$d")" ;;
						gps) echo "$t ${v%% *}" ;;
						kt) echo "$t $(awk -v x="${v%% *}" 'BEGIN { printf "%.1f", x / 1000 }')" ;;
						esac
					done >"$tmp/o1-$b-$k-$row-$s.dat"
					plots="$plots${plots:+, }'$tmp/o1-$b-$k-$row-$s.dat' using 1:2 with linespoints title '$s'"
				done
				case $row in
				ops) echo "set title '$(label "$k"): ops/s over default'; set ylabel 'x default'; unset logscale y" ;;
				gps) echo "set title '$(label "$k"): grace periods per second'; set ylabel 'GPs/s'; set logscale y" ;;
				kt) echo "set title '$(label "$k"): RCU kthreads CPU ms per s (10 ms ticks)'; set ylabel 'ms/s'; unset logscale y" ;;
				esac
				echo "plot $plots"
			done
		done
		echo "unset multiplot"
	} >"$tmp/o1-$b.gp"
	gnuplot "$tmp/o1-$b.gp" && echo "bench-report: $out/bench-$b.png"
done
