#!/bin/sh
# check-ansible.sh: the example playbook doc/ansible/rcuqs.yml, run by
# Debian's ansible-core on this machine against fake machines: TAP to
# $RESULTS/ansible.tap.
#
# A fake machine is a fake root (rcuqs-ctl's test root, RCUQS_ROOT, which
# the playbook's rcuqs_root passes on) with kernels in /boot, GRUB's files
# and its own apt state: APT_CONFIG points apt (the apt module's
# python3-apt) at the root's dpkg status, package lists, sources
# (a file: repository of this test) and caches. Stubs first on a PATH
# without /sbin and /usr/sbin stand in for what would change this machine:
# dpkg -i and apt-get install unpack into the fake root and record the
# package in its dpkg status; update-grub writes the fake grub.cfg as
# grub-mkconfig would (00_header's default, 10_linux's entries with
# GRUB_CMDLINE_LINUX); grub-reboot, grub-set-default and grub-editenv edit
# the fake grubenv; systemctl answers is-system-running and nothing else.
# Each stub refuses to run unless RCUQS_ROOT is a root under this test's
# scratch folder. The test package rcuqs_0.3_all.deb installs wrappers:
# rcuqs-ctl is the tool built from this tree, rcuqs-kernel is
# scripts/rcuqs-kernel.sh with the fake root's running release; both
# refuse any other root. Reboots go through a connection plugin written
# here, rcuqs_fakeboot: the local connection, except that the shutdown
# command ansible.builtin.reboot runs is never run (nor any other
# reboot, poweroff or halt it runs itself): it "boots" the fake machine
# instead (what
# GRUB would boot from the fake grub.cfg and grubenv, with that entry's
# command line, rcutree.* values in the fake /sys, rcuqs.service's
# rcuqs-ctl apply), and the boot id it reads is the fake machine's.
#
#   - ansible-playbook --syntax-check
#   - safety, before anything is written (else the rest is not run): the
#     modules see the stubs first on PATH and apt's fake root; the copy
#     of the package goes under rcuqs_root; the stubs refuse the real root
#   - host A, an rcuqs kernel, rcuqs not installed, rcuqs_deb relative to
#     the directory ansible-playbook runs in (not the playbook's): a
#     missing package stops the play, saying so; --check reports changes
#     and writes nothing; a run copies and installs the package (apt
#     updated its lists first), sets latency and runs update-grub; a
#     second run changes nothing; --check of another profile reports it
#     and writes nothing; with update-grub failing the run fails, and the
#     next run runs update-grub again (and only that), the one after
#     changes nothing
#   - host A, a profile with a boot-only setting (rcu_nocbs): without
#     rcuqs_reboot no reboot, the play names it and verify fails; with
#     rcuqs_reboot=true one reboot into the new command line, verify
#     passes; again: no change, no reboot
#   - host B, a stock kernel with an rcuqs kernel installed, rcuqs from
#     apt (rcuqs_packages): --check reports and writes nothing; a run
#     installs and stages latency (no parameter written); a second run
#     changes nothing; rcuqs_kernel_trial=true: rcuqs-kernel trial, one
#     reboot into the rcuqs kernel, commit, the staged profile in force,
#     verify passes; again: no change, no reboot
#
# Needs root (profiles must be root-owned) and Debian's ansible-core
# (scripts/install-deps.sh installs it); without ansible-playbook every
# test is skipped, saying so; anything else that keeps a test from
# running fails it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
mkdir -p "$RESULTS" "$BUILD"
tap=$RESULTS/ansible.tap
: >"$tap"
. "$top/scripts/tap.sh"
. "$top/tests/lib/grub-stubs.sh"
playbook=$top/doc/ansible/rcuqs.yml
scratch=$(cd "$BUILD" && pwd -P)/ansible-check
rm -rf "$scratch"
mkdir -p "$scratch/logs" "$scratch/cwd/pkgs"
start=$(date +%s)

TESTS="syntax-check|safety|A: missing package|A: --check|A: run|A: again|A: --check throughput|A: update-grub fails|A: update-grub retried|A: again after retry|A: boot-only, no rcuqs_reboot|A: rcuqs_reboot|A: again after reboot|B: --check|B: run (stage)|B: again|B: trial|B: again after trial"
# skip_all REASON / fail_all REASON: every test skipped, or failed.
all() {
	f=$1 r=$2
	oldifs=$IFS
	IFS='|'
	set -- $TESTS
	IFS=$oldifs
	for t; do "$f" "$t" "$r"; done
}
skip_all() {
	all skip "$1"
	tap_end ansible
	exit 0
}
fail_all() {
	all not_ok "$1"
	tap_end ansible
}

command -v ansible-playbook >/dev/null 2>&1 ||
	skip_all "ansible-playbook is not installed (apt-get install ansible-core)"
[ "$(id -u)" -eq 0 ] || fail_all "needs root: rcuqs-ctl takes only root-owned profiles"
for t in /usr/bin/python3 dpkg-deb apt-ftparchive make cc; do
	command -v "$t" >/dev/null 2>&1 || fail_all "$t is missing (scripts/install-deps.sh)"
done
/usr/bin/python3 -c 'import apt' 2>/dev/null ||
	fail_all "python3-apt is missing: the apt module needs it (scripts/install-deps.sh)"
# ansible.builtin.reboot looks the shutdown command up (never run here).
[ -e /sbin/shutdown ] || [ -e /bin/shutdown ] || [ -e /usr/sbin/shutdown ] || [ -e /usr/bin/shutdown ] ||
	fail_all "no shutdown command: ansible.builtin.reboot looks for one (systemd-sysv)"

