#!/bin/sh
# check-trial.sh: rcuqs-kernel (scripts/rcuqs-kernel.sh) against a fake
# root: TAP to $RESULTS/trial.tap. GRUB's tools are stubs on PATH
# (tests/lib/grub-stubs.sh, shared with tests/ansible): update-grub writes a grub.cfg as grub-mkconfig does (00_header's default
# from GRUB_DEFAULT in /etc/default/grub and the drop-ins in order, "saved"
# as ${saved_entry}, the one-shot next_entry first; 10_linux's top entry
# for the highest release and the "Advanced options" submenu with an entry
# per kernel, ids gnulinux-RELEASE-advanced-UUID), grub-reboot,
# grub-set-default and grub-editenv edit the fake grubenv. boots() models
# what GRUB boots next and after from grub.cfg and grubenv, independently
# of rcuqs-kernel's own reading; the real GRUB is make check-quickstart's
# part (a VM booted through GRUB).
#
#   - trial picks the newest installed rcuqs kernel (a real one over a
#     lean one of the same version), writes the drop-in GRUB_DEFAULT=saved
#     (the administrator's /etc/default/grub byte for byte as it was),
#     keeps the running kernel the saved default and boots the rcuqs
#     kernel's entry once: GRUB boots it once, then the running kernel
#   - refusals change nothing: no rcuqs kernel, a lean one, a non-rcuqs
#     release, the running one, Secure Boot on with an unsigned image, no
#     menu entry for the running kernel, update-grub failing, a later
#     drop-in that sets GRUB_DEFAULT (named), the newest kernel once
#     rejected (named; trial RELEASE tries it again)
#   - Secure Boot on with an image sbsign signed: accepted
#   - commit: refused off the rcuqs kernel, on one without
#     /sys/kernel/rcu_qs, and with a recorded profile that rcuqs-ctl
#     verify (a stub, asked on the same root) finds drifted; then the
#     drop-in goes and GRUB_DEFAULT=0 boots it; with the administrator's
#     own GRUB_DEFAULT=saved, the saved default becomes the rcuqs kernel;
#     with a GRUB_DEFAULT (a title path) or a rollback (a newer, untried
#     kernel installed) that would boot another kernel, the committed one
#     stays the default by the saved entry, and the other is named
#   - abort: before the reboot it cancels the one-shot entry; after a
#     failed trial, on the previous kernel, every later boot runs that
#     kernel (not the rejected one GRUB_DEFAULT=0 would boot); the drop-in
#     goes once the rejected kernel is removed
#   - the package's purge during a trial removes the drop-in, the
#     records and the trial's one-shot entry
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
mkdir -p "$RESULTS"
tap=$RESULTS/trial.tap
: >"$tap"
. "$top/scripts/tap.sh"
. "$top/tests/lib/grub-stubs.sh"
rk=$top/scripts/rcuqs-kernel.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$scratch/out

