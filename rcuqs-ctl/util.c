// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small helpers: messages, root-relative paths, small text files, atomic
 * file replacement.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#ifdef RCUQS_FAULT_INJECTION
void fault_point(void)
{
	static long steps;
	const char *at = getenv("RCUQS_CRASH_AT"), *run = getenv("RCUQS_CRASH_RUN");

	if (!at || ++steps != atol(at))
		return;
	if (!run)
		raise(SIGKILL);
	else if (system(run) != 0)
		errmsg("RCUQS_CRASH_RUN failed");
}
#endif

void errmsg(const char *fmt, ...)
{
	va_list ap;

	fputs(PROGRAM ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *errstr(int r)
{
	switch (-r) {
	case E_NOTREG:
		return "not a regular file";
	case E_IMMUTABLE:
		return "immutable or append-only file (see lsattr)";
	case ELOOP:
		return "a symbolic link, not followed";
	default:
		return strerror(-r);
	}
}

const char *quote(const char *s, char buf[QUOTE_BUF])
{
	char *o = buf;
	size_t i;

	for (i = 0; s[i] && i < QUOTE_MAX; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch < 0x20 || ch >= 0x7f || ch == '\\' || ch == '\'')
			o += sprintf(o, "\\x%02x", ch);
		else
			*o++ = (char)ch;
	}
	strcpy(o, s[i] ? "..." : "");
	return buf;
}

int root_path(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s", ctx->root, abs);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

void rstrip(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' ||
			 s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

int open_regular(const struct rcuqs_ctx *ctx, const char *abs, int flags, struct stat *st)
{
	char path[PATH_MAX];
	struct stat sb;
	int fd, r;

	r = root_path(ctx, abs, path, sizeof(path));
	if (r < 0)
		return r;
	fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return errno == ENXIO ? -E_NOTREG : -errno;	/* a FIFO nobody reads */
	if (fstat(fd, &sb) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		return S_ISDIR(sb.st_mode) ? -EISDIR : -E_NOTREG;
	}
	if (st)
		*st = sb;
	return fd;
}

/* Like sudo with sudoers: root-owned, not writable by group or others. */
static int check_safe(const char *file, const struct stat *st, const char *kind,
		      const char *what)
{
	if (st->st_uid != 0) {
		errmsg("%s: unsafe %s %s: owned by uid %u, not root", file, kind, what,
		       (unsigned)st->st_uid);
		return -EINVAL;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		errmsg("%s: unsafe %s %s: mode %04o is %s-writable", file, kind, what,
		       (unsigned)(st->st_mode & 07777),
		       st->st_mode & S_IWOTH ? "world" : "group");
		return -EINVAL;
	}
	return 0;
}

/* Check what fd (named shown) refers to, as check_safe(); closes fd on error. */
static int check_fd(int fd, const char *shown, const char *kind, const char *what, bool dir)
{
	struct stat st;
	int r;

	if (fstat(fd, &st) < 0) {
		r = -errno;
		errmsg("%s: %s", shown, errstr(r));
	} else if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
		errmsg("%s: unsafe %s %s: not a %s", shown, kind, what,
		       dir ? "directory" : "regular file");
		r = -EINVAL;
	} else {
		r = check_safe(shown, &st, kind, what);
	}
	if (r < 0)
		close(fd);
	return r;
}

/* open_trusted() and open_trusted_dir(): rel's last component a file, or a directory. */
static int open_trusted_as(const struct rcuqs_ctx *ctx, const char *rel, const char *kind,
			   bool want_dir)
{
	char shown[PATH_MAX], *comp, *slash;
	int dfd, fd, r;

	dfd = open(ctx->root[0] ? ctx->root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		r = -errno;
		errmsg("/: %s", errstr(r));
		return r;
	}
	if ((r = check_fd(dfd, "/", kind, "directory", true)) < 0)
		return r;
	strcpy(shown, rel);	/* "/etc/rcuqs/profiles/NAME.profile" */
	comp = shown + 1;
	for (;;) {
		bool last, file;

		slash = strchr(comp, '/');
		last = !slash;
		file = last && !want_dir;
		if (slash)
			*slash = '\0';
		fd = openat(dfd, comp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK |
			    O_NOCTTY | (file ? 0 : O_DIRECTORY));
		r = fd < 0 ? -errno : 0;
		/*
		 * O_DIRECTORY refuses a link as it refuses a file: the
		 * directory asked for (open_trusted_dir()) says which it is.
		 */
		if (r == -ENOTDIR && last && !file) {
			struct stat st;

			if (fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISLNK(st.st_mode)) {
				close(dfd);
				errmsg("%s: unsafe %s directory: not a directory", shown, kind);
				return -EINVAL;
			}
		}
		close(dfd);
		if (fd < 0) {
			if (r == -ELOOP || r == -ENOTDIR)
				errmsg("%s: unsafe %s %s: a symbolic link%s", shown, kind,
				       file ? "file" : "directory",
				       strcmp(kind, "profile") == 0 ?
				       " (only a link to /dev/null, a mask, is allowed)" : "");
			else if (r != -ENOENT)	/* the caller knows what absent means */
				errmsg("%s: %s", shown, errstr(r == -ENXIO ? -E_NOTREG : r));
			return r == -ELOOP || r == -ENOTDIR || r == -ENXIO ? -EINVAL : r;
		}
		if ((r = check_fd(fd, shown, kind, file ? "file" : "directory", !file)) < 0)
			return r;
		if (last)
			return fd;
		*slash = '/';
		comp = slash + 1;
		dfd = fd;
	}
}

int open_trusted(const struct rcuqs_ctx *ctx, const char *rel, const char *kind)
{
	return open_trusted_as(ctx, rel, kind, false);
}

int open_trusted_dir(const struct rcuqs_ctx *ctx, const char *rel, const char *kind)
{
	return open_trusted_as(ctx, rel, kind, true);
}

int read_trusted(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len)
{
	ssize_t got;
	int fd = open_trusted(ctx, abs, "record"), r;

	/* Unsafe is -EINVAL; out of descriptors or memory is the system's. */
	if (fd < 0)
		return fd;
	got = read(fd, buf, len);
	r = got < 0 ? -errno : 0;
	close(fd);
	if (r < 0) {
		errmsg("%s: %s", abs, errstr(r));
		return r;
	}
	if (got == (ssize_t)len || memchr(buf, '\0', (size_t)got)) {
		errmsg("%s: %s", abs, got == (ssize_t)len ? "too long" : "NUL byte in the file");
		return -EINVAL;
	}
	buf[got] = '\0';
	return 0;
}

int read_file(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len,
	      struct stat *st)
{
	size_t got = 0;
	int fd, r;

	buf[0] = '\0';
	fd = open_regular(ctx, abs, O_RDONLY, st);
	if (fd < 0)
		return fd;
	while (got < len - 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			buf[0] = '\0';
			return r;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got == len - 1) {
		char extra;
		ssize_t n = read(fd, &extra, 1);

		/* More than fits: refuse rather than act on a truncated file. */
		if (n > 0) {
			close(fd);
			buf[0] = '\0';
			return -EFBIG;
		}
	}
	close(fd);
	buf[got] = '\0';
	return (int)got;
}

int read_text(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len)
{
	int r = read_file(ctx, abs, buf, len, NULL);

	if (r < 0)
		return r;
	rstrip(buf);
	return (int)strlen(buf);
}

bool valid_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 64 || name[0] == '.' || name[0] == '-')
		return false;
	for (const char *p = name; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return false;
	}
	return true;
}

