#!/bin/sh
# check-kdeb.sh TAPFILE: test 'make kernel-deb' without building a kernel.
#
#   - make -n kernel-deb, lean and with KCONFIG=: the configuration, local
#     version, O= folder and package folder it resolves, and that it
#     creates nothing
#   - a missing, non-regular, unreadable or non-kernel KCONFIG is refused
#     with an error naming it, before anything is created
#   - kdeb-config.sh --fix: local version set, Debian's certificates blanked
#     (an administrator's own left alone)
#   - SERIES_VERSION agrees with the cover letter's subject
#   - when 'make kernel-deb' has left packages in $BUILD: their metadata
#     (names, version, /boot/vmlinuz-<release> with rcuqs in it and its
#     own version string, the series' symbols in System.map, headers)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
tap=${1:?usage: check-kdeb.sh TAPFILE}
: "${BUILD:=$top/build}"
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
scratch=$BUILD/kdeb-check
out=$(mktemp)
trap 'rm -f "$out"' EXIT
: >"$tap"
. "$here/../scripts/tap.sh"

# has FILE STRING...: every STRING is in FILE (fixed strings); else say which.
has() {
	f=$1
	shift
	for s in "$@"; do
		grep -qF -- "$s" "$f" || { echo "missing: $s" >>"$f"; return 1; }
	done
}

# A make that does not inherit the caller's -n/-s/-j or KCONFIG.
mk() { env -u MAKEFLAGS -u MAKELEVEL -u KCONFIG make --no-print-directory "$@"; }

v=$(sed -n 's/^SERIES_VERSION := *//p' "$here/Makefile")
rm -rf "$scratch"
mkdir -p "$scratch"
b=$scratch/b # never created by a make -n

# The cover letter carries the same version.
subj=$(grep -m1 '^Subject: \[PATCH' "$here/0000-cover-letter.patch")
case $v in
1) echo "$subj" | grep -q '^Subject: \[PATCH 0/' ;;
*) echo "$subj" | grep -q "^Subject: \[PATCH v$v 0/" ;;
esac
rc=$?
echo "SERIES_VERSION=$v; cover letter: $subj" >"$out"
result $rc "SERIES_VERSION ($v) agrees with the cover letter's subject" "$out"

# Lean default.
mk -n -C "$here" kernel-deb BUILD="$b" >"$out" 2>&1
rc=$?
[ $rc = 0 ] && has "$out" "--lean $here/config/common.config $here/config/preempt-none.config" \
	" -rcuqs$v-lean " "O=$b/kdeb-lean " " bindeb-pkg" "$b/\${p}_*.deb" \
	"$b/kdeb-lean/include/config/kernel.release" "hours on 2 cores" || rc=1
[ -e "$b" ] && { echo "make -n created $b" >>"$out"; rc=1; }
result $rc "make -n kernel-deb: lean config, -rcuqs$v-lean, O=\$BUILD/kdeb-lean, packages in \$BUILD, nothing created" "$out"

