#!/bin/sh
# kdeb-config.sh OBJDIR LOCALVERSION KCONFIG
# kdeb-config.sh OBJDIR LOCALVERSION --lean FRAGMENT...
#   Write OBJDIR/.config for 'make kernel-deb': the administrator's KCONFIG
#   (olddefconfig on it), or tinyconfig + FRAGMENTs; then LOCALVERSION as
#   CONFIG_LOCALVERSION and Debian's own certificates blanked. Does nothing
#   when the inputs did not change since the last run, so that a rebuild is
#   incremental and hand edits in OBJDIR survive.
# kdeb-config.sh --fix FILE LOCALVERSION
#   Only the edits (local version, Debian's certificates) on FILE: tests.
#
# SRC is the patched tree (its scripts/config, merge_config.sh, Kconfig).
# KSIGN_PEM, when set, is the key and certificate (sign-kdeb.sh pem) that
# signs the modules: MODULE_SIG, MODULE_SIG_ALL, MODULE_SIG_KEY=KSIGN_PEM;
# a lean configuration gets the EFI stub too (ACPI, EFI, EFI_STUB), so
# that its image is a PE/COFF binary sbsign can sign for Secure Boot.
#
# Debian's configuration names certificates that only Debian's build has
# (CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"); with
# them the build stops at certs/x509_certificate_list. The Debian Kernel
# Handbook (4.5, "Building a custom kernel from Debian kernel source") says
# to disable module signing or sign with an ephemeral key when reusing a
# Debian config: the keys are blanked, MODULE_SIG_KEY is kbuild's own
# certs/signing_key.pem, which kbuild generates in OBJDIR (an ephemeral key:
# the packages' modules are signed with it, and the kernel trusts it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${SRC:?SRC (the patched tree) is not set}"

die() { echo "kdeb-config: $*" >&2; exit 1; }
say() { echo "kdeb-config: $*"; }

fix() { # FILE LOCALVERSION
	sc="$SRC/scripts/config --file $1"
	$sc --set-str LOCALVERSION "$2" --disable LOCALVERSION_AUTO
	for opt in SYSTEM_TRUSTED_KEYS SYSTEM_REVOCATION_KEYS MODULE_SIG_KEY; do
		v=$($sc --state "$opt")
		case $v in
		debian/*) ;;
		*) continue ;;
		esac
		new=""
		[ "$opt" = MODULE_SIG_KEY ] && new=certs/signing_key.pem
		$sc --set-str "$opt" "$new"
		say "CONFIG_$opt=\"$v\" is Debian's own, not in linux-source: set to \"$new\" (Debian Kernel Handbook 4.5)"
	done
}

if [ "${1:-}" = --fix ]; then
	[ $# -eq 3 ] || die "usage: kdeb-config.sh --fix FILE LOCALVERSION"
	fix "$2" "$3"
	exit 0
fi

[ $# -ge 3 ] || die "usage: kdeb-config.sh OBJDIR LOCALVERSION KCONFIG|--lean FRAGMENT..."
obj=$1 lv=$2
shift 2
if [ "$1" = --lean ]; then
	shift
	lean=1
	for f in "$@"; do [ -f "$f" ] || die "fragment $f missing"; done
else
	lean=0 kconfig=$1
	[ -e "$kconfig" ] || die "KCONFIG=$kconfig does not exist"
	[ -f "$kconfig" ] || die "KCONFIG=$kconfig is not a regular file"
	head -c1 "$kconfig" >/dev/null 2>&1 || die "KCONFIG=$kconfig is not readable"
	grep -q '^CONFIG_' "$kconfig" || die "KCONFIG=$kconfig holds no CONFIG_ line"
fi

sum=$( {
	echo "$lv"
	if [ "$lean" = 1 ]; then cat "$@"; else echo "$kconfig"; cat "$kconfig"; fi
	cat "$0"
	[ -z "${KSIGN_PEM:-}" ] || { echo "$KSIGN_PEM"; cat "$KSIGN_PEM"; }
} | sha256sum | cut -d' ' -f1)
if [ -f "$obj/.config" ] && [ "$(cat "$obj/.rcuqs-kconfig" 2>/dev/null)" = "$sum" ]; then
	say "$obj/.config is up to date"
	exit 0
fi

mkdir -p "$obj"
rm -f "$obj/.rcuqs-kconfig"
km() { make -s --no-print-directory -C "$SRC" O="$obj" ARCH=x86_64 LOCALVERSION= "$@"; }
if [ "$lean" = 1 ]; then
	km tinyconfig
	(cd "$obj" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" .config "$@" >merge.log)
else
	cp "$kconfig" "$obj/.config"
fi
fix "$obj/.config" "$lv"
if [ -n "${KSIGN_PEM:-}" ]; then
	sc="$SRC/scripts/config --file $obj/.config"
	$sc --enable MODULE_SIG --enable MODULE_SIG_ALL --set-str MODULE_SIG_KEY "$KSIGN_PEM"
	[ "$lean" = 0 ] || $sc --enable ACPI --enable EFI --enable EFI_STUB
fi
km olddefconfig
if [ -n "${KSIGN_PEM:-}" ]; then
	grep -qx "CONFIG_MODULE_SIG_KEY=\"$KSIGN_PEM\"" "$obj/.config" && grep -qx CONFIG_MODULE_SIG_ALL=y "$obj/.config" ||
		die "module signing with $KSIGN_PEM did not end up in $obj/.config"
	grep -qx CONFIG_EFI_STUB=y "$obj/.config" ||
		die "CONFIG_EFI_STUB is not set in $obj/.config: sbsign cannot sign the image"
fi
grep -qx "CONFIG_LOCALVERSION=\"$lv\"" "$obj/.config" ||
	die "CONFIG_LOCALVERSION did not end up as \"$lv\" in $obj/.config"
if [ "$lean" = 1 ]; then
	"$here/check-config.sh" "$obj/.config" "$@" || die "$obj/.config does not match the fragments"
fi
echo "$sum" >"$obj/.rcuqs-kconfig"
say "$obj/.config written, kernel release $(km kernelrelease)"
