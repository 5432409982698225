#!/bin/sh
# kernel-repo.sh [add] [OPTIONS] [DEB...]
# kernel-repo.sh promote [OPTIONS] FROM TO PACKAGE=VERSION...|--all
# kernel-repo.sh refresh [OPTIONS]
#
# A signed apt repository of rcuqs kernels ("make kernel-deb") and the
# rcuqs tool ("make deb") for a fleet: one build host builds, every
# machine installs and upgrades with apt (doc/fleet.md). The repository
# has two rings, suites of apt's: canary and stable. A build goes into
# canary; the machines of the canary ring try it (rcuqs-kernel's trial
# boot); promote then copies it into stable, which every other machine
# follows. Each machine pins one ring with its apt source.
#
# add (the default command): DEB...: linux-image-<release>,
# linux-headers-<release> (release VERSION.PATCHLEVEL.SUBLEVEL-rcuqsN,
# e.g. 6.1.192-rcuqs2), their -dbg, and rcuqs .debs, into the pool and the
# canary suite only. Without any, those "make kernel-deb" and "make deb"
# left in $BUILD (linux-image-*-rcuqs*.deb, linux-headers-*-rcuqs*.deb,
# rcuqs_*.deb; -dbg and -lean ones left out, with a note). Anything else
# is refused: linux-libc-dev above all, which bindeb-pkg also makes and
# whose version sorts above Debian's, so that every machine would swap
# its userspace kernel headers for it.
#
# promote FROM TO PACKAGE=VERSION...|--all: the builds named, all that
# FROM has with --all, copied from suite FROM into suite TO (canary
# stable, the usual way); the pool does not change. PACKAGE=VERSION names
# a build by any of its packages: linux-image-RELEASE=VERSION (or its
# headers, its -dbg, or a meta-package linux-image-rcuqs-BASELINE-amd64=
# VERSION, which stands for the kernel it depends on) brings the image,
# its headers and -dbg of that version that FROM has, and the
# meta-packages that point at them; rcuqs=VERSION brings the tool. A
# PACKAGE=VERSION that FROM does not have is refused.
#
# refresh: every Release signed again with a new Date and Valid-Until;
# the pool and the Packages indexes stay as they are. The build host runs
# it from a timer (build-host/rcuqs-repo-refresh.timer), well within the
# validity: a machine's apt refuses a Release past its Valid-Until ("is
# expired"), so that an old signed index cannot be replayed to hold the
# fleet back on old kernels.
#
# Options (every command):
#   --repo DIR          the repository (default $REPO, else $BUILD/repo)
#   --key KEY           the signing key (below; default $REPO_KEY)
#   --uri URI           the URIs: of the .sources files (default: what they
#                       have, an earlier --uri; for a new DIR file:DIR)
#   --valid-for TIME    Valid-Until is the Date plus TIME, a whole number
#                       and a unit, s m h d or w, at most 366 days
#                       (default 7d, or $REPO_VALID_FOR)
# add and promote:
#   --require-signed    refuse a linux-image whose /boot/vmlinuz-* carries
#                       no Authenticode signature (sbverify --list, as
#                       rcuqs-kernel(8) checks before a trial with Secure
#                       Boot on); also $REPO_REQUIRE_SIGNED=yes
#   --signing-cert CERT implies --require-signed, and the signature must
#                       verify with CERT (PEM, the fleet's enrolled key:
#                       sbverify --cert, as sign-kdeb.sh checks); also
#                       $REPO_SIGNING_CERT
# add:
#   --allow-lean        accept lean kernels (tests)
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
#       every package ever added, for every suite: older builds stay, so
#       that a machine can go back to one; a package added again with the
#       same version and other contents replaces the old file (with a
#       warning: machines that installed that version keep it, bump the
#       version instead), unless stable has it: that is refused, since it
#       would change what stable installs without a promote
#   pool/main/linux-image-rcuqs-BASELINE-amd64/...
#   pool/main/linux-headers-rcuqs-BASELINE-amd64/...
#       per baseline (6.1, 6.12, 7.3: the release's VERSION.PATCHLEVEL) and
#       kernel a meta-package, like Debian's linux-image-amd64: its Version
#       is the kernel's, it Depends on exactly that build,
#       linux-image-RELEASE (= VERSION); the headers one only when that
#       build has its headers. A suite has each meta-package whose kernel
#       it has, so the highest version in a suite is the newest kernel of
#       that suite (dpkg --compare-versions). Installed, it makes apt
#       install each newer build as it comes into the machine's suite (a
#       new package name: "apt upgrade", "apt-get upgrade
#       --with-new-pkgs", "apt-get dist-upgrade" and unattended-upgrades
#       follow it, plain "apt-get upgrade" keeps it back; doc/fleet.md).
#       "apt-get install linux-image-rcuqs-6.1-amd64=VERSION" goes back to
#       the build it names. Every run checks them all against the pool as
#       it is: one whose build is no longer there (deleted from pool/) is
#       removed, one that names another build than the one its version
#       now stands for (a lean kernel, where a real one came) is made
#       again; and an index is refused if any meta-package's Depends is
#       not in it. So apt can install each.
#   dists/SUITE/main/binary-amd64/Packages{,.gz}, dists/SUITE/Release,
#   InRelease, Release.gpg
#       apt's index of each suite, canary and stable (Suite and Codename
#       the suite's name), and rcuqs (Suite and Codename "rcuqs"): the
#       repository's one suite before the rings, now the same packages as
#       stable, so that a machine set up before keeps following what it
#       followed, the stable builds. Component main, Origin and Label
#       "rcuqs" (unattended-upgrades' "origin=rcuqs"), Valid-Until; each
#       Release signed, inline (InRelease) and detached (Release.gpg).
#       What each suite has is its own Packages: the next run reads it
#       back (no database beside the index). A repository made before the
#       rings (dists/rcuqs only) gets both rings with the packages of its
#       rcuqs suite at its first run here.
#   rcuqs-archive-keyring.gpg
#       the signing key's public part (binary, "gpg --export"), for
#       /etc/apt/keyrings/ on the machines
#   rcuqs-canary.sources, rcuqs-stable.sources, rcuqs.sources
#       the apt source (deb822) of each ring for /etc/apt/sources.list.d/
#       (rcuqs.sources: the old suite rcuqs, as before the rings): URIs is
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
# followed. Exit status: 0 done, 1 refused or failed, 2 bad usage.
#
# Why apt-ftparchive and gpg, not reprepro or aptly: apt-ftparchive is
# part of apt-utils (apt's own source), gpg of gnupg, both in every
# Debian; the repository is a plain directory, remade from its pool and
# its own indexes at every run: no database to keep, back up or repair
# beside it (reprepro keeps a Berkeley DB in db/, aptly its own database
# and published snapshots), and any web server, rsync or a file: URI
# serves it as it is. reprepro refuses a package whose name and version
# it already has with other contents (a rebuild, or "make kernel-deb" run
# again with the same version) until it is removed first, and keeps one
# version of a package per distribution unless told otherwise (Limit),
# while the pool here keeps every build for rollbacks. What
# apt-ftparchive does not do (pruning old builds, promotion between
# suites) is done here: delete files from pool/ and run this again to
# prune (the meta-packages that named them go too, from every suite).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILD:=$top/build}"
me=kernel-repo
die() { echo "$me: $*" >&2; exit 1; }
say() { echo "$me: $*"; }
usage() {
	{
		echo "usage: kernel-repo.sh [add] [--repo DIR] [--key KEYID|GNUPGHOME|KEYFILE] [--uri URI] [--valid-for TIME]"
		echo "                      [--require-signed] [--signing-cert CERT] [--allow-lean] [DEB...]"
		echo "       kernel-repo.sh promote [OPTIONS] FROM TO PACKAGE=VERSION...|--all"
		echo "       kernel-repo.sh refresh [--repo DIR] [--key KEY] [--uri URI] [--valid-for TIME]"
		echo "Try 'kernel-repo.sh --help' for more information."
	} >&2
	exit 2
}

