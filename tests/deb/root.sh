# root.sh: the throwaway Debian roots of the host's package tests
# (tests/deb/check-deb.sh, tests/repo/check-repo.sh); sourced, not run.
#
# A root is "debootstrap --variant=minbase SUITE" from the host's
# configured Debian mirror (RCUQS_DEB_MIRROR overrides), cached as
# $work/SUITE-minbase-CKSUM.tar so that later runs only unpack it; CKSUM
# names the packages added to minbase: libkmod2, what the autopkgtests of
# debian/tests/control depend on, and the caller's $root_extra. One
# debootstrap per suite at a time (a lock in $work): make check starts
# check-deb's early in the background, and a test that needs a cache
# waits for it. debootstrap mounts proc and sysfs in the root while it
# installs Debian's base packages; it runs in a mount namespace of its
# own (unshare), so those mounts end with it.
#
# Set before sourcing: top (the checkout), work (the caches' folder),
# suite (bookworm, trixie), root (the root's folder), and optionally
# root_extra (more packages, comma-separated). Sets includes and cache.
# shellcheck shell=sh disable=SC2154

includes=libkmod2
if [ -f "$top/debian/tests/control" ]; then
	includes=$(sed -n 's/^Depends:[[:space:]]*//p' "$top/debian/tests/control" | tr ',' '\n' |
		sed 's/[[:space:]]//g; /^@$/d; /^$/d' | { echo libkmod2; cat; } | LC_ALL=C sort -u |
		tr '\n' ',' | sed 's/,$//')
fi
[ -z "${root_extra-}" ] || includes="$includes,$root_extra"
cache=$work/$suite-minbase-$(printf '%s' "$includes" | cksum | cut -d' ' -f1).tar

# The host's Debian mirror for bookworm, from its apt sources; the same
# archive serves trixie.
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
		echo "${0##*/}: something is mounted under $1; not removing it" >&2
		return 1
	fi
	chattr -R -i "$1" >/dev/null 2>&1
	rm -rf --one-file-system "$1"
}

make_cache() {
	m=$(mirror)
	[ -n "$m" ] || { echo "no bookworm mirror in /etc/apt/sources.list*; set RCUQS_DEB_MIRROR"; return 1; }
	boot=$work/bootstrap-$suite
	safe_rm "$boot" || return 1
	echo "${0##*/}: debootstrap --variant=minbase --include=$includes $suite from $m (once; cached in $cache)" >&2
	if ! unshare --mount --propagation private \
		debootstrap --variant=minbase --include="$includes" "$suite" "$boot" "$m" \
		>"$work/debootstrap-$suite.log" 2>&1; then
		tail -n 20 "$work/debootstrap-$suite.log"
		return 1
	fi
	tar -C "$boot" -cf "$cache.tmp" . && mv "$cache.tmp" "$cache" && safe_rm "$boot"
}

# root_cache: the cache, made unless it is there, after any other
# debootstrap of the suite; says "from the cache" or "debootstrap", or on
# failure why.
root_cache() {
	mkdir -p "$work"
	(
		flock 9
		if [ -s "$cache" ]; then
			echo "from the cache"
		elif out=$(make_cache 2>&1); then
			echo debootstrap
		else
			echo "$out"
			exit 1
		fi
	) 9>"$work/$suite.lock"
}

# root_fresh: $root anew from the cache; on failure, why.
root_fresh() {
	safe_rm "$root" || { echo "something is mounted under $root"; return 1; }
	mkdir -p "$root"
	tar -C "$root" -xf "$cache" || { echo "cannot unpack $cache"; return 1; }
}

# in_root CMD...: run CMD in the root with a clean environment; through
# $root_wrap when set, a command (a function) that runs the rest.
in_root() {
	${root_wrap-} env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive chroot "$root" "$@"
}
