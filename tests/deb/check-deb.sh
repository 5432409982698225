#!/bin/sh
# check-deb.sh DEB: the Debian package's tests. TAP to $RESULTS/deb.tap.
#
#   - the version agrees with the tool's; lintian finds no error and no
#     warning; the .deb holds what "make install" installs; the
#     maintainer scripts are POSIX sh;
#   - postrm's sh removal of rcuqs's /etc/kernel/cmdline tokens agrees
#     byte for byte with rcuqs-ctl's cmdline_merge() on random command
#     lines (strip-ref.c), and a deliberately broken copy is caught;
#   - the lifecycle in a throwaway Debian 12 root: install, reinstall,
#     upgrade to a rebuild with a higher version, remove, purge; then
#     install and purge straight away with parameters that cannot be
#     restored.
#
# The root is "debootstrap --variant=minbase bookworm" from the host's
# configured Debian mirror (RCUQS_DEB_MIRROR overrides), cached as
# $BUILD/deb-check/bookworm-minbase.tar so that later runs only unpack
# it. Nothing is mounted in it: its /sys and /proc are plain directories,
# so what the package's scripts write to /sys lands in fake parameter
# files this script puts there (copied from rcuqs-ctl's pristine fake
# root), never in the host's kernel. systemd does not run there either:
# enablement is checked by the symlink and with "systemctl --root".
# debootstrap itself mounts proc and sysfs in the root while it installs
# Debian's base packages; it runs in a mount namespace of its own
# (unshare), so those mounts end with it.
set -u

deb=$(realpath "${1:?usage: check-deb.sh DEB}")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
work=$BUILD/deb-check
cache=$work/bookworm-minbase.tar
root=$work/root
tap=$RESULTS/deb.tap
pristine=$top/rcuqs-ctl/tests/rootfs-pristine
start=$(date +%s)

mkdir -p "$RESULTS" "$work"
: >"$tap"
. "$top/scripts/tap.sh"

die() {
	not_ok "$1" "${2-}"
	tap_end deb
	exit 1
}
[ "$(id -u)" -eq 0 ] || {
	echo "1..0 # SKIP the package lifecycle needs root (debootstrap, chroot)" | tee "$tap"
	exit 0
}
[ -f "$deb" ] || die "the package exists" "no $deb: run 'make deb'"

version=$(dpkg-deb -f "$deb" Version)
arch=$(dpkg-deb -f "$deb" Architecture)

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

# --- the throwaway root -----------------------------------------------------

# The host's Debian mirror for bookworm, from its apt sources.
mirror() {
	if [ -n "${RCUQS_DEB_MIRROR-}" ]; then
		echo "$RCUQS_DEB_MIRROR"
		return
	fi
	{
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" { i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/) i++; if ($i ~ /^\[/ || $i ~ /\]$/) i++;
				if ($(i + 1) == "bookworm") { print $i; exit } }'
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			awk '/^$/ { u = ""; s = "" } /^URIs:/ { u = $2 } /^Suites:/ { s = $0 }
				u != "" && s ~ /[ \t]bookworm([ \t]|$)/ { print u; exit }' "$f"
		done
	} | head -n 1
}

# A directory with anything mounted under it is never removed.
safe_rm() {
	if findmnt -rn -o TARGET | grep -q "^$1\(/\|$\)"; then
		echo "check-deb: something is mounted under $1; not removing it" >&2
		return 1
	fi
	chattr -R -i "$1" >/dev/null 2>&1
	rm -rf --one-file-system "$1"
}

make_cache() {
	m=$(mirror)
	[ -n "$m" ] || { echo "no bookworm mirror in /etc/apt/sources.list*; set RCUQS_DEB_MIRROR"; return 1; }
	boot=$work/bootstrap
	safe_rm "$boot" || return 1
	echo "check-deb: debootstrap --variant=minbase bookworm from $m (once; cached in $cache)" >&2
	if ! unshare --mount --propagation private \
		debootstrap --variant=minbase --include=libkmod2 bookworm "$boot" "$m" \
		>"$work/debootstrap.log" 2>&1; then
		tail -n 20 "$work/debootstrap.log"
		return 1
	fi
	tar -C "$boot" -cf "$cache.tmp" . && mv "$cache.tmp" "$cache" && safe_rm "$boot"
}

# in_root CMD...: run CMD in the root with a clean environment.
in_root() {
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive chroot "$root" "$@"
}

if [ -s "$cache" ]; then
	ok "root: bookworm minbase from the cache"
elif msg=$(make_cache 2>&1); then
	ok "root: debootstrap bookworm minbase ($(($(date +%s) - start)) s so far)"
else
	die "root: debootstrap bookworm minbase" "$msg"
fi
safe_rm "$root" || die "root: a fresh copy" "something is mounted under $root"
mkdir -p "$root"
tar -C "$root" -xf "$cache" || die "root: a fresh copy" "cannot unpack $cache"

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
		/usr/share/man/man7/rcuqs.7.gz /usr/share/doc/rcuqs/copyright; do
		[ -f "$root$f" ] || { echo "missing: $f"; return 1; }
	done
}
check "install: the tool, profiles, units, man pages in place" files_there

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
# must skip: a module the kernel lacks, a name with "..", a bad value.
if [ ! -f "$root/etc/rcuqs/original" ]; then
	printf '# rcuqs-ctl: values before its first write\nrcutree.jiffies_till_sched_qs=auto\n' \
		>"$root/etc/rcuqs/original"
fi
cat >>"$root/etc/rcuqs/original" <<'EOF'
# added by check-deb.sh
rcupdate.rcu_cpu_stall_timeout=21
rcu_nosuch.param=5
rcutree.../../../../etc/evil=1
rcutree.cond_resched_qs_limit=12abc
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
		grep -q "cond_resched_qs_limit: not a decimal or 'auto'" "$purge_out" ||
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
tap_end deb
