// SPDX-License-Identifier: GPL-2.0
/*
 * cost-native: time the cond_resched() fast path of built kernels on the
 * host CPU, in user space, by running the kernel's own machine code.
 *
 *   cost-native [-n CALLS] [-r ROUNDS] [-w WORK] NAME=VMLINUX...
 *
 * TCG times the emulator, not a CPU. This runs the very bytes of
 * __cond_resched() (and what it calls when nothing is to be done) from
 * each vmlinux natively: the loadable kernel segments are copied into an
 * anonymous mapping at a user address, and the GS base is set so that
 * the code's %gs:rip-relative per-CPU accesses land in a private per-CPU
 * area, in which __preempt_count says "no reschedule due, count 1" and
 * this_cpu_off points back at the area. Nothing is loaded into the
 * running kernel, nothing of it is written: only this process's memory.
 *
 * A vmlinux with the rcuqs series is timed twice, with the limit's
 * jump-label NOP as built (limit 0) and patched into the jump the kernel
 * writes when the limit is set (limit 256; cond_resched_qs_limit is set
 * to 256 in the copy). At 256 the countdown runs, and every 256th call
 * enters rcu_cond_resched_qs(), which returns at its preempt-count check
 * (the count of 1 makes sure it never reaches its privileged part): that
 * call is cheaper here than in a kernel, by the report itself.
 *
 * Each round times CALLS calls of every setting in turn, the first
 * setting twice (A/A); prints one line per setting and round,
 * "NAME SETTING ROUND PS_PER_CALL", then medians. -w WORK puts WORK
 * iterations of a dependent one-cycle loop before every call, the work a
 * real loop does between two calls: the time then includes it. Exit 0,
 * 1 on a failure, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define KSTART 0xffffffff80000000ULL	/* lowest kernel text address */
#define PERCPU_SIZE 0x100000UL
#define MAX_IMG 4
#define MAX_SET (2 * MAX_IMG + 1)

struct img {
	const char *name, *path;
	uint8_t *base;		/* where KSTART is mapped */
	uint8_t *percpu;
	uint64_t gs;
	int (*cond_resched)(void);
	uint8_t *nop;		/* the limit's jump-label site, NULL: base */
	uint8_t nop_bytes[5], jmp_bytes[5];
	int nop_len;
	uint32_t *limit;
	int32_t *countdown;
};

struct setting {
	struct img *img;
	const char *name;
	bool on;
	double ps[64];
};

static void die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "cost-native: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(1);
}

static const Elf64_Sym *sym(const uint8_t *f, const Elf64_Shdr *sh, int n,
			    const char *name)
{
	for (int i = 0; i < n; i++) {
		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		const Elf64_Sym *s = (const void *)(f + sh[i].sh_offset);
		const char *str = (const char *)f + sh[sh[i].sh_link].sh_offset;
		for (size_t j = 0; j < sh[i].sh_size / sizeof(*s); j++)
			if (!strcmp(str + s[j].st_name, name))
				return &s[j];
	}
	return NULL;
}

static uint64_t need(const uint8_t *f, const Elf64_Shdr *sh, int n,
		     const char *path, const char *name)
{
	const Elf64_Sym *s = sym(f, sh, n, name);

	if (!s)
		die("%s has no symbol %s", path, name);
	return s->st_value;
}

