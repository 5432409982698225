#!/bin/sh
# rcuqs-kernel: boot a newly installed rcuqs kernel once, on trial, and make
# it GRUB's default only once it has proved itself. Installed as
# /usr/sbin/rcuqs-kernel by "make install" and the rcuqs package; the
# manual is rcuqs-kernel(8).
#
#   rcuqs-kernel trial [RELEASE]   the next boot only boots RELEASE (the
#                                  newest installed rcuqs kernel by default)
#   rcuqs-kernel commit            on the rcuqs kernel: make it the default
#   rcuqs-kernel abort             forget the trial
#   rcuqs-kernel status            Secure Boot, GRUB's default and next boot
#
# Why: installing a kernel package runs update-grub, and GRUB boots the
# release that sorts highest (6.1.192-rcuqs2 above Debian's 6.1.0-N) by
# default at once. With Secure Boot on, an unsigned image then does not
# boot at all, and a remote machine needs a console to get back. A trial
# boot uses GRUB's one-shot entry (grub-reboot, which needs
# GRUB_DEFAULT=saved): the next boot runs the rcuqs kernel, every later one
# the kernel running now, until "commit".
#
# Files: /etc/default/grub.d/rcuqs-trial.cfg (GRUB_DEFAULT=saved, written
# by trial only when the administrator's GRUB_DEFAULT is another value,
# removed by commit and abort: the administrator's /etc/default/grub is
# never edited), /boot/grub/grub.cfg (read), /boot/grub/grubenv (through
# grub-set-default and grub-reboot).
# Exit codes: 0 done, 1 refused or failed (nothing changed), 2 usage.
# RCUQS_ROOT (a prefix for /boot, /etc, /sys) and RCUQS_UNAME (the running
# release) are for tests.
set -eu

root=${RCUQS_ROOT:-}
boot=$root/boot
grubcfg=$boot/grub/grub.cfg
dropin_dir=$root/etc/default/grub.d
dropin=$dropin_dir/rcuqs-trial.cfg
running=${RCUQS_UNAME:-$(uname -r)}
prog=rcuqs-kernel

die() { echo "$prog: $*" >&2; exit 1; }
usage() {
	cat <<EOF
Usage: $prog trial [RELEASE]
       $prog commit
       $prog abort
       $prog status

Boot a newly installed rcuqs kernel once, on trial, before it becomes
GRUB's default.

  trial [RELEASE]  check Secure Boot, keep the running kernel GRUB's
                   default and boot RELEASE (the newest installed rcuqs
                   kernel if not given) at the next boot only
  commit           on the rcuqs kernel, once it works: make GRUB boot
                   rcuqs kernels by default again
  abort            forget a trial; the administrator's GRUB_DEFAULT again
  status           Secure Boot state, GRUB's default and next boot

See rcuqs-kernel(8).
EOF
}

# The newest installed rcuqs kernel, as GRUB sorts (sort -V).
newest_rcuqs() {
	for f in "$boot"/vmlinuz-*rcuqs*; do
		[ -f "$f" ] && echo "${f##*/vmlinuz-}"
	done | grep -v '\.\(old\|bak\|dpkg-.*\)$' | LC_ALL=C sort -V | tail -n 1
}

# Secure Boot: "enabled", "disabled" or "none" (BIOS or no EFI variables).
# mokutil's word when it is there (and not under a test root), else the
# SecureBoot EFI variable (4 bytes of attributes, then the value).
sb_state() {
	if [ -z "$root" ] && command -v mokutil >/dev/null 2>&1; then
		case $(mokutil --sb-state 2>&1) in
		*"SecureBoot enabled"*) echo enabled; return ;;
		*"SecureBoot disabled"*) echo disabled; return ;;
		esac
	fi
	v=$root/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c
	if [ -r "$v" ]; then
		case $(od -An -t u1 -j4 -N1 "$v" | tr -d ' ') in
		1) echo enabled ;;
		*) echo disabled ;;
		esac
	else
		echo none
	fi
}

# The image of RELEASE carries an Authenticode signature (sbverify --list).
signed() {
	command -v sbverify >/dev/null 2>&1 ||
		die "Secure Boot is on and sbverify is missing: cannot tell whether vmlinuz-$1 is signed (apt-get install sbsigntool)"
	sbverify --list "$boot/vmlinuz-$1" 2>/dev/null | grep -q '^signature 1'
}

