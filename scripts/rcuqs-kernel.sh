#!/bin/sh
# rcuqs-kernel: boot a newly installed rcuqs kernel once, on trial, and make
# it GRUB's default only once it has proved itself. Installed as
# /usr/sbin/rcuqs-kernel by "make install" and the rcuqs package; the
# manual is rcuqs-kernel(8).
#
#   rcuqs-kernel trial [RELEASE]   the next boot only boots RELEASE (the
#                                  newest installed rcuqs kernel by default)
#   rcuqs-kernel commit            on the rcuqs kernel: make it the default
#   rcuqs-kernel abort             reject the kernel on trial
#   rcuqs-kernel status [--json]   Secure Boot, the trial, what GRUB boots
#   rcuqs-kernel arm RELEASE       the kernel hook: arm RELEASE's trial
#   rcuqs-kernel assess            the unit at boot: commit or reject
#
# Why: installing a kernel package runs update-grub, and GRUB boots the
# release that sorts highest (6.1.192-rcuqs2 above Debian's 6.1.0-N) by
# default at once. With Secure Boot on, an unsigned image then does not
# boot at all, and a remote machine needs a console to get back. A trial
# boot uses GRUB's one-shot entry (grub-reboot, which needs
# GRUB_DEFAULT=saved): the next boot runs the rcuqs kernel, every later one
# the kernel running now, until "commit".
#
# The promise: GRUB's default (what every boot without a one-shot entry
# runs) is only ever a kernel that was running when trial, commit or abort
# ran. Where the administrator's GRUB_DEFAULT would boot another kernel
# (the one just rejected, or an untried newer one after a rollback), the
# drop-in stays with the kept kernel saved as the default, and the command
# says so. Every change is checked against what update-grub wrote
# (grub.cfg's default and the entry grubenv names); when GRUB would boot
# something else, the drop-in, grubenv and grub.cfg go back to what they
# were.
#
# Files: /etc/default/grub.d/rcuqs-trial.cfg (GRUB_DEFAULT=saved, written
# only when the administrator's GRUB_DEFAULT is another value: the
# administrator's /etc/default/grub is never edited), /boot/grub/grub.cfg
# (read), /boot/grub/grubenv (through grub-set-default, grub-reboot and
# grub-editenv), /var/lib/rcuqs/kernel/{trial,committed,rejected} (the
# release on trial, the last one committed, the ones rejected by abort).
# Exit codes: 0 done, 1 refused or failed (nothing changed), 2 usage.
# RCUQS_ROOT (a prefix for /boot, /etc, /sys, /var) and RCUQS_UNAME (the
# running release) are for tests.
set -eu

root=${RCUQS_ROOT:-}
boot=$root/boot
grubcfg=$boot/grub/grub.cfg
grubenv=$boot/grub/grubenv
dropin_dir=$root/etc/default/grub.d
dropin=$dropin_dir/rcuqs-trial.cfg
state=$root/var/lib/rcuqs/kernel
conffile=$root/etc/default/rcuqs-kernel
checks=$root/etc/rcuqs/kernel-checks.d
running=${RCUQS_UNAME:-$(uname -r)}
prog=rcuqs-kernel
backup=""
settled_other=""

die() {
	echo "$prog: $*" >&2
	exit 1
}
usage() {
	cat <<USAGE
Usage: $prog trial [RELEASE]
       $prog commit
       $prog abort
       $prog status [--json]
       $prog arm RELEASE
       $prog assess

Boot a newly installed rcuqs kernel once, on trial, before it becomes
GRUB's default.

  trial [RELEASE]  check Secure Boot, keep the running kernel GRUB's
                   default and boot RELEASE (the newest installed rcuqs
                   kernel if not given) at the next boot only
  commit           on the rcuqs kernel, once it works: make it GRUB's
                   default
  abort            reject the kernel on trial: cancel its one-shot boot
                   and keep the running (or last good) kernel the default
  status [--json]  Secure Boot, the trial, the last assessment, and what
                   GRUB boots next and after
  arm RELEASE      the kernel hook's: arm the trial of a kernel just
                   installed, or keep the running kernel the default
  assess           rcuqs-kernel-assess.service's, at boot: commit the
                   kernel on trial if its health checks pass, else
                   reject it and reboot into the previous kernel

See rcuqs-kernel(8).
USAGE
}

