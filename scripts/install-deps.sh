#!/bin/sh
# Install the Debian packages rcuqs needs, only those that are missing.
# dracut-core, not dracut: the latter conflicts with initramfs-tools and would
# replace the host's own initramfs generator. We only build a guest image.
# clang and libclang-rt-14-dev (its libFuzzer and sanitizer runtimes, only
# recommended by clang) build the fuzz harnesses that 'make check' runs.
#
# install-deps.sh kernel-deb: only what 'make kernel-deb' needs, for an
# administrator's machine (no QEMU, dracut or clang): the kernel build's
# tools, patch for the series, and for the kernel's bindeb-pkg:
# build-essential (dpkg-buildpackage checks it as an implicit build
# dependency; brings dpkg-dev), rsync (in the generated Build-Depends),
# fakeroot (bindeb-pkg's default KBUILD_PKG_ROOTCMD), lsb-release (the
# changelog's distribution, bookworm) and dwarves (pahole: Debian's
# configuration has CONFIG_DEBUG_INFO_BTF).
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
# debhelper (with dpkg-dev) builds the .deb of 'make deb'; lintian checks
# it and debootstrap makes the throwaway Debian 12 root the package's
# install/upgrade/purge test runs in ('make check'). Rules-Requires-Root:
# no, so no fakeroot.
set -eu

PKGS="linux-source-6.1 qemu-system-x86 gcc make pkg-config libkmod-dev kmod
dracut-core systemd bc bison flex libelf-dev libssl-dev cpio xz-utils perl
libcmocka-dev mandoc git clang libclang-rt-14-dev python3 gnuplot-nox
debhelper lintian debootstrap"
KDEB_PKGS="linux-source-6.1 build-essential dpkg-dev make gcc bc bison flex
libelf-dev libssl-dev kmod cpio xz-utils perl patch rsync fakeroot lsb-release
dwarves"
DEB_PKGS="build-essential dpkg-dev gcc make debhelper pkg-config libkmod-dev
libcmocka-dev"
case ${1:-} in
'' | full) ;;
kernel-deb) PKGS=$KDEB_PKGS ;;
deb) PKGS=$DEB_PKGS ;;
*) echo "install-deps: unknown set '$1' (full, deb, kernel-deb; none: full)" >&2; exit 2 ;;
esac

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

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

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# An empty or stale package list makes apt-get install fail; refresh it once.
if ! apt_get install -y --no-install-recommends $missing; then
	apt_get update
	apt_get install -y --no-install-recommends $missing
fi