# GRUB_DEFAULT as grub-mkconfig sees it: /etc/default/grub, then
# /etc/default/grub.d/*.cfg in order; "0" when unset.
grub_default() {
	(
		GRUB_DEFAULT=0
		# shellcheck disable=SC1090,SC1091
		[ -f "$root/etc/default/grub" ] && . "$root/etc/default/grub"
		for f in "$dropin_dir"/*.cfg; do
			# shellcheck disable=SC1090
			[ -f "$f" ] && . "$f"
		done
		echo "$GRUB_DEFAULT"
	)
}

# entry RELEASE: GRUB's id of the menu entry that boots RELEASE, as
# grub-reboot and grub-set-default take it ("SUBMENU_ID>ENTRY_ID" inside
# Debian's "Advanced options" submenu). Debian's 10_linux gives each entry
# an id, gnulinux-RELEASE-advanced-UUID (and -recovery-UUID for recovery
# mode, which is never chosen); titles change with GRUB_DISTRIBUTOR and
# translations, ids do not.
entry() {
	[ -r "$grubcfg" ] || die "$grubcfg is missing: is GRUB this machine's boot loader?"
	awk -v rel="$1" '
	function id(line) {
		if (match(line, /\$menuentry_id_option '"'"'[^'"'"']*'"'"'/)) {
			s = substr(line, RSTART, RLENGTH); sub(/^[^'"'"']*'"'"'/, "", s); sub(/'"'"'$/, "", s); return s
		}
		return ""
	}
	/^[[:space:]]*submenu / { sub_id = id($0); depth = 1; next }
	sub_id != "" && /\{[[:space:]]*$/ { depth++ }
	sub_id != "" && /^[[:space:]]*\}[[:space:]]*$/ { if (--depth == 0) sub_id = "" }
	/^[[:space:]]*menuentry / {
		e = id($0)
		if (index(e, "gnulinux-" rel "-advanced-") == 1 || e == "gnulinux-simple-" rel) {
			print (sub_id != "" ? sub_id ">" : "") e; exit
		}
	}' "$grubcfg"
}

need_grub_tools() {
	for t in update-grub grub-reboot grub-set-default; do
		command -v "$t" >/dev/null 2>&1 || die "$t is missing: the trial boot needs GRUB (grub2-common)"
	done
}

verb=${1:-}
[ $# -gt 0 ] && shift
case $verb in
trial)
	[ $# -le 1 ] || { usage >&2; exit 2; }
	rel=${1:-$(newest_rcuqs)}
	[ -n "$rel" ] || die "no rcuqs kernel is installed in $boot (apt install the packages make kernel-deb built first)"
	case $rel in
	*rcuqs*) ;;
	*) die "$rel is not an rcuqs kernel (its release has no 'rcuqs')" ;;
	esac
	case $rel in
	*/* | .*) die "bad release '$rel'" ;;
	esac
	[ -f "$boot/vmlinuz-$rel" ] || die "$boot/vmlinuz-$rel is missing: is linux-image-$rel installed?"
	[ "$rel" != "$running" ] || die "$rel is running already: nothing to try (rcuqs-kernel commit makes it the default)"
	case $rel in
	*-lean) die "$rel is a lean test kernel (tinyconfig): it does not boot a real machine" ;;
	esac
	sb=$(sb_state)
	if [ "$sb" = enabled ] && ! signed "$rel"; then
		die "Secure Boot is on and vmlinuz-$rel is not signed: shim would refuse it. Build it with KSIGN_KEY=... KSIGN_CERT=... and enrol the certificate with mokutil --import (doc/install.md in the rcuqs sources: Secure Boot)"
	fi
	need_grub_tools
	# The one-shot entry needs GRUB_DEFAULT=saved; the drop-in says so
	# without touching the administrator's file.
	if [ "$(grub_default)" != saved ]; then
		mkdir -p "$dropin_dir"
		printf '%s\n' "# Written by rcuqs-kernel trial; removed by rcuqs-kernel commit or abort." \
			"GRUB_DEFAULT=saved" >"$dropin.tmp"
		mv "$dropin.tmp" "$dropin"
	fi
	update-grub >/dev/null 2>&1 || { rm -f "$dropin"; die "update-grub failed; the trial is not set up"; }
	now=$(entry "$running")
	try=$(entry "$rel")
	if [ -z "$now" ] || [ -z "$try" ]; then
		missing=$rel
		[ -n "$now" ] || missing="the running kernel $running"
		rm -f "$dropin"
		update-grub >/dev/null 2>&1 || :
		die "$grubcfg has no menu entry for $missing: the trial is not set up"
	fi
	grub-set-default --boot-directory="$boot" "$now"
	grub-reboot --boot-directory="$boot" "$try"
	echo "$prog: the next boot runs $rel once (Secure Boot: $sb); every later boot runs $running"
	echo "$prog: reboot now; on $rel, check it (rcuqs-ctl status), then: $prog commit"
	echo "$prog: if $rel does not come up, reset the machine: it boots $running again"
	;;
commit)
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	case $running in
	*rcuqs*) ;;
	*) die "the running kernel $running is not an rcuqs kernel: boot the rcuqs kernel on trial first ($prog trial)" ;;
	esac
	[ -d "$root/sys/kernel/rcu_qs" ] ||
		die "$running lacks /sys/kernel/rcu_qs: not a working rcuqs kernel; not committed"
	if [ -f "$root/etc/rcuqs/active" ]; then
		rcuqs-ctl ${root:+--root "$root"} verify >/dev/null 2>&1 ||
			die "rcuqs-ctl verify fails on $running (see its output); not committed"
	fi
	need_grub_tools
	rm -f "$dropin"
	update-grub >/dev/null 2>&1 || die "update-grub failed"
	if [ "$(grub_default)" = saved ]; then
		e=$(entry "$running")
		[ -n "$e" ] || die "$grubcfg has no menu entry for $running"
		grub-set-default --boot-directory="$boot" "$e"
	fi
	echo "$prog: $running committed: GRUB's default is the administrator's GRUB_DEFAULT=$(grub_default) again"
	;;
abort)
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	need_grub_tools
	if [ -f "$dropin" ]; then
		rm -f "$dropin"
		update-grub >/dev/null 2>&1 || die "update-grub failed"
		echo "$prog: trial forgotten: GRUB_DEFAULT=$(grub_default) again"
	else
		echo "$prog: no trial set up"
	fi
	;;
status)
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	echo "running: $running"
	echo "newest rcuqs kernel: $(newest_rcuqs | grep . || echo none)"
	echo "Secure Boot: $(sb_state)"
	echo "GRUB_DEFAULT: $(grub_default)$([ -f "$dropin" ] && echo " (rcuqs-kernel trial)")"
	if command -v grub-editenv >/dev/null 2>&1 && [ -f "$boot/grub/grubenv" ]; then
		grub-editenv "$boot/grub/grubenv" list | sed -n 's/^next_entry=/next boot (once): /p; s/^saved_entry=/saved default: /p'
	fi
	;;
-h | --help | help)
	usage
	;;
*)
	usage >&2
	exit 2
	;;
esac
