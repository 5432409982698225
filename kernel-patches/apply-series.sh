#!/bin/sh
# apply-series.sh [BASELINE]: bring the patched tree of one kernel baseline
# to "pristine linux-source-BASELINE + the patches named in its series",
# touching as few files as possible.
#
#   6.1 (default)  ./series on linux-source-6.1, tree $BUILD/linux
#   6.12           ./6.12/series on linux-source-6.12, tree $BUILD/linux-6.12
#   7.3            ./7.3/series on linux-source-7.3, tree $BUILD/linux-7.3
#
# $BUILD/applied/ (applied-6.12/, applied-7.3/ for the others) keeps a copy
# of the series last applied. When the series
# changed, every file named by the old or the new series is recomputed in a
# scratch folder (old patches reversed, new ones applied) and copied into
# the tree only when its content differs, so kbuild recompiles only what a
# patch change really touched. When the old patches do not reverse cleanly
# (tree edited by hand, interrupted run), the tree is extracted afresh.
#
# Prints "changed" on stdout when the tree was modified, "unchanged" else.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
: "${BUILD:?BUILD is not set}"
base=${1:-6.1}
case $base in
6.1)
	src=$BUILD/linux
	applied=$BUILD/applied
	;;
6.12 | 7.3)
	here=$here/$base
	src=$BUILD/linux-$base
	applied=$BUILD/applied-$base
	;;
*)
	echo "apply-series: unknown baseline '$base' (6.1, 6.12 or 7.3)" >&2
	exit 2
	;;
esac
TARBALL=${TARBALL:-/usr/src/linux-source-$base.tar.xz}

die() { echo "apply-series: $*" >&2; exit 1; }
log() { echo "apply-series: $*" >&2; }

series_list() { # dir: patch names, comments and blank lines skipped
	[ -f "$1/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
}

for p in $(series_list "$here"); do
	[ -f "$here/$p" ] || die "series names $p, which does not exist"
done

extract() {
	log "extracting $TARBALL into $src"
	[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-$base)"
	rm -rf "$src" "$src.tmp" "$applied"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" -xf "$TARBALL"
	mv "$src.tmp/linux-source-$base" "$src"
	rmdir "$src.tmp"
}

apply_fresh() {
	for p in $(series_list "$here"); do
		log "applying $p"
		patch -d "$src" -p1 -s -N -F0 --no-backup-if-mismatch <"$here/$p" ||
			die "$p does not apply"
	done
	save_applied
}

save_applied() {
	rm -rf "$applied.new"
	mkdir -p "$applied.new"
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
