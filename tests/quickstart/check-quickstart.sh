#!/bin/sh
# check-quickstart.sh [SUITE]: make check-quickstart. The README's "Quick
# start on a real machine", followed literally on a Debian machine in a VM
# that boots through GRUB (BIOS) under QEMU (TCG), asserted from the VM's
# serial console: $RESULTS/quickstart.tap, and each boot's console log in
# $RESULTS/quickstart-debian12/NN-STEP.log. SUITE: bookworm (Debian 12,
# the default), trixie (Debian 13: quickstart-debian13), fleet (Debian 12
# with the packages from make kernel-repo's repository, doc/fleet.md:
# quickstart-fleet), fallback (Debian 12, the follow suite's machine,
# nothing typed after it joined: two later builds the build host
# publishes, one that fails a site's health check on its trial boot and
# one that panics at boot, each installed by unattended-upgrades, rejected,
# and the VM back on its first build by itself: quickstart-fallback), measure (Debian 12, the bookworm suite's plan with
# one more boot, nohz_full=1, where rcuqs-ctl measure and measure
# --compare --json run: quickstart-measure, their output kept in
# $RESULTS/quickstart-measure.txt and .json), follow (Debian 12, a fleet
# machine of the stable ring that follows it by itself through
# unattended-upgrades: the first build from linux-source-6.1
# $QS_FOLLOW_FROM, tried and committed; then, the VM off, the build host's
# rcuqs-kernel-follow builds the upload installed before the run
# (6.1.192-3 today) into canary, reusing the O= folder and ccache, and
# it is promoted; the VM, with no command typed, installs it, reboots
# (Automatic-Reboot), tries and commits it: quickstart-follow; the host's
# linux-source-6.1 is back at its version at the end). Run as root (debootstrap, loop devices, mount);
# nothing is loaded into the host's kernel, the patched kernel runs only
# inside QEMU. Not part of make check.
#
# Time (2 shared cores, TCG): see tests/quickstart/README.
#
# 1. The README's commands are read at run time from its section's first
#    code block (the Debian 12 machine) and the way back's block, as
#    man/tests/check-man.sh reads them (4-space indented lines, comments
#    after #). The build lines run on this host, the build host: an
#    "apt-get install linux-source-N" is checked to be installed (nothing
#    is upgraded under the other builds), "make kernel-deb ..." runs with
#    KCONFIG= the VM's lean configuration (vm-config.sh: tinyconfig +
#    common.config + preempt-dynamic.config + vm.config; a /boot/config of
#    Debian's full one takes hours here) in place of the README's
#    KCONFIG=/boot/config-$(uname -r), or QS_KCONFIG= a configuration of
#    your own (Debian's full one: its build is incremental in $BUILD, so
#    set BUILD to where it was built), and "make deb" as written. Every other
#    line runs in the VM, as written, from /root/rcuqs, each "reboot" ending
#    a boot (vm/step.sh).
# 2. What the build lines left in $BUILD goes into the image at the same
#    paths under /root/rcuqs/build: the packages build/kernel-deb.install
#    names (its paths are the build host's absolute ones: they are rewritten
#    to /root/rcuqs/build/... in the copy), build/kernel-deb.release when
#    make kernel-deb writes one, and build/rcuqs_*.deb.
# 3. The image (image.sh): debootstrap minbase + Debian's kernel and GRUB,
#    cached as a tarball under $BUILD/quickstart; a fresh raw disk each run.
# 4. SUITE=fleet reads doc/fleet.md as well: its build host's lines (make
#    kernel-deb and make deb as above, then make kernel-repo into a new
#    repository in the work folder, signed with the throwaway key, with
#    REPO_URI=file:/srv/rcuqs-repo), its "A machine" lines, run in the
#    VM's copy of the repository at /srv/rcuqs-repo, the README's quick
#    start from its first "reboot" (the trial boot) on, the README's way back up to its
#    reboot, and doc/fleet.md's one command back to Debian's kernel.
# 6. QS_KDEB_DEBS="IMAGE HEADERS": the build line "make kernel-deb" is not
#    run; those two packages are staged instead, as built (the default
#    gate of rcuqs-kernel-follow: the build it is about to publish, booted
#    without building it again). Not with QS_KDEB_BUILD.
# 5. QS_KDEB_BUILD=DIR: the build line "make kernel-deb" is not run; the
#    packages the same baseline's suite last built in the build folder DIR
#    (DIR/quickstart/debian12 or debian13/kernel-deb.install) are staged
#    instead. For a suite whose point is not the build (measure), when a
#    make check-quickstart has built them; DIR is only read.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
: "${JOBS:=2}"
: "${QS_BOOT_TIMEOUT:=900}"
: "${QS_KCONFIG:=}"
: "${QS_KDEB_BUILD:=}"
: "${QS_KDEB_DEBS:=}"
# The measure suite: seconds a load (rcuqs-ctl measure --seconds).
: "${QS_MEASURE_SECONDS:=5}"
# The follow suite: the upload the first build is made from.
: "${QS_FOLLOW_FROM:=6.1.190-1}"
case $QS_KCONFIG in '' | /*) ;; *) QS_KCONFIG=$(pwd)/$QS_KCONFIG ;; esac
export BUILD RESULTS
suite=${1:-bookworm}
# dist: the Debian release of the image.
case $suite in
bookworm) qsname=debian12 dist=bookworm kernel=6.1 ;;
trixie) qsname=debian13 dist=trixie kernel=6.12 ;;
fleet) qsname=fleet dist=bookworm kernel=6.1 ;;
fallback) qsname=fallback dist=bookworm kernel=6.1 ;;
measure) qsname=measure dist=bookworm kernel=6.1 ;;
follow) qsname=follow dist=bookworm kernel=6.1 ;;
*) echo "check-quickstart: SUITE is bookworm, trixie, fleet, fallback, measure or follow" >&2; exit 2 ;;
esac
qdir=$BUILD/quickstart
work=$qdir/$qsname
logs=$RESULTS/quickstart-$qsname
tap=$RESULTS/quickstart$( [ "$suite" = bookworm ] || echo "-$qsname").tap
mkdir -p "$qdir" "$work" "$RESULTS"
rm -rf "$logs" && mkdir -p "$logs"
# The repository's indexes as the machine joined (host_follow,
# host_publish): never an earlier run's.
rm -rf "$work/dists-1"
: >"$tap"
. "$top/scripts/tap.sh"
start=$(date +%s)
elapsed() { echo "$(($(date +%s) - start)) s"; }
die() { not_ok "$1" "${2-}"; tap_end check-quickstart; exit 1; }
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP check-quickstart needs root (debootstrap, loop devices)" | tee "$tap"; exit 0; }

# --- the README's quick start ------------------------------------------------
# doc_blocks FILE HEADING: "BLOCK<TAB>WAYBACK<TAB>LINE" for each code line
# of FILE's section HEADING (a "## " or "### " title, up to the next
# heading of its level or above); WAYBACK is 1 after a paragraph that
# starts "The way back".
doc_blocks() {
	awk -v t="$2" '
		/^#+ / { l = index($0, " ") - 1
			if (on && l <= lvl) exit
			if (substr($0, l + 2) == t) { on = 1; lvl = l; next } }
		!on { next }
		/^The way back/ { back = 1 }
		/^    / { if (!code) { blk++; code = 1 } printf "%d\t%d\t%s\n", blk, back + 0, $0; next }
		/^[[:space:]]*$/ { next }
		{ code = 0 }' "$1"
}
doc_blocks "$top/README.md" "Quick start on a real machine" >"$work/blocks"
[ -s "$work/blocks" ] || die "README: a '## Quick start on a real machine' with code blocks"
back_blk=$(awk -F'\t' '$2 == 1 { print $1; exit }' "$work/blocks")
# The Debian 12 machine's block is the first. For Debian 13 the README
# gives the lines that differ in the next block ("The rest is the same"):
# its build lines (apt-get install linux-source-6.12, make kernel-deb
# KERNEL=6.12 ...) replace the first block's; its "apt install $(cat
# build/kernel-deb.install)" is not taken: the first block's apt line
# installs the same kernel packages and rcuqs's, which the rest needs.
first_blk=1 d13_blk=2
# cmds BLOCK [BLOCKS]: its commands, "COMMAND<TAB>COMMENT"; BLOCKS is
# doc_blocks' output, the README's by default.
cmds() {
	awk -F'\t' -v b="$1" '$1 == b { sub(/^[^\t]*\t[^\t]*\t/, ""); print }' "${2:-$work/blocks}" |
		sed -n 's/^    \([^ #][^#]*\)\(#\{0,1\}.*\)$/\1\t\2/p' | sed 's/[[:space:]]*\t#*[[:space:]]*/\t/'
}
is_build() { case $1 in "apt-get install linux-source-"* | "apt-get install -t "*" linux-source-"* | "make kernel-deb"*) return 0 ;; esac; return 1; }
# The fleet (SUITE=fleet, Debian 12): the packages come from the
# repository make kernel-repo makes, as doc/fleet.md has a machine get
# them. Its build host's block is the build lines; its "A machine" block
# is the machine's start, run in the repository's folder in the VM
# ($vrepo: the keyring and rcuqs-stable.sources are there); then the README's
# quick start from the trial boot's reboot on, and its way back up to its reboot
# (rcuqs-ctl off, update-grub: doc/fleet.md says to run them first); then
# doc/fleet.md's one command back to Debian's kernel, and the harness's
# last boot is the reboot into it.
fleet_md=$top/doc/fleet.md
vrepo=/srv/rcuqs-repo
# vmdir: where the VM runs the plan.
vmdir=/root/rcuqs
case $suite in fleet | follow | fallback) vmdir=$vrepo ;; esac
# doc/fleet.md's sections the suite reads, "NAME:HEADING" each.
case $suite in
fleet) set -- "build:The build host" "machine:A machine" "back:Back to Debian's kernel, in one command" ;;
follow | fallback) set -- "build:The build host" "machine:A machine" "follow:A machine that follows its ring by itself" ;;
*) set -- ;;
esac
for part; do
	doc_blocks "$fleet_md" "${part#*:}" >"$work/fleet-${part%%:*}"
	[ -s "$work/fleet-${part%%:*}" ] || die "doc/fleet.md: a section '${part#*:}' with a code block"