# The tool, built in a copy: never race the tool's own build in its folder.
mkdir -p "$scratch/tool"
cp -a "$top/rcuqs-ctl/." "$scratch/tool/"
make -s -C "$scratch/tool" BUILD="$scratch/tool-build" >"$scratch/tool-build.log" 2>&1 &&
	[ -x "$scratch/tool/rcuqs-ctl" ] ||
	fail_all "rcuqs-ctl does not build: $(tail -n 3 "$scratch/tool-build.log")"
tool=$scratch/tool/rcuqs-ctl
arch=$(dpkg --print-architecture)

# --- stubs -------------------------------------------------------------------

stubs=$scratch/stubs
mkdir -p "$stubs"
# guard NAME: the start of every stub that acts on a root.
guard() {
	cat <<EOF
#!/bin/sh
# $1 stub of tests/ansible/check-ansible.sh: acts on a fake root only.
case \${RCUQS_ROOT:-} in
"$scratch"/*/root) ;;
*) echo "$1 (test stub): RCUQS_ROOT='\${RCUQS_ROOT:-}' is not a fake root of $scratch: refusing" >&2
   echo "REFUSED $1 \$*" >>"$scratch/calls.log"
   exit 99 ;;
esac
echo "$1 \$*" >>"$scratch/calls.log"
EOF
}

# fake-install DEB: unpack DEB into the fake root, record it installed.
{
	guard fake-install
	cat <<'EOF'
set -eu
d=$1
st=$RCUQS_ROOT/var/lib/dpkg/status
p=$(dpkg-deb --field "$d" Package)
dpkg-deb -x "$d" "$RCUQS_ROOT"
awk -v p="$p" 'BEGIN { RS = ""; ORS = "\n\n" } $0 !~ ("(^|\n)Package: " p "(\n|$)")' "$st" >"$st.new"
dpkg-deb --field "$d" | awk '{ print } /^Package:/ { print "Status: install ok installed" }' >>"$st.new"
echo >>"$st.new"
mv "$st.new" "$st"
echo "Unpacked $p into $RCUQS_ROOT"
EOF
} >"$scratch/fake-install"

# dpkg: queries go to the real dpkg; -i unpacks into the fake root.
cat >"$stubs/dpkg" <<EOF
#!/bin/sh
case \${1:-} in
--print-architecture | --print-foreign-architectures | --compare-versions | --version)
	exec /usr/bin/dpkg "\$@" ;;
--field) shift; exec /usr/bin/dpkg-deb --field "\$@" ;;
esac
EOF
{
	guard dpkg | sed 1d
	cat <<EOF
sim="" install="" debs=""
for a; do
	case \$a in
	--simulate | --dry-run | --no-act) sim=1 ;;
	-i | --install) install=1 ;;
	--force-*) ;;
	-*) echo "dpkg (test stub): unexpected option \$a" >&2; exit 99 ;;
	*) debs="\$debs \$a" ;;
	esac
done
[ -n "\$install" ] && [ -n "\$debs" ] || { echo "dpkg (test stub): only -i, --field and queries" >&2; exit 99; }
for d in \$debs; do
	if [ -n "\$sim" ]; then
		echo "Would install \$(dpkg-deb --field "\$d" Package)"
	else
		"$scratch/fake-install" "\$d" || exit 1
	fi
done
EOF
} >>"$stubs/dpkg"

# apt-get: install NAME... from the test repository, into the fake root.
{
	guard apt-get
	cat <<EOF
sim="" install="" pkgs=""
while [ \$# -gt 0 ]; do
	case \$1 in
	-o) shift ;;
	-y | -q | --force-yes | --no-remove | --auto-remove | --only-upgrade | --fix-broken | --allow-*) ;;
	--simulate | -s) sim=1 ;;
	install) install=1 ;;
	-*) echo "apt-get (test stub): unexpected option \$1" >&2; exit 99 ;;
	*) [ -n "\$install" ] || { echo "apt-get (test stub): only install" >&2; exit 99; }
	   pkgs="\$pkgs \${1%%=*}" ;;
	esac
	shift
done
[ -n "\$install" ] || { echo "apt-get (test stub): only install" >&2; exit 99; }
for p in \$pkgs; do
	set -- "$scratch/repo/\${p}"_*.deb
	[ -f "\$1" ] || { echo "E: Unable to locate package \$p" >&2; exit 100; }
	if [ -n "\$sim" ]; then
		echo "Inst \$p (\$(dpkg-deb --field "\$1" Version) test [all])"
	else
		"$scratch/fake-install" "\$1" || exit 1
	fi
done
EOF
} >"$stubs/apt-get"
{
	guard apt-mark
	echo 'case ${1:-} in manual | unmarkauto) exit 0 ;; esac; exit 99'
} >"$stubs/apt-mark"

# GRUB's tools (tests/lib/grub-stubs.sh, as tests/trial has them), each
# behind guard: update-grub fails while the host's update-grub.fail
# exists.
grub_stubs "$stubs" guard
# systemctl: the boot is complete and no unit failed; nothing else.
cat >"$stubs/systemctl" <<EOF
#!/bin/sh
echo "systemctl \$*" >>"$scratch/calls.log"
case "\$*" in
"is-system-running --wait") echo running ;;
*list-units*) ;;
*) echo "systemctl (test stub): refusing '\$*'" >&2; exit 99 ;;
esac
EOF
chmod 0755 "$stubs"/* "$scratch/fake-install"

# --- the test package and repository -----------------------------------------

pkg=$scratch/pkg
mkdir -p "$pkg/DEBIAN" "$pkg/usr/sbin" "$pkg/usr/lib/rcuqs/profiles"
cat >"$pkg/DEBIAN/control" <<EOF
Package: rcuqs
Version: 0.3
Architecture: all
Maintainer: rcuqs tests <root@localhost>
Section: admin
Priority: optional
Description: rcuqs, as tests/ansible/check-ansible.sh packages it
 Wrappers to the rcuqs-ctl built from the tree and scripts/rcuqs-kernel.sh,
 for fake roots only; the shipped profiles.
EOF
{
	guard rcuqs-ctl | grep -v calls.log
	echo "exec \"$tool\" \"\$@\""
} >"$pkg/usr/sbin/rcuqs-ctl"
{
	guard rcuqs-kernel | grep -v calls.log
	echo "echo \"rcuqs-kernel \$*\" >>\"$scratch/calls.log\""
	echo "RCUQS_UNAME=\$(cat \"\$RCUQS_ROOT/proc/sys/kernel/osrelease\")"
	echo "export RCUQS_UNAME"
	echo "exec \"$top/scripts/rcuqs-kernel.sh\" \"\$@\""
} >"$pkg/usr/sbin/rcuqs-kernel"
cp "$top/rcuqs-ctl/profiles/"*.profile "$pkg/usr/lib/rcuqs/profiles/"
find "$pkg" -type d -exec chmod 0755 {} +
chmod 0755 "$pkg/usr/sbin/"*
chmod 0644 "$pkg/DEBIAN/control" "$pkg/usr/lib/rcuqs/profiles/"*
mkdir -p "$scratch/repo"
dpkg-deb --root-owner-group -Zgzip --build "$pkg" "$scratch/repo/rcuqs_0.3_all.deb" >"$scratch/pkg.log" 2>&1 ||
	fail_all "dpkg-deb --build: $(cat "$scratch/pkg.log")"
cp "$scratch/repo/rcuqs_0.3_all.deb" "$scratch/cwd/pkgs/"
(cd "$scratch/repo" && apt-ftparchive packages . >Packages && apt-ftparchive release . >Release) ||
	fail_all "apt-ftparchive failed"

# --- the connection plugin and the fake boot -----------------------------------

mkdir -p "$scratch/plugins/connection"
cat >"$scratch/plugins/connection/rcuqs_fakeboot.py" <<'EOF'
# rcuqs_fakeboot: the local connection of tests/ansible/check-ansible.sh,
# for a fake machine: a shell command of its own (what action plugins such
# as ansible.builtin.reboot run, not a module's arguments) that would
# reboot, power off or halt is never run; the shutdown command of
# ansible.builtin.reboot runs $RCUQS_FAKEBOOT (the fake machine's boot)
# instead, and the boot id read is the fake machine's ($RCUQS_FAKEBOOT_ID).
from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

DOCUMENTATION = '''
    name: rcuqs_fakeboot
    short_description: local connection with the reboots of a fake machine
    description:
        - The local connection; a shutdown command boots a fake machine instead.
    author: rcuqs tests
    version_added: historical
    extends_documentation_fragment:
        - connection_pipelining
'''

import os
import re
import shlex

from ansible.errors import AnsibleError
from ansible.module_utils._text import to_text
from ansible.plugins.connection.local import Connection as LocalConnection

DANGER = re.compile(r'(?<![\w.-])(shutdown|reboot|poweroff|halt|telinit|kexec)(?![\w.-])')


class Connection(LocalConnection):
    transport = 'rcuqs_fakeboot'

    def exec_command(self, cmd, in_data=None, sudoable=True):
        text = to_text(cmd)
        m = DANGER.search(text)
        if m:
            if m.group(1) != 'shutdown':
                raise AnsibleError('rcuqs_fakeboot: refusing to run %r' % text)
            with open(os.environ['RCUQS_FAKEBOOT_LOG'], 'a') as log:
                log.write('shutdown: %s\n' % text)
            cmd = '/bin/sh -c ' + shlex.quote(os.environ['RCUQS_FAKEBOOT'])
        elif '/proc/sys/kernel/random/boot_id' in text:
            cmd = text.replace('/proc/sys/kernel/random/boot_id',
                               shlex.quote(os.environ['RCUQS_FAKEBOOT_ID']))
        return super(Connection, self).exec_command(cmd, in_data=in_data, sudoable=sudoable)
EOF

# boot ROOT [RELEASE]: boot the fake machine: RELEASE, or what GRUB boots
# from grub.cfg and grubenv (the one-shot next_entry first, cleared; else
# grub.cfg's default, ${saved_entry} from grubenv; an id path of the
# stub's menu, else the first entry), with that entry's command line.
cat >"$scratch/boot" <<EOF
#!/bin/sh
set -eu
R=\$1
case \$R in "$scratch"/*/root) ;; *) echo "boot: not a fake root" >&2; exit 99 ;; esac
EOF
cat >>"$scratch/boot" <<'EOF'
cfg=$R/boot/grub/grub.cfg env=$R/boot/grub/grubenv u=0123-abcd
env_of() { grep "^$1=" "$env" 2>/dev/null | cut -d= -f2- | tail -n 1; }
if [ $# -ge 2 ]; then
	rel=$2
else
	spec=$(env_of next_entry)
	if [ -n "$spec" ]; then
		grep -v '^next_entry=' "$env" >"$env.new" || :
		mv "$env.new" "$env"
	else
		spec=$(sed -n 's/^   set default="\(.*\)"$/\1/p' "$cfg" | grep -v next_entry)
		[ "$spec" != '${saved_entry}' ] || spec=$(env_of saved_entry)
	fi
	rel=$(sed -n '/gnulinux-simple-/{n;s/.*vmlinuz-\([^ ]*\) .*/\1/p;q}' "$cfg")
	case $spec in
	"gnulinux-advanced-$u>gnulinux-"*"-advanced-$u")
		k=${spec#"gnulinux-advanced-$u>gnulinux-"}
		k=${k%"-advanced-$u"}
		! grep -q "'gnulinux-$k-advanced-$u'" "$cfg" || rel=$k ;;
	esac
fi
[ -f "$R/boot/vmlinuz-$rel" ] || { echo "boot: no kernel $rel" >&2; exit 1; }
line=$(grep -m1 "^[[:space:]]*linux /boot/vmlinuz-$rel " "$cfg" | sed 's/^[[:space:]]*//')
args=${line#linux /boot/vmlinuz-$rel }
cmdline=$(echo "BOOT_IMAGE=/boot/vmlinuz-$rel $args" | tr -s ' ' | sed 's/ $//')
echo "$rel" >"$R/proc/sys/kernel/osrelease"
echo "$cmdline" >"$R/proc/cmdline"
p=$R/sys/module/rcutree/parameters q=$R/sys/module/rcupdate/parameters
echo 3 >"$p/jiffies_till_first_fqs"
echo 3 >"$p/jiffies_till_next_fqs"
echo 0 >"$p/kthread_prio"
echo 25 >"$p/jiffies_to_sched_qs"
echo 21 >"$q/rcu_cpu_stall_timeout"
chmod 0644 "$p/jiffies_till_sched_qs"
case $rel in
*rcuqs*)
	mkdir -p "$R/sys/kernel/rcu_qs"
	for c in gp_completed limit_qs urgent_qs resched_kicks cbs_invoked; do echo 0 >"$R/sys/kernel/rcu_qs/$c"; done
	echo auto >"$p/jiffies_till_sched_qs"
	echo 0 >"$p/cond_resched_qs_limit" ;;
*)
	rm -rf "$R/sys/kernel/rcu_qs" "$p/cond_resched_qs_limit"
	echo 18446744073709551615 >"$p/jiffies_till_sched_qs" ;;
