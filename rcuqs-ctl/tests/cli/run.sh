#!/bin/sh
# run.sh TOOL TAPFILE WORKDIR: run every CLI test case against a scratch
# copy of the pristine fake root and write TAP.
#
# A case is a directory here holding:
#   cmd              shell run in WORKDIR/CASE/work with $RCUQS (the tool),
#                    $ROOT (the scratch root) and $CASE (this directory)
#   setup            optional shell run first, same variables (changes the
#                    root before the snapshot)
#   expected-stdout  stdout of cmd (absent: must be empty); the scratch root's
#   expected-stderr  path is shown as ROOT in both
#   expected-exit    exit status of cmd (absent: 0)
#   expected-files/  files that must exist under the root with this content
#   expected-absent  paths (one a line) that must not exist under the root
#                    (they may vanish)
# Everything else under the root must be byte-for-byte what it was before
# cmd ran (run/rcuqs.lock aside), so a failing command that changes
# anything fails its test.
set -u
tool=$(realpath "$1")
tap=$2
work=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
pristine=$src/tests/rootfs-pristine

# The cases chown profiles to other users and run the tool as nobody, and
# the tool refuses profiles not owned by root: they need root.
if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP the CLI tests need root (chown, setpriv, root-owned profiles)" >"$tap"
	echo "rcuqs-ctl CLI: skipped, not root"
	exit 0
fi

# A case that failed half-way may leave an immutable file behind.
clean() { chattr -R -i "$1" >/dev/null 2>&1; rm -rf "$1"; }
clean "$work"
mkdir -p "$work"
chmod 0755 "$work"	# cases run the tool as nobody against their root
# ...which needs nobody to reach the tool and the roots. A checkout under a
# directory others cannot traverse (root's 0700 home) has neither: work in a
# scratch directory under /tmp then, with a copy of the tool.
scratch=""
nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
if ! $nobody test -x "$tool" || ! $nobody test -x "$work"; then
	scratch=$(mktemp -d /tmp/rcuqs-ctl-cli.XXXXXX) || exit 1
	chmod 0755 "$scratch"
	cp "$tool" "$scratch/rcuqs-ctl"
	tool=$scratch/rcuqs-ctl
	echo "# $work is out of nobody's reach: working in $scratch" >"$work/README"
	work=$scratch
fi

# snapshot ROOT: one line per path under ROOT but run/rcuqs.lock, "PATH\tWHAT":
# a regular file's SHA-256, a symbolic link's target, or the type of
# anything else (a directory's content is its paths').
snapshot() {
	(cd "$1" && {
		find . ! -name rcuqs.lock ! -type f -printf '%p\t%y %l\n'
		find . ! -name rcuqs.lock -type f -exec sha256sum -z {} + |
			tr '\0' '\n' | sed 's|^\([0-9a-f]*\)  \(.*\)$|\2\tf \1|'
	})
}

cases=$(cd "$here" && for d in */; do [ -f "$d/cmd" ] && echo "${d%/}"; done)
n=$(echo "$cases" | wc -w)
: >"$tap"
echo "1..$n" >>"$tap"
i=0 failed=0