/* Map one vmlinux at a user address of its own (slot) and find its parts. */
static void load(struct img *m, int slot)
{
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		die("%s: %s", m->path, strerror(errno));
	const uint8_t *f = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	const Elf64_Ehdr *eh = (const void *)f;
	if (f == MAP_FAILED || st.st_size < (off_t)sizeof(*eh) ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_machine != EM_X86_64)
		die("%s: not an x86-64 ELF file%s", m->path, "");
	uint64_t size = (uint64_t)st.st_size, end = 0;

	if (eh->e_phoff > size || eh->e_phnum * sizeof(Elf64_Phdr) > size - eh->e_phoff ||
	    eh->e_shoff > size || eh->e_shnum * sizeof(Elf64_Shdr) > size - eh->e_shoff)
		die("%s: truncated ELF headers%s", m->path, "");
	const Elf64_Phdr *ph = (const void *)(f + eh->e_phoff);
	const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);

	for (int i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type != SHT_NOBITS &&
		    (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset ||
		     sh[i].sh_link >= eh->e_shnum))
			die("%s: a section lies beyond the end of the file%s", m->path, "");
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD &&
		    (ph[i].p_offset > size || ph[i].p_filesz > size - ph[i].p_offset ||
		     ph[i].p_filesz > ph[i].p_memsz))
			die("%s: a segment lies beyond the end of the file%s", m->path, "");

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr >= KSTART &&
		    ph[i].p_vaddr + ph[i].p_memsz - KSTART > end)
			end = ph[i].p_vaddr + ph[i].p_memsz - KSTART;
	if (!end || end > 0x40000000)
		die("%s: no kernel segments below 1 GiB of %s", m->path, "0xffffffff80000000");
	/* Slots 8 GiB apart; the per-CPU area 4 GiB above the image. */
	m->base = mmap((void *)(0x200000000000ULL + slot * 0x200000000ULL), end,
		       PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	m->percpu = mmap(m->base + 0x100000000ULL, PERCPU_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m->base == MAP_FAILED || m->percpu == MAP_FAILED)
		die("%s: mmap: %s", m->path, strerror(errno));
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr >= KSTART)
			memcpy(m->base + (ph[i].p_vaddr - KSTART), f + ph[i].p_offset, ph[i].p_filesz);
	/*
	 * %gs:disp(%rip) at kernel address A reads GS + A + len + disp, and
	 * A + len + disp is the per-CPU offset (mod 2^64). Here the code
	 * runs at A - D, D = KSTART - base: GS = percpu + D.
	 */
	m->gs = (uint64_t)(uintptr_t)m->percpu + (KSTART - (uint64_t)(uintptr_t)m->base);
	int n = eh->e_shnum;
#define K(a) (m->base + ((a) - KSTART))
	/*
	 * The preempt count: __preempt_count up to 6.1; from 6.2 on the
	 * second member of struct pcpu_hot, after the current_task pointer.
	 */
	const Elf64_Sym *pcs = sym(f, sh, n, "__preempt_count");
	uint64_t pc = pcs ? pcs->st_value : need(f, sh, n, m->path, "pcpu_hot") + 8;
	uint64_t off = need(f, sh, n, m->path, "this_cpu_off");

	if (pc + 4 > PERCPU_SIZE || off + 8 > PERCPU_SIZE)
		die("%s: per-CPU variables beyond the area%s", m->path, "");
	*(uint32_t *)(m->percpu + pc) = 0x80000001;	/* no resched; count 1 */
	*(uint64_t *)(m->percpu + off) = (uint64_t)(uintptr_t)m->percpu;
	m->cond_resched = (int (*)(void))K(need(f, sh, n, m->path, "__cond_resched"));

	if (!sym(f, sh, n, "rcu_cond_resched_qs"))
		return;	/* a kernel without the series */
	uint64_t cd = need(f, sh, n, m->path, "rcu_cond_resched_qs_countdown");
	uint64_t key = need(f, sh, n, m->path, "rcu_cond_resched_qs_key");
	uint64_t js = need(f, sh, n, m->path, "__start___jump_table");
	uint64_t je = need(f, sh, n, m->path, "__stop___jump_table");
	uint64_t fn = need(f, sh, n, m->path, "__cond_resched");
	const Elf64_Sym *fs = sym(f, sh, n, "__cond_resched");

	m->countdown = (int32_t *)(m->percpu + cd);
	m->limit = (uint32_t *)K(need(f, sh, n, m->path, "cond_resched_qs_limit"));
	/* x86-64 relative entries: s32 code, s32 target, long key (low bits: flags). */
	for (uint64_t e = js; e < je; e += 16) {
		int32_t code = *(int32_t *)K(e), target = *(int32_t *)K(e + 4);
		int64_t k = *(int64_t *)K(e + 8);
		uint64_t site = e + code, dest = e + 4 + target;

		if (((e + 8 + k) & ~3ULL) != key || site < fn || site >= fn + fs->st_size)
			continue;
		uint8_t *p = K(site);
		int64_t rel;

		if (p[0] == 0x66 && p[1] == 0x90) {
			m->nop_len = 2;
			rel = (int64_t)(dest - site - 2);
			if (rel < -128 || rel > 127)
				die("%s: 2-byte jump label out of reach%s", m->path, "");
			m->jmp_bytes[0] = 0xeb;
			m->jmp_bytes[1] = (uint8_t)rel;
		} else if (!memcmp(p, "\x0f\x1f\x44\x00\x00", 5)) {
			int32_t r32 = (int32_t)(dest - site - 5);

			m->nop_len = 5;
			m->jmp_bytes[0] = 0xe9;
			memcpy(m->jmp_bytes + 1, &r32, 4);
		} else {
			die("%s: the limit's jump label in __cond_resched is not a NOP%s", m->path, "");
		}
		memcpy(m->nop_bytes, p, m->nop_len);
		m->nop = p;
	}
	if (!m->nop)
		die("%s: no jump label of rcu_cond_resched_qs_key in __cond_resched%s", m->path, "");
