#!/bin/sh
# check-deb.sh DEB [SUITE]: the Debian package's tests. TAP to
# $RESULTS/deb.tap; with SUITE (trixie: Debian 13), only the lifecycle
# below, in a root of that suite, to $RESULTS/deb-SUITE.tap.
#
#   - the version agrees with the tool's; lintian finds no error and no
#     warning; the .deb holds what "make install" installs; the
#     maintainer scripts are POSIX sh;
#   - make deb and make kernel-deb install only their own sets of
#     packages (install-deps.sh deb, kernel-deb), never QEMU, clang,
#     debootstrap or lintian; make check and make demo the full set;
#   - postrm's sh removal of rcuqs's /etc/kernel/cmdline tokens agrees
#     byte for byte with rcuqs-ctl's cmdline_merge() on random command
#     lines (strip-ref.c), and a deliberately broken copy is caught;
#   - the Maintainer is a real one, the same in debian/control, the
#     changelog and the .deb; the shipped profiles set what
#     debian/profiles.values records, for a version with a debian/NEWS
#     entry (a change to a shipped profile's values needs one), and the
#     .deb has NEWS.Debian;
#   - the lifecycle in a throwaway Debian 12 root: install (with
#     /etc/rcuqs/profiles/ there for the administrator, the autopkgtests
#     of debian/tests/ run against the installed package, the kernel hook
#     that warns when GRUB keeps booting an rcuqs kernel over a new Debian
#     one), reinstall, upgrade to a rebuild with a higher version, remove,
#     purge (the administrator's own profile stays); then install and
#     purge straight away with parameters that cannot be restored.
#
# The root is "debootstrap --variant=minbase SUITE" (bookworm unless
# given), cached as $BUILD/deb-check/SUITE-minbase-*.tar (tests/deb/root.sh).
# The package built on Debian 12 is the one installed
# in Debian 13's root too: its dependencies must resolve there. Nothing is mounted in it: its /sys and /proc are plain directories,
# so what the package's scripts write to /sys lands in fake parameter
# files this script puts there (copied from rcuqs-ctl's pristine fake
# root), never in the host's kernel. systemd does not run there either:
# enablement is checked by the symlink and with "systemctl --root".
set -u

# check-deb.sh --cache SUITE only makes the root's cache (make check starts
# it in the background early, so that debootstrap's downloads overlap the
# steps before the package's); a run that needs the cache waits for it.
cache_only=""
if [ "${1-}" = --cache ]; then
	cache_only=yes
	deb=""
else
	deb=$(realpath "${1:?usage: check-deb.sh DEB [SUITE] | --cache SUITE}")
fi
suite=${2:-bookworm}
case $suite in
bookworm | trixie) ;;
*) echo "check-deb: unknown suite '$suite' (bookworm, trixie)" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
work=$BUILD/deb-check
root=$work/root
tap=$RESULTS/deb.tap
if [ "$suite" != bookworm ]; then
	root=$work/root-$suite
	tap=$RESULTS/deb-$suite.tap
fi
[ -z "$cache_only" ] || tap=$work/cache-$suite.tap
pristine=$top/rcuqs-ctl/tests/rootfs-pristine
# The root's packages: minbase, libkmod2, and what the autopkgtests of
# debian/tests/control depend on; its cache, mirror(), safe_rm(),
# in_root().
. "$here/root.sh"
start=$(date +%s)

mkdir -p "$RESULTS" "$work"
: >"$tap"
. "$top/scripts/tap.sh"

die() {
	not_ok "$1" "${2-}"
	tap_end "$(basename "$tap" .tap)"
	exit 1
}
[ "$(id -u)" -eq 0 ] || {
	echo "1..0 # SKIP the package lifecycle needs root (debootstrap, chroot)" | tee "$tap"
	exit 0
}
if [ -z "$cache_only" ]; then
	[ -f "$deb" ] || die "the package exists" "no $deb: run 'make deb'"
	version=$(dpkg-deb -f "$deb" Version)
	arch=$(dpkg-deb -f "$deb" Architecture)
fi

# debian/tests/control: the autopkgtests' names and dependencies (checked
# below, run in the root of every suite).
at_control=$top/debian/tests/control
at_tests() {
	[ -f "$at_control" ] || return 0
	sed -n 's/^Tests:[[:space:]]*//p' "$at_control" | tr ', ' '\n\n' | sed '/^$/d'
}
# at_depends: the packages the tests depend on, "@" (the package) left out.
at_depends() {
	sed -n 's/^Depends:[[:space:]]*//p' "$at_control" | tr ',' '\n' |
		sed 's/[[:space:]]//g; /^@$/d; /^$/d' | LC_ALL=C sort -u
}

# The package as a file, the dependency sets and postrm's token removal:
# once, with the Debian 12 root; another suite's run has only its lifecycle.
if [ "$suite" = bookworm ] && [ -z "$cache_only" ]; then
# --- the package as a file ------------------------------------------------

check_version() {
	mk=$(sed -n 's/^VERSION := //p' "$top/rcuqs-ctl/Makefile")
	h=$(sed -n 's/^#define RCUQS_VERSION "\(.*\)"/\1/p' "$top/rcuqs-ctl/rcuqs.h")
	[ "$version" = "$mk" ] && [ "$version" = "$h" ] ||
		{ echo "package $version, rcuqs-ctl/Makefile $mk, rcuqs.h $h"; return 1; }
}
check "version: the package's is rcuqs-ctl's ($version)" check_version

check_lintian() {
	lintian --fail-on error,warning "$deb" >"$work/lintian.txt" 2>&1
	rc=$?
	sed -i '/^running with root privileges is not recommended/d' "$work/lintian.txt"
	if [ "$rc" -ne 0 ] || grep -q '^[EW]: ' "$work/lintian.txt"; then
		echo "lintian exited $rc:"
		cat "$work/lintian.txt"
		return 1
	fi
}
check "lintian: no error, no warning" check_lintian

# Every file "make install" installs is in the package, at the same path
# (the units under /lib/systemd/system, see debian/rules; man pages
# compressed by dh_compress); the package has nothing else but its
# /usr/share/doc/rcuqs.
check_contents() {
	inst=$work/make-install
	rm -rf "$inst"
	make -s -C "$top" install DESTDIR="$inst" >"$work/make-install.log" 2>&1 ||
		{ cat "$work/make-install.log"; return 1; }
	(cd "$inst" && find . ! -type d) | sed 's|^\./|/|;
		s|^/usr/lib/systemd/system/|/lib/systemd/system/|;
		s|^\(/usr/share/man/.*\)$|\1.gz|' | sort >"$work/files.make"
	dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./|/|' |
		grep -v '^/usr/share/doc/rcuqs/' | sort >"$work/files.deb"
	[ -s "$work/files.make" ] || { echo "make install installed nothing"; return 1; }
	diff -u "$work/files.make" "$work/files.deb"
}
check "contents: what make install installs, where it installs it" check_contents

check_depends() {
	d=$(dpkg-deb -f "$deb" Depends)
	case ", $d," in
	*", libc6 "* | *", libc6,"*) ;;
	*) echo "no libc6 in Depends: $d"; return 1 ;;
	esac
	case ", $d," in
	*", libkmod2 "* | *", libkmod2,"*) ;;
	*) echo "no libkmod2 in Depends: $d"; return 1 ;;
	esac
}
check "control: Depends has the shared libraries (libc6, libkmod2)" check_depends

