/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RCUQS_UTIL_H
#define RCUQS_UTIL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "rcuqs.h"

#define PROGRAM "rcuqs-ctl"

void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Codes of our own beside -errno, for what errno cannot say; errstr()
 * turns either into words for a message.
 */
#define E_NOTREG 4096		/* not a regular file where one is expected */
#define E_IMMUTABLE 4097	/* an immutable or append-only file (chattr) */
const char *errstr(int r);

/* At most QUOTE_MAX bytes of s, non-printable bytes as \xNN, "..." if cut. */
#define QUOTE_MAX 24
#define QUOTE_BUF (QUOTE_MAX * 4 + 4)
const char *quote(const char *s, char buf[QUOTE_BUF]);

/*
 * line_next(&rest): the next line of a NUL-terminated buffer, its '\n'
 * replaced by '\0'; NULL once the buffer is used up. Start with rest at
 * the buffer.
 */
char *line_next(char **rest);

/* "<root><abs>" into buf; -ENAMETOOLONG if it does not fit. */
int root_path(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len);

/*
 * Open a file below the root that must be a regular file, as flags
 * (O_RDONLY or O_WRONLY) says: a link as the last component is not
 * followed (-ELOOP), a FIFO or device never blocks, anything but a regular
 * file is -E_NOTREG. st gets its status when not NULL. fd or -errno.
 */
int open_regular(const struct rcuqs_ctx *ctx, const char *abs, int flags, struct stat *st);
/*
 * Open root-relative file rel for reading, trusting nothing: walk down
 * from the root with openat(), refusing symbolic links, and check that the
 * root, every directory below it and the file itself are root-owned and
 * not writable by group or others (sshd's StrictModes, sudo). What is
 * checked is what is read. A FIFO or device is refused without blocking.
 * kind ("profile", "record") names the file in messages. fd, or -EINVAL
 * (said why), -ENOENT (not said) or another -errno (said).
 */
int open_trusted(const struct rcuqs_ctx *ctx, const char *rel, const char *kind);
/* The same for a directory: rel's last component too must be one. */
int open_trusted_dir(const struct rcuqs_ctx *ctx, const char *rel, const char *kind);
/*
 * A record of rcuqs's in /etc/rcuqs, through open_trusted(), whole into
 * buf (NUL-terminated): 0, -ENOENT when there is none (not said),
 * -EINVAL (said why: unsafe, too long for buf, a NUL byte), or another
 * -errno (said: the system's failure, EMFILE or EIO, not the record's).
 */
int read_trusted(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len);
/*
 * A whole small file, byte for byte, into buf (NUL-terminated; the length
 * returned counts any NUL inside), through open_regular(). Length or
 * -errno: -EFBIG when it does not fit. buf is "" on error.
 */
int read_file(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len,
	      struct stat *st);
/*
 * read_file(), cut at the first NUL byte and with trailing whitespace
 * stripped. Returns the length or -errno.
 */
int read_text(const struct rcuqs_ctx *ctx, const char *abs, char *buf, size_t len);
/* Strip trailing whitespace in place. */
void rstrip(char *s);

/*
 * Whether the file open on fd may be replaced by a rename: a regular file
 * (-EISDIR, -E_NOTREG), not immutable or append-only (-E_IMMUTABLE). Its
 * status into st.
 */
int check_replaceable(int fd, struct stat *st);
/* Write all of content to fd; 0 or -errno. */
int write_fd(int fd, const char *content, size_t len);

/* Profile and other names a user may give: [A-Za-z0-9_.-], no leading '.' or '-'. */
bool valid_name(const char *name);

/*
 * A file replaced atomically: prepared (the target checked: absent or a
 * regular file, no link, not immutable; the content written to a temporary
 * name beside it with the target's mode and owner, 0644 and the caller's
 * for a new one; missing parent directories created), then committed
 * (renamed, the old file kept aside under a hard link) or aborted
 * (temporary and created directories removed). A committed file can be
 * reverted until pending_done() drops the old copy. A NULL content
 * prepares the file's removal instead (nothing prepared when it does not
 * exist), committed by moving it aside the same way.
 */
struct pending_file {
	char path[PATH_MAX];	/* absolute, under the root */
	char tmp[PATH_MAX];
	char old[PATH_MAX];	/* the replaced file, until pending_done() */
	char made[4][PATH_MAX];	/* directories we created, innermost last */
	int nmade;
	bool prepared, existed, committed, remove;
	bool dry;	/* ctx->dry_run: prepared on paper, nothing written */
};
/* With ctx->dry_run, only checks: prepared (and dry) as it would be, nothing written. */
int pending_prepare(const struct rcuqs_ctx *ctx, const char *abs, const char *content,
		    struct pending_file *pf);
int pending_commit(struct pending_file *pf);
int pending_revert(struct pending_file *pf);	/* 0 or -errno */
void pending_done(struct pending_file *pf);
void pending_abort(struct pending_file *pf);
/*
 * Remove what a crash may have left of a replacement of abs: its
 * temporary and its kept old copy (we hold the lock; pending_prepare()
 * does it too).
 */
void pending_leftovers(const struct rcuqs_ctx *ctx, const char *abs);

/*
 * A directory named by the user (not below the root), opened, and made
 * first where it is missing, as install -d makes it: every missing
 * component, mode 0755 whatever the umask. What exists is used as named,
 * links included. Below it, each missing component is made with mkdirat()
 * under the handle of the one before and opened again with O_NOFOLLOW:
 * one that appeared meanwhile as a link, a non-directory, or a directory
 * that is not the caller's or is group- or world-writable is refused. The
 * existing directory the first one is made in must be the caller's or
 * root's and not group- or world-writable, unless it has the sticky bit
 * (/tmp): there nobody else can swap what is made. A ".." among the
 * missing components is refused. what ("output directory") heads the
 * messages. d->fd is the directory, open; 0 or -errno, said why.
 */
struct dir_made {
	int fd;			/* the directory named, once open */
	size_t n;		/* entries of dirs[]: the existing ancestor first */
	struct made_entry {
		int fd;
		char *name;	/* the component, NULL for the ancestor */
		bool made;	/* made by us: removed by dir_made_undo() */
	} *dirs;
};
int dir_make(const char *path, const char *what, struct dir_made *d);
/* Remove the directories dir_make() made, innermost first, where still empty. */
void dir_made_undo(struct dir_made *d);
/* Close everything dir_make() opened, d->fd included. */
void dir_made_close(struct dir_made *d);

/*
 * Tests only (built with RCUQS_FAULT_INJECTION, as the ASan build is):
 * RCUQS_CRASH_AT=N in the environment kills the tool with SIGKILL at its
 * Nth step that changes a file or a parameter, to test the crash windows;
 * with RCUQS_CRASH_RUN=CMD, runs CMD (sh -c) there instead, as another
 * process racing the tool would.
 */
#ifdef RCUQS_FAULT_INJECTION
void fault_point(void);
#else
static inline void fault_point(void)
{
}
#endif

#endif
