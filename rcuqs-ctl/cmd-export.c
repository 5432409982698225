// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * export: a profile in another tool's format, for fleets that apply
 * settings with the engine they already run. One format: tuned, one
 * profile directory per profile of the include chain, "rcuqs-NAME", so
 * that include= keeps its meaning and no name clashes with tuned's own
 * profiles (tuned ships a "default" too).
 *
 * The output directory is the user's, not below --root, and is treated
 * as the rest of the tool treats files: no link followed where none is
 * expected, every tuned.conf written aside and renamed into place, all of
 * them or none, and a directory that an export did not write is left
 * alone unless --force says otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootcfg.h"
#include "cmd.h"
#include "here.h"
#include "output.h"
#include "profile.h"
#include "util.h"

#define TUNED_PREFIX "rcuqs-"
#define TUNED_CONF "tuned.conf"
/* The first line of every tuned.conf an export writes: how it knows its own. */
#define EXPORT_MARK "# Written by rcuqs-ctl export"

/* One profile of the chain, loaded on its own, and its tuned profile. */
struct level {
	char name[72];		/* the rcuqs profile */
	char tuned[80];		/* TUNED_PREFIX name */
	struct profile p;	/* its settings after its own includes */
	size_t nown;		/* files of its own at the top of p.files */
	char *args;		/* boot_args(&p) */
	char *conf;		/* the tuned.conf */
	char dir[PATH_MAX];	/* OUTPUT/rcuqs-NAME */
	char file[PATH_MAX];	/* .../tuned.conf */
	int dfd;		/* its directory, once opened; -1 before */
	bool made, existed, tmp, committed;
};

/* NAME of "/etc/rcuqs/profiles/NAME.profile". */
static void file_name(const char *file, char *name, size_t len)
{
	const char *base = strrchr(file, '/') + 1;

	snprintf(name, len, "%.*s", (int)(strlen(base) - strlen(PROFILE_SUFFIX)), base);
}

/*
 * A description as one tuned.conf value: valid UTF-8 (tuned reads the
 * file as such and refuses the whole profile otherwise), no control
 * characters (a CR would end the line), and no '#', which after a blank
 * starts a comment for tuned: it becomes U+FF03, the fullwidth '#'.
 */
static void put_summary(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		size_t n = utf8_len(p);

		if (n == 0)
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
		else if (*p == '#')
			fputs("\xef\xbc\x83", f);	/* U+FF03 */
		else if (*p < 0x20 || *p == 0x7f)
			fputc(' ', f);
		else
			fwrite(p, 1, n, f);
		if (n > 1)
			p += n - 1;
	}
}

/* Whether setting i of level lv comes from lv's own files. */
static bool own_setting(const struct level *lv, size_t i)
{
	const struct setting *s = &lv->p.set[i];

	for (size_t k = 0; k < lv->nown; k++)
		if (s->value[0] && s->file == lv->p.files[k])
			return true;
	return false;
}

/*
 * [sysfs] of level lv: its own runtime settings, a line of alternatives
 * together with a comment on what tuned makes of it, and drop= for what
 * its include sets and lv no longer does (a line of lv replaced a line
 * of alternatives of the include: rcuqs.profile(5)).
 */
static void tuned_sysfs(FILE *f, const struct level *lv, const struct level *next)
{
	bool any = false, said[N_TUNABLES] = { false };
	const char *sep = "drop=";

	for (size_t i = 0; next && i < N_TUNABLES; i++) {
		if (!tunable_runtime(&tunables[i]) || !next->p.set[i].value[0] ||
		    lv->p.set[i].value[0])
			continue;
		if (!any)
			fputs("\n[sysfs]\n# Set by an included profile; a line here that does not\n"
			      "# name it replaced its line of alternatives:\n", f);
		any = true;
		fprintf(f, "%s/sys/%s", sep, tunables[i].sysfs);
		sep = ",";
	}
	if (any)
		fputc('\n', f);
	for (size_t i = 0; i < N_TUNABLES; i++) {
		const struct setting *s = &lv->p.set[i];
		size_t idx[N_TUNABLES], n = 1;

		if (said[i] || !own_setting(lv, i) || !tunable_runtime(&tunables[i]))
			continue;
		if (!any)
			fputs("\n[sysfs]\n", f);
		any = true;
		idx[0] = i;
		if (s->nalt > 1) {
			n = profile_line_of(&lv->p, i, idx);
			fprintf(f, "# Alternatives of %s:%d:\n"
				"# rcuqs-ctl writes the first the kernel has; tuned writes each\n"
				"# the kernel has and skips the others without a word.\n",
				s->file, s->line);
		}
		for (size_t a = 0; a < n; a++) {
			fprintf(f, "/sys/%s=%s\n", tunables[idx[a]].sysfs, lv->p.set[idx[a]].value);
			said[idx[a]] = true;
		}
	}
}

