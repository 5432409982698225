# shellcheck shell=sh
# grub-stubs.sh: GRUB's tools as stubs acting on a fake root, for the
# tests of rcuqs-kernel (tests/trial) and of the Ansible example
# (tests/ansible). Sourced; then
#
#   grub_stubs DIR HEADER
#
# writes DIR/update-grub, grub-reboot, grub-set-default and grub-editenv,
# each beginning with what the command HEADER NAME prints (at least the
# "#!/bin/sh" line; tests/ansible's also refuses a real root and logs the
# call). They act on $RCUQS_ROOT, as rcuqs-kernel does:
#   - update-grub writes a grub.cfg as grub-mkconfig does: GRUB_DEFAULT and
#     the command line from /etc/default/grub and then
#     /etc/default/grub.d/*.cfg in order, 00_header's default ("saved" is
#     ${saved_entry}; the one-shot next_entry first), 10_linux's top entry
#     for the highest release and the "Advanced options" submenu with an
#     entry and a recovery entry per kernel, ids
#     gnulinux-RELEASE-advanced-UUID, newest first, uuid fixed. It fails as
#     grub-probe can while $RCUQS_ROOT/../update-grub.fail exists, and
#     leaves out the release $STUB_DROP when set;
#   - grub-reboot and grub-set-default record next_entry and saved_entry
#     in $RCUQS_ROOT/boot/grub/grubenv (--boot-directory must be the fake
#     root's /boot); grub-editenv lists and unsets there.

grub_stubs() {
	{
		"$2" update-grub
		cat <<'EOF'
set -eu
if [ -e "$RCUQS_ROOT/../update-grub.fail" ]; then
	echo "/usr/sbin/grub-probe: error: failed to get canonical path of 'overlay' (test stub)." >&2
	exit 1
fi
b=$RCUQS_ROOT/boot
GRUB_DEFAULT=0 GRUB_CMDLINE_LINUX="" GRUB_CMDLINE_LINUX_DEFAULT=""
. "$RCUQS_ROOT/etc/default/grub"
for f in "$RCUQS_ROOT"/etc/default/grub.d/*.cfg; do
	[ -f "$f" ] && . "$f"
done
[ "$GRUB_DEFAULT" != saved ] || GRUB_DEFAULT='${saved_entry}'
args=$(echo "$GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT" | tr -s ' ' | sed 's/^ //; s/ $//')
rels=$(for f in "$b"/vmlinuz-*; do [ -f "$f" ] && echo "${f##*/vmlinuz-}"; done | sort -V -r)
[ -z "${STUB_DROP:-}" ] || rels=$(echo "$rels" | grep -vx "$STUB_DROP")
u=0123-abcd
first=$(echo "$rels" | head -n1)
{
	echo 'if [ -s $prefix/grubenv ]; then'
	echo '  load_env'
	echo 'fi'
	echo 'if [ "${next_entry}" ] ; then'
	echo '   set default="${next_entry}"'
	echo '   set next_entry='
	echo '   save_env next_entry'
	echo '   set boot_once=true'
	echo 'else'
	echo "   set default=\"$GRUB_DEFAULT\""
	echo 'fi'
	echo "menuentry 'Debian GNU/Linux' --class debian \$menuentry_id_option 'gnulinux-simple-$u' {"
	echo "	linux /boot/vmlinuz-$first root=UUID=$u ro $args"
	echo "}"
	echo "submenu 'Advanced options for Debian GNU/Linux' \$menuentry_id_option 'gnulinux-advanced-$u' {"
	for r in $rels; do
		echo "	menuentry 'Debian GNU/Linux, with Linux $r' --class debian \$menuentry_id_option 'gnulinux-$r-advanced-$u' {"
		echo "		linux /boot/vmlinuz-$r root=UUID=$u ro $args"
		echo "	}"
		echo "	menuentry 'Debian GNU/Linux, with Linux $r (recovery mode)' --class debian \$menuentry_id_option 'gnulinux-$r-recovery-$u' {"
		echo "		linux /boot/vmlinuz-$r root=UUID=$u ro single $GRUB_CMDLINE_LINUX"
		echo "	}"
	done
	echo "}"
} >"$b/grub/grub.cfg.new"
mv "$b/grub/grub.cfg.new" "$b/grub/grub.cfg"
EOF
	} >"$1/update-grub"
	for t in grub-reboot:next_entry grub-set-default:saved_entry; do
		{
			"$2" "${t%%:*}"
			cat <<EOF
# --boot-directory=DIR ENTRY
d=\${1#--boot-directory=}
[ "\$d" = "\$RCUQS_ROOT/boot" ] || { echo "${t%%:*} (test stub): not the fake root's /boot" >&2; exit 99; }
env=\$d/grub/grubenv
touch "\$env"
grep -v '^${t#*:}=' "\$env" >"\$env.new" || :
echo "${t#*:}=\$2" >>"\$env.new"
mv "\$env.new" "\$env"
EOF
		} >"$1/${t%%:*}"
	done
	{
		"$2" grub-editenv
		cat <<'EOF'
# FILE list | FILE unset NAME...
f=$1 v=$2
shift 2
case $f in "$RCUQS_ROOT"/boot/grub/grubenv) ;; *) echo "grub-editenv (test stub): not the fake grubenv" >&2; exit 99 ;; esac
case $v in
list) cat "$f" 2>/dev/null ;;
unset)
	touch "$f"
	for n; do grep -v "^$n=" "$f" >"$f.new" || :; mv "$f.new" "$f"; done ;;
*) exit 99 ;;
esac
EOF
	} >"$1/grub-editenv"
	chmod +x "$1/update-grub" "$1/grub-reboot" "$1/grub-set-default" "$1/grub-editenv"
}
