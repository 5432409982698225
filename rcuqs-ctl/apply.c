// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Validated settings -> sysfs writes, all or nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "sysfs.h"
#include "util.h"

size_t changes_from_profile(const struct profile *p, struct change c[N_TUNABLES])
{
	size_t n = 0;

	for (size_t i = 0; i < N_TUNABLES; i++) {
		if (!p->set[i].value[0] || !tunable_runtime(&tunables[i]) ||
		    p->set[i].here == HERE_OTHER)
			continue;
		memset(&c[n], 0, sizeof(c[n]));
		c[n].t = &tunables[i];
		c[n].value = p->set[i].value;
		n++;
	}
	return n;
}

static bool is_stall_timeout(const struct change *c)
{
	return strcmp(c->t->name, "rcupdate.rcu_cpu_stall_timeout") == 0;
}

/*
 * The kernel refuses a jiffies_till_sched_qs of half the stall timeout or
 * more, so a growing stall timeout is written first and a shrinking one
 * last; otherwise the order of the tunables table.
 */
static void order_changes(struct change *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct change s;
		unsigned long oldv, newv;

		if (!is_stall_timeout(&c[i]))
			continue;
		oldv = strtoul(c[i].old, NULL, 10);
		newv = strtoul(c[i].value, NULL, 10);
		s = c[i];
		if (newv > oldv) {
			memmove(&c[1], &c[0], i * sizeof(*c));
			c[0] = s;
		} else {
			memmove(&c[i], &c[i + 1], (n - i - 1) * sizeof(*c));
			c[n - 1] = s;
		}
		return;
	}
}

int apply_undo(const struct rcuqs_ctx *ctx, struct change *c, size_t n)
{
	bool partial = false;

	for (size_t i = n; i-- > 0;) {
		int r;

		if (!c[i].written)
			continue;
		r = sysfs_write(ctx, c[i].t->sysfs, c[i].old);
		if (r < 0) {
			errmsg("cannot restore %s=%s: %s; it is still %s", c[i].t->name,
			       c[i].old, errstr(r), c[i].value);
			partial = true;
		} else {
			errmsg("restored %s=%s", c[i].t->name, c[i].old);
			c[i].written = false;
		}
	}
	if (partial) {
		errmsg("rollback failed: the system was left partly changed");
		return -ENOTRECOVERABLE;
	}
	return 0;
}

int changes_read(const struct rcuqs_ctx *ctx, struct change *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int r;

		c[i].written = false;
		c[i].now[0] = '\0';
		if (c[i].have_old)
			continue;
		r = sysfs_read(ctx, c[i].t->sysfs, c[i].old, sizeof(c[i].old));
		if (r < 0) {
			errmsg("cannot read %s (/sys/%s): %s; nothing was changed",
			       c[i].t->name, c[i].t->sysfs, errstr(r));
			return r;
		}
		c[i].have_old = true;
	}
	return 0;
}

int apply_changes(const struct rcuqs_ctx *ctx, struct change *c, size_t n)
{
	int r, failed = -1;

	r = changes_read(ctx, c, n);
	if (r < 0)
		return r;
	order_changes(c, n);

	for (size_t i = 0; i < n; i++) {
		const char *alt;

		r = sysfs_write(ctx, c[i].t->sysfs, c[i].value);
		if (r == -EINVAL && (alt = tunable_kernel_auto(c[i].t, c[i].value, c[i].old)))
			r = sysfs_write(ctx, c[i].t->sysfs, alt);
		if (r < 0) {
			errmsg("cannot set %s=%s: %s%s", c[i].t->name, c[i].value, errstr(r),
			       c[i].restore ? " (its value before rcuqs, recorded in "
					      ORIGINAL_FILE ")" : "");
			failed = (int)i;
			break;
		}
		c[i].written = true;
	}
	if (failed < 0) {
		/* Read back: the kernel may clamp instead of refusing. */
		for (size_t i = 0; i < n; i++)
			if (sysfs_read(ctx, c[i].t->sysfs, c[i].now, sizeof(c[i].now)) < 0)
				strcpy(c[i].now, c[i].value);
		return 0;
	}

	if (apply_undo(ctx, c, (size_t)failed) < 0)
		return -ENOTRECOVERABLE;
	if (failed > 0)
		errmsg("nothing was changed: every parameter already written was restored");
	else
		errmsg("nothing was changed");
	return -EIO;
}