# The rings, in the order a build goes through them; rcuqs, the one suite
# before them, is stable's old name.
rings="canary stable"
alias_suite=rcuqs

repo=${REPO:-$BUILD/repo}
key=${REPO_KEY:-}
uri=""
allow_lean=""
valid_for=${REPO_VALID_FOR:-7d}
require_signed=""
case ${REPO_REQUIRE_SIGNED:-} in
"" | no | 0) ;;
*) require_signed=yes ;;
esac
signing_cert=${REPO_SIGNING_CERT:-}
all=""
cmd=""
# Options anywhere before "--"; the operands, in their order, end up in
# "$@" (the command word, the first of them, taken out).
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	case $a in
	--repo | --key | --uri | --valid-for | --signing-cert)
		[ "$n" -gt 0 ] || usage
		case $a in
		--repo) repo=$1 ;;
		--key) key=$1 ;;
		--uri) uri=$1 ;;
		--valid-for) valid_for=$1 ;;
		--signing-cert) signing_cert=$1 ;;
		esac
		shift
		n=$((n - 1))
		;;
	--allow-lean) allow_lean=yes ;;
	--require-signed) require_signed=yes ;;
	--all) all=yes ;;
	-h | --help) sed -n '2,/^set -eu$/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--)
		while [ "$n" -gt 0 ]; do
			set -- "$@" "$1"
			shift
			n=$((n - 1))
		done
		;;
	-*) echo "$me: unknown option $a" >&2; usage ;;
	*)
		if [ -z "$cmd" ]; then
			case $a in
			add | promote | refresh) cmd=$a; continue ;;
			esac
			cmd=add
		fi
		set -- "$@" "$a"
		;;
	esac
