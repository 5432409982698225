/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_OUTPUT_H
#define RCUQS_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

/* A table: the first row is the header; columns padded, last one not. */
struct table {
	size_t ncols, nrows, cap;
	char **cells;
};
int table_init(struct table *t, size_t ncols, ...);	/* header cells */
/* ncols cells, NULL shown as "-"; each through term_text(): give them raw. */
int table_row(struct table *t, ...);
void table_print(const struct table *t, FILE *f);
void table_free(struct table *t);

/* A JSON writer with commas handled; keys are NULL inside arrays. */
struct json {
	FILE *f;
	int depth;
	bool first[16];
};
/* Length of the valid UTF-8 sequence at p (RFC 3629), 0 if there is none. */
size_t utf8_len(const unsigned char *p);
/*
 * s for a terminal, malloc'd: control characters (C0, DEL, C1), bytes
 * that are not UTF-8 and '\\' as \xNN, so that no escape sequence in a
 * profile reaches it. NULL without memory.
 */
char *term_text(const char *s);
void json_string(FILE *f, const char *s);	/* quoted and escaped; NULL -> null */
void json_open(struct json *j, const char *key, char bracket);	/* '{' or '[' */
void json_close(struct json *j, char bracket);
void json_str(struct json *j, const char *key, const char *val);
void json_num(struct json *j, const char *key, const char *digits);	/* null if not a number */
/* val with at most 3 decimals; null when !have or val is not finite. */
void json_real(struct json *j, const char *key, double val, bool have);
void json_bool(struct json *j, const char *key, bool val);
void json_end(struct json *j);	/* newline after the top value */

/*
 * At exit, as coreutils' close_stdout(): flush and close stdout; when
 * anything written to it was lost (a full disk, an I/O error), say so and
 * return EXIT_FAIL in place of a success, else status unchanged.
 */
int close_stdout(int status);

#endif
