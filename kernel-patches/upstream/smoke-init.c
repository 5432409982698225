/* smoke-init.c: PID 1 of a one-file initramfs that smoke-tests the RFC
 * series in a QEMU guest (not the 7.3 guest suite, whose nohz-qs tests
 * read the Debian series' /sys/kernel/rcu_qs counters). Build and boot a
 * kernel with the series, event tracing and CONFIG_RCU_TRACE (README.md,
 * "How to check"), then:
 *
 *   gcc -static -O2 -Wall -o root/init smoke-init.c
 *   mkdir -p root/proc root/sys root/dev && mknod -m 600 root/dev/console c 5 1
 *   (cd root && find . | cpio -o -H newc | gzip) >initrd.gz
 *   qemu-system-x86_64 -accel tcg,thread=single -smp 4 -m 1G -nodefaults \
 *     -display none -monitor none -no-reboot -kernel bzImage -initrd initrd.gz \
 *     -append "console=ttyS0 panic=-1 nohz_full=2-3" -serial file:console.log
 *
 * 1/3: jiffies_till_sched_qs written at runtime (hex, ULONG_MAX).
 * 2/3 and 3/3: three phases of 10 s (see phase()), rcu_fqs and
 * rcu_grace_period events counted in each. Prints SMOKE lines, powers
 * off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define P "/sys/module/rcutree/parameters/"
#define T "/sys/kernel/tracing/"

static int wr(const char *f, const char *v)
{
	int fd = open(f, O_WRONLY), r;

	if (fd < 0)
		return -errno;
	r = write(fd, v, strlen(v));
	r = r < 0 ? -errno : 0;
	close(fd);
	return r;
}

static void rd(const char *f, char *b, size_t n)
{
	int fd = open(f, O_RDONLY);
	ssize_t r = fd < 0 ? -1 : read(fd, b, n - 1);

	b[r > 0 ? r : 0] = 0;
	if (r > 0 && b[r - 1] == '\n')
		b[r - 1] = 0;
	if (fd >= 0)
		close(fd);
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void show(const char *what)
{
	char a[64], b[64];

	rd(P "jiffies_till_sched_qs", a, sizeof(a));
	rd(P "jiffies_to_sched_qs", b, sizeof(b));
	printf("SMOKE %s: jiffies_till_sched_qs=%s jiffies_to_sched_qs=%s\n", what, a, b);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* CPU 2's function-call interrupts (remote irq_work arrives as these). */
static long cal2(void)
{
	char line[512];
	long c[4] = { 0 };
	FILE *f = fopen("/proc/interrupts", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "CAL:"))
			sscanf(strchr(line, ':') + 1, "%ld %ld %ld %ld", &c[0], &c[1], &c[2], &c[3]);
	if (f)
		fclose(f);
	return c[2];
}

/*
 * 10 s of a load on nohz_full CPU 2 with jiffies_till_nohz_qs=NOHZ: a
 * read() of 64 MiB from /dev/zero looping in the kernel, or (SYSCALLS)
 * getppid() in a loop, in and out of the kernel; CPU 0 forks short-lived
 * children meanwhile, whose task structs are freed through call_rcu().
 */
static void phase(const char *name, const char *nohz, int syscalls)
{
	static const char *ev[] = { "nohzask", "nohzqs", "nohzresched", "urgentqs",
				    "reschedkick", "dti" };
	char line[512];
	int i, gps = 0, cnt[6] = { 0 };
	long cal;
	pid_t loop;
	double t0;
	FILE *f;

	wr(P "jiffies_till_nohz_qs", nohz);
	close(open(T "trace", O_WRONLY | O_TRUNC));	/* empty the buffer */
	loop = fork();
	if (loop == 0) {
		size_t n = 64 << 20;
		char *buf = malloc(n);
		int fd = open("/dev/zero", O_RDONLY);

		pin(2);
		for (;;)
			if (syscalls ? getppid() < 0 : read(fd, buf, n) < 0)
				_exit(1);
	}
	pin(0);
	usleep(100000);
	cal = cal2();
	wr(T "tracing_on", "1");
	t0 = now();
	while (now() - t0 < 10) {
		pid_t c = fork();

		if (c == 0)
			_exit(0);
		waitpid(c, NULL, 0);
		usleep(5000);
	}
	wr(T "tracing_on", "0");
	cal = cal2() - cal;
	kill(loop, SIGKILL);
	waitpid(loop, NULL, 0);

	f = fopen(T "trace", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, "rcu_grace_period:") && strstr(line, " end"))
			gps++;
		if (!strstr(line, "rcu_fqs:"))
			continue;
		for (i = 0; i < 6; i++) {
			size_t l = strlen(ev[i]);
			char *e = line + strlen(line);

			while (e > line && (e[-1] == '\n' || e[-1] == ' '))
				e--;
			if (e - line >= (long)l + 1 && e[-(long)l - 1] == ' ' &&
			    !strncmp(e - l, ev[i], l))
				cnt[i]++;
		}
	}
	if (f)
		fclose(f);
	printf("SMOKE %s, 10 s: grace periods ended %d, CPU 2 CAL %ld", name, gps, cal);
	for (i = 0; i < 6; i++)
		printf(", %s %d", ev[i], cnt[i]);
	printf("\n");
}

int main(void)
{
	char v[64];
	int r;

	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("SMOKE start\n");

	show("boot");
	r = wr(P "jiffies_till_sched_qs", "0x10");
	show(r ? "write 0x10 FAILED" : "after writing 0x10");
	r = wr(P "jiffies_till_sched_qs", "18446744073709551615");
	show(r ? "write ULONG_MAX FAILED" : "after writing ULONG_MAX");
	r = wr(P "jiffies_till_sched_qs", "abc");
	printf("SMOKE write abc: %s\n", r ? "refused" : "ACCEPTED");
	r = wr(P "jiffies_till_nohz_qs", "99999999");
	printf("SMOKE jiffies_till_nohz_qs=99999999: %s\n", r ? "refused" : "ACCEPTED");
	r = wr(P "jiffies_till_nohz_qs", "1");
	rd(P "jiffies_till_nohz_qs", v, sizeof(v));
	printf("SMOKE jiffies_till_nohz_qs=1: %s, reads %s\n", r ? "FAILED" : "ok", v);

	wr(T "buffer_size_kb", "8192");
	wr(T "events/rcu/rcu_fqs/enable", "1");
	wr(T "events/rcu/rcu_grace_period/enable", "1");
	phase("kernel loop, jiffies_till_nohz_qs=0", "0", 0);
	phase("kernel loop, jiffies_till_nohz_qs=1", "1", 0);
	phase("system calls, jiffies_till_nohz_qs=1", "1", 1);
	printf("SMOKE end\n");
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
