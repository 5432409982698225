#!/bin/sh
# sign-kdeb.sh: Secure Boot signing for 'make kernel-deb KSIGN_KEY=...
# KSIGN_CERT=...' (PEM private key and X.509 certificate, e.g. a Machine
# Owner Key enrolled with "mokutil --import CERT.der").
#
#   sign-kdeb.sh pem OBJDIR KEY CERT
#       check that KEY and CERT are a PEM key and certificate of one key
#       pair, and write OBJDIR/rcuqs-signing.pem (key then certificate,
#       mode 0600): kdeb-config.sh makes it CONFIG_MODULE_SIG_KEY, so kbuild
#       signs every module with it (MODULE_SIG_ALL) and the kernel trusts
#       it. Prints the file's path.
#   sign-kdeb.sh image DEB KEY CERT
#       sign /boot/vmlinuz-* inside the linux-image package DEB for shim
#       and the firmware (sbsign, Debian's sbsigntool), check the signature
#       (sbverify --cert), update the package's md5sums and rebuild DEB in
#       place; nothing changes when any step fails.
#
# An unsigned kernel does not boot with Secure Boot on: shim refuses an
# image no enrolled key signed, and a lockdown kernel refuses modules
# signed by a key it does not trust.
set -eu

die() { echo "sign-kdeb: $*" >&2; exit 1; }
usage="usage: sign-kdeb.sh pem OBJDIR KEY CERT | image DEB KEY CERT"
[ $# -eq 4 ] || die "$usage"
verb=$1 target=$2 key=$3 cert=$4

# Both files readable, the key a private key, the certificate an X.509 one
# in PEM, and the certificate's public key the key's.
[ -f "$key" ] && [ -r "$key" ] || die "KSIGN_KEY=$key is not a readable file"
[ -f "$cert" ] && [ -r "$cert" ] || die "KSIGN_CERT=$cert is not a readable file"
command -v openssl >/dev/null || die "openssl is missing (apt-get install openssl)"
kpub=$(openssl pkey -in "$key" -pubout 2>/dev/null) ||
	die "KSIGN_KEY=$key is not a PEM private key (or needs a passphrase: kbuild signs unattended)"
cpub=$(openssl x509 -in "$cert" -noout -pubkey 2>/dev/null) ||
	die "KSIGN_CERT=$cert is not a PEM X.509 certificate"
[ "$kpub" = "$cpub" ] || die "KSIGN_KEY=$key and KSIGN_CERT=$cert are not one key pair"

case $verb in
pem)
	[ -d "$target" ] || mkdir -p "$target"
	pem=$target/rcuqs-signing.pem
	(umask 077 && cat "$key" "$cert" >"$pem.tmp") && mv "$pem.tmp" "$pem"
	echo "$pem"
	;;
image)
	deb=$target
	[ -f "$deb" ] || die "$deb: no such package"
	command -v sbsign >/dev/null && command -v sbverify >/dev/null ||
		die "sbsign/sbverify are missing (apt-get install sbsigntool)"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	dpkg-deb -R "$deb" "$tmp/root" || die "$deb is not a Debian package"
	set -- "$tmp"/root/boot/vmlinuz-*
	[ $# -eq 1 ] && [ -f "$1" ] || die "$deb holds no single /boot/vmlinuz-*: not a linux-image package"
	img=$1 rel=${1##*/}
	sbsign --key "$key" --cert "$cert" --output "$tmp/signed" "$img" >"$tmp/log" 2>&1 ||
		die "sbsign refused $rel (an image without the EFI stub, CONFIG_EFI_STUB, cannot be signed): $(cat "$tmp/log")"
	sbverify --cert "$cert" "$tmp/signed" >"$tmp/log" 2>&1 ||
		die "the signed $rel does not verify: $(cat "$tmp/log")"
	chmod --reference="$img" "$tmp/signed"
	mv "$tmp/signed" "$img"
	sums=$tmp/root/DEBIAN/md5sums
	if [ -f "$sums" ]; then
		new=$(cd "$tmp/root" && md5sum "boot/$rel")
		awk -v f="boot/$rel" -v l="$new" '$2 == f { print l; next } { print }' "$sums" >"$sums.new"
		mv "$sums.new" "$sums"
	fi
	dpkg-deb --root-owner-group -b "$tmp/root" "$tmp/new.deb" >/dev/null ||
		die "cannot rebuild $deb"
	mv "$tmp/new.deb" "$deb"
	echo "sign-kdeb: $rel in $(basename "$deb") signed with $(openssl x509 -in "$cert" -noout -subject), verified with sbverify"
	;;
*) die "$usage" ;;
esac
