// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which kernel rcuqs-ctl drives, and which of its knobs act there.
 *
 * The preemption model in force decides whether cond_resched() runs at
 * all: under none and voluntary it reports a quiescent state every
 * cond_resched_qs_limit calls; under full, lazy and RT it is a no-op and
 * the limit acts only through cond_resched_lock() and its rwlock variants.
 * The first source that answers tells the model:
 *
 * 1. /sys/kernel/debug/sched/preempt (PREEMPT_DYNAMIC kernels with
 *    debugfs mounted and readable): "none (voluntary) full", the mode in
 *    force in parentheses. Nothing is mounted to get it.
 * 2. /proc/sys/kernel/version, uname -v, which names the build's model as
 *    one word (scripts/mkcompile_h): PREEMPT_RT, else PREEMPT_DYNAMIC,
 *    else PREEMPT (and PREEMPT_LAZY from 6.13), else nothing: a build
 *    neither dynamic nor preemptible, none or voluntary. A dynamic kernel
 *    runs the last preempt= of the command line it accepts
 *    (setup_preempt_mode(): none, voluntary, full; lazy from 6.13; any
 *    other value is warned about and ignored), else its build default,
 *    the Kconfig choice in /boot/config-RELEASE.
 * 3. /boot/config-RELEASE alone, when there is no version string.
 *
 * The version string is the running kernel's own word; the config is a
 * file on disk, which another build with the same release name may have
 * written. Where both are read, the config is believed only where it
 * agrees with the version: the same RT and PREEMPT_DYNAMIC, and for a
 * build that is neither, the same choice (PREEMPT: full, PREEMPT_LAZY:
 * lazy, no word: none or voluntary, which a config's none or voluntary
 * then tells apart). One that disagrees is named and ignored: a version
 * without PREEMPT is "none or voluntary" whatever a config says.
 *
 * Every file is read as sysfs.c and util.c read: a regular file only, no
 * link followed, bounded, any byte allowed and nothing trusted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootcfg.h"
#include "kernel.h"
#include "sysfs.h"
#include "tunables.h"
#include "util.h"

#define OSRELEASE "/proc/sys/kernel/osrelease"
#define VERSION_FILE "/proc/sys/kernel/version"
#define DEBUG_PREEMPT_FILE "/sys/kernel/debug/sched/preempt"
#define CONFIG_MAX (4 << 20)	/* Debian's are about 300 KB */
/*
 * nohz_full's list is one sysfs value, at most a page: 4 KiB on x86, 64
 * KiB on arm64 and ppc64 kernels with large pages. "1,3,5,...,255" alone,
 * the odd CPUs of a 256-thread machine, is 457 bytes.
 */
#define NOHZ_FULL_MAX (64 << 10)

static const char *const model_names[] = {
	[PM_UNKNOWN] = "unknown", [PM_NONE] = "none", [PM_VOLUNTARY] = "voluntary",
	[PM_FULL] = "full", [PM_LAZY] = "lazy", [PM_RT] = "rt",
	[PM_NONVOL] = "none or voluntary",
};

const char *kernel_preempt_name(enum preempt_model m)
{
	return model_names[m];
}

const char *kernel_source_name(enum preempt_source s)
{
	static const char *const names[] = {
		[PS_NONE] = "none", [PS_DEBUGFS] = "debugfs", [PS_CMDLINE] = "cmdline",
		[PS_CONFIG] = "config", [PS_VERSION] = "version",
	};

	return names[s];
}

/* A release as uname -r gives it: "6.12.95+bpo-amd64", no '/', no "..". */
static bool valid_release(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 64 || s[0] == '.' || s[0] == '-')
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+~-") ==
	       n && !strstr(s, "..");
}

bool kernel_release(const struct rcuqs_ctx *ctx, char *buf, size_t len)
{
	if (read_text(ctx, OSRELEASE, buf, len) > 0 && valid_release(buf))
		return true;
	if (len)
		buf[0] = '\0';
	return false;
}

/* "6.12" of "6.12.95+bpo-amd64"; false when it does not start so. */
static bool parse_baseline(const char *rel, unsigned *major, unsigned *minor)
{
	size_t a = strspn(rel, "0123456789"), b;

	if (a == 0 || a > 3 || rel[a] != '.')
		return false;
	b = strspn(rel + a + 1, "0123456789");
	if (b == 0 || b > 3)
		return false;
	*major = (unsigned)atoi(rel);
	*minor = (unsigned)atoi(rel + a + 1);
	return true;
}

