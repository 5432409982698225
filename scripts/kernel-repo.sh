#!/bin/sh
# kernel-repo.sh [--repo DIR] [--key KEY] [--uri URI] [--allow-lean] [DEB...]:
# add rcuqs kernels ("make kernel-deb") and the rcuqs tool ("make deb") to
# a signed apt repository, for a fleet: one build host builds, every
# machine installs and upgrades with apt (doc/fleet.md).
#
# DEB...: linux-image-<release>, linux-headers-<release> (release
# VERSION.PATCHLEVEL.SUBLEVEL-rcuqsN, e.g. 6.1.192-rcuqs2), their -dbg,
# and rcuqs .debs. Without any, those "make kernel-deb" and "make deb" left
# in $BUILD (linux-image-*-rcuqs*.deb, linux-headers-*-rcuqs*.deb,
# rcuqs_*.deb; -dbg and -lean ones left out, with a note). Anything else
# is refused: linux-libc-dev above all, which bindeb-pkg also makes and
# whose version sorts above Debian's, so that every machine would swap
# its userspace kernel headers for it.
#
# A lean kernel (release ending in -lean: "make kernel-deb" without
# KCONFIG, tinyconfig, to try the packaging) boots no real machine: it is
# refused unless --allow-lean (tests). In a baseline that also has a
# kernel of a real configuration, the meta-packages ignore lean ones: a
# real build added after a lean one of the same version takes over the
# meta-packages of that version (made again, with a warning).
#
# The repository, DIR (--repo, or $REPO, or $BUILD/repo):
#   pool/main/PACKAGE/PACKAGE_VERSION_amd64.deb
#       every package ever added: older builds stay, so that a machine
#       can go back to one; a package added again with the same version
#       and other contents replaces the old file (with a warning: machines
#       that installed that version keep it, bump the version instead)
#   pool/main/linux-image-rcuqs-BASELINE-amd64/...
#   pool/main/linux-headers-rcuqs-BASELINE-amd64/...
#       per baseline (6.1, 6.12, 7.3: the release's VERSION.PATCHLEVEL) a
#       meta-package, like Debian's linux-image-amd64: its Version is the
#       newest kernel's of that baseline (dpkg --compare-versions), it
#       Depends on exactly that build, linux-image-RELEASE (= VERSION);
#       the headers one only when that build has its headers. Installed,
#       it makes apt install each newer build as it is added (a new
#       package name: "apt upgrade", "apt-get upgrade --with-new-pkgs",
#       "apt-get dist-upgrade" and unattended-upgrades follow it, plain
#       "apt-get upgrade" keeps it back; doc/fleet.md). Older versions
#       stay too: "apt-get install linux-image-rcuqs-6.1-amd64=VERSION"
#       goes back to the build they name. Every run checks them all
#       against the pool as it is: one whose build is no longer there
#       (deleted from pool/) is removed, one that names another build than
#       the one its version now stands for (a lean kernel, where a real
#       one came) is made again; and the index is refused if any
#       meta-package's Depends is not in it. So apt can install each,
#       and the highest is the newest kernel's.
#   dists/rcuqs/main/binary-amd64/Packages{,.gz}, dists/rcuqs/Release,
#   InRelease, Release.gpg
#       apt's index, suite and codename "rcuqs", component main,
#       Origin and Label "rcuqs" (unattended-upgrades' "origin=rcuqs");
#       Release signed, inline (InRelease) and detached (Release.gpg)
#   rcuqs-archive-keyring.gpg
#       the signing key's public part (binary, "gpg --export"), for
#       /etc/apt/keyrings/ on the machines
#   rcuqs.sources
#       the apt source (deb822) for /etc/apt/sources.list.d/: URIs is
#       file:DIR, DIR percent-encoded (a space %20, '%' %25, bytes
#       outside ASCII each: apt reads a space as the URI's end, and
#       decodes %XX), or --uri's (the repository's address once it is
#       served over HTTP; refused with a space or control character in
#       it), Signed-By the keyring above in /etc/apt/keyrings/,
#       where apt's sources.list(5) puts keys the administrator manages
#       (/usr/share/keyrings is for keys a package installs)
#
# The key (--key): the ID or fingerprint of a secret key in the keyring
# of whoever runs this ($GNUPGHOME or ~/.gnupg; the fleet's key), or a
# directory that is a GNUPGHOME holding the key, or a file with the
# exported secret key ("gpg --export-secret-keys", imported into a
# throwaway GNUPGHOME for this run only). Without --key, a throwaway TEST
# key, made once without a passphrase in $BUILD/repo-key/: fine for
# trying, not for a fleet, and said so at every run.
#
# Nothing half-written: the new state is built beside DIR (hard links to
# the old pool, new files as new inodes, so the old state is never
# written through), checked (gpgv verifies the signature with the
# exported key), then renamed into place, the old state renamed away
# first and restored if the second rename fails. On any error before
# that, DIR is as it was. One run at a time (flock on DIR.lock). DIR must
# be a directory that can be renamed (not a mount point); a symlink is
# followed.
#
# Why apt-ftparchive and gpg, not reprepro or aptly: apt-ftparchive is
# part of apt-utils (apt's own source), gpg of gnupg, both in every
# Debian; the repository is a plain directory, remade from its pool at
# every run: no database to keep, back up or repair beside it (reprepro
# keeps a Berkeley DB in db/, aptly its own database and published
# snapshots), and any web server, rsync or a file: URI serves it as it
# is. reprepro refuses a package whose name and version it already has
# with other contents (a rebuild, or "make kernel-deb" run again with the
# same version) until it is removed first, and keeps one version of a
# package per distribution unless told otherwise (Limit), while the pool
# here keeps every build for rollbacks. What apt-ftparchive does not do
# (pruning old builds, several suites) a fleet of one baseline's kernels
# does not need; delete files from pool/ and run this again to prune
# (the meta-packages that named them go too).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILD:=$top/build}"
me=kernel-repo
die() { echo "$me: $*" >&2; exit 1; }
say() { echo "$me: $*"; }
usage() {
	echo "usage: kernel-repo.sh [--repo DIR] [--key KEYID|GNUPGHOME|KEYFILE] [--uri URI] [--allow-lean] [DEB...]" >&2
	exit 2
}

