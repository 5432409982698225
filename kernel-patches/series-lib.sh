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