/* A mode name as the kernel spells it in preempt= and debugfs. */
static enum preempt_model mode_named(const char *s, size_t n, bool lazy_ok)
{
	static const enum preempt_model modes[] = { PM_NONE, PM_VOLUNTARY, PM_FULL, PM_LAZY };

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		const char *name = model_names[modes[i]];

		if (modes[i] == PM_LAZY && !lazy_ok)
			continue;
		if (strlen(name) == n && memcmp(s, name, n) == 0)
			return modes[i];
	}
	return PM_UNKNOWN;
}

/*
 * debugfs's "none (voluntary) full": known words one space apart, exactly
 * one of them in parentheses. Anything else tells nothing.
 */
static enum preempt_model from_debugfs(const struct rcuqs_ctx *ctx)
{
	enum preempt_model m = PM_UNKNOWN;
	char buf[128];
	const char *s = buf;

	if (read_text(ctx, DEBUG_PREEMPT_FILE, buf, sizeof(buf)) <= 0)
		return PM_UNKNOWN;
	while (*s) {
		size_t n = strcspn(s, " ");
		bool paren = n > 2 && s[0] == '(' && s[n - 1] == ')';
		enum preempt_model w = paren ? mode_named(s + 1, n - 2, true) :
					       mode_named(s, n, true);

		if (w == PM_UNKNOWN || (paren && m != PM_UNKNOWN))
			return PM_UNKNOWN;
		if (paren)
			m = w;
		s += n;
		if (*s == ' ' && *++s == '\0')
			return PM_UNKNOWN;
	}
	return m;
}

/* The words of uname -v that name the build's preemption. */
struct version_words {
	bool read, dynamic, rt, preempt, lazy;
};

static void read_version(const struct rcuqs_ctx *ctx, struct version_words *v)
{
	char buf[256], *s, *save = NULL;

	memset(v, 0, sizeof(*v));
	if (read_text(ctx, VERSION_FILE, buf, sizeof(buf)) <= 0)
		return;
	v->read = true;
	for (s = strtok_r(buf, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
		v->dynamic |= strcmp(s, "PREEMPT_DYNAMIC") == 0;
		v->rt |= strcmp(s, "PREEMPT_RT") == 0;
		v->preempt |= strcmp(s, "PREEMPT") == 0;
		v->lazy |= strcmp(s, "PREEMPT_LAZY") == 0;
	}
}

/* What /boot/config-RELEASE says: the Kconfig choice, RT, dynamic. */
struct config_facts {
	bool read, dynamic, rt;
	enum preempt_model choice;	/* PM_UNKNOWN when none is =y */
};

static bool line_is(const char *line, size_t n, const char *want)
{
	return strlen(want) == n && memcmp(line, want, n) == 0;
}

static void read_config(const struct rcuqs_ctx *ctx, const char *abs, struct config_facts *c)
{
	/* In order of strength: the strongest of several wins, as in recommend. */
	static const struct {
		const char *line;
		enum preempt_model m;
	} choice[] = {
		{ "CONFIG_PREEMPT_NONE=y", PM_NONE },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", PM_VOLUNTARY },
		{ "CONFIG_PREEMPT_LAZY=y", PM_LAZY },
		{ "CONFIG_PREEMPT=y", PM_FULL },
	};
	char *buf = malloc(CONFIG_MAX);
	const char *s, *end;
	int len;
	size_t best = 0;

	memset(c, 0, sizeof(*c));
	if (!buf)
		return;
	len = read_file(ctx, abs, buf, CONFIG_MAX, NULL);
	if (len < 0) {
		free(buf);
		return;
	}
	c->read = true;
	for (s = buf, end = buf + len; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);

		while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		c->dynamic |= line_is(s, n, "CONFIG_PREEMPT_DYNAMIC=y");
		c->rt |= line_is(s, n, "CONFIG_PREEMPT_RT=y");
		for (size_t i = 0; i < sizeof(choice) / sizeof(choice[0]); i++)
			if (line_is(s, n, choice[i].line) && i + 1 > best)
				best = i + 1;
		s = nl ? nl + 1 : end;
	}
	c->choice = best ? choice[best - 1].m : PM_UNKNOWN;
	free(buf);
}