# The installed rcuqs kernels, oldest first as GRUB sorts them (sort -V);
# lean test kernels (tinyconfig) never boot a real machine: left out.
rcuqs_kernels() {
	for f in "$boot"/vmlinuz-*rcuqs*; do
		[ -f "$f" ] && echo "${f##*/vmlinuz-}"
	done | grep -v -e '\.\(old\|bak\|dpkg-.*\)$' -e '-lean$' | LC_ALL=C sort -V
}
newest_rcuqs() { rcuqs_kernels | tail -n 1; }

# State records in /var/lib/rcuqs/kernel: a release a line.
st_get() { if [ -f "$state/$1" ]; then sed -n '1p' "$state/$1"; fi; }
st_put() {
	mkdir -p "$state"
	printf '%s\n' "$2" >"$state/$1.tmp" && mv "$state/$1.tmp" "$state/$1"
}
rejected() { [ -f "$state/rejected" ] && grep -qxF -- "$1" "$state/rejected"; }
unreject() {
	rejected "$1" || return 0
	grep -vxF -- "$1" "$state/rejected" >"$state/rejected.tmp" || :
	mv "$state/rejected.tmp" "$state/rejected"
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
# /etc/default/grub.d/*.cfg in order; "0" when unset. admin_default: the
# same without rcuqs's drop-in, the administrator's own value.
grub_default() {
	(
		GRUB_DEFAULT=0
		# shellcheck disable=SC1090,SC1091
		[ -f "$root/etc/default/grub" ] && . "$root/etc/default/grub"
		for f in "$dropin_dir"/*.cfg; do
			[ -f "$f" ] || continue
			[ "${1:-}" != admin ] || [ "$f" != "$dropin" ] || continue
			# shellcheck disable=SC1090
			. "$f"
		done
		echo "$GRUB_DEFAULT"
	)
}
admin_default() { grub_default admin; }
# overriders: the drop-ins read after rcuqs's that set GRUB_DEFAULT.
overriders() {
	after=""
	for f in "$dropin_dir"/*.cfg; do
		if [ "$f" = "$dropin" ]; then
			after=1
		elif [ -n "$after" ] && [ -f "$f" ] &&
			grep -q '^[[:space:]]*\(export[[:space:]]\{1,\}\)\{0,1\}GRUB_DEFAULT=' "$f"; then
			printf '%s ' "$f"
		fi
	done
}

# menu: grub.cfg's menu entries, one a line: the index path (0, 2>3), the
# id path, the title path and the release the entry's "linux" line boots
# (empty for entries that boot no vmlinuz-*), tab-separated. The top level
# and one submenu level, as Debian's 10_linux writes them.
menu() {
	[ -r "$grubcfg" ] || die "$grubcfg is missing: is GRUB this machine's boot loader?"
	awk -v q="'" '
	function title(line,    s) {
		s = line; sub(/^[[:space:]]*(menuentry|submenu)[[:space:]]+/, "", s)
		if (substr(s, 1, 1) == q) { s = substr(s, 2); sub(q ".*", "", s); return s }
		if (substr(s, 1, 1) == "\"") { s = substr(s, 2); sub(/".*/, "", s); return s }
		sub(/[[:space:]].*/, "", s); return s
	}
	function id(line,    s) {
		if (!match(line, "[$]menuentry_id_option[[:space:]]+" q "[^" q "]*" q)) return ""
		s = substr(line, RSTART, RLENGTH); sub("^[^" q "]*" q, "", s); sub(q "$", "", s); return s
	}
	BEGIN { depth = 0; top = -1; sub_depth = -1; cur = "" }
	/^[[:space:]]*(menuentry|submenu)[[:space:]]/ {
		kind = $1; path = ""
		if (depth == 0) { top++; path = top; ids = id($0); titles = title($0) }
		else if (sub_depth >= 0 && depth == sub_depth + 1) {
			child++; path = top ">" child; ids = sub_id ">" id($0); titles = sub_title ">" title($0)
		}
		if (kind == "submenu" && depth == 0) { sub_depth = 0; sub_id = ids; sub_title = titles; child = -1 }
		else if (kind == "menuentry" && path != "") { cur = path "\t" ids "\t" titles; rel = ""; entry_depth = depth + 1 }
		if ($0 ~ /[{][[:space:]]*$/) depth++
		next
	}
	cur != "" && /^[[:space:]]*linux(efi|16)?[[:space:]]/ {
		if (match($2, /vmlinuz-[^[:space:]]+$/)) rel = substr($2, RSTART + 8)
	}
	/[{][[:space:]]*$/ { depth++ }
	/^[[:space:]]*[}][[:space:]]*$/ {
		depth--
		if (cur != "" && depth < entry_depth) { print cur "\t" rel; cur = "" }
		if (sub_depth >= 0 && depth == sub_depth) sub_depth = -1
	}' "$grubcfg"
}

