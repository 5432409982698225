// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: rcuqs-kernel(8)'s trial records as status reads them
 * (ktrial.c): the parser on bytes no rcuqs-kernel would write, and the
 * reading of the files below a fake root, refusals included.
 */
#include "unit.h"

#include "ktrial.h"

#define D "var/lib/rcuqs/kernel/"

static int setup(void **state)
{
	return unit_setup_root(state);
}

static int teardown(void **state)
{
	return unit_teardown_root(state);
}

static void parse(struct ktrial *kt, const char *name, const char *s)
{
	ktrial_parse(kt, name, s, strlen(s));
}

static void test_release(void **state)
{
	static const char *const good[] = {
		"6.1.192-rcuqs2", "6.12.95+deb13-amd64", "7.3.4+bpo-amd64", "6.1.0-29-amd64",
		"7.3.4~rc1", "a", "1234567890123456789012345678901234567890123456789012345678901234",
	};
	static const char *const bad[] = {
		"", ".hidden", "-rf", "6.1 192", "6.1/../../etc", "6.1\x1b[2J", "6.1\r", "6.1:x",
		"6.1'x", "\xc3\xa9", "12345678901234567890123456789012345678901234567890123456789012345",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(ktrial_release_ok(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(ktrial_release_ok(bad[i]));
}

static void test_last(void **state)
{
	struct ktrial_last l;
	const char *why = NULL;

	(void)state;
	assert_int_equal(ktrial_parse_last("2026-12-06T10:29:37Z 6.1.192-rcuqs2 rejected: it did "
					   "not come up: its one-shot boot is spent", &l, &why), 0);
	assert_string_equal(l.time, "2026-12-06T10:29:37Z");
	assert_string_equal(l.release, "6.1.192-rcuqs2");
	assert_string_equal(l.outcome, "rejected");
	assert_string_equal(l.reason, "it did not come up: its one-shot boot is spent");

	/* rcuqs-kernel's outcome without a reason. */
	assert_int_equal(ktrial_parse_last("2026-12-06T10:31:02Z 6.1.193-rcuqs2 committed", &l,
					   &why), 0);
	assert_string_equal(l.outcome, "committed");
	assert_string_equal(l.reason, "");

	/* A reason is kept as read, escapes and all: status escapes it. */
	assert_int_equal(ktrial_parse_last("2026-12-06T10:31:02Z 6.1.193-rcuqs2 rejected: \x1b]0;x\x07",
					   &l, &why), 0);
	assert_string_equal(l.reason, "\x1b]0;x\x07");

	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "", "no time" },
		{ "2026-12-06T10:29:37Z", "no release after the time" },
		{ "2026-12-06 10:29:37 6.1.192-rcuqs2 committed", "no time" },
		{ "2026-12-06T10:29:3Z 6.1.192-rcuqs2 committed", "no time" },
		{ "2026-12-06T10:29:37Z 6.1.192-rcuqs2", "no outcome after the release" },
		{ "2026-12-06T10:29:37Z 6.1\x1b[2J committed", "no kernel release" },
		{ "2026-12-06T10:29:37Z  committed", "no kernel release" },
		{ "2026-12-06T10:29:37Z 6.1.192-rcuqs2 Rejected", "no outcome" },
		{ "2026-12-06T10:29:37Z 6.1.192-rcuqs2 rejected:", "not ': REASON'" },
		{ "2026-12-06T10:29:37Z 6.1.192-rcuqs2 rejected: ", "not ': REASON'" },
		{ "2026-12-06T10:29:37Z 6.1.192-rcuqs2 rejected now", "not ': REASON'" },
		{ "2026-12-06T10:29:37Z 6.1.192-rcuqs2 "
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "no outcome" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(ktrial_parse_last(bad[i].line, &l, &why), -EINVAL);
		assert_non_null(why);
		assert_contains(why, bad[i].why);
		/* Nothing half-filled is left behind. */
		assert_string_equal(l.time, "");
		assert_string_equal(l.release, "");
	}
}

static void test_one_line(void **state)
{
	struct ktrial kt;

	(void)state;
	memset(&kt, 0, sizeof(kt));
	parse(&kt, "trial", "6.1.193-rcuqs2\n");
	parse(&kt, "committed", "6.1.192-rcuqs2");	/* no newline: still the line */
	assert_string_equal(kt.trial, "6.1.193-rcuqs2");
	assert_string_equal(kt.committed, "6.1.192-rcuqs2");
	assert_int_equal(kt.nproblems, 0);

	/* Empty: none, as rcuqs-kernel status says; a blank line is no release. */
	memset(&kt, 0, sizeof(kt));
	parse(&kt, "trial", "");
	assert_false(kt.trial_bad);
	assert_int_equal(kt.nproblems, 0);
	parse(&kt, "trial", "\n");
	assert_true(kt.trial_bad);
	assert_string_equal(kt.trial, "");
	assert_int_equal(kt.nproblems, 1);
	assert_contains(kt.problems[0], D "trial: line 1: not a kernel release: ''");

	/* A second line: rcuqs-kernel reads the first; so does status, and says so. */
	memset(&kt, 0, sizeof(kt));
	parse(&kt, "committed", "6.1.192-rcuqs2\n6.1.193-rcuqs2\n");
	assert_string_equal(kt.committed, "6.1.192-rcuqs2");
	assert_false(kt.committed_bad);
	assert_int_equal(kt.nproblems, 1);
	assert_contains(kt.problems[0], "committed: line 2: more than the one line of this record: "
			"'6.1.193-rcuqs2'");

	/* A NUL byte: the record is not text. */
	memset(&kt, 0, sizeof(kt));
	ktrial_parse(&kt, "trial", "6.1.192\0-rcuqs2\n", 16);
	assert_true(kt.trial_bad);
	assert_string_equal(kt.trial, "");
	assert_contains(kt.problems[0], "trial: a NUL byte");

	/* A malformed line is quoted raw, cut at KTRIAL_QUOTED_MAX bytes. */
	memset(&kt, 0, sizeof(kt));
	parse(&kt, "trial", "6.1.193\x1b[2Jxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
	assert_true(kt.trial_bad);
	assert_contains(kt.problems[0], "(over 64 bytes): '6.1.193\x1b[2Jxxx");
	assert_contains(kt.problems[0], "xxx...'");
}

static void test_rejected(void **state)
{
	struct ktrial kt;
	char buf[2048] = "";

	(void)state;
	memset(&kt, 0, sizeof(kt));
	parse(&kt, "rejected", "6.1.192-rcuqs1\n6.1\x1b[2J\n\n6.1.192-rcuqs3\r\n6.1.192-rcuqs4\n");
	assert_int_equal(kt.nrejected, 2);
	assert_string_equal(kt.rejected[0], "6.1.192-rcuqs1");
	assert_string_equal(kt.rejected[1], "6.1.192-rcuqs4");
	assert_false(kt.rejected_bad);
	assert_int_equal(kt.nproblems, 3);
	assert_contains(kt.problems[0], "rejected: line 2: not a kernel release: '6.1\x1b[2J'");
	assert_contains(kt.problems[1], "rejected: line 3:");
	assert_contains(kt.problems[2], "rejected: line 4: not a kernel release: '6.1.192-rcuqs3\r'");

	/* Past KTRIAL_REJECTED_MAX releases: counted, not kept. */
	memset(&kt, 0, sizeof(kt));
	for (int i = 0; i < KTRIAL_REJECTED_MAX + 3; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "6.1.%d-rcuqs2\n", i);
	parse(&kt, "rejected", buf);
	assert_int_equal(kt.nrejected, KTRIAL_REJECTED_MAX);
	assert_string_equal(kt.rejected[KTRIAL_REJECTED_MAX - 1], "6.1.31-rcuqs2");
	assert_int_equal(kt.nproblems, 1);
	assert_contains(kt.problems[0], "3 more releases not shown (the first 32 are)");

	/* Past KTRIAL_PROBLEMS_MAX problems: counted. */
	memset(&kt, 0, sizeof(kt));
	parse(&kt, "rejected", "!\n!\n!\n!\n!\n!\n!\n!\n!\n!\n6.1.192-rcuqs1\n");
	assert_int_equal(kt.nproblems, KTRIAL_PROBLEMS_MAX);
	assert_int_equal(kt.more_problems, 2);
	assert_int_equal(kt.nrejected, 1);
}

static void test_last_record(void **state)
{
	struct ktrial kt;

	(void)state;
	memset(&kt, 0, sizeof(kt));
	parse(&kt, "last", "2026-12-06T10:29:37Z 6.1.192-rcuqs2 rejected: x\n");
	assert_true(kt.have_last);
	assert_string_equal(kt.last.reason, "x");
	assert_int_equal(kt.nproblems, 0);

	memset(&kt, 0, sizeof(kt));
	parse(&kt, "last", "yesterday 6.1.192-rcuqs2 rejected: x\n");
	assert_false(kt.have_last);
	assert_true(kt.last_bad);
	assert_contains(kt.problems[0], "last: line 1: no time (YYYY-MM-DDTHH:MM:SSZ) first: "
			"'yesterday 6.1.192-rcuqs2 rejected: x'");
}

/* The files below the fake root: absent, read, refused. */
static void test_read(void **state)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct ktrial kt;
	const char *err;

	(void)state;
	/* No directory: nothing at all, nothing said. */
	capture_begin();
	ktrial_read(&unit_ctx, &kt);
	assert_string_equal(capture_end(), "");
	assert_false(kt.present);
	assert_int_equal(kt.nproblems, 0);

	unit_write(D "trial", 0644, "6.1.193-rcuqs2\n");
	unit_write(D "committed", 0644, "6.1.192-rcuqs2\n");
	unit_write(D "rejected", 0644, "6.1.192-rcuqs1\n");
	unit_write(D "last", 0644, "2026-12-06T10:29:37Z 6.1.192-rcuqs1 rejected: it did not "
		   "come up\n");
	ktrial_read(&unit_ctx, &kt);
	assert_true(kt.present);
	assert_string_equal(kt.trial, "6.1.193-rcuqs2");
	assert_string_equal(kt.committed, "6.1.192-rcuqs2");
	assert_int_equal(kt.nrejected, 1);
	assert_true(kt.have_last);
	assert_string_equal(kt.last.reason, "it did not come up");
	assert_int_equal(kt.nproblems, 0);

	/* A link, a FIFO (never blocks), a group-writable file: refused, each said. */
	snprintf(path, sizeof(path), "%s/" D "trial", unit_root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/etc/hostname", path), 0);
	snprintf(path, sizeof(path), "%s/" D "committed", unit_root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);
	snprintf(path, sizeof(path), "%s/" D "last", unit_root);
	assert_int_equal(chmod(path, 0664), 0);
	capture_begin();
	ktrial_read(&unit_ctx, &kt);
	err = capture_end();
	assert_contains(err, D "trial: unsafe record file: a symbolic link");
	assert_contains(err, D "committed: unsafe record file: not a regular file");
	assert_contains(err, D "last: unsafe record file: mode 0664 is group-writable");
	assert_true(kt.trial_bad && kt.committed_bad && kt.last_bad);
	assert_false(kt.have_last);
	assert_int_equal(kt.nrejected, 1);
	assert_int_equal(kt.nproblems, 3);
	assert_contains(kt.problems[0], D "trial: not read: refused: a symbolic link");
	assert_contains(kt.problems[1], D "committed: not read: refused: not a regular file");
	assert_contains(kt.problems[2], D "last: not read: refused: writable by group or others");

	/* The directory a link to good records: one problem, nothing read. */
	snprintf(path, sizeof(path), "%s/var/lib/rcuqs/kernel", unit_root);
	snprintf(target, sizeof(target), "%s/var/lib/rcuqs/moved", unit_root);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink("moved", path), 0);
	capture_begin();
	ktrial_read(&unit_ctx, &kt);
	err = capture_end();
	assert_contains(err, "/var/lib/rcuqs/kernel: unsafe record directory: a symbolic link");
	assert_true(kt.present);
	assert_int_equal(kt.nproblems, 1);
	assert_contains(kt.problems[0], "/var/lib/rcuqs/kernel: not read: refused: a symbolic link");
	assert_int_equal(kt.nrejected, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_last),
		cmocka_unit_test(test_one_line),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_last_record),
		cmocka_unit_test_setup_teardown(test_read, setup, teardown),
	};

	return cmocka_run_group_tests_name("ktrial", tests, NULL, NULL);
}