done
: "${cmd:=add}"
[ -n "$repo" ] || usage
case $uri in
*[[:space:]]* | *[[:cntrl:]]*)
	die "--uri '$uri': a URI holds no spaces or control characters (apt would read a malformed source); percent-encode them, a space as %20" ;;
esac
# --valid-for: seconds, for apt-ftparchive's ValidTime.
valid=""
case $valid_for in
[1-9]*[smhdw])
	num=${valid_for%?}
	case $num in
	*[!0-9]*) ;;
	*)
		if [ ${#num} -le 8 ]; then
			case $valid_for in
			*s) valid=$num ;;
			*m) valid=$((num * 60)) ;;
			*h) valid=$((num * 3600)) ;;
			*d) valid=$((num * 86400)) ;;
			*w) valid=$((num * 604800)) ;;
			esac
			[ "$valid" -le $((366 * 86400)) ] || valid=""
		fi
		;;
	esac
	;;
esac
[ -n "$valid" ] ||
	die "--valid-for '$valid_for': a whole number above 0 and a unit, s, m, h, d or w (e.g. 7d, 36h), at most 366 days"
if [ -n "$signing_cert" ]; then
	require_signed=yes
	if [ ! -f "$signing_cert" ] || [ ! -r "$signing_cert" ]; then
		die "--signing-cert $signing_cert: not a readable file"
	fi
	command -v openssl >/dev/null 2>&1 || die "--signing-cert: openssl is missing (apt-get install openssl)"
	openssl x509 -in "$signing_cert" -noout 2>/dev/null ||
		die "--signing-cert $signing_cert: not a PEM X.509 certificate (sbverify --cert takes one)"
