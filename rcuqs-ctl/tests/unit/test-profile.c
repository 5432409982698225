// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: profile lookup, parsing, includes, validation, file safety. */
#include "unit.h"

#include "profile.h"
#include "tunables.h"

#define USR "usr/lib/rcuqs/profiles/"
#define ETC "etc/rcuqs/profiles/"

static int setup(void **state)
{
	unit_setup_root(state);
	unit_mkdirs(USR, 0755);
	unit_mkdirs(ETC, 0755);
	unit_write(USR "base.profile", 0644,
		   "description=Base\n"
		   "rcutree.jiffies_till_sched_qs=auto\n"
		   "rcutree.cond_resched_qs_limit=0\n");
	return 0;
}

static const char *value_of(const struct profile *p, const char *name)
{
	const struct tunable *t = tunable_find(name);

	assert_non_null(t);
	return p->set[tunable_index(t)].value;
}

/* Load that must fail with -EINVAL and say msg on stderr. */
static void load_fails(const char *name, const char *msg)
{
	struct profile p;
	const char *err;
	int r;

	capture_begin();
	r = profile_load(&unit_ctx, name, &p);
	err = capture_end();
	profile_free(&p);
	assert_int_equal(r, -EINVAL);
	assert_contains(err, msg);
}

static void test_parse_basic(void **state)
{
	struct profile p;

	(void)state;
	unit_write(USR "basic.profile", 0644,
		   "# comment\n"
		   "\n"
		   "   description =  Spaces trimmed  \n"
		   "\trcutree.cond_resched_qs_limit = 256\t\n"
		   "rcu_nocbs=1-3,5\n"
		   "rcutree.kthread_prio=1\n");
	assert_int_equal(profile_load(&unit_ctx, "basic", &p), 0);
	assert_string_equal(p.description, "Spaces trimmed");
	assert_string_equal(value_of(&p, "rcutree.cond_resched_qs_limit"), "256");
	assert_string_equal(value_of(&p, "rcu_nocbs"), "1-3,5");
	assert_string_equal(value_of(&p, "rcutree.kthread_prio"), "1");
	assert_string_equal(value_of(&p, "rcutree.jiffies_till_sched_qs"), "");
	assert_int_equal(p.set[tunable_index(tunable_find("rcu_nocbs"))].line, 5);
	assert_int_equal(p.nfiles, 1);
	assert_string_equal(p.files[0], "/" USR "basic.profile");
	profile_free(&p);
}

static void test_errors(void **state)
{
	(void)state;
	unit_write(ETC "e1.profile", 0644, "# x\nfoo=1\n");
	load_fails("e1", "/" ETC "e1.profile:2: unknown key 'foo'");
	unit_write(ETC "e2.profile", 0644, "rcutree.cond_resched_qs_limit 5\n");
	load_fails("e2", "/" ETC "e2.profile:1: missing '=' in 'rcutree.cond_resched_qs_...'");
	unit_write(ETC "e3.profile", 0644,
		   "rcutree.cond_resched_qs_limit=1\n\nrcutree.cond_resched_qs_limit=2\n");
	load_fails("e3", "e3.profile:3: duplicate key 'rcutree.cond_resched_qs_limit' (first on line 1)");
	unit_write(ETC "e4.profile", 0644, "rcutree.cond_resched_qs_limit=1048577\n");
	load_fails("e4", "e4.profile:1: bad value '1048577' for rcutree.cond_resched_qs_limit");
	unit_write(ETC "e5.profile", 0644, "rcutree.jiffies_till_sched_qs=\n");
	load_fails("e5", "e5.profile:1: bad value '' for rcutree.jiffies_till_sched_qs");
	unit_write(ETC "e6.profile", 0644, "=5\n");
	load_fails("e6", "e6.profile:1: missing key before '='");
	unit_write(ETC "e7.profile", 0644, "description=a\ndescription=b\n");
	load_fails("e7", "e7.profile:2: duplicate key 'description' (first on line 1)");
	unit_write(ETC "e8.profile", 0644, "include=base\ninclude=base\n");
	load_fails("e8", "e8.profile:2: duplicate key 'include' (first on line 1)");
	unit_write(ETC "e9.profile", 0644, "include=../base\n");
	load_fails("e9", "e9.profile:1: invalid profile name '../base' in include");
	unit_write(ETC "e10.profile", 0644, "rcutree.jiffies_till_sched_qs=010\n");
	load_fails("e10", "e10.profile:1: bad value '010'");
	unit_write(ETC "e11.profile", 0644, "rcupdate/../x=1\n");
	load_fails("e11", "e11.profile:1: unknown key 'rcupdate/../x'");
	load_fails("nosuch", "unknown profile 'nosuch' (not in /etc/rcuqs/profiles or /usr/lib/rcuqs/profiles)");
	load_fails("../base", "invalid profile name '../base'");
	load_fails("a/b", "invalid profile name 'a/b'");
	load_fails("", "invalid profile name ''");
}

