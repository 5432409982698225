# series-lib.sh: what apply-series.sh, check-patches.sh and
# refresh-series.sh share about a baseline's series and the Debian tarball
# it applies to. Source it; POSIX sh.
# shellcheck shell=sh

# series_list DIR: the patch names of DIR/series, comments and blank lines
# skipped; nothing when DIR has no series file.
series_list() {
	[ -f "$1/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
}

# modified_files PATCH...: the existing files the patches modify (their
# "--- a/" sides), one a line in patch order, repeats kept; the caller
# sorts or takes the first as it needs.
modified_files() {
	sed -n 's,^--- a/\([^[:space:]]*\).*,\1,p' "$@"
}

# source_id TARBALL: one line naming the Debian upload a tree comes from,
# "linux-source-6.1 6.1.192-3 sha256:<hash>". The version is the one dpkg
# has for the package that owns TARBALL ("unknown" for a tarball no
# package owns, e.g. a test's); the hash tells two tarballs apart even
# then. A tree records it when extracted (apply-series.sh) and is
# extracted afresh when the installed tarball's differs: a Debian kernel
# update must never leave the old sublevel behind under the new name.
source_id() {
	[ -f "$1" ] || return 1
	pkg=$(dpkg-query -S "$1" 2>/dev/null | sed -n '1s/:.*//p')
	ver=""
	[ -z "$pkg" ] || ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null)
	sum=$(sha256sum <"$1" | cut -d' ' -f1) || return 1
	printf '%s %s sha256:%s\n' "$(basename "$1" .tar.xz)" "${ver:-unknown}" "$sum"
}

# patch_offsets LOG: from the output of patch(1), the hunks that applied at
# another line than the patch says, as "FILE +N, FILE -N" (empty when none).
# Offsets are what a Debian upload does to a series made on an earlier one:
# harmless, but reported. Fuzz and rejects are another matter (patch -F0
# refuses both).
patch_offsets() {
	awk '/^patching file / { f = $3; sub(/.*\//, "", f) }
	/succeeded at [0-9]+ \(offset -?[0-9]+ lines?\)/ {
		o = $0; sub(/.*\(offset /, "", o); sub(/ line.*/, "", o)
		s = s (s == "" ? "" : ", ") f " " (o > 0 ? "+" : "") o
	}
	END { print s }' "$1"
}

# apply_patch DIR PATCH LOG: patch -p1 in DIR, offsets allowed, no fuzz,
# no reversed or already-applied hunk; patch(1)'s words in LOG.
apply_patch() {
	patch -d "$1" -p1 -F0 -N --no-backup-if-mismatch <"$2" >"$3" 2>&1
}

# pristine_files TARBALL DEST FILE...: from a Debian linux-source tarball
# (top folder: its name without .tar.xz), the FILEs a series touches plus
# scripts/ into DEST, and the rest of what checkpatch.pl's
# top_of_kernel_tree() looks for, so that checkpatch.pl runs from DEST
# and finds spelling.txt and friends. tar's words on stdout/stderr.
pristine_files() {
	pf_top=$(basename "$1" .tar.xz)
	pf_dest=$2
	pf_tar=$1
	shift 2
	# shellcheck disable=SC2046 # one member a word: paths have no blanks
	mkdir -p "$pf_dest" &&
		tar -C "$pf_dest" --strip-components=1 -xf "$pf_tar" \
			"$pf_top/scripts" "$pf_top/COPYING" "$pf_top/CREDITS" "$pf_top/Kbuild" \
			"$pf_top/README" $(printf '%s\n' "$@" | sed "s,^,$pf_top/,") || return 1
	for pf_d in Documentation arch include drivers fs init ipc kernel lib; do
		mkdir -p "$pf_dest/$pf_d"
	done
	[ -f "$pf_dest/MAINTAINERS" ] || : >"$pf_dest/MAINTAINERS"
	[ -f "$pf_dest/Makefile" ] || : >"$pf_dest/Makefile"
}

# am_series DIR PATCH...: make DIR's files a git repository (one commit)
# and git am the patches onto it in order; fails unless each patch made
# exactly one commit. git's words on stdout/stderr.
am_series() {
	(
		cd "$1" || exit 1
		shift
		git init -q &&
			git add -A &&
			git -c user.name=check -c user.email=check@localhost commit -q -m pristine &&
			for p in "$@"; do
				git -c user.name=check -c user.email=check@localhost am -q "$p" || exit 1
			done &&
			test "$(git rev-list --count HEAD)" -eq $(($# + 1))
	)
}
