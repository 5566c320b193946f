#!/bin/sh
# demo.sh — the main job on this machine: what pmukit knows about CPUs, offline.
# Usage: sh scripts/demo.sh BUILD_DIR
set -eu
B=${1:-build}
P=$B/pmukit
echo "== pmukit: tables compiled from $(cat "$B/.events-dir" 2>/dev/null || echo build/arch)"
n=$($P list --json --all --cpuid skylake | grep -c '"kind": "event"' || true)
m=$($P list --json --all --cpuid skylake | grep -c '"kind": "metric"' || true)
echo "skylake: $n events, $m metrics"
for id in GenuineIntel-6-55-4 GenuineIntel-6-8F-8 AuthenticAMD-25-1-1 0x00000000410fd0c0 0x004e1200; do
	printf '%-22s ' "$id"
	$P list --json --all --cpuid "$id" | grep -c '"kind"' | sed 's/$/ events+metrics/'
done
echo
echo "== pmukit list --cpuid GenuineIntel-6-55-4 'l1d*'"
$P list --cpuid GenuineIntel-6-55-4 'l1d*'
echo
echo "== this machine"
$P list sw