static void test_include(void **state)
{
	struct profile p;

	(void)state;
	unit_write(USR "mid.profile", 0644,
		   "include=base\nrcutree.cond_resched_qs_limit=256\n");
	unit_write(ETC "top.profile", 0644,
		   "rcutree.jiffies_till_sched_qs=500\ninclude=mid\n");
	assert_int_equal(profile_load(&unit_ctx, "top", &p), 0);
	/* Later wins regardless of where include= sits; description inherited. */
	assert_string_equal(value_of(&p, "rcutree.jiffies_till_sched_qs"), "500");
	assert_string_equal(value_of(&p, "rcutree.cond_resched_qs_limit"), "256");
	assert_string_equal(p.description, "Base");
	assert_int_equal(p.nfiles, 3);
	assert_string_equal(p.files[0], "/" ETC "top.profile");
	assert_string_equal(p.files[2], "/" USR "base.profile");
	assert_string_equal(p.set[tunable_index(tunable_find("rcutree.cond_resched_qs_limit"))].file,
			    "/" USR "mid.profile");
	assert_string_equal(p.set[tunable_index(tunable_find("rcutree.jiffies_till_sched_qs"))].file,
			    "/" ETC "top.profile");
	profile_free(&p);
}

static void test_include_errors(void **state)
{
	char name[64];

	(void)state;
	unit_write(ETC "la.profile", 0644, "include=lb\n");
	unit_write(ETC "lb.profile", 0644, "\ninclude=la\n");
	load_fails("la", "/" ETC "lb.profile:2: include loop: la -> lb -> la");
	unit_write(ETC "self.profile", 0644, "include=self\n");
	load_fails("self", "self.profile:1: include loop: self -> self");
	/* d0 -> d1 -> ... -> d8: nine files, one more than allowed. */
	for (int i = 0; i < 9; i++) {
		snprintf(name, sizeof(name), ETC "d%d.profile", i);
		if (i < 8)
			unit_write(name, 0644, "include=d%d\n", i + 1);
		else
			unit_write(name, 0644, "rcutree.cond_resched_qs_limit=1\n");
	}
	load_fails("d0", "d7.profile:1: include of 'd8' exceeds the depth of 8 files");
}

static void test_depth_limit_ok(void **state)
{
	struct profile p;

	(void)state;
	/* d1..d8 is exactly eight files: accepted. */
	assert_int_equal(profile_load(&unit_ctx, "d1", &p), 0);
	assert_int_equal(p.nfiles, 8);
	profile_free(&p);
}

static void test_include_missing_masked(void **state)
{
	char path[PATH_MAX];

	(void)state;
	unit_write(ETC "inc-missing.profile", 0644, "include=nope\n");
	load_fails("inc-missing", "inc-missing.profile:1: includes unknown profile 'nope'");
	unit_write(USR "hidden.profile", 0644, "rcutree.cond_resched_qs_limit=1\n");
	snprintf(path, sizeof(path), "%s/" ETC "hidden.profile", unit_root);
	assert_int_equal(symlink("/dev/null", path), 0);
	unit_write(ETC "inc-masked.profile", 0644, "include=hidden\n");
	load_fails("inc-masked", "inc-masked.profile:1: includes masked profile 'hidden' (/" ETC
		   "hidden.profile -> /dev/null)");
	load_fails("hidden", "profile 'hidden' is masked");
}

/* Inside an /etc override, including its own name means the shipped file. */
static void test_override_extends_shipped(void **state)
{
	struct profile p;

	(void)state;
	unit_write(USR "ext.profile", 0644,
		   "description=Shipped\ninclude=base\nrcutree.cond_resched_qs_limit=256\n");
	unit_write(ETC "ext.profile", 0644, "include=ext\nrcutree.jiffies_till_sched_qs=700\n");
	assert_int_equal(profile_load(&unit_ctx, "ext", &p), 0);
	assert_string_equal(value_of(&p, "rcutree.cond_resched_qs_limit"), "256");
	assert_string_equal(value_of(&p, "rcutree.jiffies_till_sched_qs"), "700");
	assert_string_equal(p.description, "Shipped");
	assert_int_equal(p.nfiles, 3);
	assert_string_equal(p.files[0], "/" ETC "ext.profile");
	assert_string_equal(p.files[1], "/" USR "ext.profile");
	profile_free(&p);
	/* A shipped file including its own name is still a loop. */
	unit_write(USR "ext.profile", 0644, "include=ext\n");
	load_fails("ext", "/" USR "ext.profile:1: include loop: ext -> ext -> ext");
}

