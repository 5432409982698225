#!/bin/sh
# check-tuned.sh TOOL TAPFILE WORKDIR: check 'rcuqs-ctl export --format
# tuned' with tuned's own profile loader.
#
# tuned is never installed here: its daemon would tune this machine. The
# Debian package is downloaded (apt-get download; or TUNED_DEB names a
# .deb) and unpacked under WORKDIR, and tuned-load.py runs its Python
# loader from there, with its shipped profiles beside the export. Each
# shipped profile, and local ones that cover what the mapping has to get
# right (an /etc override extending the shipped profile of its name,
# boot-only parameters, a child that takes a parameter back to the
# kernel's default, a child whose line replaces a line of alternatives
# (tuned's drop=), no description, '#' and bytes that are not UTF-8 in a
# description), is exported into one directory and loaded by name; the
# merged result must be what 'rcuqs-ctl show' and 'boot-args' say.
# Then the combination rcuqs(7) gives a cpu-partitioning machine,
# 'tuned-adm profile cpu-partitioning rcuqs-latency': tuned's shipped
# cpu-partitioning, with its variables file in the scratch /etc/tuned,
# merged with the export by the same loader; it must keep what
# cpu-partitioning has alone (its isolation arguments on the command
# line, its other plugins' settings) and add what rcuqs-latency is.
# Self-tests break an export or the combination and expect the check to
# fail.
#
# TAP to TAPFILE. Exit 1 if a test failed.
set -u
tool=$(realpath "$1")
tap=$2
work=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
. "$src/../scripts/tap.sh"

mkdir -p "$(dirname "$tap")"
: >"$tap"
rm -rf "$work/root" "$work/out" "$work/broken" "$work/json" "$work/tmp"
mkdir -p "$work/json" "$work/tmp"

skip_all() {
	echo "1..0 # SKIP $1" >"$tap"
	echo "rcuqs-ctl tuned: skipped, $1"
	exit 0
}
# The tool refuses profiles not owned by root.
[ "$(id -u)" -eq 0 ] || skip_all "needs root (the fake root's profiles must be root-owned)"
command -v python3 >/dev/null 2>&1 || skip_all "no python3 (scripts/install-deps.sh installs it)"

# tuned's Python package and profiles, unpacked, never installed.
tuned=$work/tuned
if [ ! -f "$tuned/root/usr/lib/python3/dist-packages/tuned/profiles/loader.py" ]; then
	rm -rf "$tuned"
	mkdir -p "$tuned"
	deb=${TUNED_DEB:-}
	if [ -z "$deb" ]; then
		(cd "$tuned" && apt-get download tuned) >"$tuned/download.log" 2>&1 ||
			skip_all "'apt-get download tuned' failed: $(tail -n 1 "$tuned/download.log")"
		deb=$(ls "$tuned"/tuned_*.deb)
	fi
	dpkg-deb -x "$deb" "$tuned/root" || skip_all "cannot unpack $deb"
	dpkg-deb -f "$deb" Version >"$tuned/version"
fi
out "# tuned $(cat "$tuned/version" 2>/dev/null), unpacked in $tuned"
export PYTHONPATH="$tuned/root/usr/lib/python3/dist-packages"
tuned_profiles=$tuned/root/usr/lib/tuned
[ -f "$tuned_profiles/default/tuned.conf" ] ||
	skip_all "the tuned package has no /usr/lib/tuned/default/tuned.conf"

