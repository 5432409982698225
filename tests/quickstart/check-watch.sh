#!/bin/sh
# check-watch.sh: watch-console.sh, which ends a check-quickstart boot as
# soon as its console shows an Oops, a panic or a BUG, against made-up
# consoles: a stand-in for QEMU writes the console and then hangs as a
# dead kernel does (or ends as a healthy boot does). TAP to
# $RESULTS/quickstart-watch.tap. Part of make check; nothing boots.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
mkdir -p "$RESULTS"
tap=$RESULTS/quickstart-watch.tap
: >"$tap"
. "$top/scripts/tap.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# fakevm LOG LINES-FILE HANG: writes LINES-FILE's lines to LOG with CR LF
# as a serial console does, one every tenth of a second, then sleeps HANG
# seconds (a kernel that died: QEMU goes on running) and exits 0.
cat >"$w/fakevm" <<'EOF'
#!/bin/sh
while IFS= read -r l; do printf '%s\r\n' "$l" >>"$1"; sleep 0.1; done <"$2"
sleep "$3"
EOF
chmod +x "$w/fakevm"

# watch NAME HANG: run the watcher on the console $w/NAME.in; sets rc, secs
# and bad (the line it named).
watch() {
	log=$w/$1.log bad=$w/$1.bad
	: >"$log"
	t=$(date +%s)
	WATCH_POLL=1 WATCH_GRACE=2 "$here/watch-console.sh" "$log" "$bad" \
		timeout 600 "$w/fakevm" "$log" "$w/$1.in" "$2"
	rc=$?
	secs=$(($(date +%s) - t))
	bad=$(cat "$bad")
}

# The Debian 13 run's console (issue 41), then the VM sat until its bound.
cat >"$w/oops.in" <<'EOF'
QS-STEP 10: rcuqs-ctl off
Oops: int3: 0000 [#1] PREEMPT SMP
CPU: 1 UID: 0 PID: 242 Comm: rcuqs-ctl Not tainted 6.12.118-rcuqs2 #1~deb12u1+rcuqs2
RIP: 0010:__cond_resched+0x11/0x70
Call Trace: __fput, __x64_sys_close, do_syscall_64
Oops: int3: 0000 [#2] PREEMPT SMP
Kernel panic - not syncing: Fatal exception in interrupt
EOF
watch oops 600
check "an Oops ends the boot at once: exit 125 (got $rc) within a minute (${secs} s) instead of the boot bound" \
	test "$rc" = 125 -a "$secs" -lt 60
check "it names the first such line: '$bad'" test "$bad" = "Oops: int3: 0000 [#1] PREEMPT SMP"

printf '%s\n' 'QS-STEP 3: rcuqs-ctl set-profile latency' \
	'Kernel panic - not syncing: hung_task: blocked tasks' >"$w/panic.in"
watch panic 600
check "a panic alone: exit 125 (got $rc) in ${secs} s, naming '$bad'" \
	test "$rc" = 125 -a "$secs" -lt 60 -a "$bad" = "Kernel panic - not syncing: hung_task: blocked tasks"

printf '%s\n' 'QS-STEP 4: reboot' '[   12.5] kernel BUG at mm/slub.c:432!' \
	'invalid opcode: 0000 [#1] PREEMPT SMP' >"$w/bug.in"
watch bug 600
check "kernel BUG at: exit 125 (got $rc) in ${secs} s, naming '$bad'" \
	test "$rc" = 125 -a "$secs" -lt 60 -a "$bad" = "[   12.5] kernel BUG at mm/slub.c:432!"

printf '%s\n' '[    3.2] BUG: unable to handle page fault for address: 0000000000001000' >"$w/bugc.in"
watch bugc 600
check "BUG: exit 125 (got $rc) in ${secs} s" test "$rc" = 125 -a "$secs" -lt 60

# A healthy boot: words that contain the others are not badness, and
# QEMU's own status comes back.
printf '%s\n' 'QS-STEP 2: rcuqs-kernel trial' 'CONFIG_DEBUG_BUGVERBOSE=y' \
	'systemd[1]: Starting oopsd.service - DEBUG: Kernel panicked? no' \
	'Setting up libdebug0 (1.0) ...' 'QS-RC 2: 0' 'reboot: Power down' >"$w/clean.in"
watch clean 0
check "a console without badness: QEMU's own exit 0 (got $rc), nothing named ('$bad')" \
	test "$rc" = 0 -a -z "$bad"

# A boot that ended (QEMU exited) just after the kernel died, between two
# looks at the console: still badness.
printf '%s\n' 'Oops: general protection fault, probably for non-canonical address' >"$w/late.in"
: >"$w/late.log"
"$here/watch-console.sh" "$w/late.log" "$w/late.bad" sh -c 'printf "%s\r\n" "$(cat "$1")" >>"$2"; exit 1' \
	sh "$w/late.in" "$w/late.log"
rc=$?
check "badness written as QEMU ended: exit 125 (got $rc)" test "$rc" = 125

# The boot bound still applies: timeout's 124 comes back.
printf '%s\n' 'QS-BOOT 1: 6.1.0-57-amd64' >"$w/slow.in"
: >"$w/slow.log"
"$here/watch-console.sh" "$w/slow.log" "$w/slow.bad" timeout 2 "$w/fakevm" "$w/slow.log" "$w/slow.in" 600
rc=$?
check "a boot that outlasts its bound: timeout's 124 (got $rc)" test "$rc" = 124

# check-quickstart runs QEMU through it, single-threaded.
check "check-quickstart.sh boots through watch-console.sh" grep -q 'watch-console.sh" "$qlog"' "$here/check-quickstart.sh"
check "check-quickstart.sh asks for single-threaded TCG" grep -q 'QS_ACCEL:-tcg,thread=single' "$here/check-quickstart.sh"
tap_end quickstart-watch
