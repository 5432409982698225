// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strip-ref DIR N SEED: N random /etc/kernel/cmdline contents, each with
 * the tokens of a GRUB drop-in, and what rcuqs-ctl's own cmdline_merge()
 * makes of them when it removes those tokens and adds none (what
 * "rcuqs-ctl off" does): DIR/K.in, DIR/K.prev, DIR/K.out for K = 1..N.
 * check-deb.sh runs the package's postrm strip_tokens() on each K.in and
 * K.prev and wants K.out byte for byte: the sh copy of the rule in the
 * purge must agree with the C one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootcfg.h"

/* Pieces of a command line: blanks, quotes, "--", rcuqs's and others'. */
static const char *const pieces[] = {
	" ", " ", "  ", "\t", "\n", "\"", "--", "-", "=", "quiet", "ro",
	"root=/dev/vda1", "init=/bin/sh", "x=\"a b\"", "\"rcutree.x=1 y\"",
	"rcutree.x=1", "rcutree.x=2", "rcutree.y=auto", "rcupdate.z=60",
	"rcutree.x", "nohz_full=2-3",
};
static const char *const blanks[] = { " ", " ", " ", "  ", "\t", " \t", "\n" };
/* What a drop-in may list: some of rcuqs's tokens, some of others'. */
static const char *const owned[] = {
	"rcutree.x=1", "rcutree.y=auto", "rcupdate.z=60", "quiet", "rcutree.x",
};

static void put(const char *dir, unsigned k, const char *ext, const char *s)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u.%s", dir, k, ext);
	f = fopen(path, "w");
	if (!f || fputs(s, f) == EOF || fclose(f) == EOF) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	unsigned n, k;

	if (argc != 4) {
		fprintf(stderr, "usage: strip-ref DIR N SEED\n");
		return 2;
	}
	n = (unsigned)strtoul(argv[2], NULL, 10);
	srand((unsigned)strtoul(argv[3], NULL, 10));
	for (k = 1; k <= n; k++) {
		char old[1024] = "", prev[256] = "", *out;
		int len = rand() % 14;

		for (int i = 0; i < len; i++) {
			strcat(old, pieces[rand() % (sizeof(pieces) / sizeof(pieces[0]))]);
			if (rand() % 5 < 3)	/* mostly apart, sometimes glued */
				strcat(old, blanks[rand() % (sizeof(blanks) / sizeof(blanks[0]))]);
		}
		if (rand() % 3 == 0)
			strcat(old, "\n");
		for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++)
			if (rand() % 2) {
				if (prev[0])
					strcat(prev, " ");
				strcat(prev, owned[i]);
			}
		out = cmdline_merge(old, "", prev);
		if (!out) {
			fprintf(stderr, "strip-ref: out of memory\n");
			return 1;
		}
		put(argv[1], k, "in", old);
		put(argv[1], k, "prev", prev);
		put(argv[1], k, "out", out);
		free(out);
	}
	return 0;
}
