#!/bin/bash
# build-initrd.sh VARIANT [DEB]: build the rcuqs guest initramfs for one
# test kernel (none, dynamic or dynamic-6.12) into $BUILD/guest-VARIANT/initrd.img.
#
# Inputs, from 'make -C kernel-patches kernel' and 'make deb':
#   $BUILD/kernel-VARIANT            the O= tree (kernel.release, Module.symvers)
#   $BUILD/modroot-VARIANT/lib/modules/RELEASE   modules_install output
#   DEB (default $BUILD/rcuqs_<version>_<arch>.deb)   the package
# What goes in: systemd (as init), bash, kmod tools, coreutils the tests
# use, the kernel's modules tree plus the rcuqs_loop test module (depmod run
# on the staged tree), the sysfs-write helper, the tests and the units, and
# the package as it ships: the .deb's contents (rcuqs-ctl, its profiles,
# both units, the man pages), then rcuqs.service enabled by "systemctl
# --root enable", which follows the unit's [Install] section, and the
# libraries rcuqs-ctl links (libkmod).
set -euo pipefail

v=${1:?usage: build-initrd.sh VARIANT [DEB]}
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
deb=${2:-$BUILD/rcuqs_$(head -n 1 "$here/../debian/changelog" | cut -d ' ' -f 2 | tr -d '()')_$(dpkg --print-architecture).deb}
kdir=$BUILD/kernel-$v
modroot=$BUILD/modroot-$v
# RCUQS_GUEST_DIR: another output folder (make bench-cost builds its own
# image for the none kernel there); run-guest.sh takes the same variable.
out=${RCUQS_GUEST_DIR:-$BUILD/guest-$v}

die() { echo "build-initrd: $*" >&2; exit 1; }
[ -f "$kdir/include/config/kernel.release" ] ||
	die "$kdir/include/config/kernel.release missing: run 'make -C kernel-patches kernel' first"
release=$(cat "$kdir/include/config/kernel.release")
[ -d "$modroot/lib/modules/$release" ] ||
	die "$modroot/lib/modules/$release missing (modules_install output)"
# dracut picks the compressor; say gzip, which both configs decompress
# (CONFIG_RD_GZIP, checked here so a config change cannot break the boot).
# include/config/auto.conf is the configuration the kernel was built with.
grep -q '^CONFIG_RD_GZIP=y' "$kdir/include/config/auto.conf" ||
	die "$kdir was not built with CONFIG_RD_GZIP=y: it cannot unpack a gzip initramfs"
[ -f "$deb" ] || die "$deb missing: run 'make deb' at the top first"

mkdir -p "$out"
start=$(date +%s)

# The test module, built out of tree in the build folder (sources copied
# so that the two variants do not share object files).
rm -rf "$out/mod"
mkdir -p "$out/mod"
cp "$here"/modules/rcuqs_loop/{Kbuild,rcuqs_loop.c} "$out/mod/"
make -s -C "$kdir" M="$out/mod" modules
[ -f "$out/mod/rcuqs_loop.ko" ] || die "rcuqs_loop.ko was not built"

# The one-write helper, and a libkmod prober for the modinfo findings.
mkdir -p "$out/bin"
gcc -O2 -Wall -Wextra -Werror -o "$out/bin/sysfs-write" "$here/tools/sysfs-write.c"
gcc -O2 -Wall -Wextra -Werror -o "$out/bin/open1" "$here/tools/open1.c"
gcc -O2 -Wall -Wextra -Werror -o "$out/bin/sockexit" "$here/tools/sockexit.c"
gcc -O2 -Wall -Wextra -Werror -o "$out/bin/userspin" "$here/tools/userspin.c"
# shellcheck disable=SC2046
gcc -O2 -Wall -Wextra -Werror -o "$out/bin/kmod-probe" "$here/tools/kmod-probe.c" \
	$(pkg-config --cflags --libs libkmod)

# Staged tree, copied into the image as it is. Debian 12 has merged /usr:
# /lib is a link to usr/lib in the image, so stage under usr/.
stage=$out/stage
rm -rf "$stage"
mkdir -p "$stage/usr/lib/modules" "$stage/usr/lib/rcuqs-test/tests" \
	"$stage/usr/lib/systemd/system" "$stage/usr/bin"
