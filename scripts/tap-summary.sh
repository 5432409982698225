#!/bin/sh
# Sum up the TAP files that the parts of 'make check' left in a folder and
# print one closing line, "check: N passed, N failed". Exit 1 on any failure
# or when no test ran at all.
set -eu
dir=${1:?usage: tap-summary.sh RESULTS_DIR}
pass=0 fail=0 skip=0
for f in "$dir"/*.tap; do
	[ -e "$f" ] || continue
	p=$(grep -Ec '^ok ' "$f" || true)
	s=$(grep -Ec '^ok .*# *(SKIP|skip)' "$f" || true)
	n=$(grep -Ec '^not ok ' "$f" || true)
	[ "$n" -gt 0 ] && grep -E '^not ok ' "$f" | sed "s|^|$(basename "$f" .tap): |"
	pass=$((pass + p - s)) skip=$((skip + s)) fail=$((fail + n))
done
echo "check: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