# A real Maintainer, the same in the control file, the changelog, NEWS and
# the .deb; not the placeholder the tree started with.
check_maintainer() {
	m=$(dpkg-deb -f "$deb" Maintainer)
	c=$(sed -n 's/^Maintainer: //p' "$top/debian/control")
	l=$(sed -n 's/^ -- \(.*>\)  .*/\1/p' "$top/debian/changelog" | head -n 1)
	nw=$(sed -n 's/^ -- \(.*>\)  .*/\1/p' "$top/debian/NEWS" | head -n 1)
	u=$(sed -n 's/^Upstream-Contact: //p' "$top/debian/copyright")
	for x in "$c" "$l" "$nw" "$u"; do
		[ "$x" = "$m" ] || { echo ".deb Maintainer '$m'; control '$c', changelog '$l', NEWS '$nw', copyright '$u'"; return 1; }
	done
	case $m in
	*[Ss]eed* | *noreply* | *'.example>' | '' | *'<>'*) echo "placeholder Maintainer: $m"; return 1 ;;
	*' <'*@*.*'>') ;;
	*) echo "not 'Name <address>': $m"; return 1 ;;
	esac
}
check "control: a real Maintainer, the same in control, changelog, NEWS, copyright and the .deb" check_maintainer

# profile_values DIR: what DIR's profiles set, as debian/profiles.values
# records it: "NAME SETTING" for each line but comments and descriptions.
profile_values() {
	for f in "$1"/*.profile; do
		n=$(basename "$f" .profile)
		grep -vE '^[[:space:]]*(#|$)' "$f" | grep -vE '^[[:space:]]*description[[:space:]]*=' |
			sed 's/[[:space:]]//g' | sed "s/^/$n /"
	done | LC_ALL=C sort
}
# news_for_values DIR: DIR's profiles set what debian/profiles.values
# records, and the version it records has a debian/NEWS entry no newer
# than the package. "rcuqs-ctl verify" reports drift after an upgrade that
# changes a shipped profile's values: the administrator reads why there.
news_for_values() {
	rec=$top/debian/profiles.values
	[ -f "$rec" ] || { echo "no debian/profiles.values"; return 1; }
	rv=$(sed -n 's/^version //p' "$rec")
	grep -vE '^(#|version )' "$rec" >"$work/values.rec"
	profile_values "$1" >"$work/values.now"
	if ! cmp -s "$work/values.rec" "$work/values.now"; then
		echo "the shipped profiles' values changed since $rv (- recorded, + now):"
		diff -u "$work/values.rec" "$work/values.now" | sed -n '3,$p'
		echo "write a debian/NEWS entry for $version saying what changed, then record the new values and 'version $version' in debian/profiles.values"
		return 1
	fi
	grep -q "^rcuqs ($rv) " "$top/debian/NEWS" ||
		{ echo "debian/NEWS has no entry for $rv, the version debian/profiles.values records"; return 1; }
	dpkg --compare-versions "$rv" le "$version" ||
		{ echo "debian/profiles.values records $rv, newer than the package's $version"; return 1; }
}
check "NEWS: the shipped profiles set what debian/profiles.values records, with a debian/NEWS entry for it" \
	news_for_values "$top/rcuqs-ctl/profiles"
rm -rf "$work/profiles-changed"
mkdir -p "$work/profiles-changed"
cp "$top"/rcuqs-ctl/profiles/*.profile "$work/profiles-changed/"
sed -i 's/rcutree.cond_resched_qs_limit=256$/rcutree.cond_resched_qs_limit=128/' "$work/profiles-changed/latency.profile"
expect_fail "self-test: a shipped profile with a changed value and no NEWS entry is caught" \
	'values changed since' news_for_values "$work/profiles-changed"
has_news() {
	dpkg-deb -c "$deb" | grep -q ' \./usr/share/doc/rcuqs/NEWS\.Debian\.gz$' ||
		{ echo "no /usr/share/doc/rcuqs/NEWS.Debian.gz in the .deb"; return 1; }
}
check "NEWS: the .deb has /usr/share/doc/rcuqs/NEWS.Debian.gz" has_news

# README.Debian: a machine that got the package from a repository learns
# which kernel the tool needs and where to get it.
has_readme_debian() {
	dpkg-deb -c "$deb" | grep -Eq ' \./usr/share/doc/rcuqs/README\.Debian(\.gz)?$' ||
		{ echo "no /usr/share/doc/rcuqs/README.Debian in the .deb"; return 1; }
	for w in "6.1" "6.12" "7.3" "linux-source-6.1" "make kernel-deb" "KERNEL=7.3" \
		"linux-image-rcuqs-6.1-amd64" "doc/fleet.md" "rcuqs-kernel trial" "zz-rcuqs"; do
		grep -Fq -- "$w" "$top/debian/README.Debian" || { echo "debian/README.Debian does not say $w"; return 1; }
	done
}
check "README.Debian: in the .deb, names the baselines, make kernel-deb, the fleet repository, the trial boot" \
	has_readme_debian

# debian/tests/control: every test named is an executable script there.
# (check-deb runs them in the root below.)
check_at_control() {
	[ -f "$at_control" ] || { echo "no debian/tests/control"; return 1; }
	[ -n "$(at_tests)" ] || { echo "debian/tests/control names no test"; return 1; }
	for t in $(at_tests); do
		[ -x "$top/debian/tests/$t" ] || { echo "debian/tests/$t is not an executable"; return 1; }
		sh -n "$top/debian/tests/$t" || return 1
	done
	grep -q '^Tests:.*\bcli\b' "$at_control" || { echo "no 'cli' test (rcuqs-ctl's CLI tests)"; return 1; }
}
check "autopkgtest: debian/tests/control names executable tests, cli among them" check_at_control

check_scripts() {
	ctl=$work/control
	rm -rf "$ctl"
	dpkg-deb -e "$deb" "$ctl"
	for s in preinst postinst prerm postrm; do
		[ -f "$ctl/$s" ] || continue
		head -n 1 "$ctl/$s" | grep -qx '#!/bin/sh' || { echo "$s: not #!/bin/sh"; return 1; }
		dash -n "$ctl/$s" || return 1
		if command -v shellcheck >/dev/null; then
			shellcheck -s sh -S warning "$ctl/$s" || return 1
		fi
	done
}
check "maintainer scripts: POSIX sh (dash -n, shellcheck if installed)" check_scripts

# --- which packages each target installs ------------------------------------

# make deb and make kernel-deb run on administrators' machines: each asks
# install-deps.sh for its own set, never the full one (QEMU, clang...).
# The rules' prerequisites and recipes, from make's database and make -n.
rule_deps() { # TARGET: its prerequisites, from make's database
	env -u MAKEFLAGS -u MAKELEVEL make -C "$top" -pRrq -f Makefile : 2>/dev/null |
		sed -n "s/^$1:\(.*\)/\1/p" | head -n 1
}
deps_calls() { # TARGET [VAR=VALUE]: the install-deps.sh lines of make -n TARGET
	env -u MAKEFLAGS -u MAKELEVEL -u KCONFIG -u KERNEL make --no-print-directory -n -C "$top" "$@" \
		BUILD="$work/make-n" 2>&1 | grep -o 'install-deps\.sh.*' | sed 's/[[:space:]]*$//'
}
check_target_sets() {
	for ts in deb:deb kernel-deb:kernel-deb@6.1 kernel-deb@KERNEL=6.12:kernel-deb@6.12; do
		t=${ts%%:*} want="install-deps.sh ${ts#*:}"
		want=$(echo "$want" | tr @ ' ')
		got=$(deps_calls $(echo "$t" | tr @ ' '))
		t=${t%%@*}
		[ "$got" = "$want" ] || { echo "make -n $t runs: '${got:-no install-deps.sh}', want '$want'"; return 1; }
		case " $(rule_deps "$t") " in
		*" deps "*) echo "$t depends on deps (the full set): $(rule_deps "$t")"; return 1 ;;
		esac
	done
	got=$(deps_calls deps)
	[ "$got" = "install-deps.sh" ] || { echo "make -n deps runs: '$got'"; return 1; }
	for t in check demo; do
		case " $(rule_deps "$t") " in
		*" deps "*) ;;
		*) echo "$t does not depend on deps (the full set): '$(rule_deps "$t")'"; return 1 ;;
		esac
	done
}
check "deps: make deb installs the 'deb' set, make kernel-deb the 'kernel-deb' set (for KERNEL=6.1 or 6.12), check and demo all (make -n, make -p)" \
	check_target_sets

# Plain make (the default goal) builds the tool and nothing else: no
# install-deps.sh (whose full set needs Debian 12's linux-source-6.1 and
# fails on Debian 13), no kernel, guest or package; every command it would
# run is rcuqs-ctl's build's (make -n, in a scratch BUILD).
default_goal_tool_only() {
	env -u MAKEFLAGS -u MAKELEVEL -u KCONFIG -u KERNEL make --no-print-directory -n -C "$top" \
		BUILD="$work/make-n-default" >"$work/make-n-default.out" 2>&1 ||
		{ echo "make -n failed:"; tail -n 5 "$work/make-n-default.out"; return 1; }
	! grep -E 'install-deps|kernel-patches|guest-image|debootstrap|apt-get|build-deb|dpkg-buildpackage' \
		"$work/make-n-default.out" || { echo "make (default goal) would run the above"; return 1; }
	grep -q 'rcuqs-ctl/rcuqs-ctl\|-o rcuqs-ctl ' "$work/make-n-default.out" ||
		{ echo "make (default goal) does not link rcuqs-ctl:"; tail -n 5 "$work/make-n-default.out"; return 1; }
	case " $(rule_deps all) " in
	*" deps "*) echo "all depends on deps: $(rule_deps all)"; return 1 ;;
	esac
}
check "make (the default goal) builds rcuqs-ctl only: no install-deps.sh, kernel, guest or package (make -n)" \
	default_goal_tool_only

# set_pkgs SET [KERNEL]: the packages install-deps.sh SET would install on
# a Debian 12 box that has none (stubs for dpkg-query, apt-cache and
# apt-get; nothing is installed, the backports source goes to a scratch
# file).
set_pkgs() {
	stub=$work/deps-stub
	rm -rf "$stub"
	mkdir -p "$stub"
	printf '#!/bin/sh\nexit 1\n' >"$stub/dpkg-query"
	printf '#!/bin/sh\necho "  Candidate: (none)"\n' >"$stub/apt-cache"
	printf '#!/bin/sh\nshift 2\necho "$@" >>"%s/args"\n' "$stub" >"$stub/apt-get"
	chmod +x "$stub/dpkg-query" "$stub/apt-cache" "$stub/apt-get"
	PATH="$stub:$PATH" RCUQS_BPO_SOURCES=$stub/bpo.sources RCUQS_TBPO_SOURCES=$stub/tbpo.sources \
		RCUQS_TBPO_PREFS=$stub/tbpo.pref \
		sh "$top/scripts/install-deps.sh" $1 ${2-} >/dev/null 2>&1 || return 1
	sed -n 's/^.*install -y --no-install-recommends //p' "$stub/args" | tr ' ' '\n' | sed '/^$/d' | sort -u
}
check_set_contents() {
	full=$(set_pkgs full) || { echo "install-deps.sh full failed"; return 1; }
	[ "$(set_pkgs '')" = "$full" ] || { echo "no argument is not the full set"; return 1; }
	for heavy in qemu-system-x86 clang gnuplot-nox debootstrap lintian dracut-core; do
		echo "$full" | grep -qx "$heavy" || { echo "the full set lacks $heavy"; return 1; }
	done
	for s in deb kernel-deb kernel-deb@6.12 kernel-deb@7.3; do
		pk=$(set_pkgs $(echo "$s" | tr @ ' ')) || { echo "install-deps.sh $s failed"; return 1; }
		[ -n "$pk" ] || { echo "set $s is empty"; return 1; }
		for heavy in qemu-system-x86 clang gnuplot-nox debootstrap lintian dracut-core; do
			echo "$pk" | grep -qx "$heavy" && { echo "set $s installs $heavy"; return 1; }
		done
	done
	# Each kernel-deb set brings its own tree, and only that one.
	echo "$full" | grep -qx linux-source-6.12 || { echo "the full set lacks linux-source-6.12"; return 1; }
	pk=$(set_pkgs kernel-deb)
	echo "$pk" | grep -qx linux-source-6.1 || { echo "set kernel-deb lacks linux-source-6.1"; return 1; }
	echo "$pk" | grep -qx linux-source-6.12 && { echo "set kernel-deb (6.1) installs linux-source-6.12"; return 1; }
	pk=$(set_pkgs kernel-deb 6.12)
	echo "$pk" | grep -qx linux-source-6.12 || { echo "set kernel-deb 6.12 lacks linux-source-6.12"; return 1; }
	echo "$pk" | grep -qx linux-source-6.1 && { echo "set kernel-deb 6.12 installs linux-source-6.1"; return 1; }
	pk=$(set_pkgs kernel-deb 7.3)
	echo "$pk" | grep -qx 'linux-source-7.3/trixie-backports' || { echo "set kernel-deb 7.3 lacks linux-source-7.3 from trixie-backports"; return 1; }
	echo "$pk" | grep -qx 'linux-source-6.1\|linux-source-6.12' && { echo "set kernel-deb 7.3 installs another tree"; return 1; }
	if sh "$top/scripts/install-deps.sh" kernel-deb 7.4 >/dev/null 2>&1; then
		echo "kernel-deb for an unknown kernel was accepted"
		return 1
	fi
	# The deb set builds the package: dpkg-buildpackage's implicit
	# build-essential, debhelper, and debian/control's Build-Depends.
	pk=$(set_pkgs deb)
	bd=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$top/debian/control" | sed '$d' |
		sed 's/^Build-Depends://' | tr ',' '\n' | sed 's/[(<].*//; s/^[[:space:]]*//; s/[[:space:]]*$//' |
		sed '/^$/d; s/^debhelper-compat$/debhelper/')
	for p in build-essential $bd; do
		echo "$pk" | grep -qx "$p" || { echo "set deb lacks $p (Build-Depends or build-essential)"; return 1; }
	done
	if sh "$top/scripts/install-deps.sh" no-such-set >/dev/null 2>&1; then
		echo "an unknown set was accepted"
		return 1
	fi
}
check "deps: the deb and kernel-deb sets hold no QEMU, clang, gnuplot, debootstrap, lintian, dracut; each kernel-deb set its own linux-source; deb covers Build-Depends" \
	check_set_contents

