#!/bin/sh
# /etc/kernel/postinst.d/zz-rcuqs (installed by "make install" and the rcuqs
# package): run by every kernel package's postinst as
#   zz-rcuqs RELEASE [IMAGE]
#
# An rcuqs kernel: "rcuqs-kernel arm RELEASE" arms its trial boot (the
# running kernel stays GRUB's default; rcuqs-kernel(8)). Any other kernel:
# a kernel from "make kernel-deb" has the release 6.1.<sublevel>-rcuqsN
# (or 6.12.<sublevel>-rcuqsN), which GRUB sorts above Debian's
# 6.1.0-N-amd64 (6.12.<same sublevel>+deb13-amd64) and boots by default. A
# Debian kernel security update then installs but does not boot: its fixes
# reach this machine only when the rcuqs kernel is rebuilt from the updated
# linux-source-6.1 (6.12). This hook says so, loudly, when a kernel that
# GRUB sorts below an installed rcuqs kernel of its series (6.1, 6.12) is
# installed; and, when the new kernel sorts above every rcuqs kernel of
# its series (a later 6.12 sublevel), that GRUB now boots it, without
# rcuqs's parameters. For those it changes nothing.
#
# Stale or current: an rcuqs kernel package's version is the Debian upload
# its tree came from plus the series (6.1.192-3+rcuqs2, make kernel-deb);
# Debian's linux-image packages carry their upload's version (6.1.192-3).
# When both are known, a Debian kernel of the same upload or an older one
# is no news (the rcuqs kernel has its fixes): one line says so instead of
# the warning; a newer upload is named in the warning.
#
# GRUB's order (grub-mkconfig's version_sort) is "sort -V" on the
# releases; RCUQS_BOOT (default /boot) is for tests.
set -eu

new=${1:-}
boot=${RCUQS_BOOT:-/boot}
# Left by a package that has been removed (not purged): stay quiet.
[ -x /usr/sbin/rcuqs-ctl ] || exit 0
case $new in
'') exit 0 ;;
*rcuqs*)
	# A new rcuqs kernel never becomes GRUB's default directly: its
	# trial boot is armed (rcuqs-kernel(8), arm; RCUQS_AUTO_TRIAL=no in
	# /etc/default/rcuqs-kernel turns that off), and
	# rcuqs-kernel-assess.service commits or rejects it on that boot.
	# This hook runs before zz-update-grub: arm runs update-grub itself.
	# A kernel package's installation never fails for it.
	[ ! -x /usr/sbin/rcuqs-kernel ] || /usr/sbin/rcuqs-kernel arm "$new" || :
	exit 0
	;;
esac

# The series of a release: its VERSION.PATCHLEVEL (6.1, 6.12).
series_of() { printf '%s' "$1" | cut -d. -f1,2; }
# rebuild RELEASE: the procedure of doc/install.md's "Kernel updates" and
# rcuqs(7)'s, the same on every baseline, for the rcuqs kernel RELEASE's
# (KERNEL=6.1, 6.12, 7.3); KCONFIG the configuration of Debian's newest
# kernel, the one an update installs, never the running rcuqs kernel's.
rebuild() {
	cat <<MSG
rcuqs: the updated linux-source-$(series_of "$1") and install it; in the rcuqs sources, as root
rcuqs: (doc/install.md and rcuqs(7), "Kernel updates"; the same on every baseline):
rcuqs:     make kernel-deb KERNEL=$(series_of "$1") KCONFIG=\$(ls -v /boot/config-*-amd64 | tail -n 1)
rcuqs:     apt install \$(cat build/kernel-deb.install)   # armed for one trial boot
rcuqs:     reboot                                        # its health checks make it GRUB's default, or reject it
rcuqs:     rcuqs-kernel status                           # "last assessment: ... committed"
rcuqs: (KCONFIG: Debian's newest kernel's configuration, /boot/config-$new when it is
rcuqs: the newest). A fleet's build host does this by itself: doc/fleet.md,
rcuqs: "Following Debian by itself".
MSG
}
# pkgver RELEASE: dpkg's version of the package that owns
# /boot/vmlinuz-RELEASE; empty when none does (or dpkg does not know yet).
pkgver() {
	p=$(dpkg-query -S "/boot/vmlinuz-$1" 2>/dev/null | sed -n '1s/: .*//p')
	[ -z "$p" ] || dpkg-query -W -f='${Version}' "$p" 2>/dev/null || :
}
newver=$(pkgver "$new")
# built_from RELEASE: the Debian upload an rcuqs kernel was built from.
built_from() {
	v=$(pkgver "$1")
	case $v in
	*+rcuqs[0-9]*) echo "${v%+rcuqs*}" ;;
	esac
}
# The rcuqs kernel of the new kernel's series (6.1, 6.12) that GRUB
# boots of those installed: the highest by GRUB's order (apt keeps two
# builds; lean test kernels never boot a real machine).
rel=$(for img in "$boot"/vmlinuz-*rcuqs*; do
	[ -f "$img" ] || continue
	r=${img##*/vmlinuz-}
	case $r in
	*.old | *.bak | *.dpkg-* | *-lean) continue ;;
	esac
	case $r in "$(series_of "$new")".*) echo "$r" ;; esac
done | LC_ALL=C sort -V | tail -n 1)
[ -n "$rel" ] || exit 0
above=""
top=$(printf '%s\n%s\n' "$rel" "$new" | LC_ALL=C sort -V | tail -n 1)
if [ "$top" != "$rel" ]; then
	above=$rel
else
	from=$(built_from "$rel")
	if [ -n "$from" ] && [ -n "$newver" ] && dpkg --compare-versions "$newver" le "$from"; then
		echo "rcuqs: Linux $new (Debian $newver) was installed; the rcuqs kernel $rel, which GRUB boots, was built from Debian $from and has its fixes: nothing to do" >&2
		exit 0
	fi
	cat >&2 <<MSG
rcuqs: WARNING: Linux $new${newver:+ (Debian $newver)} was installed, but GRUB sorts the rcuqs kernel
rcuqs: $rel${from:+ (built from Debian $from)} above it and keeps booting $rel by default.
rcuqs: The fixes in $new are not running. Boot $new from GRUB's "Advanced
rcuqs: options" until then, or rebuild the rcuqs kernel from
MSG
	rebuild "$rel" >&2
	exit 0
fi
if [ -n "$above" ]; then
	# shellcheck disable=SC2086 # releases: no blanks, no globs
	set -- $above
	cat >&2 <<MSG
rcuqs: WARNING: Linux $new was installed and GRUB sorts it above the rcuqs
rcuqs: kernel $1: GRUB will boot $new by default, which lacks rcuqs's
rcuqs: parameters (rcuqs-ctl status says so). Boot $1 from GRUB's "Advanced
rcuqs: options" until then, or rebuild the rcuqs kernel from
MSG
	rebuild "$1" >&2
fi
exit 0
