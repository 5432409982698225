/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_KMETA_H
#define RCUQS_KMETA_H

#include "rcuqs.h"
#include "tunables.h"

/*
 * The kernel's own metadata about its parameters, from
 * <root>/lib/modules/<release>/: through libkmod where it lists the
 * built-in object, else read from modules.builtin.modinfo directly
 * (libkmod 30 does not see kernel/rcu/tree.o, see kmeta.c). The only code
 * that talks to libkmod.
 */
struct kmeta;

/* Never fails for want of metadata: *km is NULL then, and lookups say so. */
int kmeta_open(const struct rcuqs_ctx *ctx, struct kmeta **km);
void kmeta_close(struct kmeta *km);
/* The kernel's description of t (MODULE_PARM_DESC), or NULL. */
const char *kmeta_description(struct kmeta *km, const struct tunable *t);
/* Where the description came from: "libkmod", "modules.builtin.modinfo", NULL. */
const char *kmeta_source(struct kmeta *km, const struct tunable *t);
/* The kernel's type for t (parmtype: "ulong", "int", ...), or NULL. */
const char *kmeta_type(struct kmeta *km, const struct tunable *t);

#endif
