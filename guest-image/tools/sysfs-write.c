// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs-write FILE VALUE: write VALUE to FILE with exactly one write(2),
 * no newline added, and say what the kernel answered.
 *
 * Prints "ok N" (N bytes taken) or "EINVAL Invalid argument" (errno name,
 * then text; "(open)" added when open(2) failed) on stdout. Exit status:
 * 0 when the whole value was taken, 1 when write(2) failed, 2 on a short
 * write, 3 on a usage or open error.
 *
 * A shell redirection may split a long value into several writes (stdio
 * buffering), and a sysfs attribute only ever parses the first one; this
 * helper makes "one value, one write" certain.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *name;
	size_t len;
	ssize_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: sysfs-write FILE VALUE\n");
		return 3;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		name = strerrorname_np(errno);
		printf("%s %s (open)\n", name ? name : "?", strerror(errno));
		return 3;
	}
	len = strlen(argv[2]);
	n = write(fd, argv[2], len);
	if (n < 0) {
		name = strerrorname_np(errno);
		printf("%s %s\n", name ? name : "?", strerror(errno));
		close(fd);
		return 1;
	}
	printf("ok %zd\n", n);
	if (close(fd) < 0) {
		name = strerrorname_np(errno);
		printf("%s %s (at close)\n", name ? name : "?", strerror(errno));
		return 1;
	}
	return (size_t)n == len ? 0 : 2;
}
