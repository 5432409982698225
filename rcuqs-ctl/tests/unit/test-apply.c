// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: all-or-nothing apply. Faults are injected into sysfs_write()
 * (see unit.h) because a fake root cannot make a restore fail after the
 * same file took a write a moment before.
 */
#include "unit.h"

#include "apply.h"
#include "cmd.h"
#include "tunables.h"

#define P "sys/module/rcutree/parameters/"
#define U "sys/module/rcupdate/parameters/"

static int setup(void **state)
{
	unit_setup_root(state);
	unit_write(P "jiffies_till_sched_qs", 0644, "auto\n");
	unit_write(P "cond_resched_qs_limit", 0644, "0\n");
	unit_write(P "jiffies_till_first_fqs", 0644, "3\n");
	unit_write(U "rcu_cpu_stall_timeout", 0644, "21\n");
	unit_faults_reset();
	return 0;
}

static int teardown(void **state)
{
	return unit_teardown_root(state);
}

static struct change ch(const char *name, const char *value)
{
	struct change c = { .t = tunable_find(name), .value = value };

	assert_non_null(c.t);
	return c;
}

static void test_all_written(void **state)
{
	struct change c[2] = {
		ch("rcutree.jiffies_till_sched_qs", "1000"),
		ch("rcutree.cond_resched_qs_limit", "256"),
	};

	(void)state;
	assert_int_equal(apply_changes(&unit_ctx, c, 2), 0);
	assert_string_equal(unit_read(P "jiffies_till_sched_qs"), "1000");
	assert_string_equal(unit_read(P "cond_resched_qs_limit"), "256");
	assert_string_equal(c[0].old, "auto");	/* newline stripped */
	assert_string_equal(c[1].old, "0");
}

/*
 * A kernel whose jiffies_till_sched_qs takes numbers only (the RFC's 1/3)
 * refuses "auto"; its ULONG_MAX means the same. Where the parameter reads
 * "auto" (the rcuqs series) a refusal stands.
 */
static void test_auto_as_ulong_max(void **state)
{
	struct change c[1] = { ch("rcutree.jiffies_till_sched_qs", "auto") };

	(void)state;
	unit_write(P "jiffies_till_sched_qs", 0644, "3\n");
	unit_fault("module/rcutree/parameters/jiffies_till_sched_qs", 1, EINVAL);
	assert_int_equal(apply_changes(&unit_ctx, c, 1), 0);
	assert_string_equal(unit_read(P "jiffies_till_sched_qs"), "18446744073709551615");
}

static void test_auto_refused(void **state)
{
	struct change c[1] = { ch("rcutree.jiffies_till_sched_qs", "auto") };
	const char *err;
	int r;

	(void)state;
	unit_fault("module/rcutree/parameters/jiffies_till_sched_qs", 1, EINVAL);
	capture_begin();
	r = apply_changes(&unit_ctx, c, 1);
	err = capture_end();
	assert_int_equal(r, -EIO);
	assert_contains(err, "cannot set rcutree.jiffies_till_sched_qs=auto: Invalid argument");
	assert_string_equal(unit_read(P "jiffies_till_sched_qs"), "auto\n");	/* untouched */
	assert_int_equal(unit_nlog, 1);	/* no second try */
}

static void test_second_fails_first_restored(void **state)
{
	struct change c[3] = {
		ch("rcutree.jiffies_till_sched_qs", "1000"),
		ch("rcutree.jiffies_till_first_fqs", "5"),
		ch("rcutree.cond_resched_qs_limit", "256"),
	};
	const char *err;
	int r;

	(void)state;
	unit_fault("module/rcutree/parameters/cond_resched_qs_limit", 1, EINVAL);
	capture_begin();
	r = apply_changes(&unit_ctx, c, 3);
	err = capture_end();
	assert_int_equal(r, -EIO);
	/* The error names the parameter, the value and the kernel's answer. */
	assert_contains(err, "cannot set rcutree.cond_resched_qs_limit=256: Invalid argument");
	assert_contains(err, "restored rcutree.jiffies_till_first_fqs=3");
	assert_contains(err, "restored rcutree.jiffies_till_sched_qs=auto");
	assert_string_equal(unit_read(P "jiffies_till_sched_qs"), "auto");
	assert_string_equal(unit_read(P "jiffies_till_first_fqs"), "3");
	assert_string_equal(unit_read(P "cond_resched_qs_limit"), "0\n");	/* untouched */
	/* Restored in reverse order. */
	assert_int_equal(unit_nlog, 5);
	assert_string_equal(unit_log[3], "module/rcutree/parameters/jiffies_till_first_fqs=3");
	assert_string_equal(unit_log[4], "module/rcutree/parameters/jiffies_till_sched_qs=auto");
}