# --- postrm's token removal against rcuqs-ctl's -----------------------------

# The functions of the shipped postrm that remove the tokens, alone.
postrm_funcs() {
	sed -n '/^NL=/,/^'"'"'/p; /^TAB=/p; /^CR=/p; /^VT=/p; /^FF=/p;
		/^strip_tokens() {/,/^}/p; /^st_pass() {/,/^}/p;
		/^is_blank() {/,/^}/p; /^st_token_end() {/,/^}/p' "$1"
}

# same_as_c FUNCS DIR N: FUNCS' strip_tokens gives DIR/K.out for K.in, K.prev.
same_as_c() {
	dash -c '
		. "$1"
		bad=0
		k=1
		while [ "$k" -le "$3" ]; do
			old=$(cat "$2/$k.in" && echo x)
			strip_tokens "${old%x}" "$(cat "$2/$k.prev")" >"$2/$k.sh"
			if ! cmp -s "$2/$k.sh" "$2/$k.out"; then
				bad=$((bad + 1))
				if [ "$bad" -le 3 ]; then
					echo "case $k: drop-in tokens: $(cat "$2/$k.prev")"
					echo "input:"; od -c "$2/$k.in"
					echo "rcuqs-ctl: "; od -c "$2/$k.out"
					echo "postrm:"; od -c "$2/$k.sh"
				fi
			fi
			k=$((k + 1))
		done
		[ "$bad" -eq 0 ] || { echo "$bad of $3 differ"; exit 1; }
	' same_as_c "$@"
}

