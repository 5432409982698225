// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rcuqs-ctl: apply, verify and persist RCU quiescent-state profiles.
 *
 * Global options, then one subcommand from the table below; each
 * subcommand parses its own arguments.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "rcuqs.h"
#include "util.h"

/* Room for the root prefix, leaving the rest of PATH_MAX to the paths below it. */
#define ROOT_MAX (PATH_MAX / 2)

static const struct command *const commands[] = {
	&cmd_list, &cmd_show, &cmd_status, &cmd_set_profile, &cmd_apply,
	&cmd_verify, &cmd_set, &cmd_off, &cmd_boot_args, &cmd_params,
	&cmd_export, &cmd_watch, &cmd_recommend,
};

static void usage(void)
{
	printf("Usage: rcuqs-ctl [OPTIONS] COMMAND [ARGS...]\n"
	       "\n"
	       "Options:\n"
	       "  -r, --root DIR   act on the system rooted at DIR instead of / (also RCUQS_ROOT)\n"
	       "  -j, --json       JSON output, for every command that prints anything\n"
	       "  -h, --help       show this help and exit\n"
	       "  -V, --version    show the version and exit\n"
	       "\n"
	       "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char left[64];

		snprintf(left, sizeof(left), "%s%s%s", commands[i]->name,
			 commands[i]->args[0] ? " " : "", commands[i]->args);
		printf("  %-20s  %s\n", left, commands[i]->help);
	}
	printf("\nSee rcuqs-ctl(8) for exit codes and files.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct rcuqs_ctx ctx = { .root = "", .json = false };
	const char *root = getenv("RCUQS_ROOT");
	char rootbuf[ROOT_MAX];
	int c;

	opterr = 0;	/* our own messages, naming the program, not argv[0] */
	while ((c = getopt_long(argc, argv, "+:r:jhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			root = optarg;
			break;
		case 'j':
			ctx.json = true;
			break;
		case 'h':
			usage();
			return EXIT_OK;
		case 'V':
			printf("rcuqs-ctl %s\n", RCUQS_VERSION);
			return EXIT_OK;
		case ':':
			errmsg("option '%s' needs an argument", argv[optind - 1]);
			return usage_error();
		default:
			if (optopt && strncmp(argv[optind - 1], "--", 2) == 0 &&
			    strchr(argv[optind - 1], '='))
				errmsg("option '%.*s' takes no value", (int)strcspn(argv[optind - 1], "="),
				       argv[optind - 1]);
			else if (optopt)
				errmsg("unknown option '-%c'", optopt);
			else
				errmsg("unknown option '%s'", argv[optind - 1]);
			return usage_error();
		}
	}
	if (root) {
		/* "/" and "/x/" both become a prefix without the trailing slash. */
		size_t n = strlen(root);
		struct stat st;

		if (n == 0) {
			/* An unset shell variable must not mean the real system. */
			errmsg("empty root directory name (use --root / for the real system)");
			return usage_error();
		}
		if (n >= ROOT_MAX) {
			errmsg("root directory name too long (%zu bytes, at most %d)", n,
			       ROOT_MAX - 1);
			return usage_error();
		}
		strcpy(rootbuf, root);
		while (n > 0 && rootbuf[n - 1] == '/')
			rootbuf[--n] = '\0';
		if (stat(n ? rootbuf : "/", &st) < 0) {
			errmsg("root directory '%s': %s", root, strerror(errno));
			return usage_error();
		}
		if (!S_ISDIR(st.st_mode)) {
			errmsg("root directory '%s': %s", root, strerror(ENOTDIR));
			return usage_error();
		}
		ctx.root = rootbuf;
	}
	if (optind >= argc) {
		errmsg("missing command");
		return usage_error();
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[optind], commands[i]->name) == 0)
			return commands[i]->fn(&ctx, argc - optind, argv + optind);
	}
	errmsg("unknown command '%s'", argv[optind]);
	return usage_error();
}
