#!/bin/sh
# check-patches.sh TAPFILE [SERIES_DIR TARBALL]: test a patch series
# without building a kernel.
#
#   - every file named in SERIES_DIR/series exists, is a mail-form patch
#     with From:, "Subject: [PATCH n/N]" numbered as in the series, and
#     Signed-off-by:
#   - scripts/checkpatch.pl --strict reports 0 errors, 0 warnings, 0 checks
#     for each patch (the checkpatch.pl of the series' own base, run from
#     the top of its pristine tree, so it finds spelling.txt and friends)
#   - the series applies in order to pristine files with patch -p1 (no fuzz,
#     one test per patch) and with git am
#   - check-config.sh notices an option that did not end up as asked, and
#     lets a later fragment override an earlier one
#
# Without SERIES_DIR and TARBALL: the 6.1 series in this folder against
# /usr/src/linux-source-6.1.tar.xz (or $TARBALL). With them, e.g.
# "6.12 /usr/src/linux-source-6.12.tar.xz" or
# "7.3 /usr/src/linux-source-7.3.tar.xz": another series, against the
# tarball whose top folder is the tarball's name without .tar.xz.
# Pristine files (only those the series touches, plus scripts/) go to
# $BUILD/patch-check, or $BUILD/patch-check-<series folder name>.
# Exits non-zero when any test failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tap=${1:?usage: check-patches.sh TAPFILE [SERIES_DIR TARBALL]}
: "${BUILD:=$(cd "$here/.." && pwd)/build}"
if [ $# -ge 2 ]; then
	sdir=$(cd "$here" && cd "$2" && pwd) || exit 1
	TARBALL=${3:?usage: check-patches.sh TAPFILE [SERIES_DIR TARBALL]}
	scratch=$BUILD/patch-check-$(basename "$sdir")
else
	sdir=$here
	TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
	scratch=$BUILD/patch-check
fi
top=$(basename "$TARBALL" .tar.xz)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
: >"$tap"
. "$here/../scripts/tap.sh"

patches=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$sdir/series" 2>/dev/null)
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
members=$(for p in $patches; do [ -f "$sdir/$p" ] && sed -n 's,^--- a/\([^[:space:]]*\).*,\1,p' "$sdir/$p"; done | sort -u)
if ! tar -C "$scratch/tree" --strip-components=1 -xf "$TARBALL" \
	"$top/scripts" "$top/COPYING" "$top/CREDITS" "$top/Kbuild" "$top/README" \
	$(echo "$members" | sed "s,^,$top/,") >"$out" 2>&1; then
	result 1 "extract pristine files from $TARBALL" "$out"
	tap_end patches
fi
# checkpatch.pl's top_of_kernel_tree() looks for these.
for d in Documentation arch include drivers fs init ipc kernel lib; do
	mkdir -p "$scratch/tree/$d"
done
[ -f "$scratch/tree/MAINTAINERS" ] || : >"$scratch/tree/MAINTAINERS"
[ -f "$scratch/tree/Makefile" ] || : >"$scratch/tree/Makefile"
cp -a "$scratch/tree" "$scratch/am"

# checkpatch --strict: zero errors, warnings and checks.
for p in $patches; do
	[ -f "$sdir/$p" ] || { echo "missing" >"$out"; result 1 "$p: checkpatch --strict clean" "$out"; continue; }
	(cd "$scratch/tree" && perl scripts/checkpatch.pl --strict --color=never "$sdir/$p") >"$out" 2>&1
	grep -q '^total: 0 errors, 0 warnings, 0 checks' "$out"
	result $? "$p: checkpatch --strict: $(grep '^total:' "$out" | sed 's/, [0-9]* lines checked//')" "$out"
done

# patch -p1 in order, no fuzz.
for p in $patches; do
	(cd "$scratch/tree" && patch -p1 -F0 -N --no-backup-if-mismatch <"$sdir/$p") >"$out" 2>&1
	rc=$?
	grep -qi 'offset\|fuzz' "$out" && rc=1
	result $rc "$p: applies with patch -p1 in series order, no fuzz or offset" "$out"
done

# git am of the whole series.
(
	cd "$scratch/am" &&
	git init -q &&
	git add -A &&
	git -c user.name=check -c user.email=check@localhost commit -q -m pristine &&
	for p in $patches; do
		git -c user.name=check -c user.email=check@localhost am -q "$sdir/$p" || exit 1
	done &&
	test "$(git rev-list --count HEAD)" -eq $((total + 1))
) >"$out" 2>&1
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