diff_dir=$work/strip-cases
rm -rf "$diff_dir"
mkdir -p "$diff_dir"
postrm_funcs "$work/control/postrm" >"$work/strip.sh"
ncases=${RCUQS_DEB_STRIP_CASES:-300}
if cc -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$top/rcuqs-ctl" \
	-o "$work/strip-ref" "$here/strip-ref.c" \
	"$top"/rcuqs-ctl/bootcfg.c "$top"/rcuqs-ctl/profile.c \
	"$top"/rcuqs-ctl/tunables.c "$top"/rcuqs-ctl/util.c 2>"$work/strip-ref.log" &&
	"$work/strip-ref" "$diff_dir" "$ncases" "${RCUQS_DEB_STRIP_SEED:-$start}"; then
	check "postrm: removes rcuqs's cmdline tokens as cmdline_strip() does ($ncases random cases)" \
		same_as_c "$work/strip.sh" "$diff_dir" "$ncases"
	# Self-test: a removal that leaves the blanks before a token behind.
	sed 's/^\t\tst_gap=.. st_tok=..$/\t\tst_tok=""/' "$work/strip.sh" >"$work/strip-broken.sh"
	if cmp -s "$work/strip.sh" "$work/strip-broken.sh"; then
		not_ok "self-test: the broken copy of strip_tokens differs" "the sed edit no longer applies"
	else
		expect_fail "self-test: a strip_tokens that keeps the blanks is caught" \
			'differ' same_as_c "$work/strip-broken.sh" "$diff_dir" "$ncases"
	fi
else
	not_ok "postrm: removes rcuqs's cmdline tokens as cmdline_strip() does" "$(cat "$work/strip-ref.log")"
fi

fi

# --- the throwaway root -----------------------------------------------------

if how=$(root_cache); then
	[ -z "$cache_only" ] || exit 0
	case $how in
	debootstrap) ok "root: debootstrap $suite minbase ($(($(date +%s) - start)) s so far)" ;;
	*) ok "root: $suite minbase $how" ;;
	esac
else
	die "root: debootstrap $suite minbase" "$how"
fi

msg=$(root_fresh) || die "root: a fresh copy" "$msg"
os=$(. "$root/etc/os-release" 2>/dev/null && echo "$VERSION_CODENAME")
check "root: it is Debian's $suite (os-release: ${os:-none})" [ "$os" = "$suite" ]

# Nothing of the host's kernel interfaces in the root, ever.
no_host_kernel() {
	for d in sys proc; do
		if mountpoint -q "$root/$d"; then
			echo "$root/$d is a mount point"
			return 1
		fi
	done
}
check "root: /sys and /proc are plain directories" no_host_kernel

# --- fixtures ---------------------------------------------------------------

# The fake parameters, with the values of a kernel rcuqs never touched.
cp -a "$pristine/sys/." "$root/sys/"
cp -a "$pristine/proc/." "$root/proc/"
param() { cat "$root/sys/module/$1/parameters/$2"; }

# /etc/kernel/cmdline with odd bytes: double blanks, a tab, an
# administrator's own parameters, a quoted one, "--" with init's
# arguments after it (one of them looks like rcuqs's own token), a blank
# before the newline; mode 0640, owner 4242:4243.
mkdir -p "$root/etc/kernel" "$root/etc/default/grub.d"
printf 'root=UUID=0f3e2a1c  ro\tquiet  mitigations=auto "acpi_osi=Linux x" -- single rcutree.jiffies_till_sched_qs=1000 \n' \
	>"$root/etc/kernel/cmdline"
chown 4242:4243 "$root/etc/kernel/cmdline"
chmod 0640 "$root/etc/kernel/cmdline"
cp -p "$root/etc/kernel/cmdline" "$work/cmdline.orig"
stat_of() { stat -c '%a %u:%g' "$1"; }

# What was in the root before the package: everything after the purge
# must be this again (dpkg's own records and logs aside).
listing() {
	(cd "$root" && find . \( -path ./var/lib/dpkg -o -path ./var/log -o -path ./var/cache \
		-o -path ./tmp -o -path ./var/lib/systemd/deb-systemd-helper-enabled \) -prune -o -print) |
		LC_ALL=C sort
}
listing >"$work/listing.before"

cp "$deb" "$root/tmp/"
pkg=/tmp/$(basename "$deb")

# --- install ---------------------------------------------------------------

check "install: dpkg -i" in_root dpkg -i "$pkg"

installed() {
	s=$(in_root dpkg-query -W -f='${db:Status-Abbrev} ${Version}' rcuqs 2>&1)
	[ "$s" = "$1" ] || { echo "rcuqs: '$s', expected '$1'"; return 1; }
}
check "install: rcuqs $version installed" installed "ii  $version"
in_root dpkg -L rcuqs >"$work/dpkg-L.txt"

files_there() {
	for f in /usr/sbin/rcuqs-ctl /usr/lib/rcuqs/profiles/default.profile \
		/usr/lib/rcuqs/profiles/latency.profile /usr/lib/rcuqs/profiles/throughput.profile \
		/usr/lib/rcuqs/profiles/linux-3.16.profile \
		/lib/systemd/system/rcuqs.service /lib/systemd/system/rcuqs-profile@.service \
		/usr/share/man/man8/rcuqs-ctl.8.gz /usr/share/man/man5/rcuqs.profile.5.gz \
		/usr/share/man/man7/rcuqs.7.gz /usr/share/doc/rcuqs/copyright \
		/usr/share/bash-completion/completions/rcuqs-ctl; do
		[ -f "$root$f" ] || { echo "missing: $f"; return 1; }
	done
}
check "install: the tool, profiles, units, man pages, bash completion in place" files_there

wants=/etc/systemd/system/sysinit.target.wants/rcuqs.service
enabled() {
	[ -L "$root$wants" ] || { echo "no link $wants"; return 1; }
	t=$(readlink "$root$wants")
	[ "$t" = /lib/systemd/system/rcuqs.service ] || { echo "$wants -> $t"; return 1; }
	s=$(systemctl --root="$root" is-enabled rcuqs.service 2>&1)
	[ "$s" = enabled ] || { echo "systemctl --root is-enabled rcuqs.service: $s"; return 1; }
}
check "install: rcuqs.service enabled ($wants, systemctl --root)" enabled

template_static() {
	links=$(find "$root/etc/systemd" -name 'rcuqs-profile@*' 2>/dev/null)
	[ -z "$links" ] || { echo "links to the template: $links"; return 1; }
	s=$(systemctl --root="$root" is-enabled rcuqs-profile@.service 2>&1)
	[ "$s" = static ] || { echo "systemctl --root is-enabled rcuqs-profile@.service: $s"; return 1; }
}
check "install: rcuqs-profile@.service not enabled (static)" template_static

