// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The system log: one line for each profile switch, as tuned logs its
 * own, so that "journalctl -t rcuqs-ctl" says when the tuning changed,
 * from what to what and by which command.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"
#include "util.h"

const char *log_profile_name(const struct rcuqs_ctx *ctx, char *buf, size_t len)
{
	char q[QUOTE_BUF];

	if (active_read(ctx, buf, len) < 0)
		return "none";
	if (!valid_name(buf))
		snprintf(buf, len, "'%s'", quote(buf, q));
	return buf;
}

/* A fake root's line, to the tests' file; nothing when it is not set. */
static void log_test(const char *line)
{
	const char *file = getenv(LOG_TEST_ENV);
	int fd;

	if (!file || !*file)
		return;
	fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd < 0) {
		errmsg("%s: %s: %s", LOG_TEST_ENV, file, errstr(-errno));
		return;
	}
	if (write_fd(fd, line, strlen(line)) < 0 || write_fd(fd, "\n", 1) < 0)
		errmsg("%s: %s: %s", LOG_TEST_ENV, file, errstr(-errno));
	close(fd);
}

void log_switch(const struct rcuqs_ctx *ctx, const char *cmd, const char *from, const char *to,
		const struct change *c, size_t n, bool other)
{
	char line[512];
	size_t changed = changes_count(c, n);

	if (!changed && !other && strcmp(from, to) == 0)
		return;
	snprintf(line, sizeof(line), "profile %s -> %s (%s, %zu parameter%s changed)", from, to,
		 cmd, changed, changed == 1 ? "" : "s");
	/* A fake root is not this machine: its switches stay out of its log. */
	if (ctx->root[0]) {
		char full[sizeof(line) + sizeof(PROGRAM ": ")];

		snprintf(full, sizeof(full), PROGRAM ": %s", line);
		log_test(full);
		return;
	}
	openlog(PROGRAM, LOG_PID, LOG_USER);
	syslog(LOG_NOTICE, "%s", line);
	closelog();
}