static int make_parents(struct pending_file *pf)
{
	char dir[PATH_MAX];
	char *todo[8];
	int ntodo = 0;

	strcpy(dir, pf->path);
	/* Walk up until an existing directory, remembering what is missing. */
	for (;;) {
		char *slash = strrchr(dir, '/');
		struct stat st;

		if (!slash || slash == dir)
			break;
		*slash = '\0';
		if (stat(dir, &st) == 0) {
			if (!S_ISDIR(st.st_mode))
				return -ENOTDIR;
			break;
		}
		if (errno != ENOENT)
			return -errno;
		if (ntodo == (int)(sizeof(todo) / sizeof(todo[0])) ||
		    pf->nmade + ntodo >= (int)(sizeof(pf->made) / sizeof(pf->made[0])))
			return -ENOENT;
		todo[ntodo++] = slash;
	}
	/* Create them outermost first. */
	strcpy(dir, pf->path);
	for (int i = 0; i < ntodo; i++)
		*todo[i] = '\0';
	for (int i = ntodo - 1; i >= 0; i--) {
		int fd, r = 0;

		fault_point();
		if (mkdir(dir, 0755) < 0)
			return -errno;
		strcpy(pf->made[pf->nmade++], dir);
		/*
		 * 0755 whatever the umask, as dpkg and install -d make /etc's
		 * directories: update-grub and a status without root read
		 * them. Through the directory just made, never a link.
		 */
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fchmod(fd, 0755) < 0)
			r = -errno;
		if (fd >= 0)
			close(fd);
		if (r < 0)
			return r;
		*todo[i] = '/';
	}
	return 0;
}