for c in $cases; do
	i=$((i + 1))
	dir=$work/$c
	root=$dir/root
	mkdir -p "$dir/work"
	cp -a "$pristine" "$root"
	find "$root" -name .keep -delete
	install -m 0644 "$src"/profiles/*.profile "$root/usr/lib/rcuqs/profiles/"
	# What a packaged system looks like, whatever umask git checked out with.
	chown -R 0:0 "$root"
	chmod -R go-w "$root"
	chmod 0755 "$dir" "$dir/work"
	depmod -b "$root" "$(cat "$root/proc/sys/kernel/osrelease")" 2>/dev/null
	export RCUQS="$tool" ROOT="$root" CASE="$here/$c"
	# A case may need what a build root lacks (a pseudo-terminal in a
	# chroot): its "needs" file is a command that must succeed, else the
	# case is skipped, and says so.
	if [ -f "$here/$c/needs" ] && ! sh "$here/$c/needs" >/dev/null 2>&1; then
		echo "ok $i - $c # SKIP needs: $(grep -v '^#' "$here/$c/needs" | head -1)" >>"$tap"
		continue
	fi
	if [ -f "$here/$c/setup" ] && ! (cd "$dir/work" && sh -e "$here/$c/setup") \
		>"$dir/setup.log" 2>&1; then
		echo "not ok $i - $c: setup failed" >>"$tap"
		sed 's/^/# /' "$dir/setup.log" >>"$tap"
		failed=$((failed + 1))
		continue
	fi
	snapshot "$root" >"$dir/before.snap"
	(cd "$dir/work" && sh "$here/$c/cmd") >"$dir/stdout.raw" 2>"$dir/stderr.raw"
	rc=$?
	sed "s|$root|ROOT|g" "$dir/stdout.raw" >"$dir/stdout"
	sed "s|$root|ROOT|g" "$dir/stderr.raw" >"$dir/stderr"

	why=""
	want_rc=$(cat "$here/$c/expected-exit" 2>/dev/null || echo 0)
	[ "$rc" = "$want_rc" ] || why="$why exit $rc, want $want_rc;"
	for s in stdout stderr; do
		exp=$here/$c/expected-$s
		[ -f "$exp" ] || exp=/dev/null
		if ! diff -u "$exp" "$dir/$s" >"$dir/$s.diff"; then
			why="$why $s differs;"
		fi
	done
	: >"$dir/files.diff"
	exclude="--exclude=rcuqs.lock"
	if [ -d "$here/$c/expected-files" ]; then
		for f in $(cd "$here/$c/expected-files" && find . -type f | sort); do
			f=${f#./}
			if ! cmp -s "$here/$c/expected-files/$f" "$root/$f"; then
				why="$why /$f differs;"
				diff -u "$here/$c/expected-files/$f" "$root/$f" >>"$dir/files.diff" 2>&1
			fi
		done
	fi
	if [ -f "$here/$c/expected-absent" ]; then
		while read -r f; do
			[ -z "$f" ] && continue
			if [ -e "$root/$f" ] || [ -L "$root/$f" ]; then
				why="$why /$f exists;"
			fi
		done <"$here/$c/expected-absent"
	fi
	# Anything else changed is a defect: the snapshots before and after,
	# compared path by path, but for the expected files, the directories
	# holding them, and the paths expected absent (checked above).
	snapshot "$root" >"$dir/after.snap"
	{
		[ -d "$here/$c/expected-files" ] && (cd "$here/$c/expected-files" && find . -type f)
		[ -f "$here/$c/expected-absent" ] && sed -n 's|^\(..*\)|./\1|p' "$here/$c/expected-absent"
	} >"$dir/extra.list"
	why="$why$(awk -F '\t' '
		FILENAME == ARGV[1] { extra[$0] = 1; next }
		FILENAME == ARGV[2] { before[$1] = $2 "\t" $3; next }
		{ after[$1] = $2 "\t" $3 }
		function holds_extra(d,  e) {
			for (e in extra)
				if (index(e, d "/") == 1)
					return 1
			return 0
		}
		END {
			for (p in before) seen[p] = 1
			for (p in after) seen[p] = 1
			for (p in seen) {
				if (p in extra || holds_extra(p)) continue
				name = substr(p, 2)
				if (!(p in before)) print " " name " appeared;"
				else if (!(p in after)) print " " name " vanished;"
				else if (before[p] != after[p]) print " " name " changed;"
			}
		}' "$dir/extra.list" "$dir/before.snap" "$dir/after.snap" | sort | tr -d '\n')"

	if [ -z "$why" ]; then
		echo "ok $i - $c" >>"$tap"
	else
		failed=$((failed + 1))
		echo "not ok $i - $c:$why" >>"$tap"
		cat "$dir/stdout.diff" "$dir/stderr.diff" "$dir/files.diff" | sed 's/^/# /' >>"$tap"
	fi
done
skipped=$(grep -c '^ok .* # SKIP' "$tap")
echo "rcuqs-ctl CLI: $((n - failed))/$n passed, $skipped of them skipped (TAP: $tap)"
if [ -n "$scratch" ]; then
	if [ "$failed" -eq 0 ]; then
		clean "$scratch"
	else
		echo "rcuqs-ctl CLI: the failed cases' roots are in $scratch"
	fi
fi
[ "$failed" -eq 0 ]
