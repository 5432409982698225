#!/bin/sh
# check-trial.sh: rcuqs-kernel (scripts/rcuqs-kernel.sh) against a fake
# root: TAP to $RESULTS/trial.tap. GRUB's tools are stubs on PATH:
# update-grub writes a grub.cfg as Debian's 10_linux does (a top entry for
# the highest release, the "Advanced options" submenu with an entry per
# kernel, ids gnulinux-RELEASE-advanced-UUID), grub-reboot and
# grub-set-default record next_entry and saved_entry in the fake grubenv.
# What the real GRUB does with them is make check-quickstart's part (a VM
# booted through GRUB).
#
#   - trial picks the newest installed rcuqs kernel, writes the drop-in
#     GRUB_DEFAULT=saved (the administrator's /etc/default/grub byte for
#     byte as it was), keeps the running kernel the saved default and
#     boots the rcuqs kernel's entry once (submenu>entry ids)
#   - refusals change nothing: no rcuqs kernel, a lean one, a non-rcuqs
#     release, the running one, Secure Boot on with an unsigned image, no
#     menu entry for the running kernel
#   - Secure Boot on with an image sbsign signed: accepted
#   - commit: refused off the rcuqs kernel, on one without
#     /sys/kernel/rcu_qs, and with a recorded profile that rcuqs-ctl
#     verify (a stub, asked on the same root) finds drifted; then the
#     drop-in goes; with the administrator's
#     own GRUB_DEFAULT=saved, the saved default becomes the rcuqs kernel
#   - abort forgets the trial
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
mkdir -p "$RESULTS"
tap=$RESULTS/trial.tap
: >"$tap"
. "$top/scripts/tap.sh"
rk=$top/scripts/rcuqs-kernel.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$scratch/out

# Stubs.
mkdir -p "$scratch/bin"
cat >"$scratch/bin/update-grub" <<'EOF'
#!/bin/sh
# 10_linux's shape, newest first; uuid fixed.
set -e
b=$RCUQS_ROOT/boot
[ -z "${STUB_UPDATE_GRUB_FAIL:-}" ] || exit 1
rels=$(for f in "$b"/vmlinuz-*; do [ -f "$f" ] && echo "${f##*/vmlinuz-}"; done | sort -V -r)
[ -z "${STUB_DROP:-}" ] || rels=$(echo "$rels" | grep -vx "$STUB_DROP")
u=0123-abcd
first=$(echo "$rels" | head -n1)
{
	echo "menuentry 'Debian GNU/Linux' --class debian \$menuentry_id_option 'gnulinux-simple-$u' {"
	echo "	linux /boot/vmlinuz-$first root=UUID=$u ro"
	echo "}"
	echo "submenu 'Advanced options for Debian GNU/Linux' \$menuentry_id_option 'gnulinux-advanced-$u' {"
	for r in $rels; do
		echo "	menuentry 'Debian GNU/Linux, with Linux $r' --class debian \$menuentry_id_option 'gnulinux-$r-advanced-$u' {"
		echo "		linux /boot/vmlinuz-$r root=UUID=$u ro"
		echo "	}"
		echo "	menuentry 'Debian GNU/Linux, with Linux $r (recovery mode)' --class debian \$menuentry_id_option 'gnulinux-$r-recovery-$u' {"
		echo "	}"
	done
	echo "}"
} >"$b/grub/grub.cfg"
EOF
for t in grub-reboot:next_entry grub-set-default:saved_entry; do
	cat >"$scratch/bin/${t%%:*}" <<EOF