# release_of SPEC: the release GRUB boots for the entry SPEC (GRUB's
# syntax: an index, an id or a title, ">" between submenu and entry); an
# entry that does not exist boots the first one, as GRUB does.
release_of() {
	menu | awk -F'\t' -v spec="$1" '
	function pick(    n, s, a, b, c, i) {
		n = split(spec, s, ">")
		if (n != split($1, a, ">")) return 0
		split($2, b, ">"); split($3, c, ">")
		for (i = 1; i <= n; i++)
			if (s[i] != a[i] && s[i] != b[i] && s[i] != c[i]) return 0
		return 1
	}
	NR == 1 { first = $4 }
	!found && pick() { print $4; found = 1 }
	END { if (!found) print first }'
}

# entry RELEASE: GRUB's id of the menu entry that boots RELEASE, as
# grub-reboot and grub-set-default take it ("SUBMENU_ID>ENTRY_ID" inside
# Debian's "Advanced options" submenu). Debian's 10_linux gives each entry
# an id, gnulinux-RELEASE-advanced-UUID (and -recovery-UUID for recovery
# mode, which is never chosen); titles change with GRUB_DISTRIBUTOR and
# translations, ids do not.
entry() {
	menu | awk -F'\t' -v rel="$1" '
	{ n = split($2, p, ">"); e = p[n] }
	$4 == rel && (index(e, "gnulinux-" rel "-advanced-") == 1 || e == "gnulinux-simple-" rel) { print $2; exit }'
}

# env_get NAME: NAME's value in grubenv (NAME=VALUE lines).
env_get() { if [ -f "$grubenv" ]; then sed -n "s/^$1=//p" "$grubenv" | tail -n 1; fi; }

# cfg_default: grub.cfg's default when no one-shot entry is set, as
# 00_header writes it ("${saved_entry}" for GRUB_DEFAULT=saved).
cfg_default() {
	# shellcheck disable=SC2016 # GRUB's variables, literally
	sed -n 's/^[[:space:]]*set default="\(.*\)"[[:space:]]*$/\1/p' "$grubcfg" | grep -vxF '${next_entry}' | tail -n 1
}
# default_release: what every boot without a one-shot entry runs.
default_release() {
	d=$(cfg_default)
	# shellcheck disable=SC2016
	[ "$d" != '${saved_entry}' ] || d=$(env_get saved_entry)
	release_of "${d:-0}"
}
# next_release: what the next boot runs.
next_release() {
	n=$(env_get next_entry)
	if [ -n "$n" ]; then release_of "$n"; else default_release; fi
}

need_grub_tools() {
	for tool in update-grub grub-reboot grub-set-default grub-editenv; do
		command -v "$tool" >/dev/null 2>&1 || die "$tool is missing: the trial boot needs GRUB (grub2-common)"
	done
}

