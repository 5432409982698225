#!/bin/bash
# check-early.sh VARIANT [N]: the 'early' boot N times (default 20,
# RCUQS_EARLY_BOOTS), RCUQS_BOOT_JOBS (default 2) at a time, and one TAP
# line per boot plus a summary in $RESULTS/early-VARIANT.tap (issue 29
# item 7). Exit 1 when a boot fails.
#
# Each boot: CPUs 2-3 nohz_full and user space on CPUs 0-1, as in the
# 'cmdline' boot; rcuqs.test_active= records another profile (cycling
# through RCUQS_EARLY_ACTIVE, default "throughput linux-3.16") for
# rcuqs.service to apply, while units/rcuqs-test-early.service runs
# "rcuqs-ctl set-profile latency" beside it after rcuqs.test_early=MS
# (cycling through RCUQS_EARLY_DELAYS, default "0 600 900 1200 1500" ms),
# so that the series sees both orders: under TCG on 2 busy host cores
# set-profile starts about 0.7 s before apply, which then sets up its
# sandbox; without a delay set-profile takes the lock first and apply
# waits, with 1.5 s apply takes it first and set-profile waits.
# tests/56-early.sh asserts that latency won and acts (a loop on CPU 2
# near the floor: no kernel loop, CPU 2 busy in user space). Not part of
# make check: about 50 s a boot under TCG.
#
# The image is $RCUQS_GUEST_DIR (default $BUILD/guest-VARIANT)/initrd.img;
# each boot keeps its console, guest TAP and body in early-boots/I/ there.
set -uo pipefail
v=${1:?usage: check-early.sh VARIANT [N]}
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
RESULTS=${RESULTS:-$BUILD/results}
out=${RCUQS_GUEST_DIR:-$BUILD/guest-$v}
n=${2:-${RCUQS_EARLY_BOOTS:-20}}
jobs_max=${RCUQS_BOOT_JOBS:-2}
read -r -a actives <<<"${RCUQS_EARLY_ACTIVE:-throughput linux-3.16}"
read -r -a delays <<<"${RCUQS_EARLY_DELAYS:-0 600 900 1200 1500}"
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "check-early: N '$n' is not a number" >&2; exit 2; }
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "check-early: RCUQS_BOOT_JOBS '$jobs_max' is not a number" >&2; exit 2; }
[ -f "$out/initrd.img" ] || { echo "check-early: $out/initrd.img missing (build-initrd.sh $v)" >&2; exit 2; }
mkdir -p "$RESULTS"
dir=$out/early-boots
rm -rf "$dir"
start=$(date +%s)

args() {	# args I: boot I's command line (from 1)
	local k=$(($1 - 1))
	echo "nohz_full=2-3 systemd.cpu_affinity=0-1" \
		"rcuqs.test_active=${actives[k % ${#actives[@]}]}" \
		"rcuqs.test_early=${delays[k / ${#actives[@]} % ${#delays[@]}]}"
}

for ((i = 1; i <= n; i++)); do
	while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n; done
	mkdir -p "$dir/$i"
	ln -s "$out/initrd.img" "$dir/$i/initrd.img"
	(
		t0=$(date +%s)
		# shellcheck disable=SC2046
		RCUQS_GUEST_DIR=$dir/$i "$here/run-guest.sh" -o "$dir/$i/body" "$v" early $(args $i) \
			2>"$dir/$i/run.log"
		echo $? >"$dir/$i/rc"
		echo "$(($(date +%s) - t0))" >"$dir/$i/secs"
		echo "check-early: $v boot $i: exit $(cat "$dir/$i/rc") after $(cat "$dir/$i/secs") s" >&2
	) &
done
wait

tap=$RESULTS/early-$v.tap
pass=0 p50s=() floors=()
ms() { echo "$(($1 / 1000)).$(($1 % 1000 / 100))"; }
{
	echo "# check-early $v: $n boots, $(args 1 | cut -d ' ' -f 1-2), rcuqs.test_active= cycling" \
		"'${actives[*]}', rcuqs.test_early= cycling '${delays[*]}' ms"
	for ((i = 1; i <= n; i++)); do
		b=$dir/$i/body
		line=$(sed -n 's/^# early-result: //p' "$b" 2>/dev/null | tail -1)
		unset f
		declare -A f=()
		for kv in $line; do f[${kv%%=*}]=${kv#*=}; done
		desc="$v early boot $i ($(args "$i" | cut -d ' ' -f 3-))"
		if [ -n "$line" ]; then
			desc="$desc: loop p50 $(ms "${f[p50_us]}") ms, floor $(ms "${f[floor_us]}") ms,"
			desc="$desc limit_qs +${f[limit_qs]}, set-profile exit ${f[setprofile_rc]},"
			desc="$desc order ${f[order]}, limit ${f[limit]}"
			p50s+=("${f[p50_us]}") floors+=("${f[floor_us]}")
		else
			desc="$desc: no result line"
		fi
		if [ "$(cat "$dir/$i/rc" 2>/dev/null)" = 0 ] && [ -n "$line" ] && ! grep -q '^not ok' "$b"; then
			echo "ok $i - $desc"
			pass=$((pass + 1))
		else
			echo "not ok $i - $desc"
			grep '^not ok' "$b" 2>/dev/null | sed 's/^/#   /'
			echo "#   body: $b, console: $dir/$i/early.console"
		fi
	done
	range() {	# range US...: min-max in ms
		local lo=$1 hi=$1 x
		for x in "$@"; do ((x < lo)) && lo=$x; ((x > hi)) && hi=$x; done
		echo "$(ms "$lo")-$(ms "$hi") ms"
	}
	echo "# $v: $pass of $n boots passed; loop p50 ${p50s[*]:+$(range "${p50s[@]}")}," \
		"floor (CPU 2 in user space) ${floors[*]:+$(range "${floors[@]}")}; $(($(date +%s) - start)) s"
	echo "1..$n"
} >"$tap"
cat "$tap"
echo "check-early: $v: $pass of $n boots passed -> $tap"
[ "$pass" = "$n" ]