esac
# The command line's rcutree.* and rcupdate.* values, where the kernel has them.
for w in $cmdline; do
	case $w in
	rcutree.*=* | rcupdate.*=*)
		m=${w%%.*} kv=${w#*.}
		f=$R/sys/module/$m/parameters/${kv%%=*}
		[ ! -f "$f" ] || echo "${kv#*=}" >"$f" ;;
	esac
done
case $rel in *rcuqs*) ;; *) chmod 0444 "$p/jiffies_till_sched_qs" ;; esac
date +%s%N >"$R/../boot_id"
echo "$rel: $cmdline" >>"$R/../boots.log"
# rcuqs.service: ConditionPathExists=/sys/kernel/rcu_qs and /etc/rcuqs/active.
if [ -d "$R/sys/kernel/rcu_qs" ] && [ -f "$R/etc/rcuqs/active" ] && [ -x "$R/usr/sbin/rcuqs-ctl" ]; then
	RCUQS_ROOT=$R "$R/usr/sbin/rcuqs-ctl" apply >>"$R/../service.log" 2>&1 ||
		echo "rcuqs.service failed" >>"$R/../service.log"
fi
EOF
chmod 0755 "$scratch/boot"

# --- fake machines -------------------------------------------------------------

# machine NAME RUNNING [RELEASE...]: a fake machine with the stock kernel
# 6.1.0-28-amd64 and the RELEASEs installed, booted into RUNNING; no rcuqs
# package; apt's state under the root, its sources the test repository.
machine() {
	h=$1 run=$2
	shift 2
	d=$scratch/$h R=$scratch/$h/root
	mkdir -p "$d"
	cp -a "$top/rcuqs-ctl/tests/rootfs-pristine" "$R"
	find "$R" -name .keep -delete
	for x in boot/grub var/lib/dpkg var/lib/apt/lists/partial var/cache/apt/archives/partial \
		var/log/apt etc/apt/apt.conf.d etc/apt/preferences.d etc/apt/sources.list.d \
		etc/apt/trusted.gpg.d usr/sbin usr/lib/rcuqs/profiles etc/rcuqs/profiles etc/default/grub.d; do
		mkdir -p "$R/$x"
	done
	: >"$R/var/lib/dpkg/status"
	printf 'GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX=""\n' \
		>"$R/etc/default/grub"
	for k in 6.1.0-28-amd64 "$@"; do
		printf 'image %s\n' "$k" >"$R/boot/vmlinuz-$k"
		cp -a "$R/lib/modules/6.1.192" "$R/lib/modules/$k"
	done
	rm -rf "$R/lib/modules/6.1.192"
	echo "deb [trusted=yes] file:$scratch/repo ./" >"$R/etc/apt/sources.list"
	cat >"$d/apt.conf" <<-EOF
	Dir "$R/";
	Dir::State "var/lib/apt/";
	Dir::State::status "$R/var/lib/dpkg/status";
	Dir::Cache "var/cache/apt/";
	Dir::Etc "etc/apt/";
	Dir::Log "var/log/apt/";
	Dir::Bin::dpkg "$stubs/dpkg";
	APT::Architecture "$arch";
	APT::Architectures { "$arch"; };
	Acquire::Languages "none";
	EOF
	printf '[rcuqs]\n%s ansible_connection=local ansible_python_interpreter=/usr/bin/python3 rcuqs_root=%s\n' \
		"$h" "$R" >"$d/hosts"
	chown -R 0:0 "$R"
	chmod -R go-w "$R"
	RCUQS_ROOT=$R "$stubs/update-grub" && "$scratch/boot" "$R" "$run" && : >"$d/boots.log"
}