void changes_print(const struct change *c, size_t n, FILE *out)
{
	for (size_t i = 0; i < n; i++) {
		const char *now = c[i].now[0] ? c[i].now : c[i].value;

		if (strcmp(c[i].old, now) == 0)
			fprintf(out, "%s: %s (unchanged)", c[i].t->name, now);
		else
			fprintf(out, "%s: %s -> %s", c[i].t->name, c[i].old, now);
		if (strcmp(c[i].old, now) != 0 && c[i].restore)
			fprintf(out, " (restored: its value before rcuqs)");
		if (strcmp(now, c[i].value) != 0)
			fprintf(out, " (asked for %s; the kernel adjusted it)", c[i].value);
		fputc('\n', out);
	}
}

void gone_print(const struct tunable *const *gone, size_t ngone, FILE *out)
{
	for (size_t i = 0; i < ngone; i++)
		fprintf(out, "%s: not in the running kernel, nothing to restore\n", gone[i]->name);
}

void gone_json(const struct tunable *const *gone, size_t ngone, struct json *j)
{
	json_open(j, "not_in_kernel", '[');
	for (size_t i = 0; i < ngone; i++)
		json_str(j, NULL, gone[i]->name);
	json_close(j, ']');
}

void changes_json(const struct change *c, size_t n, struct json *j)
{
	json_open(j, "changes", '[');
	for (size_t i = 0; i < n; i++) {
		json_open(j, NULL, '{');
		json_str(j, "name", c[i].t->name);
		json_str(j, "old", c[i].old);
		json_str(j, "new", c[i].now[0] ? c[i].now : c[i].value);
		json_str(j, "asked", c[i].value);
		json_bool(j, "restored", c[i].restore);
		json_close(j, '}');
	}
	json_close(j, ']');
}

size_t changes_count(const struct change *c, size_t n)
{
	size_t changed = 0;

	for (size_t i = 0; i < n; i++)
		changed += strcmp(c[i].old, c[i].now[0] ? c[i].now : c[i].value) != 0;
	return changed;
}

int adjusted_record(const struct rcuqs_ctx *ctx, const struct change *c, size_t n)
{
	struct pending_file pf;
	char content[N_TUNABLES * (80 + 2 * VALUE_MAX)] = "", path[PATH_MAX];
	int r;

	for (size_t i = 0; i < n; i++) {
		if (!c[i].now[0] || strcmp(c[i].now, c[i].value) == 0)
			continue;
		snprintf(content + strlen(content), sizeof(content) - strlen(content),
			 "%s %s %s\n", c[i].t->name, c[i].value, c[i].now);
	}
	if (!content[0]) {
		if ((r = root_path(ctx, ADJUSTED_FILE, path, sizeof(path))) < 0)
			return r;
		return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
	}
	r = pending_prepare(ctx, ADJUSTED_FILE, content, &pf);
	if (r == 0 && (r = pending_commit(&pf)) == 0)
		pending_done(&pf);
	else
		pending_abort(&pf);
	return r;
}

bool adjusted_match(const struct rcuqs_ctx *ctx, const struct tunable *t, const char *want,
		    const char *got)
{
	char buf[N_TUNABLES * (80 + 2 * VALUE_MAX) + 1], *line, *save = NULL;

	if (read_file(ctx, ADJUSTED_FILE, buf, sizeof(buf), NULL) < 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[80], asked[VALUE_MAX], now[VALUE_MAX];

		if (sscanf(line, "%79s %63s %63s", name, asked, now) == 3 &&
		    strcmp(name, t->name) == 0 && strcmp(asked, want) == 0 &&
		    strcmp(now, got) == 0)
			return true;
	}
	return false;
}

