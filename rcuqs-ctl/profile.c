// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Profiles: find (/etc over /usr/lib, /dev/null masks), parse, include,
 * validate. Nothing here touches the kernel; a profile that loads is one
 * every value of which the tool accepts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile.h"
#include "util.h"

static int name_path(const char *dir, const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s%s", dir, name, PROFILE_SUFFIX);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* A link to /dev/null, spelt with any number of leading slashes. */
static bool is_mask(const char *path)
{
	char target[64];
	const char *t = target;
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		return false;
	target[n] = '\0';
	while (t[0] == '/' && t[1] == '/')
		t++;
	return strcmp(t, "/dev/null") == 0;
}

int profile_locate(const struct rcuqs_ctx *ctx, const char *name,
		   enum profile_where *where, char *path, size_t len)
{
	char etc[PATH_MAX], usr[PATH_MAX], full[PATH_MAX];
	struct stat st;
	bool have_usr;
	int r;

	*where = PROFILE_NONE;
	if (len)
		path[0] = '\0';	/* no profile: no path, never a caller's stale one */
	if ((r = name_path(PROFILE_DIR_ETC, name, etc, sizeof(etc))) < 0 ||
	    (r = name_path(PROFILE_DIR_USR, name, usr, sizeof(usr))) < 0)
		return r;

	if ((r = root_path(ctx, usr, full, sizeof(full))) < 0)
		return r;
	have_usr = lstat(full, &st) == 0;

	if ((r = root_path(ctx, etc, full, sizeof(full))) < 0)
		return r;
	if (lstat(full, &st) == 0) {
		if (S_ISLNK(st.st_mode) && is_mask(full))
			*where = PROFILE_MASKED;
		else
			*where = have_usr ? PROFILE_OVERRIDE : PROFILE_ETC;
		if (strlen(etc) >= len)
			return -ENAMETOOLONG;
		strcpy(path, etc);
		return 0;
	}
	if (have_usr) {
		*where = PROFILE_USR;
		if (strlen(usr) >= len)
			return -ENAMETOOLONG;
		strcpy(path, usr);
	}
	return 0;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' ||
			   end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* The include chain being loaded: names for messages, files for loops. */
struct chain {
	const char *names[PROFILE_MAX_DEPTH];
	const char *files[PROFILE_MAX_DEPTH];
	size_t depth;
};

/* Report an include problem at the including line, or plainly for the top. */
#define where_err(from_file, from_line, fmt, ...)				\
	do {									\
		if (from_file)							\
			errmsg("%s:%d: " fmt, from_file, from_line, __VA_ARGS__); \
		else								\
			errmsg(fmt, __VA_ARGS__);				\
	} while (0)

/*
 * One alternative of a setting line: its tunable, after the checks that
 * need only the line. Said why, naming file and line, when refused.
 */
static const struct tunable *alternative(const char *file, int lineno, const char *key,
					 const char *value, const struct setting own[N_TUNABLES],
					 const struct tunable *const *before, int n)
{
	const struct tunable *t = tunable_find(key);
	char q[QUOTE_BUF];

	if (!t) {
		if (n > 0 && (strcmp(key, "description") == 0 || strcmp(key, "include") == 0))
			errmsg("%s:%d: '%s' cannot be an alternative: only runtime parameters can",
			       file, lineno, key);
		else
			errmsg("%s:%d: unknown key '%s'", file, lineno, quote(key, q));
		return NULL;
	}
	for (int k = 0; k < n; k++) {
		if (before[k] == t) {
			errmsg("%s:%d: %s is an alternative twice", file, lineno, t->name);
			return NULL;
		}
	}
	if (own[tunable_index(t)].value[0]) {
		errmsg("%s:%d: duplicate key '%s' (first on line %d)", file, lineno, t->name,
		       own[tunable_index(t)].line);
		return NULL;
	}
	if (strlen(value) >= VALUE_MAX || tunable_check(t, value) < 0) {
		errmsg("%s:%d: bad value '%s' for %s: expected %s", file, lineno, quote(value, q),
		       t->name, t->range);
		return NULL;
	}
	return t;
}

/*
 * A setting line, key and value already split at the first '=': one
 * "KEY=VALUE", or alternatives "KEY=VALUE || KEY=VALUE ..." of runtime
 * parameters (the first the kernel has acts: here.c). Into own[].
 */
static int parse_setting(const char *file, int lineno, char *key, char *value,
			 struct setting own[N_TUNABLES])
{
	const struct tunable *alt[N_TUNABLES];
	char *val[N_TUNABLES];
	int n = 0;

	if (strncmp(key, ALT_SEP, strlen(ALT_SEP)) == 0) {
		errmsg("%s:%d: missing alternative before '" ALT_SEP "'", file, lineno);
		return -EINVAL;
	}
	if (strstr(key, ALT_SEP)) {
		errmsg("%s:%d: missing '=' before '" ALT_SEP "'", file, lineno);
		return -EINVAL;
	}
	for (;;) {
		char *sep = strstr(value, ALT_SEP), *eq, *next;

		if (sep)
			*sep = '\0';
		value = trim(value);
		if (!(alt[n] = alternative(file, lineno, key, value, own, alt, n)))
			return -EINVAL;
		val[n++] = value;
		if (!sep)
			break;
		key = trim(sep + strlen(ALT_SEP));
		if (*key == '\0') {
			errmsg("%s:%d: missing alternative after '" ALT_SEP "'", file, lineno);
			return -EINVAL;
		}
		eq = strchr(key, '=');
		next = strstr(key, ALT_SEP);
		if (!eq || (next && next < eq)) {
			char q[QUOTE_BUF];

			if (next)
				*next = '\0';
			errmsg("%s:%d: missing '=' in alternative '%s'", file, lineno,
			       quote(trim(key), q));
			return -EINVAL;
		}
		*eq = '\0';
		key = trim(key);
		value = eq + 1;
		if (*key == '\0') {
			errmsg("%s:%d: missing key before '=' in an alternative", file, lineno);
			return -EINVAL;
		}
	}
	for (int k = 0; n > 1 && k < n; k++) {
		if (!tunable_runtime(alt[k])) {
			errmsg("%s:%d: %s is boot-only: only runtime parameters can be "
			       "alternatives (whether a kernel has them is seen in /sys)", file,
			       lineno, alt[k]->name);
			return -EINVAL;
		}
	}
	for (int k = 0; k < n; k++) {
		struct setting *s = &own[tunable_index(alt[k])];

		strcpy(s->value, val[k]);	/* alternative() bounds it */
		s->line = lineno;
		s->alt = k;
		s->nalt = n;
	}
	return 0;
}

/*
 * Whether a description holds "|| KEY=" with KEY a known tunable: a
 * setting written as an alternative of the description, which would be
 * lost as text. Any other "||" is text, as 0.2 read it ("fast || safe").
 */
static bool setting_in_text(const char *value)
{
	for (const char *p = strstr(value, ALT_SEP); p; p = strstr(p + 1, ALT_SEP)) {
		const char *k = p + strlen(ALT_SEP);
		char key[128];
		size_t n;

		k += strspn(k, " \t");
		n = strcspn(k, "= \t");
		if (n == 0 || n >= sizeof(key) || k[n + strspn(k + n, " \t")] != '=')
			continue;
		memcpy(key, k, n);
		key[n] = '\0';
		if (tunable_find(key))
			return true;
	}
	return false;
}

/* Parse one file; its own settings land in own[], include name in inc. */
static int parse_file(FILE *f, const char *file, struct setting own[N_TUNABLES],
		      char **description, int *desc_line, char *inc, int *inc_line)
{
	char *line = NULL, q[QUOTE_BUF];
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, r = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		char *key, *value, *eq;

		lineno++;
		if (len > PROFILE_LINE_MAX) {
			errmsg("%s:%d: line longer than %d bytes", file, lineno, PROFILE_LINE_MAX);
			r = -EINVAL;
			break;
		}
		if (memchr(line, '\0', (size_t)len)) {
			errmsg("%s:%d: NUL byte in line", file, lineno);
			r = -EINVAL;
			break;
		}
		key = trim(line);
		if (*key == '\0' || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			errmsg("%s:%d: missing '=' in '%s'", file, lineno, quote(key, q));
			r = -EINVAL;
			break;
		}
		*eq = '\0';
		key = trim(key);
		value = trim(eq + 1);
		if (*key == '\0') {
			errmsg("%s:%d: missing key before '='", file, lineno);
			r = -EINVAL;
			break;
		}
		if ((strcmp(key, "description") == 0 && setting_in_text(value)) ||
		    (strcmp(key, "include") == 0 && strstr(value, ALT_SEP))) {
			/* Not text: a setting written as its alternative would be lost. */
			errmsg("%s:%d: '%s' cannot have alternatives ('" ALT_SEP "'): only runtime "
			       "parameters can", file, lineno, key);
			r = -EINVAL;
			break;
		}
		if (strcmp(key, "description") == 0) {
			if (*description) {
				errmsg("%s:%d: duplicate key 'description' (first on line %d)",
				       file, lineno, *desc_line);
				r = -EINVAL;
				break;
			}
			if (*value == '\0') {
				errmsg("%s:%d: empty description", file, lineno);
				r = -EINVAL;
				break;
			}
			*description = strdup(value);
			if (!*description) {
				r = -ENOMEM;
				break;
			}
			*desc_line = lineno;
			continue;
		}
		if (strcmp(key, "include") == 0) {
			if (*inc) {
				errmsg("%s:%d: duplicate key 'include' (first on line %d)",
				       file, lineno, *inc_line);
				r = -EINVAL;
				break;
			}
			if (!valid_name(value)) {
				errmsg("%s:%d: invalid profile name '%s' in include", file,
				       lineno, quote(value, q));
				r = -EINVAL;
				break;
			}
			strcpy(inc, value);	/* valid_name() bounds it */
			*inc_line = lineno;
			continue;
		}
		if ((r = parse_setting(file, lineno, key, value, own)) < 0)
			break;
	}
	if (r == 0 && ferror(f))
		r = -EIO;
	free(line);
	return r;
}

/*
 * Load profile name into p. shipped: take the /usr/lib file even though
 * /etc overrides it; that is what "include=NAME" means inside
 * /etc/rcuqs/profiles/NAME.profile (extend the shipped profile).
 */
static int load_one(const struct rcuqs_ctx *ctx, const char *name, bool shipped,
		    struct chain *chain, struct profile *p, const char *from_file, int from_line)
{
	struct setting own[N_TUNABLES];
	char rel[PATH_MAX], inc[72] = "";
	char *description = NULL, *file;
	enum profile_where where;
	int desc_line = 0, inc_line = 0, fd, r;
	FILE *f;

	if (chain->depth == PROFILE_MAX_DEPTH) {
		where_err(from_file, from_line, "include of '%s' exceeds the depth of %d files",
			  name, PROFILE_MAX_DEPTH);
		return -EINVAL;
	}

	r = profile_locate(ctx, name, &where, rel, sizeof(rel));
	if (r < 0)
		return r;
	if (shipped) {
		if ((r = name_path(PROFILE_DIR_USR, name, rel, sizeof(rel))) < 0)
			return r;
		where = PROFILE_USR;
	}
	for (size_t i = 0; i < chain->depth; i++) {
		if (strcmp(chain->files[i], rel) == 0) {
			char loop[PROFILE_MAX_DEPTH * 72 + 8] = "";

			for (size_t j = i; j < chain->depth; j++) {
				strcat(loop, chain->names[j]);
				strcat(loop, " -> ");
			}
			strcat(loop, name);
			where_err(from_file, from_line, "include loop: %s", loop);
			return -EINVAL;
		}
	}
	switch (where) {
	case PROFILE_NONE:
		if (from_file)
			errmsg("%s:%d: includes unknown profile '%s'", from_file, from_line, name);
		else
			errmsg("unknown profile '%s' (not in %s or %s)", name,
			       PROFILE_DIR_ETC, PROFILE_DIR_USR);
		return -EINVAL;
	case PROFILE_MASKED:
		if (from_file)
			errmsg("%s:%d: includes masked profile '%s' (%s -> /dev/null)",
			       from_file, from_line, name, rel);
		else
			errmsg("profile '%s' is masked (%s -> /dev/null)", name, rel);
		return -EINVAL;
	default:
		break;
	}

	fd = open_trusted(ctx, rel, "profile");
	if (fd == -ENOENT)
		errmsg("%s: %s", rel, errstr(fd));
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		r = -errno;
		close(fd);
		return r;
	}

	file = strdup(rel);
	if (!file) {
		fclose(f);
		return -ENOMEM;
	}
	p->files[p->nfiles++] = file;	/* depth check above bounds nfiles */

	memset(own, 0, sizeof(own));
	r = parse_file(f, file, own, &description, &desc_line, inc, &inc_line);
	fclose(f);
	if (r < 0)
		goto out;

	if (inc[0]) {
		chain->names[chain->depth] = name;
		chain->files[chain->depth++] = file;
		r = load_one(ctx, inc, strcmp(inc, name) == 0 && where == PROFILE_OVERRIDE,
			     chain, p, file, inc_line);
		chain->depth--;
		if (r < 0)
			goto out;
	}
	/*
	 * This file's settings after its include's: later wins, and a line
	 * replaces every earlier line that names any of its parameters, all
	 * of that line's alternatives with it.
	 */
	for (size_t i = 0; i < N_TUNABLES; i++) {
		const struct setting old = p->set[i];

		if (!own[i].value[0] || !old.value[0])
			continue;
		for (size_t k = 0; k < N_TUNABLES; k++)
			if (p->set[k].value[0] && p->set[k].file == old.file &&
			    p->set[k].line == old.line)
				memset(&p->set[k], 0, sizeof(p->set[k]));
	}
	for (size_t i = 0; i < N_TUNABLES; i++) {
		if (own[i].value[0]) {
			p->set[i] = own[i];
			p->set[i].file = file;
		}
	}
	if (description) {
		free(p->description);
		p->description = description;
		description = NULL;
	}
out:
	free(description);
	return r;
}