# Stubs.
mkdir -p "$scratch/bin"
shebang() { echo '#!/bin/sh'; }
grub_stubs "$scratch/bin" shebang
# rcuqs-ctl: verify's answer is STUB_VERIFY_RC; its arguments are kept.
cat >"$scratch/bin/rcuqs-ctl" <<'EOF'
#!/bin/sh
echo "$*" >>"$RCUQS_ROOT/../rcuqs-ctl.args"
exit "${STUB_VERIFY_RC:-0}"
EOF
# systemctl: failed units are STUB_FAILED; reboot is recorded.
cat >"$scratch/bin/systemctl" <<'EOF'
#!/bin/sh
case "$*" in
*list-units*) [ -z "${STUB_FAILED:-}" ] || printf '%s loaded failed failed x\n' $STUB_FAILED ;;
*reboot*) echo reboot >>"$RCUQS_ROOT/../systemctl.log" ;;
esac
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
# GRUB, modelled for the stub's grub.cfg: boots N prints the releases the
# next N boots run, as GRUB chooses them from grub.cfg and grubenv (the
# one-shot next_entry first, cleared as GRUB's save_env does; otherwise
# grub.cfg's default, ${saved_entry} read from grubenv; an index, or an
# id path, of the stub's menu; an entry that does not exist: the first).
boots() {
	i=0 seq=""
	while [ $i -lt "$1" ]; do
		i=$((i + 1))
		spec=$(env_of next_entry)
		if [ -n "$spec" ]; then
			grep -v '^next_entry=' "$r/boot/grub/grubenv" >"$r/boot/grub/grubenv.model" || :
			mv "$r/boot/grub/grubenv.model" "$r/boot/grub/grubenv"
		else
			spec=$(sed -n 's/^   set default="\(.*\)"$/\1/p' "$r/boot/grub/grub.cfg" | grep -v next_entry)
			[ "$spec" != '${saved_entry}' ] || spec=$(env_of saved_entry)
		fi
		first=$(sed -n '/gnulinux-simple-/{n;s/.*vmlinuz-\([^ ]*\) .*/\1/p;q}' "$r/boot/grub/grub.cfg")
		case $spec in
		"gnulinux-advanced-$u>gnulinux-"*"-advanced-$u")
			k=${spec#"gnulinux-advanced-$u>gnulinux-"}
			k=${k%"-advanced-$u"}
			grep -q "'gnulinux-$k-advanced-$u'" "$r/boot/grub/grub.cfg" || k=$first ;;
		*) k=$first ;;
		esac
		seq="$seq${seq:+ }$k"
	done
	echo "$seq"
}
# expect_boots N "R1 R2 ...": the next N boots run those, said in $out.
expect_boots() {
	got=$(boots "$1")
	echo "boots: $got (expected $2)" >>"$out"
	[ "$got" = "$2" ]
}

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
grep -q 'GRUB_DEFAULT: saved (rcuqs-kernel, .*rcuqs-trial.cfg; the administrator.s: 0)' "$out" &&
	grep -qx 'on trial: 6.1.193-rcuqs2' "$out" &&
	grep -q '^next boot (once): 6.1.193-rcuqs2 ' "$out" && grep -q '^default boot: 6.1.0-28-amd64 ' "$out"
result $? "status names the trial's GRUB_DEFAULT, the release on trial, the next boot and the default" "$out"
expect_boots 3 "6.1.193-rcuqs2 6.1.0-28-amd64 6.1.0-28-amd64"
result $? "GRUB (modelled): the trial's kernel boots once, then the running kernel on every boot" "$out"

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
: >"$scratch/update-grub.fail"
refused "trial whose update-grub fails is refused, the drop-in removed" "update-grub failed" trial
rm "$scratch/update-grub.fail"

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
	grep -q 'GRUB_DEFAULT=0 again, and it boots 6.1.192-rcuqs2' "$out" &&
	expect_boots 2 "6.1.192-rcuqs2 6.1.192-rcuqs2"
result $? "commit on the rcuqs kernel: the drop-in gone, the administrator's GRUB_DEFAULT=0 again, which boots it every time" "$out"
# The administrator's GRUB_DEFAULT names another kernel by its titles:
# commit keeps the committed kernel the default by the saved entry.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
echo 'GRUB_DEFAULT="Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux 6.1.0-28-amd64"' >>"$r/etc/default/grub"
update-grub
"$rk" trial >"$out" 2>&1 || echo "trial failed" >>"$out"
expect_boots 1 "6.1.192-rcuqs2" || echo "trial boot wrong" >>"$out"
mkdir -p "$r/sys/kernel/rcu_qs"
RCUQS_UNAME=6.1.192-rcuqs2 "$rk" commit >>"$out" 2>&1 || echo "commit failed" >>"$out"
expect_boots 2 "6.1.192-rcuqs2 6.1.192-rcuqs2" || echo "after commit wrong" >>"$out"
grep -q 'would boot 6.1.0-28-amd64, which is not committed' "$out" && ! grep -q 'failed\|wrong' "$out"
result $? "GRUB_DEFAULT by title path (submenu>entry) naming another kernel: commit keeps the committed kernel the default, said" "$out"
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
RCUQS_UNAME=6.1.192-rcuqs2
mkdir -p "$r/sys/kernel/rcu_qs"
"$rk" commit >>"$out" 2>&1 || echo "commit failed" >>"$out"
[ "$(env_of saved_entry)" = "gnulinux-advanced-$u>gnulinux-6.1.192-rcuqs2-advanced-$u" ] ||
	echo "saved_entry $(env_of saved_entry)" >>"$out"