# The trial's assessment: enabled, with /etc/default/rcuqs-kernel a
# conffile and the administrator's checks' folder in place.
assess_enabled() {
	s=$(systemctl --root="$root" is-enabled rcuqs-kernel-assess.service 2>&1)
	[ "$s" = enabled ] || { echo "systemctl --root is-enabled rcuqs-kernel-assess.service: $s"; return 1; }
	[ -L "$root/etc/systemd/system/multi-user.target.wants/rcuqs-kernel-assess.service" ] ||
		{ echo "no multi-user.target.wants link"; return 1; }
	in_root dpkg-query -W -f='${Conffiles}\n' rcuqs | grep -q ' /etc/default/rcuqs-kernel ' ||
		{ echo "/etc/default/rcuqs-kernel is not a conffile"; return 1; }
	grep -qx 'RCUQS_AUTO_TRIAL=yes' "$root/etc/default/rcuqs-kernel" && [ -d "$root/etc/rcuqs/kernel-checks.d" ] ||
		{ echo "/etc/default/rcuqs-kernel or /etc/rcuqs/kernel-checks.d missing"; return 1; }
}
check "install: rcuqs-kernel-assess.service enabled, /etc/default/rcuqs-kernel a conffile (RCUQS_AUTO_TRIAL=yes), /etc/rcuqs/kernel-checks.d there" assess_enabled

untouched() {
	v=$(param rcutree jiffies_till_sched_qs)
	[ "$v" = "$1" ] || { echo "rcutree.jiffies_till_sched_qs is '$v', expected '$1'"; return 1; }
}
check "install: no kernel parameter written" untouched auto

version_runs() {
	v=$(in_root rcuqs-ctl --version 2>&1)
	[ "$v" = "rcuqs-ctl ${version%%[+~]*}" ] || { echo "rcuqs-ctl --version: $v"; return 1; }
}
check "install: rcuqs-ctl runs (libraries resolved)" version_runs

# The directory for the administrator's profiles is there, and
# rcuqs.profile(5)'s way of installing one works.
profiles_dir() {
	d=$root/etc/rcuqs/profiles
	[ -d "$d" ] && [ ! -L "$d" ] || { echo "no directory /etc/rcuqs/profiles"; return 1; }
	s=$(stat -c '%a %u:%g' "$d")
	[ "$s" = "755 0:0" ] || { echo "/etc/rcuqs/profiles: $s, want 755 0:0"; return 1; }
	printf 'description=latency, with stall warnings after 10 s\ninclude=latency\nrcupdate.rcu_cpu_stall_timeout=10\n' \
		>"$root/tmp/latency-stall10.profile"
	in_root sh -c 'cd /tmp && install -m 0644 latency-stall10.profile /etc/rcuqs/profiles/ &&
		rcuqs-ctl show latency-stall10' || return 1
	rm -f "$d/latency-stall10.profile"
}
check "install: /etc/rcuqs/profiles/ there (0755 root); rcuqs.profile(5)'s install -m 0644 into it works" profiles_dir

# The autopkgtests of debian/tests/control, as autopkgtest runs them:
# from the source tree, against the installed package, in the root.
at_run() {
	t=$1
	rm -rf "$root/tmp/src" "$root/tmp/at-$t"
	mkdir -p "$root/tmp/src" "$root/tmp/at-$t/tmp" "$root/tmp/at-$t/artifacts"
	tar -C "$top" -cf - --exclude=./rcuqs-ctl/rcuqs-ctl ./Makefile ./scripts ./debian/tests ./debian/rcuqs.postrm \
		./debian/control ./debian/changelog ./rcuqs-ctl ./systemd-units ./man |
		tar -C "$root/tmp/src" -xf - || return 1
	in_root env AUTOPKGTEST_TMP="/tmp/at-$t/tmp" AUTOPKGTEST_ARTIFACTS="/tmp/at-$t/artifacts" \
		sh -c 'cd /tmp/src && "debian/tests/$1"' at "$t" >"$work/at-$t.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "debian/tests/$t exited $rc:"
		tail -n 30 "$work/at-$t.log"
		return 1
	fi
	tail -n 1 "$work/at-$t.log"
}
[ -n "$(at_tests)" ] || not_ok "autopkgtest: debian/tests/control names the tests to run in the root"
for t in $(at_tests); do
	check "autopkgtest $t: passes against the installed package in the root" at_run "$t"
	case $t in
	cli)
		# It really ran the CLI cases, all of them.
		at_cli_count() {
			tapf=$root/tmp/at-cli/artifacts/rcuqs-ctl-cli.tap
			want=$(cd "$top/rcuqs-ctl/tests/cli" && for d in */; do [ -f "$d/cmd" ] && echo x; done | wc -l)
			got=$(grep -c '^ok ' "$tapf" 2>/dev/null)
			[ "$got" -eq "$want" ] && [ "$want" -gt 0 ] ||
				{ echo "$got of $want CLI cases passed"; return 1; }
		}
		check "autopkgtest cli: every CLI case ran and passed with /usr/sbin/rcuqs-ctl (skipped only for what the root lacks: $(grep -c '# SKIP' "$root/tmp/at-cli/artifacts/rcuqs-ctl-cli.tap" 2>/dev/null || echo 0))" at_cli_count
		;;
	esac
done
rm -rf "$root/tmp/src" "$root"/tmp/at-*

