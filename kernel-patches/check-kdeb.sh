#!/bin/sh
# check-kdeb.sh TAPFILE: test 'make kernel-deb' without building a kernel.
#
#   - make -n kernel-deb, lean and with KCONFIG=: the configuration, local
#     version, O= folder (one per baseline and configuration role, JOBS,
#     ccache) and package folder it resolves, and that it
#     creates nothing
#   - a missing, non-regular, unreadable or non-kernel KCONFIG is refused
#     with an error naming it, before anything is created
#   - kdeb-config.sh --fix: local version set, Debian's certificates blanked
#     (an administrator's own left alone)
#   - SERIES_VERSION agrees with the cover letter's subject
#   - kernel updates: the release sorts above Debian's 6.1.0-N-amd64, and
#     make kernel-deb warns about it and says to rebuild after every
#     update of linux-source-6.1; the README documents it
#   - KERNEL=7.3 resolves its tree, series and lazy lean fragments; an
#     unknown KERNEL is refused naming the three
#   - Secure Boot: KSIGN_KEY/KSIGN_CERT refused alone, mismatched or
#     swapped; sign-kdeb.sh signs a package's PE image so that sbverify
#     accepts it with the certificate and refuses another
#   - a tarball swap (two small linux-source-6.1 tarballs, SUBLEVEL and
#     SUBLEVEL+1) makes the tree follow, and the same one rebuilds nothing
#   - when 'make kernel-deb' has left packages in $BUILD, the newest of
#     each baseline: their metadata (names, version <Debian's>+rcuqsN,
#     /boot/vmlinuz-<release> with its own version string, the series'
#     symbols in System.map, headers), and sbverify on an image signed by
#     make check-kdeb-build's throwaway key
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
. "$here/series-lib.sh"

# has FILE STRING...: every STRING is in FILE (fixed strings); else say which.
has() {
	f=$1
	shift
	for s in "$@"; do
		grep -qF -- "$s" "$f" || { echo "missing: $s" >>"$f"; return 1; }
	done
}

# A make that does not inherit the caller's -n/-s/-j, KCONFIG, KDEB_ROLE,
# KDEB_CCACHE, CCACHE_LIB or JOBS.
mk() { env -u MAKEFLAGS -u MAKELEVEL -u KCONFIG -u KDEB_ROLE -u KDEB_CCACHE -u CCACHE_LIB -u JOBS make --no-print-directory "$@"; }

v=$(sed -n 's/^SERIES_VERSION := *//p' "$here/Makefile")
rm -rf "$scratch"
mkdir -p "$scratch"
b=$scratch/b # never created by a make -n

# The cover letter carries the same version.
subj=$(grep -m1 '^Subject: \[PATCH' "$here/6.1/0000-cover-letter.patch")
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
	" -rcuqs$v-lean " "O=$b/kdeb-lean " " bindeb-pkg" "$b/linux-image-\${rel}_\${pv:-*}_*.deb" \
	"$b/kdeb-lean/include/config/kernel.release" "hours on 2 cores" || rc=1
[ -e "$b" ] && { echo "make -n created $b" >>"$out"; rc=1; }
result $rc "make -n kernel-deb: lean config, -rcuqs$v-lean, O=\$BUILD/kdeb-lean, packages in \$BUILD, nothing created" "$out"

# KERNEL=6.12: its own tree, series and folder; the release's order
# against Debian's 6.12 kernels, and the note that says it. An unknown
# baseline is refused.
mk -n -C "$here" kernel-deb BUILD="$b" KERNEL=6.12 >"$out" 2>&1
rc=$?
[ $rc = 0 ] && has "$out" "./apply-series.sh 6.12" "SRC=$b/linux-6.12 " "-C $b/linux-6.12 " \
	"O=$b/kdeb-6.12-lean " " -rcuqs$v-lean " "patched 6.12 kernel" \
	"make kernel-deb KERNEL=6.12 again" || rc=1