[ -e "$r/etc/default/grub.d/rcuqs-trial.cfg" ] && echo "a drop-in left after commit" >>"$out"
! grep -q 'failed\|a drop-in\|saved_entry' "$out"
result $? "GRUB_DEFAULT=saved by the administrator: commit makes the rcuqs entry the saved default, no drop-in left" "$out"

# abort before the reboot: the one-shot boot is cancelled.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
"$rk" trial >/dev/null 2>&1
"$rk" abort >"$out" 2>&1
rc=$?
"$rk" status >>"$out" 2>&1
[ $rc = 0 ] && grep -q '6.1.192-rcuqs2 rejected; its one-shot boot is cancelled: GRUB boots 6.1.0-28-amd64 by default' "$out" &&
	! grep -q '^next boot (once)' "$out" && grep -qx 'rejected: 6.1.192-rcuqs2' "$out" &&
	expect_boots 3 "6.1.0-28-amd64 6.1.0-28-amd64 6.1.0-28-amd64"
result $? "abort before rebooting: the one-shot entry cleared, status shows none, every boot runs 6.1.0-28-amd64" "$out"

# abort after a failed trial (the reset booted the stock kernel again):
# the rejected kernel, which GRUB_DEFAULT=0 would boot, never boots again.
fresh 6.1.0-28-amd64 6.1.193-rcuqs2
"$rk" trial >/dev/null 2>&1
: >"$out"
expect_boots 2 "6.1.193-rcuqs2 6.1.0-28-amd64" || echo "trial's boots wrong" >>"$out"
"$rk" abort >>"$out" 2>&1 || echo "abort failed" >>"$out"
expect_boots 3 "6.1.0-28-amd64 6.1.0-28-amd64 6.1.0-28-amd64" || echo "after abort" >>"$out"
grep -q 'GRUB_DEFAULT=0 would boot 6.1.193-rcuqs2: .*rcuqs-trial.cfg stays' "$out" &&
	cmp -s "$scratch/grub.orig" "$r/etc/default/grub" && ! grep -q 'wrong\|failed\|after abort' "$out"
result $? "abort after a failed trial, on the stock kernel: every later boot runs 6.1.0-28-amd64, not the rejected 6.1.193 that GRUB_DEFAULT=0 would boot (the drop-in stays, said)" "$out"
refused "trial without a release refuses the newest kernel once rejected, naming it" "6.1.193-rcuqs2 was rejected.*rcuqs-kernel trial 6.1.193-rcuqs2" trial
# The rejected kernel removed: abort again gives GRUB_DEFAULT back.
rm "$r/boot/vmlinuz-6.1.193-rcuqs2"
update-grub
"$rk" abort >"$out" 2>&1
rc=$?
[ $rc = 0 ] && [ ! -e "$r/etc/default/grub.d/rcuqs-trial.cfg" ] && grep -q 'administrator.s again (0)' "$out" &&
	expect_boots 2 "6.1.0-28-amd64 6.1.0-28-amd64"
result $? "abort once the rejected kernel is removed: the drop-in gone, GRUB_DEFAULT=0 boots 6.1.0-28-amd64" "$out"

