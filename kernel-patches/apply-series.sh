#!/bin/sh
# apply-series.sh [BASELINE [TARBALL]]: bring the patched tree of one
# kernel baseline to "pristine linux-source-BASELINE + the patches named in
# its series", touching as few files as possible. TARBALL defaults to
# /usr/src/linux-source-BASELINE.tar.xz, the one apt installs.
#
#   6.1 (default)  6.1/series on linux-source-6.1, tree $BUILD/linux
#   6.12           6.12/series on linux-source-6.12, tree $BUILD/linux-6.12
#   7.3            7.3/series on linux-source-7.3, tree $BUILD/linux-7.3
#   base           no series on linux-source-6.1, tree $BUILD/linux-base
#   study-7.3      7.3/series then 7.3/study/series (a debug knob for the
#                  design study, never shipped) on linux-source-7.3, tree
#                  $BUILD/linux-study-7.3
#   rfc-7.3        upstream/'s RFC patches, then upstream/test/'s counters
#                  (the guest suites read them; never shipped) on
#                  linux-source-7.3, tree $BUILD/linux-rfc-7.3
#
# $BUILD/applied/ (applied-6.12/, applied-7.3/ for the others) keeps a copy
# of the series last applied, and the comparison is by content: moving a
# series folder changes nothing in the tree. When the series
# changed, every file named by the old or the new series is recomputed in a
# scratch folder (old patches reversed, new ones applied) and copied into
# the tree only when its content differs, so kbuild recompiles only what a
# patch change really touched. When the old patches do not reverse cleanly
# (tree edited by hand, interrupted run), the tree is extracted afresh.
#
# The tarball is tracked too: $applied/source records the Debian upload the
# tree was extracted from (series-lib.sh's source_id: package, version,
# sha256). When the installed tarball is another one (a Debian kernel
# update: 6.1.192-2 to -3, or a new sublevel), the tree is extracted afresh
# and the series applied to it, so that a build never goes on with the old
# sources under the new version's name. Offsets against the new tarball
# are fine (patch -F0 takes them); fuzz and rejects stop here, naming the
# patch (make refresh ports the series, see refresh-series.sh).
#
# Prints "changed" on stdout when the tree was modified, "unchanged" else.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/series-lib.sh"
: "${BUILD:?BUILD is not set}"
base=${1:-6.1}
case $base in
6.1 | 6.12 | 7.3)
	here=$here/$base
	src=$BUILD/linux-$base applied=$BUILD/applied-$base
	# 6.1's build names are older than the other baselines
	[ "$base" != 6.1 ] || src=$BUILD/linux applied=$BUILD/applied
	;;
study-7.3 | rfc-7.3)
	# Patches of more than one folder, gathered in one so that the rest of
	# this script sees one series: 7.3's series then the study's (a debug
	# knob, never shipped), or the RFC's numbered patches (no series file
	# of their own) then its test-only counters
	comb=$BUILD/series-$base
	rm -rf "$comb"
	mkdir -p "$comb"
	if [ "$base" = study-7.3 ]; then
		paths=$(for d in 7.3 7.3/study; do
			for p in $(series_list "$here/$d"); do echo "$here/$d/$p"; done
		done)
	else
		paths=$(printf '%s\n' "$here"/upstream/[0-9][0-9][0-9][1-9]-*.patch "$here"/upstream/test/[0-9]*.patch)
	fi
	printf '%s\n' "$paths" | while IFS= read -r p; do
		cp "$p" "$comb/"
		basename "$p"
	done >"$comb/series"
	here=$comb
	src=$BUILD/linux-$base
	applied=$BUILD/applied-$base
	base=7.3
	;;
base)	# pristine 6.1, no series: make kernel-base's reference tree
	here=$here/base-has-no-series
	src=$BUILD/linux-base
	applied=$BUILD/applied-base
	base=6.1
	;;
*)
	echo "apply-series: unknown baseline '$base' (6.1, 6.12, 7.3, base, study-7.3 or rfc-7.3)" >&2
	exit 2
	;;
esac
TARBALL=${2:-/usr/src/linux-source-$base.tar.xz}

die() { echo "apply-series: $*" >&2; exit 1; }
log() { echo "apply-series: $*" >&2; }

for p in $(series_list "$here"); do
	[ -f "$here/$p" ] || die "series names $p, which does not exist"
done

