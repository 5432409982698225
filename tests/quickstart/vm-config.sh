#!/bin/sh
# vm-config.sh OUT [BASELINE]: the kernel configuration make check-quickstart
# gives make kernel-deb as KCONFIG: tinyconfig + common.config +
# preempt-dynamic.config (Debian's preemption model) + vm.config (what a
# Debian userland needs under QEMU), merged with the tree's own
# merge_config.sh in $BUILD/quickstart/kconfig-vm[-BASELINE], checked with
# kernel-patches/check-config.sh, written to OUT. Regenerated only when a
# fragment or this script changed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
out=$1 base=${2:-6.1}
conf=$top/kernel-patches/config
case $base in
6.1) src=$BUILD/linux stamp=$BUILD/stamp-tree obj=$BUILD/quickstart/kconfig-vm ;;
*) src=$BUILD/linux-$base stamp=$BUILD/stamp-tree-$base obj=$BUILD/quickstart/kconfig-vm-$base ;;
esac
mkdir -p "$obj"
vm=$conf/vm.config
case $base in
6.1) ;;
*)
	# 6.10 replaced BASE_FULL with its inverse, BASE_SMALL (an int derived
	# from BASE_FULL before): vm.config names 6.1's.
	sed 's/^CONFIG_BASE_FULL=y$/# CONFIG_BASE_SMALL is not set/' "$vm" >"$obj/vm.config"
	vm=$obj/vm.config
	;;
esac
frags="$conf/common.config $(ls "$conf/base-$base.config" 2>/dev/null || :) $conf/preempt-dynamic.config $vm"
# shellcheck disable=SC2086
sum=$(cat $frags "$0" | sha256sum | cut -d' ' -f1)
# The tree with the series (extracted once, as make kernel-deb does).
make -s -C "$top/kernel-patches" "$stamp" BUILD="$BUILD"
if [ -f "$out" ] && [ "$(cat "$obj/.sum" 2>/dev/null)" = "$sum" ]; then
	echo "vm-config: $out is up to date"
	exit 0
fi
mkdir -p "$obj" "$(dirname "$out")"
kmake() { make -s -C "$src" O="$obj" ARCH=x86_64 "$@"; }
kmake tinyconfig >/dev/null 2>&1
# shellcheck disable=SC2086
(cd "$obj" && KCONFIG_CONFIG=.config "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" .config $frags >merge.log 2>&1)
kmake olddefconfig
# shellcheck disable=SC2086
"$top/kernel-patches/check-config.sh" "$obj/.config" $frags
cp "$obj/.config" "$out"
echo "$sum" >"$obj/.sum"
echo "vm-config: $out (tinyconfig +$(for f in $frags; do printf ' %s' "$(basename "$f")"; done))"