# A fake root: the pristine one, the shipped profiles, local ones.
root=$work/root
cp -a "$src/tests/rootfs-pristine" "$root"
find "$root" -name .keep -delete
install -m 0644 "$src"/profiles/*.profile "$root/usr/lib/rcuqs/profiles/"
p=$root/etc/rcuqs/profiles
printf 'include=latency\ndescription=nohz_full CPUs 1-7\t# offloaded \377\nrcu_nocbs=1-7\nrcutree.kthread_prio=10\nrcupdate.rcu_cpu_stall_timeout=60\n' \
	>"$p/nohz.profile"
printf 'include=nohz\nrcutree.cond_resched_qs_limit=0\n' >"$p/quiet.profile"
printf 'include=latency\nrcutree.cond_resched_qs_limit=0\n' >"$p/plain.profile"
printf 'rcutree.jiffies_till_first_fqs=3\n' >"$p/bare.profile"
printf 'include=throughput\ndescription=Local throughput\nrcutree.cond_resched_qs_limit=64\n' \
	>"$p/throughput.profile"
chown -R 0:0 "$root"
chmod -R go-w "$root"
names="default latency throughput linux-3.16 nohz quiet plain bare"

# load NAME [DIR [BASE CMDLINE]]: tuned loads rcuqs-NAME from DIR (the
# export), after the profiles BASE as 'tuned-adm profile BASE rcuqs-NAME'
# does, and it must say what rcuqs-ctl says, BASE kept, the command line
# CMDLINE. The CPUs online for tuned's functions: cpus_online, not the
# host's; their temporary directories (cpu-partitioning's mktemp) under
# $work/tmp.
cpus_online=0-3
load() {
	TMPDIR=$work/tmp TUNED_LOAD_CPUS_ONLINE=$cpus_online \
		python3 "$here/tuned-load.py" "$tuned_profiles" "${2:-$work/out}" "${3:+$3 }rcuqs-$1" \
		"$work/json/show-$1" "$work/json/args-$1" "${4-}" 2>"$work/json/load-$1${3:+-base}.log"
}

mkdir -p "$work/out"
for prof in $names; do
	if ! msg=$("$tool" --root "$root" export --format tuned --output "$work/out" "$prof" 2>&1); then
		not_ok "export $prof" "$msg"
		continue
	fi
	"$tool" --root "$root" --json show "$prof" >"$work/json/show-$prof" &&
		"$tool" --root "$root" --json boot-args "$prof" >"$work/json/args-$prof" ||
		{ not_ok "rcuqs-ctl show/boot-args $prof"; continue; }
	check "tuned's loader: rcuqs-$prof has the sysfs values, command line and includes of '$prof'" load "$prof"
done

# rcuqs(7), CPU PARTITIONING: cpu-partitioning reads isolated_cores (and
# no_balance_cores, for isolcpus=) from /etc/tuned, which the export
# directory stands for; the command line tuned makes is the one that
# rcuqs(7) quotes, which holds cpu-partitioning's isolation.
printf 'isolated_cores=2-3\nno_balance_cores=2-3\n' >"$work/out/cpu-partitioning-variables.conf"
isolation="nohz_full=2-3 rcu_nocbs=2-3 isolcpus=2-3"
quoted=$(awk '/^makes of$/ { m = 1 } m && /^\.EE$/ { exit } m > 1 { print } m && /^\.EX$/ { m = 2 }' \
	"$src/../man/rcuqs.7" | sed 's/\\-/-/g' | tr '\n' ' ')
# holds LINE TOKEN...: each TOKEN is a word of LINE.
holds() {
	line=$1
	shift
	for t; do
		case " $line " in
		*" $t "*) ;;
		*) echo "'$t' is not in '$line'"; return 1 ;;
		esac
	done
}
check "rcuqs(7) quotes a command line for 'cpu-partitioning rcuqs-latency' with $isolation" \
	holds "$quoted" $isolation
expect_fail "self-test: a command line without isolcpus= fails" "^'isolcpus=2-3' is not in" \
	holds "$(echo "$quoted" | sed 's/isolcpus=[^ ]* //')" $isolation
if [ -f "$tuned_profiles/cpu-partitioning/tuned.conf" ]; then
	check "tuned's loader: 'cpu-partitioning rcuqs-latency' keeps cpu-partitioning's settings, adds latency's, makes rcuqs(7)'s command line" \
		load latency "$work/out" cpu-partitioning "$quoted"
	expect_fail "self-test: a quoted command line that is not tuned's fails" \
		"^kernel command line, as quoted" \
		load latency "$work/out" cpu-partitioning "$(echo "$quoted" | sed 's/nosoftlockup //')"
else
	skip "tuned's loader: 'cpu-partitioning rcuqs-latency'" "this tuned has no cpu-partitioning profile"
fi

# The check fails on a broken export, for the right reason.
# broken NAME SED-SCRIPT: a copy of the export with rcuqs-NAME changed.
broken() {
	rm -rf "$work/broken"
	cp -a "$work/out" "$work/broken"
	sed -i "$2" "$work/broken/rcuqs-$1/tuned.conf"
	cmp -s "$work/out/rcuqs-$1/tuned.conf" "$work/broken/rcuqs-$1/tuned.conf" &&
		out "# self-test: sed '$2' changed nothing in rcuqs-$1"
}
broken latency 's/cond_resched_qs_limit=256$/cond_resched_qs_limit=255/'
expect_fail "self-test: a wrong sysfs value fails" "^\[sysfs\]" load latency "$work/broken"
broken latency '/^include=/d'
expect_fail "self-test: a lost include fails" "^files loaded|^\[sysfs\]" load latency "$work/broken"
broken latency 's/^include=rcuqs-default$/include=default/'
expect_fail "self-test: an include that tuned's own 'default' answers fails" \
	"^files loaded.*usr/lib/tuned/default" load latency "$work/broken"
broken plain '/^drop=/d'
expect_fail "self-test: an alternative that a later line replaced, left in tuned's merge, fails" \
	"^\[sysfs\]" load plain "$work/broken"
broken nohz '/^cmdline_rcuqs=/d'
expect_fail "self-test: a missing boot-only parameter fails" "^kernel command line" \
	load nohz "$work/broken"
broken plain '/^cmdline_rcuqs=/d'
expect_fail "self-test: an inherited command line that should be gone fails" \
	"^kernel command line" load plain "$work/broken"
broken nohz 's/^summary=nohz/summary=\xffnohz/'
expect_fail "self-test: a tuned.conf that is not UTF-8 fails" "^tuned cannot load" \
	load nohz "$work/broken"
if [ -f "$tuned_profiles/cpu-partitioning/tuned.conf" ]; then
	broken latency 's/^cmdline_rcuqs=/cmdline_cpu_part=/'
	expect_fail "self-test: an export whose [bootloader] replaces cpu-partitioning's command line fails" \
		"^kernel command line from" load latency "$work/broken" cpu-partitioning ""
	broken latency 's/^\[bootloader\]$/&\nreplace=1/'
	expect_fail "self-test: an export whose [bootloader] replaces cpu-partitioning's whole unit fails" \
		"^kernel command line from" load latency "$work/broken" cpu-partitioning ""
	broken latency 's/^\[bootloader\]$/[scheduler]\nreplace=1\n\n&/'
	expect_fail "self-test: an export whose [scheduler] replaces cpu-partitioning's fails" \
		"^\[scheduler\] of cpu-partitioning after merging" \
		load latency "$work/broken" cpu-partitioning ""
	# Not a broken export: nohz's rcu_nocbs=1-7 comes after
	# cpu-partitioning's rcu_nocbs=2-3 and, in the kernel, replaces it.
	expect_fail "self-test: 'cpu-partitioning rcuqs-nohz', rcu_nocbs= given twice, fails" \
		"^kernel command line parameters given twice: tuned has \['rcu_nocbs'\]" \
		load nohz "$work/out" cpu-partitioning ""
	rm -f "$work/out/cpu-partitioning-variables.conf"
	expect_fail "self-test: cpu-partitioning without its isolated_cores fails" \
		"^tuned cannot load" load latency "$work/out" cpu-partitioning ""
fi

tap_end "rcuqs-ctl tuned"