# A rollback: 6.1.193 failed; 6.1.192 tried and committed: every later
# boot runs 6.1.192, not the untried 6.1.193 that sorts highest.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2 6.1.193-rcuqs2
: >"$out"
"$rk" trial >>"$out" 2>&1 && expect_boots 2 "6.1.193-rcuqs2 6.1.0-28-amd64" || echo "trial of 6.1.193 failed" >>"$out"
"$rk" abort >>"$out" 2>&1 || echo "abort failed" >>"$out"
"$rk" trial 6.1.192-rcuqs2 >>"$out" 2>&1 && expect_boots 1 "6.1.192-rcuqs2" || echo "trial of 6.1.192 failed" >>"$out"
mkdir -p "$r/sys/kernel/rcu_qs"
RCUQS_UNAME=6.1.192-rcuqs2 "$rk" commit >>"$out" 2>&1 || echo "commit failed" >>"$out"
expect_boots 3 "6.1.192-rcuqs2 6.1.192-rcuqs2 6.1.192-rcuqs2" || echo "after commit" >>"$out"
RCUQS_UNAME=6.1.192-rcuqs2 "$rk" status >>"$out" 2>&1
grep -q 'GRUB_DEFAULT=0 would boot 6.1.193-rcuqs2, which is not committed' "$out" &&
	grep -qx 'committed: 6.1.192-rcuqs2' "$out" && grep -qx 'rejected: 6.1.193-rcuqs2' "$out" &&
	! grep -q 'failed\|after commit' "$out"
result $? "rollback: 6.1.193 rejected, 6.1.192 tried and committed: every later boot runs 6.1.192, the untried 6.1.193 named" "$out"

# A drop-in read after rcuqs's that sets GRUB_DEFAULT: the trial cannot
# work; refused, naming it, nothing changed.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
printf 'GRUB_DEFAULT=0\n' >"$r/etc/default/grub.d/zz-local.cfg"
update-grub
refused "trial with a later drop-in that sets GRUB_DEFAULT is refused, naming it, nothing changed" \
	"zz-local.cfg sets GRUB_DEFAULT after .*rcuqs-trial.cfg" trial
expect_boots 2 "6.1.192-rcuqs2 6.1.192-rcuqs2" >>"$out" 2>&1
result $? "... and GRUB boots as before" "$out"

# A lean build beside the real one of the same version: the real one.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2 6.1.192-rcuqs2-lean
"$rk" status >"$out" 2>&1
"$rk" trial >>"$out" 2>&1
rc=$?
[ $rc = 0 ] && grep -qx 'newest rcuqs kernel: 6.1.192-rcuqs2' "$out" && grep -q 'next boot runs 6.1.192-rcuqs2 once' "$out"
result $? "6.1.192-rcuqs2 and 6.1.192-rcuqs2-lean installed: status and trial take the real kernel" "$out"

# Purge during an uncommitted trial: the drop-in, the records and the
# one-shot entry go (the package's postrm, on the same root).
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
"$rk" trial >/dev/null 2>&1
RCUQS_POSTRM_TEST_ROOT=$r sh "$top/debian/rcuqs.postrm" purge >"$out" 2>&1
rc=$?
ls -R "$r/etc/default" "$r/var" >>"$out" 2>&1
[ $rc = 0 ] && [ ! -e "$r/etc/default/grub.d/rcuqs-trial.cfg" ] && [ ! -e "$r/var/lib/rcuqs" ] &&
	[ -z "$(env_of next_entry)" ] && grep -q 'run update-grub' "$out" &&
	cmp -s "$scratch/grub.orig" "$r/etc/default/grub"
result $? "purge during a trial: rcuqs-trial.cfg, /var/lib/rcuqs and the one-shot entry gone, update-grub said due, /etc/default/grub as it was" "$out"

"$rk" bogus >"$out" 2>&1
[ $? = 2 ] && grep -q '^Usage: rcuqs-kernel trial' "$out"
result $? "an unknown verb: usage on stderr, exit 2" "$out"

# --- automatic trials: arm (the kernel hook), assess (the unit at boot) ---