# save_grub, undo: the drop-in, grubenv and grub.cfg as they were, put
# back when a step fails or GRUB would boot another kernel than it must;
# undo ends with the message.
save_grub() {
	backup=$(mktemp -d)
	for f in "$dropin" "$grubenv" "$grubcfg"; do
		if [ -f "$f" ]; then cp -p "$f" "$backup/${f##*/}"; else : >"$backup/${f##*/}.absent"; fi
	done
}
undo() {
	for f in "$dropin" "$grubenv" "$grubcfg"; do
		if [ -f "$backup/${f##*/}" ]; then
			cp -p "$backup/${f##*/}" "$f.rcuqs-tmp" && mv "$f.rcuqs-tmp" "$f"
		elif [ -f "$backup/${f##*/}.absent" ]; then
			rm -f "$f"
		fi
	done
	rm -rf "$backup"
	die "$*"
}
done_grub() { rm -rf "$backup"; }

# write_dropin [PANIC]: GRUB_DEFAULT=saved; with PANIC (a trial), panic=
# on every entry's command line while the trial is armed.
write_dropin() {
	mkdir -p "$dropin_dir"
	{
		echo "# Written by rcuqs-kernel: GRUB boots the saved entry (rcuqs-kernel status says which)."
		echo "GRUB_DEFAULT=saved"
		if [ "${1:-0}" != 0 ]; then
			echo "# A trial is armed: a panic resets the machine after $1 s, into the saved kernel."
			# shellcheck disable=SC2016 # grub-mkconfig expands it
			echo 'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX panic='"$1"'"'
		fi
	} >"$dropin.tmp"
	mv "$dropin.tmp" "$dropin"
}

# saved_in_force: update-grub made grub.cfg boot the saved entry; else
# undo, naming the drop-ins that set GRUB_DEFAULT after rcuqs's.
saved_in_force() {
	# shellcheck disable=SC2016
	[ "$(cfg_default)" = '${saved_entry}' ] && return 0
	o=$(overriders)
	undo "update-grub did not make GRUB boot the saved entry (grub.cfg's default is '$(cfg_default)')${o:+: ${o% } sets GRUB_DEFAULT after $dropin}; nothing changed"
}

# settle KEEP: GRUB's default boots KEEP from now on: by the
# administrator's GRUB_DEFAULT where that boots KEEP (the drop-in goes),
# else by GRUB_DEFAULT=saved with KEEP's entry saved (the drop-in stays or
# comes; settled_other says what the administrator's value would boot).
# Checked against what update-grub wrote.
settle() {
	e=$(entry "$1")
	[ -n "$e" ] || undo "$grubcfg has no menu entry for $1; nothing changed"
	a=$(admin_default)
	settled_other=""
	if [ "$a" = saved ]; then
		rm -f "$dropin"
		grub-set-default --boot-directory="$boot" "$e"
	else
		settled_other=$(release_of "$a")
		if [ "$settled_other" = "$1" ]; then
			settled_other=""
			rm -f "$dropin"
		else
			grub-set-default --boot-directory="$boot" "$e"
			write_dropin
		fi
	fi
	update-grub >/dev/null 2>&1 || undo "update-grub failed; nothing changed"
	[ -z "$settled_other" ] || saved_in_force
	got=$(default_release)
	[ "$got" = "$1" ] || undo "after update-grub, GRUB's default would boot ${got:-no kernel}, not $1; nothing changed"
}

# conf KEY DEFAULT: KEY's value in /etc/default/rcuqs-kernel (KEY=VALUE
# lines, read, never sourced; quotes around the value dropped).
conf() {
	v=""
	if [ -f "$conffile" ]; then
		v=$(sed -n "s/^[[:space:]]*$1=[\"']\{0,1\}\([^\"']*\)[\"']\{0,1\}[[:space:]]*\$/\1/p" "$conffile" | tail -n 1)
	fi
	echo "${v:-$2}"
}
# panic_seconds: panic= for the trial boot (RCUQS_TRIAL_PANIC), a number.
panic_seconds() {
	p=$(conf RCUQS_TRIAL_PANIC 10)
	case $p in
	'' | *[!0-9]* | 0?*) die "$conffile: RCUQS_TRIAL_PANIC=$p: not a number of seconds" ;;
	esac
	echo "$p"
}

