// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: value validation, names, command lines, boot form, JSON and
 * table output, exit status mapping.
 */
#include "unit.h"

#include <math.h>

#include "bootcfg.h"
#include "counters.h"
#include "output.h"
#include "profile.h"
#include "tunables.h"
#include "util.h"

static int check(const char *name, const char *value)
{
	const struct tunable *t = tunable_find(name);

	assert_non_null(t);
	return tunable_check(t, value);
}

static void test_values(void **state)
{
	(void)state;
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "auto"), 0);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "1"), 0);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "18446744073709551614"), 0);
	/* ULONG_MAX is the kernel's internal "auto": refused as a number. */
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "18446744073709551615"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "18446744073709551616"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "0"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "AUTO"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "010"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "0x10"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "+5"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "-5"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", " 5"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", "5 "), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_sched_qs", ""), -EINVAL);
	assert_int_equal(check("rcutree.cond_resched_qs_limit", "0"), 0);
	assert_int_equal(check("rcutree.cond_resched_qs_limit", "1048576"), 0);
	assert_int_equal(check("rcutree.cond_resched_qs_limit", "1048577"), -EINVAL);
	assert_int_equal(check("rcutree.cond_resched_qs_limit", "auto"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_first_fqs", "0"), 0);
	assert_int_equal(check("rcutree.jiffies_till_next_fqs", "0"), -EINVAL);
	assert_int_equal(check("rcutree.jiffies_till_next_fqs", "1000"), 0);
	assert_int_equal(check("rcutree.jiffies_till_next_fqs", "1001"), -EINVAL);
	assert_int_equal(check("rcupdate.rcu_cpu_stall_timeout", "2"), -EINVAL);
	assert_int_equal(check("rcupdate.rcu_cpu_stall_timeout", "3"), 0);
	assert_int_equal(check("rcupdate.rcu_cpu_stall_timeout", "300"), 0);
	assert_int_equal(check("rcupdate.rcu_cpu_stall_timeout", "301"), -EINVAL);
	assert_int_equal(check("rcutree.kthread_prio", "99"), 0);
	assert_int_equal(check("rcutree.kthread_prio", "100"), -EINVAL);
	assert_int_equal(check("rcu_nocbs", "all"), 0);
	assert_int_equal(check("rcu_nocbs", "0"), 0);
	assert_int_equal(check("rcu_nocbs", "1-3,5,7-8"), 0);
	assert_int_equal(check("rcu_nocbs", "3-1"), -EINVAL);
	assert_int_equal(check("rcu_nocbs", "1,"), -EINVAL);
	assert_int_equal(check("rcu_nocbs", ",1"), -EINVAL);
	assert_int_equal(check("rcu_nocbs", "1-"), -EINVAL);
	assert_int_equal(check("rcu_nocbs", "1 2"), -EINVAL);
	assert_int_equal(check("rcu_nocbs", "1\"x"), -EINVAL);
	assert_int_equal(check("rcu_nocbs", "8192"), -EINVAL);
}

static void test_names(void **state)
{
	(void)state;
	assert_non_null(tunable_find("rcutree.cond_resched_qs_limit"));
	assert_null(tunable_find("rcutree.cond_resched_qs_limi"));
	assert_null(tunable_find("cond_resched_qs_limit"));
	assert_true(tunable_name_unsafe("a/b"));
	assert_true(tunable_name_unsafe("rcutree..x"));
	assert_true(tunable_name_unsafe(""));
	assert_false(tunable_name_unsafe("rcutree.x"));
	assert_true(valid_name("linux-3.16"));
	assert_true(valid_name("a_b"));
	assert_false(valid_name(".hidden"));
	assert_false(valid_name(".."));
	assert_false(valid_name("a/b"));
	assert_false(valid_name("a b"));
	assert_false(valid_name(""));
	assert_false(valid_name("12345678901234567890123456789012345678901234567890123456789012345"));
	/* Every runtime tunable lives under /sys/module; boot-only ones have no file. */
	for (size_t i = 0; i < N_TUNABLES; i++) {
		if (tunable_runtime(&tunables[i]))
			assert_int_equal(strncmp(tunables[i].sysfs, "module/", 7), 0);
		assert_non_null(tunables[i].range);
	}
}

static void test_cmdline(void **state)
{
	const char *cl = "BOOT_IMAGE=/vmlinuz root=/dev/vda rcu_nocbs=1-3 quiet "
			 "x=\"a b\" rcutree.kthread_prio=1 rcutree.kthread_prio=2 rcu_nocbs";
	char v[32];

	(void)state;
	assert_true(cmdline_value(cl, "rcutree.kthread_prio", v, sizeof(v)));
	assert_string_equal(v, "2");	/* last wins, as in the kernel */
	assert_true(cmdline_value(cl, "rcu_nocbs", v, sizeof(v)));
	assert_string_equal(v, "");	/* bare flag last */
	assert_true(cmdline_value(cl, "x", v, sizeof(v)));
	assert_string_equal(v, "a b");	/* the kernel takes the quotes off */
	assert_false(cmdline_value(cl, "rcutree.kthread", v, sizeof(v)));
	assert_false(cmdline_value(cl, "b\"", v, sizeof(v)));
	assert_false(cmdline_value("", "quiet", v, sizeof(v)));
	/* As the kernel reads it: '-' and '_' alike, quotes off, init's after "--". */
	assert_true(cmdline_value("rcutree.kthread-prio=2", "rcutree.kthread_prio", v, sizeof(v)));
	assert_string_equal(v, "2");
	assert_true(cmdline_value("\"rcu_nocbs=1-3\"", "rcu_nocbs", v, sizeof(v)));
	assert_string_equal(v, "1-3");
	assert_true(cmdline_value("a rcu_nocbs=\"4\" -- rcu_nocbs=1", "rcu_nocbs", v, sizeof(v)));
	assert_string_equal(v, "4");
	assert_false(cmdline_value("ro -- rcu_nocbs=1-3", "rcu_nocbs", v, sizeof(v)));
	assert_false(cmdline_value("ro \"--\" rcu_nocbs=1-3", "rcu_nocbs", v, sizeof(v)));
	/* The kernel's isspace(): 0xa0 is a blank (a pasted U+00A0), 0x85 is not. */
	assert_true(cmdline_value("quiet\xc2\xa0rcu_nocbs=1-3", "rcu_nocbs", v, sizeof(v)));
	assert_string_equal(v, "1-3");
	assert_true(cmdline_value("rcu_nocbs=1-3\xa0x", "rcu_nocbs", v, sizeof(v)));
	assert_string_equal(v, "1-3");
	assert_false(cmdline_value("quiet\xc2\x85rcu_nocbs=1-3", "rcu_nocbs", v, sizeof(v)));
	assert_false(cmdline_value("ro\xa0--\xa0rcu_nocbs=1-3", "rcu_nocbs", v, sizeof(v)));
}

static void test_cpulist_count(void **state)
{
	(void)state;
	assert_int_equal(cpulist_count("1-3,5", 8191), 4);
	assert_int_equal(cpulist_count("2", 8191), 1);
	assert_int_equal(cpulist_count("0-8191", 8191), 8192);
	assert_true(cpulist_count("3-1", 8191) < 0);
	assert_true(cpulist_count("", 8191) < 0);
	assert_true(cpulist_count("1,", 8191) < 0);
	assert_true(cpulist_count("8192", 8191) < 0);
}

static void test_seconds(void **state)
{
	double d;

	(void)state;
	assert_int_equal(parse_seconds("0.1", 10, &d), 0);
	assert_true(d == 0.1);
	assert_int_equal(parse_seconds("0.09", 10, &d), -EINVAL);	/* under SECONDS_MIN */
	assert_int_equal(parse_seconds("0.0000001", 10, &d), -EINVAL);
	assert_int_equal(parse_seconds("0", 10, &d), -EINVAL);
	assert_int_equal(parse_seconds("10", 10, &d), 0);
	assert_int_equal(parse_seconds("10.5", 10, &d), -EINVAL);
}

static void test_boot_form(void **state)
{
	struct bootcfg b;
	struct profile p;
	char *args;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.name = "t";
	strcpy(p.set[tunable_index(tunable_find("rcu_nocbs"))].value, "1-3");
	strcpy(p.set[tunable_index(tunable_find("rcutree.cond_resched_qs_limit"))].value, "256");
	args = boot_args(&p);
	assert_string_equal(args, "rcutree.cond_resched_qs_limit=256 rcu_nocbs=1-3");
	free(args);

	/* No /etc/kernel/cmdline: only the GRUB drop-in, in a new directory. */
	assert_int_equal(bootcfg_prepare(&unit_ctx, &p, &b), 0);
	assert_false(b.have_kcmdline);
	assert_null(unit_read("etc/default/grub.d/rcuqs.cfg"));	/* not yet visible */
	assert_int_equal(bootcfg_record(&b), 0);
	assert_int_equal(pending_commit(&b.kcmd), 0);
	assert_int_equal(pending_commit(&b.grub), 0);
	bootcfg_finish(&unit_ctx, &b);
	assert_contains(unit_read("etc/default/grub.d/rcuqs.cfg"),
			"\nGRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX rcutree.cond_resched_qs_limit=256 rcu_nocbs=1-3\"\n");
	assert_null(unit_read("etc/kernel/cmdline"));

	/*
	 * With one: every byte of theirs kept, theirs for a key the profile sets
	 * too (rcu_nocbs=0), the profile's tokens after them so that they win.
	 */
	unit_write("etc/kernel/cmdline", 0644,
		   "root=/dev/sda1 rcu_nocbs=0 quiet rcutree.jiffies_till_sched_qs=5 x=\"a b\"\n");
	assert_int_equal(bootcfg_prepare(&unit_ctx, &p, &b), 0);
	assert_true(b.have_kcmdline);
	assert_string_equal(unit_read("etc/kernel/cmdline"),
			    "root=/dev/sda1 rcu_nocbs=0 quiet rcutree.jiffies_till_sched_qs=5 x=\"a b\"\n");
	bootcfg_abort(&b);
	assert_string_equal(unit_read("etc/kernel/cmdline"),
			    "root=/dev/sda1 rcu_nocbs=0 quiet rcutree.jiffies_till_sched_qs=5 x=\"a b\"\n");
	assert_null(unit_read("etc/kernel/cmdline.rcuqs-new"));
	assert_int_equal(bootcfg_prepare(&unit_ctx, &p, &b), 0);
	assert_int_equal(bootcfg_record(&b), 0);
	assert_int_equal(pending_commit(&b.kcmd), 0);
	assert_int_equal(pending_commit(&b.grub), 0);
	bootcfg_finish(&unit_ctx, &b);
	assert_string_equal(unit_read("etc/kernel/cmdline"),
			    "root=/dev/sda1 rcu_nocbs=0 quiet rcutree.jiffies_till_sched_qs=5 "
			    "x=\"a b\" rcutree.cond_resched_qs_limit=256 rcu_nocbs=1-3\n");
}

/* cmdline_merge(): every byte rcuqs does not own stays (cases fuzzing found, too). */
static void test_cmdline_merge(void **state)
{
	static const struct {
		const char *old, *args, *prev, *want;
	} cases[] = {
		/* init's arguments after "--" stay; ours go before it */
		{ "ro -- single x=1\n", "a.b=1", "", "ro a.b=1 -- single x=1\n" },
		{ "-- init=/bin/sh\n", "a.b=1", "", "a.b=1 -- init=/bin/sh\n" },
		/* spacing kept; the last of ours goes, the new one goes last */
		{ "x  a.b=5\ty a.b=5 z\n", "a.b=1", "a.b=5", "x  a.b=5\ty z a.b=1\n" },
		/* theirs with the same bytes as ours, before ours, stays */
		{ "r a.b=5 q a.b=5\n", "", "a.b=5", "r a.b=5 q\n" },
		/* as appended: the block and its one space go, whatever theirs */
		{ "r\ta.b=5 a.b=5 c=1\n", "", "a.b=5 c=1", "r\ta.b=5\n" },
		{ "a.b=5 c=1  -- x\n", "", "a.b=5 c=1", " -- x\n" },
		{ "a.b=5\n", "", "a.b=5", "\n" },
		{ "a.b=5", "", "a.b=5", "" },
		/* the administrator's tokens stay, ours comes last and wins */
		{ "x  a.b=7\ty\n", "a.b=1", "", "x  a.b=7\ty a.b=1\n" },
		/* prev's tokens go, theirs for the same key stay ('off') */
		{ "a.b=5 c.d=2 e=1 c.d=3\n", "", "c.d=2", "a.b=5 e=1 c.d=3\n" },
		/* ours last, even when theirs for the key follows (fuzzing) */
		{ "a.b 1 a.b=x\n", "a.b=1", "a.b", "1 a.b=x a.b=1\n" },
		{ "1 a.b 2 a-b=x\n", "a.b=1", "a.b", "1 2 a-b=x a.b=1\n" },
		/* a quote that never closes would swallow what follows it */
		{ "root=/dev/vda foo=\"bar baz\n", "a.b=1", "",
		  "root=/dev/vda a.b=1 foo=\"bar baz\n" },
		{ "", "a.b=1", "", "a.b=1" },	/* no byte rcuqs does not own */
		{ "", "", "", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = cmdline_merge(cases[i].old, cases[i].args, cases[i].prev);

		assert_non_null(got);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

static void test_read_text_too_big(void **state)
{
	char big[5000], buf[4096];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	unit_write("etc/big", 0644, "%s", big);
	assert_int_equal(read_text(&unit_ctx, "/etc/big", buf, sizeof(buf)), -EFBIG);
	big[4095] = '\0';	/* exactly what fits */
	unit_write("etc/big", 0644, "%s", big);
	assert_int_equal(read_text(&unit_ctx, "/etc/big", buf, sizeof(buf)), 4095);
	unit_write("etc/big", 0644, "%s\n", big);	/* one byte more, even a newline: refused */
	assert_int_equal(read_text(&unit_ctx, "/etc/big", buf, sizeof(buf)), -EFBIG);
}

static void test_pending_abort_removes_dirs(void **state)
{
	struct pending_file pf;

	(void)state;
	assert_int_equal(pending_prepare(&unit_ctx, "/new/a/b/file", "x\n", &pf), 0);
	assert_string_equal(unit_read("new/a/b/file.rcuqs-new"), "x\n");
	pending_abort(&pf);
	assert_int_equal(access(unit_root, F_OK), 0);
	{
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/new", unit_root);
		assert_int_equal(access(p, F_OK), -1);
	}
}

static void test_json(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j = { .f = f };

	(void)state;
	json_open(&j, NULL, '{');
	json_str(&j, "s", "a\"b\\c\nd\te\x01");
	json_str(&j, "n", NULL);
	json_num(&j, "i", "42");
	json_num(&j, "bad", "4x");
	json_bool(&j, "t", true);
	json_real(&j, "r", 1.5, true);
	json_real(&j, "inf", INFINITY, true);	/* not JSON: null */
	json_real(&j, "nan", NAN, true);
	json_real(&j, "none", 2, false);
	json_open(&j, "a", '[');
	json_str(&j, NULL, "x");
	json_str(&j, NULL, "y");
	json_close(&j, ']');
	json_close(&j, '}');
	json_end(&j);
	fclose(f);
	assert_string_equal(buf, "{\"s\":\"a\\\"b\\\\c\\nd\\te\\u0001\",\"n\":null,\"i\":42,"
				 "\"bad\":null,\"t\":true,\"r\":1.500,\"inf\":null,\"nan\":null,"
				 "\"none\":null,\"a\":[\"x\",\"y\"]}\n");
	free(buf);
}

static void test_table(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct table t;

	(void)state;
	assert_int_equal(table_init(&t, 3, "A", "LONGER", "C"), 0);
	assert_int_equal(table_row(&t, "xyz", NULL, ""), 0);
	assert_int_equal(table_row(&t, "", "b", "c"), 0);
	assert_int_equal(table_row(&t, "\x1b[2J", "\\", "\xff"), 0);	/* escaped, whatever a cell holds */
	table_print(&t, f);
	table_free(&t);
	fclose(f);
	assert_string_equal(buf, "A        LONGER  C\n"
				 "xyz      -\n"
				 "         b       c\n"
				 "\\x1b[2J  \\x5c    \\xff\n");
	free(buf);
}

static void test_exit_status(void **state)
{
	(void)state;
	assert_int_equal(exit_status(0), EXIT_OK);
	assert_int_equal(exit_status(-EINVAL), EXIT_USAGE);
	assert_int_equal(exit_status(-ENODEV), EXIT_NOKERNEL);
	/* "Not root" only for a user who is not: root denied a file fails. */
	assert_int_equal(exit_status(-EACCES), geteuid() == 0 ? EXIT_FAIL : EXIT_PERM);
	assert_int_equal(exit_status(-EIO), EXIT_FAIL);
	assert_int_equal(exit_status(-ENOTRECOVERABLE), EXIT_PARTIAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_cpulist_count),
		cmocka_unit_test(test_boot_form),
		cmocka_unit_test(test_cmdline_merge),
		cmocka_unit_test(test_read_text_too_big),
		cmocka_unit_test(test_pending_abort_removes_dirs),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_exit_status),
	};

	return cmocka_run_group_tests_name("values", tests, unit_setup_root, unit_teardown_root);
}
