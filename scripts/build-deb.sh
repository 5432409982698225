#!/bin/sh
# build-deb.sh OUTDIR [VERSION]: build rcuqs_<version>_<arch>.deb from this
# checkout with dpkg-buildpackage (debian/, debhelper) and leave it in
# OUTDIR.
#
# The build runs in a copy, OUTDIR/deb-src/rcuqs/: dpkg-buildpackage
# writes the .deb, .buildinfo and .changes next to the source folder, and
# debhelper leaves debian/rcuqs/ and friends in it; neither belongs in the
# checkout or its parent. The debug symbols package, .buildinfo and
# .changes stay in OUTDIR/deb-src/; the build log is OUTDIR/deb-src/build.log.
#
# VERSION builds the same sources as that version, with a changelog entry
# added in the copy only (the package lifecycle test's upgrade).
set -eu

out=${1:?usage: build-deb.sh OUTDIR [VERSION]}
version=${2-}
top=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "build-deb: $*" >&2; exit 1; }
{ command -v dpkg-buildpackage && command -v dh; } >/dev/null ||
	die "dpkg-buildpackage or dh missing: install dpkg-dev and debhelper (scripts/install-deps.sh does)"

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$out/deb-src src=$work/rcuqs
rm -rf "$work"
mkdir -p "$src"
# What the package build reads: the top Makefile's "install" (and the
# scripts/ it includes), the three parts it installs, debian/. Not build output a developer may have in the
# checkout (the tool's binary, an in-tree package build).
tar -C "$top" -cf - \
	--exclude=./rcuqs-ctl/rcuqs-ctl \
	--exclude=./debian/rcuqs --exclude=./debian/build --exclude=./debian/.debhelper \
	--exclude=./debian/files --exclude='./debian/*.substvars' \
	--exclude='./debian/*.debhelper' --exclude='./debian/*.debhelper.log' \
	--exclude=./debian/debhelper-build-stamp \
	./Makefile ./scripts ./debian ./rcuqs-ctl ./systemd-units ./man | tar -C "$src" -xf -

if [ -n "$version" ]; then
	{
		printf 'rcuqs (%s) bookworm; urgency=medium\n\n' "$version"
		printf '  * Rebuild as %s for the package lifecycle test.\n\n' "$version"
		sed -n 's/^ -- \(.*>\)  .*/ -- \1/p' "$src/debian/changelog" | head -1 | tr -d '\n'
		printf '  %s\n\n' "$(date -R)"
		cat "$src/debian/changelog"
	} >"$src/debian/changelog.new"
	mv "$src/debian/changelog.new" "$src/debian/changelog"
fi
version=$(cd "$src" && dpkg-parsechangelog -SVersion)
deb=rcuqs_${version}_$(dpkg --print-architecture).deb

echo "build-deb: building $deb (log: $work/build.log)"
# A BUILD or RESULTS of the caller must not leak into the package build;
# debian/rules sets its own.
if ! (cd "$src" && env -u BUILD -u RESULTS -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	dpkg-buildpackage -b -us -uc -Jauto) >"$work/build.log" 2>&1; then
	tail -n 40 "$work/build.log" >&2
	die "dpkg-buildpackage failed; the whole log is $work/build.log"
fi
[ -f "$work/$deb" ] || die "dpkg-buildpackage made no $work/$deb"
mv -f "$work/$deb" "$out/$deb"
echo "build-deb: $out/$deb ($(du -k "$out/$deb" | cut -f1) KiB)"