/*
 * The mode a dynamic kernel took from its command line: the last preempt=
 * it accepts. The last value it refused goes to refused.
 */
static enum preempt_model from_cmdline(const struct rcuqs_ctx *ctx, bool lazy_ok,
				       char *refused, size_t len)
{
	enum preempt_model m = PM_UNKNOWN;
	char *cmdline = NULL, val[64];
	const char *pos;

	if (proc_cmdline(ctx, &cmdline) < 0)
		return PM_UNKNOWN;
	for (pos = cmdline; cmdline_next_value(&pos, "preempt", val, sizeof(val));) {
		enum preempt_model w = mode_named(val, strlen(val), lazy_ok);

		if (w != PM_UNKNOWN)
			m = w;
		else
			snprintf(refused, len, "%s", val);
	}
	free(cmdline);
	if (m != PM_UNKNOWN)
		refused[0] = '\0';	/* a later or earlier value the kernel took */
	return m;
}

/*
 * Whether the config can be the running build's: what the version string
 * says of RT, PREEMPT_DYNAMIC and, for a build that is neither, the
 * preemption choice, it says too. NULL when it agrees; else what it says.
 */
static const char *config_contradicts(const struct version_words *v,
				      const struct config_facts *c)
{
	const char *said = c->choice != PM_UNKNOWN ? model_names[c->choice] :
			   "no preemption choice";

	if (c->rt != v->rt)
		return c->rt ? "PREEMPT_RT" : "not PREEMPT_RT";
	if (c->dynamic != v->dynamic)
		return c->dynamic ? "PREEMPT_DYNAMIC" : "not PREEMPT_DYNAMIC";
	if (v->rt || v->dynamic)
		return NULL;
	if (v->preempt)
		return c->choice == PM_FULL ? NULL : said;
	if (v->lazy)
		return c->choice == PM_LAZY ? NULL : said;
	return c->choice == PM_FULL || c->choice == PM_LAZY ? said : NULL;
}

void kernel_read(const struct rcuqs_ctx *ctx, struct kernel_info *k)
{
	struct version_words v;
	struct config_facts c;
	unsigned major = 0, minor = 0;
	bool lazy_ok;

	memset(k, 0, sizeof(*k));
	k->dynamic = -1;
	k->reports = -1;
	k->rcuqs = sysfs_exists(ctx, RCUQS_MARKER);
	k->limit = sysfs_exists(ctx, tunable_find("rcutree.cond_resched_qs_limit")->sysfs);
	k->nohz_qs = sysfs_exists(ctx, tunable_find("rcutree.jiffies_till_nohz_qs")->sysfs);
	if (kernel_release(ctx, k->release, sizeof(k->release)) && parse_baseline(k->release, &major, &minor))
		snprintf(k->baseline, sizeof(k->baseline), "%u.%u", major, minor);
	/* Lazy preemption came with 6.13; before, preempt=lazy is refused. */
	lazy_ok = major > 6 || (major == 6 && minor >= 13);
	snprintf(k->config, sizeof(k->config), "/boot/config-%s",
		 k->release[0] ? k->release : "RELEASE");

	if ((k->model = from_debugfs(ctx)) != PM_UNKNOWN) {
		k->source = PS_DEBUGFS;
		k->dynamic = 1;
		goto out;
	}
	read_version(ctx, &v);
	memset(&c, 0, sizeof(c));
	if (k->release[0])
		read_config(ctx, k->config, &c);
	k->config_read = c.read;
	if (v.read && c.read && (k->config_ignored = config_contradicts(&v, &c)))
		memset(&c, 0, sizeof(c));	/* another build's: the version wins */
	if (v.read ? v.rt : c.rt) {
		k->model = PM_RT;
		k->source = v.read ? PS_VERSION : PS_CONFIG;
		goto out;
	}
	if (v.read || c.read)
		k->dynamic = v.read ? v.dynamic : c.dynamic;
	if (k->dynamic == 1) {
		k->model = from_cmdline(ctx, lazy_ok, k->refused, sizeof(k->refused));
		if (k->model != PM_UNKNOWN) {
			k->source = PS_CMDLINE;
		} else if (c.choice != PM_UNKNOWN) {
			k->model = c.choice;
			k->source = PS_CONFIG;
		}
	} else if (v.read && (v.preempt || v.lazy)) {
		k->model = v.preempt ? PM_FULL : PM_LAZY;
		k->source = PS_VERSION;
	} else if (c.read && c.choice != PM_UNKNOWN) {
		/* Alone, or agreeing with the version: none or voluntary told apart. */
		k->model = c.choice;
		k->source = PS_CONFIG;
	} else if (v.read) {
		/* Not dynamic, not preemptible: none or voluntary, both report. */
		k->model = PM_NONVOL;
		k->source = PS_VERSION;
	}
out:
	if (k->model == PM_NONE || k->model == PM_VOLUNTARY || k->model == PM_NONVOL)
		k->reports = 1;
	else if (k->model != PM_UNKNOWN)
		k->reports = 0;
}

