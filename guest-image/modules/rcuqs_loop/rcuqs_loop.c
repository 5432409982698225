// SPDX-License-Identifier: GPL-2.0
/*
 * rcuqs_loop: a test fixture for the rcuqs guest suite.
 *
 * Loading the module runs a CPU-bound kernel loop of cond_resched() calls
 * on one CPU, the situation the cond_resched() quiescent-state limit is
 * about, and returns when the loop is over:
 *
 *   insmod rcuqs_loop.ko loops=L [cpu=C] [lock=1] [gp_load=1]
 *   insmod rcuqs_loop.ko ms=T [cpu=C] [lock=1 | spin=1 | idle=1 |
 *          reader=1 [unlock_nopreempt=1] | nopreempt_us=P]
 *          [delay_ns=D] [gp_load=1 [gp_cpu=G] [gp_gap_us=U]]
 *
 * loops=L makes exactly L calls; ms=T loops for T milliseconds instead,
 * or until 1 is written to /sys/module/rcuqs_loop/parameters/stop: a test
 * that samples the loop from user space gives it a generous T and ends it
 * once the sample is taken, so a slow start cannot sample past its end.
 * The loop runs in a kthread bound to CPU C, so every call lands on the
 * same CPU and the per-CPU cond_resched() count is exact. lock=1 calls
 * cond_resched_lock() on a held spinlock instead of cond_resched(); spin=1
 * calls neither (cpu_relax() only), a loop RCU can only end by kicking;
 * idle=1 sleeps for T ms instead of looping, the no-loop floor.
 * reader=1 spins delay_ns inside rcu_read_lock() before every
 * cond_resched(), so that an interrupt almost always finds the loop in a
 * read-side critical section; with unlock_nopreempt=1 each section ends
 * with preemption disabled (preempt_disable(); rcu_read_unlock();
 * preempt_enable()), where rcu_read_unlock() asks for a reschedule if it
 * has a quiescent state to note (->rcu_read_unlock_special.b.need_qs),
 * counted in unlock_rescheds. nopreempt_us=P spins P us at a time with
 * preemption disabled (no lock, no cond_resched() inside), then enables
 * preemption again: a loop no request can get a quiescent state from
 * before the chunk ends.  The chunk is timed with ktime_get(), not
 * counted in udelay(1) calls, whose own cost under TCG made a 40 ms chunk
 * last over 100 ms on a slower host (past jiffies_to_sched_qs, which the
 * test's premise needs it to stay under).
 * min_gps=N (with ms=T and gp_load=1) goes on past T until N
 * synchronize_rcu() calls have been timed, for at most 10T in all: a test
 * whose statistics need N samples gets them when a loaded host stalls the
 * guest, instead of a fixed window that held fewer.
 * sys=1 runs the loop in the calling task instead, moved to CPU C for
 * the loop: a long system call (finit_module()) that user space drives,
 * not a kthread.
 * delay_ns=D spins D ns (ndelay()) before every call: the CPU-bound
 * kernel work between two cond_resched() calls. Each pass also runs one
 * cpu_relax() (PAUSE), see loop_pause().
 *
 * gp_load=1 runs synchronize_rcu() in a second kthread meanwhile, so
 * grace periods must wait for the looping CPU: back to back, or U us
 * apart with gp_gap_us=U, on any CPU or bound to CPU G with gp_cpu=G.
 * Every call that starts while the loop runs is timed, also one that
 * the loop holds up past its own end.  gp_tasks=1 times
 * synchronize_rcu_tasks() instead: a Tasks RCU grace period waits for
 * the looping kthread, which neither sleeps nor enters user space.
 *
 * bh_load=1 runs a third kthread on the loop's CPU while the loop runs,
 * almost always inside local_bh_disable(): it spins bh_us microseconds
 * with bottom halves disabled, enables them and starts again, as a
 * threaded interrupt handler does (irq_forced_thread_fn()).  Under
 * PREEMPT_RT such a section is preemptible, so the loop runs while
 * another task on its CPU holds the CPU's bottom-half lock
 * (softirq_ctrl.lock): the case where a local_bh_disable() with
 * preemption disabled finds the per-CPU count taken.  bh_preempts counts
 * the sections in which that kthread was preempted (always 0 without
 * PREEMPT_RT, where bottom-half-disabled code is not preemptible).
 *
 * The results are read-only parameters under
 * /sys/module/rcuqs_loop/parameters/ and one line in the kernel log:
 * done_loops, loop_us (loop duration), gps (synchronize_rcu() calls
 * timed), gps_in_loop (those of them that also returned before the loop
 * ended), gp_p50_us, gp_p99_us and gp_max_us (their latency: median,
 * 99th percentile by nearest rank, slowest), loop_nivcsw (involuntary
 * context switches of the looping task during the loop: preemptions,
 * such as a reschedule that RCU forced).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>

static ulong loops;
module_param(loops, ulong, 0444);
MODULE_PARM_DESC(loops, "Number of cond_resched() calls (0: use ms)");

static uint ms;
module_param(ms, uint, 0444);
MODULE_PARM_DESC(ms, "Loop for this many milliseconds when loops=0");

static bool stop;
module_param(stop, bool, 0644);
MODULE_PARM_DESC(stop, "Write 1 to end an ms=T loop before its time");

static uint min_gps;
module_param(min_gps, uint, 0444);
MODULE_PARM_DESC(min_gps, "With ms=T and gp_load=1: go on past T until this many calls were timed (at most 10T)");

static int cpu = 1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "CPU the loop runs on");

static bool lock;
module_param(lock, bool, 0444);
MODULE_PARM_DESC(lock, "Call cond_resched_lock() instead of cond_resched()");

static bool spin;
module_param(spin, bool, 0444);
MODULE_PARM_DESC(spin, "Call cpu_relax() only, no cond_resched()");

static bool idle;
module_param(idle, bool, 0444);
MODULE_PARM_DESC(idle, "Sleep for ms milliseconds instead of looping");

static bool reader;
module_param(reader, bool, 0444);
MODULE_PARM_DESC(reader, "Spin delay_ns inside rcu_read_lock() before each cond_resched()");

static bool unlock_nopreempt;
module_param(unlock_nopreempt, bool, 0444);
MODULE_PARM_DESC(unlock_nopreempt, "With reader=1: end each read-side critical section with preemption disabled");

static ulong unlock_rescheds;
module_param(unlock_rescheds, ulong, 0444);
MODULE_PARM_DESC(unlock_rescheds, "Out: rcu_read_unlock() calls that left a reschedule pending (unlock_nopreempt=1)");

static uint nopreempt_us;
module_param(nopreempt_us, uint, 0444);
MODULE_PARM_DESC(nopreempt_us, "Spin this many microseconds at a time with preemption disabled");

static bool sys;
module_param(sys, bool, 0444);
MODULE_PARM_DESC(sys, "Loop in the loading task's system call, moved to cpu, not in a kthread");

static uint delay_ns;
module_param(delay_ns, uint, 0444);
MODULE_PARM_DESC(delay_ns, "Spin this many nanoseconds before each call");

static bool gp_load;
module_param(gp_load, bool, 0444);
MODULE_PARM_DESC(gp_load, "Time synchronize_rcu() calls meanwhile");

static bool gp_tasks;
module_param(gp_tasks, bool, 0444);
MODULE_PARM_DESC(gp_tasks, "Time synchronize_rcu_tasks() instead of synchronize_rcu()");

static int gp_cpu = -1;
module_param(gp_cpu, int, 0444);
MODULE_PARM_DESC(gp_cpu, "CPU the synchronize_rcu() kthread runs on (-1: any)");

static uint gp_log_us;
module_param(gp_log_us, uint, 0444);
MODULE_PARM_DESC(gp_log_us, "Log each synchronize_rcu() slower than this, microseconds (0: none)");

static uint gp_gap_us;
module_param(gp_gap_us, uint, 0444);
MODULE_PARM_DESC(gp_gap_us, "Sleep between synchronize_rcu() calls, microseconds");

static bool bh_load;
module_param(bh_load, bool, 0444);
MODULE_PARM_DESC(bh_load, "Run a kthread in local_bh_disable() sections on the loop's CPU meanwhile");

static uint bh_us = 200;
module_param(bh_us, uint, 0444);
MODULE_PARM_DESC(bh_us, "Length of each bh_load section, microseconds (1..10000)");

static ulong bh_sections;
module_param(bh_sections, ulong, 0444);
MODULE_PARM_DESC(bh_sections, "Result: bh_load sections run");

static ulong bh_preempts;
module_param(bh_preempts, ulong, 0444);
MODULE_PARM_DESC(bh_preempts, "Result: bh_load sections in which the kthread was preempted");

static ulong done_loops;
module_param(done_loops, ulong, 0444);
MODULE_PARM_DESC(done_loops, "Result: calls made");

static ulong loop_us;
module_param(loop_us, ulong, 0444);
MODULE_PARM_DESC(loop_us, "Result: loop duration in microseconds");

static ulong loop_nivcsw;
module_param(loop_nivcsw, ulong, 0444);
MODULE_PARM_DESC(loop_nivcsw, "Result: involuntary context switches of the looping task");

static ulong gps;
module_param(gps, ulong, 0444);
MODULE_PARM_DESC(gps, "Result: synchronize_rcu() calls done during the loop");

static ulong gps_in_loop;
module_param(gps_in_loop, ulong, 0444);
MODULE_PARM_DESC(gps_in_loop, "Result: timed calls that returned before the loop ended");

static ulong gp_p50_us;
module_param(gp_p50_us, ulong, 0444);
MODULE_PARM_DESC(gp_p50_us, "Result: median synchronize_rcu() latency in microseconds");

static ulong gp_p99_us;
module_param(gp_p99_us, ulong, 0444);
MODULE_PARM_DESC(gp_p99_us, "Result: 99th percentile synchronize_rcu() latency in microseconds");

static ulong gp_max_us;
module_param(gp_max_us, ulong, 0444);
MODULE_PARM_DESC(gp_max_us, "Result: slowest synchronize_rcu() in microseconds");

/* Latency samples for the percentiles; calls beyond the array are not kept. */
#define GP_SAMPLES 16384
static u32 *gp_samples;
static ulong gp_kept;