#!/bin/sh
# --boot-directory=DIR ENTRY
d=\${1#--boot-directory=}
env=\$d/grub/grubenv
touch "\$env"
grep -v '^${t#*:}=' "\$env" >"\$env.new" || :
echo "${t#*:}=\$2" >>"\$env.new"
mv "\$env.new" "\$env"
EOF
done
# rcuqs-ctl: verify's answer is STUB_VERIFY_RC; its arguments are kept.
cat >"$scratch/bin/rcuqs-ctl" <<'EOF'
#!/bin/sh
echo "$*" >>"$RCUQS_ROOT/../rcuqs-ctl.args"
exit "${STUB_VERIFY_RC:-0}"
EOF
chmod +x "$scratch/bin"/*
PATH=$scratch/bin:$PATH
export PATH

# fresh [RUNNING [RELEASE...]]: a new fake root; sets r, RCUQS_ROOT, RCUQS_UNAME.
fresh() {
	r=$scratch/root
	rm -rf "$r"
	mkdir -p "$r/boot/grub" "$r/etc/default/grub.d" "$r/sys/kernel"
	printf 'GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX="quiet"\n' >"$r/etc/default/grub"
	RCUQS_UNAME=${1:-6.1.0-28-amd64}
	[ $# -gt 0 ] && shift
	for k in 6.1.0-28-amd64 "$@"; do printf 'image %s\n' "$k" >"$r/boot/vmlinuz-$k"; done
	RCUQS_ROOT=$r
	export RCUQS_ROOT RCUQS_UNAME
	update-grub
}
# snap: everything under the root, to compare before and after.
snap() { (cd "$r" && find . -type f -exec sha256sum {} + | sort; find . | sort); }
env_of() { grep "^$1=" "$r/boot/grub/grubenv" 2>/dev/null | cut -d= -f2-; }
u=0123-abcd

# trial: the newest rcuqs kernel, once; the running one stays the default.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2 6.1.193-rcuqs2
cp "$r/etc/default/grub" "$scratch/grub.orig"
"$rk" trial >"$out" 2>&1
rc=$?
cat "$r/boot/grub/grubenv" >>"$out" 2>&1
[ $rc = 0 ] && [ "$(env_of next_entry)" = "gnulinux-advanced-$u>gnulinux-6.1.193-rcuqs2-advanced-$u" ] &&
	[ "$(env_of saved_entry)" = "gnulinux-advanced-$u>gnulinux-6.1.0-28-amd64-advanced-$u" ] &&
	grep -qx 'GRUB_DEFAULT=saved' "$r/etc/default/grub.d/rcuqs-trial.cfg" &&
	cmp -s "$scratch/grub.orig" "$r/etc/default/grub" &&
	grep -q 'next boot runs 6.1.193-rcuqs2 once' "$out"
result $? "trial: the newest rcuqs kernel (6.1.193) once, the running 6.1.0-28-amd64 the saved default, GRUB_DEFAULT=saved by a drop-in, /etc/default/grub untouched" "$out"
"$rk" status >"$out" 2>&1
grep -q 'GRUB_DEFAULT: saved (rcuqs-kernel trial)' "$out"
result $? "status names the trial's GRUB_DEFAULT" "$out"

# Refusals: nothing changes.
refused() { # NAME PATTERN ARGS...: rcuqs-kernel ARGS fails, says PATTERN, root unchanged
	name=$1 pat=$2
	shift 2
	before=$(snap)
	"$rk" "$@" >"$out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		not_ok "$name" "accepted: $(cat "$out")"
	elif ! grep -Eq -- "$pat" "$out"; then
		not_ok "$name" "failed, but not with /$pat/: $(cat "$out")"
	elif [ "$(snap)" != "$before" ]; then
		not_ok "$name" "refused, but the root changed: $(cat "$out")"
	else
		ok "$name"
	fi
}
fresh
refused "trial without an rcuqs kernel is refused, nothing written" "no rcuqs kernel is installed" trial
fresh 6.1.0-28-amd64 6.1.192-rcuqs2-lean
refused "trial of a lean test kernel is refused" "lean test kernel" trial
refused "trial of a non-rcuqs release is refused" "not an rcuqs kernel" trial 6.1.0-28-amd64
refused "trial of a release that is not installed is refused" "vmlinuz-6.1.199-rcuqs2 is missing" trial 6.1.199-rcuqs2
refused "trial of a bad release is refused" "bad release" trial ../rcuqs
fresh 6.1.192-rcuqs2 6.1.192-rcuqs2
refused "trial of the running kernel is refused" "running already" trial 6.1.192-rcuqs2
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
STUB_DROP=6.1.0-28-amd64 update-grub
STUB_DROP=6.1.0-28-amd64
export STUB_DROP
refused "trial with no menu entry for the running kernel is refused, the drop-in removed" "no menu entry for the running kernel" trial
unset STUB_DROP
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
STUB_UPDATE_GRUB_FAIL=1
export STUB_UPDATE_GRUB_FAIL
refused "trial whose update-grub fails is refused, the drop-in removed" "update-grub failed" trial
unset STUB_UPDATE_GRUB_FAIL

# Secure Boot on: an unsigned image is refused, a signed one accepted.
sbvar=sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c
stub=/usr/lib/systemd/boot/efi/linuxx64.efi.stub
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
mkdir -p "$r/${sbvar%/*}"
printf '\006\000\000\000\001' >"$r/$sbvar"
update-grub
refused "Secure Boot on, unsigned image: trial refused, naming KSIGN_KEY" "Secure Boot is on and vmlinuz-6.1.192-rcuqs2 is not signed.*KSIGN_KEY" trial
if [ -f "$stub" ] && command -v sbsign >/dev/null && command -v openssl >/dev/null; then
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=rcuqs trial check/" \
		-keyout "$scratch/k" -out "$scratch/c" >/dev/null 2>&1
	sbsign --key "$scratch/k" --cert "$scratch/c" --output "$r/boot/vmlinuz-6.1.192-rcuqs2" "$stub" >/dev/null 2>&1
	"$rk" trial >"$out" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q 'Secure Boot: enabled' "$out" && [ -n "$(env_of next_entry)" ]
	result $? "Secure Boot on, image signed (sbsign): trial accepted" "$out"
	printf '\006\000\000\000\000' >"$r/$sbvar"
	"$rk" status >"$out" 2>&1
	grep -q 'Secure Boot: disabled' "$out"
	result $? "status reads Secure Boot off from the EFI variable" "$out"
else
	skip "Secure Boot on, image signed (sbsign): trial accepted" "systemd-boot-efi, sbsigntool or openssl missing"
fi

# commit.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
"$rk" trial >/dev/null 2>&1
refused "commit on a stock kernel is refused" "is not an rcuqs kernel" commit
RCUQS_UNAME=6.1.192-rcuqs2
refused "commit on an rcuqs release without /sys/kernel/rcu_qs is refused" "lacks /sys/kernel/rcu_qs" commit
mkdir -p "$r/sys/kernel/rcu_qs"
"$rk" commit >"$out" 2>&1
rc=$?
[ $rc = 0 ] && [ ! -e "$r/etc/default/grub.d/rcuqs-trial.cfg" ] && cmp -s "$scratch/grub.orig" "$r/etc/default/grub" &&
	grep -q 'GRUB_DEFAULT=0 again' "$out"
result $? "commit on the rcuqs kernel: the drop-in gone, the administrator's GRUB_DEFAULT=0 again" "$out"
# A recorded profile: commit only when rcuqs-ctl verify passes.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
"$rk" trial >/dev/null 2>&1
RCUQS_UNAME=6.1.192-rcuqs2
mkdir -p "$r/sys/kernel/rcu_qs" "$r/etc/rcuqs"
echo latency >"$r/etc/rcuqs/active"
rm -f "$scratch/rcuqs-ctl.args"
STUB_VERIFY_RC=5
export STUB_VERIFY_RC
refused "commit with a recorded profile that verify finds drifted is refused" "rcuqs-ctl verify fails on 6.1.192-rcuqs2" commit
STUB_VERIFY_RC=0
"$rk" commit >"$out" 2>&1
rc=$?
cat "$scratch/rcuqs-ctl.args" >>"$out" 2>/dev/null
[ $rc = 0 ] && [ ! -e "$r/etc/default/grub.d/rcuqs-trial.cfg" ] && grep -qx -- "--root $r verify" "$scratch/rcuqs-ctl.args"
result $? "commit with a recorded profile: rcuqs-ctl verify asked (on the same root), passes, committed" "$out"
unset STUB_VERIFY_RC
# The administrator's own GRUB_DEFAULT=saved: no drop-in; commit saves the rcuqs entry.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
sed -i 's/^GRUB_DEFAULT=0/GRUB_DEFAULT=saved/' "$r/etc/default/grub"
"$rk" trial >"$out" 2>&1 || echo "trial failed" >>"$out"
[ -e "$r/etc/default/grub.d/rcuqs-trial.cfg" ] && echo "a drop-in where GRUB_DEFAULT=saved already" >>"$out"
RCUQS_UNAME=6.1.192-rcuqs2
mkdir -p "$r/sys/kernel/rcu_qs"
"$rk" commit >>"$out" 2>&1 || echo "commit failed" >>"$out"
[ "$(env_of saved_entry)" = "gnulinux-advanced-$u>gnulinux-6.1.192-rcuqs2-advanced-$u" ] ||
	echo "saved_entry $(env_of saved_entry)" >>"$out"
! grep -q 'failed\|a drop-in\|saved_entry' "$out"
result $? "GRUB_DEFAULT=saved by the administrator: no drop-in; commit makes the rcuqs entry the saved default" "$out"

# abort.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
"$rk" trial >/dev/null 2>&1
"$rk" abort >"$out" 2>&1
rc=$?
[ $rc = 0 ] && [ ! -e "$r/etc/default/grub.d/rcuqs-trial.cfg" ] && grep -q 'trial forgotten' "$out"
result $? "abort: the drop-in gone" "$out"
"$rk" bogus >"$out" 2>&1
[ $? = 2 ] && grep -q '^Usage: rcuqs-kernel trial' "$out"
result $? "an unknown verb: usage on stderr, exit 2" "$out"

tap_end trial
echo "trial: $n tests, $failed failed"