fi
[ "$cmd" = add ] || [ -z "$allow_lean" ] || die "--allow-lean is for add, not $cmd"
[ "$cmd" = promote ] || [ -z "$all" ] || die "--all is for promote, not $cmd"
# ring NAME WHAT: NAME is a ring, or die saying why.
ring() {
	case " $rings " in *" $1 "*) return 0 ;; esac
	[ "$1" != "$alias_suite" ] ||
		die "$2 '$1': $alias_suite is the old name of stable, kept for machines set up before the rings; name stable"
	die "$2 '$1': no such suite; the suites are canary and stable"
}
from="" to=""
case $cmd in
add) ;;
promote)
	[ $# -ge 2 ] || usage
	from=$1 to=$2
	shift 2
	ring "$from" FROM
	ring "$to" TO
	[ "$from" != "$to" ] || die "promote from $from to $to: name two suites"
	if [ -n "$all" ]; then
		[ $# -eq 0 ] || die "promote: --all or PACKAGE=VERSION..., not both"
	else
		[ $# -gt 0 ] || die "promote: name the builds, PACKAGE=VERSION..., or --all"
		for a; do
			case $a in
			?*=?*) ;;
			*) die "promote: '$a' is not PACKAGE=VERSION" ;;
			esac
		done
	fi
	;;
refresh)
	[ $# -eq 0 ] || die "refresh takes no packages ($1): add them with kernel-repo.sh DEB..."
	;;
esac

# The tools, and the Debian package each comes in.
missing=""
for tp in apt-ftparchive:apt-utils gpg:gnupg gpgv:gpgv gpgconf:gpgconf gpg-connect-agent:gpgconf \
	dpkg-deb:dpkg flock:util-linux; do
	command -v "${tp%%:*}" >/dev/null 2>&1 || missing="$missing ${tp#*:}"
done
[ -z "$require_signed" ] || [ "$cmd" = refresh ] || command -v sbverify >/dev/null 2>&1 || missing="$missing sbsigntool"
[ -z "$missing" ] || die "missing tools; install them with: apt-get install$missing"

# On the way out, whatever happened: the new state's folder and the
# scratch folder go, and a gpg-agent this run started ends (one that ran
# before goes on).
tmp="" gh="" agent_ours=""
scr=$(mktemp -d)
list=$scr/list
: >"$list"
cleanup() {
	if [ -n "$agent_ours" ]; then gpgconf_ --kill gpg-agent >/dev/null 2>&1 || :; fi
	if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
	rm -rf "$scr"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# signed_gate FILE PACKAGE [NAME]: with --require-signed, FILE (the
# linux-image PACKAGE; NAME in messages) has a /boot/vmlinuz-* that carries an Authenticode signature,
# the test rcuqs-kernel(8) makes before a trial with Secure Boot on
# (sbverify --list), and with --signing-cert one that verifies with that
# certificate, as sign-kdeb.sh checks what it signed (sbverify --cert).
signed_gate() {
	[ -n "$require_signed" ] || return 0
	nm=${3:-$1}
	case $2 in linux-image-*-dbg | linux-image-rcuqs-*) return 0 ;; linux-image-*) ;; *) return 0 ;; esac
	g=$scr/gate
	rm -rf "$g"
	mkdir "$g"
	dpkg-deb --fsys-tarfile "$1" | tar -x -C "$g" --wildcards '*boot/vmlinuz-*' 2>/dev/null || :
	img=$(find "$g" -path '*/boot/vmlinuz-*' -type f | head -n 1)
	[ -n "$img" ] || die "$nm: $2 holds no /boot/vmlinuz-*, so no signature to check, and the fleet requires signed kernels (--require-signed); nothing was published"
	why="Sign it on the build host (make kernel-deb KSIGN_KEY=... KSIGN_CERT=..., or kernel-patches/sign-kdeb.sh image DEB KEY CERT); nothing was published"
	sbverify --list "$img" 2>/dev/null | grep -q '^signature 1' ||
		die "$nm: $2 is not signed: its ${img##*/} carries no signature (sbverify --list), and the fleet requires signed kernels (--require-signed): shim refuses it with Secure Boot on. $why"
	if [ -n "$signing_cert" ]; then
		out=$(sbverify --cert "$signing_cert" "$img" 2>&1) ||
			die "$nm: $2 is not signed by the fleet's key: its ${img##*/} does not verify with --signing-cert $signing_cert ($(printf '%s' "$out" | tail -n 1)). $why"
	fi
	rm -rf "$g"
}

# --- the packages -------------------------------------------------------------

