#!/bin/sh
# check-repo.sh [DEB | --cache]: the fleet repository of "make kernel-repo"
# (scripts/kernel-repo.sh, doc/fleet.md), without any kernel build. TAP to
# $RESULTS/repo.tap. DEB is the rcuqs package of "make deb" (a fake one
# stands in without it).
#
# The kernels are fake packages made here with dpkg-deb, named as
# bindeb-pkg names them (linux-image-6.1.192-rcuqs2-lean 6.1.192-2+rcuqs2,
# a small /boot/vmlinuz-6.1.192-rcuqs2-lean, its linux-headers), three
# builds of 6.1 one after the other (6.1.192, .193, .194), a real 6.1.194
# (no -lean), and kernels of 6.12 and 7.3 for the meta-packages' choice of
# the newest.
#
#   - refusals, each naming the file and why, the repository as it was
#     (every file, byte for byte) and nothing left beside it: a lean kernel
#     without --allow-lean, a file that is no .deb, a truncated .deb, a
#     missing file, a directory, linux-libc-dev, a package of another
#     name; a good package named with a bad one adds neither; a key that
#     cannot sign fails after the new state was half built; a --uri with a
#     space; promote to or from an unknown suite, into rcuqs (stable's old
#     name), of a version canary does not have (with a good one beside
#     it), of nothing; a bad --valid-for (no unit, zero, negative, a
#     fraction, above 366 days, empty); --require-signed (or
#     REPO_REQUIRE_SIGNED=yes) with a kernel whose vmlinuz carries no
#     signature (a PE image, systemd-boot's stub, and a fake one),
#     --signing-cert with one signed by another key, promote
#     --require-signed of an unsigned one; a rebuild with the same version
#     of a build that stable has;
#   - Secure Boot: the PE kernel signed by kernel-patches/sign-kdeb.sh
#     with a test key is published with --require-signed, and with
#     --signing-cert of its certificate;
#   - the rings: what is added goes to canary only; a stable machine (the
#     root below, with rcuqs-stable.sources) does not see it until
#     promote copies the build (image, headers, by its meta-package's name
#     too), its meta-packages and rcuqs into stable, the rest of canary
#     left there and canary's index unchanged, rcuqs the same as stable;
#     promote --all takes everything; a repository from before the rings
#     (suite rcuqs only) gets both rings with what rcuqs had, and a
#     machine with that time's rcuqs.sources and Origins-Pattern goes on
#     installing stable's builds and follows a promote;
#   - Valid-Until in every suite's Release, the Date plus 7 days by
#     default; refresh --valid-for 1s signs every Release again with a new
#     Date, the pool and the indexes byte for byte as they were; two
#     seconds later apt-get update on the machine refuses the Release as
#     expired, and after a refresh with the default validity takes it;
#   - the repository: pool, Packages{,.gz}, each suite's Release (canary,
#     stable, rcuqs) with Origin, Label, Suite, Codename, Components,
#     Architectures; InRelease and Release.gpg verified by gpgv with the
#     exported keyring; rcuqs-canary.sources, rcuqs-stable.sources and
#     rcuqs.sources as deb822; per baseline the meta-packages' Version is the newest
#     kernel's by dpkg's order (6.12.118 over 6.12.95 added later; a real
#     7.3 kernel over a lean one with a higher version), their Depends
#     that exact build; headers meta-packages only where headers are;
#     every Depends of every meta-package version in Packages; older
#     builds kept, a file added again left alone, a rebuild of the same
#     version replaced with a warning; the throwaway key made once and
#     said loudly, the same key taken as --key GNUPGHOME and --key FILE,
#     no gpg-agent left running; a run with no DEB takes $BUILD's kernels
#     and tool and leaves out -lean and -dbg;
#   - other repositories, each made for one case: a lean build then the
#     real build of the same version: the meta-packages made again on the
#     real one, as the summary says, none left on a lean kernel; the
#     newest build's image deleted from pool/ and a run again: its
#     meta-packages removed, the build before the newest, the older ones
#     kept, every Depends in Packages; a repository path with a space, and
#     one with ':', a quote, '%41', 'é' and '#': URIs in the .sources files
#     percent-encoded, the summary's install line quoted; one made with
#     --uri, whose URIs promote, refresh and add without it keep;
#   - in a throwaway Debian 12 root (tests/deb/root.sh's cache, only the
#     repository as apt source, bind-mounted read-only at /srv/rcuqs-repo
#     in a mount namespace of each command's own, so nothing stays
#     mounted):
#     rcuqs-stable.sources and the keyring as doc/fleet.md installs them,
#     each build promoted from canary before the machine takes it; apt-get
#     update without a warning; doc/fleet.md's install ("apt-get install
#     linux-image-rcuqs-6.1-amd64 rcuqs", or "apt-get install rcuqs" then
#     "apt-get install linux-image-rcuqs-6.1-amd64") installs the newest
#     build; after
#     a second build, plain "apt-get upgrade" keeps the meta-package back
#     (a new package name), "apt-get upgrade --with-new-pkgs" (and, as
#     simulations, "apt upgrade" and "apt-get full-upgrade") moves to it;
#     after a third, unattended-upgrade with doc/fleet.md's Origins-Pattern
#     moves to it and removes the first build (apt keeps the newest two
#     kernels; with two, autoremove would remove none); the rollback of
#     doc/fleet.md goes back a build and holds there, unhold follows again;
#     the way back of doc/fleet.md leaves no rcuqs kernel installed;
#   - self-tests: a repository whose InRelease, or whose Packages, was
#     changed after signing is refused by apt-get update (and gpgv);
#   - then in the root the other repositories, each bound at its own path
#     (a space in it too) and its rcuqs-canary.sources as kernel-repo.sh
#     wrote it: with a space, and with ':', a quote, '%41'..., in the path,
#     apt-get update without a warning and a package fetched; the pruned
#     one, "apt-get install linux-image-rcuqs-6.1-amd64
#     linux-headers-rcuqs-6.1-amd64" installs the build before.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
deb=${1-}
scratch=$BUILD/repo-check
tap=$RESULTS/repo.tap
kr=$top/scripts/kernel-repo.sh
start=$(date +%s)

# check-repo.sh --cache only makes the root's cache (as check-deb.sh
# --cache does, to start it in the background), no TAP.
[ "$deb" != --cache ] || tap=/dev/null
mkdir -p "$RESULTS"
: >"$tap"
. "$top/scripts/tap.sh"
die() {
	not_ok "$1" "${2-}"
	tap_end repo
	exit 1
}
[ "$(id -u)" -eq 0 ] || {
	echo "1..0 # SKIP the root's apt needs root (debootstrap, chroot)" | tee "$tap"
	exit 0
}
for t in apt-ftparchive gpg gpgv dpkg-deb unshare; do
	command -v "$t" >/dev/null || die "tools: $t" "missing: make check-repo installs apt-utils and gnupg"
done

# The root: check-deb's Debian 12 minbase (tests/deb/root.sh, the same
# cache folder and lock) with unattended-upgrades.
# shellcheck disable=SC2034
work=$BUILD/deb-check
suite=bookworm
root=$scratch/root
root_extra=unattended-upgrades
. "$top/tests/deb/root.sh"

if [ "$deb" = --cache ]; then
	how=$(root_cache) || { echo "check-repo: $how" >&2; exit 1; }
	exit 0
fi

safe_rm "$scratch" || die "scratch: $scratch" "something is mounted under it"
mkdir -p "$scratch/debs" "$scratch/in"
repo=$scratch/repo

# --- fixtures ---------------------------------------------------------------

# fake_deb "$debs" PACKAGE VERSION [PATH CONTENT]...: $debs/P_V_amd64.deb
# with those files (tests/lib/fake-deb.sh).
. "$top/tests/lib/fake-deb.sh"
debs=$scratch/debs
# kernel RELEASE VERSION: linux-image-RELEASE and linux-headers-RELEASE.
kernel() {
	fake_deb "$debs" "linux-image-$1" "$2" "/boot/vmlinuz-$1" "fake kernel $1 $2"
	fake_deb "$debs" "linux-headers-$1" "$2" "/usr/src/linux-headers-$1/Makefile" "# fake headers $1"
}
k() { echo "$scratch/debs/linux-image-${1}_${2}_amd64.deb $scratch/debs/linux-headers-${1}_${2}_amd64.deb"; }
kernel 6.1.192-rcuqs2-lean 6.1.192-2+rcuqs2
kernel 6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2
kernel 6.1.194-rcuqs2-lean 6.1.194-1+rcuqs2
kernel 6.12.118-rcuqs2-lean 6.12.118-1~deb12u1+rcuqs2
kernel 6.12.95-rcuqs2-lean 6.12.95-1~bpo12+1+rcuqs2
kernel 6.1.194-rcuqs2 6.1.194-1+rcuqs2
fake_deb "$debs" linux-image-7.3.4-rcuqs2 7.3.4-1~bpo13+1+rcuqs2 /boot/vmlinuz-7.3.4-rcuqs2 "fake 7.3"
fake_deb "$debs" linux-image-7.3.5-rcuqs2-lean 7.3.5-1~bpo13+1+rcuqs2 /boot/vmlinuz-7.3.5-rcuqs2-lean "fake 7.3 lean"
fake_deb "$debs" linux-libc-dev 6.1.192-2+rcuqs2 /usr/include/linux/fake.h "/* fake */"
fake_deb "$debs" hello 1.0 /usr/share/doc/hello/x "x"
if [ -n "$deb" ] && [ -f "$deb" ]; then
	tool=$deb