done
{
	case $suite in
	bookworm) cmds "$first_blk" ;;
	trixie)
		[ "$d13_blk" != "$back_blk" ] || die "README: the Debian 13 block before the way back"
		cmds "$d13_blk" | while IFS="$(printf '\t')" read -r l c; do
			! is_build "$l" || printf '%s\t%s\n' "$l" "$c"
		done
		cmds "$first_blk" | while IFS="$(printf '\t')" read -r l c; do
			is_build "$l" || printf '%s\t%s\n' "$l" "$c"
		done ;;
	fleet)
		cmds 1 "$work/fleet-build"
		cmds 1 "$work/fleet-machine"
		cmds "$first_blk" | awk -F'\t' '$1 == "reboot" { on = 1 } on'
		[ -z "$back_blk" ] || cmds "$back_blk" | awk -F'\t' '$1 == "reboot" { exit } 1'
		cmds 1 "$work/fleet-back" ;;
	follow)
		# The build host's and the machine's lines of doc/fleet.md, its
		# unattended-upgrades lines; the trial boot of the first build;
		# then the harness's: the VM off while the build host's
		# rcuqs-kernel-follow publishes the next upload's build (the
		# host does it after the boot that ran ": host-follow"), and a
		# boot where nothing is typed: apt's timers (started a minute
		# after boot here, not at 6:00) run unattended-upgrades, which
		# installs the build and reboots. The sleep only waits; that
		# reboot ends it.
		cmds 1 "$work/fleet-build"
		cmds 1 "$work/fleet-machine"
		cmds 1 "$work/fleet-follow"
		printf '%s\t%s\n' \
			reboot "the trial boot of the first build, armed by the kernel hook" \
			"rcuqs-kernel status" "the first build committed by its health checks" \
			": host-follow" "the harness's: while the VM is off, the build host's rcuqs-kernel-follow publishes the next upload's build to canary, and it is promoted" \
			reboot "the harness's: off while the build host publishes" \
			"sleep 700" "the harness's: nothing typed; unattended-upgrades installs the new build and reboots (Automatic-Reboot)" \
			"rcuqs-kernel status" "the new build, tried and committed by itself" \
			"cat /var/log/unattended-upgrades/unattended-upgrades.log /var/log/unattended-upgrades/unattended-upgrades-dpkg.log" "the harness's: what unattended-upgrades did" ;;
	fallback)
		# The follow suite's machine, of the stable ring, with a site's
		# health check (the harness's: a fleet's configuration
		# management brings such checks); its first build tried and
		# committed. Then two later builds, each published by the build
		# host while the VM is off and promoted to stable, each
		# installed by unattended-upgrades with nothing typed: one whose
		# trial boot fails the site's check, one that panics at boot.
		# Each is rejected and the VM comes back on the first build by
		# itself. The comments of the status steps after them are what
		# rcuqs-kernel status must say (after "rejected: ").
		cmds 1 "$work/fleet-build"
		cmds 1 "$work/fleet-machine"
		cmds 1 "$work/fleet-follow"
		printf '%s\t%s\n' \
			"mkdir -p /etc/rcuqs/kernel-checks.d && printf '#!/bin/sh\\n# the site: soft power-off needs the ACPI power button\\ntest -d /sys/bus/acpi/drivers/button\\n' >/etc/rcuqs/kernel-checks.d/50-power-button && chmod 755 /etc/rcuqs/kernel-checks.d/50-power-button" "the harness's: a site's health check, brought with the machine's configuration" \
			reboot "the trial boot of the first build, armed by the kernel hook" \
			"rcuqs-kernel status" "the first build committed by its health checks" \
			": host-publish nobutton" "the harness's: while the VM is off, the build host publishes a later build that lacks the ACPI power button driver, and it is promoted" \
			reboot "the harness's: off while the build host publishes" \
			"sleep 700" "the harness's: nothing typed; unattended-upgrades installs the build and reboots; the trial boot's site check fails, and the assessment reboots into the first build" \
			"rcuqs-kernel status" "the check /etc/rcuqs/kernel-checks.d/50-power-button failed (exit 1)" \
			": host-publish noroot" "the harness's: while the VM is off, the build host publishes a later build without ext4 and initramfs support, and it is promoted" \
			reboot "the harness's: off while the build host publishes" \
			"sleep 700" "the harness's: nothing typed; unattended-upgrades installs the build and reboots; the trial boot panics (it cannot mount the root file system), panic=10 resets it, GRUB boots its saved default" \
			"rcuqs-kernel status" "it did not come up" \
			"cat /var/log/unattended-upgrades/unattended-upgrades.log /var/log/unattended-upgrades/unattended-upgrades-dpkg.log" "the harness's: what unattended-upgrades did" ;;
	measure)
		# The README's quick start up to its way back, then the
		# harness's boot with nohz_full=1 (CPU 1 isolated, CPU 0
		# housekeeping: -smp 2), added as a drop-in GRUB reads, as an
		# administrator adds a boot parameter; there rcuqs-ctl measure
		# with the settings that run (latency, from the quick start),
		# then measure --compare (default, latency, jtsq1 in one run)
		# as JSON, every rcutree and rcupdate parameter snapshotted
		# before and compared after; the drop-in removed again.
		cmds "$first_blk"
		params="(grep -H . /sys/module/rcutree/parameters/* /sys/module/rcupdate/parameters/* 2>/dev/null; true)"
		printf '%s\t%s\n' \
			"mkdir -p /etc/default/grub.d && printf 'GRUB_CMDLINE_LINUX=\"\$GRUB_CMDLINE_LINUX nohz_full=1\"\\n' >/etc/default/grub.d/zz-quickstart-measure.cfg && update-grub" "the harness's: nohz_full=1 on the next boot's command line" \
			reboot "the harness's: the rcuqs kernel with nohz_full=1" \
			"$params >/root/rcu-params.before && test -s /root/rcu-params.before && wc -l </root/rcu-params.before" "the harness's: every rcutree and rcupdate parameter, before" \
			"set -o pipefail; rcuqs-ctl measure --seconds $QS_MEASURE_SECONDS 2>&1 | cat" "the settings that run" \
			"rcuqs-ctl measure --compare --seconds $QS_MEASURE_SECONDS --json >/root/measure.json 2>/root/measure.err; rc=\$?; cat /root/measure.err; echo QS-JSON-BEGIN; cat /root/measure.json; echo QS-JSON-END; exit \$rc" "default, latency and jtsq1 side by side" \
			"$params >/root/rcu-params.after && diff /root/rcu-params.before /root/rcu-params.after && rm /etc/default/grub.d/zz-quickstart-measure.cfg && update-grub" "the harness's: every parameter as before; the drop-in removed" ;;
	esac
	case $suite in fleet | fallback | follow) ;; *) [ -z "$back_blk" ] || cmds "$back_blk" ;; esac
} >"$work/readme-cmds"
if [ "$suite" = fleet ]; then
	check "doc/fleet.md and README: the build host, the machine, the quick start from its trial boot on, the way back ($(wc -l <"$work/readme-cmds") lines)" \
		sh -c "grep -q '^make kernel-repo' '$work/readme-cmds' && grep -q '^apt-get install linux-image-rcuqs-$kernel-amd64' '$work/readme-cmds' &&
			grep -q '^rcuqs-kernel status' '$work/readme-cmds' && grep -q '^apt-get purge .*rcuqs' '$work/readme-cmds' && [ -n '$back_blk' ]"
elif [ "$suite" = follow ] || [ "$suite" = fallback ]; then
	check "doc/fleet.md: the build host, the machine, and its unattended-upgrades lines ($(wc -l <"$work/readme-cmds") lines)" \
		sh -c "grep -q '^make kernel-repo' '$work/readme-cmds' && grep -q '^apt-get install linux-image-rcuqs-$kernel-amd64' '$work/readme-cmds' &&
			grep -q 'codename=stable' '$work/readme-cmds' && grep -q 'Automatic-Reboot \"true\"' '$work/readme-cmds' &&
			grep -q 'APT::Periodic::Unattended-Upgrade' '$work/readme-cmds'"
else
	check "README: the quick start has commands and a way back ($(wc -l <"$work/readme-cmds") lines)" \
		sh -c "[ -s '$work/readme-cmds' ] && [ -n '$back_blk' ]"
fi

