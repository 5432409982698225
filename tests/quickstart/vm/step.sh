#!/bin/bash
# step.sh: the quick start's runner inside make check-quickstart's VM, run
# at every boot by rcuqs-quickstart.service. /root/quickstart/plan holds
# the README quick start's commands that run on the machine (one a line,
# "COMMAND<TAB>COMMENT"; the host wrote it from README.md, and for the
# fleet from doc/fleet.md, at run time, less the build lines, which ran on
# the build host). The runner keeps its place in /root/quickstart/state on
# this disk, runs the commands in order from the folder /root/quickstart/dir
# names (/root/rcuqs; the fleet's repository), exactly as written, and
# prints to the serial console:
#   QS-BOOT b: RELEASE             at the start of each boot
#   QS-CMDLINE b: / QS-GRUBENV b:  /proc/cmdline, grub-editenv list
#   QS-TRIAL b:                    rcuqs-kernel status's trial lines
#   QS-SYSTEM b:                   systemctl is-system-running, once up
#   QS-STEP n: COMMAND             then its output
#   QS-RC n: STATUS                its exit status
#   QS-DPKG n: / QS-POLICY n:      after a command that ran apt or apt-get:
#                                  "STATUS PACKAGE VERSION" of each rcuqs
#                                  package dpkg knows, and apt-cache policy
#                                  of the installed ones (where each is from)
# A "reboot" ends the boot: the host starts QEMU again (-no-reboot). A
# reboot whose README comment says to pick Debian's kernel in GRUB's menu
# is done as an administrator at the console would: that entry is chosen
# for the next boot only (grub-reboot, QS-MENU line). After the last
# command: one more boot (the harness's, not the README's), whose QS-FINAL
# lines show the kernel and the rcuqs packages left; then poweroff.
#
# "step.sh --boot" (the unit's ExecStartPre) counts the boot and prints its
# QS-BOOT, QS-CMDLINE and QS-GRUBENV lines, and what rcuqs-kernel has on
# record (QS-TRIAL); the image orders rcuqs-kernel-assess.service after
# this unit's start, so that these are GRUB's state as the boot found it.
# The run proper waits for the boot to finish (as an administrator logs
# in after it), then runs the plan.
set -u
qs=/root/quickstart
state=$qs/state
exec </dev/null >/dev/ttyS0 2>&1
next=1 boot=0 final=
# shellcheck source=/dev/null # the runner's own state
[ ! -f "$state" ] || . "$state"
save() { printf 'next=%s boot=%s final=%s\n' "$next" "$boot" "$final" >"$state"; sync; }
if [ "${1:-}" = --boot ]; then
	[ ! -f "$qs/setup" ] || exit 0
	boot=$((boot + 1))
	save
	echo
	echo "QS-BOOT $boot: $(uname -r)"
	echo "QS-CMDLINE $boot: $(cat /proc/cmdline)"
	grub-editenv /boot/grub/grubenv list 2>&1 | sed "s/^/QS-GRUBENV $boot: /"
	if command -v rcuqs-kernel >/dev/null 2>&1; then
		rcuqs-kernel status 2>&1 | sed -n "s/^\(on trial\|committed\|rejected\|last assessment\): /QS-TRIAL $boot: \1: /p"
	fi
	exit 0
fi
# The image's first boot (QEMU -kernel, Debian's kernel): GRUB into the
# MBR, then power off; the quick start starts at the next boot, through GRUB.
if [ -f "$qs/setup" ]; then
	echo "QS-SETUP: $(uname -r): grub-install --target=i386-pc /dev/vda && update-grub"
	grub-install --target=i386-pc /dev/vda && update-grub
	echo "QS-SETUP-RC: $?"
	rm -f "$qs/setup"
	sync
	systemctl poweroff
	exit 0
fi
# The boot's units first (rcuqs-kernel-assess.service among them).
timeout 900 systemctl is-system-running --wait >/dev/null 2>&1 || :
sys=$(systemctl is-system-running 2>&1)
echo "QS-SYSTEM $boot: $sys"
# A unit of the boot asked for a reboot (rcuqs-kernel-assess.service,
# rejecting a kernel on trial): the plan goes on at the next boot.
[ "$sys" != stopping ] || exit 0
total=$(wc -l <"$qs/plan")
cd "$(cat "$qs/dir")" || exit 1
export HOME=/root TERM=dumb DEBIAN_FRONTEND=noninteractive \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
tab=$(printf '\t')
# rcuqs_pkgs: "STATUS PACKAGE VERSION" of every rcuqs package dpkg knows:
# the kernels, their headers and meta-packages, the tool.
rcuqs_pkgs() {
	dpkg-query -W -f='${db:Status-Abbrev}|${Package}|${Version}\n' 'linux-*rcuqs*' rcuqs 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $1); print $1, $2, $3 }'
}
# apt_state N: after step N, which ran apt: the rcuqs packages, and where
# apt has each installed one from.
apt_state() {
	rcuqs_pkgs | sed "s/^/QS-DPKG $1: /"
	pkgs=$(rcuqs_pkgs | awk '$1 ~ /^.i/ { print $2 }')
	# shellcheck disable=SC2086
	[ -z "$pkgs" ] || apt-cache policy $pkgs 2>&1 | sed "s/^/QS-POLICY $1: /"
}
while [ "$next" -le "$total" ]; do
	n=$next
	line=$(sed -n "${n}p" "$qs/plan")
	cmd=${line%%"$tab"*} comment=${line#*"$tab"}
	next=$((n + 1))
	save
	echo "QS-STEP $n: $cmd"
	if [ "$cmd" = reboot ]; then
		case $comment in
		*"Debian's kernel"*)
			# GRUB's menu, Advanced options, Debian's kernel: its entry id.
			id=$(awk -v q="'" '
				/^submenu / && /Advanced options/ { split($0, a, q); sub_id = "" }
				/^submenu / { for (i = 1; i <= NF; i++) if ($i == "$menuentry_id_option") { s = $(i + 1); gsub(q, "", s); sub_id = s } }
				/^\tmenuentry / && sub_id != "" && !/rcuqs/ && !/recovery/ {
					for (i = 1; i <= NF; i++) if ($i == "$menuentry_id_option") { e = $(i + 1); gsub(q, "", e); print sub_id ">" e; exit } }
				' /boot/grub/grub.cfg)
			echo "QS-MENU $n: Debian's kernel picked in GRUB's menu for the next boot: grub-reboot '$id'"
			grub-reboot "$id"
			;;
		esac
		echo "QS-RC $n: 0"
		sync
		systemctl reboot
		exit 0
	fi
	bash -c "$cmd"
	echo "QS-RC $n: $?"
	case $cmd in apt\ * | apt-get\ *) apt_state "$n" ;; esac
done
if [ -z "$final" ]; then
	final=1
	save
	echo "QS-STEP final: reboot (the harness's: the boot after the way back)"
	sync
	systemctl reboot
	exit 0
fi
echo "QS-FINAL uname: $(uname -r)"
echo "QS-FINAL rcuqs packages installed: $(rcuqs_pkgs | awk '$1 ~ /^.i/ { printf "%s ", $2 }')"
echo "QS-FINAL boot files: $(ls /boot | tr '\n' ' ')"
echo "QS-DONE"
sync
systemctl poweroff