if [ "$cmd" = add ] && [ $# -eq 0 ]; then
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
# promote's PACKAGE=VERSION operands, one a line; no files to read then.
: >"$scr/items"
if [ "$cmd" != add ]; then
	for a; do printf '%s\n' "$a" >>"$scr/items"; done
	set --
fi

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
	signed_gate "$f" "$pkg"
	dup=$(awk -F '\t' -v p="$pkg" -v v="$ver" '$2 == p && $3 == v { print $1; exit }' "$list")
	if [ -n "$dup" ] && ! cmp -s "$dup" "$f"; then
		die "$f: $pkg $ver is also $dup, with other contents; name one of them"
	fi
	printf '%s\t%s\t%s\n' "$f" "$pkg" "$ver" >>"$list"
done

# --- the repository, new, beside the old one --------------------------------

if [ "$cmd" != add ] && [ ! -f "$repo/dists/$alias_suite/Release" ]; then
	die "$repo is not an rcuqs repository (no dists/$alias_suite/Release): kernel-repo.sh DEB... makes one; nothing to $cmd"
fi
mkdir -p "$(dirname "$repo")"
repo=$(realpath -m "$repo")
parent=$(dirname "$repo")
name=$(basename "$repo")
if [ -e "$repo" ]; then
	[ -d "$repo" ] || die "$repo exists and is not a directory"
	if [ -n "$(ls -A "$repo")" ] && [ ! -f "$repo/dists/$alias_suite/Release" ]; then
		die "$repo is not empty and not an rcuqs repository (no dists/$alias_suite/Release); name another --repo"
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
	rm -rf "$new/dists" "$new/rcuqs-archive-keyring.gpg" "$new"/rcuqs*.sources
fi
mkdir -p "$new/pool/main"

# What each ring has: the Filename of each package in its index as the
# old state published it, $tmp/members-RING (meta-packages are chosen
# again below). A repository from before the rings has one suite, rcuqs:
# both rings start with what it had, so no machine sees a change.
migrated=""
for r in $rings; do
	p=$repo/dists/$r/main/binary-amd64/Packages
	if [ ! -f "$repo/dists/stable/Release" ] && [ -f "$repo/dists/$alias_suite/Release" ]; then
		p=$repo/dists/$alias_suite/main/binary-amd64/Packages
		migrated=yes
	fi
	if [ -f "$p" ]; then
		sed -n 's/^Filename: //p' "$p"
	fi >"$tmp/members-$r"
done
[ -z "$migrated" ] ||
	say "a repository from before the rings: canary and stable start with what its suite $alias_suite has; $alias_suite stays, the same as stable"
# in_ring RING POOLPATH: the ring has that file.
in_ring() { grep -qxF -- "$2" "$tmp/members-$1"; }

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
	rel=pool/main/$pkg/$file
	dest=$new/$rel
	mkdir -p "$new/pool/main/$pkg"
	in_ring canary "$rel" || echo "$rel" >>"$tmp/members-canary"
	if [ -e "$dest" ]; then
		if cmp -s "$f" "$dest"; then
			say "$pkg $ver: already there"
			continue
		fi
		for r in $rings; do
			[ "$r" != canary ] || continue
			! in_ring "$r" "$rel" ||
				die "$f: $pkg $ver is in the $r suite with other contents: replacing it would change what the $r machines install without a promote; give the rebuild a new version"
		done
		say "WARNING: $pkg $ver: replacing the file of the same version with other contents ($f); machines that installed $ver keep the old one, so give a rebuild a new version"
	fi
	put "$f" "$dest"
	say "added $pkg $ver (canary)"
	added=$((added + 1))
done <"$list"

# --- meta-packages, per baseline and kernel -------------------------------------

# Not on refresh, which leaves the pool as it is.
if [ "$cmd" != refresh ]; then
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
			"This package depends on the newest rcuqs kernel of the $1 baseline in its suite of this repository (canary, stable; at its highest version there): Debian's linux-source-$1 with the rcuqs patch series, here $3 $2. Installed, it makes apt install each newer build when it comes into the machine's suite, as linux-image-amd64 does for Debian's kernels."
	}
	# meta_headers BASELINE VERSION RELEASE MAINTAINER: its headers one.
	meta_headers() {
		meta "linux-headers-rcuqs-$1-amd64" "$2" "linux-headers-$3 (= $2)" "$4" \
			"Header files for Linux $1 with rcuqs, newest build (meta-package)" \
			"This package depends on the header files of the newest rcuqs kernel of the $1 baseline in its suite of this repository (at its highest version there), linux-headers-$3 $2, for building modules (DKMS) against it."
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

	# A meta-package for every kernel a meta-package may depend on, each
	# version made once: a suite has those of its kernels, so its highest
	# is its newest kernel, whichever builds were promoted into it.
	while IFS="$(printf '\t')" read -r base p v maint; do
		rel=${p#linux-image-}
		meta_image "$base" "$v" "$p" "$maint"
		if has_headers "$rel" "$v"; then
			meta_headers "$base" "$v" "$rel" "$maint"
		fi
	done <"$eligible"
fi

# --- promote ------------------------------------------------------------------

# index_tsv PACKAGES: "PACKAGE<TAB>VERSION<TAB>FILENAME<TAB>DEPENDS" of
# each package of an index.
index_tsv() {
	awk -v RS= -v OFS='\t' '{
		p = v = f = d = ""
		n = split($0, l, "\n")
		for (i = 1; i <= n; i++) {
			if (l[i] ~ /^Package: /) p = substr(l[i], 10)
			else if (l[i] ~ /^Version: /) v = substr(l[i], 10)
			else if (l[i] ~ /^Filename: /) f = substr(l[i], 11)
			else if (l[i] ~ /^Depends: /) d = substr(l[i], 10)
		}
		print p, v, f, d
	}' "$1"
}
# The meta-packages' names, as an awk regular expression.
meta_re='^linux-(image|headers)-rcuqs-.*-amd64$'

# The builds named, from FROM's index as published: each PACKAGE=VERSION
# brings its build's files (a kernel's image, headers and -dbg of that
# version; the tool), added to TO's members; the meta-packages follow
# below, from what TO then has.
if [ "$cmd" = promote ]; then
	fp=$repo/dists/$from/main/binary-amd64/Packages
	[ -f "$fp" ] || fp=$repo/dists/$alias_suite/main/binary-amd64/Packages
	index_tsv "$fp" >"$tmp/from"
	is_meta() { case $1 in linux-image-rcuqs-*-amd64 | linux-headers-rcuqs-*-amd64) return 0 ;; esac; return 1; }
	: >"$tmp/chosen"
	if [ -n "$all" ]; then
		while IFS="$(printf '\t')" read -r p v f d; do
			is_meta "$p" || printf '%s\t%s\t%s\n' "$p" "$v" "$f" >>"$tmp/chosen"
		done <"$tmp/from"
		[ -s "$tmp/chosen" ] || die "promote --all: the $from suite has no packages"
	fi
	while IFS= read -r item; do
		p=${item%%=*} v=${item#*=}
		d=$(awk -F '\t' -v p="$p" -v v="$v" '$1 == p && $2 == v { print $4; found = 1; exit } END { exit !found }' "$tmp/from") || {
			have=$(awk -F '\t' -v p="$p" '$1 == p { printf "%s%s", sep, $2; sep = ", " }' "$tmp/from")
			[ -n "$have" ] && have="it has $p $have" || have="nor any other version of it"
			die "promote: $p $v is not in the $from suite ($have); nothing was promoted"
		}
		if is_meta "$p"; then
			p=${d%% *}
		fi
		case $p in
		linux-image-*-dbg) rel=${p#linux-image-} rel=${rel%-dbg} ;;
		linux-image-*) rel=${p#linux-image-} ;;
		linux-headers-*) rel=${p#linux-headers-} ;;
		*) rel="" ;;
		esac
		awk -F '\t' -v OFS='\t' -v p="$p" -v v="$v" -v r="$rel" '$2 == v && ($1 == p ||
			(r != "" && ($1 == "linux-image-" r || $1 == "linux-headers-" r || $1 == "linux-image-" r "-dbg"))) { print $1, $2, $3 }' \
			"$tmp/from" >>"$tmp/chosen"
	done <"$scr/items"
	while IFS="$(printf '\t')" read -r p v f; do
		[ -f "$new/$f" ] || die "promote: $p $v: $f is in the $from suite's index but no longer in the pool (run kernel-repo.sh add to prune the index first)"
		signed_gate "$new/$f" "$p" "$f"
		if in_ring "$to" "$f"; then
			say "$p $v: already in $to"
		else
			echo "$f" >>"$tmp/members-$to"
			say "promoted $p $v: $from -> $to"
		fi
	done <"$tmp/chosen"
