// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * debpkg.c: the running rcuqs kernel's Debian upload, from dpkg's status
 * file, and whether a newer Debian kernel of its baseline is installed.
 * The status file is read whole (open_regular(): no link followed, no
 * FIFO), at most DPKG_STATUS_MAX bytes; a line that is not a field of
 * ours is skipped, and what is kept is bounded and checked.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "debpkg.h"
#include "util.h"

#define DPKG_STATUS "/var/lib/dpkg/status"
#define DPKG_STATUS_MAX (64 << 20)

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

struct stanza {
	const char *package, *version;
	bool installed;
};

static void consider(const struct stanza *s, const struct kernel_info *k, struct deb_kernel *d)
{
	char mine[96], prefix[32];
	const char *p;

	if (!s->installed || !s->package || !s->version || !version_ok(s->version))
		return;
	snprintf(mine, sizeof(mine), "linux-image-%s", k->release);
	if (!strcmp(s->package, mine)) {
		p = strstr(s->version, "+rcuqs");
		if (p && (size_t)(p - s->version) < sizeof(d->built_from))
			snprintf(d->built_from, sizeof(d->built_from), "%.*s",
				 (int)(p - s->version), s->version);
		return;
	}
	/* Debian's kernels of the baseline: linux-image-6.1.0-29-amd64 and the like. */
	snprintf(prefix, sizeof(prefix), "linux-image-%s.", k->baseline);
	if (strncmp(s->package, prefix, strlen(prefix)) || strstr(s->package, "rcuqs") ||
	    strstr(s->version, "rcuqs") || strlen(s->package) >= sizeof(d->newest_pkg))
		return;
	p = s->package + strlen(s->package);
	if (p - s->package > 4 && !strcmp(p - 4, "-dbg"))
		return;
	if (!d->newest[0] || deb_version_cmp(s->version, d->newest) > 0) {
		snprintf(d->newest, sizeof(d->newest), "%s", s->version);
		snprintf(d->newest_pkg, sizeof(d->newest_pkg), "%s", s->package);
	}
}

int deb_kernel_read(const struct rcuqs_ctx *ctx, const struct kernel_info *k,
		    struct deb_kernel *d)
{
	char path[PATH_MAX], *buf, *rest, *line;
	struct stanza s = { 0 };
	struct stat st;
	int r;

	memset(d, 0, sizeof(*d));
	if (!k->release[0] || !k->baseline[0])
		return 0;
	r = root_path(ctx, DPKG_STATUS, path, sizeof(path));
	if (r < 0)
		return r;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISREG(st.st_mode))
		return -E_NOTREG;
	if (st.st_size > DPKG_STATUS_MAX)
		return -EFBIG;
	buf = malloc((size_t)st.st_size + 2);
	if (!buf)
		return -ENOMEM;
	r = read_file(ctx, DPKG_STATUS, buf, (size_t)st.st_size + 2, NULL);
	if (r < 0) {
		free(buf);
		return r;
	}
	rest = buf;
	while ((line = line_next(&rest))) {
		if (!line[0]) {
			consider(&s, k, d);
			memset(&s, 0, sizeof(s));
		} else if (!strncmp(line, "Package: ", 9)) {
			s.package = line + 9;
		} else if (!strncmp(line, "Version: ", 9)) {
			s.version = line + 9;
		} else if (!strncmp(line, "Status: ", 8)) {
			size_t n = strlen(line);

			s.installed = n >= 10 && !strcmp(line + n - 10, " installed");
		}
	}
	consider(&s, k, d);
	free(buf);
	d->stale = d->built_from[0] && d->newest[0] &&
		   deb_version_cmp(d->newest, d->built_from) > 0;
	return 0;
}