int kernel_cond_resched_reports(const struct kernel_info *k)
{
	return k->reports;
}

int kernel_preemptible_rcu(const struct kernel_info *k)
{
	/* PREEMPT_DYNAMIC builds preemptible RCU whatever the boot mode. */
	if (k->dynamic == 1 || k->model == PM_FULL || k->model == PM_LAZY || k->model == PM_RT)
		return 1;
	if (k->model == PM_NONE || k->model == PM_VOLUNTARY || k->model == PM_NONVOL)
		return 0;
	return -1;
}

const char *kernel_source_file(const struct kernel_info *k)
{
	switch (k->source) {
	case PS_DEBUGFS:
		return DEBUG_PREEMPT_FILE;
	case PS_CMDLINE:
		return PROC_CMDLINE;
	case PS_CONFIG:
		return k->config;
	case PS_VERSION:
		return VERSION_FILE;
	case PS_NONE:
		break;
	}
	return "";
}

/* Where the model came from, for people. */
static void describe_source(const struct kernel_info *k, char *buf, size_t len)
{
	char q[QUOTE_BUF], ignored[QUOTE_BUF + 64] = "", config[192];

	if (k->refused[0])
		snprintf(ignored, sizeof(ignored), "preempt=%s on /proc/cmdline ignored by the "
			 "kernel, ", quote(k->refused, q));
	if (k->config_ignored)
		snprintf(config, sizeof(config), "; %s says %s: another build's, ignored",
			 k->config, k->config_ignored);
	else if (k->model == PM_NONVOL)
		snprintf(config, sizeof(config), k->config_read ? "; no preemption choice in %s" :
			 "; no readable %s", k->config);
	else
		config[0] = '\0';
	switch (k->source) {
	case PS_DEBUGFS:
		snprintf(buf, len, "from %s", DEBUG_PREEMPT_FILE);
		return;
	case PS_CMDLINE:
		snprintf(buf, len, "PREEMPT_DYNAMIC, preempt=%s on /proc/cmdline",
			 kernel_preempt_name(k->model));
		return;
	case PS_CONFIG:
		if (k->dynamic == 1)
			snprintf(buf, len, "PREEMPT_DYNAMIC, %sbuild default from %s", ignored,
				 k->config);
		else
			snprintf(buf, len, "from %s", k->config);
		return;
	case PS_VERSION:
		if (k->model == PM_NONVOL)
			snprintf(buf, len, "no PREEMPT in %s%s", VERSION_FILE, config);
		else
			snprintf(buf, len, "%s in %s%s", k->model == PM_RT ? "PREEMPT_RT" :
				 k->model == PM_LAZY ? "PREEMPT_LAZY" : "PREEMPT", VERSION_FILE,
				 config);
		return;
	case PS_NONE:
		break;
	}
	if (k->dynamic == 1 && k->config_ignored)
		snprintf(buf, len, "PREEMPT_DYNAMIC, %sno build default%s",
			 ignored[0] ? ignored : "no preempt= on /proc/cmdline, ", config);
	else if (k->dynamic == 1)
		snprintf(buf, len, "PREEMPT_DYNAMIC, %sno build default: no readable %s",
			 ignored[0] ? ignored : "no preempt= on /proc/cmdline, ", k->config);
	else
		snprintf(buf, len, "nothing tells: no readable %s, %s or %s", DEBUG_PREEMPT_FILE,
			 VERSION_FILE, k->config);
}

