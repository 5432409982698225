#!/bin/bash
# check-guest.sh VARIANT: every boot of the guest suite on one kernel, the
# results as one TAP file, $RESULTS/guest-VARIANT.tap. Exit 1 on any
# failure (a failed test, a timeout, no clean power-off, a kernel splat).
#
# Boots: 'cmdline' (both tunables on the kernel command line, CPUs 2-3
# nohz_full, user space on CPUs 0-1), 'main' (no tunables given, no
# recorded profile; all runtime tests, rcuqs-ctl at work), 'demo-rounds'
# (make demo's profile sequence eight times beside the floor, nohz_full=2-3
# lpj=1; 47-demo-rounds.sh), 'active' (latency recorded as the active
# profile: rcuqs.service applies it at boot; on dynamic-6.12 under
# preempt=full, CPUs 2-3 nohz_full, user space on CPUs 0-1), 'bootargs-latency' and
# 'bootargs-throughput' (the command line is what "rcuqs-ctl boot-args P"
# prints, rcuqs.service masked) and 'torture' (the same for linux-3.16,
# then rcutorture with CPU hotplug, CPUs 1-3 nohz_full, rewriting the
# tunables itself while rcuqs-ctl set-profile switches every 100 ms) when
# RCUQS_TORTURE lists the variant (default: none dynamic dynamic-6.12 lazy-7.3; RCUQS_TORTURE=
# skips it and boots 'bootargs-linux-3.16' instead; RCUQS_TORTURE_SECS sets
# its length, 60), and on 7.3 'nohz-qs' (46-nohz-qs.sh, CPUs 2-3
# nohz_full, user space on CPUs 0-1), 'nohzmt' (46-nohz-qs-mt.sh, the
# same under multi-threaded TCG) and 'nohzpatience' (46-nohz-patience.sh,
# rcutree.nohz_full_patience_delay=500). rcuqs.test_active=P records P as
# the active profile before rcuqs.service looks
# (units/rcuqs-test-active.service). RCUQS_BOOTS="B..." boots only those.
set -uo pipefail
v=${1:?usage: check-guest.sh VARIANT}
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
RESULTS=${RESULTS:-$BUILD/results}
torture=${RCUQS_TORTURE-none dynamic dynamic-6.12 lazy-7.3}
mkdir -p "$RESULTS" "$BUILD/guest-$v"
body=$BUILD/guest-$v/all.body
: >"$body"
rc=0
start=$(date +%s)
# Off costs one NOP: read from the built vmlinux, before any boot.
"$here/check-nop.sh" "$v" >>"$body" || rc=1