# The kernel hook (/etc/kernel/postinst.d/zz-rcuqs): when a Debian kernel
# that GRUB sorts below (above) an installed rcuqs kernel of its series is
# installed, it says that the rcuqs kernel needs rebuilding (and that GRUB
# now boots the new one); an rcuqs kernel's own install arms its trial.
kernel_hook() {
	h=/etc/kernel/postinst.d/zz-rcuqs
	[ -x "$root$h" ] || { echo "no executable $h"; return 1; }
	made_boot=""
	[ -d "$root/boot" ] || { mkdir "$root/boot" && made_boot=1; }
	: >"$root/boot/vmlinuz-6.1.0-28-amd64"
	o=$(in_root "$h" 6.1.0-28-amd64 /boot/vmlinuz-6.1.0-28-amd64 2>&1) || return 1
	[ -z "$o" ] || { echo "no rcuqs kernel, yet: $o"; return 1; }
	: >"$root/boot/vmlinuz-6.1.192-rcuqs1"
	: >"$root/boot/vmlinuz-6.1.0-99-amd64"
	o=$(in_root "$h" 6.1.0-99-amd64 /boot/vmlinuz-6.1.0-99-amd64 2>&1) || return 1
	echo "$o" | grep -q 'WARNING: Linux 6.1.0-99-amd64 was installed' &&
		echo "$o" | grep -q 'keeps booting 6.1.192-rcuqs1 by default' &&
		echo "$o" | grep -q 'make kernel-deb' || { echo "no warning: $o"; return 1; }
	# The rcuqs kernel's own install arms its trial (rcuqs-kernel arm);
	# this root has no GRUB: said, and the install does not fail.
	o=$(in_root "$h" 6.1.192-rcuqs1 /boot/vmlinuz-6.1.192-rcuqs1 2>&1) || return 1
	echo "$o" | grep -q 'WARNING: 6.1.192-rcuqs1 installed, but its trial boot could not be armed: update-grub is missing' ||
		{ echo "the rcuqs kernel's own install: $o"; return 1; }
	# A kernel of another series: not the rcuqs kernel's concern.
	: >"$root/boot/vmlinuz-6.12.117+deb13-amd64"
	o=$(in_root "$h" 6.12.117+deb13-amd64 /boot/vmlinuz-6.12.117+deb13-amd64 2>&1) || return 1
	[ -z "$o" ] || { echo "a 6.12 kernel warned about the 6.1 rcuqs kernel: $o"; return 1; }
	# One GRUB sorts above the rcuqs kernel of its series boots instead.
	: >"$root/boot/vmlinuz-6.1.200-1-amd64"
	o=$(in_root "$h" 6.1.200-1-amd64 /boot/vmlinuz-6.1.200-1-amd64 2>&1) || return 1
	# The procedure of doc/install.md and rcuqs(7), "Kernel updates".
	echo "$o" | grep -q 'GRUB will boot 6.1.200-1-amd64 by default' &&
		echo "$o" | grep -qF 'make kernel-deb KERNEL=6.1 KCONFIG=$(ls -v /boot/config-*-amd64 | tail -n 1)' &&
		echo "$o" | grep -qF 'apt install $(cat build/kernel-deb.install)   # armed for one trial boot' &&
		echo "$o" | grep -qF 'rcuqs-kernel status' ||
		{ echo "a kernel GRUB sorts above the rcuqs kernel, no warning: $o"; return 1; }
	# 6.12: the same, with KERNEL=6.12 in the rebuild.
	: >"$root/boot/vmlinuz-6.12.95-rcuqs2"
	o=$(in_root "$h" 6.12.95+deb13-amd64 /boot/vmlinuz-6.12.95+deb13-amd64 2>&1) || return 1
	echo "$o" | grep -q 'keeps booting 6.12.95-rcuqs2 by default' &&
		echo "$o" | grep -q 'linux-source-6.12' &&
		echo "$o" | grep -qF 'make kernel-deb KERNEL=6.12 KCONFIG=$(ls -v /boot/config-*-amd64 | tail -n 1)' || { echo "6.12, same sublevel: $o"; return 1; }
	o=$(in_root "$h" 6.12.117+deb13-amd64 /boot/vmlinuz-6.12.117+deb13-amd64 2>&1) || return 1
	echo "$o" | grep -q 'GRUB will boot 6.12.117+deb13-amd64 by default' &&
		echo "$o" | grep -qF 'make kernel-deb KERNEL=6.12 KCONFIG=$(ls -v /boot/config-*-amd64 | tail -n 1)' || { echo "6.12, later sublevel: $o"; return 1; }
	rm -f "$root/boot"/vmlinuz-*
	[ -z "$made_boot" ] || rmdir "$root/boot"
}
check "install: the kernel hook warns when GRUB keeps booting an rcuqs kernel over a new Debian one of its series (6.1, 6.12), or boots the new one instead, only then; an rcuqs kernel's install arms its trial (here: no GRUB, said)" kernel_hook
# Stale or current, from the packages' versions: an rcuqs kernel package
# says the Debian upload it was built from (6.1.192-3+rcuqs2); a Debian
# kernel of that upload is no news, one of a newer upload is. Fake kernel
# packages, installed with dpkg in the root and purged afterwards.
kernel_hook_versions() {
	h=/etc/kernel/postinst.d/zz-rcuqs
	made_boot=""
	[ -d "$root/boot" ] || { mkdir "$root/boot" && made_boot=1; }
	fake() { # RELEASE VERSION: linux-image-RELEASE VERSION, installed
		d=$root/tmp/fake-$1
		rm -rf "$d" && mkdir -p "$d/DEBIAN" "$d/boot"
		printf 'image\n' >"$d/boot/vmlinuz-$1"
		printf 'Package: linux-image-%s\nVersion: %s\nArchitecture: amd64\nMaintainer: t <t@localhost>\nDescription: fake kernel\n' \
			"$1" "$2" >"$d/DEBIAN/control"
		dpkg-deb --root-owner-group -b "$d" "$root/tmp/fake-$1.deb" >/dev/null &&
			in_root dpkg -i "/tmp/fake-$1.deb" >/dev/null 2>&1 && rm -rf "$d" "$root/tmp/fake-$1.deb"
	}
	rc=0
	# Two rcuqs builds installed (apt keeps two): GRUB boots the newer.
	fake 6.1.190-rcuqs2 6.1.190-1+rcuqs2 && fake 6.1.192-rcuqs2 6.1.192-3+rcuqs2 &&
		fake 6.1.0-98-amd64 6.1.192-3 && fake 6.1.0-99-amd64 6.1.195-1 ||
		{ echo "cannot install the fake kernels"; rc=1; }
	if [ $rc = 0 ]; then
		o=$(in_root "$h" 6.1.0-98-amd64 /boot/vmlinuz-6.1.0-98-amd64 2>&1)
		echo "$o" | grep -q 'rcuqs kernel 6.1.192-rcuqs2, which GRUB boots, was built from Debian 6.1.192-3 and has its fixes: nothing to do' &&
			! echo "$o" | grep -q WARNING || { echo "same upload: $o"; rc=1; }
		o=$(in_root "$h" 6.1.0-99-amd64 /boot/vmlinuz-6.1.0-99-amd64 2>&1)
		echo "$o" | grep -q 'WARNING: Linux 6.1.0-99-amd64 (Debian 6.1.195-1) was installed' &&
			echo "$o" | grep -q '6.1.192-rcuqs2 (built from Debian 6.1.192-3)' || { echo "newer upload: $o"; rc=1; }
	fi
	in_root dpkg --purge linux-image-6.1.190-rcuqs2 linux-image-6.1.192-rcuqs2 linux-image-6.1.0-98-amd64 linux-image-6.1.0-99-amd64 >/dev/null 2>&1
	rm -f "$root/boot"/vmlinuz-*
	[ -z "$made_boot" ] || rmdir "$root/boot"
	return $rc
}
check "install: the kernel hook tells a current rcuqs kernel (built from the Debian upload just installed: one line, no warning) from a stale one (a newer upload: the warning names both versions), judging the newer of two rcuqs builds, which GRUB boots" kernel_hook_versions

# --- the administrator uses it ----------------------------------------------

# set-profile, against the fake parameters: writes them, records the
# profile, the drop-in and /etc/kernel/cmdline.
set_profile() {
	in_root rcuqs-ctl set-profile throughput || return 1
	[ "$(param rcutree jiffies_till_sched_qs)" = 1000 ] || { echo "parameter not written"; return 1; }
	grep -q 'rcutree.jiffies_till_sched_qs=1000 -- single' "$root/etc/kernel/cmdline" ||
		{ echo "/etc/kernel/cmdline: $(cat "$root/etc/kernel/cmdline")"; return 1; }
	grep -qx 'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX rcutree.jiffies_till_sched_qs=1000"' \
		"$root/etc/default/grub.d/rcuqs.cfg" || { cat "$root/etc/default/grub.d/rcuqs.cfg"; return 1; }
}
check "use: rcuqs-ctl set-profile throughput in the root" set_profile

# The values before rcuqs's first write, as rcuqs-ctl records them
# (written here when the tool predates the record), plus lines the purge
# must skip: a module the kernel lacks, a name with "..", a bad value (for
# a parameter set-profile did not record: the first line of a name wins).
if [ ! -f "$root/etc/rcuqs/original" ]; then
	printf '# rcuqs-ctl: values before its first write\nrcutree.jiffies_till_sched_qs=auto\n' \
		>"$root/etc/rcuqs/original"