else
	fake_deb "$debs" rcuqs 0.0.1~check /usr/sbin/rcuqs-ctl "#!/bin/sh"
	tool=$scratch/debs/rcuqs_0.0.1~check_amd64.deb
fi
toolv=$(dpkg-deb -f "$tool" Version)
b1=$(k 6.1.192-rcuqs2-lean 6.1.192-2+rcuqs2)
b2=$(k 6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2)
b3=$(k 6.1.194-rcuqs2-lean 6.1.194-1+rcuqs2)

# kr ARGS: kernel-repo.sh on the test's repository, its test key in
# $scratch (not $BUILD's), output to $scratch/kr.out.
krun() {
	BUILD=$scratch "$kr" --repo "$repo" "$@" >"$scratch/kr.out" 2>&1
}
kr_ok() { krun "$@" || { cat "$scratch/kr.out"; return 1; }; }
# krx DIR ARGS: kernel-repo.sh on another repository, DIR, with the same
# test key; output to $scratch/kr.out.
krx() {
	d=$1
	shift
	BUILD=$scratch "$kr" --repo "$d" "$@" >"$scratch/kr.out" 2>&1 || { cat "$scratch/kr.out"; return 1; }
}

# --- the first build ----------------------------------------------------------

# shellcheck disable=SC2086
check "add: the first 6.1 build, its headers and rcuqs $toolv (--allow-lean)" kr_ok --allow-lean $b1 "$tool"
test_key() {
	grep -q 'WARNING: signed with a throwaway TEST key' "$scratch/kr.out" &&
		grep -q "making a throwaway TEST signing key in $scratch/repo-key" "$scratch/kr.out" ||
		{ cat "$scratch/kr.out"; return 1; }
}
check "key: without --key, a throwaway test key made in \$BUILD/repo-key, and said loudly" test_key
fpr=$(sed -n 's/^kernel-repo: signing key //p' "$scratch/kr.out")

# snapshot DIR: every file and link of DIR with its contents' hash.
snapshot() {
	(cd "$1" && find . -type f -exec sha256sum {} + && find . ! -type f -printf '%y %p\n') | LC_ALL=C sort
}

# --- refusals -------------------------------------------------------------------

# lit STRING: STRING as a grep -E pattern that matches it literally.
lit() { printf '%s' "$1" | sed 's/[][\\.^$*+?(){}|]/\\&/g'; }
# refused PATTERN ARGS: kernel-repo.sh fails, saying PATTERN (grep -E),
# and leaves the repository as it was (every file, byte for byte), with
# nothing beside it.
refused() {
	pat=$1
	shift
	snapshot "$repo" >"$scratch/repo.before"
	if krun "$@"; then
		echo "accepted: $(cat "$scratch/kr.out")"
		return 1
	fi
	grep -Eq -- "$pat" "$scratch/kr.out" || { echo "not /$pat/:"; cat "$scratch/kr.out"; return 1; }
	snapshot "$repo" >"$scratch/repo.after"
	diff -u "$scratch/repo.before" "$scratch/repo.after" || { echo "the repository changed"; return 1; }
	for l in "$scratch"/.repo.new.*; do
		[ ! -e "$l" ] || { echo "left beside it: $l"; return 1; }
	done
}
lean=$scratch/debs/linux-image-6.1.193-rcuqs2-lean_6.1.193-1+rcuqs2_amd64.deb
check "refused: a lean kernel without --allow-lean, naming the file and why" \
	refused "$(lit "$lean"): linux-image-6\.1\.193-rcuqs2-lean is a lean kernel .*boots no real machine.*--allow-lean" "$lean"
printf 'not a package\n' >"$scratch/in/text.deb"
check "refused: a file that is no .deb" refused "$(lit "$scratch/in/text.deb"): not a Debian package" --allow-lean "$scratch/in/text.deb"
head -c $(($(stat -c %s "$lean") - 64)) "$lean" >"$scratch/in/truncated.deb"
check "refused: a truncated .deb" refused "$(lit "$scratch/in/truncated.deb"): (damaged|not a Debian package)" --allow-lean "$scratch/in/truncated.deb"
check "refused: a missing file" refused "$(lit "$scratch/in/nothing.deb"): no such file" --allow-lean "$scratch/in/nothing.deb"
mkdir -p "$scratch/in/dir.deb"
check "refused: a directory" refused "$(lit "$scratch/in/dir.deb"): not a regular file" --allow-lean "$scratch/in/dir.deb"
check "refused: linux-libc-dev (it would replace Debian's userspace kernel headers)" \
	refused "linux-libc-dev is not for the repository: its version sorts above Debian's" \
	"$scratch/debs/linux-libc-dev_6.1.192-2+rcuqs2_amd64.deb"
check "refused: a package that is neither an rcuqs kernel nor rcuqs" \
	refused "hello is neither an rcuqs kernel" "$scratch/debs/hello_1.0_amd64.deb"
# shellcheck disable=SC2086
check "refused: a good build named with a bad file adds neither" \
	refused "text.deb: not a Debian package" --allow-lean $b2 "$scratch/in/text.deb"
gpg --batch --quiet --homedir "$scratch/repo-key" --export "$fpr" >"$scratch/in/public.key"
gpgconf --homedir "$scratch/repo-key" --kill gpg-agent
# shellcheck disable=SC2086
check "refused: a --key file with no secret key, after the new state was begun" \
	refused "holds no secret key" --allow-lean --key "$scratch/in/public.key" $b2
mkdir -m 0700 "$scratch/in/gnupg"
# shellcheck disable=SC2086
GNUPGHOME=$scratch/in/gnupg check "refused: an unknown --key" \
	refused "--key 0xDEADBEEF: no such secret key" --allow-lean --key 0xDEADBEEF $b2
# shellcheck disable=SC2086
check "refused: a --uri with a space (apt would read a malformed source), saying to write %20" \
	refused "--uri 'http://build\.example\.org/rcuqs repo': a URI holds no spaces.*%20" \
	--allow-lean --uri "http://build.example.org/rcuqs repo" $b2
check "refused: promote to an unknown suite, naming the suites" \
	refused "TO 'testing': no such suite; the suites are canary and stable" promote canary testing --all
check "refused: promote from an unknown suite" \
	refused "FROM 'unstable': no such suite" promote unstable stable --all
check "refused: promote into rcuqs, the old name of stable, saying so" \
	refused "rcuqs is the old name of stable.*name stable" promote canary rcuqs --all
check "refused: promote of a version that canary does not have, naming the versions it has" \
	refused "promote: linux-image-6\.1\.192-rcuqs2-lean 6\.1\.193-1\+rcuqs2 is not in the canary suite \(it has linux-image-6\.1\.192-rcuqs2-lean 6\.1\.192-2\+rcuqs2\); nothing was promoted" \
	promote canary stable linux-image-6.1.192-rcuqs2-lean=6.1.193-1+rcuqs2
check "refused: promote of a build canary does not have at all, with a good one beside it (neither is promoted)" \
	refused "promote: linux-image-6\.1\.193-rcuqs2-lean 6\.1\.193-1\+rcuqs2 is not in the canary suite \(nor any other version" \
	promote canary stable rcuqs="$toolv" linux-image-6.1.193-rcuqs2-lean=6.1.193-1+rcuqs2
check "refused: promote naming no build" refused "promote: name the builds, PACKAGE=VERSION\.\.\., or --all" promote canary stable
for vf in 7days 0d -3d 1.5d 367d d ""; do
	# shellcheck disable=SC2086
	check "refused: --valid-for '$vf'" \
		refused "--valid-for '$(lit "$vf")': a whole number above 0 and a unit, s, m, h, d or w.*at most 366 days" \
		--allow-lean --valid-for "$vf" $b2
