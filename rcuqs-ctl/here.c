// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which settings of a profile act on the running kernel. The kernel says
 * which parameters it has by their files in /sys/module/PREFIX/parameters:
 * 6.1 and 6.12 with the rcuqs series have cond_resched_qs_limit, 7.3 with
 * it has jiffies_till_nohz_qs instead. A profile names both on one line,
 * "A=x || B=y", and the first the kernel has acts. Nothing is skipped
 * without a word: a line of which the kernel has nothing stops set-profile
 * and apply, and status, verify and set-profile say which alternative was
 * not taken here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "here.h"
#include "sysfs.h"
#include "util.h"

size_t profile_line_of(const struct profile *p, size_t i, size_t idx[])
{
	const struct setting *s = &p->set[i];
	size_t n = 0;

	for (int a = 0; a < s->nalt; a++)
		for (size_t k = 0; k < N_TUNABLES; k++)
			if (p->set[k].value[0] && p->set[k].file == s->file &&
			    p->set[k].line == s->line && p->set[k].alt == a)
				idx[n++] = k;
	return n;
}

void profile_here(const struct rcuqs_ctx *ctx, struct profile *p)
{
	for (size_t i = 0; i < N_TUNABLES; i++)
		p->set[i].here = HERE_UNKNOWN;
	for (size_t i = 0; i < N_TUNABLES; i++) {
		size_t idx[N_TUNABLES], n;
		bool taken = false;

		if (!p->set[i].value[0] || p->set[i].here != HERE_UNKNOWN)
			continue;
		n = profile_line_of(p, i, idx);
		for (size_t a = 0; a < n; a++) {
			const struct tunable *t = &tunables[idx[a]];
			bool has = !tunable_runtime(t) || sysfs_exists(ctx, t->sysfs);

			p->set[idx[a]].here = taken || !has ? HERE_OTHER : HERE_ACTS;
			taken |= has;
		}
		for (size_t a = 0; a < n && !taken; a++)
			p->set[idx[a]].here = HERE_MISSING;
	}
}

int profile_require_here(const struct profile *p)
{
	bool said[N_TUNABLES] = { false };
	int r = 0;

	for (size_t i = 0; i < N_TUNABLES; i++) {
		size_t idx[N_TUNABLES], n;

		if (!p->set[i].value[0] || p->set[i].here != HERE_MISSING || said[i])
			continue;
		n = profile_line_of(p, i, idx);
		if (n == 1) {
			errmsg("%s:%d: the running kernel lacks %s (no /sys/%s): profile '%s' "
			       "cannot be applied here", p->set[i].file, p->set[i].line,
			       tunables[i].name, tunables[i].sysfs, p->name);
		} else {
			char names[N_TUNABLES * 48] = "";

			for (size_t a = 0; a < n; a++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%s%s", a ? (a + 1 < n ? ", " : " nor ") : "",
					 tunables[idx[a]].name);
			errmsg("%s:%d: the running kernel has neither %s: profile '%s' cannot "
			       "be applied here", p->set[i].file, p->set[i].line, names, p->name);
		}
		for (size_t a = 0; a < n; a++)
			said[idx[a]] = true;
		r = -ENODEV;
	}
	return r;
}

/* The alternative that acts on the line of setting i; N_TUNABLES if none. */
static size_t acting(const struct profile *p, size_t i)
{
	size_t idx[N_TUNABLES], n = profile_line_of(p, i, idx);

	for (size_t a = 0; a < n; a++)
		if (p->set[idx[a]].here == HERE_ACTS)
			return idx[a];
	return N_TUNABLES;
}

/* The line of setting i as its profile has it: "A=x || B=y", into buf. */
static void line_text(const struct profile *p, size_t i, char *buf, size_t len)
{
	size_t idx[N_TUNABLES], n = profile_line_of(p, i, idx);

	buf[0] = '\0';
	for (size_t a = 0; a < n; a++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s=%s", a ? " " ALT_SEP " " : "",
			 tunables[idx[a]].name, p->set[idx[a]].value);
}

void here_print(const struct rcuqs_ctx *ctx, const struct profile *p, const char *prefix,
		bool missing, FILE *out)
{
	bool said[N_TUNABLES] = { false };

	for (size_t i = 0; i < N_TUNABLES; i++) {
		const struct setting *s = &p->set[i];
		char line[N_TUNABLES * (VALUE_MAX + 48)];
		size_t idx[N_TUNABLES], n, k;

		if (!s->value[0] || said[i])
			continue;
		if (s->here == HERE_OTHER && (k = acting(p, i)) != N_TUNABLES) {
			fprintf(out, "%s%s=%s: %s; %s=%s acts instead (%s:%d)\n", prefix,
				tunables[i].name, s->value,
				sysfs_exists(ctx, tunables[i].sysfs) ? "not written, an earlier "
					"alternative acts" : "not in the running kernel",
				tunables[k].name, p->set[k].value, s->file, s->line);
		} else if (s->here == HERE_MISSING && missing) {
			/* One line for the whole line of alternatives. */
			n = profile_line_of(p, i, idx);
			for (size_t a = 0; a < n; a++)
				said[idx[a]] = true;
			line_text(p, i, line, sizeof(line));
			fprintf(out, "%s%s: %s in the running kernel: set-profile and apply refuse "
				"profile '%s' here (%s:%d)\n", prefix, line,
				n > 1 ? "none of these is" : "not", p->name, s->file, s->line);
		}
	}
}

void here_json(const struct rcuqs_ctx *ctx, const struct profile *p, struct json *j)
{
	json_open(j, "not_here", '[');
	for (size_t i = 0; i < N_TUNABLES; i++) {
		const struct setting *s = &p->set[i];
		char line[16];
		size_t k = N_TUNABLES;

		if (!s->value[0] || (s->here != HERE_MISSING &&
				     (s->here != HERE_OTHER || (k = acting(p, i)) == N_TUNABLES)))
			continue;
		snprintf(line, sizeof(line), "%d", s->line);
		json_open(j, NULL, '{');
		json_str(j, "name", tunables[i].name);
		json_str(j, "value", s->value);
		json_bool(j, "in_kernel", sysfs_exists(ctx, tunables[i].sysfs));
		json_str(j, "instead", k < N_TUNABLES ? tunables[k].name : NULL);
		json_str(j, "file", s->file);
		json_num(j, "line", line);
		json_close(j, '}');
	}
	json_close(j, ']');
}