# play H TAG ARGS...: ansible-playbook on machine H, from $scratch/cwd,
# with a clean environment; the log is logs/TAG.log, the stubs' calls
# logs/TAG.calls, the recap line "ok=N changed=N failed=N" logs/TAG.recap.
play() {
	h=$1 tag=$2
	shift 2
	R=$scratch/$h/root
	: >"$scratch/calls.log"
	(cd "$scratch/cwd" && env -i HOME="$scratch/home" LC_ALL=C.UTF-8 \
		PATH="$stubs:$R/usr/sbin:/usr/bin:/bin" APT_CONFIG="$scratch/$h/apt.conf" \
		ANSIBLE_CONFIG="$scratch/ansible.cfg" ANSIBLE_HOME="$scratch/ansible" \
		ANSIBLE_LOCAL_TEMP="$scratch/ansible/tmp" ANSIBLE_REMOTE_TEMP="$scratch/ansible/remote" \
		ANSIBLE_COLLECTIONS_PATH="$scratch/ansible/collections" ANSIBLE_COLLECTIONS_SCAN_SYS_PATH=false \
		ANSIBLE_CONNECTION_PLUGINS="$scratch/plugins/connection" ANSIBLE_NOCOLOR=1 ANSIBLE_PIPELINING=1 \
		RCUQS_FAKEBOOT="$scratch/boot $R" RCUQS_FAKEBOOT_ID="$scratch/$h/boot_id" \
		RCUQS_FAKEBOOT_LOG="$scratch/$h/shutdown.log" \
		"$@") >"$scratch/logs/$tag.log" 2>&1
	rc=$?
	cp "$scratch/calls.log" "$scratch/logs/$tag.calls"
	sed -n "s/^$h *: ok=\([0-9]*\) *changed=\([0-9]*\) .* failed=\([0-9]*\) .*/ok=\1 changed=\2 failed=\3/p" \
		"$scratch/logs/$tag.log" >"$scratch/logs/$tag.recap"
	return $rc
}
# pb H TAG ARGS...: the playbook on H (never with become).
pb() {
	h=$1 tag=$2
	shift 2
	play "$h" "$tag" ansible-playbook -i "$scratch/$h/hosts" -e ansible_become=false "$@" "$playbook"
}
recap() { cat "$scratch/logs/$1.recap"; }
# want TAG ERE: the recap matches ERE; else the recap and the log's end.
want() {
	recap "$1" | grep -Eqx "$2" && return 0
	echo "recap '$(recap "$1")', want /$2/"
	why "$1"
	return 1
}
why() {
	grep -E '^(fatal|failed):|FAILED|ERROR|msg' "$scratch/logs/$1.log" | head -n 12
	echo "--- log's end:"
	tail -n 25 "$scratch/logs/$1.log"
	echo "--- stubs called:"
	cat "$scratch/logs/$1.calls"
}
# fails MESSAGE TAG: print MESSAGE and why, fail.
fails() {
	echo "$1"
	why "$2"
	return 1
}
called() { grep -c -- "^$2" "$scratch/logs/$1.calls"; }
# snap H: the fake machine's files (apt's binary caches aside), to compare.
snap() {
	(cd "$scratch/$1/root" && find . -path ./var/cache/apt -prune -o -type f -exec sha256sum {} + | sort &&
		find . ! -path './var/cache/apt/*' -printf '%p %m %s\n' | sort)
}
param() { cat "$scratch/$1/root/sys/module/rcutree/parameters/$2"; }
boots() { wc -l <"$scratch/$1/boots.log"; }

