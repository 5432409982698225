// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dpkg's version order (debpkg.c), on the versions rcuqs's
 * kernel packages and Debian's carry, against what dpkg --compare-versions
 * answers for the same pairs (checked with dpkg 1.21 on Debian 12).
 */
#include "unit.h"

#include "debpkg.h"

static int sign(int r)
{
	return (r > 0) - (r < 0);
}

static void test_version_order(void **state)
{
	static const struct {
		const char *a, *b;
		int want;	/* sign of a - b, as dpkg --compare-versions says */
	} pairs[] = {
		{ "6.1.192-3", "6.1.192-2", 1 },
		{ "6.1.192-10", "6.1.192-9", 1 },
		{ "6.1.195-1", "6.1.192-3", 1 },
		{ "6.1.192-3", "6.1.192-3", 0 },
		{ "6.12.118-1~deb12u1", "6.12.118-1", -1 },
		{ "6.12.118-1~deb12u1", "6.12.117-1", 1 },
		{ "6.12.95-1~bpo12+1", "6.12.118-1~deb12u1", -1 },
		{ "7.3.4-1~bpo13+1", "7.3.4-1", -1 },
		{ "1:6.1.0-1", "6.1.192-3", 1 },
		{ "6.1.192", "6.1.192-0", 0 },
		{ "1.0~rc1-1", "1.0-1", -1 },
		{ "1.0a-1", "1.0-1", 1 },
		{ "1.0+b1-1", "1.0-1", 1 },
		{ "6.1.0-28", "6.1.0-28.1", -1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		assert_int_equal(sign(deb_version_cmp(pairs[i].a, pairs[i].b)), pairs[i].want);
		assert_int_equal(sign(deb_version_cmp(pairs[i].b, pairs[i].a)), -pairs[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_order),
	};

	return cmocka_run_group_tests_name("debpkg", tests, NULL, NULL);
}