done
check "refused: refresh --valid-for 0s" refused "--valid-for '0s'" refresh --valid-for 0s

# A kernel whose vmlinuz is a PE image (systemd-boot's stub stands in):
# unsigned, signed by sign-kdeb.sh with a test key, and a certificate of
# another key. --require-signed refuses the unsigned one, --signing-cert
# one signed by another key; the repository as it was.
stub=/usr/lib/systemd/boot/efi/linuxx64.efi.stub
sk=6.1.196-rcuqs2 skv=6.1.196-1+rcuqs2
unsigned=$scratch/debs/linux-image-${sk}_${skv}_amd64.deb
signed=$scratch/in/signed/linux-image-${sk}_${skv}_amd64.deb
pe_kernel() {
	fake_deb "$debs" "linux-image-$sk" "$skv" "/boot/vmlinuz-$sk" "stand-in" &&
		rm -rf "$scratch/in/pe" && dpkg-deb -R "$unsigned" "$scratch/in/pe" &&
		cp "$stub" "$scratch/in/pe/boot/vmlinuz-$sk" &&
		dpkg-deb --root-owner-group -b "$scratch/in/pe" "$unsigned" >/dev/null &&
		mkdir -p "$scratch/in/signed" && cp "$unsigned" "$signed" || return 1
	for c in fleet other; do
		openssl req -new -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=rcuqs check-repo $c/" \
			-keyout "$scratch/in/$c.key" -out "$scratch/in/$c.crt" >/dev/null 2>&1 || return 1
	done
	"$top/kernel-patches/sign-kdeb.sh" image "$signed" "$scratch/in/fleet.key" "$scratch/in/fleet.crt"
}
if [ -f "$stub" ] && command -v sbsign >/dev/null && command -v openssl >/dev/null; then
	check "signing: a PE kernel, and the same signed by kernel-patches/sign-kdeb.sh with a test key" pe_kernel
	check "refused: --require-signed, a linux-image whose vmlinuz carries no signature, naming the package" \
		refused "$(lit "$unsigned"): linux-image-$sk is not signed: its vmlinuz-$sk carries no signature \(sbverify --list\).*--require-signed.*nothing was published" \
		--require-signed "$unsigned"
	check "refused: --require-signed, a fake kernel (vmlinuz no PE image) with a good build beside it" \
		refused "linux-image-6\.1\.193-rcuqs2-lean is not signed" --require-signed --allow-lean $b2
	REPO_REQUIRE_SIGNED=yes check "refused: REPO_REQUIRE_SIGNED=yes, the unsigned kernel" \
		refused "linux-image-$sk is not signed" "$unsigned"
	check "refused: --signing-cert, a kernel signed by another key" \
		refused "linux-image-$sk is not signed by the fleet's key: its vmlinuz-$sk does not verify with --signing-cert" \
		--signing-cert "$scratch/in/other.crt" "$signed"
	check "refused: promote --require-signed of canary's unsigned (fake) kernel" \
		refused "linux-image-6\.1\.192-rcuqs2-lean is not signed" --require-signed promote canary stable --all
	# signed_ok ARGS: a new repository takes the signed kernel into canary.
	signed_ok() {
		d=$scratch/signed-repo
		rm -rf "$d"
		krx "$d" "$@" "$signed" || return 1
		grep -q "^kernel-repo: added linux-image-$sk $skv (canary)" "$scratch/kr.out" || { cat "$scratch/kr.out"; return 1; }
		grep -qx "Package: linux-image-$sk" "$d/dists/canary/main/binary-amd64/Packages" || { echo "not in canary"; return 1; }
	}
	check "signing: --require-signed publishes the kernel sign-kdeb.sh signed" signed_ok --require-signed
	check "signing: --signing-cert with the signing key's certificate publishes it" signed_ok --signing-cert "$scratch/in/fleet.crt"
else
	for t in "refused: --require-signed, an unsigned kernel" "signing: --require-signed publishes a signed kernel"; do
		skip "$t" "systemd-boot-efi ($stub), sbsigntool or openssl missing"
	done
fi

# --- the repository -----------------------------------------------------------

# The 6.12 builds (the older one added last), 7.3 (a real kernel and a
# lean one with a higher version): the meta-packages' choice.
# shellcheck disable=SC2046
check "add: 6.12.118, then 6.12.95; 7.3.4 and a lean 7.3.5" \
	kr_ok --allow-lean $(k 6.12.118-rcuqs2-lean 6.12.118-1~deb12u1+rcuqs2) \
	"$scratch/debs/linux-image-7.3.5-rcuqs2-lean_7.3.5-1~bpo13+1+rcuqs2_amd64.deb" \
	"$scratch/debs/linux-image-7.3.4-rcuqs2_7.3.4-1~bpo13+1+rcuqs2_amd64.deb"
# shellcheck disable=SC2046
check "add: 6.12.95 after 6.12.118" kr_ok --allow-lean $(k 6.12.95-rcuqs2-lean 6.12.95-1~bpo12+1+rcuqs2)

# The same file again: nothing to do; the same version with other
# contents (a rebuild): replaced, with a warning.
same_version() {
	h=linux-headers-6.12.95-rcuqs2-lean v=6.12.95-1~bpo12+1+rcuqs2
	f=$scratch/debs/${h}_${v}_amd64.deb
	kr_ok --allow-lean "$f" || return 1
	grep -q "^kernel-repo: $h $v: already there" "$scratch/kr.out" || { cat "$scratch/kr.out"; return 1; }
	fake_deb "$debs" "$h" "$v" "/usr/src/$h/Makefile" "# rebuilt"
	kr_ok --allow-lean "$f" || return 1
	grep -q "WARNING: $h $v: replacing the file of the same version with other contents" "$scratch/kr.out" ||
		{ cat "$scratch/kr.out"; return 1; }
	cmp "$f" "$repo/pool/main/$h/${h}_${v}_amd64.deb"
}
check "add: the same file again changes nothing; a rebuild with the same version replaces it, with a warning" same_version

packages=$repo/dists/canary/main/binary-amd64/Packages
stable_packages=$repo/dists/stable/main/binary-amd64/Packages
# newest_meta NAME: "VERSION|DEPENDS" of NAME's highest version in Packages.
newest_meta() {
	best=""
	for l in $(awk -v RS= -v n="$1" '$0 ~ "(^|\n)Package: " n "\n" {
		v = $0; sub(/.*\nVersion: /, "", v); sub(/\n.*/, "", v)
		d = $0; sub(/.*\nDepends: /, "", d); sub(/\n.*/, "", d)
		gsub(/ /, "_", d); print v "|" d }' "$packages"); do
		if [ -z "$best" ] || dpkg --compare-versions "${l%%|*}" gt "${best%%|*}"; then best=$l; fi
	done
	echo "$best" | tr _ ' '
}
# meta_is NAME VERSION DEPENDS
meta_is() {
	got=$(newest_meta "$1")
	[ "$got" = "$2|$3" ] || { echo "$1: '$got', want '$2|$3'"; return 1; }
}
metas() {
	meta_is linux-image-rcuqs-6.1-amd64 6.1.192-2+rcuqs2 "linux-image-6.1.192-rcuqs2-lean (= 6.1.192-2+rcuqs2)" &&
		meta_is linux-headers-rcuqs-6.1-amd64 6.1.192-2+rcuqs2 "linux-headers-6.1.192-rcuqs2-lean (= 6.1.192-2+rcuqs2)" &&
		meta_is linux-image-rcuqs-6.12-amd64 6.12.118-1~deb12u1+rcuqs2 "linux-image-6.12.118-rcuqs2-lean (= 6.12.118-1~deb12u1+rcuqs2)" &&
		meta_is linux-headers-rcuqs-6.12-amd64 6.12.118-1~deb12u1+rcuqs2 "linux-headers-6.12.118-rcuqs2-lean (= 6.12.118-1~deb12u1+rcuqs2)" &&
		meta_is linux-image-rcuqs-7.3-amd64 7.3.4-1~bpo13+1+rcuqs2 "linux-image-7.3.4-rcuqs2 (= 7.3.4-1~bpo13+1+rcuqs2)" || return 1
	! grep -q '^Package: linux-headers-rcuqs-7.3-amd64$' "$packages" || { echo "a 7.3 headers meta-package, with no 7.3 headers"; return 1; }
}
check "meta-packages: per baseline the newest kernel by dpkg's order (6.12.118 over 6.12.95; 7.3's real kernel over a lean one), Depends that exact build; headers only where there are headers" metas