printf '[defaults]\nretry_files_enabled = False\n' >"$scratch/ansible.cfg"
cat >"$scratch/envcheck.py" <<'EOF'
import os
import apt_pkg
apt_pkg.init_config()
print("PATH=" + os.environ["PATH"])
print("status=" + apt_pkg.config.find_file("Dir::State::status"))
print("lists=" + apt_pkg.config.find_dir("Dir::State::Lists"))
print("dpkg=" + apt_pkg.config.find_file("Dir::Bin::dpkg"))
EOF
mkdir -p "$scratch/home" "$scratch/ansible/collections"

# --- the tests ---------------------------------------------------------------------

syntax() {
	play none syntax ansible-playbook --syntax-check -i localhost, "$playbook" && return 0
	tail -n 20 "$scratch/logs/syntax.log"
	return 1
}
check "ansible-playbook --syntax-check doc/ansible/rcuqs.yml" syntax

machine hosta 6.1.192-rcuqs2 6.1.192-rcuqs2 >"$scratch/logs/machine-a.log" 2>&1 &&
	machine hostb 6.1.0-28-amd64 6.1.192-rcuqs2 >"$scratch/logs/machine-b.log" 2>&1 ||
	fail_all "the fake machines: $(cat "$scratch"/logs/machine-*.log)"

RA=$scratch/hosta/root RB=$scratch/hostb/root

