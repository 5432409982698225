#!/bin/sh
# check-patches.sh TAPFILE [SERIES_DIR [TARBALL]]: test a patch series
# without building a kernel.
#
#   - every file named in SERIES_DIR/series exists, is a mail-form patch
#     with From:, "Subject: [PATCH n/N]" numbered as in the series, and
#     Signed-off-by:
#   - scripts/checkpatch.pl --strict reports 0 errors, 0 warnings, 0 checks
#     for each patch (the checkpatch.pl of the series' own base, run from
#     the top of its pristine tree, so it finds spelling.txt and friends)
#   - the series applies in order to pristine files with patch -p1, one
#     test per patch: offsets are fine (every Debian upload moves lines)
#     and named in the test's line, fuzz and rejected hunks fail (-F0);
#     and with git am; self-tests: a hunk whose context no longer matches
#     fails, a file with lines added above a hunk passes with its offset
#   - refresh-series.sh regenerates the series against this tarball with
#     no offset and every changelog byte kept (byte for byte the same
#     series when it applied with no offset already)
#   - the TAP names the Debian version tested and the one the series'
#     README says it was made on ("Made on:")
#   - check-config.sh notices an option that did not end up as asked, and
#     lets a later fragment override an earlier one
#
# SERIES_DIR is a baseline's folder here (6.1, the default; 6.12, 7.3),
# TARBALL the Debian tarball it applies to ($TARBALL, else
# /usr/src/linux-source-<folder name>.tar.xz), whose top folder is the
# tarball's name without .tar.xz.
# Pristine files (only those the series touches, plus scripts/) go to
# $BUILD/patch-check-<series folder name>.
# Exits non-zero when any test failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tap=${1:?usage: check-patches.sh TAPFILE [SERIES_DIR [TARBALL]]}
: "${BUILD:=$(cd "$here/.." && pwd)/build}"
sdir=$(cd "$here" && cd "${2:-6.1}" && pwd) || exit 1
TARBALL=${3:-${TARBALL:-/usr/src/linux-source-$(basename "$sdir").tar.xz}}
scratch=$BUILD/patch-check-$(basename "$sdir")
top=$(basename "$TARBALL" .tar.xz)
out=$(mktemp)
trap 'rm -f "$out" "$out.sab"' EXIT
: >"$tap"
. "$here/../scripts/tap.sh"
. "$here/series-lib.sh"

readme=$sdir/README
out "# tested against $(source_id "$TARBALL" 2>/dev/null || echo "$TARBALL: unreadable")"
out "# $(grep -m1 '^Made on: ' "$readme" 2>/dev/null || echo "Made on: (no line in $readme)")"
patches=$(series_list "$sdir")
total=$(echo "$patches" | grep -c .)
if [ "$total" -eq 0 ]; then
	echo "series is empty or missing" >"$out"
	result 1 "series lists patches" "$out"
	tap_end patches
fi

# Mail form.
i=0
for p in $patches; do
	i=$((i + 1))
	f=$sdir/$p
	: >"$out"
	if [ ! -f "$f" ]; then
		echo "$p: no such file" >"$out"
	else
		grep -q '^From: .*<.*@.*>' "$f" || echo "$p: no From: line" >>"$out"
		grep -q "^Subject: \[PATCH $i/$total\] " "$f" ||
			echo "$p: Subject is not '[PATCH $i/$total] ...'" >>"$out"
		grep -q '^Signed-off-by: .*<.*@.*>' "$f" || echo "$p: no Signed-off-by:" >>"$out"
		grep -q '^diff --git a/' "$f" || echo "$p: no diff" >>"$out"
	fi
	[ -s "$out" ]; result $((1 - $?)) "$p: mail form, [PATCH $i/$total], Signed-off-by" "$out"
done

# Pristine files: scripts/ and the files the series modifies.
rm -rf "$scratch"
mkdir -p "$scratch/tree"
members=$(for p in $patches; do [ -f "$sdir/$p" ] && modified_files "$sdir/$p"; done | sort -u)
# shellcheck disable=SC2086 # one member a word
if ! pristine_files "$TARBALL" "$scratch/tree" $members >"$out" 2>&1; then
	result 1 "extract pristine files from $TARBALL" "$out"
	tap_end patches
fi
cp -a "$scratch/tree" "$scratch/am"
cp -a "$scratch/tree" "$scratch/sabotage"

# checkpatch --strict: zero errors, warnings and checks.
for p in $patches; do
	[ -f "$sdir/$p" ] || { echo "missing" >"$out"; result 1 "$p: checkpatch --strict clean" "$out"; continue; }
	(cd "$scratch/tree" && perl scripts/checkpatch.pl --strict --color=never "$sdir/$p") >"$out" 2>&1
	grep -q '^total: 0 errors, 0 warnings, 0 checks' "$out"
	result $? "$p: checkpatch --strict: $(grep '^total:' "$out" | sed 's/, [0-9]* lines checked//')" "$out"
done

# patch -p1 in order: offsets named, no fuzz, no reject.
for p in $patches; do
	apply_patch "$scratch/tree" "$sdir/$p" "$out"
	rc=$?
	o=$(patch_offsets "$out")
	result $rc "$p: applies with patch -p1 in series order, no fuzz${o:+ (offsets: $o)}" "$out"
done