# arm: a kernel just installed is armed for one boot, panic= on the
# trial's command line; GRUB's default stays the running kernel.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
rm -f "$scratch/systemctl.log"
"$rk" arm 6.1.192-rcuqs2 >"$out" 2>&1
rc=$?
"$rk" status --json >>"$out" 2>&1
[ $rc = 0 ] && grep -q 'armed for one trial boot' "$out" &&
	grep -qx 'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX panic=10"' "$r/etc/default/grub.d/rcuqs-trial.cfg" &&
	grep -q '"trial":"6.1.192-rcuqs2"' "$out" && grep -q '"next_boot":"6.1.192-rcuqs2","default_boot":"6.1.0-28-amd64"' "$out" &&
	expect_boots 1 "6.1.192-rcuqs2"
result $? "arm (the kernel hook's verb): the new kernel armed for one boot with panic=10, status --json says trial, next and default boot" "$out"
# assess on the trial kernel, healthy: committed, no reboot.
mkdir -p "$r/sys/kernel/rcu_qs"
RCUQS_UNAME=6.1.192-rcuqs2 "$rk" assess >"$out" 2>&1
rc=$?
RCUQS_UNAME=6.1.192-rcuqs2 "$rk" status --json >>"$out" 2>&1
[ $rc = 0 ] && [ ! -e "$scratch/systemctl.log" ] && [ ! -e "$r/etc/default/grub.d/rcuqs-trial.cfg" ] &&
	grep -q '"committed":"6.1.192-rcuqs2"' "$out" && grep -q '"trial":null' "$out" &&
	grep -q '"outcome":"committed","reason":"the trial boot.s health checks passed"' "$out" &&
	expect_boots 2 "6.1.192-rcuqs2 6.1.192-rcuqs2"
result $? "assess on the trial kernel, checks passing: committed (the drop-in and panic= gone), the outcome in status --json, no reboot" "$out"

# assess with a failing check: rejected, a reboot into the previous kernel.
assess_fails() { # NAME PATTERN: set up by the caller; assess must reject with PATTERN
	rm -f "$scratch/systemctl.log"
	RCUQS_UNAME=6.1.192-rcuqs2 "$rk" assess >"$out" 2>&1
	rc=$?
	RCUQS_UNAME=6.1.192-rcuqs2 "$rk" status >>"$out" 2>&1
	[ $rc = 1 ] && grep -q "6.1.192-rcuqs2 rejected: $2" "$out" && grep -qx reboot "$scratch/systemctl.log" &&
		grep -qx 'rejected: 6.1.192-rcuqs2' "$out" && grep -q "^last assessment: .* 6.1.192-rcuqs2 rejected: $2" "$out" &&
		expect_boots 2 "6.1.0-28-amd64 6.1.0-28-amd64"
	result $? "$1" "$out"
}
armed_booted() { # a trial of 6.1.192 armed from 6.1.0-28 and booted
	fresh 6.1.0-28-amd64 6.1.192-rcuqs2
	"$rk" arm 6.1.192-rcuqs2 >/dev/null 2>&1
	boots 1 >/dev/null
	mkdir -p "$r/sys/kernel/rcu_qs"
}
armed_booted
mkdir -p "$r/etc/rcuqs/kernel-checks.d"
printf '#!/bin/sh
exit 3
' >"$r/etc/rcuqs/kernel-checks.d/50-app"
chmod +x "$r/etc/rcuqs/kernel-checks.d/50-app"
assess_fails "assess: the administrator's check fails: rejected, named, a reboot into 6.1.0-28 asked, every later boot runs it" \
	"the check .*kernel-checks.d/50-app failed (exit 3)"
armed_booted
STUB_FAILED="foo.service bar.mount"
export STUB_FAILED
assess_fails "assess: the system is degraded: rejected, the failed units named" "the system is degraded: failed units: foo.service bar.mount"
unset STUB_FAILED
armed_booted
mkdir -p "$r/etc/rcuqs" && echo latency >"$r/etc/rcuqs/active"
STUB_VERIFY_RC=5
export STUB_VERIFY_RC
assess_fails "assess: rcuqs-ctl verify fails: rejected" "rcuqs-ctl verify fails"
unset STUB_VERIFY_RC
armed_booted
rmdir "$r/sys/kernel/rcu_qs"
assess_fails "assess: no /sys/kernel/rcu_qs: rejected" "6.1.192-rcuqs2 lacks /sys/kernel/rcu_qs"