static DEFINE_SPINLOCK(loop_lock);
static ktime_t loop_start;
static DECLARE_COMPLETION(loop_done);
static bool loop_running;
static bool loop_over;

/*
 * An ms=T loop is over at T, or once 1 is written to stop; with min_gps=N
 * not before N synchronize_rcu() calls were timed, unless 10T have passed.
 */
static bool loop_ends(ktime_t start)
{
	s64 ran = ktime_ms_delta(ktime_get(), start);

	if (READ_ONCE(stop))
		return true;
	if (ran < ms)
		return false;
	return READ_ONCE(gps) >= min_gps || ran >= 10LL * ms;
}

/*
 * One PAUSE per pass of the loop, whatever ndelay() did. ndelay() waits
 * in delay_tsc(), which PAUSEs between its TSC reads, for as many cycles
 * as the CPU's own loops_per_jiffy says. Under QEMU TCG, 6.1 calibrates
 * each secondary CPU itself (qemu64 has no constant_tsc, so
 * calibrate_delay_is_known() does not reuse CPU 0's value),
 * calibrate_delay_direct() fails there and the fallback leaves some CPUs
 * at a fraction of CPU 0's figure, different each boot (BogoMIPS in
 * /proc/cpuinfo: 5192 on CPU 0, 3.41 on CPU 2 in one boot): ndelay(1000)
 * then returns before its first PAUSE. Single-threaded TCG runs the vCPUs
 * in turn and leaves one only on PAUSE, HLT, I/O or its 100 ms kick, so a
 * loop without a PAUSE keeps every other vCPU, the grace-period kthread's
 * and the synchronize_rcu() timer's, off for up to 100 ms at a time. With
 * the limit on, that made grace periods of 100-200 ms in about one make
 * demo in three on 6.1 (issue 40): whenever the looping CPU's report was
 * not the last one of a grace period, no wake-up IPI left its vCPU and
 * the grace-period kthread waited for the kick, twice per grace period.
 * Real CPUs run side by side; the PAUSE gives the emulator that, as a
 * correctly calibrated delay_tsc() does.
 */
