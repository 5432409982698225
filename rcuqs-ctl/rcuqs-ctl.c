// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rcuqs-ctl: apply, verify and persist RCU quiescent-state profiles.
 *
 * Global options, then one subcommand from the table below; each
 * subcommand parses its own arguments. Global options may also follow the
 * command, up to a "--", as git and systemctl take them.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "output.h"
#include "rcuqs.h"
#include "util.h"

/* Room for the root prefix, leaving the rest of PATH_MAX to the paths below it. */
#define ROOT_MAX (PATH_MAX / 2)

static const struct command *const commands[] = {
	&cmd_list, &cmd_show, &cmd_status, &cmd_active, &cmd_set_profile, &cmd_apply,
	&cmd_verify, &cmd_set, &cmd_off, &cmd_boot_args, &cmd_params,
	&cmd_export, &cmd_watch, &cmd_recommend, &cmd_measure,
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
		char left[96];	/* the longest synopsis: measure's */

		snprintf(left, sizeof(left), "%s%s%s", commands[i]->name,
			 commands[i]->args[0] ? " " : "", commands[i]->args);
		printf("  %-20s  %s\n", left, commands[i]->help);
	}
	printf("\nOptions may also follow COMMAND, before a '--'.\n"
	       "See rcuqs-ctl(8) for exit codes and files.\n");
}

static void version(void)
{
	printf("rcuqs-ctl %s\n", RCUQS_VERSION);
}

/* Whether arg is one of cmd's own options that take a value, as a word. */
static bool takes_value(const struct command *cmd, const char *arg)
{
	size_t n = strlen(arg);

	for (const char *p = cmd->valued; p && *p; p += strcspn(p, " "), p += *p == ' ') {
		if (strncmp(p, arg, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			return true;
	}
	return false;
}

/*
 * The global options among the command's arguments argv[1..], up to a
 * "--" and but for the value of a command's own option, taken out of argv
 * (exact words: -j, --json, -r DIR, -rDIR, --root DIR, --root=DIR, -h,
 * --help, -V, --version). Returns -1 to go on, or the exit status when
 * one of them ends the run.
 */
static int globals_after(struct rcuqs_ctx *ctx, const char **root, const struct command *cmd,
			 int *argc, char **argv)
{
	int i, k = 1;

	for (i = 1; i < *argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];

		if (takes_value(cmd, a) && i + 1 < *argc) {
			argv[k++] = argv[i++];
			argv[k++] = argv[i];
		} else if (strcmp(a, "-j") == 0 || strcmp(a, "--json") == 0) {
			ctx->json = true;
		} else if (strcmp(a, "-r") == 0 || strcmp(a, "--root") == 0) {
			if (i + 1 >= *argc) {
				errmsg("option '%s' needs an argument", a);
				return usage_error();
			}
			*root = argv[++i];
		} else if (strncmp(a, "--root=", 7) == 0) {
			*root = a + 7;
		} else if (strncmp(a, "-r", 2) == 0) {
			*root = a + 2;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage();
			return EXIT_OK;
		} else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
			version();
			return EXIT_OK;
		} else {
			argv[k++] = argv[i];
		}
	}
	while (i < *argc)
		argv[k++] = argv[i++];
	argv[k] = NULL;
	*argc = k;
	return -1;
}

static int run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct rcuqs_ctx ctx = { .root = "", .json = false };
	const struct command *cmd = NULL;
	const char *root = getenv("RCUQS_ROOT");
	char rootbuf[ROOT_MAX];
	int c, r;

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
			version();
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
	if (optind < argc) {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (strcmp(argv[optind], commands[i]->name) == 0)
				cmd = commands[i];
		if (cmd) {
			argc -= optind;
			argv += optind;
			if ((r = globals_after(&ctx, &root, cmd, &argc, argv)) >= 0)
				return r;
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
	if (cmd)
		return cmd->fn(&ctx, argc, argv);
	if (optind >= argc) {
		errmsg("missing command");
		return usage_error();
	}
	errmsg("unknown command '%s'", argv[optind]);
	return usage_error();
}

int main(int argc, char **argv)
{
	/*
	 * A file size limit (ulimit -f) reached must fail the write with
	 * EFBIG, which every writer handles by undoing what it did, rather
	 * than kill the tool half-way (export left its directories and a
	 * tuned.conf.rcuqs-new behind).
	 */
	signal(SIGXFSZ, SIG_IGN);
	return close_stdout(run(argc, argv));
}