fi

# --- the indexes, per suite ---------------------------------------------------

# meta_deps_missing PACKAGES: "META VERSION (Depends: ...)" for each
# meta-package whose Depends, PACKAGE (= VERSION), is not in PACKAGES:
# it would make "apt-get install" of the meta-package fail everywhere.
meta_deps_missing() {
	index_tsv "$1" | awk -F '\t' -v re="$meta_re" '{
		have[$1 " (= " $2 ")"] = 1
		if ($1 ~ re) dep[$1 " " $2] = $4
	} END { for (m in dep) if (!(dep[m] in have)) print m " (Depends: " dep[m] ")" }'
}

if [ "$cmd" = refresh ]; then
	# The indexes as they are; every file they name still in the pool.
	for s in $rings $alias_suite; do
		p=$repo/dists/$s/main/binary-amd64/Packages
		[ -f "$p" ] || [ -z "$migrated" ] || p=$repo/dists/$alias_suite/main/binary-amd64/Packages
		[ -f "$p" ] || die "refresh: $repo has no index of the $s suite (a repository from before the rings: run kernel-repo.sh add once)"
		sed -n 's/^Filename: //p' "$p" >"$tmp/files"
		while IFS= read -r f; do
			[ -f "$new/$f" ] || die "refresh: the $s suite's index names $f, which is no longer in the pool: run kernel-repo.sh add, which prunes the indexes, not refresh"
		done <"$tmp/files"
		mkdir -p "$new/dists/$s/main/binary-amd64"
		cp "$p" "$new/dists/$s/main/binary-amd64/Packages"
	done
