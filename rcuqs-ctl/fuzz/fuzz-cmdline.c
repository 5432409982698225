// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness: the /etc/kernel/cmdline merge (cmdline_merge()).
 *
 * Input: one byte choosing what the profile sets (bit i: tunable i of a
 * short list, value from the next byte), then the old command line, then
 * after a NUL byte what the previous set-profile wrote (prev). The result
 * must keep every byte rcuqs does not own: every token before the first
 * "--" that is neither of a parameter the profile sets nor one of prev's
 * tokens, in order, and everything from "--" on as it was; and it must
 * carry each of the profile's tokens exactly once, before "--".
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootcfg.h"

/* Tokens with the kernel's quoting: blanks split, double quotes group. */
struct tok {
	const char *s;
	size_t len;
};

static size_t tokens(const char *s, struct tok *t, size_t max)
{
	size_t n = 0;

	for (;;) {
		bool q = false;
		const char *start;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s || n == max)
			return n;
		start = s;
		for (; *s; s++) {
			if (*s == '"')
				q = !q;
			else if (!q && (*s == ' ' || *s == '\t' || *s == '\n'))
				break;
		}
		t[n].s = start;
		t[n++].len = (size_t)(s - start);
	}
}

static size_t keylen(const struct tok *t)
{
	const char *eq = memchr(t->s, '=', t->len);

	return eq ? (size_t)(eq - t->s) : t->len;
}

static bool same_key(const struct tok *a, const struct tok *b)
{
	return keylen(a) == keylen(b) && memcmp(a->s, b->s, keylen(a)) == 0;
}

static bool same(const struct tok *a, const struct tok *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

static bool is_dashdash(const struct tok *t)
{
	return t->len == 2 && memcmp(t->s, "--", 2) == 0;
}

#define MAXT 2048

static const char *const names[] = {
	"rcutree.jiffies_till_sched_qs", "rcutree.cond_resched_qs_limit",
	"rcupdate.rcu_cpu_stall_timeout", "rcu_nocbs",
};
static const char *const values[] = { "auto", "0", "256", "1-3", "21", "1000" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tok to[MAXT], tn[MAXT], ta[8], tk[8], tp[MAXT];
	char args[256] = "", keys[256] = "", *buf, *old, *prev, *out;
	size_t no, nn, na, nk, np, j = 0, dd_old, dd_new;

	if (size < 2 || size > CMDLINE_MAX)
		return 0;
	/* The profile: set bit i for tunable i; bit i+4 leaves it out of args (a default). */
	for (size_t i = 0; i < 4; i++) {
		char tok[64];

		if (!(data[0] & (1u << i)))
			continue;
		snprintf(tok, sizeof(tok), "%s=%s", names[i], values[(data[1] >> i) % 6]);
		strcat(strcat(keys, keys[0] ? " " : ""), tok);
		if (!(data[0] & (0x10u << i)))
			strcat(strcat(args, args[0] ? " " : ""), tok);
	}
	buf = malloc(size - 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 2, size - 2);
	buf[size - 2] = '\0';
	old = buf;
	prev = memchr(buf, '\0', size - 2) ? buf + strlen(buf) : buf + size - 2;
	if (prev < buf + size - 2)
		prev++;
	out = cmdline_merge(old, args, prev);
	if (!out)
		abort();

	no = tokens(old, to, MAXT);
	nn = tokens(out, tn, MAXT);
	na = tokens(args, ta, 8);
	nk = tokens(keys, tk, 8);
	np = tokens(prev, tp, MAXT);
	for (dd_old = 0; dd_old < no && !is_dashdash(&to[dd_old]); dd_old++)
		;
	for (dd_new = 0; dd_new < nn && !is_dashdash(&tn[dd_new]); dd_new++)
		;
	/* Everything from "--" on is the same bytes, at the end. */
	if (dd_old < no) {
		size_t rest = strlen(to[dd_old].s);

		if (dd_new == nn || strlen(tn[dd_new].s) != rest ||
		    memcmp(tn[dd_new].s, to[dd_old].s, rest) != 0)
			abort();
	}
	/* Before it: the tokens not owned (not byte for byte in prev), in order... */
	for (size_t i = 0; i < dd_old; i++) {
		bool owned = false;

		for (size_t k = 0; k < np; k++)
			owned |= same(&to[i], &tp[k]);
		if (owned)
			continue;
		while (j < dd_new && !same(&tn[j], &to[i]))
			j++;
		if (j == dd_new)
			abort();	/* a byte rcuqs does not own was lost */
		j++;
	}
	/*
	 * ...and for each of the profile's tokens, the last token of its key
	 * is that token (the kernel takes the last value), unless a quote that
	 * never closes swallowed the end of the line (then it sits before it).
	 */
	for (size_t k = 0; k < na; k++) {
		const struct tok *last = NULL;

		for (size_t i = 0; i < dd_new; i++)
			if (same_key(&tn[i], &ta[k]))
				last = &tn[i];
		if (!last || (!same(last, &ta[k]) && !memchr(last->s, '"', last->len)))
			abort();
	}
	/* A key the profile sets to its default gets no token of ours. */
	for (size_t k = 0; k < nk; k++) {
		bool in_args = false;

		for (size_t a = 0; a < na; a++)
			in_args |= same(&tk[k], &ta[a]);
		for (size_t i = 0; i < dd_new && !in_args; i++) {
			bool theirs = false;

			for (size_t o = 0; o < dd_old; o++)
				theirs |= same(&tn[i], &to[o]);
			if (same_key(&tn[i], &tk[k]) && !theirs)
				abort();
		}
	}
	free(out);
	free(buf);
	return 0;
}
