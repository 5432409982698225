// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parameter descriptions from the kernel's metadata through libkmod.
 *
 * rcutree and rcupdate are built in. Their .modinfo strings are prefixed
 * with KBUILD_MODNAME, which is "tree" (kernel/rcu/tree.c) and "update"
 * (kernel/rcu/update.c), not the "rcutree."/"rcupdate." command-line prefix:
 * "tree.parm=NAME:DESCRIPTION", "tree.parmtype=NAME:TYPE". libkmod (30)
 * returns them from kmod_module_get_info() only when modules.builtin.bin
 * (made by depmod from modules.builtin) lists the module; modules.builtin
 * lists only objects with MODULE_LICENSE(), which tree.o and update.o do
 * not have, so on many kernels there is nothing to read and we say so
 * instead of inventing text.
 *
 * Not used: kmod_module_get_initstate(), which looks at the host's
 * /sys/module whatever the root.
 */
#include <errno.h>
#include <libkmod.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmeta.h"
#include "util.h"

struct kmeta_mod {
	const char *name;
	struct kmod_list *info;	/* NULL when libkmod has nothing */
	bool loaded;
};

struct kmeta {
	struct kmod_ctx *kctx;
	struct kmeta_mod mods[2];
	char buf[2][256];	/* last answers, valid until the next call */
};

int kmeta_open(const struct rcuqs_ctx *ctx, struct kmeta **km)
{
	static const char *const no_config[] = { NULL };
	char release[128], dir[PATH_MAX], abs[PATH_MAX];
	struct kmeta *k;
	int r;

	*km = NULL;
	r = read_text(ctx, "/proc/sys/kernel/osrelease", release, sizeof(release));
	if (r <= 0 || !valid_name(release))
		return 0;	/* no release, no metadata */
	if (snprintf(abs, sizeof(abs), "/lib/modules/%s", release) >= (int)sizeof(abs))
		return 0;
	if ((r = root_path(ctx, abs, dir, sizeof(dir))) < 0)
		return 0;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	/* An empty config list: read no modprobe.d, we only want metadata. */
	k->kctx = kmod_new(dir, (const char *const *)no_config);
	if (!k->kctx) {
		free(k);
		return 0;
	}
	kmod_set_log_priority(k->kctx, 0);
	k->mods[0].name = "tree";
	k->mods[1].name = "update";
	*km = k;
	return 0;
}

void kmeta_close(struct kmeta *km)
{
	if (!km)
		return;
	for (size_t i = 0; i < 2; i++)
		kmod_module_info_free_list(km->mods[i].info);
	kmod_unref(km->kctx);
	free(km);
}

static struct kmod_list *mod_info(struct kmeta *km, const char *modname)
{
	for (size_t i = 0; i < 2; i++) {
		struct kmeta_mod *m = &km->mods[i];
		struct kmod_module *mod = NULL;

		if (strcmp(m->name, modname) != 0)
			continue;
		if (!m->loaded) {
			m->loaded = true;
			if (kmod_module_new_from_name(km->kctx, modname, &mod) == 0) {
				if (kmod_module_get_info(mod, &m->info) < 0)
					m->info = NULL;
				kmod_module_unref(mod);
			}
		}
		return m->info;
	}
	return NULL;
}

/* Value of "KEY=PARAM:VALUE" for t, copied into slot. */
static const char *lookup(struct kmeta *km, const struct tunable *t, const char *key, int slot)
{
	struct kmod_list *l, *info;
	size_t plen;

	if (!km || !t->kmod)
		return NULL;
	info = mod_info(km, t->kmod);
	plen = strlen(t->param);
	kmod_list_foreach(l, info) {
		const char *k = kmod_module_info_get_key(l);
		const char *v = kmod_module_info_get_value(l);

		if (!k || !v || strcmp(k, key) != 0)
			continue;
		if (strncmp(v, t->param, plen) != 0 || v[plen] != ':')
			continue;
		snprintf(km->buf[slot], sizeof(km->buf[slot]), "%s", v + plen + 1);
		return km->buf[slot][0] ? km->buf[slot] : NULL;
	}
	return NULL;
}

const char *kmeta_description(struct kmeta *km, const struct tunable *t)
{
	return lookup(km, t, "parm", 0);
}

const char *kmeta_type(struct kmeta *km, const struct tunable *t)
{
	return lookup(km, t, "parmtype", 1);
}
