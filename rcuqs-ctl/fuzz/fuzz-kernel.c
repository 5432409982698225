// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness: the running kernel as rcuqs-ctl reads it from a fake
 * root, every byte hostile: /proc/cmdline (bytes from 0x80 up included),
 * /proc/sys/kernel/version, /boot/config-RELEASE, and a long sysfs value
 * (nohz_full's list).
 *
 * The input is up to four parts separated by lines "%%", in that order;
 * an empty part is no file. The fourth is written (1 + its first byte)
 * times over, so that values up to and past a page are tried.
 *
 * What must hold, besides no crash, leak or sanitizer report:
 * - the model and whether cond_resched() reports agree (none, voluntary
 *   and "none or voluntary" report; full, lazy and rt do not);
 * - a version string without "PREEMPT" in it, readable and without
 *   debugfs, is a build neither dynamic nor preemptible: none, voluntary
 *   or "none or voluntary", whatever the config says;
 * - a command-line value is never cut, and on a line without quotes it
 *   holds none of the kernel's blanks (isspace(): '\t' to '\r', ' ', 0xa0);
 * - a sysfs value up to 64 KiB is read whole.
 */
#include "bootcfg.h"
#include "fuzz-root.h"
#include "kernel.h"
#include "sysfs.h"

#define RELEASE "6.12.95+bpo-amd64"
#define LONG_MAX_BYTES (64 << 10)

static const char *const files[] = {
	"/proc/cmdline",
	"/proc/sys/kernel/version",
	("/boot/config-" RELEASE),
	"/sys/devices/system/cpu/nohz_full",
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_root_init();
	mkdirs("/proc/sys/kernel");
	mkdirs("/boot");
	mkdirs("/sys/devices/system/cpu");
	mkdirs("/sys/kernel/rcu_qs");
	mkdirs("/sys/module/rcutree/parameters");
	put("/proc/sys/kernel/osrelease", (const uint8_t *)RELEASE "\n", sizeof(RELEASE), 1);
	return 0;
}

static bool kernel_blank(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

/* The length read_text() gives: cut at a NUL, trailing blanks (rstrip()) off. */
static size_t text_len(const uint8_t *d, size_t len, size_t times)
{
	size_t n = 0, whole = len * times;

	while (n < whole && d[n % len])
		n++;
	while (n > 0 && strchr(" \t\n\r", d[(n - 1) % len]))
		n--;
	return n;
}

static void check_model(const struct kernel_info *k, const uint8_t *ver, size_t vlen)
{
	char line[768];
	bool preempt_word = false;

	if (k->reports == 1 && !(k->model == PM_NONE || k->model == PM_VOLUNTARY ||
				  k->model == PM_NONVOL))
		abort();
	if (k->reports == 0 && !(k->model == PM_FULL || k->model == PM_LAZY ||
				  k->model == PM_RT))
		abort();
	kernel_describe(k, line, sizeof(line));
	/* The running kernel's word wins over the config on disk. */
	for (size_t i = 0; ver && i + 7 <= vlen; i++)
		preempt_word |= memcmp(ver + i, "PREEMPT", 7) == 0;
	if (ver && vlen > 0 && vlen < 200 && !memchr(ver, 0, vlen) && !preempt_word &&
	    text_len(ver, vlen, 1) > 0 &&
	    !(k->model == PM_NONE || k->model == PM_VOLUNTARY || k->model == PM_NONVOL))
		abort();
}

static void check_cmdline(void)
{
	static const char *const keys[] = { "rcu_nocbs", "preempt", "rcutree.kthread_prio" };
	char *cmdline = NULL, *val = malloc(CMDLINE_MAX);

	if (!val)
		abort();
	if (proc_cmdline(&ctx, &cmdline) == 0) {
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (!cmdline_value(cmdline, keys[i], val, CMDLINE_MAX))
				continue;
			if (!strstr(cmdline, val))
				abort();	/* cut, or not from the line */
			for (const char *p = val; !strchr(cmdline, '"') && *p; p++)
				if (kernel_blank((unsigned char)*p))
					abort();
		}
	}
	free(cmdline);
	free(val);
}

static void check_long(const uint8_t *d, size_t len, size_t times)
{
	char *buf = malloc(LONG_MAX_BYTES + 1);
	size_t want = d ? text_len(d, len, times) : 0;
	int r;

	if (!buf)
		abort();
	r = sysfs_read(&ctx, "devices/system/cpu/nohz_full", buf, LONG_MAX_BYTES + 1);
	if (d && len * times <= LONG_MAX_BYTES && (r < 0 || (size_t)r != want))
		abort();	/* a value that fits is read whole */
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part = data, *end = data + size, *p[4] = { NULL };
	size_t len[4] = { 0 }, times = 1;
	struct kernel_info k;

	for (size_t i = 0; i < 4; i++) {
		const uint8_t *sep = NULL;

		for (const uint8_t *q = part; q && q + 3 <= end; q++) {
			if ((q == data || q[-1] == '\n') && memcmp(q, "%%\n", 3) == 0) {
				sep = q;
				break;
			}
		}
		if (part && part < end && (sep ? sep : end) > part) {
			p[i] = part;
			len[i] = (size_t)((sep ? sep : end) - part);
		}
		part = sep ? sep + 3 : NULL;
	}
	if (p[3])
		times = 1 + p[3][0];
	for (size_t i = 0; i < 4; i++)
		put(files[i], p[i], len[i], i == 3 ? times : 1);
	kernel_read(&ctx, &k);
	check_model(&k, p[1], len[1]);
	check_cmdline();
	check_long(p[3], len[3], times);
	return 0;
}