else
	(cd "$new" && apt-ftparchive packages pool) >"$tmp/Packages.all" 2>"$tmp/ftp.err" ||
		die "apt-ftparchive packages failed: $(cat "$tmp/ftp.err")"
	if [ -s "$tmp/ftp.err" ]; then
		die "apt-ftparchive packages complained: $(cat "$tmp/ftp.err")"
	fi
	index_tsv "$tmp/Packages.all" >"$tmp/all.tsv"
	# Each ring's index: the pool's entries of its members that are still
	# in the pool, and the meta-packages whose Depends are among them.
	for r in $rings; do
		mkdir -p "$new/dists/$r/main/binary-amd64"
		awk -F '\t' -v re="$meta_re" -v mf="$tmp/members-$r" '
		BEGIN { while ((getline x < mf) > 0) want[x] = 1 }
		NR == FNR { if ($1 !~ re && ($3 in want)) have[$1 " (= " $2 ")"] = 1; next }
		($1 !~ re && ($3 in want)) || ($1 ~ re && ($4 in have)) { print $3 }' "$tmp/all.tsv" "$tmp/all.tsv" >"$tmp/files-$r"
		awk -v ORS='\n\n' -v mf="$tmp/files-$r" '
		BEGIN { while ((getline x < mf) > 0) want[x] = 1; RS = "" }
		{ f = "\n" $0 "\n"; sub(/.*\nFilename: /, "", f); sub(/\n.*/, "", f) }
		f in want' "$tmp/Packages.all" >"$new/dists/$r/main/binary-amd64/Packages"
		bad=$(meta_deps_missing "$new/dists/$r/main/binary-amd64/Packages")
		[ -z "$bad" ] || die "meta-packages of the $r suite that depend on what it lacks: $bad"
	done
	mkdir -p "$new/dists/$alias_suite/main/binary-amd64"
	cp "$new/dists/stable/main/binary-amd64/Packages" "$new/dists/$alias_suite/main/binary-amd64/Packages"
fi

# --- sign ---------------------------------------------------------------------

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

gpg_ --export "$fpr" >"$new/rcuqs-archive-keyring.gpg"
[ -s "$new/rcuqs-archive-keyring.gpg" ] || die "gpg exported nothing for $fpr"
chmod 0644 "$new/rcuqs-archive-keyring.gpg"
# Each suite's Release, Valid-Until the Date plus --valid-for, signed
# inline and detached, then apt's own check (gpgv, the exported key)
# before anything is published. (gnupg-ring:, or gpgv takes a path with
# a ':' for a URL and refuses it)
for s in $rings $alias_suite; do
	d=$new/dists/$s
	gzip -9n -c "$d/main/binary-amd64/Packages" >"$d/main/binary-amd64/Packages.gz"
	case $s in
	canary) desc="rcuqs kernels and tool, canary ring: new builds, tried here first (kernel-repo.sh)" ;;
	stable) desc="rcuqs kernels and tool, stable ring: builds promoted from canary (kernel-repo.sh)" ;;
	*) desc="rcuqs kernels and tool, the stable ring under its name from before the rings (kernel-repo.sh)" ;;
	esac
	apt-ftparchive \
		-o APT::FTPArchive::Release::Origin=rcuqs \
		-o APT::FTPArchive::Release::Label=rcuqs \
		-o "APT::FTPArchive::Release::Suite=$s" \
		-o "APT::FTPArchive::Release::Codename=$s" \
		-o APT::FTPArchive::Release::Components=main \
		-o APT::FTPArchive::Release::Architectures=amd64 \
		-o "APT::FTPArchive::Release::ValidTime=$valid" \
		-o "APT::FTPArchive::Release::Description=$desc" \
		release "$d" >"$tmp/Release" 2>"$tmp/ftp.err" ||
		die "apt-ftparchive release ($s) failed: $(cat "$tmp/ftp.err")"
	grep -q '^Valid-Until: ' "$tmp/Release" || die "apt-ftparchive wrote no Valid-Until into the $s suite's Release"
	mv "$tmp/Release" "$d/Release"
	err=$(gpg_ --local-user "$fpr" --digest-algo SHA512 --clearsign -o "$d/InRelease" "$d/Release" 2>&1) ||
		die "gpg could not sign with $fpr: $err"
	gpg_ --local-user "$fpr" --digest-algo SHA512 --armor --detach-sign -o "$d/Release.gpg" "$d/Release" ||
		die "gpg could not sign with $fpr (Release.gpg)"
	err=$(gpgv --keyring "gnupg-ring:$new/rcuqs-archive-keyring.gpg" "$d/InRelease" 2>&1) ||
		die "the new InRelease of $s does not verify with the exported key: $err"
	err=$(gpgv --keyring "gnupg-ring:$new/rcuqs-archive-keyring.gpg" "$d/Release.gpg" "$d/Release" 2>&1) ||
		die "the new Release.gpg of $s does not verify with the exported key: $err"
