#!/bin/sh
# Install the Debian packages rcuqs needs, only those that are missing.
# dracut-core, not dracut: the latter conflicts with initramfs-tools and would
# replace the host's own initramfs generator. We only build a guest image.
# clang and libclang-rt-14-dev (its libFuzzer and sanitizer runtimes, only
# recommended by clang) build the fuzz harnesses that 'make check' runs.
#
# install-deps.sh kernel-deb [6.1|6.12|7.3]: only what 'make kernel-deb'
# (KERNEL=6.1, the default, 6.12 or 7.3) and 'make refresh' need, for an
# administrator's machine (no QEMU, dracut or clang): the kernel build's
# tools, patch for the series, and for the kernel's bindeb-pkg:
# build-essential (dpkg-buildpackage checks it as an implicit build
# dependency; brings dpkg-dev), rsync (in the generated Build-Depends),
# fakeroot (bindeb-pkg's default KBUILD_PKG_ROOTCMD), lsb-release (the
# changelog's distribution, bookworm) and dwarves (pahole: Debian's
# configuration has CONFIG_DEBUG_INFO_BTF), sbsigntool and openssl
# (KSIGN_KEY/KSIGN_CERT: sbsign signs the image for Secure Boot),
# libdw-dev (7.3's bindeb-pkg lists it in its Build-Depends) and git
# (make refresh).
#
# install-deps.sh deb: only what 'make deb' needs to build the .deb on an
# administrator's machine (no QEMU, clang, gnuplot, debootstrap, lintian
# or dracut): build-essential (dpkg-buildpackage's implicit build
# dependency; gcc, make, dpkg-dev), debhelper and debian/control's
# Build-Depends (libkmod-dev, pkg-config, libcmocka-dev for the unit tests
# dh_auto_test runs; gcc brings their ASan/UBSan runtimes).
#
# No argument (or 'full'): everything 'make check', 'make demo' and the
# benchmarks use, the sets above included.
# python3 runs tuned's profile loader on rcuqs-ctl's tuned export; tuned
# itself is not installed (its daemon would tune this machine): the check
# downloads its .deb and unpacks it under build/.
# gnuplot-nox draws make bench's plots (no X libraries).
# apt-utils (apt-ftparchive) and gnupg make and sign make kernel-repo's
# repository, which make check tests (tests/repo/); sbsigntool, openssl
# and systemd-boot-efi (a PE/COFF EFI binary to sign) test Secure Boot
# signing (check-kdeb.sh, tests/trial/).
# ansible-core runs the example playbook doc/ansible/rcuqs.yml against
# fake roots (tests/ansible/); python3-apt is what its apt module needs.
# debhelper (with dpkg-dev) builds the .deb of 'make deb'; lintian checks
# it and debootstrap makes the throwaway Debian 12 root the package's
# install/upgrade/purge test runs in ('make check'). Rules-Requires-Root:
# no, so no fakeroot.
set -eu

PKGS="linux-source-6.1 qemu-system-x86 gcc make pkg-config libkmod-dev kmod
dracut-core systemd bc bison flex libelf-dev libssl-dev cpio xz-utils perl
libcmocka-dev mandoc git clang libclang-rt-14-dev python3 gnuplot-nox
debhelper lintian debootstrap sbsigntool openssl systemd-boot-efi apt-utils
gnupg ansible-core python3-apt"
KDEB_PKGS="build-essential dpkg-dev make gcc bc bison flex
libelf-dev libssl-dev kmod cpio xz-utils perl patch rsync fakeroot lsb-release
dwarves libdw-dev sbsigntool openssl git"
DEB_PKGS="build-essential dpkg-dev gcc make debhelper pkg-config libkmod-dev
libcmocka-dev"
kernel=6.1
case ${1:-} in
'' | full) ;;
kernel-deb)
	kernel=${2:-6.1}
	case $kernel in
	6.1 | 6.12 | 7.3) ;;
	*) echo "install-deps: unknown kernel '$kernel' for kernel-deb (6.1, 6.12, 7.3)" >&2; exit 2 ;;
	esac
	PKGS=$KDEB_PKGS
	[ "$kernel" != 6.1 ] || PKGS="linux-source-6.1 $PKGS"
	;;
deb) PKGS=$DEB_PKGS ;;
*) echo "install-deps: unknown set '$1' (full, deb, kernel-deb; none: full)" >&2; exit 2 ;;
esac

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}
missing=""
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done
# The 6.12 tree (kernel-patches/6.12/, the dynamic-6.12 test kernel):
# Debian 13 has it in its own suite; on Debian 12 it comes from
# bookworm-backports, which is then added as an apt source when the
# package is missing (see below). In the full set, and for
# 'make kernel-deb KERNEL=6.12'; 'make deb' never needs it.
full=""
case ${1:-} in '' | full) full=yes ;; esac
need612=""
if [ -n "$full" ] || [ "$kernel" = 6.12 ]; then
	installed linux-source-6.12 || need612=yes
