#!/bin/sh
# examples.sh — the programs of examples/ run and exit 0, linked with libpmukit.so
# (they use the public API only: its hidden internals would not link) (TAP).
B=${PMUKIT_BUILD:-build}
set -- region topdown_region expose
echo "1..$(($# * 2))"
n=0
for e in "$@"; do
	n=$((n + 1))
	if out=$("$B/examples/$e" 2>&1); then
		echo "ok $n - examples/$e"
	else
		echo "not ok $n - examples/$e"
	fi
	printf '%s\n' "$out" | sed 's/^/# /'
	n=$((n + 1))
	if readelf -d "$B/examples/$e" | grep -q 'Shared library: \[libpmukit.so.0\]'; then
		echo "ok $n - examples/$e needs libpmukit.so.0"
	else
		echo "not ok $n - examples/$e needs libpmukit.so.0"
	fi
done