# deps_resolve PACKAGES: every Depends of every meta-package version in
# PACKAGES is a package and version there (else apt-get install fails).
deps_resolve() {
	bad=$(awk -v RS= '{
		p = v = d = ""
		n = split($0, l, "\n")
		for (i = 1; i <= n; i++) {
			if (l[i] ~ /^Package: /) p = substr(l[i], 10)
			else if (l[i] ~ /^Version: /) v = substr(l[i], 10)
			else if (l[i] ~ /^Depends: /) d = substr(l[i], 10)
		}
		have[p " (= " v ")"] = 1
		if (p ~ /^linux-(image|headers)-rcuqs-/) dep[p " " v] = d
	} END { for (m in dep) if (!(dep[m] in have)) print m " -> " dep[m] }' "$1")
	[ -z "$bad" ] || { echo "meta-packages whose Depends is not in Packages:"; echo "$bad"; return 1; }
	grep -q '^Package: linux-image-rcuqs-' "$1" || { echo "no meta-package in $1"; return 1; }
}
check "meta-packages: every Depends of every version is a package and version in Packages" deps_resolve "$packages"

meta_fields() {
	m=$(ls "$repo"/pool/main/linux-image-rcuqs-6.1-amd64/*.deb) || return 1
	for fv in Section=kernel Architecture=amd64 Priority=optional; do
		v=$(dpkg-deb -f "$m" "${fv%%=*}")
		[ "$v" = "${fv#*=}" ] || { echo "${fv%%=*}: '$v'"; return 1; }
	done
	dpkg-deb -f "$m" Description | grep -q 'newest rcuqs kernel of the 6.1 baseline' ||
		{ dpkg-deb -f "$m" Description; return 1; }
	[ -z "$(dpkg-deb -c "$m" | awk '$1 !~ /^d/')" ] || { echo "files in the meta-package: $(dpkg-deb -c "$m")"; return 1; }
}
check "meta-packages: Section kernel, Architecture amd64, a Description of what they track, no files" meta_fields

# Each suite: canary, stable, and rcuqs (stable's name from before the
# rings).
suites="canary stable rcuqs"
release_fields() {
	for s in $suites; do
		r=$repo/dists/$s/Release
		for f in "Origin: rcuqs" "Label: rcuqs" "Suite: $s" "Codename: $s" "Components: main" "Architectures: amd64"; do
			grep -qx "$f" "$r" || { echo "no '$f' in $s's Release:"; cat "$r"; return 1; }
		done
		for f in main/binary-amd64/Packages main/binary-amd64/Packages.gz; do
			grep -q " $f\$" "$r" || { echo "$s's Release lists no $f"; return 1; }
		done
		p=$repo/dists/$s/main/binary-amd64/Packages
		zcat "$p.gz" | cmp -s - "$p" || { echo "$s: Packages.gz is not Packages"; return 1; }
	done
}
check "Release of canary, stable and rcuqs: Origin, Label rcuqs, Suite and Codename the suite's, component main, amd64; Packages and Packages.gz listed" release_fields
# valid_until SECONDS: each Release's Valid-Until is its Date plus SECONDS.
valid_until() {
	for s in $suites; do
		r=$repo/dists/$s/Release
		d=$(sed -n 's/^Date: //p' "$r") u=$(sed -n 's/^Valid-Until: //p' "$r")
		[ -n "$u" ] || { echo "$s: no Valid-Until:"; cat "$r"; return 1; }
		[ $(($(date -d "$u" +%s) - $(date -d "$d" +%s))) -eq "$1" ] || { echo "$s: Date $d, Valid-Until $u, not $1 s apart"; return 1; }
	done
}
check "Release: Valid-Until in every suite's, the Date plus 7 days by default" valid_until 604800
# canary_only: what was added is in canary, stable (and rcuqs) have nothing.
canary_only() {
	for p in linux-image-6.1.192-rcuqs2-lean linux-image-rcuqs-6.1-amd64 linux-image-7.3.4-rcuqs2 rcuqs; do
		grep -qx "Package: $p" "$packages" || { echo "$p not in canary"; return 1; }
	done
	for s in stable rcuqs; do
		[ ! -s "$repo/dists/$s/main/binary-amd64/Packages" ] || { echo "$s has:"; grep '^Package: ' "$repo/dists/$s/main/binary-amd64/Packages"; return 1; }
	done
}
check "rings: every build added is in canary only; stable and rcuqs have nothing yet" canary_only

# verifies DIR: gpgv verifies DIR's InRelease and Release.gpg with the
# exported keyring (as apt does with Signed-By).
verifies() {
	for s in canary stable rcuqs; do
		gpgv --keyring "$1/rcuqs-archive-keyring.gpg" "$1/dists/$s/InRelease" 2>&1 &&
			gpgv --keyring "$1/rcuqs-archive-keyring.gpg" "$1/dists/$s/Release.gpg" "$1/dists/$s/Release" 2>&1 || return 1
	done
}
check "signature: gpgv verifies each suite's InRelease and Release.gpg with rcuqs-archive-keyring.gpg" verifies "$repo"
keyring_binary() {
	t=$(file -b "$repo/rcuqs-archive-keyring.gpg" 2>/dev/null || echo "")
	! grep -q 'BEGIN PGP' "$repo/rcuqs-archive-keyring.gpg" || { echo "armored"; return 1; }
	gpg --batch --quiet --with-colons --show-keys "$repo/rcuqs-archive-keyring.gpg" 2>/dev/null | grep -q "^fpr:*$fpr:" ||
		{ echo "not the key $fpr: $t"; return 1; }
}
check "keyring: binary, the signing key's public part" keyring_binary
sources_ok() {
	for fs in rcuqs-canary.sources:canary rcuqs-stable.sources:stable rcuqs.sources:rcuqs; do
		s=$repo/${fs%%:*}
		for l in "Types: deb" "URIs: file:$repo" "Suites: ${fs#*:}" "Components: main" \
			"Signed-By: /etc/apt/keyrings/rcuqs-archive-keyring.gpg"; do
			grep -qx "$l" "$s" || { echo "no '$l' in ${s##*/}:"; cat "$s"; return 1; }
		done
	done
}
check "rcuqs-canary.sources, rcuqs-stable.sources, rcuqs.sources (suite rcuqs): deb822, file: URI of the repository, Signed-By the keyring in /etc/apt/keyrings" sources_ok

kept_builds() {
	for p in linux-image-6.1.192-rcuqs2-lean linux-image-6.12.95-rcuqs2-lean linux-image-6.12.118-rcuqs2-lean rcuqs; do
		grep -qx "Package: $p" "$packages" || { echo "$p not in Packages"; return 1; }
	done
}
check "pool: every build added is indexed (older ones kept)" kept_builds

# The same key, as a GNUPGHOME and as an exported secret key.
same_key() {
	kr_ok "$@" "$tool" || return 1
	grep -q "^kernel-repo: signing key $fpr\$" "$scratch/kr.out" || { cat "$scratch/kr.out"; return 1; }
	! grep -q 'TEST key' "$scratch/kr.out" || { echo "warned about a test key"; return 1; }
	verifies "$repo" >/dev/null || { echo "does not verify"; return 1; }
}
check "key: --key GNUPGHOME signs with its key, no test-key warning" same_key --key "$scratch/repo-key"
gpg --batch --quiet --homedir "$scratch/repo-key" --export-secret-keys "$fpr" >"$scratch/in/secret.key"
gpgconf --homedir "$scratch/repo-key" --kill gpg-agent
check "key: --key FILE (an exported secret key) signs with it" same_key --key "$scratch/in/secret.key"

# A run with no DEB takes $BUILD's packages, without -lean and -dbg.
scan() {
	s=$scratch/scan
	mkdir -p "$s"
	cp $b2 "$tool" "$scratch/debs/linux-image-7.3.4-rcuqs2_7.3.4-1~bpo13+1+rcuqs2_amd64.deb" "$s/"
	cp "$scratch/debs/linux-image-7.3.4-rcuqs2_7.3.4-1~bpo13+1+rcuqs2_amd64.deb" \
		"$s/linux-image-7.3.4-rcuqs2-dbg_7.3.4-1~bpo13+1+rcuqs2_amd64.deb"
	BUILD=$s "$kr" --repo "$s/repo" --key "$scratch/repo-key" >"$s/out" 2>&1 || { cat "$s/out"; return 1; }
	grep -q 'left out linux-image-6.1.193-rcuqs2-lean_.*a lean test kernel' "$s/out" &&
		grep -q 'left out linux-image-7.3.4-rcuqs2-dbg_.*debug symbols' "$s/out" &&
		grep -q 'added linux-image-7.3.4-rcuqs2 ' "$s/out" &&
		grep -q 'added rcuqs ' "$s/out" || { cat "$s/out"; return 1; }
	[ ! -e "$s/repo/pool/main/linux-image-6.1.193-rcuqs2-lean" ] || { echo "took the lean kernel"; return 1; }
}
check "no DEB: the kernels and rcuqs in \$BUILD, lean and -dbg left out with a note" scan