# log MESSAGE: to stdout (the journal, under the unit) and to syslog.
log() {
	echo "$prog: $*"
	[ -n "$root" ] || ! command -v logger >/dev/null 2>&1 || logger -t "$prog" -- "$*" 2>/dev/null || :
}
# outcome RELEASE WORD REASON: the last assessment, for status.
outcome() {
	st_put last "$(date -u +%Y-%m-%dT%H:%M:%SZ) $1 $2${3:+: $3}"
}

# do_trial RELEASE: check RELEASE and arm its one-shot boot.
do_trial() {
	rel=$1
	case $rel in
	*rcuqs*) ;;
	*) die "$rel is not an rcuqs kernel (its release has no 'rcuqs')" ;;
	esac
	case $rel in
	*/* | .* | *[!A-Za-z0-9.+_~-]*) die "bad release '$rel'" ;;
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
	panic=$(panic_seconds)
	save_grub
	now=$(entry "$running")
	try=$(entry "$rel")
	if [ -z "$now" ] || [ -z "$try" ]; then
		# Installed a moment ago (the kernel hook runs before
		# zz-update-grub): its entry comes with update-grub.
		update-grub >/dev/null 2>&1 || undo "update-grub failed; the trial is not set up"
		now=$(entry "$running")
		try=$(entry "$rel")
	fi
	if [ -z "$now" ] || [ -z "$try" ]; then
		missing=$rel
		[ -n "$now" ] || missing="the running kernel $running"
		undo "$grubcfg has no menu entry for $missing: the trial is not set up"
	fi
	# The one-shot entry needs GRUB_DEFAULT=saved; the drop-in says so
	# without touching the administrator's file, and adds panic=N so
	# that a panic on the trial boot resets into the saved kernel. The
	# running kernel is saved before grub.cfg follows the saved entry.
	grub-set-default --boot-directory="$boot" "$now"
	write_dropin "$panic"
	update-grub >/dev/null 2>&1 || undo "update-grub failed; the trial is not set up"
	saved_in_force
	grub-reboot --boot-directory="$boot" "$try"
	n=$(next_release)
	d=$(default_release)
	{ [ "$n" = "$rel" ] && [ "$d" = "$running" ]; } ||
		undo "after update-grub, GRUB would boot ${n:-no kernel} next and ${d:-no kernel} after, not $rel once and then $running; the trial is not set up"
	done_grub
	st_put trial "$rel"
}

# do_commit: make the running kernel GRUB's default; the records.
do_commit() {
	need_grub_tools
	save_grub
	settle "$running"
	done_grub
	[ "$(st_get trial)" != "$running" ] || rm -f "$state/trial"
	unreject "$running"
	st_put committed "$running"
}

# do_abort: reject the kernel on trial; keep (sets $keep) the running
# kernel, or on the kernel on trial the default it was tried against.
do_abort() {
	t=$(st_get trial)
	next=$(env_get next_entry)
	keep=$running
	if [ -n "$t" ] && [ "$t" = "$running" ]; then
		keep=$(default_release)
		[ "$keep" != "$running" ] || keep=$(st_get committed)
		{ [ -n "$keep" ] && [ "$keep" != "$running" ]; } ||
			die "$running is on trial and GRUB has no other default to go back to: boot the previous kernel from GRUB's menu and run $prog abort there"
	fi
	need_grub_tools
	save_grub
	[ -z "$next" ] || grub-editenv "$grubenv" unset next_entry
	settle "$keep"
	done_grub
	if [ -n "$t" ]; then
		rm -f "$state/trial"
		rejected "$t" || printf '%s\n' "$t" >>"$state/rejected"
	fi
}

# working: the running kernel works as an rcuqs kernel (commit and the
# trial boot's checks alike); prints what fails and fails.
working() {
	[ -d "$root/sys/kernel/rcu_qs" ] || {
		echo "$running lacks /sys/kernel/rcu_qs: not a working rcuqs kernel"
		return 1
	}
	if [ -f "$root/etc/rcuqs/active" ] &&
		! rcuqs-ctl ${root:+--root "$root"} verify >/dev/null 2>&1; then
		echo "rcuqs-ctl verify fails on $running: the recorded profile '$(sed -n 1p "$root/etc/rcuqs/active")' is not in force"
		return 1
	fi
}

# health: the trial boot's checks; prints the first failure and fails.
health() {
	working || return 1
	if command -v systemctl >/dev/null 2>&1; then
		f=$(systemctl list-units --state=failed --plain --no-legend 2>/dev/null |
			awk '$1 != "rcuqs-kernel-assess.service" { printf "%s%s", s, $1; s = " " }')
		[ -z "$f" ] || {
			echo "the system is degraded: failed units: $f"
			return 1
		}
	fi
	for c in "$checks"/*; do
		{ [ -f "$c" ] && [ -x "$c" ]; } || continue
		case ${c##*/} in *.dpkg-* | *~ | .*) continue ;; esac
		rc=0
		timeout 300 "$c" >/dev/null 2>&1 || rc=$?
		[ $rc = 0 ] || {
			echo "the check $c failed (exit $rc)"
			return 1
		}
	done
}

