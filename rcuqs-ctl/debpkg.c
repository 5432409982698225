// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * debpkg.c: the running rcuqs kernel's Debian upload, and whether a newer
 * Debian kernel of its baseline is installed, as dpkg-query says (dpkg's
 * database is dpkg's own business: it is never read here directly).
 * dpkg-query runs with --root for a root other than /, its output is read
 * up to QUERY_MAX bytes for at most QUERY_SECONDS (a FIFO where its status
 * file should be cannot hang status), its stderr goes to /dev/null, and
 * every field kept is bounded and checked.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "debpkg.h"
#include "util.h"

#define QUERY_MAX (256 << 10)
#define QUERY_SECONDS 5

/* dpkg's lib/dpkg/version.c order(): ~ before everything, letters before others. */
static int order(int c)
{
	if (isdigit(c))
		return 0;
	if (isalpha(c))
		return c;
	if (c == '~')
		return -1;
	if (c)
		return c + 256;
	return 0;
}

/* dpkg's verrevcmp() on two NUL-terminated parts. */
static int verrevcmp(const char *a, const char *b)
{
	while (*a || *b) {
		int first_diff = 0;

		while ((*a && !isdigit((unsigned char)*a)) || (*b && !isdigit((unsigned char)*b))) {
			int ac = order((unsigned char)*a), bc = order((unsigned char)*b);

			if (ac != bc)
				return ac - bc;
			a++;
			b++;
		}
		while (*a == '0')
			a++;
		while (*b == '0')
			b++;
		while (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			if (!first_diff)
				first_diff = *a - *b;
			a++;
			b++;
		}
		if (isdigit((unsigned char)*a))
			return 1;
		if (isdigit((unsigned char)*b))
			return -1;
		if (first_diff)
			return first_diff;
	}
	return 0;
}

/* Split "E:U-R" into epoch, upstream and revision (copies in buf). */
static void split(const char *v, char *buf, size_t len, long *epoch, char **up, char **rev)
{
	char *colon, *dash;

	snprintf(buf, len, "%s", v);
	*epoch = 0;
	*up = buf;
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		*epoch = strtol(buf, NULL, 10);
		*up = colon + 1;
	}
	dash = strrchr(*up, '-');
	if (dash) {
		*dash = '\0';
		*rev = dash + 1;
	} else {
		*rev = *up + strlen(*up);
	}
}

int deb_version_cmp(const char *a, const char *b)
{
	char ab[128], bb[128];
	char *au, *ar, *bu, *br;
	long ae, be;
	int r;

	split(a, ab, sizeof(ab), &ae, &au, &ar);
	split(b, bb, sizeof(bb), &be, &bu, &br);
	if (ae != be)
		return ae < be ? -1 : 1;
	r = verrevcmp(au, bu);
	return r ? r : verrevcmp(ar, br);
}

/* A version dpkg would take: [epoch:]upstream[-revision], its characters only. */
static bool version_ok(const char *v)
{
	size_t n = strlen(v);

	if (!n || n >= 64 || !isdigit((unsigned char)v[0]))
		return false;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr(".+~-:", *v))
			return false;
	return true;
}

/* One installed package: "PACKAGE\tSTATUS\tVERSION" from dpkg-query. */
static void consider(const char *package, const char *version, const struct kernel_info *k,
		     struct deb_kernel *d)
{
	char mine[96], prefix[32];
	const char *p;

	if (!version_ok(version))
		return;
	snprintf(mine, sizeof(mine), "linux-image-%s", k->release);
	if (!strcmp(package, mine)) {
		p = strstr(version, "+rcuqs");
		if (p && (size_t)(p - version) < sizeof(d->built_from))
			snprintf(d->built_from, sizeof(d->built_from), "%.*s",
				 (int)(p - version), version);
		return;
	}
	/* Debian's kernels of the baseline: linux-image-6.1.0-29-amd64 and the like. */
	snprintf(prefix, sizeof(prefix), "linux-image-%s.", k->baseline);
	if (strncmp(package, prefix, strlen(prefix)) || strstr(package, "rcuqs") ||
	    strstr(version, "rcuqs") || strlen(package) >= sizeof(d->newest_pkg))
		return;
	p = package + strlen(package);
	if (p - package > 4 && !strcmp(p - 4, "-dbg"))
		return;
	if (!d->newest[0] || deb_version_cmp(version, d->newest) > 0) {
		snprintf(d->newest, sizeof(d->newest), "%s", version);
		snprintf(d->newest_pkg, sizeof(d->newest_pkg), "%s", package);
	}
}

/*
 * dpkg-query -W over linux-image-*, its output into buf (NUL-terminated).
 * 0, or -errno: -ENOENT without dpkg-query, -ETIMEDOUT, -EFBIG.
 */
static int query(const struct rcuqs_ctx *ctx, char *buf, size_t len)
{
	char rootopt[PATH_MAX + 8];
	struct timespec start, now;
	size_t got = 0;
	int pfd[2], status, r = 0;
	pid_t pid;

	buf[0] = '\0';
	if (snprintf(rootopt, sizeof(rootopt), "--root=%s", ctx->root) >= (int)sizeof(rootopt))
		return -ENAMETOOLONG;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return r;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null < 0 || dup2(null, 0) < 0 || dup2(pfd[1], 1) < 0 || dup2(null, 2) < 0)
			_exit(126);
		if (ctx->root[0])
			execlp("dpkg-query", "dpkg-query", rootopt, "-W",
			       "--showformat=${Package}\\t${db:Status-Abbrev}\\t${Version}\\n",
			       "linux-image-*", (char *)NULL);
		else
			execlp("dpkg-query", "dpkg-query", "-W",
			       "--showformat=${Package}\\t${db:Status-Abbrev}\\t${Version}\\n",
			       "linux-image-*", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		long left;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = QUERY_SECONDS * 1000L - ((now.tv_sec - start.tv_sec) * 1000L +
						(now.tv_nsec - start.tv_nsec) / 1000000L);
		if (left <= 0) {
			r = -ETIMEDOUT;
			break;
		}
		n = poll(&p, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -ETIMEDOUT;
			break;
		}
		if (got == len - 1) {
			r = -EFBIG;
			break;
		}
		n = read(pfd[0], buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : 0;
			break;
		}
		got += (size_t)n;
	}
	close(pfd[0]);
	if (r)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!r && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		r = -ENOENT;
	/* dpkg-query exits 1 when no package matched: no line, nothing known. */
	buf[r ? 0 : got] = '\0';
	return r;
}

int deb_kernel_read(const struct rcuqs_ctx *ctx, const struct kernel_info *k,
		    struct deb_kernel *d)
{
	char *buf, *rest, *line;
	int r;

	memset(d, 0, sizeof(*d));
	if (!k->release[0] || !k->baseline[0])
		return 0;
	buf = malloc(QUERY_MAX);
	if (!buf)
		return -ENOMEM;
	r = query(ctx, buf, QUERY_MAX);
	rest = buf;
	while (!r && (line = line_next(&rest))) {
		char *status = strchr(line, '\t'), *version;

		if (!status)
			continue;
		*status++ = '\0';
		version = strchr(status, '\t');
		if (!version)
			continue;
		*version++ = '\0';
		/* "ii ": wanted install, installed, no error flag. */
		if (strcmp(status, "ii ") && strcmp(status, "ii"))
			continue;
		consider(line, version, k, d);
	}
	free(buf);
	d->stale = d->built_from[0] && d->newest[0] &&
		   deb_version_cmp(d->newest, d->built_from) > 0;
	return r;
}