done

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
# Without --uri, the URIs the repository's sources files have (an earlier
# --uri, which promote and refresh need not repeat), else file:DIR.
if [ -z "$uri" ]; then
	for f in "$repo/rcuqs-stable.sources" "$repo/rcuqs.sources"; do
		[ -f "$f" ] || continue
		uri=$(sed -n 's/^URIs: //p' "$f" | head -n 1)
		break
	done
fi
[ -n "$uri" ] || uri=file:$(uri_path "$repo")
# sources SUITE FILE WHO: the apt source of SUITE.
sources() {
	cat >"$new/$2" <<EOS
# rcuqs's kernels and tool, from kernel-repo.sh on $(hostname): $3.
# On each machine: this file in /etc/apt/sources.list.d/, and
# rcuqs-archive-keyring.gpg in /etc/apt/keyrings/ (doc/fleet.md).
# URIs: where the machines reach the repository (http://HOST/PATH once a
# web server serves it).
Types: deb
URIs: $uri
Suites: $1
Components: main
Architectures: amd64
Signed-By: /etc/apt/keyrings/rcuqs-archive-keyring.gpg
EOS
	chmod 0644 "$new/$2"
}
sources canary rcuqs-canary.sources "the canary ring, for the machines that try each new build first"
sources stable rcuqs-stable.sources "the stable ring, for every other machine: the builds promoted from canary"
sources "$alias_suite" rcuqs.sources "the suite rcuqs, the stable ring under its name from before the rings; new machines take rcuqs-stable.sources"
# Readable to a web server; new files and folders only (the pool's old
# files are links to the old state's).
find "$new" -type d -exec chmod 0755 {} +
find "$new/dists" -type f -exec chmod 0644 {} +

# What each ring's machines get: per baseline its newest kernel,
# "RING: META VERSION -> KERNEL".
: >"$tmp/summary"
for r in $rings; do
	index_tsv "$new/dists/$r/main/binary-amd64/Packages" |
		awk -F '\t' -v OFS='\t' '$1 ~ /^linux-image-rcuqs-.*-amd64$/ { print $1, $2, $4 }' | LC_ALL=C sort >"$tmp/ring-metas"
	for m in $(cut -f 1 "$tmp/ring-metas" | uniq); do
		best="" bdep=""
		while IFS="$(printf '\t')" read -r p v d; do
			[ "$p" = "$m" ] || continue
			if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v bdep=${d%% *}; fi
		done <"$tmp/ring-metas"
		echo "$me:   $r: $m $best -> $bdep" >>"$tmp/summary"
	done
	[ -s "$tmp/ring-metas" ] || echo "$me:   $r: no kernel" >>"$tmp/summary"
done

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
cat "$tmp/summary"
rm -rf "$tmp"
tmp=""

case $cmd in
add) say "$repo: $added package(s) added to canary, signed with $fpr, valid for $valid_for" ;;
promote) say "$repo: promoted from $from to $to, signed with $fpr, valid for $valid_for" ;;
refresh) say "$repo: every Release signed again with $fpr, valid for $valid_for; the pool and indexes unchanged" ;;
esac
[ "$cmd" != refresh ] || exit 0
# shq STRING: STRING quoted for a shell's command line where it needs it.
shq() {
	case $1 in
	*[!A-Za-z0-9_./:@%+=,-]*) printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
	*) printf '%s' "$1" ;;
	esac
}
say "on each machine (doc/fleet.md), rcuqs-canary.sources on the canary ring's:"
echo "    install -m 0644 $(shq "$repo/rcuqs-archive-keyring.gpg") /etc/apt/keyrings/"
echo "    install -m 0644 $(shq "$repo/rcuqs-stable.sources") /etc/apt/sources.list.d/"
echo "    apt-get update && apt-get install rcuqs linux-image-rcuqs-BASELINE-amd64"
[ "$cmd" != add ] || say "then, once the canary machines committed it: kernel-repo.sh promote canary stable PACKAGE=VERSION"
