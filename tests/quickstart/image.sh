#!/bin/sh
# image.sh: the Debian disk image of make check-quickstart (run as root).
#
#   image.sh root SUITE TARBALL [PACKAGE,...]
#       debootstrap --variant=minbase SUITE with Debian's kernel, GRUB (BIOS),
#       systemd and what the quick start's packages depend on, and the
#       PACKAGEs given (the follow suite's unattended-upgrades: the VM has
#       no network to install them from), packed as TARBALL (a cache: later
#       runs only unpack it).
#   image.sh disk SUITE TARBALL DISK STAGE KDIR
#       a 3 GiB sparse raw DISK: one MBR partition, ext4, the root unpacked,
#       STAGE (a folder) copied over it, fstab, GRUB set for the serial
#       console (/etc/default/grub); the mounts in a mount namespace of
#       their own, the loop device detached in a trap: nothing outlives
#       the script. Debian's kernel and initramfs are copied to KDIR: the
#       VM's first boot starts them directly (QEMU -kernel) and installs
#       GRUB in the MBR from inside (grub-install /dev/vda, update-grub):
#       this host's kernel reads no MBR partition table, so a chroot here
#       cannot give grub-install the disk and its partition.
#   image.sh sync DISK SRC DEST
#       DEST in the DISK's root (made by "disk", the VM not running)
#       replaced by a copy of the folder SRC: the follow suite's repository,
#       published on the host between two boots.
#
# Nothing is loaded into the host's kernel: loop devices and mount only.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
die() { echo "image: $*" >&2; exit 1; }

# What the image holds beyond minbase: Debian's kernel and GRUB (the
# machine the quick start starts from), systemd as init, udev and
# initramfs-tools (and zstd, its compressor on bookworm) for the kernels'
# hooks, kmod and libkmod2 (rcuqs-ctl links it), procps, e2fsprogs.
INCLUDE=linux-image-amd64,grub-pc,systemd-sysv,udev,initramfs-tools,zstd,kmod,libkmod2,procps,util-linux,e2fsprogs

mirror() {
	suite=$1
	[ -z "${RCUQS_DEB_MIRROR-}" ] || { echo "$RCUQS_DEB_MIRROR"; return; }
	{
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk -v s="$suite" '$1 == "deb" { i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/) i++; if ($i ~ /^\[/ || $i ~ /\]$/) i++;
				if ($(i + 1) == s) { print $i; exit } }'
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			awk '/^URIs:/ { print $2; exit }' "$f"
		done
		echo http://deb.debian.org/debian
	} | head -n 1
}

