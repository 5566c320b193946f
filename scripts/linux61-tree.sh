#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/linux61-tree.sh — perf 6.1's JSON event tree (tools/perf/pmu-events/arch
# of Debian's linux-source-6.1), for tests/integration/perf61_tree_oracle.sh.
#
#   linux61-tree.sh [CACHE]     print the arch/ directory, fetching it when missing
#
# CACHE defaults to $PMUKIT_LINUX61_CACHE, else build/cache/linux-source-6.1 of
# this source tree (one cache for every build directory: build/, build/asan/). The tree is extracted into
# CACHE/tools/perf/pmu-events/arch (nothing else of the kernel source) from, in
# this order: /usr/src/linux-source-6.1.tar.xz when the package is installed,
# else the package's .deb fetched with `apt-get download linux-source-6.1`
# (about 139 MB, removed once extracted). An existing cache is reused as it is.
# The vendor JSON is never committed: it lives under build/ only.
#
# Exit: 0 (the directory on stdout); 1 the tree could not be had (why on stderr).

set -u
me=linux61-tree.sh
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)

if [ $# -ge 1 ]; then cache=$1
elif [ -n "${PMUKIT_LINUX61_CACHE:-}" ]; then cache=$PMUKIT_LINUX61_CACHE
else cache=$src/build/cache/linux-source-6.1; fi
arch=$cache/tools/perf/pmu-events/arch

if [ -f "$cache/.stamp" ] && [ -f "$arch/x86/mapfile.csv" ]; then
	echo "$arch"
	exit 0
fi

fail() { echo "$me: $*" >&2; exit 1; }
mkdir -p "$(dirname "$cache")" || fail "cannot create $(dirname "$cache")"
work=$(mktemp -d "$(dirname "$cache")/.linux61.XXXXXX") || fail "no temporary directory"
trap 'rm -rf "$work"' EXIT INT TERM

# The kernel source tarball: the installed package's, else the .deb's.
members='linux-source-6.1/tools/perf/pmu-events/arch'
if [ -f /usr/src/linux-source-6.1.tar.xz ]; then
	echo "$me: extracting $members from /usr/src/linux-source-6.1.tar.xz" >&2
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$work" "$members" ||
		fail "cannot extract $members from /usr/src/linux-source-6.1.tar.xz"
else
	command -v apt-get >/dev/null 2>&1 || fail "no apt-get to fetch linux-source-6.1"
	command -v dpkg-deb >/dev/null 2>&1 || fail "no dpkg-deb to unpack linux-source-6.1"
	echo "$me: fetching linux-source-6.1 (apt-get download, ~139 MB)" >&2
	# apt's download sandbox user must be able to write there
	chmod 755 "$work" 2>/dev/null
	mkdir "$work/deb" && chmod 777 "$work/deb"
	if ! (cd "$work/deb" && apt-get download -q linux-source-6.1 > ../apt.log 2>&1); then
		# no package lists yet (a fresh machine): update them once
		if [ "$(id -u)" = 0 ]; then
			apt-get update -qq >> "$work/apt.log" 2>&1
			(cd "$work/deb" && apt-get download -q linux-source-6.1 >> ../apt.log 2>&1)
		fi
	fi
	deb=$(ls "$work"/deb/linux-source-6.1_*_all.deb 2>/dev/null | head -1)
	[ -n "$deb" ] || fail "apt-get download linux-source-6.1 failed: $(grep -E '^(E|W):' "$work/apt.log" | head -2 | tr '\n' ' ')"
	echo "$me: extracting $members from $(basename "$deb")" >&2
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/src/linux-source-6.1.tar.xz |
		tar -xJf - -C "$work" "$members" ||
		fail "cannot extract $members from $deb"
	rm -f "$deb"
fi
[ -f "$work/$members/x86/mapfile.csv" ] || fail "no x86/mapfile.csv in the extracted tree"

# Into place: CACHE/tools/perf/pmu-events/arch, then the stamp.
rm -rf "$cache" && mkdir -p "$cache/tools/perf/pmu-events" &&
	mv "$work/$members" "$cache/tools/perf/pmu-events/arch" ||
	fail "cannot move the tree into $cache"
echo "linux-source-6.1 tools/perf/pmu-events/arch" > "$cache/.stamp"
echo "$arch"