# Self-tests of that check, on the first patch and its first modified file.
p1=$(echo "$patches" | head -n1)
f1=$(modified_files "$sdir/$p1" | head -n1)
if [ -n "$f1" ] && [ -f "$scratch/sabotage/$f1" ]; then
	# A context line that no longer matches: patch -F0 must reject the
	# hunk (with the default fuzz of 2 it would apply, silently).
	awk -v f="$f1" 'BEGIN { hit = 0 }
		/^\+\+\+ b\// { in_f = ($2 == "b/" f) }
		in_f && !hit && /^ ./ { print " SABOTAGED" substr($0, 2); hit = 1; next }
		{ print }' "$sdir/$p1" >"$scratch/sabotaged.patch"
	cp -a "$scratch/sabotage" "$scratch/sab1"
	# apply_patch, its words shown (a file, not /dev/stdout: that need
	# not be a link to fd 1 on every host).
	apply_shown() { apply_patch "$@"; set -- $? "$3"; cat "$2"; return "$1"; }
	expect_fail "self-test: a hunk whose context no longer matches fails (no fuzz)" "FAILED" \
		apply_shown "$scratch/sab1" "$scratch/sabotaged.patch" "$out.sab"
	# Lines added above every hunk: an offset 3 lines larger than the
	# pristine file's (0 when the series is fresh), applied and named.
	first_offset() { patch_offsets "$1" | tr ',' '\n' | sed -n "s/^ *$(basename "$f1") //p" | head -n1 | tr -d +; }
	cp -a "$scratch/sabotage" "$scratch/sab0"
	cp -a "$scratch/sabotage" "$scratch/sab2"
	{ printf 'x\nx\nx\n'; cat "$scratch/sabotage/$f1"; } >"$scratch/sab2/$f1"
	apply_patch "$scratch/sab0" "$sdir/$p1" "$out.0"
	: >"$out"
	if apply_patch "$scratch/sab2" "$sdir/$p1" "$out"; then
		o0=$(first_offset "$out.0") o2=$(first_offset "$out")
		[ $((${o2:-0} - ${o0:-0})) -eq 3 ] ||
			echo "3 lines added above its hunks: offset ${o2:-0}, not ${o0:-0} + 3" >>"$out"
	else
		echo "3 lines added above its hunks: rejected" >>"$out"
	fi
	! grep -q '^3 lines added' "$out"
	result $? "self-test: lines added above a hunk are an offset, applied and named" "$out"
	rm -rf "$scratch/sab0" "$out.0"
	rm -rf "$scratch/sab1" "$scratch/sab2"
else
	not_ok "self-tests of the apply check" "$p1 modifies no file found in $TARBALL"
fi

# make refresh, into a scratch folder: no offset left, changelogs kept.
base=$(basename "$sdir")
if "$here/refresh-series.sh" --output "$scratch/refreshed" "$base" "$TARBALL" >"$out" 2>&1; then
	cp -a "$scratch/sabotage" "$scratch/refr"
	rc=0
	for p in $patches; do
		r=$scratch/refreshed/$p
		apply_patch "$scratch/refr" "$r" "$out.1" || { echo "$p: refreshed patch does not apply" >>"$out"; rc=1; }
		[ -z "$(patch_offsets "$out.1")" ] || { echo "$p: refreshed, still offsets: $(patch_offsets "$out.1")" >>"$out"; rc=1; }
		# Every byte outside the diff as it was.
		for part in "sed -n '/^diff --git /q;p'" "sed -n '/^-- \$/,\$p'"; do
			[ "$(eval "$part" <"$sdir/$p" | cksum)" = "$(eval "$part" <"$r" | cksum)" ] ||
				{ echo "$p: changelog or signature bytes changed by the refresh" >>"$out"; rc=1; }
		done
		if grep -q "^unchanged $p\$" "$out" && ! cmp -s "$r" "$sdir/$p"; then
			echo "$p: said unchanged but differs" >>"$out"; rc=1
		fi
	done
	rm -f "$out.1"
	result $rc "make refresh: the series regenerated against this tarball applies with no offset, changelogs byte for byte" "$out"
	rm -rf "$scratch/refr" "$scratch/refreshed"
else
	result 1 "make refresh: the series regenerated against this tarball applies with no offset, changelogs byte for byte" "$out"
fi

# git am of the whole series.
# shellcheck disable=SC2046 # one patch a word
am_series "$scratch/am" $(for p in $patches; do echo "$sdir/$p"; done) >"$out" 2>&1
result $? "series applies with git am ($total commits)" "$out"

# Same result both ways.
diff -r --no-dereference -x .git "$scratch/tree" "$scratch/am" >"$out" 2>&1
result $? "patch -p1 and git am give the same tree" "$out"

# check-config.sh fails when an option did not end up as asked.
printf 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=m\n' >"$scratch/frag"
printf 'CONFIG_A=y\nCONFIG_C=m\n' >"$scratch/good"
printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=y\n' >"$scratch/bad"
rc=0
"$here/check-config.sh" "$scratch/good" "$scratch/frag" >"$out" 2>&1 || rc=1
"$here/check-config.sh" "$scratch/bad" "$scratch/frag" >>"$out" 2>&1 && rc=1
result $rc "check-config.sh accepts a matching .config and rejects a mismatching one" "$out"
# A later fragment overrides an earlier one (config/base-7.3.config).
printf '# CONFIG_A is not set\n' >"$scratch/frag2"
printf 'CONFIG_C=m\n' >"$scratch/noa"
rc=0
"$here/check-config.sh" "$scratch/noa" "$scratch/frag" "$scratch/frag2" >"$out" 2>&1 || rc=1
"$here/check-config.sh" "$scratch/good" "$scratch/frag" "$scratch/frag2" >>"$out" 2>&1 && rc=1
"$here/check-config.sh" "$scratch/noa" "$scratch/frag" >>"$out" 2>&1 && rc=1
result $rc "check-config.sh checks the last value a fragment asks for" "$out"

tap_end patches