repo=${REPO:-$BUILD/repo}
key=""
uri=""
allow_lean=""
while [ $# -gt 0 ]; do
	case $1 in
	--repo) [ $# -ge 2 ] || usage; repo=$2; shift 2 ;;
	--key) [ $# -ge 2 ] || usage; key=$2; shift 2 ;;
	--uri) [ $# -ge 2 ] || usage; uri=$2; shift 2 ;;
	--allow-lean) allow_lean=yes; shift ;;
	-h | --help) sed -n '2,/^set -eu$/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) echo "$me: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ -n "$repo" ] || usage
case $uri in
*[[:space:]]* | *[[:cntrl:]]*)
	die "--uri '$uri': a URI holds no spaces or control characters (apt would read a malformed source); percent-encode them, a space as %20" ;;
esac

# The tools, and the Debian package each comes in.
missing=""
for tp in apt-ftparchive:apt-utils gpg:gnupg gpgv:gpgv gpgconf:gpgconf gpg-connect-agent:gpgconf \
	dpkg-deb:dpkg flock:util-linux; do
	command -v "${tp%%:*}" >/dev/null 2>&1 || missing="$missing ${tp#*:}"
done
[ -z "$missing" ] || die "missing tools; install them with: apt-get install$missing"

# --- the packages -------------------------------------------------------------

