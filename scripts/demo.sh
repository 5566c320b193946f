#!/bin/sh
# demo.sh — the main job on this machine: counting, sampling into perf.data and reading it
# back (report, flame graph, pprof), and what pmukit knows about CPUs, offline.
# Usage: sh scripts/demo.sh BUILD_DIR
set -eu
B=${1:-build}
P=$B/pmukit
echo "== pmukit stat: a workload counted for real (software events; this VM has no hardware PMU)"
$P stat -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; seq 1 100000 | sort -rn > /dev/null'
echo "== every 100 ms, per CPU, system-wide (-I 100 -a -A), for 0.3 s"
$P stat -I 100 -a -A -e cpu-clock,context-switches sleep 0.3
D=$(mktemp -d "${TMPDIR:-/tmp}/pmukit-demo.XXXXXX")
trap 'rm -rf "$D"' EXIT
echo "== pmukit record -g: a workload sampled into perf.data (cpu-clock here), as perf record writes it"
$P record -g -o "$D/perf.data" -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'
echo "== pmukit report --stdio --no-children -g none: its profile, as perf report prints it (top lines)"
$P report --stdio --no-children -g none -i "$D/perf.data" | grep -v '^#' | grep -v '^$' | head -8
echo "== a flame graph (self-contained HTML) and a pprof profile of the same file"
$P flamegraph -i "$D/perf.data" -o "$D/flame.html" && ls -l "$D/flame.html" | awk '{print $5 " bytes " $NF}'
$P export --format pprof -i "$D/perf.data" -o "$D/profile.pb.gz" && ls -l "$D/profile.pb.gz" | awk '{print $5 " bytes " $NF}'
echo "== saved counts (perf stat -j shape) analysed offline: Skylake TopDown Level 1 and IPC"
$P stat --cpuid skylake --counts tests/fixtures/counts/skl-tma.json --topdown -M tma_info_thread_ipc
echo "== TopDown here"
$P stat --topdown true || true
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

echo
echo "== pmukit explain: the attr perf would open, offline, for a CPU this machine is not"
$P explain --cpuid skylake -e '{cycles,l1d.replacement}:u'
echo
echo "== arm64 thresholds and exception levels (Neoverse V1)"
$P explain --cpuid neoverse-v1 -e 'stall_slot/threshold=2,threshold_compare=2/'
echo
echo "== Intel auto counter reload from a ratio (hybrid PMU tree with acr_mask)"
$P explain --mode record --sysfs tests/fixtures/sysfs/x86-acr --cpuid alderlake \
	-e '{cpu_atom/instructions/,cpu_atom/cycles,period=100000,ratio-to-prev=0.5/}'
echo
echo "== a mistake, pointed at"
$P explain --cpuid skylake -e 'cpu/umsk=1/' || true