static inline void loop_pause(void)
{
	cpu_relax();
}

static void run_loop(void)
{
	ktime_t start = loop_start = ktime_get();
	ulong nivcsw = current->nivcsw;
	ulong n = 0;

	WRITE_ONCE(loop_running, true);

	if (idle) {
		msleep(ms);
		while (!loop_ends(start))
			msleep(10);
		goto out;
	}
	if (lock)
		spin_lock(&loop_lock);
	for (;;) {
		if (loops) {
			if (n >= loops)
				break;
		} else if ((nopreempt_us || !(n & 1023)) && loop_ends(start)) {
			break;
		}
		if (nopreempt_us) {
			ktime_t t0;

			preempt_disable();
			t0 = ktime_get();
			while (ktime_us_delta(ktime_get(), t0) < nopreempt_us)
				cpu_relax();
			preempt_enable();
		} else if (reader && unlock_nopreempt) {
			bool before;

			rcu_read_lock();
			ndelay(delay_ns);
			preempt_disable();
			before = need_resched();
			rcu_read_unlock();
			if (!before && need_resched())
				unlock_rescheds++;
			preempt_enable();
		} else if (reader) {
			rcu_read_lock();
			ndelay(delay_ns);
			rcu_read_unlock();
		} else if (delay_ns) {
			ndelay(delay_ns);
		}
		if (delay_ns)
			loop_pause();
		if (spin || nopreempt_us)
			cpu_relax();
		else if (lock)
			cond_resched_lock(&loop_lock);
		else
			cond_resched();
		n++;
	}
	if (lock)
		spin_unlock(&loop_lock);
out:
	loop_nivcsw = current->nivcsw - nivcsw;
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
		bool timed = !READ_ONCE(loop_over);
		bool started = READ_ONCE(loop_running);
		ktime_t t = ktime_get();
		ulong us;

		if (gp_tasks)
			synchronize_rcu_tasks();
		else
			synchronize_rcu();
		us = ktime_us_delta(ktime_get(), t);
		if (timed) {
			gps++;
			if (started && !READ_ONCE(loop_over))
				gps_in_loop++;
			if (us > gp_max_us)
				gp_max_us = us;
			if (gp_kept < GP_SAMPLES)
				gp_samples[gp_kept++] = min_t(ulong, us, U32_MAX);
			if (gp_log_us && us > gp_log_us)
				pr_info("synchronize_rcu() #%lu took %lu us, started %lld us into the loop\n",
					gps, us, ktime_us_delta(t, loop_start));
		}
		if (gp_gap_us && !kthread_should_stop())
			usleep_range(gp_gap_us, gp_gap_us + gp_gap_us / 10 + 1);
	}
	return 0;
}

