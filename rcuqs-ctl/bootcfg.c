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

/* Whether setting i of p goes on the command line: set, and not the kernel's default. */
static bool in_boot_form(const struct profile *p, size_t i)
{
	const char *v = p->set[i].value;

	return v[0] && !(tunables[i].dflt && strcmp(v, tunables[i].dflt) == 0);
}

char *boot_args(const struct profile *p)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < N_TUNABLES; i++)
		if (in_boot_form(p, i))
			len += strlen(tunables[i].name) + strlen(p->set[i].value) + 2;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < N_TUNABLES; i++) {
		if (!in_boot_form(p, i))
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
	char *buf = malloc(CMDLINE_MAX);
	int r;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	r = read_text(ctx, PROC_CMDLINE, buf, CMDLINE_MAX);
	if (r < 0) {
		free(buf);
		return r;
	}
	*out = buf;
	return 0;
}

/* Whether two tokens set the same parameter ("key" or "key=value"). */
static bool same_key(const char *a, size_t alen, const char *b, size_t blen)
{
	const char *ea = memchr(a, '=', alen), *eb = memchr(b, '=', blen);
	size_t ka = ea ? (size_t)(ea - a) : alen, kb = eb ? (size_t)(eb - b) : blen;

	return ka == kb && memcmp(a, b, ka) == 0;
}

/* Whether tok is byte for byte one of the tokens of list. */
static bool has_token(const char *list, const char *tok, size_t tlen)
{
	const char *f, *s = list;
	size_t flen;

	while ((f = next_token(s, &flen))) {
		if (flen == tlen && memcmp(f, tok, tlen) == 0)
			return true;
		s = f + flen;
	}
	return false;
}