# Split each line at " && ": build lines to the host, the rest to the VM.
: >"$work/host-cmds"
: >"$work/plan"
tab=$(printf '\t')
while IFS="$tab" read -r line comment; do
	vm=
	rest=$line
	while :; do
		seg=${rest%% && *}
		case $seg in
		"apt-get install linux-source-"* | "apt-get install -t "*" linux-source-"* | "make "*)
			echo "$seg" >>"$work/host-cmds" ;;
		*) vm=${vm:+$vm && }$seg ;;
		esac
		[ "$seg" != "$rest" ] || break
		rest=${rest#* && }
	done
	[ -z "$vm" ] || printf '%s\t%s\n' "$vm" "$comment" >>"$work/plan"
done <"$work/readme-cmds"
echo "== check-quickstart ($qsname): on the build host:"; sed 's/^/   /' "$work/host-cmds"
echo "== check-quickstart ($qsname): in the VM, from $vmdir:"; cut -f1 "$work/plan" | sed 's/^/   /'

# --- the build lines, on this host ---------------------------------------------
repo=$work/repo
# repo_meta PACKAGE [SUITE]: "VERSION<TAB>DEPENDS" of PACKAGE's newest
# version in the index of the repository's SUITE (canary, where
# make kernel-repo puts a build).
repo_meta() {
	awk -v RS= -v p="$1" -v OFS='\t' '$0 ~ "(^|\n)Package: " p "\n" {
		v = d = ""; n = split($0, l, "\n")
		for (i = 1; i <= n; i++) { if (l[i] ~ /^Version: /) v = substr(l[i], 10); if (l[i] ~ /^Depends: /) d = substr(l[i], 10) }
		print v, d }' "${dists:-$repo/dists}/${2:-canary}/main/binary-amd64/Packages" |
		while IFS="$tab" read -r v d; do
			if [ -z "${best-}" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v bestd=$d; fi
			printf '%s\t%s\n' "$best" "$bestd"
		done | tail -n 1
}
# depends_is DESC GOT WANT: GOT (repo_meta's "VERSION<TAB>DEPENDS")
# depends on exactly WANT.
depends_is() {
	check "$1" sh -c '[ "$1" = "$2" ] || { echo "Depends: $1"; exit 1; }' sh "${2#*"$tab"}" "$3"
}
config=$qdir/config-vm$( [ "$kernel" = 6.1 ] || echo "-$kernel")
# make kernel-repo adds every rcuqs kernel package in $BUILD: in the
# follow and fallback suites, 6.1 builds of other uploads or runs (a newer
# one would be the "first build") wait in $work/aside meanwhile, and come
# back at the end unless this run made a file of the same name (or a run
# killed before it put them back left them there: they go back first).
# The fallback's later builds never stay in $BUILD (host_publish), and
# $BUILD/kernel-deb.install names the first build again at the end.
aside=$work/aside
aside_back() {
	for f in "$aside"/*.deb; do
		[ ! -e "$f" ] || mv -n "$f" "$BUILD/"
	done
}
case $suite in
follow | fallback)
	rm -f "$work/kernel-deb.install"
	mkdir -p "$aside"
	aside_back
	for f in "$BUILD"/linux-image-6.1.*-rcuqs*.deb "$BUILD"/linux-headers-6.1.*-rcuqs*.deb; do
		[ ! -e "$f" ] || mv "$f" "$aside/"
	done
	trap on_exit EXIT
	trap 'exit 1' INT TERM HUP ;;
esac
src_was=''
# on_exit: what the follow and fallback suites put back, also on failure.
on_exit() {
	aside_back
	[ ! -s "$work/kernel-deb.install" ] || [ "$suite" != fallback ] ||
		cp "$work/kernel-deb.install" "$BUILD/kernel-deb.install"
	[ -n "$src_was" ] || return 0
	v=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || :)
	[ "$v" = "$src_was" ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades \
		"linux-source-6.1=$src_was" >"$work/restore-source.log" 2>&1 ||
		echo "check-quickstart: linux-source-6.1 $src_was could not be installed again (log: $work/restore-source.log)" >&2
}
if [ "$suite" = follow ]; then
	# The first build is made from an earlier upload, $QS_FOLLOW_FROM; the
	# version installed now is the "new upload" rcuqs-kernel-follow finds
	# later (apt-cache policy's candidate), and is installed again at the
	# end whatever happens. ccache in the suite's own folder, emptied: the
	# first build is cold, the follow's rebuild is what the O= folder and
	# ccache make of it.
	was=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || :)
	[ -n "$was" ] || die "host: linux-source-6.1 installed (the follow suite builds from it)"
	dpkg --compare-versions "$was" gt "$QS_FOLLOW_FROM" ||
		die "host: linux-source-6.1 $was installed, not above QS_FOLLOW_FROM=$QS_FOLLOW_FROM (the upload the first build is made from; the installed one is the new upload)"
	src_was=$was
	command -v ccache >/dev/null 2>&1 || apt-get install -y -q ccache >/dev/null 2>&1 ||
		die "host: ccache installed (apt-get install ccache)"
	export CCACHE_DIR="$qdir/ccache" CCACHE_MAXSIZE=10G
	rm -rf "$CCACHE_DIR"
	check "host: linux-source-6.1 $QS_FOLLOW_FROM installed for the first build ($src_was afterwards, the new upload)" \
		env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades "linux-source-6.1=$QS_FOLLOW_FROM"
fi
while read -r hcmd; do
	case $hcmd in
	"apt-get install"*)
		pkg=${hcmd##* }
		if dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null | grep -q '^ii'; then
			ok "host: $hcmd (installed: $(dpkg-query -W -f='${Version}' "$pkg"))"
		else
			check "host: $hcmd" apt-get install -y "$pkg"
		fi ;;
	"make kernel-deb"*)
		args=$(printf '%s\n' "${hcmd#make kernel-deb}" |
			sed -e 's/KCONFIG=[^ $]*\$([^)]*)[^ ]*//' -e 's/KCONFIG=[^ ]*//' -e 's/  */ /g' -e 's/ $//')
		if [ -n "$QS_KDEB_DEBS" ]; then
			# Not run: the packages named (QS_KDEB_DEBS).
			[ -z "$QS_KDEB_BUILD" ] || die "host: QS_KDEB_DEBS and QS_KDEB_BUILD together (one or the other)"
			printf '%s\n' "$QS_KDEB_DEBS" >"$work/kernel-deb.install"
			rm -f "$work/kernel-deb.release"
			check "host: make kernel-deb not run (QS_KDEB_DEBS): the $kernel packages named ($QS_KDEB_DEBS)" \
				sh -c 'grep -Eq "^/[^ ]*/linux-image-$1\.[0-9]*-rcuqs[^ ]*_amd64\.deb /[^ ]*/linux-headers-$1\.[0-9]*-rcuqs[^ ]*_amd64\.deb$" "$2" && for f in $(cat "$2"); do [ -f "$f" ] || { echo "missing: $f"; exit 1; }; done' \
				sh "$kernel" "$work/kernel-deb.install"
			continue
		fi
		if [ -n "$QS_KDEB_BUILD" ]; then
			# Not run: the packages an earlier run built (QS_KDEB_BUILD).
			from=$QS_KDEB_BUILD/quickstart/$( [ "$kernel" = 6.1 ] && echo debian12 || echo debian13)/kernel-deb.install
			[ -s "$from" ] || die "host: QS_KDEB_BUILD: $from (a make check-quickstart of the $kernel baseline writes it)"
			cp "$from" "$work/kernel-deb.install"
			rm -f "$work/kernel-deb.release"
			check "host: make kernel-deb not run (QS_KDEB_BUILD): the $kernel packages of $from ($(cat "$work/kernel-deb.install"))" \
				sh -c 'grep -q "/linux-image-$1\.[0-9]*-rcuqs[^ ]*_amd64\.deb .*/linux-headers-$1\.[0-9]*-rcuqs" "$2" && for f in $(cat "$2"); do [ -f "$f" ] || { echo "missing: $f"; exit 1; }; done' \
				sh "$kernel" "$work/kernel-deb.install"
			continue
		fi
		# QS_KCONFIG is checked where every KCONFIG is: make kernel-deb
		# refuses a file that is no configuration before it builds.
		if [ -n "$QS_KCONFIG" ]; then
			config=$QS_KCONFIG
		else
			msg=$("$here/vm-config.sh" "$config" "$kernel" 2>&1) ||
				die "host: the VM's kernel configuration (vm-config.sh)" "$msg"
			ok "host: the VM's kernel configuration $config (tinyconfig + common + preempt-dynamic + vm.config, checked)"
		fi
		t=$(date +%s)
		# shellcheck disable=SC2086
		if make -C "$top" kernel-deb $args KCONFIG="$config" JOBS="$JOBS" >"$logs/00-make-kernel-deb.log" 2>&1; then
			ok "host: make kernel-deb$args KCONFIG=$config ($(($(date +%s) - t)) s)"
		else
			die "host: make kernel-deb$args KCONFIG=$config" "$(tail -20 "$logs/00-make-kernel-deb.log")"
		fi
		# Taken at once: another make kernel-deb in $BUILD rewrites it.
		cp "$BUILD/kernel-deb.install" "$work/kernel-deb.install"
		rm -f "$work/kernel-deb.release"
		[ ! -f "$BUILD/kernel-deb.release" ] || cp "$BUILD/kernel-deb.release" "$work/"
		check "host: build/kernel-deb.install names this build's $kernel packages ($(cat "$work/kernel-deb.install"))" \
			grep -q "/linux-image-$kernel\.[0-9]*-rcuqs[^ ]*_amd64\.deb .*/linux-headers-$kernel\.[0-9]*-rcuqs" "$work/kernel-deb.install" ;;
	"make deb"*)
		t=$(date +%s)
		if make -C "$top" deb >"$logs/00-make-deb.log" 2>&1; then
			ok "host: $hcmd ($(($(date +%s) - t)) s)"
		else
			die "host: $hcmd" "$(tail -20 "$logs/00-make-deb.log")"
		fi ;;
	"make kernel-repo-promote"*)
		# doc/fleet.md's PROMOTE names its example's build: here the
		# repository is this run's, its canary holds this build and rcuqs
		# only, so --all promotes them, into stable, where the VM's
		# rcuqs-stable.sources points.
		meta=linux-image-rcuqs-$kernel-amd64
		img=$(grep -o "[^ ]*/linux-image-$kernel\.[^ ]*\.deb" "$work/kernel-deb.install")
		build="$(dpkg-deb -f "$img" Package)=$(dpkg-deb -f "$img" Version)"
		t=$(date +%s)
		if make -C "$top" kernel-repo-promote REPO="$repo" PROMOTE=--all \
			>"$logs/00-make-kernel-repo-promote.log" 2>&1 </dev/null; then
			ok "host: make kernel-repo-promote REPO=$repo PROMOTE=--all ($(($(date +%s) - t)) s)"
		else
			die "host: make kernel-repo-promote REPO=$repo PROMOTE=--all" "$(tail -20 "$logs/00-make-kernel-repo-promote.log")"
		fi
		got=$(repo_meta "$meta" stable)
		depends_is "host: the repository's stable $meta ${got%%"$tab"*} depends on this build: ${build%%=*} (= ${build#*=})" "$got" "${build%%=*} (= ${build#*=})" ;;
	"make kernel-repo"*)
		# doc/fleet.md's REPO, REPO_KEY and REPO_URI are the fleet's: here
		# a new repository in the work folder each run, the throwaway test
		# key ($BUILD/repo-key), and the file: URI where the VM has it.
		args=$(printf '%s\n' "${hcmd#make kernel-repo}" | sed -e 's/REPO[A-Z_]*=[^ ]*//g' -e 's/  */ /g' -e 's/ $//')
		rm -rf "$repo"
		t=$(date +%s)
		# shellcheck disable=SC2086
		if make -C "$top" kernel-repo $args REPO="$repo" REPO_URI="file:$vrepo" >"$logs/00-make-kernel-repo.log" 2>&1 </dev/null; then
			ok "host: make kernel-repo$args REPO=$repo REPO_URI=file:$vrepo, the throwaway key ($(($(date +%s) - t)) s)"
		else
			die "host: make kernel-repo$args REPO=$repo REPO_URI=file:$vrepo" "$(tail -20 "$logs/00-make-kernel-repo.log")"
		fi
		# The baseline's meta-package names this build: the kernel the
		# machine is to get.
		meta=linux-image-rcuqs-$kernel-amd64
		img=$(grep -o "[^ ]*/linux-image-$kernel\.[^ ]*\.deb" "$work/kernel-deb.install")
		want="$(dpkg-deb -f "$img" Package) (= $(dpkg-deb -f "$img" Version))"
		got=$(repo_meta "$meta")
		depends_is "host: the repository's $meta ${got%%"$tab"*} depends on this build: $want" "$got" "$want" ;;
	*) die "host: $hcmd: a build line this harness does not know" ;;
	esac