/*
 * A recorded value: held to a profile's rules (tunable_check()), so that
 * "010", which the kernel reads as 8, or a number the kernel cannot hold,
 * never reaches it.
 */
static bool original_valid(const struct tunable *t, const char *v)
{
	return strlen(v) < VALUE_MAX && tunable_check(t, v) == 0;
}

int original_read(const struct rcuqs_ctx *ctx, char orig[N_TUNABLES][VALUE_MAX])
{
	char buf[4096], *line, *save = NULL;
	unsigned lineno = 0;
	int r;

	memset(orig, 0, N_TUNABLES * VALUE_MAX);
	r = read_trusted(ctx, ORIGINAL_FILE, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	save = buf;
	while ((line = line_next(&save))) {
		const struct tunable *t;
		char q[QUOTE_BUF], *eq;

		lineno++;
		if (line[0] == '#' || line[0] == '\0')
			continue;
		eq = strchr(line, '=');
		if (eq)
			*eq = '\0';
		t = eq ? tunable_find(line) : NULL;
		if (t && tunable_runtime(t) && !orig[t - tunables][0] && !original_valid(t, eq + 1)) {
			/* The value alone, whole: a '\r' of a CRLF line end shows. */
			errmsg("%s:%u: invalid value '%s' for %s, expected %s "
			       "(remove the file to forget the values)", ORIGINAL_FILE, lineno,
			       quote(eq + 1, q), t->name, t->range);
			return -EINVAL;
		}
		if (!t || !tunable_runtime(t) || orig[t - tunables][0]) {
			if (eq)
				*eq = '=';
			errmsg("%s:%u: invalid line '%s' (remove the file to forget the values)",
			       ORIGINAL_FILE, lineno, quote(line, q));
			return -EINVAL;
		}
		strcpy(orig[t - tunables], eq + 1);
	}
	return 0;
}

size_t changes_add_restores(const struct rcuqs_ctx *ctx, struct change *c, size_t n,
			    char orig[N_TUNABLES][VALUE_MAX], const struct tunable **gone,
			    size_t *ngone)
{
	size_t n0 = n;

	*ngone = 0;
	for (size_t i = 0; i < N_TUNABLES; i++) {
		bool set = false;

		if (!orig[i][0] || !tunable_runtime(&tunables[i]))
			continue;
		for (size_t k = 0; k < n0; k++)
			set |= c[k].t == &tunables[i];
		if (set)
			continue;
		if (!sysfs_exists(ctx, tunables[i].sysfs)) {
			gone[(*ngone)++] = &tunables[i];
			continue;
		}
		memset(&c[n], 0, sizeof(c[n]));
		c[n].t = &tunables[i];
		c[n].value = orig[i];
		c[n].restore = true;
		n++;
	}
	return n;
}

int original_prepare(const struct rcuqs_ctx *ctx, char orig[N_TUNABLES][VALUE_MAX],
		     const struct change *c, size_t n, struct pending_file *pf)
{
	char content[4096] = "# Written by rcuqs-ctl: each parameter's value before rcuqs first\n"
			     "# changed it; set-profile and 'off' put them back. Do not edit.\n";
	bool add = false;

	memset(pf, 0, sizeof(*pf));
	for (size_t i = 0; i < N_TUNABLES; i++) {
		const char *v = orig[i];

		for (size_t k = 0; k < n && !v[0]; k++)
			if (c[k].t == &tunables[i] && original_valid(c[k].t, c[k].old)) {
				v = c[k].old;
				add = true;
			}
		if (v[0])
			snprintf(content + strlen(content), sizeof(content) - strlen(content),
				 "%s=%s\n", tunables[i].name, v);
	}
	return add ? pending_prepare(ctx, ORIGINAL_FILE, content, pf) : 0;
}