static bool quotes_open(const char *tok, size_t tlen)
{
	size_t q = 0;

	for (size_t i = 0; i < tlen; i++)
		q += tok[i] == '"';
	return q % 2;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

char *cmdline_merge(const char *old, const char *args, const char *prev)
{
	size_t cap = strlen(old) + strlen(args) + 4, tlen, n = 0;
	const char *tok, *s = old, *copied = old, *rest, *open = NULL;
	bool used[N_TUNABLES * 2] = { false }, theirs[N_TUNABLES * 2] = { false };
	char *out = malloc(cap);

	if (!out)
		return NULL;
	/*
	 * A key of args the administrator has a token for: ours cannot stay in
	 * place (theirs may come after it), it goes to the end.
	 */
	while ((tok = next_token(s, &tlen)) && !(tlen == 2 && memcmp(tok, "--", 2) == 0)) {
		const char *f;
		size_t alen, idx = 0;

		s = tok + tlen;
		if (has_token(prev, tok, tlen))
			continue;
		for (const char *as = args; (f = next_token(as, &alen)); as = f + alen, idx++)
			if (idx < N_TUNABLES * 2 && same_key(f, alen, tok, tlen))
				theirs[idx] = true;
	}
	s = old;
	while ((tok = next_token(s, &tlen)) && !(tlen == 2 && memcmp(tok, "--", 2) == 0)) {
		const char *a = NULL, *f;
		size_t alen = 0, idx = 0;

		s = tok + tlen;
		/* Not ours: never touched (if it sets a key of args, ours come later and win). */
		if (!has_token(prev, tok, tlen)) {
			if (quotes_open(tok, tlen))	/* it takes the rest of the line */
				open = tok;
			continue;
		}
		/* Ours, and args sets its key: the first such token takes the new value. */
		for (const char *as = args; (f = next_token(as, &alen)); as = f + alen, idx++) {
			if (same_key(f, alen, tok, tlen)) {
				a = f;
				break;
			}
		}
		if (a && idx < N_TUNABLES * 2 && !used[idx] && !theirs[idx]) {
			used[idx] = true;
			memcpy(out + n, copied, (size_t)(tok - copied));
			n += (size_t)(tok - copied);
			memcpy(out + n, a, alen);
			n += alen;
			copied = s;
			continue;
		}
		/* What rcuqs wrote last time and no longer writes there: removed. */
		{
			const char *from = tok;

			while (from > copied && is_blank(from[-1]) && from[-1] != '\n')
				from--;
			memcpy(out + n, copied, (size_t)(from - copied));
			n += (size_t)(from - copied);
			copied = s;
			if (n == 0)	/* first on the line: its blanks after go */
				while (*copied == ' ' || *copied == '\t')
					copied++;
		}
	}
	/*
	 * The rest of the parameters, after the last one before "--", or
	 * before a last token whose quote never closes, lest it swallow them.
	 */
	rest = open ? open : tok ? tok : old + strlen(old);
	while (!open && rest > copied && is_blank(rest[-1]))
		rest--;
	memcpy(out + n, copied, (size_t)(rest - copied));
	n += (size_t)(rest - copied);
	copied = rest;
	{
		const char *f;
		size_t idx = 0, alen;

		for (const char *as = args; (f = next_token(as, &alen)); as = f + alen, idx++) {
			if (idx < N_TUNABLES * 2 && used[idx])
				continue;
			if (n > 0 && !is_blank(out[n - 1]))
				out[n++] = ' ';
			memcpy(out + n, f, alen);
			n += alen;
		}
	}
	if (*copied && !is_blank(*copied) && n > 0 && !is_blank(out[n - 1]))
		out[n++] = ' ';	/* keep what follows apart */
	strcpy(out + n, copied);
	if (old[0] == '\0' && n > 0)
		strcat(out, "\n");	/* an empty file gets a whole line */
	return out;
}

/* What the GRUB drop-in of the last set-profile put on the command line. */
static char *previous_args(const struct rcuqs_ctx *ctx)
{
	static const char lead[] = "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX ";
	char *buf = malloc(4096), *p, *end;

	if (!buf)
		return NULL;
	if (read_file(ctx, GRUB_DROPIN, buf, 4096, NULL) < 0 || !(p = strstr(buf, lead))) {
		buf[0] = '\0';
		return buf;
	}
	p += sizeof(lead) - 1;
	end = strchr(p, '"');
	if (!end || memchr(p, '\n', (size_t)(end - p)))
		end = p;
	memmove(buf, p, (size_t)(end - p));
	buf[end - p] = '\0';
	return buf;
}

/*
 * Prepare /etc/kernel/cmdline with args merged in (see cmdline_merge()),
 * when the file exists (*have tells) and the merge changes it.
 */
static int kcmdline_prepare(const struct rcuqs_ctx *ctx, const char *args,
			    struct pending_file *kcmd, bool *have)
{
	char *old = malloc(CMDLINE_MAX), *prev = previous_args(ctx), *content = NULL;
	int r;

	*have = false;
	if (!old || !prev) {
		r = -ENOMEM;
		goto out;
	}
	r = read_file(ctx, KERNEL_CMDLINE, old, CMDLINE_MAX, NULL);
	if (r == -ENOENT) {
		r = 0;	/* no kernel-install here */
	} else if (r < 0) {
		errmsg("cannot read %s: %s", KERNEL_CMDLINE, errstr(r));
	} else if (memchr(old, '\0', (size_t)r)) {
		errmsg("cannot read %s: NUL byte in the file", KERNEL_CMDLINE);
		r = -EINVAL;
	} else {
		*have = true;
		content = cmdline_merge(old, args, prev);
		if (!content)
			r = -ENOMEM;
		else if (strcmp(content, old) == 0)
			r = 0;	/* nothing of ours there: leave it alone */
		else if ((r = pending_prepare(ctx, KERNEL_CMDLINE, content, kcmd)) < 0)
			errmsg("cannot write %s: %s", KERNEL_CMDLINE, errstr(r));
	}
out:
	free(content);
	free(prev);
	free(old);
	return r;
}

int bootcfg_prepare(const struct rcuqs_ctx *ctx, const struct profile *p,
		    struct pending_file *grub, struct pending_file *kcmd, bool *have_kcmdline)
{
	char *args = boot_args(p), *content = NULL;
	const char *fmt =
		"# Written by rcuqs-ctl set-profile %s; do not edit, run that command.\n"
		"# Takes effect after update-grub and a reboot.\n"
		"GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX%s%s\"\n";
	int r;

	memset(grub, 0, sizeof(*grub));
	memset(kcmd, 0, sizeof(*kcmd));
	*have_kcmdline = false;
	if (!args) {
		r = -ENOMEM;
		goto out;
	}
	/* /etc/kernel/cmdline first: the merge needs the drop-in as it was. */
	r = kcmdline_prepare(ctx, args, kcmd, have_kcmdline);
	if (r < 0)
		goto out;
	if (asprintf(&content, fmt, p->name, args[0] ? " " : "", args) < 0) {
		r = -ENOMEM;
		content = NULL;
		goto fail;
	}
	r = pending_prepare(ctx, GRUB_DROPIN, content, grub);
	if (r < 0) {
		errmsg("cannot write %s: %s", GRUB_DROPIN, errstr(r));
		goto fail;
	}
	r = 0;
	goto out;
fail:
	pending_abort(kcmd);
out:
	free(content);
	free(args);
	return r;
}

int bootcfg_prepare_off(const struct rcuqs_ctx *ctx, struct pending_file *grub,
			struct pending_file *kcmd, bool *have_kcmdline)
{
	int r;

	memset(grub, 0, sizeof(*grub));
	memset(kcmd, 0, sizeof(*kcmd));
	r = kcmdline_prepare(ctx, "", kcmd, have_kcmdline);
	if (r < 0)
		return r;
	r = pending_prepare(ctx, GRUB_DROPIN, NULL, grub);
	if (r < 0) {
		errmsg("cannot remove %s: %s", GRUB_DROPIN, errstr(r));
		pending_abort(kcmd);
	}
	return r;
}

int active_read(const struct rcuqs_ctx *ctx, char *name, size_t len)
{
	int r = read_text(ctx, ACTIVE_FILE, name, len);

	if (r == 0)
		return -ENOENT;
	return r < 0 ? r : 0;
}
