# kernel-7.3.sh: sourced by a case's setup (". "$CASE/../kernel-7.3.sh"):
# the pristine root, a 6.1 kernel with the rcuqs series, becomes Debian's
# 7.3 with the series' 7.3 port (kernel-patches/7.3): no
# cond_resched_qs_limit but jiffies_till_nohz_qs (off), the counters of its
# patch 3 (nohz_qs_asks and nohz_qs_reports; no limit_qs), lazy preemption
# by default (PREEMPT_DYNAMIC, CONFIG_PREEMPT_LAZY), release 7.3.4, and
# patch 4's MODULE_PARM_DESC of jiffies_till_nohz_qs in the metadata.
p=$ROOT/sys/module/rcutree/parameters
rm "$p/cond_resched_qs_limit"
printf '0\n' >"$p/jiffies_till_nohz_qs"
rm "$ROOT/sys/kernel/rcu_qs/limit_qs"
printf '12\n' >"$ROOT/sys/kernel/rcu_qs/nohz_qs_asks"
printf '11\n' >"$ROOT/sys/kernel/rcu_qs/nohz_qs_reports"
echo 7.3.4-amd64 >"$ROOT/proc/sys/kernel/osrelease"
echo "#1 SMP PREEMPT_DYNAMIC Debian 7.3.4-1 (2026-11-20)" >"$ROOT/proc/sys/kernel/version"
echo "BOOT_IMAGE=/boot/vmlinuz-7.3.4-amd64 root=UUID=0f3e2a1c-1111-4222-8333-944455556666 ro quiet" >"$ROOT/proc/cmdline"
mkdir -p "$ROOT/boot"
printf "# CONFIG_PREEMPT_NONE is not set\n# CONFIG_PREEMPT_VOLUNTARY is not set\n# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_LAZY=y\n# CONFIG_PREEMPT_RT is not set\nCONFIG_PREEMPT_DYNAMIC=y\n" >"$ROOT/boot/config-7.3.4-amd64"
mv "$ROOT/lib/modules/6.1.192" "$ROOT/lib/modules/7.3.4-amd64"
# Patch 4's description of the nohz knob where 6.1's limit had its own.
sed -z -i 's|^tree.parm=cond_resched_qs_limit:.*|tree.parm=jiffies_till_nohz_qs:Grace-period age in jiffies at which RCU asks nohz_full CPUs in the kernel for a quiescent state directly: 0 (never), or up to half the CPU stall timeout less one|' \
	"$ROOT/lib/modules/7.3.4-amd64/modules.builtin.modinfo"
depmod -b "$ROOT" 7.3.4-amd64 2>/dev/null || true
