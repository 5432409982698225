#!/bin/sh
# run-fuzz.sh BINDIR TAPFILE WORKDIR SECONDS: run each libFuzzer harness for
# SECONDS from its seed corpus (fuzz/corpus-NAME) and the corpus it grew
# before (WORKDIR/corpus-NAME), and write TAP: executions, coverage, and
# any crash, leak, sanitizer report or hang (an input slower than 10 s).
# A finding is kept in WORKDIR/artifacts-NAME/ and its report shown.
set -u
bin=$1 tap=$2 work=$3 secs=$4
here=$(cd "$(dirname "$0")" && pwd)
harnesses="profile cmdline kernel"
set -- $harnesses
echo "1..$#" >"$tap"
i=0 failed=0
for h in $harnesses; do
	i=$((i + 1))
	case $h in
	profile) what="profile parser with includes" ;;
	cmdline) what="/etc/kernel/cmdline merge: set-profile, switch and off give it back byte for byte" ;;
	kernel) what="the running kernel as read: /proc/cmdline, version, config, a long sysfs value" ;;
	esac
	corpus=$work/corpus-$h art=$work/artifacts-$h
	mkdir -p "$corpus"
	rm -rf "$art" && mkdir -p "$art"
	# The profile parser reports every bad line on stderr: closed here,
	# libFuzzer's own lines go to the log all the same.
	"$bin/fuzz-$h" -max_total_time="$secs" -max_len=4096 -timeout=10 \
		-close_fd_mask=2 -print_final_stats=1 -artifact_prefix="$art/" \
		"$corpus" "$here/corpus-$h" >"$work/$h.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' "$work/$h.log")
	cov=$(grep -E '^#[0-9]+.*cov: ' "$work/$h.log" | tail -n 1 |
		sed 's/.*\(cov: [0-9]*\) \(ft: [0-9]*\) \(corp: [^ ]*\).*/\1, \2, \3/')
	found=$(ls "$art")
	if [ "$rc" -eq 0 ] && [ -z "$found" ] && [ -n "$runs" ]; then
		echo "ok $i - fuzz $what: $runs, $cov, no crash" >>"$tap"
	else
		failed=$((failed + 1))
		echo "not ok $i - fuzz $what: exit $rc, ${runs:-no summary}, ${cov:-no coverage}; findings: ${found:-none}" >>"$tap"
		for f in $found; do
			# Again with stderr open, for the sanitizer's report.
			"$bin/fuzz-$h" "$art/$f" 2>&1 | grep -v '^INFO' | head -n 40 | sed 's/^/# /' >>"$tap"
		done
		tail -n 5 "$work/$h.log" | sed 's/^/# log: /' >>"$tap"
	fi
done
grep -E '^(not )?ok' "$tap"
[ "$failed" -eq 0 ]
