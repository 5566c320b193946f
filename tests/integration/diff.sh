#!/bin/sh
# diff.sh — pmukit diff against perf 6.1's perf diff (TAP): two recordings of
# tests/workloads/report_many that differ (-v 1 triples the odd leaves and
# doubles top_a), with its default and other sort keys, -q, a pair of
# recordings with threads and callchains, files with two events, another
# build of the workload (pairs by symbol name), and a file against itself.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
export PMUKIT W T_TMP

PLAN=11
echo "1..$PLAN"
skip_all() {
	i=0; while [ $i -lt $PLAN ]; do i=$((i + 1)); echo "ok $i - diff # SKIP $1"; done
	exit 0
}
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 || skip_all "perf (6.1) is not installed"
[ -x "$W" ] || skip_all "$W not built (make tests)"
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/v0.data" "$W" 3000 >/dev/null 2>&1 &&
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/v1.data" "$W" -v 1 3000 >/dev/null 2>&1 ||
	skip_all "perf record cannot sample cpu-clock here"
perf record -q -e cpu-clock -c 100000 -g -o "$T_TMP/g0.data" "$W" -t 2 1500 >/dev/null 2>&1
perf record -q -e cpu-clock -c 100000 -g -o "$T_TMP/g1.data" "$W" -t 2 -v 1 1500 >/dev/null 2>&1
perf record -q -e cpu-clock,task-clock -c 100000 -o "$T_TMP/e0.data" "$W" 1500 >/dev/null 2>&1
perf record -q -e task-clock,cpu-clock -c 100000 -o "$T_TMP/e1.data" "$W" -v 1 1500 >/dev/null 2>&1
# the same program built otherwise (-O2): its functions are elsewhere, so only their
# names pair them, as perf diff pairs them
W2="$T_TMP/report_many_o2"
${CC:-cc} -O2 -g -fno-omit-frame-pointer -pthread -o "$W2" "${PMUKIT_SRC:-.}/tests/workloads/report_many.c" 2>/dev/null &&
	perf record -q -e cpu-clock -c 100000 -o "$T_TMP/b1.data" "$W2" -v 1 3000 >/dev/null 2>&1

cat > "$T_TMP/compare" <<'EOF2'
a=$1; b=$2; shift 2
perf diff "$@" "$T_TMP/$a.data" "$T_TMP/$b.data" > "$T_TMP/perf.out" 2>/dev/null
"$PMUKIT" diff "$@" "$T_TMP/$a.data" "$T_TMP/$b.data" > "$T_TMP/pmukit.out" 2>"$T_TMP/pmukit.err"
[ -s "$T_TMP/perf.out" ] || { echo "perf diff printed nothing" >&2; exit 1; }
diff "$T_TMP/perf.out" "$T_TMP/pmukit.out" > "$T_TMP/diff" && exit 0
echo "$(grep -c '^[<>]' "$T_TMP/diff") lines differ (< perf, > pmukit):" >&2
head -30 "$T_TMP/diff" >&2; cat "$T_TMP/pmukit.err" >&2
exit 1
EOF2
chmod +x "$T_TMP/compare"
C="$T_TMP/compare"

ok "two workloads: default (Baseline, Delta Abs; dso,sym)" $C v0 v1
ok "two workloads: reversed" $C v1 v0
ok "two workloads: -s sym" $C v0 v1 -s sym
ok "two workloads: -s dso" $C v0 v1 -s dso
ok "two workloads: -s comm,sym" $C v0 v1 -s comm,sym
ok "two workloads: -q" $C v0 v1 -q
ok "threads and callchains (not used by diff)" $C g0 g1
ok "two events each, matched by type and config" $C e0 e1
if [ -f "$T_TMP/b1.data" ]; then
	ok "another build of the workload: pairs by symbol name" $C v0 b1
	ok "another build, reversed" $C b1 v0
else
	T_N=$((T_N + 2)); echo "ok $((T_N - 1)) - another build # SKIP no C compiler"; echo "ok $T_N - reversed # SKIP no C compiler"
fi
ok "a file against itself: every delta +0.00%" sh -c '
	"$PMUKIT" diff "$T_TMP/v0.data" "$T_TMP/v0.data" > "$T_TMP/o" &&
	n=$(grep -c "%  " "$T_TMP/o") && [ "$n" -gt 10 ] &&
	[ "$(grep -c "     +0.00%  " "$T_TMP/o")" = "$n" ] || { head "$T_TMP/o" >&2; exit 1; }'
[ $T_FAIL -eq 0 ]
