// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot form of a profile: GRUB drop-in, /etc/kernel/cmdline, and
 * reading /proc/cmdline and /etc/rcuqs/active.
 */
#include <errno.h>
#include <limits.h>
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

/*
 * Blanks between parameters: the kernel's isspace() (lib/ctype.c), which
 * next_arg() and skip_spaces() use on the command line: '\t' to '\r', ' ',
 * and byte 0xA0 (no-break space in Latin-1, the second byte of UTF-8's
 * U+00A0, as a pasted "quiet\xc2\xa0rcu_nocbs=1-3" has it). Not 0x85.
 */
static bool is_blank(char c)
{
	unsigned char u = (unsigned char)c;

	return u == ' ' || (u >= '\t' && u <= '\r') || u == 0xa0;
}

/* Next token of a kernel command line (double quotes group); NULL at end. */
static const char *next_token(const char *s, size_t *tlen)
{
	const char *start;
	bool quoted = false;

	while (is_blank(*s))
		s++;
	if (!*s)
		return NULL;
	start = s;
	for (; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (!quoted && is_blank(*s))
			break;
	}
	*tlen = (size_t)(s - start);
	return start;
}

/*
 * The kernel's reading of a token (next_arg() in lib/cmdline.c): a leading
 * double quote goes, the name runs to the first '=', a value's opening
 * quote and a closing quote at the end go.
 */
struct param {
	const char *name, *val;
	size_t nlen, vlen;
	bool has_val;
};

static void token_param(const char *tok, size_t tlen, struct param *p)
{
	const char *s = tok, *end = tok + tlen, *eq = NULL;
	bool quoted = tlen > 0 && *tok == '"';

	if (quoted)
		s++;
	for (const char *q = s + 1; q < end && !eq; q++)
		if (*q == '=')
			eq = q;
	p->name = s;
	p->has_val = eq != NULL;
	if (!eq) {
		p->nlen = (size_t)(end - s);
		if (quoted && p->nlen > 0 && end[-1] == '"')
			p->nlen--;
		p->val = end;
		p->vlen = 0;
		return;
	}
	p->nlen = (size_t)(eq - s);
	p->val = eq + 1;
	if (p->val < end && *p->val == '"') {
		p->val++;
		quoted = true;
	}
	p->vlen = (size_t)(end - p->val);
	if (quoted && p->vlen > 0 && end[-1] == '"')
		p->vlen--;
}

/* Whether two parameter names are the same to the kernel: '-' and '_' alike. */
static bool param_eq(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++)
		if ((a[i] == '-' ? '_' : a[i]) != (b[i] == '-' ? '_' : b[i]))
			return false;
	return true;
}

/* Whether the token ends the kernel's parameters: what follows goes to init. */
static bool is_dashdash(const char *tok, size_t tlen)
{
	struct param p;

	token_param(tok, tlen, &p);
	return !p.has_val && p.nlen == 2 && memcmp(p.name, "--", 2) == 0;
}

bool cmdline_value(const char *cmdline, const char *key, char *val, size_t len)
{
	const char *tok, *s = cmdline;
	size_t tlen;
	bool found = false;

	while ((tok = next_token(s, &tlen)) && !is_dashdash(tok, tlen)) {
		struct param p;

		token_param(tok, tlen, &p);
		if (param_eq(p.name, p.nlen, key, strlen(key))) {
			size_t vlen = p.vlen < len ? p.vlen : len - 1;

			memcpy(val, p.val, vlen);
			val[vlen] = '\0';
			found = true;
		}
		s = tok + tlen;
	}
	return found;
}