# A lean build, then the real build of the same version: the real one
# wins the meta-packages (made again at that version), as the summary
# says; no meta-package of the baseline is left on a lean kernel.
lean_then_real() {
	d=$scratch/lean-real
	# shellcheck disable=SC2086
	krx "$d" --allow-lean $b2 && krx "$d" --allow-lean $b3 || return 1
	# shellcheck disable=SC2046
	krx "$d" $(k 6.1.194-rcuqs2 6.1.194-1+rcuqs2) || return 1
	packages=$d/dists/canary/main/binary-amd64/Packages
	meta_is linux-image-rcuqs-6.1-amd64 6.1.194-1+rcuqs2 "linux-image-6.1.194-rcuqs2 (= 6.1.194-1+rcuqs2)" &&
		meta_is linux-headers-rcuqs-6.1-amd64 6.1.194-1+rcuqs2 "linux-headers-6.1.194-rcuqs2 (= 6.1.194-1+rcuqs2)" ||
		{ cat "$scratch/kr.out"; return 1; }
	grep -qx 'kernel-repo:   canary: linux-image-rcuqs-6.1-amd64 6.1.194-1+rcuqs2 -> linux-image-6.1.194-rcuqs2' "$scratch/kr.out" ||
		{ echo "the summary:"; cat "$scratch/kr.out"; return 1; }
	! grep -q '^Depends: linux-.*-lean ' "$packages" || { echo "a meta-package on a lean kernel:"; grep '^Depends: ' "$packages"; return 1; }
	deps_resolve "$packages"
}
check "meta-packages: a lean build, then the real build of the same version: the real one in their Depends (made again), as the summary says" lean_then_real

# doc/fleet.md's pruning: the newest build's image deleted from pool/,
# kernel-repo.sh run again: the meta-packages that named it go, the
# build before is the newest again, the older ones stay.
pruned() {
	d=$scratch/pruned
	# shellcheck disable=SC2086
	krx "$d" --allow-lean $b1 "$tool" && krx "$d" --allow-lean $b2 && krx "$d" --allow-lean $b3 || return 1
	rm "$d/pool/main/linux-image-6.1.194-rcuqs2-lean/linux-image-6.1.194-rcuqs2-lean_6.1.194-1+rcuqs2_amd64.deb" || return 1
	krx "$d" "$tool" || return 1
	packages=$d/dists/canary/main/binary-amd64/Packages
	meta_is linux-image-rcuqs-6.1-amd64 6.1.193-1+rcuqs2 "linux-image-6.1.193-rcuqs2-lean (= 6.1.193-1+rcuqs2)" &&
		meta_is linux-headers-rcuqs-6.1-amd64 6.1.193-1+rcuqs2 "linux-headers-6.1.193-rcuqs2-lean (= 6.1.193-1+rcuqs2)" ||
		{ cat "$scratch/kr.out"; return 1; }
	grep -q '^kernel-repo: removed linux-image-rcuqs-6.1-amd64 6.1.194-1+rcuqs2: linux-image-6.1.194-rcuqs2-lean 6.1.194-1+rcuqs2 is no longer in the pool' "$scratch/kr.out" ||
		{ cat "$scratch/kr.out"; return 1; }
	[ "$(grep -c '^Package: linux-image-rcuqs-6.1-amd64$' "$packages")" = 2 ] ||
		{ echo "not two 6.1 meta-package versions (6.1.192, 6.1.193):"; grep -A1 '^Package: linux-image-rcuqs' "$packages"; return 1; }
	deps_resolve "$packages"
}
check "pool: the newest build's image deleted from pool/ and kernel-repo run again: its meta-packages go, the build before is the newest, every Depends in Packages" pruned

