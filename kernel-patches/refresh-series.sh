#!/bin/sh
# refresh-series.sh [--output DIR] BASELINE [TARBALL]: regenerate a
# baseline's series against the Debian tarball installed now, so that it
# applies with no offset; "make refresh KERNEL=BASELINE" runs it.
#
#   6.1   6.1/series          against /usr/src/linux-source-6.1.tar.xz
#   6.12  6.12/series         against /usr/src/linux-source-6.12.tar.xz
#   7.3   7.3/series          against /usr/src/linux-source-7.3.tar.xz
#
# Debian uploads a kernel every few weeks; each moves lines, and a series
# made on the last upload applies to the next with offsets. That is fine
# for a build (apply-series.sh and check-patches.sh take offsets and report
# them) but a series should say where it applies. This is the routine that
# keeps it so, in one command with a reviewable diff:
#
#   - the files the series touches are taken from the tarball into a
#     scratch git repository (with the tree's .gitattributes, so hunk
#     headers name their functions as upstream's do);
#   - each patch is applied with patch -p1 -F0 (offsets only: a hunk that
#     needs fuzz or is rejected stops the refresh, naming the patch; such a
#     change is a port, done by hand as the series' README says) and its
#     diff regenerated with git diff, with the patch's own abbreviation of
#     blob names;
#   - the patch file keeps every byte before its first "diff --git" line
#     (mail header, changelog, Signed-off-by, diffstat) and from its "-- "
#     signature line on; only the diff between them is replaced. A series
#     that applies with no offset comes out byte for byte as it was.
#
# The cover letter (0000-cover-letter.patch, not in the series file) is
# left alone. With --output DIR the refreshed patches go to DIR (the
# series folder is untouched: make check does this); otherwise the series
# folder's files are rewritten in place and the "Made on:" line of its
# README names the tarball's Debian version.
# Prints one line per patch: "refreshed P (offsets: ...)" or "unchanged P".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/series-lib.sh"
outdir=""
if [ "${1-}" = --output ]; then
	outdir=${2:?usage: refresh-series.sh [--output DIR] BASELINE [TARBALL]}
	shift 2
fi
base=${1:?usage: refresh-series.sh [--output DIR] BASELINE [TARBALL]}
case $base in
6.1 | 6.12 | 7.3) sdir=$here/$base ;;
*) echo "refresh-series: unknown baseline '$base' (6.1, 6.12 or 7.3)" >&2; exit 2 ;;
esac
TARBALL=${2:-/usr/src/linux-source-$base.tar.xz}
die() { echo "refresh-series: $*" >&2; exit 1; }
[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-$base)"
source=$(source_id "$TARBALL" | cut -d' ' -f1-2) || die "cannot read $TARBALL"
top=$(basename "$TARBALL" .tar.xz)
patches=$(series_list "$sdir")
[ -n "$patches" ] || die "$sdir/series lists no patch"
[ -z "$outdir" ] || mkdir -p "$outdir"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
members=$(for p in $patches; do modified_files "$sdir/$p"; done | sort -u)
# shellcheck disable=SC2086 # one member per word
tar -C "$scratch" -xf "$TARBALL" $(echo "$members" | sed "s,^,$top/,") ||
	die "cannot extract the series' files from $TARBALL"
tar -C "$scratch" -xf "$TARBALL" "$top/.gitattributes" 2>/dev/null || :
tree=$scratch/$top
G() {
	git -C "$tree" -c user.name=refresh -c user.email=refresh@localhost \
		-c core.autocrlf=false -c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c diff.algorithm=myers -c diff.renames=false -c color.ui=never "$@"
}
G init -q
G add -f -A
G commit -q -m pristine

plog=$scratch/patch.log
for p in $patches; do
	f=$sdir/$p
	apply_patch "$tree" "$f" "$plog" || {
		cat "$plog" >&2
		die "$p needs fuzz or is rejected against $source: port it by hand (see the series' README)"
	}
	offsets=$(patch_offsets "$plog")
	G add -f -A
	G commit -q -m "$p"
	# The abbreviation of blob names the patch was made with (git's
	# default grows with the repository: 7 in a small one, 9 or more in a
	# whole kernel tree).
	abbrev=$(sed -n 's/^index \([0-9a-f]*\)\.\..*/\1/p' "$f" | head -n1 | tr -d '\n' | wc -c)
	[ "$abbrev" -ge 7 ] || abbrev=7
	first=$(grep -n -m1 '^diff --git ' "$f" | cut -d: -f1)
	sig=$(grep -n '^-- $' "$f" | tail -n1 | cut -d: -f1)
	[ -n "$first" ] && [ -n "$sig" ] && [ "$sig" -gt "$first" ] ||
		die "$p: no diff between its changelog and its '-- ' signature line"
	new=$scratch/$p
	{
		head -n $((first - 1)) "$f"
		G diff --no-ext-diff --no-color --abbrev="$abbrev" HEAD~1 HEAD
		tail -n +"$sig" "$f"
	} >"$new"
	dest=${outdir:-$sdir}/$p
	if cmp -s "$new" "$f"; then
		[ -z "$outdir" ] || cp "$f" "$dest"
		echo "unchanged $p"
	else
		cp "$new" "$dest.tmp" && mv "$dest.tmp" "$dest"
		echo "refreshed $p${offsets:+ (offsets: $offsets)}"
	fi
done
if [ -z "$outdir" ] && [ -f "$sdir/README" ] && grep -q '^Made on: ' "$sdir/README"; then
	sed "s/^Made on: .*/Made on: $source/" "$sdir/README" >"$sdir/README.tmp" &&
		mv "$sdir/README.tmp" "$sdir/README"
fi
echo "refresh-series: the $base series now applies to $source with no offset"
