// SPDX-License-Identifier: GPL-2.0
/*
 * kmod-probe NAME...: say what libkmod can tell about each NAME, through
 * the calls a tool would use: lookup (alias/name resolution), initstate,
 * get_info (the modinfo keys). For the guest suite's libkmod findings on
 * built-in rcutree ("tree" in modules.builtin.modinfo, "rcutree" in /sys).
 * Exit status 0 always; the output is the finding.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libkmod.h>

static void probe(struct kmod_ctx *ctx, const char *name)
{
	struct kmod_list *list = NULL, *l;
	struct kmod_module *mod = NULL;
	int n = 0, err, state;

	err = kmod_module_new_from_lookup(ctx, name, &list);
	kmod_list_foreach(l, list)
		n++;
	printf("%s: kmod_module_new_from_lookup: %s, %d module(s)\n", name,
	       err < 0 ? strerror(-err) : "ok", n);
	kmod_module_unref_list(list);
	list = NULL;

	err = kmod_module_new_from_name(ctx, name, &mod);
	if (err < 0) {
		printf("%s: kmod_module_new_from_name: %s\n", name, strerror(-err));
		return;
	}
	state = kmod_module_get_initstate(mod);
	printf("%s: kmod_module_get_initstate: %s\n", name,
	       state < 0 ? strerror(-state) : kmod_module_initstate_str(state));
	err = kmod_module_get_info(mod, &list);
	printf("%s: kmod_module_get_info: %s\n", name,
	       err < 0 ? strerror(-err) : "ok");
	n = 0;
	kmod_list_foreach(l, list) {
		const char *k = kmod_module_info_get_key(l);
		const char *v = kmod_module_info_get_value(l);

		if (strcmp(k, "parm") == 0 || strcmp(k, "parmtype") == 0)
			printf("%s:   %s=%s\n", name, k, v ? v : "");
		n++;
	}
	printf("%s: %d info entries\n", name, n);
	kmod_module_info_free_list(list);
	kmod_module_unref(mod);
}

int main(int argc, char **argv)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	int i;

	if (!ctx) {
		fprintf(stderr, "kmod-probe: kmod_new failed\n");
		return 1;
	}
	kmod_load_resources(ctx);
	for (i = 1; i < argc; i++)
		probe(ctx, argv[i]);
	kmod_unref(ctx);
	return 0;
}