grep -q "O=$b/kdeb-lean \|-C $b/linux " "$out" && { echo "the 6.1 tree or folder in a KERNEL=6.12 build" >>"$out"; rc=1; }
kv=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null | sed 's/-[^-]*$//')
if [ -n "$kv" ]; then
	r=$kv-rcuqs$v s=${kv##*.} mm=${kv%.*}
	for d in "$mm.$s+bpo-amd64" "$mm.$s+deb13-amd64"; do
		[ "$(printf '%s\n%s\n' "$r" "$d" | LC_ALL=C sort -V | tail -n 1)" = "$r" ] ||
			{ echo "sort -V (GRUB): $r is not above $d" >>"$out"; rc=1; }
	done
	for d in "$mm.$((s + 1))+bpo-amd64" "$mm.$((s + 1))+deb13-amd64"; do
		[ "$(printf '%s\n%s\n' "$r" "$d" | LC_ALL=C sort -V | tail -n 1)" = "$d" ] ||
			{ echo "sort -V (GRUB): $r is not below $d" >>"$out"; rc=1; }
	done
	has "$out" "$r-lean sorts above Debian's" "and below those of a later one" || rc=1
else
	echo "linux-source-6.12 not installed: the release's order not checked" >>"$out"
fi
[ -e "$b" ] && { echo "make -n created $b" >>"$out"; rc=1; }
result $rc "make -n kernel-deb KERNEL=6.12: linux-6.12 tree and series, O=\$BUILD/kdeb-6.12-lean, GRUB order against Debian's 6.12 kernels said, nothing created" "$out"
# KERNEL=7.3: its tree, series, lean fragments (lazy: 7.3 has no
# PREEMPT_NONE on x86) and folder, the package version from the tree's
# recorded Debian upload, and the exact apt line at the end.
mk -n -C "$here" kernel-deb BUILD="$b" KERNEL=7.3 >"$out" 2>&1
rc=$?
[ $rc = 0 ] && has "$out" "./apply-series.sh 7.3" "SRC=$b/linux-7.3 " "-C $b/linux-7.3 " \
	"O=$b/kdeb-7.3-lean " " -rcuqs$v-lean " "patched 7.3 kernel" \
	"--lean $here/config/common.config $here/config/base-7.3.config $here/config/preempt-lazy.config" \
	"make kernel-deb KERNEL=7.3 again" "cut -d' ' -f2 $b/applied-7.3/source" \
	"KDEB_PKGVERSION=\$pv " "+rcuqs$v" 'apt install $img $hdr' || rc=1
[ -e "$b" ] && { echo "created $b" >>"$out"; rc=1; }
result $rc "make -n kernel-deb KERNEL=7.3: linux-7.3 tree and series, lazy lean fragments, O=\$BUILD/kdeb-7.3-lean, version <Debian's>+rcuqs$v, the apt line, nothing created" "$out"
mk -n -C "$here" kernel-deb BUILD="$b" KERNEL=7.4 >"$out" 2>&1
rc=$?
if [ $rc = 0 ]; then echo accepted >>"$out"; rc=1; else
	has "$out" "KERNEL=7.4: make kernel-deb packages KERNEL=6.1 (default), 6.12 or 7.3" && rc=0 || rc=1
fi
[ -e "$b" ] && { echo "created $b" >>"$out"; rc=1; }
result $rc "make kernel-deb refuses an unknown KERNEL=7.4, naming the three, nothing created" "$out"

# Secure Boot: KSIGN_KEY and KSIGN_CERT go together and must be one key
# pair; sign-kdeb.sh signs a package's image (a PE/COFF EFI binary:
# systemd-boot's Linux stub stands in for a kernel's EFI stub here) so
# that sbverify accepts it with that certificate and refuses it with
# another; on a refusal the package is left as it was.
ks=$scratch/ksign
mkdir -p "$ks"
newkey() { openssl req -new -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=rcuqs check $1/" \
	-keyout "$ks/$1.key" -out "$ks/$1.crt" >/dev/null 2>&1; }
newkey a && newkey b
mk -C "$here" kernel-deb-args BUILD="$b" KSIGN_KEY="$ks/a.key" >"$out" 2>&1 && { echo accepted >>"$out"; rc=1; } ||
	{ has "$out" "KSIGN_KEY and KSIGN_CERT go together" && rc=0 || rc=1; }
"$here/sign-kdeb.sh" pem "$ks/o" "$ks/a.key" "$ks/b.crt" >>"$out" 2>&1 && { echo "a mismatched pair accepted" >>"$out"; rc=1; }
has "$out" "are not one key pair" || rc=1
"$here/sign-kdeb.sh" pem "$ks/o" "$ks/a.crt" "$ks/a.crt" >>"$out" 2>&1 && { echo "a certificate taken for a key" >>"$out"; rc=1; }
has "$out" "is not a PEM private key" || rc=1
pem=$("$here/sign-kdeb.sh" pem "$ks/o" "$ks/a.key" "$ks/a.crt" 2>>"$out") || rc=1
[ "$(stat -c %a "$pem" 2>/dev/null)" = 600 ] && grep -q 'PRIVATE KEY' "$pem" && grep -q 'CERTIFICATE' "$pem" ||
	{ echo "the module signing PEM $pem is not key+cert, 0600" >>"$out"; rc=1; }
[ -e "$ks/o/.config" ] && rc=1
result $rc "KSIGN_KEY/KSIGN_CERT: one without the other, a mismatched pair and a certificate for a key refused by name; the module key file is key+cert, 0600" "$out"
stub=/usr/lib/systemd/boot/efi/linuxx64.efi.stub
if [ ! -f "$stub" ] || ! command -v sbverify >/dev/null; then
	skip "sign-kdeb.sh image: sbsign, then sbverify with the certificate" "systemd-boot-efi or sbsigntool missing"
else
	: >"$out"
	rc=0
	mkpkg() { # NAME IMAGE: a linux-image-like package holding IMAGE
		rm -rf "$ks/p" && mkdir -p "$ks/p/DEBIAN" "$ks/p/boot"
		cp "$2" "$ks/p/boot/vmlinuz-9.9.9-rcuqs$v"
		printf 'Package: linux-image-9.9.9-rcuqs%s\nVersion: 9.9.9-1+rcuqs%s\nArchitecture: amd64\nMaintainer: t <t@localhost>\nDescription: t\n' "$v" "$v" >"$ks/p/DEBIAN/control"
		(cd "$ks/p" && md5sum boot/* >DEBIAN/md5sums)
		dpkg-deb --root-owner-group -b "$ks/p" "$ks/$1" >/dev/null
	}
	mkpkg img.deb "$stub"
	"$here/sign-kdeb.sh" image "$ks/img.deb" "$ks/a.key" "$ks/a.crt" >>"$out" 2>&1 || rc=1
	rm -rf "$ks/x" && dpkg-deb -x "$ks/img.deb" "$ks/x"
	sbverify --cert "$ks/a.crt" "$ks/x/boot/vmlinuz-9.9.9-rcuqs$v" >>"$out" 2>&1 || { echo "sbverify refused the signed image" >>"$out"; rc=1; }
	sbverify --cert "$ks/b.crt" "$ks/x/boot/vmlinuz-9.9.9-rcuqs$v" >>"$out" 2>&1 && { echo "sbverify accepted it with another certificate" >>"$out"; rc=1; }
	(cd "$ks/x" && dpkg-deb -e "$ks/img.deb" "$ks/x/DEBIAN" && md5sum -c --quiet DEBIAN/md5sums) >>"$out" 2>&1 || { echo "md5sums do not match the signed image" >>"$out"; rc=1; }
	[ "$(dpkg-deb -f "$ks/img.deb" Version)" = "9.9.9-1+rcuqs$v" ] || rc=1
	printf 'not a PE binary\n' >"$ks/plain"
	mkpkg plain.deb "$ks/plain"
	sum=$(sha256sum <"$ks/plain.deb")
	"$here/sign-kdeb.sh" image "$ks/plain.deb" "$ks/a.key" "$ks/a.crt" >>"$out" 2>&1 && { echo "an image without an EFI stub was signed" >>"$out"; rc=1; }
	has "$out" "sbsign refused vmlinuz-9.9.9-rcuqs$v" || rc=1
	[ "$(sha256sum <"$ks/plain.deb")" = "$sum" ] || { echo "the refused package changed" >>"$out"; rc=1; }
	result $rc "sign-kdeb.sh image: sbverify accepts the signed image with the key's certificate, refuses it with another; md5sums updated; an image without an EFI stub refused, its package unchanged" "$out"
fi

# A Debian kernel update rebuilds the new sources: a tarball swap makes
# the tree (and so make kernel and make kernel-deb, which depend on its
# stamp) follow the new tarball, without a kernel build. Two small
# tarballs made of the files the 6.1 series touches and the Makefile, the
# second with SUBLEVEL+1 (as the next upload would be).
mkdir -p "$scratch/tb"
if [ -f "$BUILD/patch-check-6.1/tree/Makefile" ] && [ -s "$BUILD/patch-check-6.1/tree/Makefile" ]; then
	cp -a "$BUILD/patch-check-6.1/tree" "$scratch/tb/linux-source-6.1"
else
	mkdir -p "$scratch/tb/linux-source-6.1"
	members=$(modified_files "$here"/6.1/000[1-9]-*.patch | sort -u | sed 's,^,linux-source-6.1/,')
	# shellcheck disable=SC2086
	tar -C "$scratch/tb/linux-source-6.1" --strip-components=1 -xf "$TARBALL" $members >/dev/null 2>&1
fi
tar -C "$scratch/tb/linux-source-6.1" --strip-components=1 -xf "$TARBALL" linux-source-6.1/Makefile >/dev/null 2>&1
s0=$(sed -n 's/^SUBLEVEL = //p' "$scratch/tb/linux-source-6.1/Makefile")
mkdir -p "$scratch/tb/a" "$scratch/tb/b"
tar -C "$scratch/tb" -cJf "$scratch/tb/a/linux-source-6.1.tar.xz" linux-source-6.1
sed -i "s/^SUBLEVEL = .*/SUBLEVEL = $((s0 + 1))/" "$scratch/tb/linux-source-6.1/Makefile"
tar -C "$scratch/tb" -cJf "$scratch/tb/b/linux-source-6.1.tar.xz" linux-source-6.1
tb=$scratch/tb/build
stamp() { stat -c %Y.%y "$tb/stamp-tree" 2>/dev/null; }
sub() { sed -n 's/^SUBLEVEL = //p' "$tb/linux/Makefile" 2>/dev/null; }
: >"$out"
rc=0
mk -C "$here" BUILD="$tb" TARBALL="$scratch/tb/a/linux-source-6.1.tar.xz" "$tb/stamp-tree" >>"$out" 2>&1 || rc=1
s1=$(stamp)
[ "$(sub)" = "$s0" ] && grep -q cond_resched_qs_limit "$tb/linux/kernel/sched/core.c" ||
	{ echo "first tarball: SUBLEVEL $(sub), not $s0, or the series not applied" >>"$out"; rc=1; }
sleep 1.1
mk -C "$here" BUILD="$tb" TARBALL="$scratch/tb/a/linux-source-6.1.tar.xz" "$tb/stamp-tree" >>"$out" 2>&1 || rc=1
[ "$(stamp)" = "$s1" ] || { echo "the same tarball again touched the stamp (a needless rebuild)" >>"$out"; rc=1; }
mk -C "$here" BUILD="$tb" TARBALL="$scratch/tb/b/linux-source-6.1.tar.xz" "$tb/stamp-tree" >>"$out" 2>&1 || rc=1
[ "$(stamp)" != "$s1" ] || { echo "another tarball left the stamp as it was: make kernel-deb would not rebuild" >>"$out"; rc=1; }
[ "$(sub)" = "$((s0 + 1))" ] && grep -q cond_resched_qs_limit "$tb/linux/kernel/sched/core.c" ||
	{ echo "second tarball: SUBLEVEL $(sub), not $((s0 + 1)), or the series not applied" >>"$out"; rc=1; }
grep -q "sha256:$(sha256sum <"$scratch/tb/b/linux-source-6.1.tar.xz" | cut -d' ' -f1)" "$tb/applied/source" ||
	{ echo "applied/source does not record the second tarball: $(cat "$tb/applied/source")" >>"$out"; rc=1; }
has "$out" "extracting afresh" || rc=1
mk -n -C "$here" kernel-deb BUILD="$tb" >"$out.n" 2>&1 || rc=1
has "$out.n" "dv=\$(cut -d' ' -f2 $tb/applied/source)" || rc=1
cat "$out.n" >>"$out"
rm -f "$out.n"
result $rc "tarball swap: the tree follows the installed linux-source-6.1 (SUBLEVEL $s0, then $((s0 + 1)), series applied, recorded), the same tarball again rebuilds nothing, kernel-deb versions from the record" "$out"
rm -rf "$scratch/tb"

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
		"O=$b/kdeb-debian " " bindeb-pkg" \
		"configuration $scratch/etc/config-6.1.0-99-amd64, local version -rcuqs$v," || rc=1
	grep -q -- '-lean' "$out" && { echo "lean in a KCONFIG build" >>"$out"; rc=1; }
	[ -e "$b" ] && { echo "make -n created $b" >>"$out"; rc=1; }
	result $rc "make -n kernel-deb KCONFIG=<relative>: absolute path, -rcuqs$v, O=\$BUILD/kdeb-debian (Debian's configuration's role), nothing created" "$out"
fi

# The O= folder: one per baseline and configuration role, the same for
# every Debian upload's configuration file; JOBS every CPU; ccache's
# links first on the build's PATH when they are there.
cp "$scratch/etc/config-6.1.0-99-amd64" "$scratch/etc/config-6.1.0-100-amd64"
cp "$scratch/etc/config-6.1.0-99-amd64" "$scratch/etc/config-6.12.120+deb13-rt-amd64"
cp "$scratch/etc/config-6.1.0-99-amd64" "$scratch/etc/config.amd64_none_amd64"
cp "$scratch/etc/config-6.1.0-99-amd64" "$scratch/etc/vm.config"
mkdir -p "$scratch/ccache"
: >"$scratch/ccache/gcc"
rc=0
: >"$out"
odir() { # ARGS...: the O= folder make -n kernel-deb ARGS names
	mk -n -C "$here" kernel-deb BUILD="$b" "$@" 2>>"$out" | grep -o "O=$b/kdeb-[^ ]*" | sort -u
}
for c in "config-6.1.0-100-amd64:kdeb-debian" "config.amd64_none_amd64:kdeb-debian" \
	"vm.config:kdeb-vm.config"; do
	got=$(odir KCONFIG="$scratch/etc/${c%%:*}")
	echo "KCONFIG=${c%%:*}: $got" >>"$out"
	[ "$got" = "O=$b/${c#*:}" ] || rc=1
done
got=$(odir KERNEL=6.12 KCONFIG="$scratch/etc/config-6.12.120+deb13-rt-amd64")
echo "KERNEL=6.12 rt: $got" >>"$out"
[ "$got" = "O=$b/kdeb-6.12-debian-rt" ] || rc=1
got=$(odir KERNEL=7.3 KCONFIG="$scratch/etc/vm.config" KDEB_ROLE=fleet)
echo "KERNEL=7.3 KDEB_ROLE=fleet: $got" >>"$out"
[ "$got" = "O=$b/kdeb-7.3-fleet" ] || rc=1
for bad in "KDEB_ROLE=x" "KCONFIG=$scratch/etc/vm.config KDEB_ROLE=a/b" \
	"KCONFIG=$scratch/etc/vm.config KDEB_ROLE=lean" "KDEB_CCACHE=maybe" \
	"KDEB_CCACHE=yes CCACHE_LIB=$scratch/none"; do
	# shellcheck disable=SC2086 # words: the arguments
	if mk -n -C "$here" kernel-deb BUILD="$b" $bad >>"$out" 2>&1; then
		echo "accepted: $bad" >>"$out"
		rc=1
	fi
done
mk -n -C "$here" kernel-deb BUILD="$b" CCACHE_LIB="$scratch/ccache" >"$out.cc" 2>&1 || rc=1
has "$out.cc" "PATH=$scratch/ccache:\$PATH make" "ccache: yes" "make -j$(nproc), " " -j$(nproc) bindeb-pkg" || rc=1
cat "$out.cc" >>"$out"
mk -n -C "$here" kernel-deb BUILD="$b" KDEB_CCACHE=no CCACHE_LIB="$scratch/ccache" >"$out.cc" 2>&1 || rc=1
if grep -q "PATH=$scratch/ccache" "$out.cc"; then echo "ccache used with KDEB_CCACHE=no" >>"$out"; rc=1; fi
rm -f "$out.cc"
[ -e "$b" ] && { echo "make -n created $b" >>"$out"; rc=1; }
result $rc "make -n kernel-deb: O= one folder per baseline and configuration role (kdeb-debian for every Debian upload's configuration, kdeb-6.12-debian-rt, KDEB_ROLE), bad roles refused, JOBS=nproc, ccache's PATH when installed" "$out"

# Kernel updates. The release, linux-source-6.1's upstream version and
# -rcuqsN, sorts above every Debian 6.1.0-N-amd64 for dpkg, for GRUB
# (grub-mkconfig's version_sort is sort -V) and, where linux-base is
# installed, for linux-version: GRUB boots it by default and Debian's later
# security kernels install without booting. So make kernel-deb must say so
# before and after the build, with the rebuild after every update of
# linux-source-6.1, and doc/install.md (where the README points) must
# document it.
kv=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null | sed 's/-[^-]*$//')
if [ -z "$kv" ]; then
	skip "kernel updates: the release against Debian's, make kernel-deb's warning" "linux-source-6.1 is not installed"
else
	rel=$kv-rcuqs$v
	# above A B: A sorts above B in all three orders.
	above() {
		dpkg --compare-versions "$1" gt "$2" || { echo "dpkg: $1 is not above $2"; return 1; }
		[ "$(printf '%s\n%s\n' "$2" "$1" | LC_ALL=C sort -V | tail -n 1)" = "$1" ] ||
			{ echo "sort -V (GRUB): $1 is not above $2"; return 1; }
		if command -v linux-version >/dev/null 2>&1; then
			[ "$(linux-version sort "$2" "$1" | tail -n 1)" = "$1" ] ||
				{ echo "linux-version sort: $1 is not above $2"; return 1; }
		fi
	}
	: >"$out"
	rc=0
	for d in 6.1.0-1-amd64 6.1.0-28-amd64 6.1.0-99-amd64 6.1.0-99-rt-amd64; do
		above "$rel" "$d" >>"$out" 2>&1 || rc=1
	done
	[ $rc = 0 ] && echo "$rel sorts above Debian's 6.1.0-N-amd64 (dpkg, sort -V$(command -v linux-version >/dev/null && echo ', linux-version'))" >>"$out"
	(cd "$top" && mk -n kernel-deb BUILD="$b" KCONFIG="$scratch/etc/config-6.1.0-99-amd64") >"$out.n" 2>&1 || rc=1
	has "$out.n" "GRUB will boot $rel by default: it sorts above Debian's 6.1.0-N-amd64" \
		"GRUB will boot \$rel by default" "After every update of linux-source-6.1" \
		"run make kernel-deb again and install the" "/etc/kernel/postinst.d/zz-rcuqs" || rc=1
	[ "$(grep -c 'GRUB will boot' "$out.n")" = 2 ] || { echo "the warning is not printed both before and after the build" >>"$out.n"; rc=1; }
	cat "$out.n" >>"$out"
	sed -n '/^## Kernel updates$/,/^## /p' "$top/doc/install.md" >"$out.r"
	has "$out.r" "make kernel-deb KERNEL=N" "linux-source-N" "6.1, 6.12, 7.3" "zz-rcuqs" "make refresh" || { echo "doc/install.md: no '## Kernel updates' section with the one rebuild procedure for every baseline" >>"$out"; rc=1; }
	grep -q '(doc/install.md)' "$top/README.md" || { echo "README.md does not point to doc/install.md" >>"$out"; rc=1; }
	rm -f "$out.n" "$out.r"
	[ -e "$b" ] && { echo "make -n created $b" >>"$out"; rc=1; }
	result $rc "kernel updates: $rel sorts above 6.1.0-99-amd64 (dpkg, GRUB's sort -V), so make kernel-deb warns before and after the build and doc/install.md documents the rebuild" "$out"
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
	$as env -u MAKEFLAGS -u MAKELEVEL -u KDEB_ROLE -u KDEB_CCACHE make --no-print-directory -C "$here" kernel-deb \
		BUILD="$b" KCONFIG="$scratch/etc/unreadable" >"$out" 2>&1
	rc=$?
	[ $rc != 0 ] && has "$out" "KCONFIG=$scratch/etc/unreadable is not readable" && rc=0 || rc=1
	result $rc "kernel-deb refuses an unreadable KCONFIG, nothing created" "$out"
fi

# kdeb-config.sh --fix with scripts/config from the pristine tree that
# check-patches.sh leaves, else from the tarball.
src=$scratch/src
mkdir -p "$src/scripts"
if [ -f "$BUILD/patch-check-6.1/tree/scripts/config" ]; then
	cp "$BUILD/patch-check-6.1/tree/scripts/config" "$src/scripts/config"
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
	result 1 "scripts/config from $BUILD/patch-check-6.1 or $TARBALL" "$out"
fi

# Packages left by a real 'make kernel-deb' in $BUILD, if any: the newest
# of each baseline. A package signed by 'make check-kdeb-build' (its
# throwaway key in $BUILD/ksign-test) is checked with sbverify.
imgs=$(for base in 6.1 6.12 7.3; do
	ls -t "$BUILD"/linux-image-"$base".[0-9]*rcuqs*.deb 2>/dev/null | grep -v -- '-dbg_' | head -n1
done)
[ -n "$imgs" ] || skip "kernel-deb packages' metadata" "no linux-image-*rcuqs*.deb in $BUILD (make kernel-deb)"
for img in $imgs; do
	pkg=$(dpkg-deb -f "$img" Package)
	ver=$(dpkg-deb -f "$img" Version)
	r=${pkg#linux-image-}
	base=$(echo "$r" | cut -d. -f1,2)
	: >"$out"
	rc=0
	echo "$img: Package $pkg, Version $ver" >>"$out"
	case $r in
	*-rcuqs[0-9]*) ;;
	*) echo "release $r does not say rcuqsN" >>"$out"; rc=1 ;;
	esac
	# <Debian's linux-source version>+rcuqsN, whose upstream part is the
	# release's VERSION.PATCHLEVEL.SUBLEVEL.
	case $ver in
	"${r%%-*}"-*+rcuqs"$v") ;;
	*) echo "version $ver is not <Debian's ${r%%-*}-N>+rcuqs$v" >>"$out"; rc=1 ;;
	esac
	dpkg-deb -c "$img" >"$scratch/img.list" 2>>"$out" || rc=1
	for f in "./boot/vmlinuz-$r" "./boot/config-$r" "./boot/System.map-$r"; do
		grep -q " $f\$" "$scratch/img.list" || { echo "$img lacks $f" >>"$out"; rc=1; }
	done
	# The image's own version string, and the series' symbols.
	rm -rf "$scratch/img" && mkdir -p "$scratch/img"
	dpkg-deb --fsys-tarfile "$img" |
		tar -C "$scratch/img" -x "./boot/vmlinuz-$r" "./boot/System.map-$r" 2>>"$out"
	kv=$(file -b "$scratch/img/boot/vmlinuz-$r" 2>>"$out" | sed -n 's/.*, version \([^ ]*\) .*/\1/p')
	echo "vmlinuz-$r says version $kv" >>"$out"
	[ "$kv" = "$r" ] || rc=1
	case $base in
	7.3) syms="__param_jiffies_till_sched_qs __param_jiffies_till_nohz_qs rcu_qs_stat_show" ;;
	*) syms="__param_jiffies_till_sched_qs __param_cond_resched_qs_limit rcu_qs_stat_show" ;;
	esac
	for sym in $syms; do
		grep -q " $sym\$" "$scratch/img/boot/System.map-$r" 2>/dev/null ||
			{ echo "System.map-$r lacks $sym (the series)" >>"$out"; rc=1; }
	done
	signed=""
	if [ -f "$BUILD/ksign-test/cert.pem" ] && sbverify --list "$scratch/img/boot/vmlinuz-$r" 2>/dev/null | grep -q 'signature 1'; then
		sbverify --cert "$BUILD/ksign-test/cert.pem" "$scratch/img/boot/vmlinuz-$r" >>"$out" 2>&1 ||
			{ echo "vmlinuz-$r: sbverify refuses it with $BUILD/ksign-test/cert.pem" >>"$out"; rc=1; }
		signed=", sbverify accepts its signature"
	fi
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
	result $rc "$(basename "$img"): $pkg $ver, /boot/vmlinuz-$r says $r, the series' symbols$signed, headers beside it, no linux-libc-dev" "$out"
done

rm -rf "$scratch"
tap_end kernel-deb
