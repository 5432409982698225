# tap.sh: TAP helpers for the host-side check scripts (man, units, patches,
# kernel-deb, deb, tuned).
# Source it after setting $tap (the results file) and truncating it; it
# counts tests in $n and failures in $failed, and tap_end prints the plan
# and fails when a test failed.
# shellcheck shell=sh

n=0 failed=0
out() { printf '%s\n' "$*" | tee -a "$tap"; }
ok() { n=$((n + 1)); out "ok $n - $1"; }
# not_ok NAME [DIAGNOSTIC]: a failure, with the diagnostic as '#' lines.
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	out "not ok $n - $1"
	[ -n "${2-}" ] && printf '%s\n' "$2" | sed 's/^/#   /' | tee -a "$tap"
	return 0
}
skip() { n=$((n + 1)); out "ok $n - $1 # SKIP $2"; }
# result STATUS NAME [FILE]: ok when STATUS is 0, else a failure whose
# diagnostic is the first 40 lines of FILE.
result() {
	if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2" "$([ -n "${3-}" ] && head -40 "$3")"; fi
}
# check NAME COMMAND...: one test; the command's output explains a failure.
check() {
	name=$1
	shift
	if msg=$("$@" 2>&1); then ok "$name"; else not_ok "$name" "$msg"; fi
}
# expect_fail NAME PATTERN COMMAND...: a self-test; the command must fail,
# and for the intended reason: its output must match the grep -E PATTERN.
expect_fail() {
	name=$1 pat=$2
	shift 2
	if msg=$("$@" 2>&1); then
		not_ok "$name" "the check accepted a broken input: ${msg:-no output}"
	elif ! printf '%s\n' "$msg" | grep -Eq -- "$pat"; then
		not_ok "$name" "failed, but not with /$pat/: $msg"
	else
		ok "$name"
	fi
}
# tap_end PART: the plan line; exit 1 when any test failed.
tap_end() {
	out "1..$n"
	[ "$failed" -eq 0 ] || { echo "$1: $failed of $n tests failed" >&2; exit 1; }
}
