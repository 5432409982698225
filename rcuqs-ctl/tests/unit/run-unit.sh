#!/bin/sh
# run-unit.sh TEST TAPFILE: run one cmocka test binary with TAP output.
# cmocka writes TAP to stdout; sanitizer reports go to stderr and make the
# binary exit non-zero, which is recorded as a failure here.
set -u
test=$1 tap=$2
CMOCKA_MESSAGE_OUTPUT=TAP "$test" >"$tap" 2>"$tap.stderr"
rc=$?
if [ -s "$tap.stderr" ]; then
	sed 's/^/# /' "$tap.stderr" >>"$tap"
fi
if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$tap"; then
	echo "not ok - $(basename "$test") exited $rc" >>"$tap"
fi
rm -f "$tap.stderr"
grep -E '^(not ok|# )' "$tap" | head -20
echo "$(basename "$test"): $(grep -c '^ok' "$tap") passed, $(grep -c '^not ok' "$tap") failed"
[ "$rc" -eq 0 ]