[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-$base)"
source=$(source_id "$TARBALL") || die "cannot read $TARBALL"
top=$(basename "$TARBALL" .tar.xz)

extract() {
	log "extracting $TARBALL ($(echo "$source" | cut -d' ' -f1-2)) into $src"
	rm -rf "$src" "$src.tmp" "$applied"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" -xf "$TARBALL"
	[ -f "$src.tmp/$top/Makefile" ] || die "$TARBALL holds no $top/ kernel tree"
	mv "$src.tmp/$top" "$src"
	rm -rf "$src.tmp"
}

apply_fresh() {
	plog=$(mktemp)
	for p in $(series_list "$here"); do
		apply_patch "$src" "$here/$p" "$plog" || {
			cat "$plog" >&2
			rm -f "$plog"
			die "$p does not apply to $(echo "$source" | cut -d' ' -f1-2) (fuzz or reject; make refresh KERNEL=$base ports the series, or port it by hand)"
		}
		o=$(patch_offsets "$plog")
		log "applied $p${o:+ (offsets: $o)}"
	done
	rm -f "$plog"
	save_applied
}

save_applied() {
	rm -rf "$applied.new"
	mkdir -p "$applied.new"
	echo "$source" >"$applied.new/source"
	[ -f "$here/series" ] && cp "$here/series" "$applied.new/series"
	for p in $(series_list "$here"); do cp "$here/$p" "$applied.new/"; done
	rm -rf "$applied"
	mv "$applied.new" "$applied"
}

# Files a patch touches (both sides, without the a/ b/ prefix).
touched() {
	sed -n -e 's,^--- a/\([^[:space:]]*\).*,\1,p' \
		-e 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$@" 2>/dev/null | sort -u
}

if [ ! -d "$src" ]; then
	extract
	apply_fresh
	echo changed
	exit 0
fi
if [ ! -d "$applied" ]; then
	log "$applied missing: state of $src unknown"
	extract
	apply_fresh
	echo changed
	exit 0
fi
was=$(cat "$applied/source" 2>/dev/null || echo "an unrecorded tarball")
if [ "$was" != "$source" ]; then
	log "$TARBALL is now $(echo "$source" | cut -d' ' -f2-), the tree was made from $(echo "$was" | cut -d' ' -f2-): extracting afresh"
	extract
	apply_fresh
	echo changed
	exit 0
fi

same=1
cmp -s "$here/series" "$applied/series" 2>/dev/null || same=0
if [ "$same" = 1 ]; then
	for p in $(series_list "$here"); do
		cmp -s "$here/$p" "$applied/$p" || { same=0; break; }
	done
fi
if [ "$same" = 1 ]; then
	echo unchanged
	exit 0
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
old=$(series_list "$applied" | sed "s,^,$applied/,")
new=$(series_list "$here" | sed "s,^,$here/,")
files=$( { [ -z "$old" ] || touched $old; [ -z "$new" ] || touched $new; } |
	grep -v '^dev/null$' | sort -u)
mkdir -p "$scratch/t"
for f in $files; do
	if [ -e "$src/$f" ]; then
		mkdir -p "$scratch/t/$(dirname "$f")"
		cp -p "$src/$f" "$scratch/t/$f"
	fi
done
ok=1
for p in $(series_list "$applied" | sed -n '1!G;h;$p'); do
	patch -d "$scratch/t" -R -p1 -s -f -F0 --no-backup-if-mismatch \
		<"$applied/$p" >/dev/null 2>&1 || { ok=0; break; }
done
if [ "$ok" = 0 ]; then
	log "old series does not reverse cleanly; starting from a fresh tree"
	extract
	apply_fresh
	echo changed
	exit 0
fi
for p in $(series_list "$here"); do
	patch -d "$scratch/t" -p1 -s -N -F0 --no-backup-if-mismatch \
		<"$here/$p" || die "$p does not apply (tree left as it was)"
done
n=0
for f in $files; do
	if [ -e "$scratch/t/$f" ]; then
		if ! cmp -s "$scratch/t/$f" "$src/$f"; then
			mkdir -p "$src/$(dirname "$f")"
			cp "$scratch/t/$f" "$src/$f"
			log "updated $f"
			n=$((n + 1))
		fi
	elif [ -e "$src/$f" ]; then
		rm -f "$src/$f"
		log "removed $f"
		n=$((n + 1))
	fi
done
save_applied
if [ "$n" -gt 0 ]; then echo changed; else echo unchanged; fi
