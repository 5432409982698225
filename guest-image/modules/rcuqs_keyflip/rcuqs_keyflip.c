// SPDX-License-Identifier: GPL-2.0
/*
 * rcuqs_keyflip: flip a private static key while other CPUs run through
 * its site. A scratch fixture for guest-image/mttcg-proof.sh (GitHub
 * issue 41, item 2); not part of the guest suite of make check.
 *
 *   insmod rcuqs_keyflip.ko [cpu=C] [nr_loops=N] [ms=T]
 *   echo F >/sys/module/rcuqs_keyflip/parameters/flips
 *
 * Loading the module starts N kthreads, bound to CPUs C, C+1, ...,
 * C+N-1, each calling keyflip_site() and cond_resched() back to back for
 * T milliseconds, or until 1 is written to the stop parameter. No
 * cpu_relax() (PAUSE) in the loop: a hot path, as a cond_resched() loop
 * in the kernel is. keyflip_site() is a noinline function whose body is a
 * static_branch_unlikely() on a key of this module, so every pass runs
 * through a jump label that text_poke_bp() rewrites.
 *
 * Writing F to flips switches that key F times, static_branch_enable()
 * and static_branch_disable() alternately, from the writing task (on
 * another CPU than the loops: taskset -c 0). The write returns when all
 * F switches are done; every 500th logs a line, so that a console that
 * ends in a crash says how far the switching came. This is what writing
 * rcutree.cond_resched_qs_limit between 0 and non-zero does to the rcuqs
 * series' key in __cond_resched(), with a key that no kernel patch owns:
 * on a kernel without the series it shows whether a crash of the
 * switching is the kernel's, the series' or the emulator's.
 *
 * Read-only results under /sys/module/rcuqs_keyflip/parameters/: flips
 * (switches done since loading), hits (passes that found the key on),
 * done (passes per loop), running (loops still running).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>

#define KEYFLIP_MAX_LOOPS 8

static DEFINE_STATIC_KEY_FALSE(keyflip_key);
static DEFINE_PER_CPU(unsigned long, keyflip_hits);

static int cpu = 1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "First CPU a loop runs on");

static uint nr_loops = 1;
module_param(nr_loops, uint, 0444);
MODULE_PARM_DESC(nr_loops, "Number of loops, on CPUs cpu .. cpu+nr_loops-1 (0: none)");

static uint ms = 10000;
module_param(ms, uint, 0444);
MODULE_PARM_DESC(ms, "Each loop runs this many milliseconds");

static bool stop;
module_param(stop, bool, 0644);
MODULE_PARM_DESC(stop, "Write 1 to end the loops before their time");

static uint flip_gap_us;
module_param(flip_gap_us, uint, 0644);
MODULE_PARM_DESC(flip_gap_us, "Sleep between two switches, microseconds (0: none)");

static ulong done[KEYFLIP_MAX_LOOPS];
static uint nr_done;
module_param_array(done, ulong, &nr_done, 0444);
MODULE_PARM_DESC(done, "Result: passes made by each loop");

static atomic_t running = ATOMIC_INIT(0);
static unsigned long flipped;
static struct task_struct *loopers[KEYFLIP_MAX_LOOPS];

/* The site: one jump label, as in a hot path. */
static noinline void keyflip_site(void)
{
	if (static_branch_unlikely(&keyflip_key))
		this_cpu_inc(keyflip_hits);
}

static int keyflip_loop(void *arg)
{
	ulong *count = arg;
	ktime_t end = ktime_add_ms(ktime_get(), ms);
	ulong n = 0;

	while (!READ_ONCE(stop) && !kthread_should_stop()) {
		keyflip_site();
		cond_resched();
		if (!(++n & 1023) && ktime_after(ktime_get(), end))
			break;
	}
	WRITE_ONCE(*count, n);
	atomic_dec(&running);
	pr_info("loop on CPU %d ended after %lu passes\n", smp_processor_id(), n);

	/* Stay until kthread_stop(), so that the task cannot vanish early. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int flips_set(const char *val, const struct kernel_param *kp)
{
	ktime_t start = ktime_get();
	uint n, i;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (static_key_enabled(&keyflip_key))
			static_branch_disable(&keyflip_key);
		else
			static_branch_enable(&keyflip_key);
		flipped++;
		if (!((i + 1) % 500))
			pr_info("%u switches in %lld ms\n", i + 1,
				ktime_ms_delta(ktime_get(), start));
		if (flip_gap_us)
			usleep_range(flip_gap_us, flip_gap_us + flip_gap_us / 10 + 1);
		cond_resched();
	}
	pr_info("%u switches from CPU %d in %lld ms, %lu in all, key now %s, %d loops running\n",
		n, raw_smp_processor_id(), ktime_ms_delta(ktime_get(), start),
		flipped, static_key_enabled(&keyflip_key) ? "on" : "off",
		atomic_read(&running));
	return 0;
}

static int flips_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", flipped);
}

static const struct kernel_param_ops flips_ops = {
	.set = flips_set,
	.get = flips_get,
};
module_param_cb(flips, &flips_ops, NULL, 0644);
MODULE_PARM_DESC(flips, "Write N: switch the key N times; read: switches done");

static int hits_get(char *buf, const struct kernel_param *kp)
{
	unsigned long sum = 0;
	int c;

	for_each_possible_cpu(c)
		sum += per_cpu(keyflip_hits, c);
	return sysfs_emit(buf, "%lu\n", sum);
}

static const struct kernel_param_ops hits_ops = {
	.get = hits_get,
};
module_param_cb(hits, &hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "Result: passes that found the key on");

static int running_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&running));
}

static const struct kernel_param_ops running_ops = {
	.get = running_get,
};
module_param_cb(running, &running_ops, NULL, 0444);
MODULE_PARM_DESC(running, "Result: loops still running");

static void keyflip_stop_loops(void)
{
	uint i;

	WRITE_ONCE(stop, true);
	for (i = 0; i < KEYFLIP_MAX_LOOPS; i++) {
		if (loopers[i])
			kthread_stop(loopers[i]);
		loopers[i] = NULL;
	}
}

static int __init rcuqs_keyflip_init(void)
{
	uint i;

	if (nr_loops > KEYFLIP_MAX_LOOPS) {
		pr_err("nr_loops=%u: at most %d\n", nr_loops, KEYFLIP_MAX_LOOPS);
		return -EINVAL;
	}
	for (i = 0; i < nr_loops; i++) {
		int c = cpu + i;

		if (c < 0 || c >= nr_cpu_ids || !cpu_online(c)) {
			pr_err("CPU %d is not online\n", c);
			return -EINVAL;
		}
	}
	nr_done = nr_loops;
	for (i = 0; i < nr_loops; i++) {
		struct task_struct *t;

		t = kthread_create_on_cpu(keyflip_loop, &done[i], cpu + i,
					  "rcuqs_keyflip/%u");
		if (IS_ERR(t)) {
			keyflip_stop_loops();
			return PTR_ERR(t);
		}
		loopers[i] = t;
	}
	for (i = 0; i < nr_loops; i++) {
		atomic_inc(&running);
		wake_up_process(loopers[i]);
	}
	pr_info("%u loops on CPUs %d-%d for %u ms\n", nr_loops, cpu,
		cpu + (int)nr_loops - 1, ms);
	return 0;
}

static void __exit rcuqs_keyflip_exit(void)
{
	keyflip_stop_loops();
}

module_init(rcuqs_keyflip_init);
module_exit(rcuqs_keyflip_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rcuqs scratch fixture: switch a static key while other CPUs run its site");