void kernel_describe(const struct kernel_info *k, char *buf, size_t len)
{
	char series[64], src[512];

	if (k->rcuqs && k->baseline[0])
		snprintf(series, sizeof(series), "rcuqs series for %s", k->baseline);
	else if (k->rcuqs)
		snprintf(series, sizeof(series), "rcuqs patches, baseline unknown");
	else if (k->baseline[0])
		snprintf(series, sizeof(series), "no rcuqs patches (baseline %s)", k->baseline);
	else
		snprintf(series, sizeof(series), "no rcuqs patches");
	describe_source(k, src, sizeof(src));
	snprintf(buf, len, "%s, %s, preemption %s (%s)",
		 k->release[0] ? k->release : "release unknown", series,
		 kernel_preempt_name(k->model), src);
}

const char *kernel_acts(const struct kernel_info *k)
{
	if (!k->rcuqs)
		return "no rcuqs knob: the limit, jiffies_till_nohz_qs and a writable "
		       "jiffies_till_sched_qs need the rcuqs patches";
	if (!k->limit && k->nohz_qs)
		return "no cond_resched_qs_limit on this kernel; jiffies_till_nohz_qs asks a "
		       "nohz_full CPU running in the kernel for its quiescent state directly "
		       "(it acts); jiffies_till_sched_qs acts";
	if (!k->limit)
		return "neither cond_resched_qs_limit nor jiffies_till_nohz_qs on this kernel: "
		       "profiles that set one of them cannot be applied here; "
		       "jiffies_till_sched_qs acts";
	if (k->nohz_qs)
		return k->reports == 1 ?
		       "cond_resched() reports a quiescent state every cond_resched_qs_limit "
		       "calls (the limit acts); jiffies_till_nohz_qs and jiffies_till_sched_qs "
		       "act" :
		       "the limit acts only through cond_resched_lock() and friends, or where "
		       "cond_resched() runs; jiffies_till_nohz_qs and jiffies_till_sched_qs act";
	switch (k->reports) {
	case 1:
		return "cond_resched() reports a quiescent state every cond_resched_qs_limit "
		       "calls (the limit acts); jiffies_till_sched_qs acts";
	case 0:
		return "cond_resched() does nothing on this kernel: the limit acts only through "
		       "cond_resched_lock() and friends; jiffies_till_sched_qs still acts";
	default:
		return "preemption model unknown: whether cond_resched() reports quiescent "
		       "states, and so whether the limit acts through it, is unknown; "
		       "jiffies_till_sched_qs acts";
	}
}

bool kernel_limit_idle(const struct kernel_info *k)
{
	return k->rcuqs && k->limit && !k->nohz_qs && k->reports == 0;
}

/*
 * make bench's latency boot with preempt=full on 6.1: doc/bench-figures'
 * full61_* figures, which doc/bench-quotes holds this text to.
 */
#define LIMIT_FIGURES \
	"measured on 6.1 under preempt=full, grace periods p50 / p99: latency 300.0 / 642.0 ms, the same as default, 300.2 / 640.1 ms; jiffies_till_sched_qs=1 36.0 / 56.0 ms"
const char kernel_limit_figures[] = LIMIT_FIGURES;
const char kernel_limit_instead[] =
	"rcutree.jiffies_till_sched_qs=1 does (a local profile in /etc/rcuqs/profiles with "
	"include=default and that line, then set-profile; " LIMIT_FIGURES ")";

void kernel_warn_limit(const struct rcuqs_ctx *ctx, const char *value)
{
	struct kernel_info k;

	if (!value || !value[0] || strspn(value, "0") == strlen(value))
		return;
	kernel_read(ctx, &k);
	if (k.reports != 0)
		return;
	errmsg("warning: cond_resched() does nothing on this kernel (preemption %s): "
	       "rcutree.cond_resched_qs_limit=%s acts only through cond_resched_lock() and "
	       "friends, and no shipped profile shortens grace periods here; %s",
	       kernel_preempt_name(k.model), value, kernel_limit_instead);
}

int kernel_nohz_full(const struct rcuqs_ctx *ctx, char **list)
{
	int r;

	*list = malloc(NOHZ_FULL_MAX + 1);
	if (!*list)
		return -ENOMEM;
	r = sysfs_read(ctx, NOHZ_FULL, *list, NOHZ_FULL_MAX + 1);
	if (r < 0 && r != -ENOENT) {
		errmsg("cannot read /sys/%s: %s", NOHZ_FULL, errstr(r));
		return r;
	}
	if (r < 0 || strcmp(*list, "(null)") == 0)
		(*list)[0] = '\0';
	return 0;
}
