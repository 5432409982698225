// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot form of a profile: GRUB drop-in, /etc/kernel/cmdline, and
 * reading /proc/cmdline and /etc/rcuqs/active.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootcfg.h"
#include "util.h"

char *boot_args(const struct profile *p)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < N_TUNABLES; i++)
		if (p->set[i].value[0])
			len += strlen(tunables[i].name) + strlen(p->set[i].value) + 2;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < N_TUNABLES; i++) {
		if (!p->set[i].value[0])
			continue;
		if (s[0])
			strcat(s, " ");
		strcat(s, tunables[i].name);
		strcat(s, "=");
		strcat(s, p->set[i].value);
	}
	return s;
}

/* Next token of a kernel command line (double quotes group); NULL at end. */
static const char *next_token(const char *s, size_t *tlen)
{
	const char *start;
	bool quoted = false;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s)
		return NULL;
	start = s;
	for (; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (!quoted && (*s == ' ' || *s == '\t' || *s == '\n'))
			break;
	}
	*tlen = (size_t)(s - start);
	return start;
}

static bool token_is(const char *tok, size_t tlen, const char *key)
{
	size_t klen = strlen(key);

	return tlen >= klen && strncmp(tok, key, klen) == 0 &&
	       (tlen == klen || tok[klen] == '=');
}

bool cmdline_value(const char *cmdline, const char *key, char *val, size_t len)
{
	const char *tok, *s = cmdline;
	size_t tlen, klen = strlen(key);
	bool found = false;

	while ((tok = next_token(s, &tlen))) {
		if (token_is(tok, tlen, key)) {
			size_t vlen = tlen > klen ? tlen - klen - 1 : 0;

			if (vlen >= len)
				vlen = len - 1;
			memcpy(val, tok + klen + (tlen > klen), vlen);
			val[vlen] = '\0';
			found = true;
		}
		s = tok + tlen;
	}
	return found;
}

int proc_cmdline(const struct rcuqs_ctx *ctx, char **out)
{
	char *buf = malloc(4096);
	int r;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	r = read_text(ctx, PROC_CMDLINE, buf, 4096);
	if (r < 0) {
		free(buf);
		return r;
	}
	*out = buf;
	return 0;
}

/* Old tokens of every known tunable dropped, ours appended. */
static char *merge_cmdline(const char *old, const char *args)
{
	size_t cap = strlen(old) + strlen(args) + 3, tlen;
	const char *tok, *s = old;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	out[0] = '\0';
	while ((tok = next_token(s, &tlen))) {
		bool ours = false;

		for (size_t i = 0; i < N_TUNABLES; i++)
			if (token_is(tok, tlen, tunables[i].name))
				ours = true;
		if (!ours) {
			if (out[0])
				strcat(out, " ");
			strncat(out, tok, tlen);
		}
		s = tok + tlen;
	}
	if (args[0]) {
		if (out[0])
			strcat(out, " ");
		strcat(out, args);
	}
	strcat(out, "\n");
	return out;
}

int bootcfg_prepare(const struct rcuqs_ctx *ctx, const struct profile *p,
		    struct pending_file *grub, struct pending_file *kcmd, bool *have_kcmdline)
{
	char *args = boot_args(p), *content = NULL, *old = NULL;
	const char *fmt =
		"# Written by rcuqs-ctl set-profile %s; do not edit, run that command.\n"
		"# Takes effect after update-grub and a reboot.\n"
		"GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX %s\"\n";
	char path[PATH_MAX];
	struct stat st;
	int r;

	memset(grub, 0, sizeof(*grub));
	memset(kcmd, 0, sizeof(*kcmd));
	*have_kcmdline = false;
	if (!args)
		return -ENOMEM;
	if (asprintf(&content, fmt, p->name, args) < 0) {
		r = -ENOMEM;
		content = NULL;
		goto out;
	}
	r = pending_prepare(ctx, GRUB_DROPIN, content, grub);
	if (r < 0) {
		errmsg("cannot write %s: %s", GRUB_DROPIN, strerror(-r));
		goto out;
	}

	if ((r = root_path(ctx, KERNEL_CMDLINE, path, sizeof(path))) < 0)
		goto fail;
	if (stat(path, &st) < 0)
		goto out;	/* no kernel-install here: r == 0 */
	*have_kcmdline = true;
	old = malloc(4096);
	if (!old) {
		r = -ENOMEM;
		goto fail;
	}
	r = read_text(ctx, KERNEL_CMDLINE, old, 4096);
	if (r < 0) {
		errmsg("cannot read %s: %s", KERNEL_CMDLINE, strerror(-r));
		goto fail;
	}
	free(content);
	content = merge_cmdline(old, args);
	if (!content) {
		r = -ENOMEM;
		goto fail;
	}
	r = pending_prepare(ctx, KERNEL_CMDLINE, content, kcmd);
	if (r < 0) {
		errmsg("cannot write %s: %s", KERNEL_CMDLINE, strerror(-r));
		goto fail;
	}
	r = 0;
	goto out;
fail:
	pending_abort(grub);
out:
	free(old);
	free(content);
	free(args);
	return r;
}

int active_read(const struct rcuqs_ctx *ctx, char *name, size_t len)
{
	int r = read_text(ctx, ACTIVE_FILE, name, len);

	if (r == 0)
		return -ENOENT;
	return r < 0 ? r : 0;
}