static void test_precedence(void **state)
{
	enum profile_where w;
	char path[PATH_MAX];
	struct profile p;

	(void)state;
	unit_write(USR "over.profile", 0644, "rcutree.cond_resched_qs_limit=1\n");
	assert_int_equal(profile_locate(&unit_ctx, "over", &w, path, sizeof(path)), 0);
	assert_int_equal(w, PROFILE_USR);
	unit_write(ETC "over.profile", 0644, "rcutree.cond_resched_qs_limit=2\n");
	assert_int_equal(profile_locate(&unit_ctx, "over", &w, path, sizeof(path)), 0);
	assert_int_equal(w, PROFILE_OVERRIDE);
	assert_string_equal(path, "/" ETC "over.profile");
	assert_int_equal(profile_load(&unit_ctx, "over", &p), 0);
	assert_string_equal(value_of(&p, "rcutree.cond_resched_qs_limit"), "2");
	profile_free(&p);
	assert_int_equal(profile_locate(&unit_ctx, "base", &w, path, sizeof(path)), 0);
	assert_int_equal(w, PROFILE_USR);
	assert_int_equal(profile_locate(&unit_ctx, "top", &w, path, sizeof(path)), 0);
	assert_int_equal(w, PROFILE_ETC);
	assert_int_equal(profile_locate(&unit_ctx, "hidden", &w, path, sizeof(path)), 0);
	assert_int_equal(w, PROFILE_MASKED);
	assert_int_equal(profile_locate(&unit_ctx, "zzz", &w, path, sizeof(path)), 0);
	assert_int_equal(w, PROFILE_NONE);
}

static void test_list(void **state)
{
	struct profile_entry *e;
	size_t n;

	(void)state;
	assert_int_equal(profile_list(&unit_ctx, &e, &n), 0);
	assert_true(n > 5);
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(e[i - 1].name, e[i].name) < 0);	/* sorted, unique */
	for (size_t i = 0; i < n; i++) {
		if (strcmp(e[i].name, "hidden") == 0)
			assert_int_equal(e[i].where, PROFILE_MASKED);
		if (strcmp(e[i].name, "over") == 0)
			assert_int_equal(e[i].where, PROFILE_OVERRIDE);
		if (strcmp(e[i].name, "base") == 0)
			assert_int_equal(e[i].where, PROFILE_USR);
	}
	free(e);
}

static void test_unsafe(void **state)
{
	char path[PATH_MAX];

	(void)state;
	unit_write(ETC "gw.profile", 0664, "rcutree.cond_resched_qs_limit=1\n");
	load_fails("gw", "/" ETC "gw.profile: unsafe profile file: mode 0664 is group-writable");
	unit_write(ETC "ww.profile", 0666, "rcutree.cond_resched_qs_limit=1\n");
	load_fails("ww", "/" ETC "ww.profile: unsafe profile file: mode 0666 is world-writable");
	unit_write(ETC "owned.profile", 0644, "rcutree.cond_resched_qs_limit=1\n");
	snprintf(path, sizeof(path), "%s/" ETC "owned.profile", unit_root);
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 65534, 0), 0);
		load_fails("owned", "/" ETC "owned.profile: unsafe profile file: owned by uid 65534, not root");
	} else {
		/* Not root: the file is ours, so not root's. */
		load_fails("owned", "unsafe profile file: owned by uid");
	}
	/* An unsafe included file taints the profile that includes it. */
	unit_write(ETC "incl-gw.profile", 0644, "include=gw\n");
	load_fails("incl-gw", "gw.profile: unsafe profile file: mode 0664");
	/* A writable directory: anyone could replace the file. */
	unit_mkdirs("etc/rcuqs/profiles", 0775);
	load_fails("top", "/etc/rcuqs/profiles: unsafe profile directory: mode 0775 is group-writable");
	unit_mkdirs("etc/rcuqs/profiles", 0755);
	/* Not a regular file. */
	unit_mkdirs(ETC "dir.profile", 0755);
	load_fails("dir", "/" ETC "dir.profile: unsafe profile file: not a regular file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_basic),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_include_errors),
		cmocka_unit_test(test_depth_limit_ok),
		cmocka_unit_test(test_include_missing_masked),
		cmocka_unit_test(test_override_extends_shipped),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_unsafe),
	};

	return cmocka_run_group_tests_name("profile", tests, setup, unit_teardown_root);
}
