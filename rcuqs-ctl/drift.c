// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Drift: the running tunables against the active profile and the values
 * rcuqs recorded before it changed them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "bootcfg.h"
#include "drift.h"
#include "here.h"
#include "sysfs.h"

_Static_assert(RUNNING_MAX >= CMDLINE_MAX, "a boot-only value fits whole");

bool running_value(const struct rcuqs_ctx *ctx, size_t i, const char *cmdline, char *val,
		   size_t len)
{
	const struct tunable *t = &tunables[i];

	if (tunable_runtime(t))
		return sysfs_read(ctx, t->sysfs, val, len) >= 0;
	return cmdline && cmdline_value(cmdline, t->name, val, len);
}

const char *expected_value(const struct rcuqs_ctx *ctx, const struct profile *p,
			   char orig[N_TUNABLES][VALUE_MAX], size_t i)
{
	if (p && p->set[i].value[0] && p->set[i].here != HERE_OTHER)
		return p->set[i].value;
	/* A value recorded under a kernel that has the parameter: not here. */
	if (orig[i][0] && tunable_runtime(&tunables[i]) && sysfs_exists(ctx, tunables[i].sysfs))
		return orig[i];
	return NULL;
}

bool tunable_drifts(const struct rcuqs_ctx *ctx, size_t i, const char *want, bool have,
		    const char *val)
{
	return want && (!have || (strcmp(tunable_spelling(&tunables[i], val), want) != 0 &&
				   !adjusted_match(ctx, &tunables[i], want, val)));
}

int active_drift(const struct rcuqs_ctx *ctx, char *name, size_t len, size_t *ndrift)
{
	char orig[N_TUNABLES][VALUE_MAX], *cmdline = NULL;
	struct profile p;
	int r;

	memset(&p, 0, sizeof(p));
	*ndrift = 0;
	r = active_read(ctx, name, len);
	if (r == -ENOENT) {
		name[0] = '\0';
		return 0;
	}
	if (r < 0) {
		name[0] = '\0';
		return r;
	}
	r = profile_load(ctx, name, &p);
	if (r == 0)
		r = original_read(ctx, orig);
	profile_here(ctx, &p);
	if (r < 0) {
		profile_free(&p);
		return r;
	}
	proc_cmdline(ctx, &cmdline);	/* without it boot-only values count as unset */
	for (size_t i = 0; i < N_TUNABLES; i++) {
		char val[RUNNING_MAX];
		bool have = running_value(ctx, i, cmdline, val, sizeof(val));

		*ndrift += tunable_drifts(ctx, i, expected_value(ctx, &p, orig, i), have, val);
	}
	free(cmdline);
	profile_free(&p);
	return 0;
}
