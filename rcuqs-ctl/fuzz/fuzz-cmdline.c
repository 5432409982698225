// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness: the /etc/kernel/cmdline merge (cmdline_strip(),
 * cmdline_append(), cmdline_merge()), as set-profile, a switch and 'off'
 * use it.
 *
 * Input: two bytes for profile A (bit i of the first: it sets tunable i of
 * a short list, to a value from the second; bit i+4: to the kernel's
 * default, no token), two for profile B, one for the administrator's own
 * tokens for the same keys (bit i: one for tunable i, with the same bytes
 * as A's, or with bit i+4, spelt with '-' for '_'), then the rest of the
 * administrator's command line. The round trip set-profile A, switch to
 * B, off must give the original file back byte for byte, and so must
 * set-profile A, off; after each set-profile the kernel must take the
 * profile's value for each of its tokens (the last one wins), and what
 * follows "--" must stay as it was, at the end.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootcfg.h"

static const char *const names[] = {
	"rcutree.jiffies_till_sched_qs", "rcutree.cond_resched_qs_limit",
	"rcupdate.rcu_cpu_stall_timeout", "rcu_nocbs",
};
static const char *const values[] = { "auto", "0", "256", "1-3", "21", "1000" };

/* A profile's args from its two bytes. */
static void profile_args(const uint8_t *d, char *args, size_t len)
{
	args[0] = '\0';
	for (size_t i = 0; i < 4; i++) {
		if (!(d[0] & (1u << i)) || (d[0] & (0x10u << i)))
			continue;
		snprintf(args + strlen(args), len - strlen(args), "%s%s=%s", args[0] ? " " : "",
			 names[i], values[(d[1] >> i) % 6]);
	}
}

/* The kernel's isspace() (lib/ctype.c): '\t' to '\r', ' ' and 0xa0; not 0x85. */
static bool kblank(char c)
{
	return c && strchr(" \t\n\v\f\r\xa0", c);
}

/* The part of s from its first "--" parameter on, or NULL (no quotes there). */
static const char *init_args(const char *s)
{
	const char *p = s;
	bool q = false;

	for (; *p; p++) {
		if (*p == '"')
			q = !q;
		if (q || (p > s && !kblank(p[-1])))
			continue;
		if (p[0] == '-' && p[1] == '-' && (!p[2] || kblank(p[2])))
			return p;
	}
	return NULL;
}

/* The kernel takes the profile's value for each of its tokens. */
static void check_wins(const char *out, const char *args, const char *old)
{
	char tok[128], val[128];
	const char *s = args;
	size_t quotes = 0;

	for (const char *p = old; *p; p++)
		quotes += *p == '"';
	if (quotes % 2)	/* a quote that never closes swallows what follows */
		return;
	while (*s) {
		size_t n = strcspn(s, " ");
		char *eq;

		memcpy(tok, s, n);
		tok[n] = '\0';
		eq = strchr(tok, '=');
		*eq = '\0';
		if (!cmdline_value(out, tok, val, sizeof(val)) || strcmp(val, eq + 1) != 0)
			abort();
		s += n + (s[n] == ' ');
	}
}

static void check_tail(const char *out, const char *old)
{
	const char *a = init_args(old), *b = init_args(out);

	if (a && (!b || strcmp(a, b) != 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char a_args[256], b_args[256], *old, *a, *b, *off_a, *off_b;
	size_t n = 0;

	if (size < 5 || size > CMDLINE_MAX)
		return 0;
	profile_args(data, a_args, sizeof(a_args));
	profile_args(data + 2, b_args, sizeof(b_args));
	old = malloc(size + 4 * 64);
	if (!old)
		return 0;
	/* The administrator's tokens for the profiles' keys, in both spellings. */
	for (size_t i = 0; i < 4; i++) {
		const char *v = values[(data[1] >> i) % 6];

		if (!(data[4] & (1u << i)))
			continue;
		n += (size_t)sprintf(old + n, "%s=%s ", names[i], v);
		if (data[4] & (0x10u << i))
			for (char *p = old + n - strlen(v) - 2; p > old + n - strlen(v) - 2 - strlen(names[i]); p--)
				if (*p == '_')
					*p = '-';
	}
	memcpy(old + n, data + 5, size - 5);
	old[n + size - 5] = '\0';	/* cut at a NUL byte, as rcuqs refuses those */

	a = cmdline_merge(old, a_args, "");	/* set-profile A */
	if (!a)
		abort();
	check_wins(a, a_args, old);
	check_tail(a, old);
	off_a = cmdline_strip(a, a_args);	/* off */
	if (!off_a || strcmp(off_a, old) != 0)
		abort();
	b = cmdline_merge(a, b_args, a_args);	/* switch to B */
	if (!b)
		abort();
	check_wins(b, b_args, old);
	check_tail(b, old);
	off_b = cmdline_strip(b, b_args);	/* off */
	if (!off_b || strcmp(off_b, old) != 0)
		abort();
	free(off_b);
	free(b);
	free(off_a);
	free(a);
	free(old);
	return 0;
}