done <"$work/host-cmds"

# --- the image -----------------------------------------------------------------
stage=$work/stage
rm -rf "$stage"
mkdir -p "$stage/root/quickstart" "$stage/etc/systemd/system/multi-user.target.wants"
inst=$work/kernel-deb.install
[ -s "$inst" ] || die "host: build/kernel-deb.install (make kernel-deb writes it)"
if [ "$suite" = fleet ] || [ "$suite" = follow ] || [ "$suite" = fallback ]; then
	# The repository, where the VM's rcuqs-stable.sources says it is; a fleet
	# machine has no build folder. The plan runs in the repository's
	# folder: doc/fleet.md installs the keyring and rcuqs-stable.sources from
	# there. The VM has no network: the repository is its only apt
	# source (Debian's archive would only fail "apt-get update").
	mkdir -p "$stage${vrepo%/*}" "$stage/etc/apt"
	cp -a "$repo" "$stage$vrepo"
	: >"$stage/etc/apt/sources.list"
	staged="$vrepo: $(cd "$repo" && find pool -name '*.deb' | sed 's|.*/||' | sort | tr '\n' ' ')"
else
	mkdir -p "$stage/root/rcuqs/build"
	# kroot: the build folder of the kernel's packages (QS_KDEB_BUILD's).
	kroot=${QS_KDEB_BUILD:-$BUILD}
	# QS_KDEB_DEBS: the folder of the image package.
	[ -z "$QS_KDEB_DEBS" ] || kroot=$(dirname "${QS_KDEB_DEBS%% *}")
	for f in $(cat "$inst"); do
		case $f in "$kroot"/*) ;; *) die "host: $f in $inst is not under $kroot" ;; esac
		cp "$f" "$stage/root/rcuqs/build/${f#"$kroot"/}"
	done
	# The build host's absolute paths, as the VM's /root/rcuqs/build/... .
	sed "s|$kroot/|/root/rcuqs/build/|g" "$inst" >"$stage/root/rcuqs/build/kernel-deb.install"
	cp "$stage/root/rcuqs/build/kernel-deb.install" "$logs/00-kernel-deb.install"
	[ ! -f "$work/kernel-deb.release" ] || cp "$work/kernel-deb.release" "$stage/root/rcuqs/build/"
	cp "$BUILD"/rcuqs_*.deb "$stage/root/rcuqs/build/"
	staged="/root/rcuqs/build: $(ls "$stage/root/rcuqs/build" | tr '\n' ' ')"
fi
cp "$here/vm/step.sh" "$work/plan" "$stage/root/quickstart/"
echo "$vmdir" >"$stage/root/quickstart/dir"
: >"$stage/root/quickstart/setup"
chmod 700 "$stage/root"
cp "$here/vm/rcuqs-quickstart.service" "$stage/etc/systemd/system/"
ln -s ../rcuqs-quickstart.service "$stage/etc/systemd/system/multi-user.target.wants/"
# rcuqs-kernel-assess.service (once rcuqs is installed) after the runner's
# start: its ExecStartPre prints GRUB's state as the boot found it.
mkdir -p "$stage/etc/systemd/system/rcuqs-kernel-assess.service.d"
printf '[Unit]\nAfter=rcuqs-quickstart.service\n' >"$stage/etc/systemd/system/rcuqs-kernel-assess.service.d/quickstart.conf"
# The console is the runner's: no getty there; no apt timers (no
# network), but in the follow and fallback suites, where they are what
# installs the new builds: there they fire a minute (update) and two (upgrade) after
# each boot instead of at random times of the day, and apt.systemd.daily
# runs at each firing instead of once a day ("always", the harness's:
# every boot of the VM is a day of the machine).
timers="apt-daily.timer apt-daily-upgrade.timer"
case $suite in follow | fallback) timers= ;; esac
for u in serial-getty@ttyS0.service getty@tty1.service $timers e2scrub_all.timer fstrim.timer; do
	ln -s /dev/null "$stage/etc/systemd/system/$u"
done
if [ -z "$timers" ]; then
	for t in apt-daily:1min apt-daily-upgrade:2min; do
		mkdir -p "$stage/etc/systemd/system/${t%%:*}.timer.d"
		printf '[Timer]\nOnCalendar=\nOnBootSec=%s\nRandomizedDelaySec=0\nPersistent=false\n' "${t#*:}" \
			>"$stage/etc/systemd/system/${t%%:*}.timer.d/quickstart.conf"
	done
	mkdir -p "$stage/etc/apt/apt.conf.d"
	# The runner's apt-get waits for the lock unattended-upgrades may
	# hold, as an administrator would, rather than fail at once.
	printf 'APT::Periodic::Update-Package-Lists "always";\nAPT::Periodic::Unattended-Upgrade "always";\nDPkg::Lock::Timeout "600";\n' \
		>"$stage/etc/apt/apt.conf.d/99rcuqs-quickstart-follow"
fi
# apt asks "Do you want to continue? [Y/n]" before an install that
# brings more packages and before a purge: the administrator answers yes;
# here apt is told so (the only answer given).
mkdir -p "$stage/etc/apt/apt.conf.d"
echo 'APT::Get::Assume-Yes "true";' >"$stage/etc/apt/apt.conf.d/99rcuqs-quickstart"
ok "host: staged for $staged"

t=$(date +%s)
# The follow and fallback suites' image has unattended-upgrades (the VM has no
# network to install it from): a root tarball of its own.
roottar=$qdir/$dist-root.tar extra=
case $suite in follow | fallback) roottar=$qdir/$dist-uu-root.tar extra=unattended-upgrades ;; esac
msg=$("$here/image.sh" root "$dist" "$roottar" $extra 2>&1) || die "image: debootstrap $dist" "$msg"
ok "image: $dist root ($msg, $(($(date +%s) - t)) s)"
t=$(date +%s)
disk=$work/disk.img
msg=$("$here/image.sh" disk "$dist" "$roottar" "$disk" "$stage" "$work/kernel" 2>&1) || die "image: the disk" "$msg"
echo "$msg" >"$logs/00-image.log"
ok "image: $disk ($(($(date +%s) - t)) s)"

# qemu LOG [QEMU ARGS]: one boot, bounded; its status, 125 when the
# console showed an Oops, a panic or a BUG (watch-console.sh ended the VM
# at once; the line is in $work/badness).
# Single-threaded TCG, as guest-image/run-guest.sh: QEMU's default for an
# x86-64 guest on an x86-64 host is multi-threaded TCG, where a static
# key switched while another vCPU runs the patched site traps on a stale
# int3 (guest-image/tests/35-keyflip.sh), and rcuqs-ctl set-profile
# latency and off switch the 6.1/6.12 limit's key: the Debian 13 suite
# died so at "rcuqs-ctl off" (tests/quickstart/README).
QS_ACCEL=${QS_ACCEL:-tcg,thread=single}
qemu() {
	qlog=$1
	shift
	"$here/watch-console.sh" "$qlog" "$work/badness" \
		timeout "$QS_BOOT_TIMEOUT" qemu-system-x86_64 -accel "$QS_ACCEL" -m 2048 -smp 2 \
		-drive "file=$disk,format=raw,if=virtio" -nic none \
		-display none -monitor none -serial "file:$qlog" -no-reboot "$@" </dev/null >"$work/qemu.out" 2>&1
}
# The first boot: Debian's kernel started by QEMU, GRUB installed into the
# MBR from inside (image.sh says why not from here).
t=$(date +%s)
rc=0
qemu "$work/setup.log" -kernel "$work/kernel/vmlinuz" -initrd "$work/kernel/initrd.img" \
	-append "root=UUID=$(cat "$work/kernel/root-uuid") ro console=ttyS0,115200" || rc=$?
tr -d '\r' <"$work/setup.log" >"$logs/00-grub-install.log"
src=$(sed -n 's/^QS-SETUP-RC: //p' "$logs/00-grub-install.log")
[ "$rc" != 125 ] || die "image: the first boot's kernel died: $(cat "$work/badness")" "$(tail -30 "$logs/00-grub-install.log")"
if [ "$rc" = 0 ] && [ "$src" = 0 ]; then
	ok "image: GRUB installed in the MBR by the first boot (grub-install /dev/vda, update-grub; $(($(date +%s) - t)) s)"
else
	die "image: GRUB installed in the MBR by the first boot (QEMU $rc, grub-install/update-grub ${src:-not run})" "$(tail -30 "$logs/00-grub-install.log")"
fi

# --- the boots -----------------------------------------------------------------
reboots=$(awk -F'\t' '$1 == "reboot"' "$work/plan" | wc -l)
maxboots=$((reboots + 3))
# fallback: the two reboots unattended-upgrades asks for, the boot
# rcuqs-kernel-assess.service reboots by itself, and the one that panics.
[ "$suite" != fallback ] || maxboots=$((maxboots + 4))
# follow: the reboot unattended-upgrades asks for.
[ "$suite" != follow ] || maxboots=$((maxboots + 1))
# promote_stable PKG VER LOG WHAT: doc/fleet.md's promotion of PKG VER
# (WHAT, for the TAP lines) from canary into stable, make's output
# appended to LOG; stable's meta-package checked to depend on it; the
# repository copied into the VM's disk.
promote_stable() {
	if make -C "$top" kernel-repo-promote REPO="$repo" PROMOTE="$1=$2" >>"$3" 2>&1 </dev/null; then
		ok "host: make kernel-repo-promote PROMOTE=$1=$2, into stable"
	else
		die "host: make kernel-repo-promote PROMOTE=$1=$2" "$(tail -20 "$3")"
	fi
	got=$(repo_meta linux-image-rcuqs-6.1-amd64 stable)
	depends_is "host: stable's linux-image-rcuqs-6.1-amd64 ${got%%"$tab"*} depends on $4" "$got" "$1 (= $2)"
	msg=$("$here/image.sh" sync "$disk" "$repo" "$vrepo" 2>&1) || die "host: the repository into the VM's disk" "$msg"
	ok "host: the repository copied into the VM's $vrepo"
}
# host_follow: the build host's part of the follow suite, the VM off:
# rcuqs-kernel-follow once (its configuration file: this run's
# repository, the VM's configuration, the suite's ccache; the gate checks
# the packages only, the VM is the canary here), the build promoted to
# stable as doc/fleet.md's person does, the repository copied into the
# VM's disk. What the VM installed before is kept ($work/dists-1) for the
# checks of its install step.
followed='' new_rel=''
host_follow() {
	[ -e "$work/dists-1" ] || cp -a "$repo/dists" "$work/dists-1"
	fs=$work/follow-state
	rm -rf "$fs" "$work/follow-logs"
	mkdir -p "$fs"
	echo "$QS_FOLLOW_FROM" >"$fs/6.1"
	# shellcheck disable=SC2016 # the gate's own shell expands it
	printf '%s\n' "RCUQS_SRC='$top'" "BUILD='$BUILD'" "REPO='$repo'" "REPO_URI='file:$vrepo'" \
		"BASELINES=6.1" "KCONFIG_6_1='$config'" "JOBS='$JOBS'" \
		'GATE='"'"'for d in $RCUQS_FOLLOW_DEBS; do dpkg-deb -I "$d" >/dev/null || exit 1; done'"'" \
		"CCACHE_DIR='$CCACHE_DIR'" "CCACHE_MAXSIZE=10G" \
		"FOLLOW_STATE='$fs'" "FOLLOW_LOGS='$work/follow-logs'" >"$work/follow.conf"
	ccache -z >/dev/null 2>&1 || :
	t=$(date +%s)
	if RCUQS_FOLLOW_CONFIG=$work/follow.conf "$top/build-host/rcuqs-kernel-follow" >"$logs/00-follow.log" 2>&1; then
		ok "host: rcuqs-kernel-follow, the VM off: linux-source-6.1 $(cat "$fs/6.1") built, gated and published to canary ($(($(date +%s) - t)) s; ccache: $(ccache -s 2>/dev/null | awk '/^ *Hits:/ { print $2 " hits of " $4; exit }'))"
	else
		cat "$work"/follow-logs/*.log >>"$logs/00-follow.log" 2>/dev/null || :
		die "host: rcuqs-kernel-follow, the VM off" "$(tail -30 "$logs/00-follow.log")"
	fi
	cp "$work"/follow-logs/*.log "$logs/" 2>/dev/null || :
	new_img=$(grep -o "[^ ]*/linux-image-6\.1\.[^ ]*\.deb" "$BUILD/kernel-deb.install")
	new_pkg=$(dpkg-deb -f "$new_img" Package) new_ver=$(dpkg-deb -f "$new_img" Version)
	case $new_ver in "$src_was"+rcuqs*) ;; *) die "host: the follow's build is of linux-source-6.1 $src_was (got $new_pkg $new_ver)" ;; esac
	got=$(repo_meta linux-image-rcuqs-6.1-amd64 canary)
	depends_is "host: canary's linux-image-rcuqs-6.1-amd64 ${got%%"$tab"*} depends on the new build: $new_pkg (= $new_ver)" "$got" "$new_pkg (= $new_ver)"
	promote_stable "$new_pkg" "$new_ver" "$logs/00-follow-promote.log" "the new build"
	new_rel=${new_pkg#linux-image-}
	followed=1
}
# host_publish VARIANT: the build host's part of the fallback suite, the
# VM off: a later build of the same upload in the first build's O=
# folder (KDEB_ROLE), from the VM's configuration less what it names
# (nobutton: CONFIG_ACPI_BUTTON, the driver the site's check wants;
# noroot: CONFIG_EXT4_FS and CONFIG_BLK_DEV_INITRD, so that the kernel
# can neither mount the root file system nor load an initramfs that
# would, and panics), with the series version the harness's $sv (a new
# release and package name, as a new upload or series gives); added to
# canary with kernel-repo.sh from $work/published, where its packages go
# at once (never left in $BUILD, where make kernel-repo would take them),
# promoted to stable, the repository copied into the VM's disk. The
# releases published: $published. The repository's indexes before the
# first (what the machine installed when it joined): $work/dists-1.
published='' sv=2 pub1='' pub2='' what1='' what2='' panicked_entry=''
good_rel=$(sed -n 's|.*/linux-image-\([^_]*\)_.*|\1|p' "$inst")
host_publish() {
	sv=$((sv + 1))
	case $1 in
	nobutton) syms=CONFIG_ACPI_BUTTON what="without the ACPI power button driver" ;;
	noroot) syms="CONFIG_EXT4_FS CONFIG_BLK_DEV_INITRD" what="without ext4 and initramfs support" ;;
	*) die "host: host-publish $1: a build this harness does not know" ;;
	esac
	[ -e "$work/dists-1" ] || cp -a "$repo/dists" "$work/dists-1"
	vconf=$work/config-vm-$1
	cp "$config" "$vconf"
	for sym in $syms; do
		sed -i "s/^$sym=y\$/# $sym is not set/" "$vconf"
		grep -q "^# $sym is not set\$" "$vconf" || die "host: $sym=y in $config, for the build $what"
	done
	t=$(date +%s)
	if make -C "$top" kernel-deb KCONFIG="$vconf" KDEB_ROLE="${config##*/}" SERIES_VERSION="$sv" JOBS="$JOBS" \
		>"$logs/00-kernel-deb-$1.log" 2>&1 </dev/null; then
		:
	else
		die "host: make kernel-deb, the build $what" "$(tail -20 "$logs/00-kernel-deb-$1.log")"
	fi
	mkdir -p "$work/published"
	pubs=''
	for f in $(cat "$BUILD/kernel-deb.install"); do
		mv "$f" "$work/published/" && pubs="$pubs $work/published/${f##*/}"
	done
	mv "$BUILD"/linux-rcuqs_*+rcuqs"$sv"_amd64.* "$work/published/" 2>/dev/null || :
	cp "$work/kernel-deb.install" "$BUILD/kernel-deb.install"
	img=${pubs# } img=${img%% *}
	pkg=$(dpkg-deb -f "$img" Package) ver=$(dpkg-deb -f "$img" Version)
	check "host: make kernel-deb $what, SERIES_VERSION=$sv, in the first build's O= folder: $pkg $ver, $syms not set in its .config ($(($(date +%s) - t)) s)" \
		sh -c 'p=$1 v=$2 c=$3; shift 3; case $p in linux-image-6.1.*-rcuqs$v) ;; *) exit 1 ;; esac
			for s; do grep -q "^# $s is not set\$" "$c" || { echo "set: $s"; exit 1; }; done' \
		sh "$pkg" "$sv" "$BUILD/kdeb-${config##*/}/.config" $syms
	# shellcheck disable=SC2086 # the two packages
	if "$top/scripts/kernel-repo.sh" add --repo "$repo" $pubs >"$logs/00-kernel-repo-$1.log" 2>&1 </dev/null; then
		ok "host: kernel-repo.sh add, the build $what, into canary"
	else
		die "host: kernel-repo.sh add, the build $what" "$(tail -20 "$logs/00-kernel-repo-$1.log")"
	fi
	promote_stable "$pkg" "$ver" "$logs/00-kernel-repo-$1.log" "the build $what"
	published="$published ${pkg#linux-image-}"
	if [ -z "$pub1" ]; then pub1=${pkg#linux-image-} what1=$what; else pub2=${pkg#linux-image-} what2=$what; fi
}
panicked=
b=0
done=
while [ "$b" -lt "$maxboots" ]; do
	b=$((b + 1))
	log=$work/boot.log
	rm -f "$log"
	t=$(date +%s)
	rc=0
	qemu "$log" || rc=$?
	# Without carriage returns, and without the terminal resets systemd
	# writes to the console (trixie's: ESC[!p ESC]104 BEL ESC[?7h) before
	# the runner's lines.
	tr -d '\r' <"$log" | sed 's/\x1b\[!p//g; s/\x1b\]104\x07//g; s/\x1b\[?7h//g' >"$log.txt"
	first=$(sed -n 's/^QS-STEP [0-9a-z]*: //p' "$log.txt" | head -n1)
	# NN-STEP: the boot's first command, its first three plain words.
	slug=$(printf '%s\n' "${first:-no-step}" | awk '{ s = ""; k = 0
		for (i = 1; i <= NF && k < 3; i++) if ($i ~ /^[A-Za-z0-9][A-Za-z0-9-]*$/) { s = s (k++ ? "-" : "") $i } else break
		print (s == "" ? "step" : s) }')
	grep -q '^QS-DONE' "$log.txt" && slug=final
	out=$logs/$(printf %02d "$b")-$slug.log
	mv "$log.txt" "$out"
	rm -f "$log"
	if [ "$rc" = 125 ] && [ "$suite" = fallback ] && [ -z "$panicked" ] &&
		grep -q 'Kernel panic - not syncing' "$work/badness" && grep -aq 'Rebooting in 10 seconds' "$out"; then
		# The planned panic: the trial kernel without ext4 and initramfs support.
		panicked=$b panicked_entry=$(grep -ao "Booting \`[^']*'" "$out" | tail -n1)
		ok "boot $b: the trial kernel panicked as planned, and panic=10 reset it: $(cat "$work/badness"); $(grep -ao 'Rebooting in 10 seconds' "$out" | head -n1) ($(grep -ao "Booting \`[^']*'" "$out" | tail -n1); ${out#"$BUILD"/})"
		continue
	fi
	if [ "$rc" = 125 ]; then
		not_ok "boot $b: the kernel died, its console says: $(cat "$work/badness") (VM ended at once)" "$(grep -a -B 5 -A 25 -F "$(cat "$work/badness")" "$out" | head -40)"
		break
	fi
	if [ "$rc" = 124 ]; then
		not_ok "boot $b: QEMU ended within ${QS_BOOT_TIMEOUT} s" "$(tail -30 "$out")"
		break
	fi
	# The runner's count of boots: one less after a panic.
	uname=$(sed -n "s/^.*QS-BOOT [0-9]*: //p" "$out" | head -n1)
	if [ -z "$uname" ]; then
		not_ok "boot $b: the runner started (QS-BOOT)" "$(tail -30 "$out")"
		break
	fi
	entry=$(grep -ao "Booting \`[^']*'" "$out" | tail -n1)
	if [ -n "$entry" ]; then
		ok "boot $b: $uname up, through GRUB: $entry ($(($(date +%s) - t)) s; ${out#"$BUILD"/})"
	else
		not_ok "boot $b: $uname up, through GRUB (no \"Booting\" line from GRUB)" "$(head -c 2000 "$out")"
	fi
	if grep -q '^QS-DONE' "$out"; then done=1; break; fi
	if [ "$suite" = follow ] && [ -z "$followed" ] && grep -q '^QS-STEP [0-9]*: : host-follow$' "$out"; then
		host_follow
	fi
	if [ "$suite" = fallback ]; then
		for v in $(sed -n 's/^QS-STEP [0-9]*: : host-publish \([a-z]*\)$/\1/p' "$out"); do
			host_publish "$v"
		done
	fi
done
[ -n "$done" ] || not_ok "the VM ran the plan to its end (QS-DONE) within $maxboots boots"
# The join is checked against what the repository had then, before the
# build host's first publication (host_follow, host_publish).
[ ! -e "$work/dists-1" ] || dists=$work/dists-1

# --- what the console says -------------------------------------------------------
all=$work/console.txt
for f in "$logs"/[0-9][0-9]-*.log; do
	case ${f##*/} in 00-*) ;; *) cat "$f" ;; esac
done >"$all"
# step_out N: step N's output (between its QS-STEP and QS-RC lines).
step_out() { awk -v n="$1" '$0 ~ "^QS-STEP " n ": " { on = 1; next } $0 ~ "^QS-RC " n ": " { on = 0 } on' "$all"; }
# boot_after N: the number of the first boot after step N.
boot_after() { awk -v n="$1" '$0 ~ "^QS-STEP " n ": " { on = 1 } on && /^QS-BOOT / { sub(/^QS-BOOT /, ""); sub(/:.*/, ""); print; exit }' "$all"; }
# boot_line B KEY: boot B's QS-KEY line (QS-BOOT: the release, QS-CMDLINE).
boot_line() { sed -n "s/^QS-$2 $1: //p" "$all" | head -n1; }
# boot_entry B: the GRUB entry that boot B booted (its last "Booting" line).
boot_entry() { awk -v b="$1" '/^QS-BOOT / { k++ } { print k + 1 "\t" $0 }' "$all" |
	awk -F'\t' -v b="$1" '$1 == b' | grep -ao "Booting \`[^']*'" | tail -n1; }
# boot_of N: the release running when step N ran.
boot_of() { awk -v n="$1" '/^QS-BOOT / { sub(/^QS-BOOT [0-9]+: /, ""); u = $0 } $0 ~ "^QS-STEP " n ": " { print u; exit }' "$all"; }
i=0
while IFS="$tab" read -r cmd comment <&3; do
	i=$((i + 1))
	rc=$(sed -n "s/^QS-RC $i: //p" "$all" | head -n1)
	run=$(boot_of "$i")
	case $suite:$cmd in
	"follow:sleep "* | "fallback:sleep "*)
		# Its end is the reboot unattended-upgrades asks for, not the
		# sleep's: no QS-RC, and the next boot goes on with the plan.
		nb=$(boot_after "$i")
		check "step $i on $run: $cmd, nothing typed: the boot ended before the sleep did (a reboot; boot ${nb:-none} next: $(boot_line "$nb" BOOT))" \
			sh -c '[ -z "$1" ] && [ -n "$2" ] && grep -q "^QS-STEP $3: " "$4"' sh "$rc" "$nb" "$i" "$all"
		continue ;;
	esac
	if [ -z "$rc" ]; then
		not_ok "step $i: $cmd (not reached)"
		continue
	fi
	if [ "$rc" = 0 ]; then ok "step $i on $run: $cmd (exit 0)"; else not_ok "step $i on $run: $cmd (exit $rc)" "$(step_out "$i" | tail -30)"; fi
	case $cmd in
	"apt-get update"*)
		check "step $i: apt-get update reads the signed repository, no warning or error" \
			sh -c 'printf "%s\n" "$1" | grep -Eq "file:$2 (stable|canary) InRelease" && ! printf "%s\n" "$1" | grep -Eq "^(W|E|Err):|NO_PUBKEY|not signed"' \
			sh "$(step_out "$i")" "$vrepo" ;;
	"apt-get install linux-image-rcuqs-"*)
		# What dpkg has after the step (QS-DPKG) and where apt has it from
		# (QS-POLICY, apt-cache policy): the meta-package at the
		# repository's newest version, the build that it depends on, rcuqs.
		meta=$(printf '%s\n' "$cmd" | awk '{ print $3 }')
		got=$(repo_meta "$meta")
		mver=${got%%"$tab"*} dep=${got#*"$tab"}
		kpkg=${dep%% *} kver=${dep#*(= } kver=${kver%)}
		tool=$(dpkg-deb -f "$(ls "$repo"/pool/main/rcuqs/rcuqs_*.deb | tail -n 1)" Version)
		dpkgs=$(sed -n "s/^QS-DPKG $i: //p" "$all")
		check "step $i: installed: $meta $mver, the build it depends on, $kpkg $kver, and rcuqs $tool (dpkg: $(printf '%s\n' "$dpkgs" | awk '$1 == "ii" { printf "%s%s %s", s, $2, $3; s = ", " }'))" \
			sh -c 'l=$1; shift; for w; do printf "%s\n" "$l" | grep -qxF "ii $w" || { echo "not installed: $w"; exit 1; }; done' \
			sh "$dpkgs" "$meta $mver" "$kpkg $kver" "rcuqs $tool"
		# The ring's suite, stable (rcuqs-stable.sources) here.
		from=$(sed -n "s/^QS-POLICY $i: //p" "$all" | awk -v r=" file:$vrepo stable/main " '
			/^[^ ]/ { p = $1; sub(/:$/, "", p); star = 0; next }
			/^ \*\*\* / { star = 1; next }
			/^     [^ ]/ { star = 0; next }
			star && index($0, r) { print p }' | sort -u | tr '\n' ' ')
		check "step $i: apt-cache policy: the installed $meta, $kpkg and rcuqs are the repository's (from file:$vrepo: $from)" \
			sh -c 'l=$1; shift; for p; do case " $l" in *" $p "*) ;; *) echo "not from the repository: $p"; exit 1 ;; esac; done' \
			sh "$from" "$meta" "$kpkg" rcuqs ;;
	"rcuqs-ctl status"*)
		check "step $i: rcuqs-ctl status says \"rcuqs kernel support: yes\"" \
			sh -c "printf '%s\n' \"\$1\" | grep -q 'rcuqs kernel support: yes'" sh "$(step_out "$i")"
		check "step $i: it runs on the rcuqs kernel ($run)" sh -c "case '$run' in *-rcuqs*) ;; *) exit 1 ;; esac" ;;
	"rcuqs-ctl verify"*)
		check "step $i: rcuqs-ctl verify says \"running state matches profile 'latency'\"" \
			sh -c "printf '%s\n' \"\$1\" | grep -q \"running state matches profile 'latency'\"" sh "$(step_out "$i")" ;;
	"rcuqs-kernel status"*)
		if [ "$suite" = fallback ] && [ "$comment" != "the first build committed by its health checks" ]; then
			# On the first build again, by GRUB's default: the trial's
			# kernel rejected, and why.
			b=$(sed -n "/^QS-STEP $i: /q; s/^QS-BOOT \([0-9]*\): .*/\1/p" "$all" | tail -n1)
			env=$(sed -n "s/^QS-GRUBENV $b: //p" "$all")
			check "step $i: it runs on the first build ($run, $good_rel) by GRUB's default, no one-shot entry (grubenv: $(printf '%s' "$env" | tr '\n' ';'))" \
				sh -c '[ "$1" = "$2" ] && ! printf "%s\n" "$3" | grep -q "^next_entry=."' sh "$run" "$good_rel" "$env"
			check "step $i: rcuqs-kernel status says the trial's kernel was rejected: $comment ($(step_out "$i" | grep '^last assessment' | head -n1))" \
				sh -c "printf '%s\n' \"\$1\" | grep -qF -- \"\$2\" && printf '%s\n' \"\$1\" | grep -q '^last assessment: .*-rcuqs[^ ]* rejected: '" \
				sh "$(step_out "$i")" "rejected: $comment"
			case $comment in
			"the check "*)
				# The boot before: the trial kernel, GRUB's one-shot,
				# ended by the assessment's own reboot before the
				# runner ran a step (the shutdown stops the runner,
				# often before its QS-SYSTEM line): no QS-STEP in it,
				# and the kernel's "reboot: Restarting system".
				tu=$(boot_line "$((b - 1))" BOOT)
				seg=$(awk -v b="$((b - 1))" '/^QS-BOOT / { k = $2; sub(/:$/, "", k) } k == b' "$all")
				check "step $i: the boot before ran the kernel on trial ($tu, the build ${pub1:-none} published $what1), no step ran there, and it ended in a reboot the assessment asked for ($(printf '%s\n' "$seg" | grep -a -m1 -e '^QS-SYSTEM' -e 'reboot: Restarting system'))" \
					sh -c '[ "$1" = "$3" ] || exit 1
						printf "%s\n" "$2" | grep -q "^QS-STEP " && exit 1
						printf "%s\n" "$2" | grep -aq "reboot: Restarting system"' sh "$tu" "$seg" "$pub1" ;;
			"it did not come up"*)
				check "step $i: the kernel that did not come up is the build published $what2 (${pub2:-none}): the boot that panicked ran its entry (${panicked_entry:-none})" \
					sh -c '[ -n "$1" ] && case $2 in *"$1"*) ;; *) exit 1 ;; esac' sh "$pub2" "$panicked_entry" ;;
			esac
			continue
		fi
		# The boot it runs in is the new kernel's trial boot, armed by
		# the kernel hook when apt installed it: GRUB's one-shot entry
		# (spent as the boot started, the saved default still the kernel
		# of the boot before), panic= on its command line; then
		# rcuqs-kernel-assess.service committed it; the next boot runs it
		# by GRUB's default.
		b=$(sed -n "/^QS-STEP $i: /q; s/^QS-BOOT \([0-9]*\): .*/\1/p" "$all" | tail -n1)
		from=$(boot_line "$((b - 1))" BOOT)
		env=$(sed -n "s/^QS-GRUBENV $b: //p" "$all")
		check "step $i: it runs on the rcuqs kernel's first boot ($run), which GRUB booted once: next_entry spent, the saved default still $from's entry (grubenv: $(printf '%s' "$env" | tr '\n' ';'))" \
			sh -c "case '$run' in *-rcuqs*) ;; *) exit 1 ;; esac && printf '%s\n' \"\$1\" | grep -q '^saved_entry=.*$from' && ! printf '%s\n' \"\$1\" | grep -q '^next_entry=.'" sh "$env"
		check "step $i: the trial boot's command line has panic=10 (armed by the kernel hook: $(boot_line "$b" CMDLINE))" \
			sh -c "printf '%s\n' '$(boot_line "$b" CMDLINE)' | grep -q ' panic=10'"
		check "step $i: rcuqs-kernel status: $run committed by the trial boot's health checks ($(step_out "$i" | grep '^last assessment' | head -n1))" \
			sh -c "printf '%s\n' \"\$1\" | grep -q '^last assessment: .* $run committed: the trial boot.s health checks passed'" sh "$(step_out "$i")"
		nb=$(boot_after "$i")
		u=$(boot_line "$nb" BOOT)
		check "step $i: after the assessment, GRUB's default boots the rcuqs kernel (boot ${nb:-none}: ${u:-not reached}; $(boot_entry "$nb"))" \
			sh -c "case '$u' in *-rcuqs*) ;; *) exit 1 ;; esac && ! grep -q '^QS-GRUBENV $nb: next_entry=.' '$all'" ;;
	"rcuqs-ctl set-profile"*)
		nb=$(boot_after "$i")
		c=$(boot_line "$nb" CMDLINE)
		check "step $i: the profile's boot form is on the next boot's command line (boot ${nb:-none}: ${c:-not reached})" \
			sh -c "printf '%s\n' '$c' | grep -q 'rcutree\.'" ;;
	"rcuqs-ctl off"*)
		nb=$(boot_after "$i")
		c=$(boot_line "$nb" CMDLINE)
		check "step $i: after off and update-grub, the next boot's command line has no rcutree. parameter (boot ${nb:-none}: ${c:-not reached})" \
			sh -c "[ -n '$c' ] && ! printf '%s\n' '$c' | grep -q 'rcutree\.'" ;;
	"cat /var/log/unattended-upgrades/unattended-upgrades.log "*)
		uu=$(step_out "$i")
		if [ "$suite" = fallback ]; then
			check "step $i: unattended-upgrades upgraded linux-image-rcuqs-6.1-amd64 twice, dpkg unpacked each later build (${published# }), and it rebooted by itself each time ($(printf '%s\n' "$uu" | grep -c 'rebooting$') reboots)" \
				sh -c 'l=$1; shift; [ "$(printf "%s\n" "$l" | grep -c "Packages that will be upgraded: .*linux-image-rcuqs-6.1-amd64")" -ge 2 ] &&
					[ "$(printf "%s\n" "$l" | grep -c "Found /var/run/reboot-required, rebooting$")" -ge 2 ] || exit 1
					for r; do printf "%s\n" "$l" | grep -q "Unpacking linux-image-$r " || { echo "not unpacked: $r"; exit 1; }; done; [ $# = 2 ]' \
				sh "$uu" $published
			continue
		fi
		check "step $i: unattended-upgrades upgraded linux-image-rcuqs-6.1-amd64, dpkg unpacked the new build $new_rel with it, and it rebooted by itself ($(printf '%s\n' "$uu" | grep -m1 'rebooting$'))" \
			sh -c 'printf "%s\n" "$1" | grep -q "Packages that will be upgraded: .*linux-image-rcuqs-6.1-amd64" &&
				printf "%s\n" "$1" | grep -q "Unpacking $2 " && printf "%s\n" "$1" | grep -q "Found /var/run/reboot-required, rebooting$"' \
			sh "$uu" "linux-image-$new_rel" ;;
	*"rcu-params.after"*)
		# The measure suite: what both measures left.
		check "step $i: every rcutree and rcupdate parameter as before both measures (${nparams:-?} parameters, diff: $(step_out "$i" | grep -c '^[<>]') lines)" \
			sh -c '[ "$1" = 0 ] && ! printf "%s\n" "$2" | grep -q "^[<>]"' sh "$rc" "$(step_out "$i")" ;;
	*"rcu-params.before"*)
		nparams=$(step_out "$i" | tail -n 1) ;;
	*"rcuqs-ctl measure --compare"*)
		mb=$(sed -n "/^QS-STEP $i: /q; s/^QS-BOOT \([0-9]*\): .*/\1/p" "$all" | tail -n1)
		c=$(boot_line "$mb" CMDLINE)
		check "step $i: measure --compare ran on the rcuqs kernel ($run) booted with nohz_full=1 ($c)" \
			sh -c 'case $1 in *-rcuqs*) ;; *) exit 1 ;; esac && case " $2 " in *" nohz_full=1 "*) ;; *) exit 1 ;; esac' sh "$run" "$c"
		json=$RESULTS/quickstart-measure.json
		step_out "$i" | sed -n '/^QS-JSON-BEGIN$/,/^QS-JSON-END$/p' | sed '1d;$d' >"$json"
		check "step $i: its JSON ($json) parses, says rcuqs_kernel, and has a row of default, latency and jtsq1 with samples for every load" \
			python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))
assert o["rcuqs_kernel"] is True, "rcuqs_kernel"
rows = o["loads"]
loads = sorted({r["load"] for r in rows})
assert loads, "no rows"
for l in loads:
    for s in ("default", "latency", "jtsq1"):
        assert [r for r in rows if r["load"] == l and r["setting"] == s and r["samples"] > 0], (l, s)' "$json"
		# The kept text: measure's own, then --compare's rows as a table.
		{
			echo
			echo "== rcuqs-ctl measure --compare --seconds $QS_MEASURE_SECONDS --json (the JSON: ${json##*/}), its rows:"
			python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))
f = lambda v, p: "-" if v is None else ("%.*f" % (p, v))
print("%-8s %-8s %7s %8s %8s %8s %8s %8s" % ("load", "setting", "samples", "p50_ms", "p99_ms", "irq/s", "irq/gp", "gp/s"))
for r in o["loads"]:
    print("%-8s %-8s %7d %8s %8s %8s %8s %8s" % (r["load"], r["setting"], r["samples"], f(r["p50_ms"], 1), f(r["p99_ms"], 1),
          f(r["interrupts_per_s"], 1), f(r["interrupts_per_gp"], 2), f(r["gp_per_s"], 1)))
print("restored:", " ".join("%s=%s" % kv for kv in o.get("restored", {}).items()))' "$json" 2>&1
		} >>"$RESULTS/quickstart-measure.txt" ;;
	*"rcuqs-ctl measure --seconds"*)
		mb=$(sed -n "/^QS-STEP $i: /q; s/^QS-BOOT \([0-9]*\): .*/\1/p" "$all" | tail -n1)
		c=$(boot_line "$mb" CMDLINE)
		{
			echo "# rcuqs-ctl measure inside make check-quickstart SUITE=measure's VM, $(date -u '+%Y-%m-%d %H:%M UTC')"
			echo "# (tests/quickstart/README): a Debian 12 userland, the rcuqs kernel $run with the quick"
			echo "# start's latency profile, command line: $c"
			echo "# QEMU $(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p') TCG, single-threaded (${QS_ACCEL}), -smp 2 (CPU 1 nohz_full, CPU 0"
			echo "# housekeeping), on a host of $(nproc) CPUs shared with other work."
			echo "# THE EMULATOR DISTORTS THESE FIGURES: single-threaded TCG runs the two vCPUs in turn on"
			echo "# one host thread, so the isolated CPU's load and the housekeeping CPU's timing take turns"
			echo "# (a grace period's time includes the other vCPU's time slices), the timer and every"
			echo "# interrupt are emulated, and the host's other work moves it all. Compare the rows of"
			echo "# one run with each other, never with a machine: measure on your own hardware"
			echo "# (rcuqs(7), MEASURING ON YOUR OWN HARDWARE)."
			echo
			echo "== rcuqs-ctl measure --seconds $QS_MEASURE_SECONDS (the settings that run):"
			step_out "$i"
		} >"$RESULTS/quickstart-measure.txt"
		check "step $i: measure printed its table (load, p50, p99, interrupts per grace period) for every load" \
			sh -c 'for l in none munmap syscall exit; do grep -q "^$l " "$1" || { echo "no row: $l"; exit 1; }; done; grep -q "irq/gp" "$1"' sh "$RESULTS/quickstart-measure.txt" ;;
	esac
done 3<"$work/plan"
if [ "$suite" = fallback ]; then
	check "the trial kernel that panicked was booted (boot ${panicked:-none}: ${panicked_entry:-none})" test -n "$panicked"
	# From the first trial on (the runner's boot 2; 1 ran the machine's
	# lines on Debian's kernel), every boot the runner saw ran the first
	# build, but one: the trial boot of the build that failed the site's
	# check. The one that panicked never came up.
	rest=$(sed -n 's/^QS-BOOT \([0-9]*\): /\1 /p' "$all" | awk '$1 >= 2 { printf "%s%s", s, $2; s = " " }')
	check "from the first trial on, every boot ran the first build $good_rel, but one, the trial of $pub1; none ran $pub2 ($rest)" \
		sh -c 'n=0; for u in $1; do [ "$u" = "$2" ] && continue; [ "$u" = "$3" ] || exit 1; n=$((n + 1)); done; [ "$n" = 1 ] && [ -n "$4" ]' \
		sh "$rest" "$good_rel" "$pub1" "$pub2"
fi
first_uname=$(sed -n 's/^QS-BOOT 1: //p' "$all")
check "boot 1 runs Debian's kernel ($first_uname)" sh -c "case '$first_uname' in *-amd64) ;; *) exit 1 ;; esac"
fin=$(sed -n 's/^QS-FINAL uname: //p' "$all")
left=$(sed -n 's/^QS-FINAL rcuqs packages installed: //p' "$all" | sed 's/ *$//')
if [ "$suite" = follow ]; then
	check "at the end, GRUB boots the new build by default (${fin:-not reached}, the follow's ${new_rel:-none})" \
		sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh "$fin" "${new_rel:-}"
elif [ "$suite" = fallback ]; then
	check "at the end, GRUB boots the first build by default (${fin:-not reached}, $good_rel)" \
		sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh "$fin" "$good_rel"
else
	check "at the end, GRUB boots Debian's kernel by default (${fin:-not reached})" sh -c "case '$fin' in *-amd64) ;; *) exit 1 ;; esac"
fi
# The README's way back purges rcuqs too; doc/fleet.md's keeps the tool.
case $suite in
fleet) want_left=rcuqs what="no linux-*rcuqs* package is installed, rcuqs (the tool) stays" ;;
fallback) want_left="linux-image-$good_rel linux-image-rcuqs-6.1-amd64 rcuqs"
	what="the first build, the meta-package and rcuqs are installed" ;;
follow) want_left="linux-image-${new_rel:-?} linux-image-rcuqs-6.1-amd64 rcuqs"
	what="the new build, the meta-package and rcuqs are installed" ;;
*) want_left='' what="no rcuqs package is installed" ;;
esac
if [ "$suite" = follow ] || [ "$suite" = fallback ]; then
	# The first build (the fallback's later builds) may stay or go (apt keeps two kernels; this is
	# unattended-upgrades' call): named, not asserted.
	check "at the end, $what (dpkg-query: ${left:-none})" \
		sh -c 'for p in $2; do case " $1 " in *" $p "*) ;; *) echo "not installed: $p"; exit 1 ;; esac; done' sh "$left" "$want_left"
else
	check "at the end, $what (dpkg-query: ${left:-none})" sh -c "grep -q '^QS-FINAL rcuqs packages' '$all' && [ '$left' = '$want_left' ]"
fi
out "1..$n"
out "# check-quickstart $qsname: $((n - failed)) of $n passed, $failed failed, in $(elapsed); console logs in $logs"
[ "$failed" = 0 ]
