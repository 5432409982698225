// SPDX-License-Identifier: GPL-2.0
/*
 * rcuqs_loop: a test fixture for the rcuqs guest suite.
 *
 * Loading the module runs a CPU-bound kernel loop of cond_resched() calls
 * on one CPU, the situation the cond_resched() quiescent-state limit is
 * about, and returns when the loop is over:
 *
 *   insmod rcuqs_loop.ko loops=L [cpu=C] [lock=1] [gp_load=1]
 *   insmod rcuqs_loop.ko ms=T [cpu=C] [lock=1 | spin=1] [gp_load=1]
 *
 * loops=L makes exactly L calls; ms=T loops for T milliseconds instead.
 * The loop runs in a kthread bound to CPU C, so every call lands on the
 * same CPU and the per-CPU cond_resched() count is exact. lock=1 calls
 * cond_resched_lock() on a held spinlock instead of cond_resched(); spin=1
 * calls neither (cpu_relax() only), a loop RCU can only end by kicking.
 * gp_load=1 runs synchronize_rcu() back to back in a second, unbound
 * kthread meanwhile, so grace periods must wait for the looping CPU.
 *
 * The results are read-only parameters under
 * /sys/module/rcuqs_loop/parameters/ and one line in the kernel log:
 * done_loops, loop_us (loop duration), gps (synchronize_rcu() calls that
 * returned during the loop) and gp_max_us (the slowest of them).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

static ulong loops;
module_param(loops, ulong, 0444);
MODULE_PARM_DESC(loops, "Number of cond_resched() calls (0: use ms)");

static uint ms;
module_param(ms, uint, 0444);
MODULE_PARM_DESC(ms, "Loop for this many milliseconds when loops=0");

static int cpu = 1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "CPU the loop runs on");

static bool lock;
module_param(lock, bool, 0444);
MODULE_PARM_DESC(lock, "Call cond_resched_lock() instead of cond_resched()");

static bool spin;
module_param(spin, bool, 0444);
MODULE_PARM_DESC(spin, "Call cpu_relax() only, no cond_resched()");

static bool gp_load;
module_param(gp_load, bool, 0444);
MODULE_PARM_DESC(gp_load, "Run synchronize_rcu() back to back meanwhile");

static ulong done_loops;
module_param(done_loops, ulong, 0444);
MODULE_PARM_DESC(done_loops, "Result: calls made");

static ulong loop_us;
module_param(loop_us, ulong, 0444);
MODULE_PARM_DESC(loop_us, "Result: loop duration in microseconds");

static ulong gps;
module_param(gps, ulong, 0444);
MODULE_PARM_DESC(gps, "Result: synchronize_rcu() calls done during the loop");

static ulong gp_max_us;
module_param(gp_max_us, ulong, 0444);
MODULE_PARM_DESC(gp_max_us, "Result: slowest synchronize_rcu() in microseconds");

static DEFINE_SPINLOCK(loop_lock);
static DECLARE_COMPLETION(loop_done);
static bool loop_over;

static void run_loop(void)
{
	ktime_t start = ktime_get();
	ktime_t end = ktime_add_ms(start, ms);
	ulong n = 0;

	if (lock)
		spin_lock(&loop_lock);
	for (;;) {
		if (loops) {
			if (n >= loops)
				break;
		} else if (!(n & 1023) && ktime_after(ktime_get(), end)) {
			break;
		}
		if (spin)
			cpu_relax();
		else if (lock)
			cond_resched_lock(&loop_lock);
		else
			cond_resched();
		n++;
	}
	if (lock)
		spin_unlock(&loop_lock);
	done_loops = n;
	loop_us = ktime_us_delta(ktime_get(), start);
}

static int loop_fn(void *unused)
{
	run_loop();
	WRITE_ONCE(loop_over, true);
	complete(&loop_done);
	/* Stay until kthread_stop() so that the task cannot vanish early. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int gp_fn(void *unused)
{
	while (!kthread_should_stop()) {
		ktime_t t = ktime_get();
		ulong us;

		synchronize_rcu();
		us = ktime_us_delta(ktime_get(), t);
		if (!READ_ONCE(loop_over)) {
			gps++;
			if (us > gp_max_us)
				gp_max_us = us;
		}
	}
	return 0;
}

static int __init rcuqs_loop_init(void)
{
	struct task_struct *looper, *gper = NULL;

	if (!loops && !ms)
		return 0;
	if (spin && (lock || !ms)) {
		pr_err("spin=1 needs ms=T and no lock=1\n");
		return -EINVAL;
	}
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		pr_err("cpu=%d is not an online CPU\n", cpu);
		return -EINVAL;
	}
	looper = kthread_create_on_cpu(loop_fn, NULL, cpu, "rcuqs_loop/%u");
	if (IS_ERR(looper))
		return PTR_ERR(looper);
	if (gp_load) {
		gper = kthread_run(gp_fn, NULL, "rcuqs_gp");
		if (IS_ERR(gper)) {
			kthread_stop(looper);
			return PTR_ERR(gper);
		}
	}
	wake_up_process(looper);
	wait_for_completion(&loop_done);
	kthread_stop(looper);
	if (gper)
		kthread_stop(gper);
	pr_info("cpu=%d lock=%d spin=%d gp_load=%d done_loops=%lu loop_us=%lu gps=%lu gp_max_us=%lu\n",
		cpu, lock, spin, gp_load, done_loops, loop_us, gps, gp_max_us);
	return 0;
}

static void __exit rcuqs_loop_exit(void)
{
}

module_init(rcuqs_loop_init);
module_exit(rcuqs_loop_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rcuqs test fixture: a cond_resched() loop on one CPU");
