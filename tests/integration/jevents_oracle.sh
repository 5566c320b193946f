#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/integration/jevents_oracle.sh — compare pmukit's JSON tree reader with
# perf's own jevents.py over the whole real arch/ tree (and over our fixture
# tree): every event (name, pmu, topic, encoding, descriptions, compat, unit,
# deprecated, perpkg), every metric (name, pmu, groups, description) and every
# metric group of every model must agree. TAP output.
#
# Needs: $PMUKIT_BUILD/tests/ir_dump (built by make), python3,
#        PERF_PMU_EVENTS_PY = the directory holding perf's jevents.py and metric.py,
#        PMUKIT_ARCH_DIR = the arch/ tree; PMUKIT_SRC = the source tree (default .).
# Skips (1..0) when perf's scripts or the tree are not available.

build=${PMUKIT_BUILD:-build}
src=${PMUKIT_SRC:-.}
arch=${PMUKIT_ARCH_DIR:-}
py=${PERF_PMU_EVENTS_PY:-}

if [ -z "$py" ] || [ ! -f "$py/jevents.py" ] || [ ! -f "$py/metric.py" ]; then
	echo "1..0 # SKIP PERF_PMU_EVENTS_PY does not name a directory with perf's jevents.py and metric.py"
	exit 0
fi
if [ -z "$arch" ] || [ ! -d "$arch" ]; then
	echo "1..0 # SKIP PMUKIT_ARCH_DIR is not an arch/ tree"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 not installed"
	exit 0
fi

dump="$build/tests/ir_dump"
oracle="$src/tests/oracle/jevents_dump.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmukit-oracle.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
fails=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n - $1"
	if [ -n "${2:-}" ] && [ -f "$2" ]; then
		sed 's/^/# /' "$2" | head -n 20
	fi
}

# compare KIND OURS PERFS OUT: sorted multisets of normalized records of one kind.
compare() {
	python3 - "$@" <<'EOF'
import json, sys
kind, ours, perfs, out = sys.argv[1:5]
def load(path):
    recs = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            d = json.loads(line)
            if d.get('kind') == kind:
                recs.append(json.dumps(d, sort_keys=True, ensure_ascii=False))
    return sorted(recs)
a, b = load(ours), load(perfs)
only_a = sorted(set(a) - set(b))
only_b = sorted(set(b) - set(a))
with open(out, 'w', encoding='utf-8') as f:
    f.write(f'{len(a)} {kind}s from pmukit, {len(b)} from jevents.py\n')
    for r in only_a[:5]:
        f.write('pmukit : ' + r + '\n')
    for r in only_b[:5]:
        f.write('jevents: ' + r + '\n')
print(len(a), len(b), 0 if a == b else max(len(only_a), len(only_b), 1))
EOF
}

echo "1..10"
for tree in "$arch" "$src/tests/fixtures/arch"; do
	case $tree in "$arch") what="real tree" ;; *) what="fixture tree" ;; esac
	if [ -x "$dump" ] && "$dump" "$tree" >"$tmp/ours" 2>"$tmp/ours.err"; then
		ok "ir_dump reads the $what ($(wc -l <"$tmp/ours") records)"
	else
		[ -x "$dump" ] || echo "missing $dump (make $dump)" >"$tmp/ours.err"
		not_ok "ir_dump reads the $what" "$tmp/ours.err"
		: >"$tmp/ours"
	fi
	if PERF_PMU_EVENTS_PY="$py" python3 "$oracle" "$tree" >"$tmp/perf" 2>"$tmp/perf.err"; then
		ok "jevents.py reads the $what ($(wc -l <"$tmp/perf") records)"
	else
		not_ok "jevents.py reads the $what" "$tmp/perf.err"
		: >"$tmp/perf"
	fi
	for kind in event metric group; do
		set -- $(compare "$kind" "$tmp/ours" "$tmp/perf" "$tmp/diff")
		if [ "${3:-1}" = 0 ] && [ "${1:-0}" -gt 0 ]; then
			ok "$what: all $1 ${kind}s agree with jevents.py"
		else
			not_ok "$what: ${kind}s differ (${3:-?} mismatches)" "$tmp/diff"
		fi
	done
done
[ "$fails" = 0 ]