int check_replaceable(int fd, struct stat *st)
{
	unsigned int flags = 0;

	if (fstat(fd, st) < 0)
		return -errno;
	if (!S_ISREG(st->st_mode))
		return S_ISDIR(st->st_mode) ? -EISDIR : -E_NOTREG;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & (FS_IMMUTABLE_FL | FS_APPEND_FL)))
		return -E_IMMUTABLE;
	return 0;
}

/*
 * The file being replaced: absent, or a regular file that a rename may
 * replace (no link, no immutable or append-only flag). Its mode and owner
 * go to the new file.
 */
static int check_target(struct pending_file *pf, struct stat *st)
{
	int fd, r;

	fd = open(pf->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return errno == ENXIO ? -E_NOTREG : -errno;
	}
	r = check_replaceable(fd, st);
	pf->existed = r == 0;
	close(fd);
	return r;
}

int write_fd(int fd, const char *content, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, content + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += (size_t)n;
	}
	return 0;
}

int pending_prepare(const struct rcuqs_ctx *ctx, const char *abs, const char *content,
		    struct pending_file *pf)
{
	struct stat st = { .st_mode = S_IFREG | 0644, .st_uid = geteuid(), .st_gid = getegid() };
	int fd, r;

	memset(pf, 0, sizeof(*pf));
	r = root_path(ctx, abs, pf->path, sizeof(pf->path));
	if (r < 0)
		return r;
	if (snprintf(pf->tmp, sizeof(pf->tmp), "%s.rcuqs-new", pf->path) >= (int)sizeof(pf->tmp) ||
	    snprintf(pf->old, sizeof(pf->old), "%s.rcuqs-old", pf->path) >= (int)sizeof(pf->old))
		return -ENAMETOOLONG;
	if (!ctx->dry_run) {
		unlink(pf->tmp);	/* a leftover from a crash; we hold the lock */
		unlink(pf->old);
	}
	r = check_target(pf, &st);
	if (r < 0)
		return r;
	if (!content) {
		pf->remove = pf->prepared = pf->existed;
		pf->dry = ctx->dry_run;
		return 0;
	}
	if (ctx->dry_run) {
		pf->prepared = pf->dry = true;
		return 0;
	}
	r = make_parents(pf);
	if (r < 0)
		goto fail;
	fault_point();
	fd = open(pf->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		r = -errno;
		goto fail;
	}
	r = write_fd(fd, content, strlen(content));
	/* chown only when needed: rcuqs's units run without CAP_CHOWN. */
	if (r == 0 && (st.st_uid != geteuid() || st.st_gid != getegid()) &&
	    fchown(fd, st.st_uid, st.st_gid) < 0)
		r = -errno;
	if (r == 0 && (fchmod(fd, st.st_mode & 07777) < 0 || fsync(fd) < 0))
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0) {
		unlink(pf->tmp);
		goto fail;
	}
	pf->prepared = true;
	return 0;
fail:
	pending_abort(pf);
	return r;
}

