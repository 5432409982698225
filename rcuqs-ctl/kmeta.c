// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parameter descriptions from the kernel's own metadata.
 *
 * rcutree and rcupdate are built in. Their .modinfo strings are prefixed
 * with KBUILD_MODNAME, which is "tree" (kernel/rcu/tree.c) and "update"
 * (kernel/rcu/update.c), not the "rcutree."/"rcupdate." command-line prefix:
 * "tree.parm=NAME:DESCRIPTION", "tree.parmtype=NAME:TYPE".
 *
 * We ask libkmod first: kmod_module_get_info() returns them when
 * modules.builtin.bin (made by depmod from modules.builtin) lists the
 * module. In 6.1, modules.builtin lists only objects with MODULE_LICENSE(),
 * which tree.o and update.o do not have, so libkmod 30 finds nothing there
 * (verified in the guest on the patched kernels). Then we read the same
 * strings from modules.builtin.modinfo ourselves: the same kernel metadata,
 * one NUL-terminated "MODNAME.KEY=VALUE" string after another. Where
 * neither has an entry we say so instead of inventing text.
 *
 * Not used: kmod_module_get_initstate(), which looks at the host's
 * /sys/module whatever the root.
 */
#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel.h"
#include "kmeta.h"
#include "util.h"

#define KMETA_MAX_ENTRIES 64

/* The "KEY=VALUE" strings of one built-in object, from either source. */
struct kmeta_mod {
	const char *name;
	bool loaded;
	const char *source;	/* "libkmod", "modules.builtin.modinfo" or NULL */
	size_t n;
	char *key[KMETA_MAX_ENTRIES];
	char *value[KMETA_MAX_ENTRIES];
};

struct kmeta {
	struct kmod_ctx *kctx;
	char modinfo[PATH_MAX];	/* modules.builtin.modinfo */
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
	/* Debian's "6.12.95+bpo-amd64" too: kernel.c's reading of the release. */
	if (!kernel_release(ctx, release, sizeof(release)))
		return 0;	/* no release, no metadata */
	if (snprintf(abs, sizeof(abs), "/lib/modules/%s", release) >= (int)sizeof(abs))
		return 0;
	if ((r = root_path(ctx, abs, dir, sizeof(dir))) < 0)
		return 0;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	/* An empty config list: read no modprobe.d, we only want metadata. */
	if (snprintf(k->modinfo, sizeof(k->modinfo), "%s/modules.builtin.modinfo",
		     dir) >= (int)sizeof(k->modinfo)) {
		free(k);
		return 0;
	}
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
	for (size_t i = 0; i < 2; i++) {
		for (size_t j = 0; j < km->mods[i].n; j++) {
			free(km->mods[i].key[j]);
			free(km->mods[i].value[j]);
		}
	}
	kmod_unref(km->kctx);
	free(km);
}

/* Keep one "KEY=VALUE" pair; a full table drops the rest. */
static int mod_add(struct kmeta_mod *m, const char *key, size_t klen, const char *value)
{
	if (m->n == KMETA_MAX_ENTRIES)
		return 0;
	m->key[m->n] = strndup(key, klen);
	m->value[m->n] = strdup(value);
	if (!m->key[m->n] || !m->value[m->n]) {
		free(m->key[m->n]);
		free(m->value[m->n]);
		return -ENOMEM;
	}
	m->n++;
	return 0;
}

/* What libkmod knows of the built-in object m->name. */
static void mod_from_libkmod(struct kmeta *km, struct kmeta_mod *m)
{
	struct kmod_module *mod = NULL;
	struct kmod_list *info = NULL, *l;

	if (kmod_module_new_from_name(km->kctx, m->name, &mod) < 0)
		return;
	if (kmod_module_get_info(mod, &info) >= 0) {
		kmod_list_foreach(l, info) {
			const char *k = kmod_module_info_get_key(l);
			const char *v = kmod_module_info_get_value(l);

			if (k && v && mod_add(m, k, strlen(k), v) < 0)
				break;
		}
		kmod_module_info_free_list(info);
	}
	kmod_module_unref(mod);
}

/* The "m->name.KEY=VALUE" strings of modules.builtin.modinfo. */
static void mod_from_modinfo(struct kmeta *km, struct kmeta_mod *m)
{
	size_t nlen = strlen(m->name), len = 0;
	char *s = NULL;
	struct stat st;
	FILE *f;
	int fd;

	/* A regular file, not a link or a FIFO that would hang the reader. */
	fd = open(km->modinfo, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return;
	}
	while (getdelim(&s, &len, '\0', f) > 0) {
		char *eq;

		if (strncmp(s, m->name, nlen) != 0 || s[nlen] != '.')
			continue;
		eq = strchr(s + nlen + 1, '=');
		if (eq && mod_add(m, s + nlen + 1, (size_t)(eq - s - nlen - 1), eq + 1) < 0)
			break;
	}
	free(s);
	fclose(f);
}

static struct kmeta_mod *mod_info(struct kmeta *km, const char *modname)
{
	for (size_t i = 0; i < 2; i++) {
		struct kmeta_mod *m = &km->mods[i];

		if (strcmp(m->name, modname) != 0)
			continue;
		if (!m->loaded) {
			m->loaded = true;
			mod_from_libkmod(km, m);
			m->source = "libkmod";
			if (m->n == 0) {
				mod_from_modinfo(km, m);
				m->source = "modules.builtin.modinfo";
			}
		}
		return m;
	}
	return NULL;
}

/* Value of "KEY=PARAM:VALUE" for t, copied into slot. */
static const char *lookup(struct kmeta *km, const struct tunable *t, const char *key, int slot)
{
	struct kmeta_mod *m;
	size_t plen;

	if (!km || !t->kmod)
		return NULL;
	m = mod_info(km, t->kmod);
	if (!m)
		return NULL;
	plen = strlen(t->param);
	for (size_t i = 0; i < m->n; i++) {
		const char *v = m->value[i];

		if (strcmp(m->key[i], key) != 0)
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

const char *kmeta_source(struct kmeta *km, const struct tunable *t)
{
	return kmeta_description(km, t) ? mod_info(km, t->kmod)->source : NULL;
}

const char *kmeta_type(struct kmeta *km, const struct tunable *t)
{
	return lookup(km, t, "parmtype", 1);
}
