// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Commands that only read profiles: list, show, active, boot-args.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootcfg.h"
#include "cmd.h"
#include "here.h"
#include "output.h"
#include "profile.h"
#include "util.h"

static const char *where_name(enum profile_where w)
{
	switch (w) {
	case PROFILE_USR: return "shipped";
	case PROFILE_ETC: return "local";
	case PROFILE_OVERRIDE: return "overridden";
	case PROFILE_MASKED: return "masked";
	default: return "missing";
	}
}

static int do_list(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	struct profile_entry *e = NULL;
	char active[80] = "";
	struct table t;
	struct json j = { .f = stdout };
	size_t n = 0;
	int r, last = 0;

	if ((r = cmd_args(&argc, argv, 0, 0)) < 0)
		return usage_error();
	if (active_read(ctx, active, sizeof(active)) < 0)
		active[0] = '\0';
	r = profile_list(ctx, &e, &n);
	if (r < 0) {
		errmsg("cannot list profiles: %s", errstr(r));
		return exit_status(r);
	}
	if (table_init(&t, 5, "", "NAME", "STATE", "FILE", "DESCRIPTION") < 0) {
		free(e);
		return EXIT_FAIL;
	}
	if (ctx->json)
		json_open(&j, NULL, '[');
	for (size_t i = 0; i < n; i++) {
		struct profile p;
		const char *desc = NULL;
		bool is_active = strcmp(e[i].name, active) == 0;
		int lr = 0;

		memset(&p, 0, sizeof(p));
		if (e[i].where != PROFILE_MASKED) {
			lr = profile_load(ctx, e[i].name, &p);
			if (lr < 0)
				last = lr;
			else
				desc = p.description ? p.description : "(no description)";
		}
		if (ctx->json) {
			json_open(&j, NULL, '{');
			json_str(&j, "name", e[i].name);
			json_bool(&j, "active", is_active);
			json_str(&j, "state", where_name(e[i].where));
			json_str(&j, "file", e[i].path);
			json_str(&j, "description", desc);
			json_bool(&j, "valid", lr == 0);
			json_close(&j, '}');
		} else {
			table_row(&t, is_active ? "*" : "", e[i].name, where_name(e[i].where),
				  e[i].path,
				  desc ? desc : (e[i].where == PROFILE_MASKED ? "" :
						 "(invalid, see 'rcuqs-ctl show')"));
		}
		profile_free(&p);
	}
	if (ctx->json) {
		json_close(&j, ']');
		json_end(&j);
	} else {
		table_print(&t, stdout);
	}
	table_free(&t);
	free(e);
	return exit_status(last);
}