# A repository at a path with a space, and one with ':', '%41', UTF-8,
# '#' and a quote: rcuqs.sources' URIs is one word, percent-encoded.
spaced="$scratch/fleet repo"
odd="$scratch/odd: 100%41 é#'x"
# encoded DIR TAIL: DIR's repository added, its URIs ends with TAIL.
encoded() {
	# shellcheck disable=SC2086
	krx "$1" --allow-lean $b1 "$tool" || return 1
	u=$(sed -n 's/^URIs: //p' "$1/rcuqs-stable.sources")
	for f in rcuqs-canary.sources rcuqs.sources; do
		[ "$(sed -n 's/^URIs: //p' "$1/$f")" = "$u" ] || { echo "$f: another URIs than rcuqs-stable.sources'"; return 1; }
	done
	case $u in
	file:/*"$2") ;;
	*) echo "URIs: '$u', want file:...$2"; return 1 ;;
	esac
	case $u in *[[:space:]]*) echo "URIs: '$u' has a space"; return 1 ;; esac
	# The summary's install line, read by a shell, names the file.
	dir=$1
	l=$(sed -n 's/^    \(install -m 0644 .*rcuqs-stable\.sources.*\)$/\1/p' "$scratch/kr.out")
	eval "set -- $l"
	[ "${4-}" = "$dir/rcuqs-stable.sources" ] || { echo "the install line, to a shell: '${4-}':"; cat "$scratch/kr.out"; return 1; }
}
check "rcuqs*.sources: a repository path with a space, URIs file:.../fleet%20repo" encoded "$spaced" /fleet%20repo
check "rcuqs*.sources: a path with ':', a quote, spaces, '%41', 'é' and '#': all but ':' and the quote percent-encoded" \
	encoded "$odd" "/odd:%20100%2541%20%C3%A9%23'x"
# --uri once: promote, refresh and add after it keep it in every
# .sources file.
uri_kept() {
	d=$scratch/uri-kept
	# shellcheck disable=SC2086
	krx "$d" --allow-lean --uri http://build.example.org/rcuqs/repo $b1 && krx "$d" promote canary stable --all &&
		krx "$d" refresh && krx "$d" --allow-lean $b2 || return 1
	for f in rcuqs-canary.sources rcuqs-stable.sources rcuqs.sources; do
		grep -qx 'URIs: http://build.example.org/rcuqs/repo' "$d/$f" || { echo "$f:"; cat "$d/$f"; return 1; }
	done
}
check "rcuqs*.sources: the URIs of an earlier --uri kept by promote, refresh and add without it" uri_kept
# No gpg-agent that kernel-repo.sh started is left (one ends at once).
no_agents() {
	i=0
	while pgrep -f "gpg-agent --homedir $scratch" >/dev/null; do
		i=$((i + 1))
		[ "$i" -lt 20 ] || { echo "running: $(pgrep -af "gpg-agent --homedir $scratch")"; return 1; }
		sleep 0.1
	done
}
check "key: no gpg-agent that kernel-repo.sh started is left running (test key, --key GNUPGHOME, --key FILE)" no_agents

# --- a machine: the throwaway Debian 12 root --------------------------------

if how=$(root_cache); then
	ok "root: $suite minbase with $root_extra $how ($(($(date +%s) - start)) s so far)"
else
	die "root: debootstrap $suite minbase with $root_extra" "$how"
fi
msg=$(root_fresh) || die "root: a fresh copy" "$msg"

# Each command in the root sees the repository (repo_src, $repo unless a
# self-test swaps it) read-only at /srv/rcuqs-repo, through a bind mount
# in a mount namespace of its own: it ends with the command. Not at its
# host path: a checkout under root's 0700 home would put it below the
# root's own /root (0700), where apt's unprivileged _apt user cannot read
# it; a fleet publishes it at a neutral place too (REPO_URI), and the
# root's rcuqs.sources names that place.
repo_src=$repo
mnt=/srv/rcuqs-repo
mkdir -p "$root$mnt"
with_repo() {
	unshare --mount --propagation private sh -c '
		mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" || exit 97
		shift 2
		exec "$@"' with-repo "$repo_src" "$root$mnt" "$@"
}
# shellcheck disable=SC2034
root_wrap=with_repo
# Only the repository as a source (no network); apt answers yes, no pty.
: >"$root/etc/apt/sources.list"
printf '%s\n' 'APT::Get::Assume-Yes "true";' 'Dpkg::Use-Pty "0";' >"$root/etc/apt/apt.conf.d/99check-repo"

# doc/fleet.md's steps on a machine, as it gives them.
fleet=$top/doc/fleet.md
way_back=$(sed -n 's/^    \(apt-get purge .*rcuqs.*\)$/\1/p' "$fleet" | head -n 1)
uu_line=$(sed -n 's/^ *\(Unattended-Upgrade::Origins-Pattern:: .*\)$/\1/p' "$fleet" | head -n 1)
# The install, one command for the meta-package and rcuqs, or rcuqs first
# and the meta-package after: one indented line each, in the doc's order.
install_lines=$(sed -n 's/^    \(apt-get install \(linux-image-rcuqs-6\.1-amd64 rcuqs\|rcuqs\|linux-image-rcuqs-6\.1-amd64\)\)$/\1/p' "$fleet")
doc_lines() {
	[ -n "$way_back" ] || { echo "doc/fleet.md: no indented 'apt-get purge ...rcuqs...' line"; return 1; }
	[ -n "$uu_line" ] || { echo "doc/fleet.md: no indented Unattended-Upgrade::Origins-Pattern:: line"; return 1; }
	case $install_lines in
	"apt-get install linux-image-rcuqs-6.1-amd64 rcuqs" | "apt-get install rcuqs
apt-get install linux-image-rcuqs-6.1-amd64") ;;
	*)
		echo "doc/fleet.md: not 'apt-get install linux-image-rcuqs-6.1-amd64 rcuqs', nor 'apt-get install rcuqs' then 'apt-get install linux-image-rcuqs-6.1-amd64' (indented): '$install_lines'"
		return 1
		;;
	esac
	for l in "install -m 0644 rcuqs-archive-keyring.gpg /etc/apt/keyrings/" \
		"install -m 0644 rcuqs-stable.sources /etc/apt/sources.list.d/" "apt-get upgrade --with-new-pkgs"; do
		grep -qF -- "$l" "$fleet" || { echo "doc/fleet.md lacks '$l'"; return 1; }
	done
}
check "doc/fleet.md: the machine's steps, its Origins-Pattern line and its way back, as tested here" doc_lines

mkdir -p "$root/etc/apt/keyrings"
install -m 0644 "$repo/rcuqs-archive-keyring.gpg" "$root/etc/apt/keyrings/"
# A machine of the stable ring, as doc/fleet.md sets one up.
sed "s|^URIs: file:$repo\$|URIs: file:$mnt|" "$repo/rcuqs-stable.sources" >"$root/etc/apt/sources.list.d/rcuqs-stable.sources"
chmod 0644 "$root/etc/apt/sources.list.d/rcuqs-stable.sources"
grep -qx "URIs: file:$mnt" "$root/etc/apt/sources.list.d/rcuqs-stable.sources" ||
	die "root: rcuqs-stable.sources" "no 'URIs: file:$repo' line to point at $mnt"

# update_clean: apt-get update in the root exits 0 with no warning or
# error, nothing unsigned or unauthenticated.
update_clean() {
	o=$(in_root apt-get update 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] || printf '%s\n' "$o" | grep -Eq '^(W|E|Err):|NO_PUBKEY|not signed|insecure|unauthenticated|BADSIG|Hash Sum|Ign:'; then
		echo "apt-get update exited $rc:"
		printf '%s\n' "$o"
		return 1
	fi
}
check "machine: apt-get update from the signed file: source, no warning" update_clean

# state: "PACKAGE VERSION" of the installed rcuqs kernels and meta-packages.
state() {
	in_root dpkg-query -W -f='${db:Status-Abbrev}|${Package} ${Version}\n' 'linux-image-*' 'linux-headers-*' 2>/dev/null |
		sed -n 's/^[hi]i |//p' | LC_ALL=C sort
}
# has_state LINE...: exactly those lines.
has_state() {
	want=$(printf '%s\n' "$@" | LC_ALL=C sort)
	got=$(state)
	[ "$got" = "$want" ] || { printf 'installed:\n%s\nwant:\n%s\n' "$got" "$want"; return 1; }
}
# apt_ok CMD...: CMD in the root succeeds; its output to $scratch/apt.out.
apt_ok() { in_root "$@" >"$scratch/apt.out" 2>&1 </dev/null || { tail -n 30 "$scratch/apt.out"; return 1; }; }

# not_seen PACKAGE...: after apt-get update, apt on the stable machine
# knows none of them (they are in canary only).
not_seen() {
	update_clean || return 1
	for p; do
		in_root apt-cache show "$p" >/dev/null 2>&1 && { echo "apt on the stable machine sees $p"; return 1; }
	done
	return 0
}
check "rings: a stable machine sees none of what is only in canary (apt-get update, apt-cache show)" \
	not_seen linux-image-6.1.192-rcuqs2-lean linux-image-rcuqs-6.1-amd64 rcuqs
# promoted ARGS: kernel-repo.sh promote ARGS, each file of the
# "PACKAGE VERSION"s in $want now in stable's index too, canary's as it
# was.
promoted() {
	cp "$packages" "$scratch/canary.before"
	kr_ok promote "$@" || return 1
	cmp -s "$packages" "$scratch/canary.before" || { echo "canary's index changed"; return 1; }
	for pv in $want; do
		p=${pv%%=*} v=${pv#*=}
		awk -v RS= -v p="$p" -v v="$v" 'index("\n" $0 "\n", "\nPackage: " p "\n") && index($0 "\n", "\nVersion: " v "\n") { f = 1 } END { exit !f }' "$stable_packages" ||
			{ echo "$p $v not in stable:"; grep -A1 '^Package: ' "$stable_packages"; cat "$scratch/kr.out"; return 1; }
	done
	deps_resolve "$stable_packages"
	cmp -s "$stable_packages" "$repo/dists/rcuqs/main/binary-amd64/Packages" || { echo "rcuqs is not the same as stable"; return 1; }
}
want="linux-image-6.1.192-rcuqs2-lean=6.1.192-2+rcuqs2 linux-headers-6.1.192-rcuqs2-lean=6.1.192-2+rcuqs2
linux-image-rcuqs-6.1-amd64=6.1.192-2+rcuqs2 linux-headers-rcuqs-6.1-amd64=6.1.192-2+rcuqs2 rcuqs=$toolv"
check "rings: promote canary stable linux-image-rcuqs-6.1-amd64=6.1.192-2+rcuqs2 rcuqs=$toolv: the build (image, headers), its meta-packages and rcuqs into stable (and rcuqs), canary unchanged" \
	promoted canary stable linux-image-rcuqs-6.1-amd64=6.1.192-2+rcuqs2 "rcuqs=$toolv"
only_61() {
	! grep -q '^Package: linux-image-6.12\|^Package: linux-image-7.3\|^Package: linux-image-rcuqs-6.12' "$stable_packages" ||
		{ echo "more than the build named went to stable:"; grep '^Package: ' "$stable_packages"; return 1; }
}
check "rings: the promote took only the build named (no 6.12, 7.3)" only_61
rebuild_in_stable() {
	h=linux-headers-6.1.192-rcuqs2-lean v=6.1.192-2+rcuqs2
	fake_deb "$scratch/in" "$h" "$v" "/usr/src/$h/Makefile" "# rebuilt, other contents"
	refused "$(lit "$h") $(lit "$v") is in the stable suite with other contents.*new version" --allow-lean "$scratch/in/${h}_${v}_amd64.deb"
}
check "refused: a rebuild with the same version of a build stable has (it would change stable without a promote)" rebuild_in_stable
check "machine: apt-get update after the promote" update_clean

install_first() {
	[ -n "$install_lines" ] || { echo "doc/fleet.md: no install line"; return 1; }
	printf '%s\n' "$install_lines" | while read -r l; do
		# shellcheck disable=SC2086
		apt_ok $l || exit 1
	done || return 1
	has_state "linux-image-6.1.192-rcuqs2-lean 6.1.192-2+rcuqs2" "linux-image-rcuqs-6.1-amd64 6.1.192-2+rcuqs2" || return 1
	[ -f "$root/boot/vmlinuz-6.1.192-rcuqs2-lean" ] || { echo "no /boot/vmlinuz-6.1.192-rcuqs2-lean"; return 1; }
	v=$(in_root dpkg-query -W -f='${Version}' rcuqs)
	[ "$v" = "$toolv" ] || { echo "rcuqs: '$v', want $toolv"; return 1; }
}
check "machine: doc/fleet.md's install ($(echo $install_lines | sed 's/ apt-get/, then apt-get/')): the build the meta-package names, and rcuqs $toolv" install_first

# The second build.
# shellcheck disable=SC2086
check "add: the second 6.1 build (6.1.193)" kr_ok --allow-lean $b2
check "rings: the stable machine does not see the second build, in canary only" \
	not_seen linux-image-6.1.193-rcuqs2-lean
want="linux-image-6.1.193-rcuqs2-lean=6.1.193-1+rcuqs2 linux-headers-6.1.193-rcuqs2-lean=6.1.193-1+rcuqs2
linux-image-rcuqs-6.1-amd64=6.1.193-1+rcuqs2 linux-headers-rcuqs-6.1-amd64=6.1.193-1+rcuqs2"
check "rings: promote canary stable linux-image-6.1.193-rcuqs2-lean=6.1.193-1+rcuqs2: the build and its meta-packages into stable" \
	promoted canary stable linux-image-6.1.193-rcuqs2-lean=6.1.193-1+rcuqs2
check "machine: apt-get update after the second build" update_clean
kept_back() {
	apt_ok apt-get upgrade || return 1
	grep -A1 'kept back' "$scratch/apt.out" | grep -q 'linux-image-rcuqs-6.1-amd64' || { cat "$scratch/apt.out"; return 1; }
	has_state "linux-image-6.1.192-rcuqs2-lean 6.1.192-2+rcuqs2" "linux-image-rcuqs-6.1-amd64 6.1.192-2+rcuqs2"
}
check "machine: plain apt-get upgrade keeps the meta-package back (its new Depends is a new package)" kept_back
# simulated CMD...: CMD -s would install the second build.
simulated() {
	apt_ok "$@" -s || return 1
	grep -q '^Inst linux-image-6.1.193-rcuqs2-lean ' "$scratch/apt.out" &&
		grep -q '^Inst linux-image-rcuqs-6.1-amd64 \[6.1.192-2+rcuqs2\] (6.1.193-1+rcuqs2 ' "$scratch/apt.out" ||
		{ cat "$scratch/apt.out"; return 1; }
}
check "machine: apt upgrade would move to it (simulated)" simulated apt upgrade
check "machine: apt-get full-upgrade would move to it (simulated)" simulated apt-get full-upgrade
upgraded() {
	apt_ok apt-get upgrade --with-new-pkgs || return 1
	has_state "linux-image-6.1.192-rcuqs2-lean 6.1.192-2+rcuqs2" "linux-image-6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2" \
		"linux-image-rcuqs-6.1-amd64 6.1.193-1+rcuqs2"
}
check "machine: apt-get upgrade --with-new-pkgs moves to the second build, the first stays installed" upgraded
no_autoremove() {
	apt_ok apt-get autoremove -s || return 1
	! grep '^Remv ' "$scratch/apt.out" || return 1
}
check "machine: apt-get autoremove would remove neither build" no_autoremove

# The third build, by unattended-upgrades with doc/fleet.md's line.
# shellcheck disable=SC2086
check "add: the third 6.1 build (6.1.194)" kr_ok --allow-lean $b3
want="linux-image-6.1.194-rcuqs2-lean=6.1.194-1+rcuqs2 linux-image-rcuqs-6.1-amd64=6.1.194-1+rcuqs2
linux-image-6.12.118-rcuqs2-lean=6.12.118-1~deb12u1+rcuqs2 linux-image-rcuqs-6.12-amd64=6.12.118-1~deb12u1+rcuqs2
linux-image-7.3.4-rcuqs2=7.3.4-1~bpo13+1+rcuqs2"
check "rings: promote canary stable --all: the third build and everything else canary has into stable" \
	promoted canary stable --all
check "machine: apt-get update after the third build" update_clean
uu() {
	printf '%s\n' "$uu_line" >"$root/etc/apt/apt.conf.d/51rcuqs-unattended-upgrades"
	apt_ok unattended-upgrade -v || return 1
	grep -q "Allowed origins are: .*origin=rcuqs" "$scratch/apt.out" || { cat "$scratch/apt.out"; return 1; }
	grep -q 'auto-removed: linux-image-6.1.192-rcuqs2-lean$' "$scratch/apt.out" || { cat "$scratch/apt.out"; return 1; }
	has_state "linux-image-6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2" \
		"linux-image-6.1.194-rcuqs2-lean 6.1.194-1+rcuqs2" "linux-image-rcuqs-6.1-amd64 6.1.194-1+rcuqs2"
}
check "machine: unattended-upgrade with doc/fleet.md's Origins-Pattern moves to the third build, and removes the first (apt keeps the newest two kernels)" uu

# The rollback of doc/fleet.md, one build back, then following again.
rollback_cmd=$(sed -n 's/^    \(apt-get install --allow-downgrades .*\)$/\1/p' "$fleet" | head -n 1)
rollback() {
	[ -n "$rollback_cmd" ] || { echo "doc/fleet.md: no indented 'apt-get install --allow-downgrades' line"; return 1; }
	# The documented line names 6.1.193 and 6.1.194 as its example; the
	# test's kernels are lean ones.
	# shellcheck disable=SC2046
	apt_ok $(echo "$rollback_cmd" | sed 's/\(linux-image-[0-9.]*-rcuqs[0-9]*\)-$/\1-lean-/') || return 1
	has_state "linux-image-6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2" "linux-image-rcuqs-6.1-amd64 6.1.193-1+rcuqs2" ||
		{ cat "$scratch/apt.out"; return 1; }
	apt_ok apt-mark hold linux-image-rcuqs-6.1-amd64 || return 1
	[ ! -e "$root/boot/vmlinuz-6.1.194-rcuqs2-lean" ] || { echo "6.1.194's image still in /boot"; return 1; }
	apt_ok apt-get upgrade --with-new-pkgs || return 1
	apt_ok unattended-upgrade || return 1
	has_state "linux-image-6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2" "linux-image-rcuqs-6.1-amd64 6.1.193-1+rcuqs2" ||
		{ echo "(after upgrade and unattended-upgrade, held)"; return 1; }
	apt_ok apt-mark unhold linux-image-rcuqs-6.1-amd64 || return 1
	apt_ok apt-get upgrade --with-new-pkgs || return 1
	has_state "linux-image-6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2" "linux-image-6.1.194-rcuqs2-lean 6.1.194-1+rcuqs2" \
		"linux-image-rcuqs-6.1-amd64 6.1.194-1+rcuqs2" || { echo "(after unhold)"; return 1; }
}
check "machine: doc/fleet.md's rollback to the previous build, held there through upgrades; unhold follows again" rollback

# The way back to Debian's kernel, doc/fleet.md's one command, from a
# held meta-package (as after a rollback).
way_back() {
	[ -n "$way_back" ] || return 1
	apt_ok apt-mark hold linux-image-rcuqs-6.1-amd64 || return 1
	# shellcheck disable=SC2086
	eval "set -- $way_back"
	apt_ok "$@" || return 1
	left=$(in_root dpkg-query -W -f='${db:Status-Abbrev}|${Package}\n' '*rcuqs*' 2>/dev/null | grep -v '^un |' | grep -v '|rcuqs$')
	[ -z "$left" ] || { echo "left: $left"; return 1; }
	ls "$root"/boot/vmlinuz-*rcuqs* >/dev/null 2>&1 && { echo "left in /boot: $(ls "$root/boot")"; return 1; }
	v=$(in_root dpkg-query -W -f='${db:Status-Abbrev}' rcuqs)
	[ "$v" = "ii " ] || { echo "rcuqs: '$v'"; return 1; }
}
check "machine: doc/fleet.md's way back ($way_back), with the meta-package held, purges every rcuqs kernel and meta-package; rcuqs stays" way_back

# --- Valid-Until, refresh ------------------------------------------------------

# refresh: every Release signed again, with a new Date; the pool and the
# indexes byte for byte as they were.
pool_and_indexes() {
	(cd "$repo" && find pool dists -name '*.deb' -o -name 'Packages*' | LC_ALL=C sort | xargs sha256sum)
}
refreshed() {
	pool_and_indexes >"$scratch/pool.before"
	d0=$(sed -n 's/^Date: //p' "$repo/dists/stable/Release")
	sleep 1
	kr_ok refresh "$@" || return 1
	pool_and_indexes | diff -u "$scratch/pool.before" - || { echo "refresh changed the pool or an index"; return 1; }
	[ "$(sed -n 's/^Date: //p' "$repo/dists/stable/Release")" != "$d0" ] || { echo "the same Date: $d0"; return 1; }
	verifies "$repo"
}
check "refresh --valid-for 1s: every Release signed again with a new Date, the pool and the indexes unchanged" refreshed --valid-for 1s
check "refresh: Valid-Until the Date plus 1 s" valid_until 1
sleep 2
# The machine's apt refuses the expired Release: no update from it.
expect_fail "machine: apt-get update refuses a Release past its Valid-Until" \
	'is expired|no longer valid' update_clean
check "refresh (the timer's run, default validity): the same pool, a new Date" refreshed
check "refresh: Valid-Until the Date plus 7 days again" valid_until 604800
check "machine: apt-get update takes the refreshed Release, no warning" update_clean

# --- self-tests -------------------------------------------------------------------

# A copy of the repository changed after signing: apt-get update refuses it.
tampered() {
	t=$scratch/tampered-$1
	rm -rf "$t"
	cp -a "$repo" "$t"
	case $1 in
	inrelease) sed -i 's/^Label: rcuqs$/Label: rcuqx/' "$t/dists/stable/InRelease" "$t/dists/stable/Release" ;;
	packages)
		sed -i 's/^Description: fake linux-image-6.1.194/Description: Fake linux-image-6.1.194/' "$t/dists/stable/main/binary-amd64/Packages"
		gzip -9n -c "$t/dists/stable/main/binary-amd64/Packages" >"$t/dists/stable/main/binary-amd64/Packages.gz"
		;;
	esac
	echo "$t"
}
t=$(tampered inrelease)
expect_fail "self-test: gpgv refuses an InRelease changed after signing" 'BAD signature' verifies "$t"
rm -rf "$root/var/lib/apt/lists"/*rcuqs*
repo_src=$t
expect_fail "self-test: apt-get update refuses a repository whose InRelease was changed after signing" \
	'BADSIG|signatures were invalid|not signed' update_clean
repo_src=$(tampered packages)
rm -rf "$root/var/lib/apt/lists"/*rcuqs*
expect_fail "self-test: apt-get update refuses a repository whose Packages was changed after signing" \
	'Hash Sum|unexpected size|Hashes of expected file' update_clean
repo_src=$repo
check "self-test: the untouched repository updates cleanly again" update_clean

# --- other repositories, as kernel-repo.sh wrote them ----------------------------

# use_repo DIR [SOURCES]: the root's apt source is DIR's SOURCES
# (rcuqs-canary.sources: what is added is in canary) exactly as
# kernel-repo.sh wrote it, its file: URI of DIR: DIR is bound at its own
# path in the root (each folder above it there opened to apt's _apt user,
# a throwaway root's /root included, nothing else of their modes changed). Not in a test: it sets repo_src and
# mnt for every command in the root after it.
use_repo() {
	repo_src=$1 mnt=$1
	mkdir -p "$root$mnt"
	p=$mnt
	while [ "$p" != / ]; do
		# a+rx, not 0755: the root's /tmp (1777) keeps its sticky bit and
		# stays writable when the checkout sits below /tmp.
		chmod a+rx "$root$p"
		p=$(dirname "$p")
	done
	install -m 0644 "$1/rcuqs-archive-keyring.gpg" "$root/etc/apt/keyrings/" 2>/dev/null
	rm -f "$root"/etc/apt/sources.list.d/rcuqs*.sources
	install -m 0644 "$1/${2:-rcuqs-canary.sources}" "$root/etc/apt/sources.list.d/" 2>/dev/null
}
# fetched: apt-get update with no warning, and the 6.1 build's image
# fetched from the pool (download only).
fetched() {
	update_clean || return 1
	apt_ok apt-get install --download-only linux-image-6.1.192-rcuqs2-lean || return 1
	grep -q '^Get:.* linux-image-6.1.192-rcuqs2-lean ' "$scratch/apt.out" || { cat "$scratch/apt.out"; return 1; }
}
use_repo "$spaced"
check "machine: the rcuqs.sources of a repository whose path has a space: apt-get update without a warning, a package fetched from it" fetched
use_repo "$odd"
check "machine: the rcuqs.sources of a repository whose path has ':', a quote, spaces, '%41', 'é' and '#': apt-get update, a package fetched" fetched
# The pruned repository: the meta-packages install.
install_pruned() {
	update_clean || return 1
	apt_ok apt-get install linux-image-rcuqs-6.1-amd64 linux-headers-rcuqs-6.1-amd64 || return 1
	has_state "linux-image-6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2" "linux-headers-6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2" \
		"linux-image-rcuqs-6.1-amd64 6.1.193-1+rcuqs2" "linux-headers-rcuqs-6.1-amd64 6.1.193-1+rcuqs2"
}
use_repo "$scratch/pruned"
check "machine: after the newest build's image was deleted from pool/, apt-get install linux-image-rcuqs-6.1-amd64 linux-headers-rcuqs-6.1-amd64 installs the build before" install_pruned

# A repository from before the rings: one suite, rcuqs, with the first
# build (made here: the rings' repository with dists/canary, dists/stable
# and their sources taken away is that layout), and a machine with its
# rcuqs.sources and the Origins-Pattern doc/fleet.md gave then. The next
# add: both rings start with what rcuqs had, the new build goes to canary
# only, and rcuqs stays the same as stable, so the machine goes on as
# before.
old=$scratch/old-layout
before_rings() {
	rm -rf "$old"
	# shellcheck disable=SC2086
	krx "$old" --allow-lean $b1 "$tool" && krx "$old" promote canary stable --all || return 1
	rm -rf "$old/dists/canary" "$old/dists/stable" "$old/rcuqs-canary.sources" "$old/rcuqs-stable.sources"
	grep -q '^Package: linux-image-6.1.192-rcuqs2-lean$' "$old/dists/rcuqs/main/binary-amd64/Packages" || return 1
	# shellcheck disable=SC2086
	krx "$old" --allow-lean $b2 || return 1
	grep -q 'a repository from before the rings: canary and stable start with what its suite rcuqs has' "$scratch/kr.out" ||
		{ cat "$scratch/kr.out"; return 1; }
	for s in canary stable rcuqs; do
		grep -q '^Package: linux-image-6.1.192-rcuqs2-lean$' "$old/dists/$s/main/binary-amd64/Packages" ||
			{ echo "$s lacks the first build"; return 1; }
	done
	grep -q '^Package: linux-image-6.1.193-rcuqs2-lean$' "$old/dists/canary/main/binary-amd64/Packages" ||
		{ echo "canary lacks the new build"; return 1; }
	for s in stable rcuqs; do
		! grep -q '^Package: linux-image-6.1.193-rcuqs2-lean$' "$old/dists/$s/main/binary-amd64/Packages" ||
			{ echo "$s has the new build"; return 1; }
	done
	cmp "$old/dists/stable/main/binary-amd64/Packages" "$old/dists/rcuqs/main/binary-amd64/Packages"
}
check "rings: a repository from before them (suite rcuqs only): at the next add canary and stable start with rcuqs's packages, the new build in canary only, rcuqs as stable" before_rings
old_machine() {
	# From no rcuqs kernel (doc/fleet.md's way back).
	eval "set -- $way_back"
	apt_ok "$@" || return 1
	# The Origins-Pattern of the machines set up before the rings.
	printf '%s\n' 'Unattended-Upgrade::Origins-Pattern:: "origin=rcuqs,codename=rcuqs";' \
		>"$root/etc/apt/apt.conf.d/51rcuqs-unattended-upgrades"
	update_clean || return 1
	apt_ok apt-get install linux-image-rcuqs-6.1-amd64 || return 1
	has_state "linux-image-6.1.192-rcuqs2-lean 6.1.192-2+rcuqs2" "linux-image-rcuqs-6.1-amd64 6.1.192-2+rcuqs2" || return 1
	krx "$old" promote canary stable linux-image-6.1.193-rcuqs2-lean=6.1.193-1+rcuqs2 || return 1
	update_clean || return 1
	apt_ok unattended-upgrade -v || return 1
	has_state "linux-image-6.1.192-rcuqs2-lean 6.1.192-2+rcuqs2" "linux-image-6.1.193-rcuqs2-lean 6.1.193-1+rcuqs2" \
		"linux-image-rcuqs-6.1-amd64 6.1.193-1+rcuqs2" || { cat "$scratch/apt.out"; return 1; }
}
use_repo "$old" rcuqs.sources
check "machine: with the rcuqs.sources and Origins-Pattern from before the rings, it installs stable's build, and unattended-upgrade follows a promote" old_machine

nothing_mounted() {
	m=$(findmnt -rn -o TARGET | grep "^$scratch" || :)
	[ -z "$m" ] || { echo "mounted: $m"; return 1; }
}
check "nothing of the test mounted in the host" nothing_mounted

echo "# repo: $(($(date +%s) - start)) s" | tee -a "$tap"
tap_end repo
