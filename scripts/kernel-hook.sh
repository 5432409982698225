#!/bin/sh
# /etc/kernel/postinst.d/zz-rcuqs (installed by "make install" and the rcuqs
# package): run by every kernel package's postinst as
#   zz-rcuqs RELEASE [IMAGE]
#
# A kernel from "make kernel-deb" has the release 6.1.<sublevel>-rcuqsN,
# which GRUB sorts above Debian's 6.1.0-N-amd64 and boots by default. A
# Debian kernel security update then installs but does not boot: its fixes
# reach this machine only when the rcuqs kernel is rebuilt from the updated
# linux-source-6.1. This hook says so, loudly, when a kernel that GRUB
# sorts below an installed rcuqs kernel is installed. It changes nothing.
#
# GRUB's order (grub-mkconfig's version_sort) is "sort -V" on the
# releases; RCUQS_BOOT (default /boot) is for tests.
set -eu

new=${1:-}
boot=${RCUQS_BOOT:-/boot}
# Left by a package that has been removed (not purged): stay quiet.
[ -x /usr/sbin/rcuqs-ctl ] || exit 0
case $new in
'' | *rcuqs*) exit 0 ;;
esac

for img in "$boot"/vmlinuz-*rcuqs*; do
	[ -f "$img" ] || continue
	rel=${img##*/vmlinuz-}
	case $rel in
	*.old | *.bak | *.dpkg-*) continue ;;
	esac
	top=$(printf '%s\n%s\n' "$rel" "$new" | LC_ALL=C sort -V | tail -n 1)
	[ "$top" = "$rel" ] || continue
	cat >&2 <<MSG
rcuqs: WARNING: Linux $new was installed, but GRUB sorts the rcuqs kernel
rcuqs: $rel above it and keeps booting $rel by default.
rcuqs: The fixes in $new are not running. Rebuild the rcuqs kernel from
rcuqs: the updated linux-source-6.1 and install it (in the rcuqs sources:
rcuqs: "make kernel-deb KCONFIG=/boot/config-$new", see the README,
rcuqs: "Kernel updates"), or boot $new from GRUB's "Advanced options".
MSG
done
exit 0