# json_str TEXT: TEXT as a JSON string (backslash, quote and control
# characters escaped or dropped).
json_str() {
	printf '"%s"' "$(printf '%s' "$1" | tr -d '\000-\010\013-\037' | sed 's/\\/\\\\/g; s/"/\\"/g' | tr '\n\t' '  ')"
}
json_opt() { if [ -n "$1" ]; then json_str "$1"; else printf null; fi; }

verb=${1:-}
[ $# -gt 0 ] && shift
case $verb in
trial)
	[ $# -le 1 ] || {
		usage >&2
		exit 2
	}
	rel=${1:-}
	if [ -z "$rel" ]; then
		rel=$(newest_rcuqs)
		if [ -z "$rel" ]; then
			for f in "$boot"/vmlinuz-*rcuqs*-lean; do
				[ ! -f "$f" ] || die "${f##*/vmlinuz-} is a lean test kernel (tinyconfig): it does not boot a real machine, and no other rcuqs kernel is installed in $boot"
			done
			die "no rcuqs kernel is installed in $boot (apt install the packages make kernel-deb built first)"
		fi
		! rejected "$rel" ||
			die "the newest rcuqs kernel $rel was rejected ($prog abort); to try it again, name it: $prog trial $rel"
	fi
	do_trial "$rel"
	echo "$prog: the next boot runs $rel once (Secure Boot: $sb); every later boot runs $running"
	echo "$prog: reboot now; on $rel, check it (rcuqs-ctl status), then: $prog commit"
	echo "$prog: if $rel does not come up, reset the machine: it boots $running again; there, $prog abort rejects $rel"
	;;