int profile_name_check(const char *name)
{
	char q[QUOTE_BUF];

	if (valid_name(name))
		return 0;
	errmsg("invalid profile name '%s': use letters, digits, '_', '-', '.' "
	       "(not first '.' or '-')", quote(name, q));
	return -EINVAL;
}

int profile_load(const struct rcuqs_ctx *ctx, const char *name, struct profile *p)
{
	struct chain chain = { .depth = 0 };
	int r;

	memset(p, 0, sizeof(*p));
	if ((r = profile_name_check(name)) < 0)
		return r;
	p->name = strdup(name);
	if (!p->name)
		return -ENOMEM;
	return load_one(ctx, name, false, &chain, p, NULL, 0);
}

void profile_free(struct profile *p)
{
	free(p->name);
	free(p->description);
	for (size_t i = 0; i < p->nfiles; i++)
		free(p->files[i]);
	memset(p, 0, sizeof(*p));
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct profile_entry *)a)->name,
		      ((const struct profile_entry *)b)->name);
}

static int scan_dir(const struct rcuqs_ctx *ctx, const char *abs,
		    struct profile_entry **v, size_t *n, size_t *cap)
{
	char full[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int r;

	if ((r = root_path(ctx, abs, full, sizeof(full))) < 0)
		return r;
	d = opendir(full);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), sl = strlen(PROFILE_SUFFIX);
		char name[72];
		bool dup = false;

