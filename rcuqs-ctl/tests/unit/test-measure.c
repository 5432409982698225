// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of what measure computes: one CPU's column of
 * /proc/interrupts and /proc/softirqs (cpustat_irqs_parse()), and the
 * nearest-rank quantiles of its samples (measure_quantile_ms()).
 */
#include "unit.h"

#include "cpustat.h"
#include "measure.h"

/* An x86 /proc/interrupts, shortened: per-CPU rows, then ERR and MIS with one count. */
static const char interrupts[] =
	"           CPU0       CPU1       CPU2       \n"
	"  0:         10          5          1   IO-APIC   2-edge      timer\n"
	" 24:          1          0          0   IO-APIC   5-edge      ACPI:Ged\n"
	"NMI:          3          4          5   Non-maskable interrupts\n"
	"LOC:       1000        500        250   Local timer interrupts\n"
	"RES:        100         50         25   Rescheduling interrupts\n"
	"CAL:         20         10          5   Function call interrupts\n"
	"ERR:          7\n"
	"MIS:          2\n";

static const char softirqs[] =
	"                    CPU0       CPU1       CPU2       \n"
	"          HI:          0          1          2\n"
	"       TIMER:      10000        500        400\n"
	"         RCU:      20000        300        200\n";

static void parse(const char *irq, const char *soft, long cpu, struct cpu_irqs *q, int want)
{
	char *a = irq ? strdup(irq) : NULL, *b = soft ? strdup(soft) : NULL;

	assert_int_equal(cpustat_irqs_parse(a, b, cpu, q), want);
	free(a);
	free(b);
}

static void test_columns(void **state)
{
	struct cpu_irqs q;

	(void)state;
	parse(interrupts, softirqs, 1, &q, 0);
	assert_true(q.have_irqs && q.have_softirqs);
	assert_int_equal(q.irqs, 5 + 0 + 4 + 500 + 50 + 10);
	assert_int_equal(q.loc, 500);
	assert_int_equal(q.res, 50);
	assert_int_equal(q.cal, 10);
	assert_int_equal(q.softirqs, 1 + 500 + 300);
	assert_int_equal(q.rcu, 300);
	/* CPU 0: ERR's and MIS's one count are the machine's, not its. */
	parse(interrupts, softirqs, 0, &q, 0);
	assert_int_equal(q.irqs, 10 + 1 + 3 + 1000 + 100 + 20);
	assert_int_equal(q.rcu, 20000);
	/* The last column. */
	parse(interrupts, softirqs, 2, &q, 0);
	assert_int_equal(q.irqs, 1 + 0 + 5 + 250 + 25 + 5);
	assert_int_equal(q.softirqs, 2 + 400 + 200);
}

static void test_missing(void **state)
{
	struct cpu_irqs q;

	(void)state;
	/* A CPU with no column (offline, or beyond the machine): missing, not 0. */
	parse(interrupts, softirqs, 3, &q, 0);
	assert_false(q.have_irqs);
	assert_false(q.have_softirqs);
	/* A file not read, or without a header. */
	parse(NULL, softirqs, 1, &q, 0);
	assert_false(q.have_irqs);
	assert_true(q.have_softirqs);
	parse("", "garbage without a newline", 1, &q, 0);
	assert_false(q.have_irqs || q.have_softirqs);
	/* A row cut short of the column is left out, the others count. */
	parse("  CPU0 CPU1\nLOC: 7 8\nRES: 9\n", NULL, 1, &q, 0);
	assert_true(q.have_irqs);
	assert_int_equal(q.irqs, 8);
	assert_int_equal(q.res, 0);
}

static void test_quantiles(void **state)
{
	unsigned long long ns[100];
	struct measure_samples s = { .ns = ns, .n = 100, .cap = 100 };

	(void)state;
	/* 100 samples of 1..100 ms, shuffled: nearest rank. */
	for (int i = 0; i < 100; i++)
		ns[i] = (unsigned long long)((i * 37) % 100 + 1) * 1000000ULL;
	assert_true(measure_quantile_ms(&s, 0.5) == 50.0);
	assert_true(measure_quantile_ms(&s, 0.99) == 99.0);
	assert_true(measure_quantile_ms(&s, 1.0) == 100.0);
	s.n = 1;
	ns[0] = 2500000;
	assert_true(measure_quantile_ms(&s, 0.5) == 2.5);
	assert_true(measure_quantile_ms(&s, 0.99) == 2.5);
	s.n = 0;
	assert_true(measure_quantile_ms(&s, 0.5) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_quantiles),
	};

	return cmocka_run_group_tests_name("measure", tests, NULL, NULL);
}
