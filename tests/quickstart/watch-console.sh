#!/bin/sh
# watch-console.sh LOG BADNESS-FILE COMMAND [ARG...]
#
# Run COMMAND (a bounded QEMU boot whose serial console goes to LOG) and
# watch LOG while it runs: as soon as the console shows the kernel's
# Oops, panic or BUG, wait WATCH_GRACE seconds (5) for the rest of the
# report, then end COMMAND, write the first such line to BADNESS-FILE and
# exit 125. Otherwise exit with COMMAND's status, BADNESS-FILE empty.
# A VM whose kernel died no longer ends by itself (its panic waits for a
# reboot that -no-reboot refuses, or it hangs), so without this a boot
# would sit until its bound (QS_BOOT_TIMEOUT, 900 s) and then look like a
# slow boot. WATCH_POLL (1 s) is how often LOG is read.
set -u
[ $# -ge 3 ] || { echo "usage: watch-console.sh LOG BADNESS-FILE COMMAND [ARG...]" >&2; exit 2; }
log=$1 bad=$2
shift 2
poll=${WATCH_POLL:-1}
grace=${WATCH_GRACE:-5}
: >"$bad"

# The kernel's own words for a dead or dying kernel, as
# tools/testing/selftests/rcutorture/bin/console-badness.sh and
# scripts/decode_stacktrace.sh know them: "Oops:" (and "Oops - "), "Kernel
# panic - not syncing", "BUG:" and "kernel BUG at". Whole words only, so
# that DEBUG or a package called BUGS is not one.
badness() {
	tr -d '\r' <"$1" 2>/dev/null |
		grep -a -m1 -E '(^|[^A-Za-z_])(Oops(:| -)|Kernel panic - not syncing|BUG:|kernel BUG at )'
}

"$@" &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	if line=$(badness "$log"); then
		sleep "$grace"
		# COMMAND is timeout(1) or QEMU itself: both end on TERM (timeout
		# passes it on to QEMU); KILL after a few seconds more.
		kill -TERM "$pid" 2>/dev/null
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 10 ]; do sleep 1; i=$((i + 1)); done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		printf '%s\n' "$line" >"$bad"
		exit 125
	fi
	sleep "$poll"
done
wait "$pid"
rc=$?
# A kernel that died in the last poll interval, just before QEMU ended.
if line=$(badness "$log"); then
	printf '%s\n' "$line" >"$bad"
	exit 125
fi
exit $rc