fi
cat >>"$root/etc/rcuqs/original" <<'EOF'
# added by check-deb.sh
rcupdate.rcu_cpu_stall_timeout=21
rcu_nosuch.param=5
rcutree.../../../../etc/evil=1
rcutree.jiffies_till_next_fqs=12abc
EOF
echo 60 >"$root/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout"
mkdir -p "$root/etc/rcuqs/profiles"
printf 'include=latency\nrcutree.jiffies_till_first_fqs=2\n' >"$root/etc/rcuqs/profiles/mine.profile"
printf 'rcutree.jiffies_till_sched_qs 5 4\n' >"$root/run/rcuqs.adjusted"

# What no package operation but purge may change.
snapshot() {
	(cd "$root" && find etc/rcuqs etc/default/grub.d etc/kernel -type f -exec sha256sum {} + &&
		stat -c '%n %a %u:%g' etc/kernel/cmdline) | sort
	for p in rcutree/jiffies_till_sched_qs rcutree/cond_resched_qs_limit rcupdate/rcu_cpu_stall_timeout; do
		echo "$p=$(param "${p%/*}" "${p#*/}")"
	done
}
snapshot >"$work/admin.state"
kept() {
	snapshot >"$work/admin.now"
	diff -u "$work/admin.state" "$work/admin.now"
}

# --- reinstall, upgrade ----------------------------------------------------

check "reinstall: dpkg -i of the same package" in_root dpkg -i "$pkg"
check "reinstall: rcuqs.service still enabled" enabled
check "reinstall: the administrator's files and the parameters unchanged" kept

next="$version+lifecycle1"
if ! DEB_BUILD_OPTIONS=nocheck "$top/scripts/build-deb.sh" "$work/next" "$next" \
	>"$work/build-next.log" 2>&1; then
	not_ok "upgrade: build $next" "$(tail -n 20 "$work/build-next.log")"
else
	cp "$work/next/rcuqs_${next}_$arch.deb" "$root/tmp/"
	# The administrator disabled the unit: the upgrade must keep that.
	systemctl --root="$root" --quiet disable rcuqs.service
	check "upgrade: dpkg -i $next" in_root dpkg -i "/tmp/rcuqs_${next}_$arch.deb"
	check "upgrade: rcuqs $next installed" installed "ii  $next"
	disabled() {
		s=$(systemctl --root="$root" is-enabled rcuqs.service 2>&1)
		[ "$s" = disabled ] && [ ! -e "$root$wants" ] ||
			{ echo "is-enabled: $s; $(ls -l "$root$wants" 2>&1)"; return 1; }
	}
	check "upgrade: the administrator's disable of rcuqs.service kept" disabled
	systemctl --root="$root" --quiet enable rcuqs.service
	check "upgrade: the recorded profile, the administrator's files, the parameters unchanged" kept
fi

# --- remove -----------------------------------------------------------------

check "remove: dpkg -r" in_root dpkg -r rcuqs
check "remove: config-files state (purge still to come)" installed "rc  $next"
binary_gone() { [ ! -e "$root/usr/sbin/rcuqs-ctl" ] || { echo "/usr/sbin/rcuqs-ctl still there"; return 1; }; }
check "remove: rcuqs-ctl gone" binary_gone
check "remove: /etc/rcuqs, the drop-in, /etc/kernel/cmdline and the parameters unchanged" kept

# --- purge ------------------------------------------------------------------

purge_out=$work/purge.out
# purge_to FILE: dpkg --purge rcuqs in the root, its output to FILE.
purge_to() { in_root dpkg --purge rcuqs >"$1" 2>&1 || { cat "$1"; return 1; }; }
check "purge: dpkg --purge" purge_to "$purge_out"
unknown() {
	s=$(in_root dpkg-query -W -f='${db:Status-Abbrev}' rcuqs 2>/dev/null)
	[ -z "$s" ] || [ "$s" = "un " ] || { echo "dpkg still has rcuqs: $s"; return 1; }
}
check "purge: rcuqs no longer known to dpkg" unknown