static void test_first_fails_nothing_written(void **state)
{
	struct change c[2] = {
		ch("rcutree.jiffies_till_sched_qs", "1000"),
		ch("rcutree.cond_resched_qs_limit", "256"),
	};
	const char *err;
	int r;

	(void)state;
	unit_fault("module/rcutree/parameters/jiffies_till_sched_qs", 1, EINVAL);
	capture_begin();
	r = apply_changes(&unit_ctx, c, 2);
	err = capture_end();
	assert_int_equal(r, -EIO);
	assert_contains(err, "cannot set rcutree.jiffies_till_sched_qs=1000: Invalid argument");
	assert_contains(err, "nothing was changed");
	assert_int_equal(unit_nlog, 1);
	assert_string_equal(unit_read(P "jiffies_till_sched_qs"), "auto\n");
	assert_string_equal(unit_read(P "cond_resched_qs_limit"), "0\n");
}

static void test_restore_fails(void **state)
{
	struct change c[3] = {
		ch("rcutree.jiffies_till_sched_qs", "1000"),
		ch("rcutree.jiffies_till_first_fqs", "5"),
		ch("rcutree.cond_resched_qs_limit", "256"),
	};
	const char *err;
	int r;

	(void)state;
	unit_fault("module/rcutree/parameters/cond_resched_qs_limit", 1, ENOSPC);
	unit_fault("module/rcutree/parameters/jiffies_till_sched_qs", 2, EBUSY);
	capture_begin();
	r = apply_changes(&unit_ctx, c, 3);
	err = capture_end();
	assert_int_equal(r, -ENOTRECOVERABLE);
	assert_contains(err, "cannot set rcutree.cond_resched_qs_limit=256: No space left on device");
	assert_contains(err, "restored rcutree.jiffies_till_first_fqs=3");
	assert_contains(err, "cannot restore rcutree.jiffies_till_sched_qs=auto: Device or resource busy; it is still 1000");
	assert_contains(err, "rollback failed: the system was left partly changed");
	assert_string_equal(unit_read(P "jiffies_till_sched_qs"), "1000");
	assert_string_equal(unit_read(P "jiffies_till_first_fqs"), "3");
	assert_int_equal(exit_status(r), EXIT_PARTIAL);
}

static void test_read_fails_nothing_written(void **state)
{
	struct change c[2] = {
		ch("rcutree.jiffies_till_sched_qs", "1000"),
		ch("rcutree.jiffies_till_next_fqs", "5"),	/* file absent */
	};
	const char *err;
	int r;

	(void)state;
	capture_begin();
	r = apply_changes(&unit_ctx, c, 2);
	err = capture_end();
	assert_int_equal(r, -ENOENT);
	assert_contains(err, "cannot read rcutree.jiffies_till_next_fqs");
	assert_int_equal(unit_nlog, 0);
	assert_string_equal(unit_read(P "jiffies_till_sched_qs"), "auto\n");
}

/* A growing stall timeout is written first, a shrinking one last. */
static void test_stall_order(void **state)
{
	struct change up[2] = {
		ch("rcutree.jiffies_till_sched_qs", "3000"),
		ch("rcupdate.rcu_cpu_stall_timeout", "60"),
	};
	struct change down[2] = {
		ch("rcupdate.rcu_cpu_stall_timeout", "10"),
		ch("rcutree.jiffies_till_sched_qs", "auto"),
	};

	(void)state;
	assert_int_equal(apply_changes(&unit_ctx, up, 2), 0);
	assert_string_equal(unit_log[0], "module/rcupdate/parameters/rcu_cpu_stall_timeout=60");
	assert_string_equal(unit_log[1], "module/rcutree/parameters/jiffies_till_sched_qs=3000");
	unit_faults_reset();
	assert_int_equal(apply_changes(&unit_ctx, down, 2), 0);
	assert_string_equal(unit_log[0], "module/rcutree/parameters/jiffies_till_sched_qs=auto");
	assert_string_equal(unit_log[1], "module/rcupdate/parameters/rcu_cpu_stall_timeout=10");
}

/* A fake root set-profile can run on: the marker, a profile, the lock's /run. */
static void setprofile_root(void)
{
	unit_write("sys/kernel/rcu_qs/gp_completed", 0444, "0\n");	/* RCUQS_MARKER */
	unit_write("usr/lib/rcuqs/profiles/t.profile", 0644,
		   "rcutree.jiffies_till_sched_qs=1000\nrcutree.cond_resched_qs_limit=256\n");
	unit_mkdirs("run", 0755);
	unit_mkdirs("etc/default/grub.d", 0755);
	unit_write("etc/kernel/cmdline", 0600, "root=/dev/vda quiet\n");
}

static int run_set_profile(const char *name)
{
	char *argv[] = { "set-profile", (char *)name, NULL };

	return cmd_set_profile.fn(&unit_ctx, 2, argv);
}