cp -a "$modroot/lib/modules/$release" "$stage/usr/lib/modules/"
# The kernel's configuration where Debian's kernel packages put it:
# rcuqs-ctl reads the preemption model's build default there.
mkdir -p "$stage/boot"
cp "$kdir/.config" "$stage/boot/config-$release"
rm -f "$stage/usr/lib/modules/$release/build" "$stage/usr/lib/modules/$release/source"
mkdir -p "$stage/usr/lib/modules/$release/extra"
cp "$out/mod/rcuqs_loop.ko" "$stage/usr/lib/modules/$release/extra/"
depmod -b "$stage/usr" "$release"
cp "$here"/tests/{lib.sh,run-suite,demo,bench-latency,bench-open1,test-active,test-early} "$stage/usr/lib/rcuqs-test/"
cp "$here"/tests/bench-cost "$stage/usr/lib/rcuqs-test/"
cp "$here"/tests/[0-9]*.sh "$stage/usr/lib/rcuqs-test/tests/"
cp "$here"/units/rcuqs-suite.{service,target} "$here"/units/rcuqs-test-{active,early}.service \
	"$stage/usr/lib/systemd/system/"
cp "$out/bin/sysfs-write" "$out/bin/kmod-probe" "$out/bin/open1" "$out/bin/sockexit" "$out/bin/userspin" "$stage/usr/bin/"

# The package as it ships: the .deb's contents, /usr/sbin/rcuqs-ctl,
# /usr/lib/rcuqs/profiles/*.profile (the bench reads them there too), the
# units (in /lib/systemd/system, staged under usr/ as dpkg installs them
# on this merged-/usr system), the man pages, /usr/share/doc/rcuqs.
debroot=$out/deb
rm -rf "$debroot"
dpkg-deb -x "$deb" "$debroot"
for d in "$debroot"/*; do
	case ${d##*/} in
	bin | sbin | lib | lib32 | lib64) cp -a "$d/." "$stage/usr/${d##*/}/" ;;
	*) cp -a "$d" "$stage/" ;;
	esac
done
for f in usr/sbin/rcuqs-ctl usr/lib/rcuqs/profiles/default.profile \
	usr/lib/systemd/system/rcuqs.service usr/lib/systemd/system/rcuqs-profile@.service \
	usr/share/man/man8/rcuqs-ctl.8.gz; do
	[ -f "$stage/$f" ] || die "$deb has no /$f (or it was staged elsewhere)"
done
# dpkg does not run in the image, so the package's postinst, which
# enables rcuqs.service (dh_installsystemd), does not either: enable it
# here as that postinst does, from [Install], and the harness's
# rcuqs.test_active= writer and rcuqs.test_early= racer with it (each
# skipped unless its word is on the kernel command line).
systemctl --root="$stage" --quiet enable rcuqs.service rcuqs-test-active.service \
	rcuqs-test-early.service
[ -L "$stage/etc/systemd/system/sysinit.target.wants/rcuqs.service" ] ||
	die "systemctl enable rcuqs.service made no sysinit.target.wants link"
# dracut resolves libraries only for what it installs itself: name the
# ones the staged rcuqs-ctl links against (libkmod.so.2 and its own).
libs=$(ldd "$stage/usr/sbin/rcuqs-ctl" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
grep -q libkmod <<<"$libs" || die "rcuqs-ctl does not link libkmod? ldd: $libs"

tools="kmod modprobe insmod rmmod modinfo lsmod depmod dmesg stty stat seq
timeout mktemp tr sed grep date sleep nproc uname wc head tail ls cat
basename rm mkdir mv cp systemctl journalctl unshare nsenter taskset dd awk $libs"
dracut --quiet --force --no-kernel --no-hostonly --no-hostonly-cmdline \
	--gzip -m "systemd systemd-initrd bash" \
	--install "$tools" --include "$stage" / \
	"$out/initrd.img.tmp"
mv "$out/initrd.img.tmp" "$out/initrd.img"
echo "build-initrd: $out/initrd.img ($release, $(du -h "$out/initrd.img" | cut -f1)," \
	"$(($(date +%s) - start)) s)"