/* The rename reaches the disk only when its directory does. */
static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd;

	strcpy(dir, path);
	*strrchr(dir, '/') = '\0';
	fd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int pending_commit(struct pending_file *pf)
{
	if (!pf->prepared)
		return 0;
	if (pf->dry)
		return -EROFS;	/* a dry run commits nothing */
	if (pf->existed) {
		unlink(pf->old);
		fault_point();
		if (link(pf->path, pf->old) < 0)
			return -errno;
	}
	fault_point();
	if (pf->remove ? unlink(pf->path) < 0 : rename(pf->tmp, pf->path) < 0) {
		int r = -errno;

		if (pf->existed)
			unlink(pf->old);
		return r;
	}
	sync_dir(pf->path);
	pf->prepared = false;
	pf->committed = true;
	return 0;
}

int pending_revert(struct pending_file *pf)
{
	int r;

	if (!pf->committed)
		return 0;
	fault_point();
	r = pf->existed ? rename(pf->old, pf->path) : unlink(pf->path);
	if (r < 0)
		return -errno;
	pf->committed = false;
	while (pf->nmade > 0)
		rmdir(pf->made[--pf->nmade]);
	sync_dir(pf->path);
	return 0;
}

void pending_done(struct pending_file *pf)
{
	if (pf->committed && pf->existed)
		unlink(pf->old);
	pf->committed = false;
	pf->nmade = 0;
}

void pending_leftovers(const struct rcuqs_ctx *ctx, const char *abs)
{
	char path[PATH_MAX];

	if (ctx->dry_run)
		return;
	if (snprintf(path, sizeof(path), "%s%s.rcuqs-new", ctx->root, abs) < (int)sizeof(path))
		unlink(path);
	if (snprintf(path, sizeof(path), "%s%s.rcuqs-old", ctx->root, abs) < (int)sizeof(path))
		unlink(path);
}

/*
 * Whether a directory made inside the one of st stays the caller's: the
 * caller's or root's, and nobody else may rename or remove entries in it
 * (not group- or world-writable, or sticky like /tmp). Message on refusal.
 */
static int check_make_in(const char *what, const char *path, const char *in,
			 const struct stat *st)
{
	if (st->st_uid != geteuid() && st->st_uid != 0) {
		errmsg("%s '%s': not made in '%s', owned by uid %u, neither the caller nor root",
		       what, path, in, (unsigned)st->st_uid);
		return -EPERM;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX)) {
		errmsg("%s '%s': not made in '%s', mode %04o, %s-writable without the sticky bit",
		       what, path, in, (unsigned)(st->st_mode & 07777),
		       st->st_mode & S_IWOTH ? "world" : "group");
		return -EPERM;
	}
	return 0;
}