if [ $# -eq 0 ]; then
	for f in "$BUILD"/linux-image-*-rcuqs*.deb "$BUILD"/linux-headers-*-rcuqs*.deb "$BUILD"/rcuqs_*.deb; do
		[ -f "$f" ] || continue
		case ${f##*/} in
		*-dbg_*) say "left out ${f##*/}: debug symbols (name it to add it)"; continue ;;
		*-lean_*)
			if [ -z "$allow_lean" ]; then
				say "left out ${f##*/}: a lean test kernel, boots no real machine"
				continue
			fi
			;;
		esac
		set -- "$@" "$f"
	done
	[ $# -gt 0 ] || die "no .deb named and none in $BUILD (linux-image-*-rcuqs*.deb, linux-headers-*-rcuqs*.deb, rcuqs_*.deb): run make kernel-deb KCONFIG=... and make deb first, or name the files"
fi

# On the way out, whatever happened: the new state's folder and the list
# go, and a gpg-agent this run started ends (one that ran before goes on).
tmp="" gh="" agent_ours=""
list=$(mktemp)
cleanup() {
	if [ -n "$agent_ours" ]; then gpgconf_ --kill gpg-agent >/dev/null 2>&1 || :; fi
	if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
	rm -f "$list"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# Each file is read whole (a .deb copied while it was still being written
# is refused here, not on the machines) and classified; nothing is written
# before every one is good. $list: "FILE<TAB>PACKAGE<TAB>VERSION".
for f; do
	[ -e "$f" ] || [ -L "$f" ] || die "$f: no such file"
	[ -e "$f" ] || die "$f: a dangling symlink"
	[ -f "$f" ] || die "$f: not a regular file"
	{ [ -r "$f" ] && head -c 1 "$f" >/dev/null 2>&1; } || die "$f: cannot be read"
	meta=$(dpkg-deb --show --showformat='${Package}\t${Version}\t${Architecture}\n' "$f" 2>&1) ||
		die "$f: not a Debian package: $(printf '%s' "$meta" | head -n 1)"
	err=$(dpkg-deb --contents "$f" 2>&1 >/dev/null) ||
		die "$f: damaged, its contents do not read back (truncated?): $(printf '%s' "$err" | head -n 1)"
	pkg=$(printf '%s\n' "$meta" | cut -f 1)
	ver=$(printf '%s\n' "$meta" | cut -f 2)
	arch=$(printf '%s\n' "$meta" | cut -f 3)
	rel=""
	case $pkg in
	rcuqs) ;;
	linux-image-rcuqs-* | linux-headers-rcuqs-*)
		die "$f: $pkg is a meta-package; kernel-repo.sh makes those itself" ;;
	linux-image-*-rcuqs*-dbg) rel=${pkg#linux-image-} rel=${rel%-dbg} ;;
	linux-image-*-rcuqs*) rel=${pkg#linux-image-} ;;
	linux-headers-*-rcuqs*) rel=${pkg#linux-headers-} ;;
	linux-libc-dev)
		die "$f: linux-libc-dev is not for the repository: its version sorts above Debian's, so every machine would replace Debian's userspace kernel headers with it" ;;
	*)
		die "$f: $pkg is neither an rcuqs kernel (linux-image-RELEASE, linux-headers-RELEASE, RELEASE with -rcuqs) nor the rcuqs tool" ;;
	esac
	if [ -n "$rel" ]; then
		case $rel in
		[0-9]*.[0-9]*.[0-9]*-rcuqs*) ;;
		*) die "$f: the release of $pkg, '$rel', is not VERSION.PATCHLEVEL.SUBLEVEL-rcuqsN" ;;
		esac
		case $rel in
		*-lean)
			[ -n "$allow_lean" ] ||
				die "$f: $pkg is a lean kernel (release $rel): make kernel-deb without KCONFIG builds it from tinyconfig to try the packaging, and it boots no real machine. Build with KCONFIG=/boot/config-\$(uname -r), or pass --allow-lean (tests only)"
			;;
		esac
	fi
	[ "$arch" = amd64 ] || die "$f: $pkg is for $arch; the repository is for amd64"
	dup=$(awk -F '\t' -v p="$pkg" -v v="$ver" '$2 == p && $3 == v { print $1; exit }' "$list")
	if [ -n "$dup" ] && ! cmp -s "$dup" "$f"; then
		die "$f: $pkg $ver is also $dup, with other contents; name one of them"
	fi
	printf '%s\t%s\t%s\n' "$f" "$pkg" "$ver" >>"$list"
