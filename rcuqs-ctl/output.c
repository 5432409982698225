// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output: aligned tables for people, JSON for programs.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "rcuqs.h"
#include "util.h"

static int add_cells(struct table *t, va_list ap)
{
	if (t->nrows == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 8;
		char **n = realloc(t->cells, nc * t->ncols * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->cells = n;
		t->cap = nc;
	}
	for (size_t i = 0; i < t->ncols; i++) {
		const char *s = va_arg(ap, const char *);
		char *c = term_text(s ? s : "-");	/* whatever a cell holds */

		if (!c) {
			for (size_t j = 0; j < i; j++)
				free(t->cells[t->nrows * t->ncols + j]);
			return -ENOMEM;
		}
		t->cells[t->nrows * t->ncols + i] = c;
	}
	t->nrows++;
	return 0;
}

int table_init(struct table *t, size_t ncols, ...)
{
	va_list ap;
	int r;

	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	va_start(ap, ncols);
	r = add_cells(t, ap);
	va_end(ap);
	return r;
}

int table_row(struct table *t, ...)
{
	va_list ap;
	int r;

	va_start(ap, t);
	r = add_cells(t, ap);
	va_end(ap);
	return r;
}

void table_print(const struct table *t, FILE *f)
{
	size_t w[16] = { 0 };

	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols && c < 16; c++) {
			size_t l = strlen(t->cells[r * t->ncols + c]);

			if (l > w[c])
				w[c] = l;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		size_t pad = 0;

		/* Padding is written only before a non-empty cell: no trailing blanks. */
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];

			if (*s) {
				fprintf(f, "%*s%s", (int)pad, "", s);
				pad = 0;
			}
			pad += (c < 16 ? w[c] : 0) - strlen(s) + 2;
		}
		fputc('\n', f);
	}
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

char *term_text(const char *s)
{
	char *out = malloc(strlen(s) * 4 + 1), *o = out;

	if (!out)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		size_t n = utf8_len(p);
		bool c1 = n == 2 && p[0] == 0xc2 && p[1] < 0xa0;

		if (n == 0 || c1 || *p < 0x20 || *p == 0x7f || *p == '\\') {
			o += sprintf(o, "\\x%02x", *p);
			continue;
		}
		memcpy(o, p, n);
		o += n;
		p += n - 1;
	}
	*o = '\0';
	return out;
}

size_t utf8_len(const unsigned char *p)
{
	size_t n;
	unsigned int c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/* Quoted and escaped; a byte that is not UTF-8 becomes U+FFFD. */
void json_string(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(f, "\\u%04x", *p);
			} else {
				size_t n = utf8_len(p);

				if (n == 0) {
					fputs("\\ufffd", f);
				} else {
					fwrite(p, 1, n, f);
					p += n - 1;
				}
			}
		}
	}
	fputc('"', f);
}

static void json_key(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		j->first[j->depth] = false;
	}
	if (key) {
		json_string(j->f, key);
		fputc(':', j->f);
	}
}

void json_open(struct json *j, const char *key, char bracket)
{
	json_key(j, key);
	fputc(bracket, j->f);
	if (j->depth < 15)
		j->first[++j->depth] = true;
}

void json_close(struct json *j, char bracket)
{
	fputc(bracket, j->f);
	if (j->depth > 0)
		j->depth--;
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_key(j, key);
	json_string(j->f, val);
}

void json_num(struct json *j, const char *key, const char *digits)
{
	bool num = digits && *digits && strspn(digits, "0123456789") == strlen(digits);

	json_key(j, key);
	fputs(num ? digits : "null", j->f);
}

void json_real(struct json *j, const char *key, double val, bool have)
{
	json_key(j, key);
	if (have && isfinite(val))	/* JSON has no inf or nan */
		fprintf(j->f, "%.3f", val);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, bool val)
{
	json_key(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_end(struct json *j)
{
	fputc('\n', j->f);
}

int close_stdout(int status)
{
	bool lost = ferror(stdout) != 0, pending = __fpending(stdout) != 0;
	int r = 0;

	errno = 0;
	if (fclose(stdout) != 0)
		r = errno;
	/* As close_stream(): a stdout closed (>&-) that got nothing is fine. */
	if (!lost && (!r || (r == EBADF && !pending)))
		return status;
	if (r)
		errmsg("write error on standard output: %s", strerror(r));
	else
		errmsg("write error on standard output");
	/* A command's own failure (a drift, a partial change) says more. */
	return status == EXIT_OK ? EXIT_FAIL : status;
}
