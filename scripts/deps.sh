#!/bin/sh
# deps.sh — install the Debian packages pmukit needs to build, test and demo.
# Called by `make demo` and `make check`; does nothing when all are present. Targets that
# need more name them in PMUKIT_EXTRA_PKGS: check-cross and check-arm64 (the aarch64
# toolchain, QEMU, arm64 libraries), fuzz (clang), analyze (cppcheck; clang-tools-14 for
# scan-build-14, with clang-14).
set -e
PKGS="build-essential pkg-config libjson-c-dev libzstd-dev libcmocka-dev linux-source-6.12 perl xz-utils python3 linux-perf libelf-dev libdw-dev zlib1g-dev liblzma-dev libbz2-dev libiberty-dev libprotobuf-c-dev protobuf-c-compiler libdebuginfod-dev golang-go chromium libtraceevent-dev tmux less"
# armv7 files (foreign_files.sh)
PKGS="$PKGS gcc-arm-linux-gnueabihf"
# stat --serve: the HTTP server, and the engines its tests run
PKGS="$PKGS libmicrohttpd-dev prometheus prometheus-node-exporter curl"
PKGS="$PKGS victoria-metrics"
# pmukit annotate: libopcodes and libbfd
PKGS="$PKGS binutils-dev"
# pmukit report's interactive browser: ncurses
PKGS="$PKGS libncurses-dev"
[ -n "$PMUKIT_EXTRA_PKGS" ] && PKGS="$PKGS $PMUKIT_EXTRA_PKGS"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
case "$missing" in *:arm64*) dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64;; esac
$SUDO apt-get update -qq || true
$SUDO apt-get install -y -qq --no-install-recommends $missing