		if (len <= sl || len - sl >= sizeof(name) ||
		    strcmp(de->d_name + len - sl, PROFILE_SUFFIX) != 0)
			continue;
		memcpy(name, de->d_name, len - sl);
		name[len - sl] = '\0';
		if (!valid_name(name))
			continue;
		for (size_t i = 0; i < *n; i++)
			if (strcmp((*v)[i].name, name) == 0)
				dup = true;
		if (dup)
			continue;
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 16;
			struct profile_entry *nv = realloc(*v, nc * sizeof(*nv));

			if (!nv) {
				closedir(d);
				return -ENOMEM;
			}
			*v = nv;
			*cap = nc;
		}
		strcpy((*v)[*n].name, name);
		r = profile_locate(ctx, name, &(*v)[*n].where, (*v)[*n].path,
				   sizeof((*v)[*n].path));
		if (r < 0) {
			closedir(d);
			return r;
		}
		(*n)++;
	}
	closedir(d);
	return 0;
}

int profile_list(const struct rcuqs_ctx *ctx, struct profile_entry **out, size_t *n)
{
	size_t cap = 0;
	int r;

	*out = NULL;
	*n = 0;
	r = scan_dir(ctx, PROFILE_DIR_ETC, out, n, &cap);
	if (r == 0)
		r = scan_dir(ctx, PROFILE_DIR_USR, out, n, &cap);
	if (r < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		return r;
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), entry_cmp);
	return 0;
}
