#!/bin/bash
# check-run-guest.sh: guest-image/run-guest.sh's judgement of a boot, with
# QEMU as a stub (no kernel, no VM): its TAP in $RESULTS/harness.tap.
#
# The stub plays one scripted boot per call from $STUB_PLAN (one word per
# boot: "int3" oopses on int3 seconds in, before the suite writes a line;
# "late" oopses on int3 after the suite's first result; "good" runs a
# one-test suite and powers off), and counts its calls in $STUB_CALLS.
#
# Asserted: under multi-threaded TCG a boot that oopsed on int3 before
# the suite started is booted again, at most RCUQS_MT_INT3_RETRIES times,
# its console kept and the retry said in the body; an int3 oops once the
# suite has started, or any boot under single-threaded TCG, is not booted
# again and fails as kernel badness.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
mkdir -p "$RESULTS"
tap=$RESULTS/harness.tap
: >"$tap"
# shellcheck source=scripts/tap.sh
. "$top/scripts/tap.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

mkdir -p "$scratch/bin" "$scratch/guest"
: >"$scratch/bzImage"
: >"$scratch/guest/initrd.img"
cat >"$scratch/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
# Stub: plays the next boot of $STUB_PLAN into the two -serial files.
files=()
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && files+=("${2#file:}")
	shift
done
con=${files[0]} raw=${files[1]}
n=$(($(cat "$STUB_CALLS" 2>/dev/null || echo 0) + 1))
echo "$n" >"$STUB_CALLS"
read -ra plan <<<"$STUB_PLAN"
oops='[    3.141592] Oops: int3: 0000 [#1] SMP
[    3.141593] RIP: 0010:stub_site+0x1/0x10
[    3.141594] Kernel panic - not syncing: Fatal exception in interrupt'
case ${plan[n - 1]:-good} in
int3) printf '%s\n' "Linux version 7.3.4 (stub)" "$oops" >"$con"; : >"$raw" ;;
late)
	printf '%s\n' "Linux version 7.3.4 (stub)" "$oops" >"$con"
	printf '%s\n' "ok 1 - stub: first" >"$raw"
	;;
good)
	printf '%s\n' "Linux version 7.3.4 (stub)" "reboot: Power down" >"$con"
	printf '%s\n' "ok 1 - stub: first" "1..1" "RCUQS-SUITE-END" >"$raw"
	;;
esac
exit 0
EOF
chmod +x "$scratch/bin/qemu-system-x86_64"

# boot PLAN ACCEL [ENV...]: run-guest.sh on the stub; its exit status in
# $rc, its body in $body, the stub's calls in $calls.
body=$scratch/guest/stubboot.body
boot() {
	local plan=$1 accel=$2
	shift 2
	rm -f "$scratch/calls" "$scratch/guest/stubboot".*
	env "$@" PATH="$scratch/bin:$PATH" STUB_PLAN="$plan" STUB_CALLS="$scratch/calls" \
		RCUQS_ACCEL="$accel" RCUQS_KERNEL="$scratch/bzImage" RCUQS_GUEST_DIR="$scratch/guest" \
		"$top/guest-image/run-guest.sh" -t 30 -o "$body" lazy-7.3 stubboot >"$scratch/log" 2>&1
	rc=$?
	calls=$(cat "$scratch/calls" 2>/dev/null || echo 0)
	{ echo "exit $rc, $calls boots; body:"; cat "$body"; echo "output:"; cat "$scratch/log"; } >"$scratch/why" 2>&1
}
mt="-accel tcg,thread=multi" st="-accel tcg,thread=single"

boot good "$mt"
[ $rc = 0 ] && [ "$calls" = 1 ] && ! grep -q "booted again" "$body"
result $? "a good boot: judged ok, booted once" "$scratch/why"

boot "int3 good" "$mt"
[ $rc = 0 ] && [ "$calls" = 2 ] && grep -q "^# \[stubboot\] booted again.*boot 1 oopsed on int3 after [0-9]* s, before the suite started: .*Oops: int3" "$body" &&
	grep -q "Oops: int3" "$scratch/guest/stubboot.console.int3-1" && ! grep -q Oops "$scratch/guest/stubboot.console"
result $? "multi-threaded, int3 oops before the suite: booted again, ok, the retry said and its console kept" "$scratch/why"

boot "int3 int3 int3 int3" "$mt"
[ $rc != 0 ] && [ "$calls" = 3 ] && grep -q "^not ok - \[stubboot\] no kernel badness" "$body"
result $? "multi-threaded, int3 oops at every boot: booted 3 times (RCUQS_MT_INT3_RETRIES=2), then judged: not ok, kernel badness named" "$scratch/why"

boot "int3 good" "$mt" RCUQS_MT_INT3_RETRIES=0
[ $rc != 0 ] && [ "$calls" = 1 ]
result $? "RCUQS_MT_INT3_RETRIES=0: no retry, not ok" "$scratch/why"

boot "late good" "$mt"
[ $rc != 0 ] && [ "$calls" = 1 ] && grep -q "^not ok - \[stubboot\] no kernel badness" "$body"
result $? "multi-threaded, int3 oops after the suite's first result: not booted again, not ok" "$scratch/why"

boot "int3 good" "$st"
[ $rc != 0 ] && [ "$calls" = 1 ] && grep -q "^not ok - \[stubboot\] no kernel badness" "$body"
result $? "single-threaded, int3 oops before the suite: not booted again, not ok" "$scratch/why"

boot "int3 good" "$mt" RCUQS_MT_INT3_RETRIES=two
[ $rc = 2 ] && [ "$calls" = 0 ] && grep -q "RCUQS_MT_INT3_RETRIES .two. is not a number" "$scratch/log"
result $? "RCUQS_MT_INT3_RETRIES=two: refused, naming it, nothing booted" "$scratch/why"

tap_end harness
echo "harness: $n tests, all ok"
