#!/bin/sh
# Install the Debian packages rcuqs needs, only those that are missing.
# dracut-core, not dracut: the latter conflicts with initramfs-tools and would
# replace the host's own initramfs generator. We only build a guest image.
set -eu

PKGS="linux-source-6.1 qemu-system-x86 gcc make pkg-config libkmod-dev kmod
dracut-core systemd bc bison flex libelf-dev libssl-dev cpio xz-utils perl
libcmocka-dev mandoc git"

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
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# An empty or stale package list makes apt-get install fail; refresh it once.
if ! apt-get install -y --no-install-recommends $missing; then
	apt-get update
	apt-get install -y --no-install-recommends $missing
fi