arm)
	# The kernel hook's verb: RELEASE was just installed. Arm its trial
	# (the assessment unit commits or rejects it on its boot); where
	# that is refused, keep the running kernel GRUB's default all the
	# same, and say so. RCUQS_AUTO_TRIAL=no in /etc/default/rcuqs-kernel
	# turns it off.
	[ $# -eq 1 ] || {
		usage >&2
		exit 2
	}
	rel=$1
	case $(conf RCUQS_AUTO_TRIAL yes) in
	no | false | 0)
		echo "$prog: $rel installed; no trial armed (RCUQS_AUTO_TRIAL=no in $conffile)"
		exit 0
		;;
	esac
	case $rel in
	*-lean) exit 0 ;;
	"$running")
		# A build with the running kernel's release (a rebuild for a
		# new Debian revision of the same upstream version, or a
		# reinstall) replaced its files in place: there is no other
		# copy of it to try it against.
		log "WARNING: $rel is the running kernel's release: its files were replaced in place, and a new build there runs at the next boot untried (no trial: nothing of the old build is left to go back to). Build a new series version for a kernel of its own (kernel-patches/README)" >&2
		exit 0
		;;
	esac
	if msg=$( (do_trial "$rel") 2>&1); then
		log "$rel installed: armed for one trial boot at the next reboot; every later boot runs $running until its health checks pass there (rcuqs-kernel-assess.service)"
		exit 0
	fi
	echo "$prog: WARNING: $rel installed, but its trial boot could not be armed: ${msg#"$prog: "}" >&2
	if (need_grub_tools && save_grub && settle "$running" && done_grub) >/dev/null 2>&1; then
		echo "$prog: GRUB keeps booting $running by default; $rel is not booted" >&2
	else
		echo "$prog: WARNING: GRUB may boot $rel by default: check with $prog status" >&2
	fi
	exit 0
	;;
commit)
	[ $# -eq 0 ] || {
		usage >&2
		exit 2
	}
	case $running in
	*rcuqs*) ;;
	*) die "the running kernel $running is not an rcuqs kernel: boot the rcuqs kernel on trial first ($prog trial)" ;;
	esac
	why=$(working) || die "$why; not committed"
	do_commit
	outcome "$running" committed "by $prog commit"
	if [ -n "$settled_other" ]; then
		echo "$prog: $running committed: GRUB boots it by default (its saved entry; $dropin stays)"
		echo "$prog: the administrator's GRUB_DEFAULT=$(admin_default) would boot $settled_other, which is not committed: try it ($prog trial $settled_other) or remove it"
	else
		echo "$prog: $running committed: GRUB's default is the administrator's GRUB_DEFAULT=$(admin_default) again, and it boots $running"
	fi
	;;
abort)
	[ $# -eq 0 ] || {
		usage >&2
		exit 2
	}
	need_grub_tools
	t=$(st_get trial)
	next=$(env_get next_entry)
	if [ -z "$t" ] && [ -z "$next" ] && [ ! -f "$dropin" ]; then
		echo "$prog: no trial set up"
		exit 0
	fi
	do_abort
	cancelled=""
	[ -z "$next" ] || cancelled="; its one-shot boot is cancelled"
	if [ -n "$t" ]; then
		outcome "$t" rejected "by $prog abort"
		echo "$prog: $t rejected$cancelled: GRUB boots $keep by default"
	else
		echo "$prog: trial forgotten$cancelled: GRUB boots $keep by default"
	fi
	if [ -n "$settled_other" ]; then
		echo "$prog: the administrator's GRUB_DEFAULT=$(admin_default) would boot $settled_other: $dropin stays (GRUB_DEFAULT=saved) until that kernel is removed (then run $prog abort again) or tried and committed"
	else
		echo "$prog: GRUB_DEFAULT is the administrator's again ($(admin_default))"
	fi
	;;
assess)
	# rcuqs-kernel-assess.service, at every boot before
	# boot-complete.target: judge the trial, if one is armed.
	[ $# -eq 0 ] || {
		usage >&2
		exit 2
	}
	t=$(st_get trial)
	if [ -z "$t" ]; then
		echo "$prog: no trial armed"
		exit 0
	fi
	if [ "$t" != "$running" ]; then
		if [ -n "$(env_get next_entry)" ]; then
			echo "$prog: $t is armed for the next boot; this boot runs $running"
			exit 0
		fi
		why="it did not come up: its one-shot boot is spent and $running booted instead (a panic, a hang and a reset, or the firmware refused it)"
		do_abort
		outcome "$t" rejected "$why"
		log "$t rejected: $why; GRUB boots $keep by default"
		exit 0
	fi
	if why=$(health); then
		do_commit
		outcome "$running" committed "the trial boot's health checks passed"
		log "$running committed: the trial boot's health checks passed; GRUB boots it by default"
		exit 0
	fi
	do_abort
	outcome "$running" rejected "$why"
	log "$running rejected: $why; GRUB boots $keep by default"
	case $(conf RCUQS_ASSESS_REBOOT yes) in
	no | false | 0)
		log "not rebooting (RCUQS_ASSESS_REBOOT=no in $conffile): $keep runs at the next boot"
		;;
	*)
		log "rebooting into $keep"
		systemctl --no-block reboot
		;;
	esac
	exit 1
	;;