static int bh_fn(void *unused)
{
	while (!kthread_should_stop()) {
		unsigned long nivcsw;

		local_bh_disable();
		nivcsw = READ_ONCE(current->nivcsw);
		udelay(bh_us);
		if (READ_ONCE(current->nivcsw) != nivcsw)
			bh_preempts++;
		local_bh_enable();
		bh_sections++;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentiles of the kept samples. */
static void gp_percentiles(void)
{
	if (!gp_kept)
		return;
	sort(gp_samples, gp_kept, sizeof(*gp_samples), cmp_u32, NULL);
	gp_p50_us = gp_samples[DIV_ROUND_UP(gp_kept * 50, 100) - 1];
	gp_p99_us = gp_samples[DIV_ROUND_UP(gp_kept * 99, 100) - 1];
}

static int __init rcuqs_loop_init(void)
{
	struct task_struct *looper, *gper = NULL, *bher = NULL;

	if (!loops && !ms)
		return 0;
	if ((spin || idle) && (lock || !ms || (spin && idle))) {
		pr_err("spin=1 and idle=1 need ms=T, no lock=1 and each other\n");
		return -EINVAL;
	}
	if ((reader || nopreempt_us) &&
	    (!ms || lock || spin || idle || (reader && nopreempt_us))) {
		pr_err("reader=1 and nopreempt_us=P need ms=T, no lock=1, spin=1, idle=1 and each other\n");
		return -EINVAL;
	}
	if (min_gps && (!ms || !gp_load || min_gps > GP_SAMPLES)) {
		pr_err("min_gps=N needs ms=T, gp_load=1 and N <= %d\n", GP_SAMPLES);
		return -EINVAL;
	}
	if (gp_cpu >= 0 && (gp_cpu >= nr_cpu_ids || !cpu_online(gp_cpu))) {
		pr_err("gp_cpu=%d is not an online CPU\n", gp_cpu);
		return -EINVAL;
	}
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		pr_err("cpu=%d is not an online CPU\n", cpu);
		return -EINVAL;
	}
	if (bh_load && (sys || !bh_us || bh_us > 10000)) {
		pr_err("bh_load=1 needs a kthread loop (no sys=1) and bh_us in 1..10000\n");
		return -EINVAL;
	}
	if (sys) {
		looper = NULL;
	} else {
		looper = kthread_create_on_cpu(loop_fn, NULL, cpu, "rcuqs_loop/%u");
		if (IS_ERR(looper))
			return PTR_ERR(looper);
	}
	if (gp_load) {
		gp_samples = kvmalloc_array(GP_SAMPLES, sizeof(*gp_samples), GFP_KERNEL);
		gper = gp_samples ? kthread_create(gp_fn, NULL, "rcuqs_gp") : ERR_PTR(-ENOMEM);
		if (IS_ERR(gper)) {
			kvfree(gp_samples);
			if (looper)
				kthread_stop(looper);
			return PTR_ERR(gper);
		}
		if (gp_cpu >= 0)
			kthread_bind(gper, gp_cpu);
		wake_up_process(gper);
	}
	if (bh_load) {
		bher = kthread_create_on_cpu(bh_fn, NULL, cpu, "rcuqs_bh/%u");
		if (IS_ERR(bher)) {
			if (gper)
				kthread_stop(gper);
			kvfree(gp_samples);
			kthread_stop(looper);
			return PTR_ERR(bher);
		}
		wake_up_process(bher);
	}
	if (sys) {
		cpumask_var_t old;
		int ret = -ENOMEM;

		if (alloc_cpumask_var(&old, GFP_KERNEL)) {
			cpumask_copy(old, current->cpus_ptr);
			ret = set_cpus_allowed_ptr(current, cpumask_of(cpu));
			if (!ret)
				run_loop();
			WRITE_ONCE(loop_over, true);
			set_cpus_allowed_ptr(current, old);
			free_cpumask_var(old);
		}
		if (ret) {
			if (gper)
				kthread_stop(gper);
			kvfree(gp_samples);
			pr_err("sys=1: cannot move to cpu=%d: %d\n", cpu, ret);
			return ret;
		}
	} else {
		wake_up_process(looper);
		wait_for_completion(&loop_done);
		kthread_stop(looper);
	}
	if (bher)
		kthread_stop(bher);
	if (gper) {
		kthread_stop(gper);
		gp_percentiles();
		kvfree(gp_samples);
	}
	pr_info("sys=%d cpu=%d lock=%d spin=%d idle=%d reader=%d nopreempt_us=%u delay_ns=%u gp_load=%d gp_tasks=%d gp_cpu=%d bh_load=%d done_loops=%lu loop_us=%lu loop_nivcsw=%lu gps=%lu gps_in_loop=%lu gp_p50_us=%lu gp_p99_us=%lu gp_max_us=%lu bh_sections=%lu bh_preempts=%lu\n",
		sys, cpu, lock, spin, idle, reader, nopreempt_us, delay_ns,
		gp_load, gp_tasks, gp_cpu, bh_load, done_loops, loop_us,
		loop_nivcsw, gps, gps_in_loop, gp_p50_us, gp_p99_us, gp_max_us,
		bh_sections, bh_preempts);
	return 0;
}

static void __exit rcuqs_loop_exit(void)
{
}

module_init(rcuqs_loop_init);
module_exit(rcuqs_loop_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rcuqs test fixture: a cond_resched() loop on one CPU");