cmd_root() {
	suite=$1 tarball=$2 extra=${3:-}
	include=$INCLUDE${extra:+,$extra}
	key=$(printf '%s %s' "$suite" "$include" | sha256sum | cut -c1-10)
	[ -f "$tarball" ] && [ "$(cat "$tarball.key" 2>/dev/null)" = "$key" ] && {
		echo "image: $tarball (cached)"
		return 0
	}
	command -v debootstrap >/dev/null || apt-get install -y --no-install-recommends debootstrap
	dir=$tarball.d
	[ ! -e "$dir" ] || { findmnt -rn -o TARGET | grep -q "^$dir" && die "something is mounted under $dir"; rm -rf --one-file-system "$dir"; }
	mkdir -p "$dir"
	m=$(mirror "$suite")
	echo "image: debootstrap --variant=minbase $suite from $m (log: $tarball.log)"
	debootstrap --variant=minbase --include="$include" "$suite" "$dir" "$m" >"$tarball.log" 2>&1 ||
		die "debootstrap failed: tail of $tarball.log: $(tail -5 "$tarball.log")"
	rm -f "$dir"/var/cache/apt/archives/*.deb
	tar -C "$dir" --numeric-owner -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
	echo "$key" >"$tarball.key"
	rm -rf --one-file-system "$dir"
	echo "image: $tarball"
}

# mbr DISK: one primary partition, bootable, Linux (0x83), from sector
# 2048 to the end (the disk is a whole number of MiB): fdisk is not needed.
mbr() {
	sectors=$(($(stat -c %s "$1") / 512))
	le32() { printf "\\$(printf %03o $(($1 & 255)))\\$(printf %03o $((($1 >> 8) & 255)))\\$(printf %03o $((($1 >> 16) & 255)))\\$(printf %03o $((($1 >> 24) & 255)))"; }
	{
		printf '\200\376\377\377\203\376\377\377'
		le32 2048
		le32 $((sectors - 2048))
	} | dd of="$1" bs=1 seek=446 conv=notrunc status=none
	printf '\125\252' | dd of="$1" bs=1 seek=510 conv=notrunc status=none
}

# attach DISK: $loop, a loop device on DISK's partition, detached in a
# trap. The partition through a loop device at its offset: this host's
# kernel may not read MBR partitions (losetup -P finds none without
# CONFIG_MSDOS_PARTITION), and nothing is to be loaded into it.
attach() {
	size=$(stat -c %s "$1")
	loop=$(losetup -f --show -o 1048576 --sizelimit $((size - 1048576)) "$1")
	trap 'losetup -d "$loop"' EXIT
	trap 'exit 1' INT TERM HUP
}
# in_root SCRIPT [ARG...]: SCRIPT (sh -eu, ARGs as $1...) with $loop
# mounted at $mnt, in a private mount namespace: every mount is gone when
# it ends.
in_root() {
	mnt=$(mktemp -d /tmp/rcuqs-qs-mnt.XXXXXX)
	rc=0
	unshare --mount --propagation private sh -eu -c 'loop=$1 mnt=$2 script=$3; shift 3; mount "$loop" "$mnt"; eval "$script"; umount "$mnt"' \
		sh "$loop" "$mnt" "$@" || rc=$?
	rmdir "$mnt"
	return $rc
}
cmd_disk() {
	suite=$1 tarball=$2 disk=$3 stage=$4 kdir=$5
	[ -f "$tarball" ] || die "$tarball missing (image.sh root first)"
	rm -f "$disk"
	truncate -s 3G "$disk"
	mbr "$disk"
	attach "$disk"
	mkfs.ext4 -q -L rcuqs-root "$loop"
	uuid=$(blkid -s UUID -o value "$loop")
	mkdir -p "$kdir"
	in_root '
		tarball=$1 stage=$2 uuid=$3 kdir=$4
		tar -C "$mnt" --numeric-owner -xf "$tarball"
		cp -a "$stage"/. "$mnt"/
		echo "UUID=$uuid / ext4 errors=remount-ro 0 1" >"$mnt/etc/fstab"
		echo rcuqs-qs >"$mnt/etc/hostname"
		printf "127.0.0.1 localhost\n127.0.1.1 rcuqs-qs\n" >"$mnt/etc/hosts"
		g=$mnt/etc/default/grub
		[ -f "$g" ] || { echo "image: no /etc/default/grub in the image" >&2; exit 1; }
		sed -i -e "s/^GRUB_TIMEOUT=.*/GRUB_TIMEOUT=2/" \
			-e "s/^GRUB_CMDLINE_LINUX=.*/GRUB_CMDLINE_LINUX=\"console=ttyS0,115200\"/" \
			-e "/^#*GRUB_TERMINAL=/d" "$g"
		printf "GRUB_TERMINAL=\"serial console\"\nGRUB_SERIAL_COMMAND=\"serial --unit=0 --speed=115200\"\n" >>"$g"
		# Debian s kernel for the first boot, which installs GRUB.
		k=$(ls "$mnt"/boot/vmlinuz-* | head -n1)
		cp "$k" "$kdir/vmlinuz"
		cp "$mnt/boot/initrd.img-${k##*/vmlinuz-}" "$kdir/initrd.img"
		echo "${k##*/vmlinuz-}" >"$kdir/release"
	' "$tarball" "$stage" "$uuid" "$kdir" || die "the disk image failed"
	echo "$uuid" >"$kdir/root-uuid"
	echo "image: $disk ($suite, root UUID=$uuid, Debian's kernel $(cat "$kdir/release") in $kdir)"
}

cmd_sync() {
	disk=$1 src=$2 dest=$3
	[ -f "$disk" ] || die "$disk missing (image.sh disk first)"
	[ -d "$src" ] || die "$src is not a folder"
	case $dest in /?*) ;; *) die "DEST $dest: an absolute path in the image" ;; esac
	attach "$disk"
	in_root 'rm -rf --one-file-system "$mnt$1" && mkdir -p "$mnt$1" && cp -a "$2"/. "$mnt$1"/' "$dest" "$src" ||
		die "$src could not be copied to $dest in $disk"
	echo "image: $src copied to $dest in $disk"
}
case ${1-} in
root) shift; cmd_root "$@" ;;
disk) shift; cmd_disk "$@" ;;
sync) shift; cmd_sync "$@" ;;
*) die "usage: image.sh root SUITE TARBALL [PACKAGE,...] | disk SUITE TARBALL DISK STAGE KDIR | sync DISK SRC DEST" ;;
esac
