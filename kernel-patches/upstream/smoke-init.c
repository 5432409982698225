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
 * 2/3 and 3/3: jiffies_till_nohz_qs=1, a long read() of /dev/zero looping
 * in the kernel on nohz_full CPU 2, grace periods made by short-lived
 * children on CPU 0 (task structs are freed through call_rcu()), rcu_fqs
 * and rcu_grace_period events counted. Prints SMOKE lines, powers off.
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

int main(void)
{
	static const char *ev[] = { "nohzask", "nohzqs", "nohzresched", "urgentqs",
				    "reschedkick", "dti" };
	char line[512], v[64];
	pid_t loop;
	double t0;
	FILE *f;
	int i, gps = 0, cnt[6] = { 0 }, r;

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

	wr(T "buffer_size_kb", "4096");
	wr(T "events/rcu/rcu_fqs/enable", "1");
	wr(T "events/rcu/rcu_grace_period/enable", "1");
	wr(T "tracing_on", "1");

	loop = fork();
	if (loop == 0) {
		size_t n = 64 << 20;
		char *buf = malloc(n);
		int fd = open("/dev/zero", O_RDONLY);

		pin(2);
		for (;;)
			if (read(fd, buf, n) < 0)
				_exit(1);
	}
	pin(0);
	t0 = now();
	while (now() - t0 < 10) {
		pid_t c = fork();

		if (c == 0)
			_exit(0);
		waitpid(c, NULL, 0);
		usleep(5000);
	}
	kill(loop, SIGKILL);
	waitpid(loop, NULL, 0);
	wr(T "tracing_on", "0");

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
	printf("SMOKE 10 s: grace periods ended %d", gps);
	for (i = 0; i < 6; i++)
		printf(", %s %d", ev[i], cnt[i]);
	printf("\n");
	f = fopen("/proc/interrupts", "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "CAL") || strstr(line, "RES") || strstr(line, "LOC") ||
		    strstr(line, "IWI"))
			printf("SMOKE irq %s", line);
	printf("SMOKE end\n");
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