status)
	json=""
	case ${1:-} in
	--json) json=1 ;;
	'') ;;
	*)
		usage >&2
		exit 2
		;;
	esac
	[ $# -le 1 ] || {
		usage >&2
		exit 2
	}
	t=$(st_get trial)
	c=$(st_get committed)
	l=$(st_get last)
	nx="" nr="" dr=""
	if [ -r "$grubcfg" ]; then
		nx=$(env_get next_entry)
		[ -z "$nx" ] || nr=$(release_of "$nx")
		dr=$(default_release)
	fi
	if [ -n "$json" ]; then
		printf '{"running":%s,"newest_rcuqs_kernel":%s,"secure_boot":%s,' \
			"$(json_str "$running")" "$(json_opt "$(newest_rcuqs)")" "$(json_str "$(sb_state)")"
		printf '"grub_default":%s,"administrator_grub_default":%s,"dropin":%s,' \
			"$(json_str "$(grub_default)")" "$(json_str "$(admin_default)")" "$([ -f "$dropin" ] && echo true || echo false)"
		printf '"auto_trial":%s,"trial":%s,"committed":%s,"rejected":[' \
			"$(case $(conf RCUQS_AUTO_TRIAL yes) in no | false | 0) echo false ;; *) echo true ;; esac)" \
			"$(json_opt "$t")" "$(json_opt "$c")"
		s=""
		if [ -f "$state/rejected" ]; then
			while IFS= read -r x; do
				printf '%s%s' "$s" "$(json_str "$x")"
				s=,
			done <"$state/rejected"
		fi
		printf '],"next_boot":%s,"default_boot":%s,"last_assessment":' "$(json_opt "$nr")" "$(json_opt "$dr")"
		if [ -n "$l" ]; then
			w=${l#* }
			w=${w#* }
			reason=""
			case $w in *": "*) reason=${w#*: } w=${w%%: *} ;; esac
			printf '{"time":%s,"release":%s,"outcome":%s,"reason":%s}' "$(json_str "${l%% *}")" \
				"$(json_str "$(echo "$l" | cut -d' ' -f2)")" "$(json_str "$w")" "$(json_opt "$reason")"
		else
			printf null
		fi
		printf '}\n'
		exit 0
	fi
	echo "running: $running"
	echo "newest rcuqs kernel: $(newest_rcuqs | grep . || echo none)"
	echo "Secure Boot: $(sb_state)"
	if [ -f "$dropin" ]; then
		echo "GRUB_DEFAULT: $(grub_default) (rcuqs-kernel, $dropin; the administrator's: $(admin_default))"
	else
		echo "GRUB_DEFAULT: $(grub_default)"
	fi
	echo "automatic trial of new rcuqs kernels: $(case $(conf RCUQS_AUTO_TRIAL yes) in no | false | 0) echo off ;; *) echo on ;; esac)"
	echo "on trial: ${t:-none}"
	echo "committed: ${c:-none}"
	if [ -s "$state/rejected" ]; then
		echo "rejected: $(tr '\n' ' ' <"$state/rejected" | sed 's/ $//')"
	else
		echo "rejected: none"
	fi
	echo "last assessment: ${l:-none}"
	if [ -r "$grubcfg" ]; then
		[ -z "$nx" ] || echo "next boot (once): $nr ($nx)"
		echo "default boot: ${dr:-unknown} (saved entry: $(env_get saved_entry | grep . || echo none))"
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