/*
 * The tuned.conf of level lv, whose include is next (NULL at the end of
 * the chain): its own settings in [sysfs] (runtime) and, where its boot
 * form differs from its include's, the whole of it in [bootloader].
 */
static char *tuned_conf(const struct level *lv, const struct level *next)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, EXPORT_MARK " from rcuqs profile '%s':\n", lv->name);
	for (size_t i = 0; i < lv->nown; i++)
		fprintf(f, "#   %s\n", lv->p.files[i]);
	fputs("# Export it again rather than edit. How the settings map to tuned,\n"
	      "# and what tuned cannot do: rcuqs-ctl(8).\n"
	      "\n[main]\n", f);
	if (lv->p.description) {
		fputs("summary=", f);
		put_summary(f, lv->p.description);
		fputc('\n', f);
	}
	if (next)
		fprintf(f, "include=%s\n", next->tuned);
	tuned_sysfs(f, lv, next);
	/*
	 * One cmdline_rcuqs option holding the whole boot form: the including
	 * profile's replaces the included one's, as its settings do.
	 */
	if (strcmp(lv->args, next ? next->args : "") != 0)
		fprintf(f, "\n[bootloader]\ncmdline_rcuqs=%s\n", lv->args);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Whether the file open on fd starts with EXPORT_MARK: 1 or 0; closes fd. */