# Safety: the modules' PATH starts with the stubs and has no sbin; apt's
# configuration, as the apt module reads it, is the fake root's. Nothing
# else runs without it.
safety() {
	for h in hosta hostb; do
		R=$scratch/$h/root
		play "$h" "safety-$h" ansible -i "$scratch/$h/hosts" "$h" -e ansible_become=false \
			-m ansible.builtin.command -a "/usr/bin/python3 $scratch/envcheck.py"
		log=$scratch/logs/safety-$h.log
		grep -qx "PATH=$stubs:$R/usr/sbin:/usr/bin:/bin" "$log" &&
			grep -qx "status=$R/var/lib/dpkg/status" "$log" &&
			grep -qx "lists=$R/var/lib/apt/lists/" "$log" &&
			grep -qx "dpkg=$stubs/dpkg" "$log" || {
			echo "$h: the modules' environment is not the test's:"
			cat "$log"
			return 1
		}
	done
	# The play's rcuqs_root (from the inventory) reaches the copy's
	# destination: with the package already there, --check sees nothing
	# to copy (it would see a change if the copy went to this machine's
	# /var/cache/apt/archives).
	cp "$scratch/repo/rcuqs_0.3_all.deb" "$RA/var/cache/apt/archives/rcuqs-ansible.deb"
	chmod 0644 "$RA/var/cache/apt/archives/rcuqs-ansible.deb"
	pb hosta safety-root --check -e rcuqs_deb=pkgs/rcuqs_0.3_all.deb
	rm -f "$RA/var/cache/apt/archives/rcuqs-ansible.deb"
	sed -n '/^TASK \[Copy the rcuqs package/,/^$/p' "$scratch/logs/safety-root.log" | grep -q '^ok: \[hosta\]' || {
		echo "--check with the package already under rcuqs_root: the copy is not 'ok' (is rcuqs_root the copy's destination?):"
		cat "$scratch/logs/safety-root.log"
		return 1
	}
	# The stubs and wrappers refuse the real root.
	for s in update-grub dpkg apt-get; do
		out=$(env RCUQS_ROOT=/ "$stubs/$s" -i x 2>&1) && { echo "$s ran with RCUQS_ROOT=/"; return 1; }
		case $out in *refusing*) ;; *) echo "$s: $out"; return 1 ;; esac
	done
}
f0=$failed
check "the modules run with the stubs first on PATH and apt's configuration of the fake root; the copy goes under rcuqs_root; the stubs refuse the real root" safety
if [ "$failed" -gt "$f0" ]; then
	oldifs=$IFS
	IFS='|'
	set -- $TESTS
	IFS=$oldifs
	shift 2
	for t; do not_ok "$t" "not run: the safety check failed"; done
	tap_end ansible
fi

# Host A: rcuqs kernel, rcuqs from the .deb (relative to the cwd).
a_missing() {
	before=$(snap hosta)
	pb hosta a-missing -e rcuqs_deb=pkgs/rcuqs_0.2_all.deb
	want a-missing 'ok=[0-9]+ changed=0 failed=1' || return 1
	grep -q "rcuqs_deb=pkgs/rcuqs_0.2_all.deb: $scratch/cwd/pkgs/rcuqs_0.2_all.deb is not a file" "$scratch/logs/a-missing.log" ||
		fails "no message naming the missing package" a-missing || return 1
	[ "$(snap hosta)" = "$before" ] || fails "the fake root changed" a-missing
}
check "A: rcuqs_deb naming a missing file stops the play, naming the path resolved from the current directory; nothing changed" a_missing

a_check() {
	before=$(snap hosta)
	pb hosta a-check --check -e rcuqs_deb=pkgs/rcuqs_0.3_all.deb
	want a-check 'ok=[0-9]+ changed=2 failed=0' || return 1
	grep -q 'rcuqs is not installed yet: a run installs it, then sets profile latency' "$scratch/logs/a-check.log" ||
		fails "no 'not installed yet' message" a-check || return 1
	[ "$(snap hosta)" = "$before" ] || fails "--check changed the fake root: $(snap hosta | diff - /dev/null | head -n 5)" a-check || return 1
	[ ! -s "$scratch/logs/a-check.calls" ] || fails "--check ran stubs" a-check
}
check "A: --check on a host without rcuqs (rcuqs_deb relative to the current directory): changed=2 (the copy, 'not installed yet'), nothing written, no stub run" a_check