# The trial kernel never came up (a panic and panic=, or a reset): the
# next assess, on the previous kernel, rejects it.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
"$rk" arm 6.1.192-rcuqs2 >/dev/null 2>&1
"$rk" assess >"$out" 2>&1
grep -q 'armed for the next boot' "$out" || echo "before the trial boot: not said armed" >>"$out"
boots 1 >/dev/null
"$rk" assess >>"$out" 2>&1
rc=$?
"$rk" status >>"$out" 2>&1
[ $rc = 0 ] && grep -q '6.1.192-rcuqs2 rejected: it did not come up' "$out" && grep -qx 'rejected: 6.1.192-rcuqs2' "$out" &&
	! grep -q 'not said' "$out" && expect_boots 3 "6.1.0-28-amd64 6.1.0-28-amd64 6.1.0-28-amd64"
result $? "assess on the previous kernel after the trial kernel did not come up: rejected, said why, every later boot runs 6.1.0-28" "$out"

# arm of the running kernel's release (a rebuild of the same version,
# installed over it): no trial can be armed (nothing of the old build is
# left), GRUB as it was, and a warning that says so.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
RCUQS_UNAME=6.1.192-rcuqs2 "$rk" commit >/dev/null 2>&1
before=$(snap)
RCUQS_UNAME=6.1.192-rcuqs2 "$rk" arm 6.1.192-rcuqs2 >"$out" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(snap)" = "$before" ] &&
	grep -q 'WARNING: 6.1.192-rcuqs2 is the running kernel.s release: its files were replaced in place.*untried' "$out"
result $? "arm of the running kernel's release (replaced in place): nothing armed, GRUB as it was, a warning that it runs untried" "$out"

# RCUQS_AUTO_TRIAL=no: arm arms nothing (GRUB as the package left it).
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
printf '# rcuqs-kernel(8)\nRCUQS_AUTO_TRIAL=no\n' >"$r/etc/default/rcuqs-kernel"
before=$(snap)
"$rk" arm 6.1.192-rcuqs2 >"$out" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(snap)" = "$before" ] && grep -q 'no trial armed (RCUQS_AUTO_TRIAL=no' "$out"
result $? "arm with RCUQS_AUTO_TRIAL=no in /etc/default/rcuqs-kernel: nothing armed, nothing changed, said" "$out"
# A refused trial (Secure Boot on, unsigned): the running kernel stays
# the default all the same, loudly.
fresh 6.1.0-28-amd64 6.1.192-rcuqs2
mkdir -p "$r/${sbvar%/*}"
printf '\006\000\000\000\001' >"$r/$sbvar"
"$rk" arm 6.1.192-rcuqs2 >"$out" 2>&1
rc=$?
[ $rc = 0 ] && grep -q 'WARNING: 6.1.192-rcuqs2 installed, but its trial boot could not be armed: Secure Boot is on' "$out" &&
	grep -q 'GRUB keeps booting 6.1.0-28-amd64 by default' "$out" && expect_boots 2 "6.1.0-28-amd64 6.1.0-28-amd64"
result $? "arm refused (Secure Boot on, unsigned): warned, and GRUB keeps booting the running kernel, not the new one" "$out"
printf '# bad\nRCUQS_TRIAL_PANIC=ten\n' >"$r/etc/default/rcuqs-kernel"
rm -f "$r/$sbvar"
refused "a bad RCUQS_TRIAL_PANIC in /etc/default/rcuqs-kernel: trial refused, naming it" "RCUQS_TRIAL_PANIC=ten: not a number" trial

tap_end trial
echo "trial: $n tests, $failed failed"