#undef K
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Time calls of one setting, WORK loop iterations before each; ps per call. */
static double run(struct setting *s, long calls, long work)
{
	struct img *m = s->img;
	int (*fn)(void) = m->cond_resched;
	double t0, t1;
	int bad = 0;

	if (syscall(SYS_arch_prctl, ARCH_SET_GS, m->gs))
		die("arch_prctl(ARCH_SET_GS): %s%s", strerror(errno), "");
	if (m->nop) {
		memcpy(m->nop, s->on ? m->jmp_bytes : m->nop_bytes, m->nop_len);
		*m->limit = s->on ? 256 : 0;
		*m->countdown = 0;
	}
	t0 = now_ns();
	for (long i = 0; i < calls; i++) {
		unsigned long x = i;

		for (long j = 0; j < work; j++)
			asm volatile("" : "+r" (x));
		bad |= fn() | (int)(x & 0);
	}
	t1 = now_ns();
	if (bad)
		die("%s: __cond_resched() returned non-zero (rescheduled?)%s", m->name, "");
	return (t1 - t0) * 1000 / calls;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double w[64];

	memcpy(w, v, n * sizeof(*w));
	qsort(w, n, sizeof(*w), cmp);
	return n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
}

static void usage(FILE *to)
{
	fputs("usage: cost-native [-n CALLS] [-r ROUNDS] [-w WORK] NAME=VMLINUX...\n", to);
}

int main(int argc, char **argv)
{
	static struct img img[MAX_IMG];
	static struct setting set[MAX_SET];
	long calls = 20000000, work = 0;
	int rounds = 15, ni = 0, ns = 0, c;
	char *end;

	while ((c = getopt(argc, argv, "n:r:w:h")) != -1) {
		switch (c) {
		case 'n':
			calls = strtol(optarg, &end, 10);
			if (*end || calls < 1 || calls > 1000000000) {
				fprintf(stderr, "cost-native: -n wants 1 to 1000000000 calls, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'r':
			rounds = (int)strtol(optarg, &end, 10);
			if (*end || rounds < 1 || rounds > 64) {
				fprintf(stderr, "cost-native: -r wants 1 to 64 rounds, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'w':
			work = strtol(optarg, &end, 10);
			if (*end || work < 0 || work > 1000000) {
				fprintf(stderr, "cost-native: -w wants 0 to 1000000 iterations, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind == argc || argc - optind > MAX_IMG) {
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++, ni++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i] || !eq[1]) {
			fprintf(stderr, "cost-native: '%s' is not NAME=VMLINUX\n", argv[i]);
			return 2;
		}
		*eq = '\0';
		img[ni].name = argv[i];
		img[ni].path = eq + 1;
		load(&img[ni], ni);
		set[ns++] = (struct setting){ .img = &img[ni], .name = img[ni].nop ? "0" : "base" };
		if (ns == 1)
			set[ns++] = (struct setting){ .img = &img[0], .name = img[0].nop ? "0-aa" : "base-aa" };
		if (img[ni].nop)
			set[ns++] = (struct setting){ .img = &img[ni], .name = "256", .on = true };
	}
	/* Warm up every setting once, untimed. */
	for (int s = 0; s < ns; s++)
		run(&set[s], calls / 10 + 1, work);
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < ns; k++) {
			/* Rotate the order each round: A B C, B C A, ... */
			struct setting *s = &set[(k + r) % ns];

			s->ps[r] = run(s, calls, work);
			printf("%s %s %d %.0f\n", s->img->name, s->name, r + 1, s->ps[r]);
		}
	printf("-- medians over %d rounds of %ld calls, %ld work iterations before each; ps per call;"
	       " x the first setting; 256 also x its kernel's 0\n", rounds, calls, work);
	for (int s = 0; s < ns; s++) {
		double m = median(set[s].ps, rounds);

		printf("%-10s %-8s %8.0f  x %s %s: %.3f", set[s].img->name, set[s].name, m,
		       set[0].img->name, set[0].name, m / median(set[0].ps, rounds));
		/* Against the same kernel's first limit-0 setting. */
		for (int z = 0; set[s].on && z < s; z++)
			if (set[z].img == set[s].img) {
				printf("  x 0: %.3f", m / median(set[z].ps, rounds));
				break;
			}
		putchar('\n');
	}
	return 0;
}