restored() {
	for pv in rcutree/jiffies_till_sched_qs=auto rcupdate/rcu_cpu_stall_timeout=21 \
		rcutree/cond_resched_qs_limit=0; do
		p=${pv%%=*} want=${pv#*=}
		got=$(param "${p%/*}" "${p#*/}")
		[ "$got" = "$want" ] || { echo "$p: '$got', expected '$want'"; cat "$purge_out"; return 1; }
	done
}
check "purge: the recorded parameters restored" restored

skipped() {
	[ ! -e "$root/sys/module/rcu_nosuch" ] || { echo "rcu_nosuch created"; return 1; }
	[ ! -e "$root/etc/evil" ] || { echo "/etc/evil created"; return 1; }
	grep -q 'not restoring rcu_nosuch.param=5' "$purge_out" &&
		grep -q 'not a parameter name, ignored: rcutree\.\.\./' "$purge_out" &&
		grep -q "jiffies_till_next_fqs: not a decimal or 'auto'" "$purge_out" ||
		{ cat "$purge_out"; return 1; }
}
check "purge: a missing parameter, a bad name, a bad value skipped with a message" skipped

cmdline_back() {
	cmp "$work/cmdline.orig" "$root/etc/kernel/cmdline" ||
		{ od -c "$root/etc/kernel/cmdline"; return 1; }
	a=$(stat_of "$work/cmdline.orig") b=$(stat_of "$root/etc/kernel/cmdline")
	[ "$a" = "$b" ] || { echo "mode/owner $b, was $a"; return 1; }
}
check "purge: /etc/kernel/cmdline byte for byte as before set-profile, mode and owner too" cmdline_back

said_update_grub() { grep -q 'run update-grub' "$purge_out" || { cat "$purge_out"; return 1; }; }
check "purge: says update-grub is due" said_update_grub

# The administrator's profile (written under "use" above) stays, byte for
# byte, and the purge says so; what rcuqs-ctl wrote in /etc/rcuqs goes.
admin_profile_kept() {
	f=$root/etc/rcuqs/profiles/mine.profile
	[ "$(cat "$f" 2>/dev/null)" = "$(printf 'include=latency\nrcutree.jiffies_till_first_fqs=2')" ] ||
		{ echo "/etc/rcuqs/profiles/mine.profile gone or changed"; ls -la "$root/etc/rcuqs" 2>&1; return 1; }
	grep -q 'kept /etc/rcuqs/profiles: it holds profiles you wrote (mine.profile)' "$purge_out" ||
		{ cat "$purge_out"; return 1; }
	left=$(cd "$root/etc/rcuqs" && find . ! -path . ! -path ./profiles ! -path ./profiles/mine.profile)
	[ -z "$left" ] || { echo "left in /etc/rcuqs: $left"; return 1; }
}
check "purge: the administrator's profile in /etc/rcuqs/profiles/ kept (and said), rcuqs-ctl's files gone" admin_profile_kept
# The administrator removes it; then nothing may be left.
rm -f "$root/etc/rcuqs/profiles/mine.profile"
rmdir "$root/etc/rcuqs/profiles" "$root/etc/rcuqs" 2>/dev/null

nothing_left() {
	left=""
	for f in /etc/rcuqs /etc/default/grub.d/rcuqs.cfg /run/rcuqs.adjusted /run/rcuqs.lock \
		"$wants" /var/lib/systemd/deb-systemd-helper-enabled/rcuqs.service.dsh-also; do
		if [ -e "$root$f" ] || [ -L "$root$f" ]; then left="$left $f"; fi
	done
	# Every file and link the package installed (directories: the
	# listing below; /lib is a link to usr/lib in this root).
	while IFS= read -r f; do
		[ -d "$root$f" ] && continue
		grep -qxF ".$f" "$work/listing.before" && continue
		if [ -e "$root$f" ] || [ -L "$root$f" ]; then left="$left $f"; fi
	done <"$work/dpkg-L.txt"
	# In the directories the listing leaves out: dpkg's and
	# deb-systemd-helper's records of rcuqs.
	left="$left $(cd "$root" && find var/lib/dpkg/info var/lib/systemd -name '*rcuqs*' 2>/dev/null | tr '\n' ' ')"
	left=${left%"${left##*[! ]}"}
	[ -z "$left" ] || { echo "left after purge:$left"; return 1; }
	listing >"$work/listing.after"
	diff -u "$work/listing.before" "$work/listing.after"
}
check "purge: nothing of rcuqs left (dpkg -L, /etc, /run, links; the root's listing as before)" nothing_left

# --- the README's quick start and its way back ------------------------------

# What an administrator does on a real machine (README "Quick start on a
# real machine", the kernel part aside): install the .deb, set-profile
# latency, verify; then the way back: off, purge. Against the fake
# parameters; nothing of rcuqs may be left, the parameters as before.
quick_start() {
	lim0=$(param rcutree cond_resched_qs_limit) jtsq0=$(param rcutree jiffies_till_sched_qs)
	in_root dpkg -i "$pkg" >/dev/null 2>&1 || { echo "dpkg -i failed"; return 1; }
	o=$(in_root rcuqs-ctl set-profile latency 2>&1) || { echo "set-profile latency: $o"; return 1; }
	[ "$(param rcutree cond_resched_qs_limit)" = 256 ] || { echo "limit not written: $o"; return 1; }
	o=$(in_root rcuqs-ctl verify 2>&1) || { echo "verify: $o"; return 1; }
	echo "$o" | grep -q "matches profile 'latency'" || { echo "verify said: $o"; return 1; }
	o=$(in_root rcuqs-ctl off 2>&1) || { echo "off: $o"; return 1; }
	for f in etc/rcuqs/active etc/default/grub.d/rcuqs.cfg; do
		[ ! -e "$root/$f" ] || { echo "off left /$f: $o"; return 1; }
	done
	[ "$(param rcutree cond_resched_qs_limit)/$(param rcutree jiffies_till_sched_qs)" = "$lim0/$jtsq0" ] ||
		{ echo "off did not restore $lim0/$jtsq0: $o"; return 1; }
	in_root dpkg --purge rcuqs >/dev/null 2>&1 || { echo "dpkg --purge failed"; return 1; }
	[ ! -e "$root/etc/rcuqs" ] || { echo "/etc/rcuqs left after off and purge"; return 1; }
	! in_root dpkg -s rcuqs >/dev/null 2>&1 || { echo "rcuqs still known to dpkg"; return 1; }
}
check "quick start: install, set-profile latency, verify; off, purge: nothing left, parameters as before" quick_start

# The way back's purge line, as the README prints it: its dpkg-query
# names every rcuqs kernel package (image, headers, a fleet's
# meta-package) and none of Debian's, and where no rcuqs kernel is
# installed (the tool alone), nothing and no message. Stand-in packages
# (tests/lib/fake-deb.sh) with the names make kernel-deb and make
# kernel-repo give.
. "$top/tests/lib/fake-deb.sh"
way_back_names() {	# the names the README's substitution gives in the root, sorted, one line
	in_root sh -c "set -- $sub; printf '%s ' \"\$@\"" 2>"$work/way-back.err" | tr ' ' '\n' | sort | xargs
}
readme_way_back() {
	local ours="linux-headers-6.1.192-rcuqs2 linux-image-6.1.192-rcuqs2 linux-image-6.1.192-rcuqs2-lean linux-image-rcuqs-6.1-amd64"
	local n got
	sub=$(sed -n 's/^    apt purge rcuqs //p' "$top/README.md")
	[ -n "$sub" ] || { echo "README: no 'apt purge rcuqs' line in the way back"; return 1; }
	got=$(way_back_names)
	[ -z "$got" ] && [ ! -s "$work/way-back.err" ] ||
		{ echo "no rcuqs kernel installed: named '$got', said: $(cat "$work/way-back.err")"; return 1; }
	mkdir -p "$root/tmp/way-back"
	for n in $ours linux-image-6.1.0-28-amd64 linux-libc-dev; do
		fake_deb "$root/tmp/way-back" "$n" 1 || { echo "cannot build a stand-in $n"; return 1; }
	done
	in_root sh -c 'dpkg -i /tmp/way-back/*.deb' >/dev/null 2>&1 || { echo "dpkg -i of the stand-ins failed"; return 1; }
	got=$(way_back_names)
	# shellcheck disable=SC2086 # package names: no blanks
	in_root dpkg --purge $ours linux-image-6.1.0-28-amd64 linux-libc-dev >/dev/null 2>&1
	rm -rf "$root/tmp/way-back"
	[ "$got" = "$ours" ] && [ ! -s "$work/way-back.err" ] ||
		{ echo "named '$got', want '$ours'; said: $(cat "$work/way-back.err")"; return 1; }
}
check "the README's way back: its dpkg-query names the rcuqs kernels, headers and meta-package, not Debian's; nothing and no message with none installed" readme_way_back

# --- install and purge at once, with parameters that cannot be restored --

# No /sys/module/rcupdate at all; cond_resched_qs_limit a FIFO;
# jiffies_till_sched_qs immutable, so that the write fails. None of it may
# fail the purge.
rm -rf "$root/sys/module/rcupdate"
echo 256 >"$root/sys/module/rcutree/parameters/jiffies_till_sched_qs"
rm -f "$root/sys/module/rcutree/parameters/cond_resched_qs_limit"
mkfifo "$root/sys/module/rcutree/parameters/cond_resched_qs_limit"
check "again: dpkg -i" in_root dpkg -i "$pkg"
mkdir -p "$root/etc/rcuqs"
printf 'rcutree.jiffies_till_sched_qs=auto\nrcutree.cond_resched_qs_limit=0\nrcupdate.rcu_cpu_stall_timeout=21\n' \
	>"$root/etc/rcuqs/original"
if chattr +i "$root/sys/module/rcutree/parameters/jiffies_till_sched_qs" 2>/dev/null; then
	immutable=yes
else
	immutable=""
fi
check "again: dpkg --purge straight from installed" purge_to "$work/purge2.out"
unrestorable() {
	o=$work/purge2.out
	grep -q 'not restoring rcupdate.rcu_cpu_stall_timeout=21: the running kernel has no' "$o" &&
		grep -q 'not restoring rcutree.cond_resched_qs_limit=0: .* is not a regular file' "$o" ||
		{ cat "$o"; return 1; }
	[ ! -e "$root/sys/module/rcupdate" ] || { echo "created /sys/module/rcupdate"; return 1; }
	[ -p "$root/sys/module/rcutree/parameters/cond_resched_qs_limit" ] || { echo "FIFO replaced"; return 1; }
	[ ! -e "$root/etc/rcuqs" ] || { echo "/etc/rcuqs left"; return 1; }
	if [ -n "$immutable" ]; then
		grep -q 'could not restore rcutree.jiffies_till_sched_qs=auto' "$o" || { cat "$o"; return 1; }
		[ "$(param rcutree jiffies_till_sched_qs)" = 256 ] || { echo "immutable file changed?"; return 1; }
	fi
}
check "again: parameters missing, not regular files or refusing the write: a warning each, purge done" unrestorable
chattr -i "$root/sys/module/rcutree/parameters/jiffies_till_sched_qs" 2>/dev/null

echo "# deb: $(($(date +%s) - start)) s" | tee -a "$tap"
tap_end "$(basename "$tap" .tap)"
