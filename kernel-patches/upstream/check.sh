#!/bin/sh
# check.sh TAPFILE [TARBALL]: test the RFC series in this folder without
# building a kernel (make -C kernel-patches check-upstream runs it).
#
#   - the base: TARBALL's tree is Linux 7.3.4 (its Makefile's VERSION,
#     PATCHLEVEL and SUBLEVEL), the tree the series was made on; the TAP
#     names the Debian upload (source_id)
#   - mail form: 0000-cover-letter.patch and every patch have From:,
#     "Subject: [RFC PATCH n/N]" numbered as the files are (0 for the
#     cover letter, N the number of patches), and the patches
#     Signed-off-by:; self-test: a "[PATCH 1/N]" subject is refused
#   - scripts/checkpatch.pl --strict of that tree, run from the top of its
#     pristine files: 0 errors, 0 warnings, 0 checks for each patch
#   - the series applies with git am, in order, one commit a patch, to a
#     git repository of the tree's files
#
# TARBALL defaults to /usr/src/linux-source-7.3.tar.xz (Debian's
# linux-source-7.3, whose top folder is linux-source-7.3). Only scripts/
# and the files the series touches are extracted, into
# $BUILD/patch-check-upstream. No network. Exits non-zero when a test
# failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kp=$(cd "$here/.." && pwd)
tap=${1:?usage: check.sh TAPFILE [TARBALL]}
TARBALL=${2:-/usr/src/linux-source-7.3.tar.xz}
: "${BUILD:=$(cd "$kp/.." && pwd)/build}"
scratch=$BUILD/patch-check-upstream
out=$(mktemp)
trap 'rm -f "$out"' EXIT
: >"$tap"
. "$kp/../scripts/tap.sh"
. "$kp/series-lib.sh"

out "# tested against $(source_id "$TARBALL" 2>/dev/null || echo "$TARBALL: unreadable")"
cover=$here/0000-cover-letter.patch
patches=$(for f in "$here"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -f "$f" ] && [ "${f##*/}" != 0000-cover-letter.patch ] && echo "${f##*/}"
done)
total=$(echo "$patches" | grep -c .)
if [ "$total" -eq 0 ]; then
	not_ok "the folder holds patches" "no 0001-*.patch and on in $here"
	tap_end upstream
fi

# mail_form FILE I N: FILE is mail-form patch I of N ("[RFC PATCH I/N]");
# I = 0 is the cover letter, which has no diff nor Signed-off-by.
mail_form() {
	grep -q '^From: .*<.*@.*>' "$1" || echo "$(basename "$1"): no From: line"
	grep -q "^Subject: \[RFC PATCH $2/$3\] " "$1" ||
		echo "$(basename "$1"): Subject is not '[RFC PATCH $2/$3] ...'"
	if [ "$2" -gt 0 ]; then
		grep -q '^Signed-off-by: .*<.*@.*>' "$1" || echo "$(basename "$1"): no Signed-off-by:"
		grep -q '^diff --git a/' "$1" || echo "$(basename "$1"): no diff"
	fi
}
# mail_form_ok FILE I N: fails, saying why, unless mail_form finds nothing.
mail_form_ok() {
	msg=$(mail_form "$@")
	[ -z "$msg" ] || { echo "$msg"; return 1; }
}

check "0000-cover-letter.patch: mail form, [RFC PATCH 0/$total]" mail_form_ok "$cover" 0 "$total"
i=0
for p in $patches; do
	i=$((i + 1))
	case $p in
	"$(printf '%04d' "$i")"-*) check "$p: mail form, [RFC PATCH $i/$total], Signed-off-by" \
		mail_form_ok "$here/$p" "$i" "$total" ;;
	*) not_ok "$p: numbered $i of $total" "the ${i}th patch file is not named $(printf '%04d' "$i")-*.patch" ;;
	esac
done
p1=$(echo "$patches" | head -n1)
sed 's/^Subject: \[RFC PATCH /Subject: [PATCH /' "$here/$p1" >"$out.plain"
expect_fail "self-test: a [PATCH 1/$total] subject is refused" "is not '\[RFC PATCH 1/$total\]" \
	mail_form_ok "$out.plain" 1 "$total"
rm -f "$out.plain"

# The base tree's files: scripts/, the files the series touches and the
# Makefile (for the version).
rm -rf "$scratch"
members=$(for p in $patches; do modified_files "$here/$p"; done | sort -u)
# shellcheck disable=SC2086 # one member a word
if ! pristine_files "$TARBALL" "$scratch/tree" Makefile $members >"$out" 2>&1; then
	result 1 "extract the base's files from $TARBALL" "$out"
	tap_end upstream
fi
version=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = \([0-9]*\)$/\2/p' "$scratch/tree/Makefile" |
	head -n3 | paste -sd.)
[ "$version" = 7.3.4 ]
result $? "the base is Linux 7.3.4 (its Makefile says ${version:-nothing})"
cp -a "$scratch/tree" "$scratch/am"

# checkpatch --strict: zero errors, warnings and checks.
for p in $patches; do
	(cd "$scratch/tree" && perl scripts/checkpatch.pl --strict --color=never "$here/$p") >"$out" 2>&1
	grep -q '^total: 0 errors, 0 warnings, 0 checks' "$out"
	result $? "$p: checkpatch --strict: $(grep '^total:' "$out" | sed 's/, [0-9]* lines checked//')" "$out"
done

# git am of the whole series.
# shellcheck disable=SC2046 # one patch a word
am_series "$scratch/am" $(for p in $patches; do echo "$here/$p"; done) >"$out" 2>&1
result $? "the series applies with git am to the base's files ($total commits)" "$out"

tap_end upstream
