#!/bin/sh
# run.sh — the host side of `make check-arm64`: packs the initramfs, boots it under
# qemu-system-aarch64 (TCG, -icount: an emulated PMUv3 whose counts are deterministic)
# three times — non-VHE on `-cpu max` (64-bit counters), VHE (`virtualization=on`) on
# `-cpu neoverse-n1` (a MIDR the event tables know: metrics), non-VHE on `-cpu cortex-a72`
# (no 64-bit event counters: the 32-bit mrs path) — then compares perf 6.1 with pmukit
# in what the guest printed (tests/arm64/compare.py) and hands the TAP to prove.
# Fails, saying why, when QEMU cannot start or a guest does not finish.
# Usage: run.sh A64DIR XODIR   (A64DIR: fetch.sh's output; XODIR: the aarch64 build)
set -eu
a64=${1:?usage: run.sh A64DIR XODIR}
xo=${2:?}
src=$(cd "$(dirname "$0")/../.." && pwd)
qemu=${QEMU_SYSTEM:-qemu-system-aarch64}
timeout_s=${PMUKIT_ARM64_TIMEOUT:-300}

command -v "$qemu" >/dev/null || { echo "check-arm64: $qemu not found (Debian package qemu-system-arm)" >&2; exit 1; }
kernel=$(ls "$a64"/sysroot/boot/vmlinuz-* 2>/dev/null | head -1)
[ -n "$kernel" ] || { echo "check-arm64: no kernel in $a64/sysroot/boot (run scripts/arm64/fetch.sh)" >&2; exit 1; }
sh "$src"/scripts/arm64/initramfs.sh "$a64" "$xo" "$a64"/initramfs.cpio

boot() {	# boot NAME QEMU-OPTIONS...
	name=$1
	shift
	log=$a64/console-$name.log
	echo "  BOOT    $name: $qemu $*"
	start=$(date +%s)
	set +e
	timeout "$timeout_s" "$qemu" "$@" -smp 1 -m 1024 -icount shift=1,sleep=off -nographic \
		-no-reboot -nic none -kernel "$kernel" -initrd "$a64"/initramfs.cpio \
		-append "console=ttyAMA0 rdinit=/init panic=-1 quiet pk.boot=$name" \
		</dev/null >"$log" 2>&1
	rc=$?
	set -e
	echo "  BOOT    $name: exit $rc after $(( $(date +%s) - start )) s, console in $log"
	if [ $rc -ne 0 ] || ! grep -q '^=== end' "$log"; then
		echo "check-arm64: the $name guest did not finish (QEMU exit $rc$( [ $rc -eq 124 ] && echo ", timed out after $timeout_s s")); last lines of $log:" >&2
		tail -20 "$log" >&2
		exit 1
	fi
}

boot nvhe -M virt -cpu max,pauth=off
boot vhe -M virt,virtualization=on -cpu neoverse-n1
boot a72 -M virt -cpu cortex-a72

res=$a64/results
rm -rf "$res" && mkdir -p "$res"
python3 "$src"/tests/arm64/compare.py "$res" "$a64"/console-nvhe.log "$a64"/console-vhe.log "$a64"/console-a72.log
prove --exec cat "$res"/*.tap