static int starts_with_mark(int fd)
{
	char head[sizeof(EXPORT_MARK) - 1];
	size_t got = 0;

	while (got < sizeof(head)) {
		ssize_t k = read(fd, head + got, sizeof(head) - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fd);
	return got == sizeof(head) && memcmp(head, EXPORT_MARK, sizeof(head)) == 0;
}

/* Whether file starts with EXPORT_MARK: 1, 0 (or missing), or -errno. */
static int is_export(const struct rcuqs_ctx *out, const char *file)
{
	int fd = open_regular(out, file, O_RDONLY, NULL);

	if (fd == -ENOENT)
		return 0;
	return fd < 0 ? fd : starts_with_mark(fd);
}

/* The same for tuned.conf in the directory open on dfd, no link followed. */
static int is_export_at(int dfd)
{
	int fd = openat(dfd, TUNED_CONF, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	return starts_with_mark(fd);
}

/*
 * The target directory: absent (pending_prepare() makes it), or a
 * directory of the caller's, not a link, holding a tuned.conf that an
 * export wrote (any directory of the caller's with --force). -EEXIST,
 * saying why, when it is refused.
 */
static int check_dir(const struct rcuqs_ctx *out, const struct level *lv, bool force)
{
	struct stat st;
	int r;

	if (lstat(lv->dir, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		r = -errno;
		errmsg("%s: %s", lv->dir, errstr(r));
		return r;
	}
	if (S_ISLNK(st.st_mode)) {
		errmsg("%s: %s", lv->dir, errstr(-ELOOP));
		return -EEXIST;
	}
	if (!S_ISDIR(st.st_mode)) {
		errmsg("%s: exists and is not a directory", lv->dir);
		return -EEXIST;
	}
	if (st.st_uid != geteuid()) {
		errmsg("%s: owned by uid %u, not by the caller: refused", lv->dir,
		       (unsigned)st.st_uid);
		return -EEXIST;
	}
	r = is_export(out, lv->file);
	if (r < 0) {
		errmsg("%s: %s", lv->file, errstr(r));
		return -EEXIST;
	}
	if (r == 1 || force)
		return 0;
	errmsg("%s: not written by rcuqs-ctl export (%s %s): refused without --force",
	       lv->dir, lv->file, access(lv->file, F_OK) == 0 ? "is not an export" : "is missing");
	return -EEXIST;
}

/*
 * Write lv->conf as OUTPUT/rcuqs-NAME/tuned.conf through directory
 * handles: the directory made with mkdirat() or opened with O_NOFOLLOW
 * below the output directory's handle, checked again on that handle (the
 * caller's, an export's tuned.conf or --force), the file written aside
 * with O_NOFOLLOW and renamed in place within it. A link planted after
 * check_dir() is refused, never followed.
 */
#define TUNED_NEW TUNED_CONF ".rcuqs-new"
#define TUNED_OLD TUNED_CONF ".rcuqs-old"

static int level_prepare(int outfd, struct level *l, bool force)
{
	struct stat st;
	int fd, r;

	fault_point();
	if (mkdirat(outfd, l->tuned, 0755) == 0)
		l->made = true;
	else if (errno != EEXIST)
		return -errno;
	fault_point();
	l->dfd = openat(outfd, l->tuned, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (l->dfd < 0)
		return errno == ENOTDIR ? -ELOOP : -errno;
	if (fstat(l->dfd, &st) < 0)
		return -errno;
	if (st.st_uid != geteuid())
		return -EPERM;
	/* The documented modes, whatever the umask: 0755, and 0644 below. */
	if (l->made && fchmod(l->dfd, 0755) < 0)
		return -errno;
	if (!l->made && !force && is_export_at(l->dfd) != 1)
		return -EEXIST;	/* changed since check_dir() */
	fd = openat(l->dfd, TUNED_CONF, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		r = check_replaceable(fd, &st);
		close(fd);
		if (r < 0)
			return r;
		l->existed = true;
	} else if (errno != ENOENT) {
		return errno == ENXIO ? -E_NOTREG : -errno;
	}
	unlinkat(l->dfd, TUNED_NEW, 0);	/* a leftover from a crash */
	fault_point();
	fd = openat(l->dfd, TUNED_NEW, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	l->tmp = true;
	r = fchmod(fd, l->existed ? st.st_mode & 07777 : 0644) < 0 ? -errno : 0;
	if (r == 0)
		r = write_fd(fd, l->conf, strlen(l->conf));
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

static int level_commit(struct level *l)
{
	if (l->existed) {
		unlinkat(l->dfd, TUNED_OLD, 0);
		fault_point();
		if (linkat(l->dfd, TUNED_CONF, l->dfd, TUNED_OLD, 0) < 0)
			return -errno;
	}
	fault_point();
	if (renameat(l->dfd, TUNED_NEW, l->dfd, TUNED_CONF) < 0)
		return -errno;
	fsync(l->dfd);
	l->tmp = false;
	l->committed = true;
	return 0;
}

/* Undo what level_prepare() and level_commit() did; only the kept copy stays on success. */
static void level_end(int outfd, struct level *l, bool ok)
{
	if (l->dfd < 0) {
		if (!ok && l->made)
			unlinkat(outfd, l->tuned, AT_REMOVEDIR);
		return;
	}
	if (!ok && l->committed) {
		fault_point();
		if (l->existed ? renameat(l->dfd, TUNED_OLD, l->dfd, TUNED_CONF) < 0 :
				 unlinkat(l->dfd, TUNED_CONF, 0) < 0)
			errmsg("cannot restore %s: %s", l->file, errstr(-errno));
	}
	if (ok && l->existed)
		unlinkat(l->dfd, TUNED_OLD, 0);
	if (l->tmp)
		unlinkat(l->dfd, TUNED_NEW, 0);
	close(l->dfd);
	l->dfd = -1;
	if (!ok && l->made)
		unlinkat(outfd, l->tuned, AT_REMOVEDIR);
}

static int write_all_levels(int outfd, struct level *lv, size_t n, bool force)
{
	size_t i;
	int r = 0;

	for (i = 0; i < n && r == 0; i++)
		if ((r = level_prepare(outfd, &lv[i], force)) < 0)
			errmsg("cannot write %s: %s", lv[i].file, r == -EEXIST ?
			       "changed while exporting: refused" : r == -EPERM ?
			       "the directory is not the caller's" : errstr(r));
	for (i = 0; i < n && r == 0; i++)
		if ((r = level_commit(&lv[i])) < 0)
			errmsg("cannot write %s: %s", lv[i].file, errstr(r));
	/* All or none: those already renamed into place are put back. */
	for (i = 0; i < n; i++)
		level_end(outfd, &lv[i], r == 0);
	return r;
}

static void report(const struct rcuqs_ctx *ctx, const char *outdir, const struct level *lv,
		   size_t n)
{
	struct json j = { .f = stdout };

	if (!ctx->json) {
		for (size_t i = 0; i < n; i++) {
			printf("%s: %s", lv[i].tuned, lv[i].file);
			if (i + 1 < n)
				printf(" (include=%s)", lv[i + 1].tuned);
			printf("\n");
		}
		printf("to use: copy %s to /etc/tuned/, then run 'tuned-adm profile %s'\n",
		       n > 1 ? "these directories" : "this directory", lv[0].tuned);
		return;
	}
	json_open(&j, NULL, '{');
	json_str(&j, "profile", lv[0].name);
	json_str(&j, "format", "tuned");
	json_str(&j, "directory", outdir);
	json_open(&j, "tuned_profiles", '[');
	for (size_t i = 0; i < n; i++) {
		json_open(&j, NULL, '{');
		json_str(&j, "name", lv[i].tuned);
		json_str(&j, "from", lv[i].name);
		json_str(&j, "file", lv[i].file);
		json_str(&j, "include", i + 1 < n ? lv[i + 1].tuned : NULL);
		json_str(&j, "cmdline", lv[i].args);
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_close(&j, '}');
	json_end(&j);
}

static int do_export(struct rcuqs_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	const struct rcuqs_ctx out = { .root = "", .json = ctx->json };
	const char *format = NULL, *outdir = ".";
	struct dir_made out_dir = { .fd = -1 };
	struct level *lv = NULL;
	bool force = false;
	size_t n = 0;
	int c, r;

	optind = 0;	/* a fresh scan of the command's own arguments */
	while ((c = getopt_long(argc, argv, ":o:f", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			format = optarg;
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'f':
			force = true;
			break;
		case ':':
			errmsg("export: option '%s' needs an argument", argv[optind - 1]);
			return usage_error();
		default:
			errmsg("export: unknown option '%s'", argv[optind - 1]);
			return usage_error();
		}
	}
	if (!format) {
		errmsg("export: missing --format (the only format is 'tuned')");
		return usage_error();
	}
	if (strcmp(format, "tuned") != 0) {
		char q[QUOTE_BUF];

		errmsg("export: unknown format '%s' (the only format is 'tuned')", quote(format, q));
		return usage_error();
	}
	if (optind >= argc) {
		errmsg("export: missing argument");
		return usage_error();
	}
	if (optind + 1 < argc) {
		errmsg("export: unexpected argument '%s'", argv[optind + 1]);
		return usage_error();
	}
	if (outdir[0] == '\0') {
		errmsg("export: empty output directory name");
		return usage_error();
	}
	if (profile_name_check(argv[optind]) < 0)
		return EXIT_USAGE;

	lv = calloc(PROFILE_MAX_DEPTH, sizeof(*lv));
	if (!lv)
		return EXIT_FAIL;
	/* The chain, from the named profile's files; a file that includes a
	 * profile of its own name (an /etc override extending the shipped
	 * one) belongs to the same level. */
	r = profile_load(ctx, argv[optind], &lv[0].p);
	for (size_t k = 0; r == 0 && k < lv[0].p.nfiles; k++) {
		char name[72];

		file_name(lv[0].p.files[k], name, sizeof(name));
		if (n > 0 && strcmp(name, lv[n - 1].name) == 0)
			continue;
		strcpy(lv[n++].name, name);
	}
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct level *l = &lv[i];
		char base[72];

		if (i > 0)
			r = profile_load(ctx, l->name, &l->p);
		if (r < 0)
			break;
		while (l->nown < l->p.nfiles &&
		       (file_name(l->p.files[l->nown], base, sizeof(base)),
			strcmp(base, l->name) == 0))
			l->nown++;
		l->dfd = -1;
		snprintf(l->tuned, sizeof(l->tuned), TUNED_PREFIX "%s", l->name);
		if (snprintf(l->dir, sizeof(l->dir), "%s/%s", outdir, l->tuned) >=
		    (int)sizeof(l->dir) ||
		    snprintf(l->file, sizeof(l->file), "%s/" TUNED_CONF, l->dir) >=
		    (int)sizeof(l->file)) {
			errmsg("output directory name too long");
			r = -ENAMETOOLONG;
			break;
		}
		l->args = boot_args(&l->p);
		if (!l->args)
			r = -ENOMEM;
	}
	for (size_t i = n; r == 0 && i-- > 0;) {
		lv[i].conf = tuned_conf(&lv[i], i + 1 < n ? &lv[i + 1] : NULL);
		if (!lv[i].conf)
			r = -ENOMEM;
	}
	/*
	 * The output directory as named, a link included, made as install -d
	 * makes it when missing (only now: a bad profile makes nothing); below
	 * it, no link is followed. What was made goes again when the export
	 * fails.
	 */
	if (r == 0)
		r = dir_make(outdir, "output directory", &out_dir);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = check_dir(&out, &lv[i], force);
	if (r == 0)
		r = write_all_levels(out_dir.fd, lv, n, force);
	if (r == 0)
		report(ctx, outdir, lv, n);
	else
		dir_made_undo(&out_dir);
	dir_made_close(&out_dir);
	for (size_t i = 0; i < PROFILE_MAX_DEPTH; i++) {
		profile_free(&lv[i].p);
		free(lv[i].args);
		free(lv[i].conf);
	}
	free(lv);
	/*
	 * A bad profile is bad input; anything about the output (a target
	 * refused, a file not written, whoever the caller) is a failure.
	 */
	return r == 0 ? EXIT_OK : r == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
}

const struct command cmd_export = {
	"export", do_export, "--format tuned [--output DIR] [--force] NAME",
	"write NAME and its includes as tuned profiles", "--format -o --output",
};