/*
 * A file commit failing after the kernel took the values: the kernel and
 * the files already committed go back, and exit 1 means nothing changed.
 */
static void test_set_profile_commit_fails(void **state)
{
	char path[PATH_MAX];
	const char *err;
	struct stat st;
	int r;

	(void)state;
	setprofile_root();
	unit_write("etc/rcuqs/active", 0644, "old\n");
	unit_write("etc/default/grub.d/rcuqs.cfg", 0644, "# old drop-in\n");
	/*
	 * Renames: the record of original values, the record of rcuqs's
	 * tokens, active, then /etc/kernel/cmdline fails (before the drop-in).
	 */
	unit_rename_fail = 4;
	capture_begin();
	r = run_set_profile("t");
	err = capture_end();
	assert_int_equal(r, EXIT_FAIL);
	assert_contains(err, "cannot write /etc/kernel/cmdline: Input/output error");
	assert_contains(err, "restored rcutree.jiffies_till_sched_qs=auto");
	assert_contains(err, "nothing was changed");
	assert_string_equal(unit_read(P "jiffies_till_sched_qs"), "auto");
	assert_string_equal(unit_read(P "cond_resched_qs_limit"), "0");
	assert_string_equal(unit_read("etc/rcuqs/active"), "old\n");
	assert_string_equal(unit_read("etc/default/grub.d/rcuqs.cfg"), "# old drop-in\n");
	assert_string_equal(unit_read("etc/kernel/cmdline"), "root=/dev/vda quiet\n");
	assert_null(unit_read("etc/rcuqs/active.rcuqs-old"));
	assert_null(unit_read("etc/default/grub.d/rcuqs.cfg.rcuqs-old"));
	assert_null(unit_read("etc/kernel/cmdline.rcuqs-new"));
	assert_null(unit_read("etc/rcuqs/cmdline"));

	/*
	 * A commit failing after new files were committed (the records,
	 * active, /etc/kernel/cmdline): files that did not exist stay absent.
	 */
	snprintf(path, sizeof(path), "%s/etc/rcuqs/active", unit_root);
	assert_int_equal(unlink(path), 0);
	unit_faults_reset();
	unit_rename_fail = 5;
	capture_begin();
	r = run_set_profile("t");
	err = capture_end();
	assert_int_equal(r, EXIT_FAIL);
	assert_contains(err, "cannot write /etc/default/grub.d/rcuqs.cfg: Input/output error");
	assert_null(unit_read("etc/rcuqs/active"));
	assert_null(unit_read("etc/rcuqs/original"));
	assert_null(unit_read("etc/rcuqs/cmdline"));
	assert_string_equal(unit_read("etc/kernel/cmdline"), "root=/dev/vda quiet\n");
	assert_string_equal(unit_read(P "cond_resched_qs_limit"), "0");

	/* And when nothing fails, the mode and owner of the file stay. */
	unit_faults_reset();
	capture_begin();
	r = run_set_profile("t");
	capture_end();
	assert_int_equal(r, EXIT_OK);
	assert_string_equal(unit_read("etc/kernel/cmdline"),
			    "root=/dev/vda quiet rcutree.jiffies_till_sched_qs=1000 "
			    "rcutree.cond_resched_qs_limit=256\n");
	snprintf(path, sizeof(path), "%s/etc/kernel/cmdline", unit_root);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_null(unit_read("etc/kernel/cmdline.rcuqs-old"));
}

/*
 * set-profile --stage on a stock kernel (no marker) with the last commit
 * failing (the drop-in): the originals, the record of rcuqs's tokens,
 * active and /etc/kernel/cmdline committed before it go back, and no
 * parameter is written, then or when nothing fails.
 */
static void test_stage_commit_fails(void **state)
{
	char path[PATH_MAX];
	const char *err;
	int r;

	(void)state;
	setprofile_root();
	snprintf(path, sizeof(path), "%s/sys/kernel/rcu_qs/gp_completed", unit_root);
	assert_int_equal(unlink(path), 0);
	/* Renames: the originals, the token record, active, cmdline, the drop-in. */
	unit_rename_fail = 5;
	capture_begin();
	r = cmd_set_profile.fn(&unit_ctx, 3, (char *[]){ "set-profile", "--stage", "t", NULL });
	err = capture_end();
	assert_int_equal(r, EXIT_FAIL);
	assert_contains(err, "cannot write /etc/default/grub.d/rcuqs.cfg: Input/output error");
	assert_contains(err, "nothing was changed");
	assert_null(unit_read("etc/rcuqs/active"));
	assert_null(unit_read("etc/rcuqs/original"));
	assert_null(unit_read("etc/rcuqs/cmdline"));
	assert_null(unit_read("etc/default/grub.d/rcuqs.cfg"));
	assert_string_equal(unit_read("etc/kernel/cmdline"), "root=/dev/vda quiet\n");
	assert_int_equal(unit_nlog, 0);

	unit_faults_reset();
	capture_begin();
	r = cmd_set_profile.fn(&unit_ctx, 3, (char *[]){ "set-profile", "--stage", "t", NULL });
	capture_end();
	assert_int_equal(r, EXIT_OK);
	assert_string_equal(unit_read("etc/rcuqs/active"), "t\n");
	assert_contains(unit_read("etc/rcuqs/original"), "rcutree.jiffies_till_sched_qs=auto\n");
	assert_string_equal(unit_read("etc/kernel/cmdline"),
			    "root=/dev/vda quiet rcutree.jiffies_till_sched_qs=1000 "
			    "rcutree.cond_resched_qs_limit=256\n");
	assert_int_equal(unit_nlog, 0);
}