# bootargs P: what the tool and profiles staged into this image print for
# "rcuqs-ctl boot-args P", run on the host against a scratch copy of the
# tool's fake root (rcuqs-ctl/tests/rootfs-pristine).
stage=$BUILD/guest-$v/stage
fakeroot=$BUILD/guest-$v/bootargs-root
rm -rf "$fakeroot"
cp -a "$here/../rcuqs-ctl/tests/rootfs-pristine" "$fakeroot"
find "$fakeroot" -name .keep -delete
cp "$stage"/usr/lib/rcuqs/profiles/*.profile "$fakeroot/usr/lib/rcuqs/profiles/"
chown -R 0:0 "$fakeroot" 2>/dev/null
chmod -R go-w "$fakeroot"
# A TAP line of its own in the body: a failure here fails the check even
# though the caller reads the output through $(...).
bootargs() {
	local a
	if a=$("$stage/usr/sbin/rcuqs-ctl" --root "$fakeroot" boot-args "$1" 2>&1) && [ -n "$a" ]; then
		echo "ok - [host] rcuqs-ctl boot-args $1 (staged tool, fake root): $a" >>"$body"
	else
		echo "not ok - [host] rcuqs-ctl boot-args $1 (staged tool, fake root) failed: $a" >>"$body"
		return
	fi
	echo "$a"
}

# boot NAME [CMDLINE-ARG...]: one boot, RCUQS_BOOT_JOBS (default 1) at a
# time, each into its own part of the body; the parts are joined in boot
# order at the end. make check boots its last kernel's suite two at a
# time: no other guest or build is left to share the CPUs with then.
boot_jobs=${RCUQS_BOOT_JOBS:-1}
[[ $boot_jobs =~ ^[1-9][0-9]*$ ]] || { echo "check-guest: RCUQS_BOOT_JOBS '$boot_jobs' is not a number" >&2; exit 2; }
boots=()
# Boots run under multi-threaded TCG (RCUQS_ACCEL, when set, wins).
MT_BOOTS="nohzmt"
boot() {
	local b=$1 part=$BUILD/guest-$v/$1.part
	shift
	# RCUQS_BOOTS="B...": only those boots (beside-build.sh).
	case " ${RCUQS_BOOTS:-$b} " in *" $b "*) ;; *) return 0 ;; esac
	boots+=("$b")
	: >"$part"
	rm -f "$part.rc"
	while (($(jobs -rp | wc -l) >= boot_jobs)); do wait -n; done
	(
		t0=$(date +%s)
		case " $MT_BOOTS " in
		*" $b "*) export RCUQS_ACCEL=${RCUQS_ACCEL:--accel tcg,thread=multi} ;;
		esac
		"$here/run-guest.sh" -o "$part" "$v" "$b" "$@"
		echo $? >"$part.rc"
		echo "# boot $b: $(($(date +%s) - t0)) s" >>"$part"
	) &
}
# User space stays on CPUs 0-1 where CPUs 2-3 are nohz_full, as on a
# machine set up for nohz_full (systemd's CPUAffinity=): a task of the
# suite's own landing beside a loop on CPU 2 turns its tick back on and
# ends its grace periods by context switches, which is not the setting
# the effect and recommend tests measure.
HOUSEKEEPING="nohz_full=2-3 systemd.cpu_affinity=0-1"
# jiffies_till_sched_qs three times: 0 is refused with a message (10-params),
# "auto" must not log a computed delay before the FQS delays are known,
# the last one wins.
# shellcheck disable=SC2086
boot cmdline rcutree.jiffies_till_sched_qs=0 rcutree.jiffies_till_sched_qs=auto \
	rcutree.jiffies_till_sched_qs=17 rcutree.cond_resched_qs_limit=4096 $HOUSEKEEPING
boot main
# make demo's sequence, eight rounds beside the floor (47-demo-rounds),
# booted as make demo boots (nohz_full=2-3, user space anywhere), with
# lpj=1: every CPU's ndelay() ends before its first PAUSE, the delay
# calibration under which 6.1's demo missed the floor (issue 40).
boot demo-rounds nohz_full=2-3 lpj=1
# On 6.12, 'active' runs under preempt=full, where latency's limit cannot
# act (59-preempt-full), with CPUs 2-3 nohz_full for its loop.
active_args=
[ "$v" = dynamic-6.12 ] && active_args="preempt=full $HOUSEKEEPING"
# shellcheck disable=SC2086
boot active rcuqs.test_active=latency $active_args
for p in latency throughput; do
	# shellcheck disable=SC2046
	boot bootargs-$p $(bootargs $p) systemd.mask=rcuqs.service rcuqs.test_active=$p
done
p=linux-3.16
case " $torture " in
*" $v "*)
	# shellcheck disable=SC2046
	boot torture $(bootargs $p) systemd.mask=rcuqs.service rcuqs.test_active=$p \
		rcuqs.torture_secs=${RCUQS_TORTURE_SECS:-60} nohz_full=1-3
	;;
*)
	# shellcheck disable=SC2046
	boot bootargs-$p $(bootargs $p) systemd.mask=rcuqs.service rcuqs.test_active=$p
	;;
esac

# 7.3 only: rcutree.jiffies_till_nohz_qs against jiffies_till_sched_qs=1
# and the floor (no kernel loop, CPU 2 busy in user space), a kernel
# loop on nohz_full CPU 2 (46-nohz-qs);
# its request where the asking and the asked vCPU run in parallel
# (46-nohz-qs-mt, multi-threaded TCG: 7.3's series flips no static key);
# and under rcutree.nohz_full_patience_delay (46-nohz-patience).
case $v in
*-7.3)
	# shellcheck disable=SC2086
	boot nohz-qs $HOUSEKEEPING
	# shellcheck disable=SC2086
	boot nohzmt $HOUSEKEEPING
	# shellcheck disable=SC2086
	boot nohzpatience $HOUSEKEEPING rcutree.nohz_full_patience_delay=500
	;;
esac

wait
for b in "${boots[@]}"; do
	part=$BUILD/guest-$v/$b.part
	cat "$part" >>"$body"
	[ "$(cat "$part.rc" 2>/dev/null)" = 0 ] || rc=1
	rm -f "$part" "$part.rc"
done
echo "# guest $v: $(($(date +%s) - start)) s in all" >>"$body"
tap=$RESULTS/guest-$v.tap
awk -v v="$v" '
	/^ok - / { n++; sub(/^ok - /, ""); print "ok " n " - " v " " $0; next }
	/^not ok - / { n++; sub(/^not ok - /, ""); print "not ok " n " - " v " " $0; next }
	{ print }
	END { print "1.." n }' "$body" >"$tap"
grep -q '^not ok ' "$tap" && rc=1
echo "check-guest: $v: $(grep -c '^ok ' "$tap") ok, $(grep -c '^not ok ' "$tap") not ok -> $tap"
grep '^not ok ' "$tap"
exit $rc