done

# --- the repository, new, beside the old one --------------------------------

mkdir -p "$(dirname "$repo")"
repo=$(realpath -m "$repo")
parent=$(dirname "$repo")
name=$(basename "$repo")
if [ -e "$repo" ]; then
	[ -d "$repo" ] || die "$repo exists and is not a directory"
	if [ -n "$(ls -A "$repo")" ] && [ ! -f "$repo/dists/rcuqs/Release" ]; then
		die "$repo is not empty and not an rcuqs repository (no dists/rcuqs/Release); name another --repo"
	fi
	if mountpoint -q "$repo"; then
		die "$repo is a mount point, which cannot be renamed; use a directory below it"
	fi
fi

exec 9>"$parent/$name.lock"
if ! flock -n 9; then
	say "waiting for another kernel-repo.sh writing $repo"
	flock 9
fi

tmp=$(mktemp -d "$parent/.$name.new.XXXXXX")
new=$tmp/repo
mkdir "$new"
if [ -d "$repo" ]; then
	# Hard links: cheap, and every file this run writes is a new inode
	# (put(), rm before write), so the old state stays as it was.
	cp -al "$repo/." "$new/"
	rm -rf "$new/dists" "$new/rcuqs-archive-keyring.gpg" "$new/rcuqs.sources"
fi
mkdir -p "$new/pool/main" "$new/dists/rcuqs/main/binary-amd64"

# put SRC DEST: a copy of SRC at DEST, as a new file.
put() {
	rm -f "$2"
	cp "$1" "$2.tmp"
	chmod 0644 "$2.tmp"
	mv "$2.tmp" "$2"
}