# KCONFIG, given relative from the top folder as an administrator would.
mkdir -p "$scratch/etc"
cat >"$scratch/etc/config-6.1.0-99-amd64" <<'EOF'
CONFIG_LOCALVERSION=""
CONFIG_MODULE_SIG=y
CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"
EOF
rel=${scratch#"$top"/}
if [ "$rel" = "$scratch" ]; then
	skip "make -n kernel-deb KCONFIG=relative path from the top folder" "$scratch is outside $top"
else
	(cd "$top" && mk -n kernel-deb BUILD="$b" KCONFIG="$rel/etc/config-6.1.0-99-amd64") >"$out" 2>&1
	rc=$?
	[ $rc = 0 ] && has "$out" " -rcuqs$v " "'$scratch/etc/config-6.1.0-99-amd64'" \
		"O=$b/kdeb-config-6.1.0-99-amd64 " " bindeb-pkg" \
		"from $scratch/etc/config-6.1.0-99-amd64, local version -rcuqs$v," || rc=1
	grep -q -- '-lean' "$out" && { echo "lean in a KCONFIG build" >>"$out"; rc=1; }
	[ -e "$b" ] && { echo "make -n created $b" >>"$out"; rc=1; }
	result $rc "make -n kernel-deb KCONFIG=<relative>: absolute path, -rcuqs$v, O=\$BUILD/kdeb-<config name>, nothing created" "$out"
fi

# Bad KCONFIGs: refused by name, before anything is created.
: >"$scratch/etc/empty"
printf 'just text\n' >"$scratch/etc/not-a-config"
for case in "$scratch/etc/missing:does not exist" "$scratch/etc:is not a regular file" \
	"/dev/null:is not a regular file" "$scratch/etc/empty:holds no CONFIG_ line" \
	"$scratch/etc/not-a-config:holds no CONFIG_ line"; do
	k=${case%%:*} why=${case#*:}
	mk -C "$here" kernel-deb BUILD="$b" KCONFIG="$k" >"$out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		echo "accepted" >>"$out"
		rc=1
	else
		has "$out" "KCONFIG=$k $why" && rc=0 || rc=1
	fi
	[ -e "$b" ] && { echo "created $b" >>"$out"; rc=1; }
	result $rc "kernel-deb refuses KCONFIG=$k ($why), nothing created" "$out"
done
# Through the top Makefile: refused before install-deps.sh runs.
(cd "$top" && mk kernel-deb BUILD="$b" KCONFIG="$scratch/etc/missing") >"$out" 2>&1
rc=$?
if [ $rc = 0 ]; then echo accepted >>"$out"; rc=1; else
	has "$out" "KCONFIG=$scratch/etc/missing does not exist" && rc=0 || rc=1
	grep -q 'install-deps' "$out" && { echo "install-deps.sh ran" >>"$out"; rc=1; }
fi
[ -e "$b" ] && { echo "created $b" >>"$out"; rc=1; }
result $rc "make kernel-deb (top) refuses a missing KCONFIG before installing packages" "$out"
cp "$scratch/etc/config-6.1.0-99-amd64" "$scratch/etc/unreadable"
chmod 000 "$scratch/etc/unreadable"
# root reads any file: ask as root without the capabilities that let it
# (not as nobody, who cannot reach a checkout under root's 0700 home).
as=""
[ "$(id -u)" = 0 ] &&
	as="setpriv --inh-caps=-dac_override,-dac_read_search --bounding-set=-dac_override,-dac_read_search"
if $as head -c1 "$scratch/etc/unreadable" >/dev/null 2>&1; then
	skip "kernel-deb refuses an unreadable KCONFIG" "cannot make a file unreadable here"
else
	$as env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$here" kernel-deb \
		BUILD="$b" KCONFIG="$scratch/etc/unreadable" >"$out" 2>&1
	rc=$?
	[ $rc != 0 ] && has "$out" "KCONFIG=$scratch/etc/unreadable is not readable" && rc=0 || rc=1
	result $rc "kernel-deb refuses an unreadable KCONFIG, nothing created" "$out"
fi

# kdeb-config.sh --fix with scripts/config from the pristine tree that
# check-patches.sh leaves, else from the tarball.
src=$scratch/src
mkdir -p "$src/scripts"
if [ -f "$BUILD/patch-check/tree/scripts/config" ]; then
	cp "$BUILD/patch-check/tree/scripts/config" "$src/scripts/config"
else
	tar -C "$src" --strip-components=1 -xf "$TARBALL" linux-source-6.1/scripts/config
fi >"$out" 2>&1
if [ -f "$src/scripts/config" ]; then
	cat >"$scratch/fix.config" <<'EOF'
CONFIG_LOCALVERSION=""
CONFIG_LOCALVERSION_AUTO=y
CONFIG_MODULE_SIG=y
CONFIG_MODULE_SIG_KEY="debian/certs/signing_key.pem"
CONFIG_SYSTEM_TRUSTED_KEYRING=y
CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"
CONFIG_SYSTEM_REVOCATION_KEYS="/etc/local/revoked.pem"
EOF
	SRC=$src "$here/kdeb-config.sh" --fix "$scratch/fix.config" "-rcuqs$v" >"$out" 2>&1
	rc=$?
	cat "$scratch/fix.config" >>"$out"
	[ $rc = 0 ] && has "$out" "CONFIG_LOCALVERSION=\"-rcuqs$v\"" \
		"# CONFIG_LOCALVERSION_AUTO is not set" \
		'CONFIG_SYSTEM_TRUSTED_KEYS=""' 'CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"' \
		'CONFIG_SYSTEM_REVOCATION_KEYS="/etc/local/revoked.pem"' \
		'CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem" is Debian' || rc=1
	result $rc "kdeb-config.sh --fix: local version, Debian's certificates blanked, the administrator's kept" "$out"
else
	result 1 "scripts/config from $BUILD/patch-check or $TARBALL" "$out"
fi

# Packages left by a real 'make kernel-deb' in $BUILD, if any.
debs=$(ls -t "$BUILD"/linux-image-*rcuqs*.deb 2>/dev/null | grep -v -- '-dbg_' | head -n1)
if [ -z "$debs" ]; then
	skip "kernel-deb packages' metadata" "no linux-image-*rcuqs*.deb in $BUILD (make kernel-deb)"
else
	img=$debs
	pkg=$(dpkg-deb -f "$img" Package)
	ver=$(dpkg-deb -f "$img" Version)
	r=${pkg#linux-image-}
	: >"$out"
	rc=0
	echo "$img: Package $pkg, Version $ver" >>"$out"
	case $r in
	*-rcuqs[0-9]*) ;;
	*) echo "release $r does not say rcuqsN" >>"$out"; rc=1 ;;
	esac
	case $ver in
	"$r"-[0-9]*) ;;
	*) echo "version $ver is not <release>-<build>" >>"$out"; rc=1 ;;
	esac
	dpkg-deb -c "$img" >"$scratch/img.list" 2>>"$out" || rc=1
	for f in "./boot/vmlinuz-$r" "./boot/config-$r" "./boot/System.map-$r"; do
		grep -q " $f\$" "$scratch/img.list" || { echo "$img lacks $f" >>"$out"; rc=1; }
	done
	# The image's own version string, and the series' symbols.
	mkdir -p "$scratch/img"
	dpkg-deb --fsys-tarfile "$img" |
		tar -C "$scratch/img" -x "./boot/vmlinuz-$r" "./boot/System.map-$r" 2>>"$out"
	kv=$(file -b "$scratch/img/boot/vmlinuz-$r" 2>>"$out" | sed -n 's/.*, version \([^ ]*\) .*/\1/p')
	echo "vmlinuz-$r says version $kv" >>"$out"
	[ "$kv" = "$r" ] || rc=1
	for sym in __param_jiffies_till_sched_qs __param_cond_resched_qs_limit rcu_qs_stat_show; do
		grep -q " $sym\$" "$scratch/img/boot/System.map-$r" 2>/dev/null ||
			{ echo "System.map-$r lacks $sym (the series)" >>"$out"; rc=1; }
	done
	hdr=$(ls -t "$BUILD/linux-headers-${r}_"*.deb 2>/dev/null | head -n1)
	if [ -z "$hdr" ]; then
		echo "no linux-headers-${r}_*.deb beside it" >>"$out"
		rc=1
	else
		[ "$(dpkg-deb -f "$hdr" Package)" = "linux-headers-$r" ] || rc=1
		dpkg-deb -c "$hdr" | grep " ./usr/src/linux-headers-$r/Makefile\$" >/dev/null ||
			{ echo "$hdr lacks /usr/src/linux-headers-$r/Makefile" >>"$out"; rc=1; }
	fi
	ls "$BUILD"/linux-libc-dev_*rcuqs*.deb >/dev/null 2>&1 &&
		{ echo "a linux-libc-dev package was left in $BUILD" >>"$out"; rc=1; }
	result $rc "$(basename "$img"): $pkg $ver, /boot/vmlinuz-$r says $r, the series' symbols, headers beside it, no linux-libc-dev" "$out"
fi

rm -rf "$scratch"
tap_end kernel-deb