/* One missing component made (or found made meanwhile) and opened under d's last. */
static int make_one(struct dir_made *d, const char *what, const char *shown, const char *comp)
{
	struct made_entry *e = &d->dirs[d->n];
	int parent = d->dirs[d->n - 1].fd, r;
	struct stat st;

	e->fd = -1;
	e->name = strdup(comp);
	if (!e->name)
		return -ENOMEM;
	fault_point();
	e->made = mkdirat(parent, comp, 0700) == 0;
	d->n++;
	if (!e->made && errno != EEXIST) {
		r = -errno;
		errmsg("%s '%s': %s", what, shown, errstr(r));
		return r;
	}
	fault_point();
	e->fd = openat(parent, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (e->fd < 0) {
		r = -errno;
		if (r == -ENOTDIR && fstatat(parent, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode))
			r = -ELOOP;	/* O_DIRECTORY may say ENOTDIR first */
		errmsg("%s '%s': %s", what, shown,
		       r == -ENOTDIR ? "exists and is not a directory" : errstr(r));
		return r == -ENOTDIR || r == -ELOOP ? -EEXIST : r;
	}
	if (fstat(e->fd, &st) < 0) {
		r = -errno;
		errmsg("%s '%s': %s", what, shown, errstr(r));
		return r;
	}
	if (st.st_uid != geteuid()) {
		errmsg("%s '%s': owned by uid %u, not by the caller: refused", what, shown,
		       (unsigned)st.st_uid);
		return -EEXIST;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		errmsg("%s '%s': mode %04o is %s-writable: refused", what, shown,
		       (unsigned)(st.st_mode & 07777), st.st_mode & S_IWOTH ? "world" : "group");
		return -EEXIST;
	}
	/* install -d's mode, whatever the umask; only once it is known ours. */
	if (e->made && fchmod(e->fd, 0755) < 0) {
		r = -errno;
		errmsg("%s '%s': %s", what, shown, errstr(r));
		return r;
	}
	return 0;
}

int dir_make(const char *path, const char *what, struct dir_made *d)
{
	char buf[PATH_MAX], *p, *exist;
	size_t ncomp = 0;
	struct stat st;
	int r;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errmsg("%s '%s': %s", what, path, errstr(-ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	/* What exists is used as named: the longest prefix that stat() finds. */
	exist = p = buf;
	if (*p == '/')
		exist = ++p;
	for (;;) {
		char *end, save;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = p + strcspn(p, "/");
		save = *end;
		*end = '\0';
		r = stat(buf, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
		*end = save;
		if (r == -ENOENT)
			break;
		if (r < 0) {
			errmsg("%s '%s': %s", what, path, errstr(r));
			return r;
		}
		exist = p = end;
	}
	/* The rest is made: no "..", which would climb out of what is made. */
	for (char *q = p; *q;) {
		size_t n = strcspn(q, "/");

		if (n == 2 && q[0] == '.' && q[1] == '.') {
			errmsg("%s '%s': '..' in the part to be made: refused", what, path);
			return -EPERM;
		}
		ncomp += n > 0;
		q += n;
		q += strspn(q, "/");
	}
	d->dirs = calloc(ncomp + 1, sizeof(*d->dirs));
	if (!d->dirs)
		return -ENOMEM;
	{
		char anc[PATH_MAX];

		snprintf(anc, sizeof(anc), "%.*s", (int)(exist - buf), buf);
		if (!anc[0])
			strcpy(anc, ".");
		d->dirs[0].fd = open(anc, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (d->dirs[0].fd < 0) {
			r = -errno;
			errmsg("%s '%s': %s", what, anc, errstr(r));
			return r;
		}
		d->n = 1;
		if (fstat(d->dirs[0].fd, &st) < 0) {
			r = -errno;
			errmsg("%s '%s': %s", what, anc, errstr(r));
			return r;
		}
		if (ncomp && (r = check_make_in(what, path, anc, &st)) < 0)
			return r;
	}
	while (*p) {
		char *end = p + strcspn(p, "/"), save = *end;

		*end = '\0';
		if (strcmp(p, ".") != 0 && (r = make_one(d, what, buf, p)) < 0)
			return r;
		*end = save;
		p = end + strspn(end, "/");
	}
	d->fd = fcntl(d->dirs[d->n - 1].fd, F_DUPFD_CLOEXEC, 0);
	return d->fd < 0 ? -errno : 0;
}

void dir_made_undo(struct dir_made *d)
{
	for (size_t i = d->n; i-- > 1;) {
		if (!d->dirs[i].made)
			continue;
		fault_point();
		unlinkat(d->dirs[i - 1].fd, d->dirs[i].name, AT_REMOVEDIR);
		d->dirs[i].made = false;
	}
}

void dir_made_close(struct dir_made *d)
{
	for (size_t i = 0; i < d->n; i++) {
		if (d->dirs[i].fd >= 0)
			close(d->dirs[i].fd);
		free(d->dirs[i].name);
	}
	free(d->dirs);
	if (d->fd >= 0)
		close(d->fd);
	memset(d, 0, sizeof(*d));
	d->fd = -1;
}

void pending_abort(struct pending_file *pf)
{
	if (pf->committed)
		return;	/* pending_revert() or pending_done() */
	if (pf->prepared && !pf->remove && !pf->dry)
		unlink(pf->tmp);
	pf->prepared = false;
	while (pf->nmade > 0)
		rmdir(pf->made[--pf->nmade]);
}

char *line_next(char **rest)
{
	char *line = *rest, *nl;

	if (!line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl)
		*nl++ = '\0';
	*rest = nl;
	return line;
}