static int do_show(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	bool listed[N_TUNABLES] = { false };
	struct profile p;
	struct json j = { .f = stdout };
	struct table t;
	int r;

	if ((r = cmd_args(&argc, argv, 1, 1)) < 0)
		return usage_error();
	r = profile_load(ctx, argv[1], &p);
	if (r < 0) {
		profile_free(&p);
		return exit_status(r);
	}
	profile_here(ctx, &p);
	if (ctx->json) {
		json_open(&j, NULL, '{');
		json_str(&j, "name", p.name);
		json_str(&j, "description", p.description);
		json_open(&j, "files", '[');
		for (size_t i = 0; i < p.nfiles; i++)
			json_str(&j, NULL, p.files[i]);
		json_close(&j, ']');
		json_open(&j, "settings", '[');
		for (size_t i = 0; i < N_TUNABLES; i++) {
			char line[16], alt[16], nalt[16];

			if (!p.set[i].value[0])
				continue;
			snprintf(line, sizeof(line), "%d", p.set[i].line);
			snprintf(alt, sizeof(alt), "%d", p.set[i].alt + 1);
			snprintf(nalt, sizeof(nalt), "%d", p.set[i].nalt);
			json_open(&j, NULL, '{');
			json_str(&j, "name", tunables[i].name);
			json_str(&j, "value", p.set[i].value);
			json_bool(&j, "runtime", tunable_runtime(&tunables[i]));
			json_str(&j, "file", p.set[i].file);
			json_num(&j, "line", line);
			json_num(&j, "alternative", alt);
			json_num(&j, "alternatives", nalt);
			json_bool(&j, "acts_here", p.set[i].here == HERE_ACTS);
			json_close(&j, '}');
		}
		json_close(&j, ']');
		here_json(ctx, &p, &j);
		json_close(&j, '}');
		json_end(&j);
		profile_free(&p);
		return EXIT_OK;
	}
	printf("profile: %s\n", p.name);
	{
		char *shown = p.description ? term_text(p.description) : NULL;

		printf("description: %s\n", shown ? shown : "(none)");
		free(shown);
	}
	printf("files:");
	for (size_t i = 0; i < p.nfiles; i++)
		printf("%s%s", i ? ", " : " ", p.files[i]);
	printf("\n\n");
	if (table_init(&t, 4, "PARAMETER", "VALUE", "WHEN", "FROM") < 0) {
		profile_free(&p);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < N_TUNABLES; i++) {
		size_t idx[N_TUNABLES], n;

		/* A line of alternatives together, in its order, as written. */
		if (!p.set[i].value[0] || listed[i])
			continue;
		n = profile_line_of(&p, i, idx);
		for (size_t a = 0; a < n; a++) {
			const struct setting *s = &p.set[idx[a]];
			char from[PATH_MAX + 16], name[64];

			snprintf(from, sizeof(from), "%s:%d", s->file, s->line);
			snprintf(name, sizeof(name), "%s%s", a ? ALT_SEP " " : "",
				 tunables[idx[a]].name);
			table_row(&t, name, s->value,
				  tunable_runtime(&tunables[idx[a]]) ? "runtime" : "boot", from);
			listed[idx[a]] = true;
		}
	}
	table_print(&t, stdout);
	table_free(&t);
	here_print(ctx, &p, "not here: ", true, stdout);
	profile_free(&p);
	return EXIT_OK;
}

static int do_boot_args(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	char name[80];
	struct profile p;
	char *args;
	int r;

	if ((r = cmd_args(&argc, argv, 0, 1)) < 0)
		return usage_error();
	if (argc == 2) {
		snprintf(name, sizeof(name), "%s", argv[1]);
	} else if ((r = active_name(ctx, name, sizeof(name))) < 0) {
		return r == -ENOENT ? EXIT_USAGE : exit_status(r);
	}
	r = profile_load(ctx, name, &p);
	if (r < 0) {
		profile_free(&p);
		return exit_status(r);
	}
	args = boot_args(&p);
	if (!args) {
		profile_free(&p);
		return EXIT_FAIL;
	}
	if (ctx->json) {
		struct json j = { .f = stdout };

		json_open(&j, NULL, '{');
		json_str(&j, "profile", p.name);
		json_str(&j, "boot_args", args);
		json_close(&j, '}');
		json_end(&j);
	} else {
		printf("%s\n", args);
	}
	free(args);
	profile_free(&p);
	return EXIT_OK;
}

/*
 * The recorded active profile's name alone, as tuned-adm active says its
 * own: for scripts and people. None recorded is said and fails, as apply
 * fails then; --json says null.
 */
static int do_active(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	struct json j = { .f = stdout };
	char name[80];
	int r;

	if ((r = cmd_args(&argc, argv, 0, 0)) < 0)
		return usage_error();
	r = active_name(ctx, name, sizeof(name));
	if (ctx->json) {
		json_open(&j, NULL, '{');
		json_str(&j, "active_profile", r == 0 ? name : NULL);
		json_close(&j, '}');
		json_end(&j);
	} else if (r == 0) {
		printf("%s\n", name);
	}
	return r == -ENOENT ? EXIT_FAIL : exit_status(r);
}

const struct command cmd_list = {
	"list", do_list, "", "profiles with descriptions; the active one marked '*'", NULL,
};
const struct command cmd_show = {
	"show", do_show, "NAME", "a profile's settings after includes, with their files", NULL,
};
const struct command cmd_active = {
	"active", do_active, "", "name of the recorded active profile", NULL,
};
const struct command cmd_boot_args = {
	"boot-args", do_boot_args, "[NAME]",
	"kernel command-line fragment of NAME (default: active)", NULL,
};