bool cmdline_next_value(const char **pos, const char *key, char *val, size_t len)
{
	const char *tok, *s = *pos;
	size_t tlen;

	while (s && (tok = next_token(s, &tlen)) && !is_dashdash(tok, tlen)) {
		struct param p;

		token_param(tok, tlen, &p);
		s = tok + tlen;
		if (param_eq(p.name, p.nlen, key, strlen(key))) {
			size_t vlen = p.vlen < len ? p.vlen : len - 1;

			memcpy(val, p.val, vlen);
			val[vlen] = '\0';
			*pos = s;
			return true;
		}
	}
	*pos = NULL;
	return false;
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

/* A token: where it starts and how long it is. */
struct span {
	const char *s;
	size_t len;
};

static const char *span_end(const struct span *a)
{
	return a->s + a->len;
}

/*
 * The tokens of s before "--" into a malloc'd *t; with params, without a
 * last one whose quote never closes (it takes the rest of the line, so
 * nothing can follow it). Their count, or -ENOMEM.
 */
static ssize_t tokens_of(const char *s, struct span **t, bool params)
{
	size_t n = 0, tlen;
	const char *tok;

	*t = malloc((strlen(s) / 2 + 1) * sizeof(**t));
	if (!*t)
		return -ENOMEM;
	while ((tok = next_token(s, &tlen)) && !(params && is_dashdash(tok, tlen))) {
		size_t q = 0;

		for (size_t i = 0; i < tlen; i++)
			q += tok[i] == '"';
		if (params && q % 2)
			break;
		(*t)[n].s = tok;
		(*t)[n++].len = tlen;
		s = tok + tlen;
	}
	return (ssize_t)n;
}

char *cmdline_strip(const char *old, const char *own)
{
	struct span *t = NULL, *o = NULL;
	ssize_t nt = tokens_of(old, &t, true), no = tokens_of(own, &o, false);
	const char *copied = old;
	char *out = NULL;
	bool *gone = NULL;
	size_t n = 0;

	if (nt < 0 || no < 0)
		goto out;
	out = malloc(strlen(old) + 1);
	gone = calloc((size_t)nt + 1, sizeof(*gone));
	if (!out || !gone) {
		free(out);
		out = NULL;
		goto out;
	}
	/* The last token byte for byte each of ours: the one cmdline_append() put last. */
	for (ssize_t i = no; i-- > 0;)
		for (ssize_t k = nt; k-- > 0;)
			if (!gone[k] && t[k].len == o[i].len &&
			    memcmp(t[k].s, o[i].s, o[i].len) == 0) {
				gone[k] = true;
				break;
			}
	/*
	 * Each goes with the blanks before it on its line; at the start of
	 * the text, with the one space after it. That is exactly what
	 * cmdline_append() added, when the file was not edited since.
	 */
	for (ssize_t k = 0; k < nt; k++) {
		const char *from = t[k].s;

		if (!gone[k])
			continue;
		while (from > copied && is_blank(from[-1]) && from[-1] != '\n')
			from--;
		memcpy(out + n, copied, (size_t)(from - copied));
		n += (size_t)(from - copied);
		copied = span_end(&t[k]);
		if (n == 0 && *copied == ' ')
			copied++;
	}
	strcpy(out + n, copied);
out:
	free(gone);
	free(o);
	free(t);
	return out;
}

char *cmdline_append(const char *old, const char *args)
{
	struct span *t = NULL;
	ssize_t nt;
	char *out;

	if (!args[0])
		return strdup(old);
	nt = tokens_of(old, &t, true);
	if (nt < 0)
		return NULL;
	out = malloc(strlen(old) + strlen(args) + 2);
	if (out && nt > 0) {
		/* After the last parameter: the kernel takes the last value. */
		size_t head = (size_t)(span_end(&t[nt - 1]) - old);

		memcpy(out, old, head);
		sprintf(out + head, " %s%s", args, old + head);
	} else if (out) {
		sprintf(out, "%s%s%s", args, old[0] && old[0] != '\n' ? " " : "", old);
	}
	free(t);
	return out;
}

char *cmdline_merge(const char *old, const char *args, const char *prev)
{
	char *stripped = cmdline_strip(old, prev), *out;

	if (!stripped)
		return NULL;
	out = cmdline_append(stripped, args);
	free(stripped);
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

/* FNV-1a: which of two contents /etc/kernel/cmdline has, not a defence. */
static unsigned long long content_sum(const char *s)
{
	unsigned long long h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Tokens rcuqs writes: names and validated values, one space apart. */
static bool record_tokens_valid(const char *s)
{
	size_t n = strlen(s);

	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.,=- ") == n &&
	       (n == 0 || (s[0] != ' ' && s[n - 1] != ' ' && !strstr(s, "  ")));
}

/*
 * rcuqs's own tokens in content, the text of /etc/kernel/cmdline, into
 * *own (malloc'd): as KCMDLINE_RECORD says (its "next" ones when content
 * is what they were written into), else, from an older rcuqs, as the GRUB
 * drop-in says. -EINVAL (said why) for a bad record.
 */
static int owned_tokens(const struct rcuqs_ctx *ctx, const char *content, char **own)
{
	char buf[2048], *line, *save = NULL, *tokens = NULL, *next = NULL;
	unsigned long long sum = 0;
	size_t len = 0;
	bool have_sum = false;
	unsigned lineno = 0;
	int r;

	*own = NULL;
	r = read_trusted(ctx, KCMDLINE_RECORD, buf, sizeof(buf));
	if (r == -ENOENT) {
		*own = previous_args(ctx);
		return *own ? 0 : -ENOMEM;
	}
	if (r < 0)
		return r;
	save = buf;
	while ((line = line_next(&save))) {
		char q[QUOTE_BUF];
		int end = 0;

		lineno++;
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (strncmp(line, "tokens=", 7) == 0 && !tokens && record_tokens_valid(line + 7))
			tokens = line + 7;
		else if (strncmp(line, "next=", 5) == 0 && !next && record_tokens_valid(line + 5))
			next = line + 5;
		else if (!have_sum && sscanf(line, "next-sum=%zu %llx%n", &len, &sum, &end) == 2 &&
			 line[end] == '\0')
			have_sum = true;
		else {
			errmsg("%s:%u: invalid line '%s' (see rcuqs-ctl(8), FILES)", KCMDLINE_RECORD,
			       lineno, quote(line, q));
			return -EINVAL;
		}
	}
	if (!tokens || !next != !have_sum) {
		errmsg("%s: incomplete record (see rcuqs-ctl(8), FILES)", KCMDLINE_RECORD);
		return -EINVAL;
	}
	if (next && strlen(content) == len && content_sum(content) == sum)
		tokens = next;	/* a switch or 'off' got as far as the rewrite */
	*own = strdup(tokens);
	return *own ? 0 : -ENOMEM;
}

/*
 * Prepare /etc/kernel/cmdline without rcuqs's tokens and with args (NULL:
 * 'off') after the last parameter, when the file exists and this changes
 * it, and the record of the change (b->rec). For 'off', a file that is
 * not a regular one is left alone with a warning (b->skipped).
 */
static int kcmdline_prepare(const struct rcuqs_ctx *ctx, const char *args, struct bootcfg *b)
{
	char *old = malloc(CMDLINE_MAX), *own = NULL, *content = NULL, *rec = NULL;
	int r;

	pending_leftovers(ctx, KERNEL_CMDLINE);
	pending_leftovers(ctx, KCMDLINE_RECORD);
	if (!old) {
		r = -ENOMEM;
		goto out;
	}
	r = read_file(ctx, KERNEL_CMDLINE, old, CMDLINE_MAX, NULL);
	if (r == -ENOENT) {
		r = 0;	/* no kernel-install here */
		goto out;
	}
	if (r < 0 && !args && (r == -ELOOP || r == -E_NOTREG || r == -EISDIR)) {
		char *prev = previous_args(ctx);

		errmsg("warning: %s: %s: left alone; take rcuqs's '%s' out of it by hand",
		       KERNEL_CMDLINE, errstr(r), prev ? prev : "");
		free(prev);
		b->skipped = true;
		r = 0;
		goto out;
	}
	if (r < 0) {
		errmsg("cannot read %s: %s", KERNEL_CMDLINE, errstr(r));
		goto out;
	}
	if (memchr(old, '\0', (size_t)r)) {
		errmsg("cannot read %s: NUL byte in the file", KERNEL_CMDLINE);
		r = -EINVAL;
		goto out;
	}
	b->have_kcmdline = true;
	if ((r = owned_tokens(ctx, old, &own)) < 0)
		goto out;
	content = cmdline_merge(old, args ? args : "", own);
	if (!content) {
		r = -ENOMEM;
		goto out;
	}
	if (strlen(content) >= CMDLINE_MAX) {
		errmsg("cannot write %s: it would grow to %zu bytes, more than the %d it may hold",
		       KERNEL_CMDLINE, strlen(content), CMDLINE_MAX - 1);
		r = -EFBIG;
		goto out;
	}
	if (strcmp(content, old) != 0 &&
	    (r = pending_prepare(ctx, KERNEL_CMDLINE, content, &b->kcmd)) < 0) {
		errmsg("cannot write %s: %s", KERNEL_CMDLINE, errstr(r));
		goto out;
	}
	b->kcmd_changed = b->kcmd.prepared;
	/* Which tokens are ours, before and after the rewrite, for a crash in between. */
	if (asprintf(&rec, "%stokens=%s\nnext=%s\nnext-sum=%zu %llx\n", KCMDLINE_RECORD_HEAD,
		     own, args ? args : "", strlen(content), content_sum(content)) < 0) {
		rec = NULL;
		r = -ENOMEM;
		goto out;
	}
	if ((r = pending_prepare(ctx, KCMDLINE_RECORD, rec, &b->rec)) < 0) {
		errmsg("cannot write %s: %s", KCMDLINE_RECORD, errstr(r));
		pending_abort(&b->kcmd);
		goto out;
	}
	if (args && !(b->final = strdup(args)))
		r = -ENOMEM;
out:
	free(rec);
	free(content);
	free(own);
	free(old);
	return r;
}

int bootcfg_prepare(const struct rcuqs_ctx *ctx, const struct profile *p, struct bootcfg *b)
{
	char *args = boot_args(p), *content = NULL, *old = NULL;
	const char *fmt =
		"# Written by rcuqs-ctl set-profile %s; do not edit, run that command.\n"
		"# Takes effect after update-grub and a reboot.\n"
		"GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX%s%s\"\n";
	int r;

	memset(b, 0, sizeof(*b));
	if (!args) {
		r = -ENOMEM;
		goto out;
	}
	/* /etc/kernel/cmdline first: the merge needs the drop-in as it was. */
	r = kcmdline_prepare(ctx, args, b);
	if (r < 0)
		goto fail;
	if (asprintf(&content, fmt, p->name, args[0] ? " " : "", args) < 0) {
		r = -ENOMEM;
		content = NULL;
		goto fail;
	}
	/*
	 * The same content is left alone, so that its time still tells
	 * whether update-grub ran since (grub_cfg_stale()).
	 */
	if (!(old = malloc(CMDLINE_MAX + 512))) {
		r = -ENOMEM;
		goto fail;
	}
	if (read_file(ctx, GRUB_DROPIN, old, CMDLINE_MAX + 512, NULL) >= 0 &&
	    strcmp(old, content) == 0) {
		b->grub_same = true;
		r = 0;
		goto out;
	}
	r = pending_prepare(ctx, GRUB_DROPIN, content, &b->grub);
	if (r < 0) {
		errmsg("cannot write %s: %s", GRUB_DROPIN, errstr(r));
		goto fail;
	}
	r = 0;
	goto out;
fail:
	bootcfg_abort(b);
out:
	free(old);
	free(content);
	free(args);
	return r;
}

bool grub_cfg_stale(const struct rcuqs_ctx *ctx)
{
	char cfg[PATH_MAX], dropin[PATH_MAX];
	struct stat a, b;

	if (root_path(ctx, GRUB_CFG, cfg, sizeof(cfg)) < 0 ||
	    root_path(ctx, GRUB_DROPIN, dropin, sizeof(dropin)) < 0 ||
	    stat(cfg, &a) < 0 || lstat(dropin, &b) < 0)
		return false;
	return a.st_mtim.tv_sec < b.st_mtim.tv_sec ||
	       (a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec < b.st_mtim.tv_nsec);
}

int bootcfg_prepare_off(const struct rcuqs_ctx *ctx, struct bootcfg *b)
{
	int r;

	memset(b, 0, sizeof(*b));
	r = kcmdline_prepare(ctx, NULL, b);
	if (r < 0)
		goto fail;
	pending_leftovers(ctx, GRUB_DROPIN);
	r = pending_prepare(ctx, GRUB_DROPIN, NULL, &b->grub);
	if (r < 0) {
		errmsg("cannot remove %s: %s", GRUB_DROPIN, errstr(r));
		goto fail;
	}
	return 0;
fail:
	bootcfg_abort(b);
	return r;
}

int bootcfg_record(struct bootcfg *b)
{
	int r = pending_commit(&b->rec);

	if (r < 0)
		errmsg("cannot write %s: %s; nothing was changed", KCMDLINE_RECORD, errstr(r));
	return r;
}

void bootcfg_finish(const struct rcuqs_ctx *ctx, struct bootcfg *b)
{
	char path[PATH_MAX], *rec = NULL;
	int r = 0;

	pending_done(&b->rec);
	if (b->final) {
		if (asprintf(&rec, "%stokens=%s\n", KCMDLINE_RECORD_HEAD, b->final) < 0)
			rec = NULL;
		r = rec ? pending_prepare(ctx, KCMDLINE_RECORD, rec, &b->rec) : -ENOMEM;
		if (r == 0 && (r = pending_commit(&b->rec)) == 0)
			pending_done(&b->rec);
		else
			pending_abort(&b->rec);
	} else {
		/* 'off', or no /etc/kernel/cmdline: no record to keep. */
		r = root_path(ctx, KCMDLINE_RECORD, path, sizeof(path));
		if (r == 0 && unlink(path) < 0 && errno != ENOENT)
			r = -errno;
	}
	if (r < 0)	/* the record written before still says which are ours */
		errmsg("warning: cannot write %s: %s", KCMDLINE_RECORD, errstr(r));
	free(rec);
	free(b->final);
	b->final = NULL;
}

void bootcfg_abort(struct bootcfg *b)
{
	int r = pending_revert(&b->rec);

	if (r < 0)
		errmsg("warning: cannot restore %s: %s", KCMDLINE_RECORD, errstr(r));
	pending_abort(&b->rec);
	pending_abort(&b->grub);
	pending_abort(&b->kcmd);
	free(b->final);
	b->final = NULL;
}

int active_read(const struct rcuqs_ctx *ctx, char *name, size_t len)
{
	int r = read_text(ctx, ACTIVE_FILE, name, len);

	if (r == 0)
		return -ENOENT;
	return r < 0 ? r : 0;
}
