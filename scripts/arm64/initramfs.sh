#!/bin/sh
# initramfs.sh — pack the guest of `make check-arm64` into a newc cpio archive:
#   /init (tests/arm64/init), busybox (static), /usr/bin/perf (Debian's arm64
#   perf 6.1) and every shared object it and the dynamically linked test
#   binaries need (the NEEDED closure, resolved in the fetched sysroot, then in
#   the multiarch arm64 libraries installed on this machine), and under /pk the
#   aarch64 builds: the static CLI, libpmukit.so, the unit tests, the examples,
#   the workloads (tests/arm64/*.c) and the driver tests/arm64/guest.sh.
# Usage: initramfs.sh A64DIR XODIR OUT.cpio   (A64DIR holds sysroot/ from fetch.sh)
set -eu
a64=${1:?usage: initramfs.sh A64DIR XODIR OUT.cpio}
xo=${2:?}
out=${3:?}
src=$(cd "$(dirname "$0")/../.." && pwd)
sysroot=$a64/sysroot
stage=$a64/initramfs
readelf=readelf
command -v aarch64-linux-gnu-readelf >/dev/null && readelf=aarch64-linux-gnu-readelf

rm -rf "$stage"
mkdir -p "$stage"/bin "$stage"/sbin "$stage"/usr/bin "$stage"/lib/aarch64-linux-gnu \
	"$stage"/proc "$stage"/sys "$stage"/dev "$stage"/tmp "$stage"/root "$stage"/pk/tests \
	"$stage"/pk/examples "$stage"/etc
cp "$sysroot"/bin/busybox "$stage"/bin/busybox
cp "$sysroot"/usr/bin/perf "$stage"/usr/bin/perf
cp "$src"/tests/arm64/init "$stage"/init
cp "$src"/tests/arm64/guest.sh "$stage"/pk/guest.sh
chmod 755 "$stage"/init "$stage"/pk/guest.sh
cp "$xo"/pmukit "$xo"/libpmukit.so "$stage"/pk/
for f in "$xo"/arm64/* "$xo"/tests/test_* "$xo"/examples/*; do
	case $f in *.d) continue;; esac	# make's dependency files
	case $f in */tests/*) d=tests;; */examples/*) d=examples;; *) d=;; esac
	cp "$f" "$stage/pk/$d"
done
# the unit tests' fixtures (some self-monitoring tests read a fake PMU tree)
mkdir -p "$stage"/pk/src/tests/fixtures && cp -r "$src"/tests/fixtures/sysfs "$stage"/pk/src/tests/fixtures/
# debug information is of no use in the guest and makes the archive three times larger
strip=strip
command -v aarch64-linux-gnu-strip >/dev/null && strip=aarch64-linux-gnu-strip
find "$stage"/pk -type f -perm -u+x | while read -r f; do
	if "$readelf" -h "$f" >/dev/null 2>&1; then "$strip" --strip-debug "$f"; fi
done
echo "root:x:0:0:root:/root:/bin/sh" > "$stage"/etc/passwd

# The NEEDED closure of every dynamic ELF file in the stage.
dirs="$sysroot/lib/aarch64-linux-gnu $sysroot/usr/lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/aarch64-linux-gnu/lib"
find_lib() {
	for d in $dirs; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return 0; }
	done
	return 1
}
interp=$(find_lib ld-linux-aarch64.so.1) || { echo "initramfs: no ld-linux-aarch64.so.1" >&2; exit 1; }
cp -L "$interp" "$stage"/lib/ld-linux-aarch64.so.1
todo=$(find "$stage"/usr/bin "$stage"/pk -type f)
while [ -n "$todo" ]; do
	next=""
	for f in $todo; do
		for so in $("$readelf" -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			[ -e "$stage/lib/aarch64-linux-gnu/$so" ] && continue
			case $so in libpmukit.so*) continue;; esac
			p=$(find_lib "$so") || { echo "initramfs: $f needs $so, found in none of: $dirs" >&2; exit 1; }
			cp -L "$p" "$stage/lib/aarch64-linux-gnu/$so"
			next="$next $stage/lib/aarch64-linux-gnu/$so"
		done
	done
	todo=$next
done
ln -sf /pk/libpmukit.so "$stage"/lib/aarch64-linux-gnu/libpmukit.so.0
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
