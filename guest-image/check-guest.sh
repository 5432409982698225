#!/bin/bash
# check-guest.sh VARIANT: every boot of the guest suite on one kernel, the
# results as one TAP file, $RESULTS/guest-VARIANT.tap. Exit 1 on any
# failure (a failed test, a timeout, no clean power-off, a kernel splat).
#
# Boots: 'cmdline' (both tunables on the kernel command line, CPUs 2-3
# nohz_full), 'main' (no tunables given; all runtime tests) and 'torture'
# (rcutorture with CPU hotplug, CPUs 1-3 nohz_full, while the tunables are
# rewritten) when RCUQS_TORTURE lists the variant (default: none dynamic;
# RCUQS_TORTURE= skips it; RCUQS_TORTURE_SECS sets its length, 60).
set -uo pipefail
v=${1:?usage: check-guest.sh VARIANT}
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
RESULTS=${RESULTS:-$BUILD/results}
torture=${RCUQS_TORTURE-none dynamic}
mkdir -p "$RESULTS" "$BUILD/guest-$v"
body=$BUILD/guest-$v/all.body
: >"$body"
rc=0
start=$(date +%s)

boot() {	# boot NAME [CMDLINE-ARG...]
	local b=$1 t0=$(date +%s)
	shift
	"$here/run-guest.sh" -o "$body" "$v" "$b" "$@" || rc=1
	echo "# boot $b: $(($(date +%s) - t0)) s" >>"$body"
}
boot cmdline rcutree.jiffies_till_sched_qs=17 rcutree.cond_resched_qs_limit=4096 nohz_full=2-3
boot main
case " $torture " in *" $v "*) boot torture rcuqs.torture_secs=${RCUQS_TORTURE_SECS:-60} nohz_full=1-3 ;; esac

echo "# guest $v: $(($(date +%s) - start)) s in all" >>"$body"
tap=$RESULTS/guest-$v.tap
awk -v v="$v" '
	/^ok - / { n++; sub(/^ok - /, ""); print "ok " n " - " v " " $0; next }
	/^not ok - / { n++; sub(/^not ok - /, ""); print "not ok " n " - " v " " $0; next }
	{ print }
	END { print "1.." n }' "$body" >"$tap"
grep -q '^not ok ' "$tap" && rc=1
echo "check-guest: $v: $(grep -c '^ok ' "$tap") ok, $(grep -c '^not ok ' "$tap") not ok -> $tap"
grep '^not ok ' "$tap"
exit $rc