a_run() {
	pb hosta a-run -e rcuqs_deb=pkgs/rcuqs_0.3_all.deb -e rcuqs_apt_cache_valid_time=0
	want a-run 'ok=[0-9]+ changed=4 failed=0' || return 1
	cmp -s "$RA/var/cache/apt/archives/rcuqs-ansible.deb" "$scratch/repo/rcuqs_0.3_all.deb" ||
		fails "the package was not copied to the host" a-run || return 1
	[ "$(called a-run 'dpkg.* -i ')" = 1 ] && [ -x "$RA/usr/sbin/rcuqs-ctl" ] &&
		grep -q '^Package: rcuqs$' "$RA/var/lib/dpkg/status" ||
		fails "rcuqs was not installed through dpkg -i" a-run || return 1
	ls "$RA"/var/lib/apt/lists/*Packages* >/dev/null 2>&1 ||
		fails "apt did not update its lists (update_cache)" a-run || return 1
	[ "$(cat "$RA/etc/rcuqs/active")" = latency ] && [ "$(param hosta cond_resched_qs_limit)" = 256 ] ||
		fails "latency is not in force" a-run || return 1
	[ "$(called a-run update-grub)" = 1 ] &&
		grep -q 'ro rcutree.cond_resched_qs_limit=256 rcutree.jiffies_till_nohz_qs=1 quiet$' "$RA/boot/grub/grub.cfg" ||
		fails "update-grub did not run once after the drop-in was written" a-run || return 1
	grep -q 'ok: \[hosta\]' "$scratch/logs/a-run.log" && grep -q 'TASK \[Verify the running state' "$scratch/logs/a-run.log" ||
		fails "verify did not run" a-run
}
check "A: a run copies and installs the package (apt lists updated first), sets latency, runs update-grub once, verifies: changed=4" a_run

a_again() {
	pb hosta a-again -e rcuqs_deb=pkgs/rcuqs_0.3_all.deb
	want a-again 'ok=[0-9]+ changed=0 failed=0' || return 1
	[ "$(called a-again 'dpkg.* -i ')" = 0 ] && [ "$(called a-again update-grub)" = 0 ] ||
		fails "dpkg -i or update-grub ran again" a-again
}
check "A: a second run changes nothing: changed=0, no dpkg -i, no update-grub" a_again

a_check_throughput() {
	before=$(snap hosta)
	pb hosta a-check-tp --check -e rcuqs_deb=pkgs/rcuqs_0.3_all.deb -e rcuqs_profile=throughput
	want a-check-tp 'ok=[0-9]+ changed=1 failed=0' || return 1
	[ "$(snap hosta)" = "$before" ] || fails "--check changed the fake root" a-check-tp || return 1
	[ "$(called a-check-tp 'dpkg.* -i ')" = 0 ] && [ "$(called a-check-tp update-grub)" = 0 ] ||
		fails "--check ran dpkg -i or update-grub" a-check-tp
}
check "A: --check of another profile: changed=1, nothing written" a_check_throughput

a_grub_fails() {
	touch "$scratch/hosta/update-grub.fail"
	pb hosta a-grub-fails -e rcuqs_profile=throughput
	rm -f "$scratch/hosta/update-grub.fail"
	want a-grub-fails 'ok=[0-9]+ changed=1 failed=1' || return 1
	[ "$(cat "$RA/etc/rcuqs/active")" = throughput ] && [ "$(param hosta jiffies_till_sched_qs)" = 1000 ] ||
		fails "throughput is not set" a-grub-fails || return 1
	grep -q 'failed to get canonical path' "$scratch/logs/a-grub-fails.log" ||
		fails "the play did not show update-grub's error" a-grub-fails || return 1
	! grep -q 'rcutree.jiffies_till_sched_qs=1000' "$RA/boot/grub/grub.cfg" ||
		fails "grub.cfg changed although update-grub failed" a-grub-fails
}
check "A: throughput with update-grub failing: the profile set, the play fails at update-grub" a_grub_fails

a_grub_retried() {
	pb hosta a-grub-retried -e rcuqs_profile=throughput
	want a-grub-retried 'ok=[0-9]+ changed=1 failed=0' || return 1
	[ "$(called a-grub-retried update-grub)" = 1 ] && grep -q 'rcutree.jiffies_till_sched_qs=1000' "$RA/boot/grub/grub.cfg" ||
		fails "update-grub was not run again" a-grub-retried || return 1
	grep -q 'changed: \[hosta\]' "$scratch/logs/a-grub-retried.log" &&
		sed -n '/TASK \[Run update-grub\]/,/^$/p' "$scratch/logs/a-grub-retried.log" | grep -q 'changed: \[hosta\]' ||
		fails "the change is not update-grub's" a-grub-retried
}
check "A: the next run runs update-grub again, and only that: changed=1" a_grub_retried

a_again2() {
	pb hosta a-again2 -e rcuqs_profile=throughput
	want a-again2 'ok=[0-9]+ changed=0 failed=0' || return 1
	[ "$(called a-again2 update-grub)" = 0 ] || fails "update-grub ran again" a-again2
}
check "A: the run after changes nothing: changed=0, no update-grub" a_again2

# A profile with a boot-only setting.
printf 'include=latency\ndescription=latency with rcu_nocbs (tests/ansible)\nrcu_nocbs=1\n' \
	>"$RA/etc/rcuqs/profiles/nocbs.profile"
chmod 0644 "$RA/etc/rcuqs/profiles/nocbs.profile"
a_noreboot() {
	pb hosta a-noreboot -e rcuqs_profile=nocbs
	want a-noreboot 'ok=[0-9]+ changed=2 failed=1' || return 1
	[ "$(boots hosta)" = 0 ] && [ ! -s "$scratch/hosta/shutdown.log" ] || fails "the host was rebooted" a-noreboot || return 1
	grep -q 'hosta needs a reboot: for rcu_nocbs=1 (rcuqs_reboot=true reboots it)' "$scratch/logs/a-noreboot.log" ||
		fails "the play did not name the reboot" a-noreboot || return 1
	sed -n '/TASK \[Verify the running state/,/^$/p' "$scratch/logs/a-noreboot.log" | grep -q 'rcu_nocbs: not set on /proc/cmdline' ||
		fails "verify did not fail on rcu_nocbs" a-noreboot
}
check "A: a profile with rcu_nocbs, rcuqs_reboot unset: set, update-grub, no reboot, the play names it, verify fails (changed=2 failed=1)" a_noreboot

a_reboot() {
	pb hosta a-reboot -e rcuqs_profile=nocbs -e rcuqs_reboot=true -e ansible_connection=rcuqs_fakeboot
	want a-reboot 'ok=[0-9]+ changed=1 failed=0' || return 1
	[ "$(boots hosta)" = 1 ] && grep -q '^6.1.192-rcuqs2: .* rcu_nocbs=1' "$scratch/hosta/boots.log" ||
		fails "not one reboot into the new command line: $(cat "$scratch/hosta/boots.log")" a-reboot || return 1
	grep -q '^shutdown: .*shutdown -r' "$scratch/hosta/shutdown.log" ||
		fails "ansible.builtin.reboot did not run the shutdown command" a-reboot || return 1
	grep -q ' rcu_nocbs=1' "$RA/proc/cmdline" && [ "$(param hosta cond_resched_qs_limit)" = 256 ] ||
		fails "the fake boot lacks the boot form" a-reboot
}
check "A: rcuqs_reboot=true: one reboot into the command line with rcu_nocbs=1, verify passes (changed=1)" a_reboot

a_again3() {
	pb hosta a-again3 -e rcuqs_profile=nocbs -e rcuqs_reboot=true -e ansible_connection=rcuqs_fakeboot
	want a-again3 'ok=[0-9]+ changed=0 failed=0' || return 1
	[ "$(boots hosta)" = 1 ] || fails "rebooted again" a-again3
}
check "A: again: changed=0, no reboot" a_again3

# Host B: a stock kernel, the rcuqs kernel installed, rcuqs from apt.
# Its package lists as a host that ran apt update once has them (--check
# does not update them).
b_lists() {
	env -i PATH="$stubs:/usr/bin:/bin" APT_CONFIG="$scratch/hostb/apt.conf" LC_ALL=C.UTF-8 \
		RCUQS_ROOT="$RB" /usr/bin/python3 -c 'import apt; c = apt.Cache(); c.update(); c.open(); print(c["rcuqs"].candidate.version)'
}
b_check() {
	v=$(b_lists 2>&1) && [ "$v" = 0.3 ] || { echo "apt update of hostb's fake root: $v"; return 1; }
	before=$(snap hostb)
	pb hostb b-check --check -e '{"rcuqs_packages": ["rcuqs"]}'
	want b-check 'ok=[0-9]+ changed=2 failed=0' || return 1
	[ "$(snap hostb)" = "$before" ] || fails "--check changed the fake root" b-check || return 1
	grep -q 'apt-get .*--simulate.* install rcuqs' "$scratch/logs/b-check.calls" &&
		[ "$(called b-check 'apt-get')" = 1 ] || fails "not one apt-get --simulate" b-check
}
check "B: --check, rcuqs from apt (rcuqs_packages): changed=2 (apt, 'not installed yet'), nothing written" b_check

b_run() {
	pb hostb b-run -e '{"rcuqs_packages": ["rcuqs"]}'
	want b-run 'ok=[0-9]+ changed=3 failed=0' || return 1
	grep -q 'apt-get .* install rcuqs' "$scratch/logs/b-run.calls" && [ -x "$RB/usr/sbin/rcuqs-ctl" ] ||
		fails "rcuqs not installed through apt-get" b-run || return 1
	[ "$(cat "$RB/etc/rcuqs/active")" = latency ] && [ "$(param hostb jiffies_till_sched_qs)" = 18446744073709551615 ] &&
		[ ! -e "$RB/sys/module/rcutree/parameters/cond_resched_qs_limit" ] ||
		fails "latency not staged, or a parameter written" b-run || return 1
	[ "$(called b-run update-grub)" = 1 ] && grep -q 'rcutree.cond_resched_qs_limit=256' "$RB/boot/grub/grub.cfg" ||
		fails "update-grub did not run" b-run || return 1
	grep -q 'hostb needs a reboot: into the rcuqs kernel, for which the profile is staged' "$scratch/logs/b-run.log" ||
		fails "the play did not say the profile is staged" b-run
}
check "B: a run installs rcuqs from apt and stages latency on the stock kernel (no parameter written), update-grub: changed=3" b_run

b_again() {
	pb hostb b-again -e '{"rcuqs_packages": ["rcuqs"]}'
	want b-again 'ok=[0-9]+ changed=0 failed=0' || return 1
	! grep -q 'apt-get\|update-grub' "$scratch/logs/b-again.calls" || fails "apt-get or update-grub ran" b-again
}
check "B: a second run changes nothing: changed=0" b_again

b_trial() {
	pb hostb b-trial -e '{"rcuqs_packages": ["rcuqs"]}' -e rcuqs_kernel_trial=true -e ansible_connection=rcuqs_fakeboot
	want b-trial 'ok=[0-9]+ changed=3 failed=0' || return 1
	grep -q '^rcuqs-kernel trial$' "$scratch/logs/b-trial.calls" && grep -q '^rcuqs-kernel commit$' "$scratch/logs/b-trial.calls" ||
		fails "no rcuqs-kernel trial and commit" b-trial || return 1
	[ "$(boots hostb)" = 1 ] && grep -q '^6.1.192-rcuqs2: .*rcutree.cond_resched_qs_limit=256' "$scratch/hostb/boots.log" ||
		fails "not one boot into the rcuqs kernel with the staged boot form: $(cat "$scratch/hostb/boots.log")" b-trial || return 1
	[ "$(param hostb cond_resched_qs_limit)" = 256 ] || fails "latency not in force" b-trial || return 1
	[ ! -e "$RB/var/lib/rcuqs/kernel/trial" ] && [ "$(cat "$RB/var/lib/rcuqs/kernel/committed")" = 6.1.192-rcuqs2 ] ||
		fails "the trial was not committed" b-trial || return 1
	grep -q 'ok: \[hostb\]' "$scratch/logs/b-trial.log" &&
		sed -n '/TASK \[Verify the running state/,/^$/p' "$scratch/logs/b-trial.log" | grep -q 'ok: \[hostb\]' ||
		fails "verify did not pass" b-trial || return 1
	# What GRUB boots from now on: the rcuqs kernel.
	"$scratch/boot" "$RB" >/dev/null && [ "$(cat "$RB/proc/sys/kernel/osrelease")" = 6.1.192-rcuqs2 ] ||
		fails "the next boot does not run the rcuqs kernel" b-trial
	: >"$scratch/hostb/boots.log"
}
check "B: rcuqs_kernel_trial=true: rcuqs-kernel trial, one reboot into the rcuqs kernel, commit, the staged latency in force, verify passes: changed=3" b_trial

b_again2() {
	pb hostb b-again2 -e '{"rcuqs_packages": ["rcuqs"]}' -e rcuqs_kernel_trial=true -e ansible_connection=rcuqs_fakeboot
	want b-again2 'ok=[0-9]+ changed=0 failed=0' || return 1
	[ "$(boots hostb)" = 0 ] && ! grep -q 'rcuqs-kernel trial\|rcuqs-kernel commit' "$scratch/logs/b-again2.calls" ||
		fails "rebooted, or trial or commit ran again" b-again2
}
check "B: again: changed=0, no reboot, no trial, no commit" b_again2

echo "# ansible-core $(ANSIBLE_HOME="$scratch/ansible" ANSIBLE_LOCAL_TEMP="$scratch/ansible/tmp" ansible-playbook --version 2>/dev/null | sed -n '1s/.*core \([0-9.]*\).*/\1/p'); $(($(date +%s) - start)) s" | tee -a "$tap"
tap_end ansible
