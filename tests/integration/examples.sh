#!/bin/sh
# examples.sh — the programs of examples/ run and exit 0 (TAP).
B=${PMUKIT_BUILD:-build}
set -- region topdown_region
echo "1..$#"
n=0
for e in "$@"; do
	n=$((n + 1))
	if out=$("$B/examples/$e" 2>&1); then
		echo "ok $n - examples/$e"
	else
		echo "not ok $n - examples/$e"
	fi
	printf '%s\n' "$out" | sed 's/^/# /'
done