static void test_output(void **state)
{
	struct change c[2] = {
		ch("rcutree.jiffies_till_sched_qs", "auto"),
		ch("rcutree.cond_resched_qs_limit", "256"),
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(apply_changes(&unit_ctx, c, 2), 0);
	changes_print(c, 2, f);
	fclose(f);
	assert_string_equal(buf, "rcutree.jiffies_till_sched_qs: auto (unchanged)\n"
				 "rcutree.cond_resched_qs_limit: 0 -> 256\n");
	free(buf);
}

/* A kernel that clamps (jiffies_till_first_fqs to HZ) is reported as such. */
static void test_clamped(void **state)
{
	struct change c[1] = { ch("rcutree.jiffies_till_first_fqs", "1000") };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	/* The first read (the old value) is the file's; the read-back "clamps". */
	unit_read_rel = "module/rcutree/parameters/jiffies_till_first_fqs";
	unit_read_value = "250";
	unit_read_skip = 1;
	assert_int_equal(apply_changes(&unit_ctx, c, 1), 0);
	changes_print(c, 1, f);
	fclose(f);
	assert_string_equal(buf, "rcutree.jiffies_till_first_fqs: 3 -> 250 "
				 "(asked for 1000; the kernel adjusted it)\n");
	free(buf);
}

/*
 * A value the kernel clamps (jiffies_till_first_fqs to HZ): the profile
 * was applied cleanly, so verify reports a match, not drift, from the
 * kernel's answer that set-profile recorded.
 */
static void test_verify_after_clamp(void **state)
{
	char *argv[] = { "verify", NULL }, path[PATH_MAX];
	int r;

	(void)state;
	setprofile_root();
	unit_write("proc/cmdline", 0444, "root=/dev/vda\n");
	unit_write("usr/lib/rcuqs/profiles/hz.profile", 0644,
		   "rcutree.jiffies_till_first_fqs=1000\n");
	unit_read_rel = "module/rcutree/parameters/jiffies_till_first_fqs";
	unit_read_value = "250";
	unit_read_skip = 1;	/* the old value is the file's, then it "clamps" */
	capture_begin();
	r = run_set_profile("hz");
	capture_end();
	assert_int_equal(r, EXIT_OK);
	assert_string_equal(unit_read("run/rcuqs.adjusted"),
			    "rcutree.jiffies_till_first_fqs 1000 250\n");
	capture_begin();
	r = cmd_verify.fn(&unit_ctx, 1, argv);
	capture_end();
	assert_int_equal(r, EXIT_OK);

	/*
	 * set-profile --check of the same profile: nothing would change (the
	 * kernel would store 250 for 1000 again), exit 0, as Ansible's check
	 * mode needs to settle; it used to count the asked 1000 against the
	 * 250 that reads and exit 5 on every run.
	 */
	{
		char *check[] = { "set-profile", "--check", "hz", NULL };

		capture_begin();
		r = cmd_set_profile.fn(&unit_ctx, 3, check);
		capture_end();
		unit_ctx.dry_run = false;
		assert_int_equal(r, EXIT_OK);
	}

	/* Without the record, 250 for 1000 is drift. */
	snprintf(path, sizeof(path), "%s/run/rcuqs.adjusted", unit_root);
	assert_int_equal(unlink(path), 0);
	capture_begin();
	r = cmd_verify.fn(&unit_ctx, 1, argv);
	capture_end();
	assert_int_equal(r, EXIT_DRIFT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_all_written, setup, teardown),
		cmocka_unit_test_setup_teardown(test_auto_as_ulong_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_auto_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_fails_first_restored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_first_fails_nothing_written, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restore_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_fails_nothing_written, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stall_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clamped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_profile_commit_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stage_commit_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_after_clamp, setup, teardown),
	};

	return cmocka_run_group_tests_name("apply", tests, NULL, NULL);
}