fi
# The 7.3 tree (kernel-patches/7.3/, issue 16) is built for trixie and
# comes from trixie-backports, added with a pin that keeps every host
# package bookworm's (see trixie-backports below); the full set and
# 'make kernel-deb KERNEL=7.3'. On Debian 13 (trixie) itself, trixie is
# the host's own release: no pin, trixie-backports only.
need73=""
if [ -n "$full" ] || [ "$kernel" = 7.3 ]; then
	installed linux-source-7.3 || need73=yes
fi
[ -z "$missing" ] && [ -z "$need612" ] && [ -z "$need73" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing Debian packages:$missing (run as root)" >&2
	exit 1
fi
# Another apt or dpkg (unattended-upgrades on a fresh box) may hold the
# locks for minutes: wait for them up to RCUQS_APT_WAIT seconds (600),
# trying again every RCUQS_APT_RETRY seconds (5), rather than fail at once.
# apt waits for the dpkg locks itself (DPkg::Lock::Timeout); the loop also
# covers the package lists' lock of "apt-get update".
wait_max=${RCUQS_APT_WAIT:-600}
retry=${RCUQS_APT_RETRY:-5}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
apt_get() {
	start=$(date +%s) said=""
	while :; do
		if apt-get -o DPkg::Lock::Timeout="$wait_max" "$@" 2>"$err"; then
			cat "$err" >&2
			return 0
		fi
		if ! grep -qE 'Could not get lock|Unable to acquire|Unable to lock' "$err"; then
			cat "$err" >&2
			return 1
		fi
		if [ $(($(date +%s) - start)) -ge "$wait_max" ]; then
			cat "$err" >&2
			echo "install-deps: the apt/dpkg lock is still held after ${wait_max}s; try again when the other package manager is done" >&2
			exit 1
		fi
		if [ -z "$said" ]; then
			echo "install-deps: waiting for the apt/dpkg lock: $(grep -m1 -E 'lock' "$err")" >&2
			said=yes
		fi
		sleep "$retry"
	done
}

export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "install-deps: installing$missing"
	# An empty or stale package list makes apt-get install fail; refresh
	# it once.
	if ! apt_get install -y --no-install-recommends $missing; then
		apt_get update
		apt_get install -y --no-install-recommends $missing
	fi
fi
[ -n "$need612" ] || [ -n "$need73" ] || exit 0

# A release whose own suites have it (Debian 13): install it from there.
if [ -n "$need612" ] &&
	apt-cache policy linux-source-6.12 2>/dev/null | grep -q 'Candidate: [0-9]' &&
	! apt-cache policy linux-source-6.12 | grep -q 'bookworm-backports'; then
	echo "install-deps: installing linux-source-6.12"
	apt_get install -y --no-install-recommends linux-source-6.12
	need612=""
fi

# bookworm-backports, the Debian way: a deb822 file of its own in
# sources.list.d, with the mirror and keyring of the entry that already
# serves bookworm (one-line sources.list or .sources). Backports are never
# chosen unless asked for (-t), so nothing else on the host changes.
BPO_SOURCES=${RCUQS_BPO_SOURCES:-/etc/apt/sources.list.d/bookworm-backports.sources}
# has_suite SUITE FILE: some apt source (or FILE) already serves SUITE.
has_suite() {
	grep -Eqs "^[[:space:]]*(Suites:.*[[:space:]]|deb[[:space:]].*[[:space:]])$1([[:space:]]|\$)" \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources "$2"
}
# The bookworm stanza of the deb822 files: "URI KEYRING" (first URI).
bookworm_deb822() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'function flush() {
			if (suite && uri != "" && !done) { print uri, key; done = 1 }
			suite = 0; uri = ""; key = ""
		}
		/^[[:space:]]*$/ { flush(); next }
		/^[[:space:]]*#/ { next }
		tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == "bookworm") suite = 1 }
		tolower($1) == "uris:" { uri = $2 }
		tolower($1) == "signed-by:" { key = $2 }
		END { flush() }' "$f"
	done | head -n1
}
# The same from one-line entries: "deb [signed-by=K] URI bookworm main".
bookworm_oneline() {
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" {
			key = ""; i = 2
			if ($2 ~ /^\[/) {
				for (; i <= NF; i++) {
					if ($i ~ /signed-by=/) { key = $i; sub(/.*signed-by=/, "", key); sub(/\]$/, "", key) }
					if ($i ~ /\]$/) { i++; break }
				}
			}
			if ($(i + 1) == "bookworm") { print $i, key; exit }
		}'
}
src=$(bookworm_deb822)
[ -n "$src" ] || src=$(bookworm_oneline)
uri=$(printf '%s\n' "$src" | awk '{ print $1 }')
key=$(printf '%s\n' "$src" | awk '{ print $2 }')
uri=${uri:-http://deb.debian.org/debian}
key=${key:-/usr/share/keyrings/debian-archive-keyring.gpg}
if [ -n "$need612" ] && ! has_suite bookworm-backports "$BPO_SOURCES"; then
	echo "install-deps: adding bookworm-backports ($uri) as $BPO_SOURCES"
	cat >"$BPO_SOURCES.tmp" <<-EOF
	# Added by rcuqs scripts/install-deps.sh for linux-source-6.12.
	Types: deb
	URIs: $uri
	Suites: bookworm-backports
	Components: main
	Signed-By: $key
	EOF
	mv "$BPO_SOURCES.tmp" "$BPO_SOURCES"
	apt_get update
fi
# apt 2.6 also upgrades every installed binary of the same source package
# (src:linux: linux-libc-dev, linux-perf) to that candidate, here 6.12's
# from backports; Upgrade-By-Source-Package=false keeps them bookworm's.
apt_bpo() {
	apt_get -t bookworm-backports -o APT::Get::Upgrade-By-Source-Package=false "$@"
}
if [ -n "$need612" ]; then
	echo "install-deps: installing linux-source-6.12 from bookworm-backports"
	if ! apt_bpo install -y --no-install-recommends linux-source-6.12; then
		apt_get update
		apt_bpo install -y --no-install-recommends linux-source-6.12
	fi
fi
[ -n "$need73" ] || exit 0

# trixie-backports, for linux-source-7.3 (7.3.4-1~bpo13+1; arch all, it
# depends only on binutils and xz-utils, which bookworm's satisfy). It is
# built for trixie, so unlike bookworm-backports it is another release's
# suite: an apt preferences pin below 100 for trixie and trixie-backports
# (also covering a trixie entry an administrator may add) means apt never
# picks a version from them by itself, not even to upgrade an installed
# package; only an explicit PACKAGE/trixie-backports does. The mirror and
# keyring are bookworm's (debian-archive-keyring 2023.3+deb12u1 and later
# hold the trixie keys). Upgrade-By-Source-Package=false: linux-source-7.3
# is src:linux as well, whose other installed binaries (linux-libc-dev)
# must stay bookworm's.
TBPO_SOURCES=${RCUQS_TBPO_SOURCES:-/etc/apt/sources.list.d/trixie-backports.sources}
TBPO_PREFS=${RCUQS_TBPO_PREFS:-/etc/apt/preferences.d/rcuqs-trixie.pref}
host_codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
if [ "$host_codename" != trixie ] && [ ! -f "$TBPO_PREFS" ]; then
	echo "install-deps: pinning trixie and trixie-backports below 100 in $TBPO_PREFS"
	cat >"$TBPO_PREFS.tmp" <<-EOF
	# Added by rcuqs scripts/install-deps.sh for linux-source-7.3: never
	# take a trixie or trixie-backports version unless asked for by name
	# (apt-get install PACKAGE/trixie-backports); the host stays bookworm.
	Package: *
	Pin: release n=trixie
	Pin-Priority: 50

	Package: *
	Pin: release n=trixie-backports
	Pin-Priority: 50
	EOF
	mv "$TBPO_PREFS.tmp" "$TBPO_PREFS"
fi
if ! has_suite trixie-backports "$TBPO_SOURCES"; then
	echo "install-deps: adding trixie-backports ($uri) as $TBPO_SOURCES"
	cat >"$TBPO_SOURCES.tmp" <<-EOF
	# Added by rcuqs scripts/install-deps.sh for linux-source-7.3, pinned
	# below 100 by $TBPO_PREFS.
	Types: deb
	URIs: $uri
	Suites: trixie-backports
	Components: main
	Signed-By: $key
	EOF
	mv "$TBPO_SOURCES.tmp" "$TBPO_SOURCES"
	apt_get update
fi
apt_tbpo() {
	apt_get -o APT::Get::Upgrade-By-Source-Package=false "$@"
}
echo "install-deps: installing linux-source-7.3 from trixie-backports"
if ! apt_tbpo install -y --no-install-recommends linux-source-7.3/trixie-backports; then
	apt_get update
	apt_tbpo install -y --no-install-recommends linux-source-7.3/trixie-backports
fi
# Nothing on the host may now upgrade to trixie's: the pin says so; check.
if [ "$host_codename" != trixie ] && apt-get -s upgrade 2>/dev/null | grep -E '^Inst ' | grep -Ei 'trixie|bpo13|deb13|Debian( Backports)?:13|[:/]stable(-backports)?[] ,]'; then
	echo "install-deps: the lines above would upgrade host packages from trixie: check $TBPO_PREFS" >&2
	exit 1
fi
