#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/integration/perf61_tree_oracle.sh — perf 6.1's own JSON tree, read with
# `pmukit explain --events-dir`, against perf 6.1 itself: for every core event
# of every x86 model of the tree (Debian's linux-source-6.1,
# tools/perf/pmu-events/arch, fetched by scripts/linux61-tree.sh into
# build/cache/: `make linux61-tree`, or here when missing), the attr pmukit
# encodes must equal the attr perf 6.1 opens for the same event name with
# PERF_CPUID set to that model on a fake PMU tree (tests/oracle/perf_attr.sh).
# perf's tables are compiled from that tree, so perf is the oracle of how the
# 6.1 JSON encodes. Stat and record mode (record: the table's period); the
# uncore events with an ExtSel too (stat). TAP, one test per model; the work
# is done by tests/oracle/perf61_tree.py (see there for the CPU identifiers,
# fixtures and batching).
#
# Skips (1..0) when the oracle cannot run here (not root, no unshare, no perf
# 6.1: perf_attr.sh --check), python3 is missing, or the tree can be neither
# found nor fetched.
#
# Env: PMUKIT_BUILD, PMUKIT_SRC; PMUKIT_LINUX61_ARCH (an arch/ tree to use
# instead of the cache); PMUKIT_ORACLE_JOBS (parallel perf batch lists,
# default nproc); PMUKIT_PERF61_CHUNK (events per perf run, default 300);
# PMUKIT_PERF61_MODELS (a comma-separated subset of the mapfile's models);
# PMUKIT_PERF61_MODES (stat,record by default).

build=$(cd "${PMUKIT_BUILD:-build}" 2>/dev/null && pwd) || build=${PMUKIT_BUILD:-build}
src=$(cd "${PMUKIT_SRC:-.}" && pwd)
pmukit="$build/pmukit"
oracle="$src/tests/oracle/perf_attr.sh"
jobs=${PMUKIT_ORACLE_JOBS:-$(nproc 2>/dev/null || echo 2)}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmukit-perf61-tree.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP python3 not installed"; exit 0; }
[ -x "$pmukit" ] || { echo "1..0 # SKIP $pmukit not built"; exit 0; }

# The shim: the build's, else one built here.
. "$src/tests/integration/lib/oracle_shim.sh"

why=$("$oracle" --check 2>&1 >/dev/null) || { echo "1..0 # SKIP ${why#perf_attr.sh: }"; exit 0; }
export PMUKIT_ORACLE_CHECKED=1

# perf 6.1's tree: given, else the cache (fetched when missing).
if [ -n "${PMUKIT_LINUX61_ARCH:-}" ]; then
	tree=$PMUKIT_LINUX61_ARCH
else
	tree=$(sh "$src/scripts/linux61-tree.sh" 2> "$tmp/tree.err") || {
		echo "1..0 # SKIP no perf 6.1 JSON tree: $(tail -1 "$tmp/tree.err")"
		exit 0
	}
fi
[ -f "$tree/x86/mapfile.csv" ] || { echo "1..0 # SKIP $tree has no x86/mapfile.csv"; exit 0; }

exec python3 "$src/tests/oracle/perf61_tree.py" --tree "$tree" --pmukit "$pmukit" \
	--oracle "$oracle" --fixtures "$src/tests/fixtures/sysfs" --jobs "$jobs" \
	--chunk "${PMUKIT_PERF61_CHUNK:-300}" --models "${PMUKIT_PERF61_MODELS:-}" \
	--modes "${PMUKIT_PERF61_MODES:-stat,record}"
