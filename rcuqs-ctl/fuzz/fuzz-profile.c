// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness: the profile parser with includes.
 *
 * The input is up to four files separated by lines "%%": the local
 * profile f, the shipped profile a, a local a (overriding, and perhaps
 * extending, the shipped one) and the shipped b; an empty part is no file.
 * Each run loads f and a from a fake root, lists the profiles and builds
 * the boot form. A profile that loads must hold only values the tool
 * accepts; any crash, leak, sanitizer report or hang is a finding.
 */
#include "bootcfg.h"
#include "fuzz-root.h"
#include "profile.h"
#include "tunables.h"

static const char *const files[] = {
	"/etc/rcuqs/profiles/f.profile",
	"/usr/lib/rcuqs/profiles/a.profile",
	"/etc/rcuqs/profiles/a.profile",
	"/usr/lib/rcuqs/profiles/b.profile",
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_root_init();
	mkdirs("/etc/rcuqs/profiles");
	mkdirs("/usr/lib/rcuqs/profiles");
	return 0;
}

static void check_loaded(const struct profile *p)
{
	char *args;

	for (size_t i = 0; i < N_TUNABLES; i++) {
		const char *v = p->set[i].value;

		if (v[0] && (tunable_check(&tunables[i], v) < 0 || !p->set[i].file))
			abort();	/* a value the tool refuses made it through */
	}
	/*
	 * A line of alternatives survives whole or not at all: each of its
	 * settings has its place in it, and as many settings as it has
	 * alternatives share its file and line, runtime ones only.
	 */
	for (size_t i = 0; i < N_TUNABLES; i++) {
		const struct setting *s = &p->set[i];
		int same = 0;

		if (!s->value[0])
			continue;
		if (s->nalt < 1 || s->alt < 0 || s->alt >= s->nalt ||
		    (s->nalt > 1 && !tunable_runtime(&tunables[i])))
			abort();
		for (size_t k = 0; k < N_TUNABLES; k++)
			same += p->set[k].value[0] && p->set[k].file == s->file &&
				p->set[k].line == s->line;
		if (same != s->nalt)
			abort();
	}
	if (p->description && strpbrk(p->description, "\n"))
		abort();
	args = boot_args(p);
	if (!args)
		abort();
	free(args);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part = data, *end = data + size;
	struct profile_entry *e = NULL;
	struct profile p;
	size_t n;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const uint8_t *sep = NULL;

		for (const uint8_t *q = part; q && q + 3 <= end; q++) {
			if ((q == data || q[-1] == '\n') && memcmp(q, "%%\n", 3) == 0) {
				sep = q;
				break;
			}
		}
		if (part && part < end && (sep ? sep : end) > part)
			put(files[i], part, (size_t)((sep ? sep : end) - part), 1);
		else
			put(files[i], NULL, 0, 1);
		part = sep ? sep + 3 : NULL;
	}
	if (profile_load(&ctx, "f", &p) == 0)
		check_loaded(&p);
	profile_free(&p);
	if (profile_load(&ctx, "a", &p) == 0)
		check_loaded(&p);
	profile_free(&p);
	if (profile_list(&ctx, &e, &n) == 0)
		free(e);
	return 0;
}