added=0
while IFS="$(printf '\t')" read -r f pkg ver; do
	file=${pkg}_${ver#*:}_amd64.deb
	dest=$new/pool/main/$pkg/$file
	mkdir -p "$new/pool/main/$pkg"
	if [ -e "$dest" ]; then
		if cmp -s "$f" "$dest"; then
			say "$pkg $ver: already there"
			continue
		fi
		say "WARNING: $pkg $ver: replacing the file of the same version with other contents ($f); machines that installed $ver keep the old one, so give a rebuild a new version"
	fi
	put "$f" "$dest"
	say "added $pkg $ver"
	added=$((added + 1))
done <"$list"

# --- meta-packages, per baseline --------------------------------------------

# The kernel images in the pool: "BASELINE LEAN PACKAGE VERSION MAINTAINER".
images=$tmp/images
: >"$images"
for d in "$new"/pool/main/linux-image-*-rcuqs*/*.deb; do
	[ -f "$d" ] || continue
	p=$(dpkg-deb --show --showformat='${Package}\t${Version}\t${Maintainer}' "$d")
	pkg=$(printf '%s\n' "$p" | cut -f 1)
	case $pkg in *-dbg) continue ;; esac
	rel=${pkg#linux-image-}
	lean=0
	case $rel in *-lean) lean=1 ;; esac
	printf '%s\t%s\t%s\n' "$(printf '%s' "$rel" | cut -d. -f1,2)" "$lean" "$p" >>"$images"
done
# The kernels a meta-package may depend on, "BASELINE PACKAGE VERSION
# MAINTAINER": a baseline's real kernels, its lean ones only where it has
# no other.
eligible=$tmp/eligible
awk -F '\t' -v OFS='\t' 'NR == FNR { if ($2 == 0) real[$1] = 1; next }
	$2 == 0 || !($1 in real) { print $1, $3, $4, $5 }' "$images" "$images" >"$eligible"

# meta NAME VERSION DEPENDS MAINTAINER SUMMARY TEXT: the meta-package NAME
# at VERSION, made unless it is there.
meta() {
	out=$new/pool/main/$1/${1}_${2#*:}_amd64.deb
	[ ! -e "$out" ] || return 0
	m=$tmp/meta-$1
	rm -rf "$m"
	mkdir -p "$m/DEBIAN"
	{
		echo "Package: $1"
		echo "Version: $2"
		echo "Architecture: amd64"
		echo "Maintainer: $4"
		echo "Section: kernel"
		echo "Priority: optional"
		echo "Depends: $3"
		echo "Description: $5"
		printf '%s\n' "$6" | fold -s -w 72 | sed 's/[[:space:]]*$//; s/^/ /'
	} >"$m/DEBIAN/control"
	mkdir -p "$(dirname "$out")"
	dpkg-deb --root-owner-group -Zxz --build "$m" "$out" >/dev/null ||
		die "dpkg-deb --build of $1 $2 failed"
	chmod 0644 "$out"
	say "made $1 $2 (Depends: $3)"
}
# meta_image BASELINE VERSION KERNEL MAINTAINER: the baseline's image
# meta-package at VERSION, depending on KERNEL (linux-image-RELEASE).
meta_image() {
	meta "linux-image-rcuqs-$1-amd64" "$2" "$3 (= $2)" "$4" \
		"Linux $1 with rcuqs, newest build (meta-package)" \
		"This package depends on the newest rcuqs kernel of the $1 baseline in this repository: Debian's linux-source-$1 with the rcuqs patch series, here $3 $2. Installed, it makes apt install each newer build when it is added to the repository, as linux-image-amd64 does for Debian's kernels."
}
# meta_headers BASELINE VERSION RELEASE MAINTAINER: its headers one.
meta_headers() {
	meta "linux-headers-rcuqs-$1-amd64" "$2" "linux-headers-$3 (= $2)" "$4" \
		"Header files for Linux $1 with rcuqs, newest build (meta-package)" \
		"This package depends on the header files of the newest rcuqs kernel of the $1 baseline in this repository, linux-headers-$3 $2, for building modules (DKMS) against it."
}
# has_headers RELEASE VERSION: the pool has that build's headers.
has_headers() {
	[ -f "$new/pool/main/linux-headers-$1/linux-headers-${1}_${2#*:}_amd64.deb" ]
}

# The meta-packages already in the pool (older versions stay, for going
# back to the build they name), checked against the pool as it is now,
# so that apt never sees one that it cannot install and the highest
# version is the newest kernel's: one whose kernel is gone (its .deb
# deleted from pool/ to prune it) is removed; one that depends on
# another kernel than the one of its version that the meta-packages
# choose now (a lean kernel, where a real one came since) is made again.
for d in "$new"/pool/main/linux-image-rcuqs-*-amd64/*.deb "$new"/pool/main/linux-headers-rcuqs-*-amd64/*.deb; do
	[ -f "$d" ] || continue
	p=$(dpkg-deb --show --showformat='${Package}\t${Version}\t${Depends}' "$d")
	mpkg=$(printf '%s\n' "$p" | cut -f 1)
	mver=$(printf '%s\n' "$p" | cut -f 2)
	mdep=$(printf '%s\n' "$p" | cut -f 3)
	case $mpkg in
	linux-image-*) kind=image base=${mpkg#linux-image-rcuqs-} ;;
	*) kind=headers base=${mpkg#linux-headers-rcuqs-} ;;
	esac
	base=${base%-amd64}
	k=$(awk -F '\t' -v OFS='\t' -v b="$base" -v v="$mver" '$1 == b && $3 == v { print $2, $4; exit }' "$eligible")
	kp=${k%%"$(printf '\t')"*} km=${k#*"$(printf '\t')"}
	rel=${kp#linux-image-}
	w=""
	if [ -n "$kp" ]; then
		if [ "$kind" = image ]; then
			w="$kp (= $mver)"
		elif has_headers "$rel" "$mver"; then
			w="linux-headers-$rel (= $mver)"
		fi
	fi
	[ "$w" != "$mdep" ] || continue
	rm -f "$d"
	if [ -n "$w" ]; then
		case $mdep in
		*-lean" "*) why="a kernel of a real configuration over a lean one of the same version" ;;
		*) why="the build of that version the meta-packages choose now" ;;
		esac
		say "WARNING: $mpkg $mver: made again, Depends: $w instead of $mdep ($why); machines that installed $mpkg $mver keep the old one until a newer build"
		if [ "$kind" = image ]; then meta_image "$base" "$mver" "$kp" "$km"; else meta_headers "$base" "$mver" "$rel" "$km"; fi
		continue
	fi
	dp=${mdep%% *}
	dr=${dp#linux-image-} dr=${dr#linux-headers-}
	if [ ! -f "$new/pool/main/$dp/${dp}_${mver#*:}_amd64.deb" ]; then
		why="$dp $mver is no longer in the pool"
	elif [ ! -f "$new/pool/main/linux-image-$dr/linux-image-${dr}_${mver#*:}_amd64.deb" ]; then
		why="the kernel image of $dp $mver, linux-image-$dr, is no longer in the pool"
	else
		why="$dp $mver is a lean kernel's, and the $base baseline has kernels of a real configuration"
	fi
	say "removed $mpkg $mver: $why"
	rmdir "${d%/*}" 2>/dev/null || :
done

# Per baseline, the meta-packages at the newest kernel's version.
metas=""
for base in $(cut -f 1 "$eligible" | sort -u); do
	newest="" nver="" nmaint=""
	while IFS="$(printf '\t')" read -r b p v maint; do
		[ "$b" = "$base" ] || continue
		if [ -z "$nver" ] || dpkg --compare-versions "$v" gt "$nver"; then
			newest=$p nver=$v nmaint=$maint
		fi
	done <"$eligible"
	rel=${newest#linux-image-}
	meta_image "$base" "$nver" "$newest" "$nmaint"
	metas="$metas linux-image-rcuqs-$base-amd64=$nver->$newest"
	if has_headers "$rel" "$nver"; then
		meta_headers "$base" "$nver" "$rel" "$nmaint"
	fi
done

# --- index, sign ------------------------------------------------------------

# gpg_, gpgconf_, gpg_connect_ ARGS: on the signing keyring, $gh (a
# GNUPGHOME) or gpg's default.
gpg_() {
	if [ -n "$gh" ]; then
		gpg --batch --no-tty --quiet --homedir "$gh" "$@"
	else
		gpg --batch --no-tty --quiet "$@"
	fi
}
gpgconf_() {
	if [ -n "$gh" ]; then gpgconf --homedir "$gh" "$@"; else gpgconf "$@"; fi
}
gpg_connect_() {
	if [ -n "$gh" ]; then gpg-connect-agent --homedir "$gh" "$@"; else gpg-connect-agent "$@"; fi
}
# agent_check: is an agent running there already? If not, the one gpg
# starts now is this run's, to end with it.
# (gpg-connect-agent exits 0 either way; only a running agent answers OK.)
agent_check() {
	case $(gpg_connect_ --no-autostart 'GETINFO version' /bye 2>/dev/null) in
	*OK*) ;;
	*) agent_ours=yes ;;
	esac
}
# The fingerprint of the first secret key gpg_ lists for ARGS.
secret_fpr() {
	gpg_ --with-colons --list-secret-keys "$@" 2>/dev/null |
		awk -F: '$1 == "sec" { s = 1 } s && $1 == "fpr" { print $10; exit }'
}
if [ -z "$key" ]; then
	gh=$BUILD/repo-key
	mkdir -p "$gh"
	chmod 0700 "$gh"
	agent_check
	if [ -z "$(secret_fpr)" ]; then
		say "making a throwaway TEST signing key in $gh (no passphrase)"
		gpg_ --passphrase '' --pinentry-mode loopback --quick-gen-key \
			"rcuqs TEST repository key, throwaway ($(hostname)) <rcuqs-test@invalid>" rsa3072 sign never ||
			die "gpg could not make the test key in $gh"
	fi
	fpr=$(secret_fpr)
	echo "$me: ******************************************************************" >&2
	echo "$me: WARNING: signed with a throwaway TEST key ($gh, no passphrase)." >&2
	echo "$me: For a fleet, sign with your archive key: --key KEYID|GNUPGHOME|FILE." >&2
	echo "$me: ******************************************************************" >&2
elif [ -d "$key" ]; then
	gh=$(realpath "$key")
	agent_check
	fpr=$(secret_fpr)
	[ -n "$fpr" ] || die "--key $key: no secret key in that GNUPGHOME"
elif [ -f "$key" ]; then
	gh=$tmp/gnupg
	mkdir -m 0700 "$gh"
	agent_check
	err=$(gpg_ --import "$key" 2>&1) || die "--key $key: gpg cannot import it: $(printf '%s' "$err" | tail -n 1)"
	fpr=$(secret_fpr)
	[ -n "$fpr" ] || die "--key $key: the file holds no secret key (gpg --export-secret-keys makes one)"
else
	agent_check
	fpr=$(secret_fpr "$key")
	[ -n "$fpr" ] || die "--key $key: no such secret key in ${GNUPGHOME:-~/.gnupg} (nor a GNUPGHOME directory or a key file of that name)"
fi
say "signing key $fpr"

(cd "$new" && apt-ftparchive packages pool) >"$new/dists/rcuqs/main/binary-amd64/Packages" 2>"$tmp/ftp.err" ||
	die "apt-ftparchive packages failed: $(cat "$tmp/ftp.err")"
if [ -s "$tmp/ftp.err" ]; then
	die "apt-ftparchive packages complained: $(cat "$tmp/ftp.err")"
fi
# Every meta-package's Depends, PACKAGE (= VERSION), is in the index: one
# that is not makes "apt-get install" of the meta-package fail everywhere.
bad=$(awk -v RS= '{
	p = v = d = ""
	n = split($0, l, "\n")
	for (i = 1; i <= n; i++) {
		if (l[i] ~ /^Package: /) p = substr(l[i], 10)
		else if (l[i] ~ /^Version: /) v = substr(l[i], 10)
		else if (l[i] ~ /^Depends: /) d = substr(l[i], 10)
	}
	have[p " (= " v ")"] = 1
	if (p ~ /^linux-(image|headers)-rcuqs-.*-amd64$/) dep[p " " v] = d
} END { for (m in dep) if (!(dep[m] in have)) print m " (Depends: " dep[m] ")" }' "$new/dists/rcuqs/main/binary-amd64/Packages")
[ -z "$bad" ] || die "meta-packages that depend on what the repository lacks: $bad"
gzip -9n -c "$new/dists/rcuqs/main/binary-amd64/Packages" >"$new/dists/rcuqs/main/binary-amd64/Packages.gz"
apt-ftparchive \
	-o APT::FTPArchive::Release::Origin=rcuqs \
	-o APT::FTPArchive::Release::Label=rcuqs \
	-o APT::FTPArchive::Release::Suite=rcuqs \
	-o APT::FTPArchive::Release::Codename=rcuqs \
	-o APT::FTPArchive::Release::Components=main \
	-o APT::FTPArchive::Release::Architectures=amd64 \
	-o "APT::FTPArchive::Release::Description=rcuqs kernels and tool (kernel-repo.sh)" \
	release "$new/dists/rcuqs" >"$tmp/Release" 2>"$tmp/ftp.err" ||
	die "apt-ftparchive release failed: $(cat "$tmp/ftp.err")"
mv "$tmp/Release" "$new/dists/rcuqs/Release"

err=$(gpg_ --local-user "$fpr" --digest-algo SHA512 --clearsign \
	-o "$new/dists/rcuqs/InRelease" "$new/dists/rcuqs/Release" 2>&1) ||
	die "gpg could not sign with $fpr: $err"
gpg_ --local-user "$fpr" --digest-algo SHA512 --armor --detach-sign \
	-o "$new/dists/rcuqs/Release.gpg" "$new/dists/rcuqs/Release" ||
	die "gpg could not sign with $fpr (Release.gpg)"
gpg_ --export "$fpr" >"$new/rcuqs-archive-keyring.gpg"
[ -s "$new/rcuqs-archive-keyring.gpg" ] || die "gpg exported nothing for $fpr"
chmod 0644 "$new/rcuqs-archive-keyring.gpg"
# apt's own check (gpgv, the exported key), before anything is published.
# (gnupg-ring:, or gpgv takes a path with a ':' for a URL and refuses it)
err=$(gpgv --keyring "gnupg-ring:$new/rcuqs-archive-keyring.gpg" "$new/dists/rcuqs/InRelease" 2>&1) ||
	die "the new InRelease does not verify with the exported key: $err"
err=$(gpgv --keyring "gnupg-ring:$new/rcuqs-archive-keyring.gpg" \
	"$new/dists/rcuqs/Release.gpg" "$new/dists/rcuqs/Release" 2>&1) ||
	die "the new Release.gpg does not verify with the exported key: $err"

# file:DIR, DIR percent-encoded: apt reads a space as the end of the URI
# (a malformed source, and then no source at all) and decodes %XX; every
# byte but RFC 3986's unreserved ones and those it allows in a path as
# they are, %XX (a space %20, '%' %25, UTF-8 bytes each).
uri_path() {
	printf '%s' "$1" | od -An -v -tx1 | awk '
	BEGIN {
		for (i = 0; i < 256; i++) code[sprintf("%02x", i)] = i
		keep = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/:@!$&\047()*+,;="
	}
	{
		for (i = 1; i <= NF; i++) {
			c = code[$i]
			if (c > 32 && c < 127 && index(keep, sprintf("%c", c))) printf "%c", c
			else printf "%%%s", toupper($i)
		}
	}'
}
[ -n "$uri" ] || uri=file:$(uri_path "$repo")
cat >"$new/rcuqs.sources" <<EOF
# rcuqs's kernels and tool, from kernel-repo.sh on $(hostname).
# On each machine: this file in /etc/apt/sources.list.d/, and
# rcuqs-archive-keyring.gpg in /etc/apt/keyrings/ (doc/fleet.md).
# URIs: where the machines reach the repository (http://HOST/PATH once a
# web server serves it).
Types: deb
URIs: $uri
Suites: rcuqs
Components: main
Architectures: amd64
Signed-By: /etc/apt/keyrings/rcuqs-archive-keyring.gpg
EOF
# Readable to a web server; new files and folders only (the pool's old
# files are links to the old state's).
find "$new" -type d -exec chmod 0755 {} +
chmod 0644 "$new/rcuqs.sources" "$new/dists/rcuqs/Release" "$new/dists/rcuqs/InRelease" \
	"$new/dists/rcuqs/Release.gpg" "$new"/dists/rcuqs/main/binary-amd64/*

# --- into place -------------------------------------------------------------

if [ -d "$repo" ]; then
	mv "$repo" "$tmp/old"
	if ! mv "$new" "$repo"; then
		mv "$tmp/old" "$repo"
		die "could not rename the new state into $repo; it is as it was"
	fi
else
	mv "$new" "$repo"
fi
rm -rf "$tmp"
tmp=""

say "$repo: $added package(s) added, signed with $fpr"
for m in $metas; do
	say "  ${m%%=*} ${m#*=}" | sed 's/->/ -> /'
done
# shq STRING: STRING quoted for a shell's command line where it needs it.
shq() {
	case $1 in
	*[!A-Za-z0-9_./:@%+=,-]*) printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
	*) printf '%s' "$1" ;;
	esac
}
say "on each machine (doc/fleet.md):"
echo "    install -m 0644 $(shq "$repo/rcuqs-archive-keyring.gpg") /etc/apt/keyrings/"
echo "    install -m 0644 $(shq "$repo/rcuqs.sources") /etc/apt/sources.list.d/"
echo "    apt-get update && apt-get install linux-image-rcuqs-BASELINE-amd64 rcuqs"
