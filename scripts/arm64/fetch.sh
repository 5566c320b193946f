#!/bin/sh
# fetch.sh — download (once) the Debian arm64 packages the emulated-PMU guest of
# `make check-arm64` is made of, and extract them into a sysroot:
#   - the cloud kernel (linux-image-<abi>-cloud-arm64, the version that
#     linux-image-cloud-arm64 depends on): its /boot/vmlinuz-* is a raw Image
#     with the PMUv3 driver and the PL011 console built in;
#   - busybox-static: the guest's /init shell and tools;
#   - linux-perf (perf 6.1, the oracle) and the arm64 libraries of its
#     dependency closure (only the shared objects perf actually links are copied
#     into the initramfs later, by initramfs.sh).
# Usage: fetch.sh OUTDIR   (e.g. build/arm64). Everything is cached in
# OUTDIR/debs and OUTDIR/sysroot; when OUTDIR/sysroot/.stamp exists a run is
# offline and does nothing.
set -eu
out=${1:?usage: fetch.sh OUTDIR}
debs=$out/debs
root=$out/sysroot
[ -f "$root/.stamp" ] && exit 0

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "fetch: dpkg --add-architecture arm64" >&2
	$SUDO dpkg --add-architecture arm64
	$SUDO apt-get update -qq
fi
# The package lists may not know arm64 yet (architecture added by hand without an update).
apt-cache show linux-perf:arm64 >/dev/null 2>&1 || $SUDO apt-get update -qq

kdep=$(apt-cache depends linux-image-cloud-arm64:arm64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*-cloud-arm64\)\(:arm64\)\{0,1\}$/\1/p' | head -1)
[ -n "$kdep" ] || { echo "fetch: cannot find the kernel linux-image-cloud-arm64:arm64 depends on" >&2; exit 1; }

# perf's library closure as apt sees it: every arm64 library package it depends on, recursively.
libs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
	--no-replaces --no-enhances linux-perf:arm64 | grep -E '^lib[^ ]*:arm64$' | sort -u)
pkgs="$kdep:arm64 busybox-static:arm64 linux-perf:arm64 $libs"

mkdir -p "$debs"
need=""
for p in $pkgs; do
	n=${p%:arm64}
	ls "$debs/${n}_"*_arm64.deb >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
	echo "fetch: apt-get download$need" >&2
	(cd "$debs" && apt-get download -q $need) >&2
fi

rm -rf "$root" && mkdir -p "$root"
for d in "$debs"/*.deb; do
	dpkg-deb --fsys-tarfile "$d" | tar -x -C "$root" --exclude="./lib/modules/*" --exclude="./usr/share/*"
done
ls "$root"/boot/vmlinuz-* >/dev/null || { echo "fetch: no kernel image in $kdep" >&2; exit 1; }
echo "$kdep" > "$root/.kernel"
touch "$root/.stamp"
