#!/bin/sh
# perf_compare.sh — perf 6.1 and pmukit on the same perf.data, line for line (used by
# report.sh and unwind_dwarf.sh through $T_TMP/compare, which tap.sh's `ok` runs):
#
#   perf_compare.sh TAG report|script FILE [--sorted] ARGS...
#
# reads $T_TMP/FILE.data with both tools and the same ARGS (report: --stdio, perf's
# random closing tip left out); --sorted: the workload's own lines in any order (under
# -a other processes' maps come and go). On a difference: how many lines, the first 30,
# pmukit's stderr, and the file kept as $PMUKIT_BUILD/check-failures/TAG-FILE.data.
tag=$1 cmd=$2 f=$3; shift 3
sorted=cat
[ "$1" = --sorted ] && { sorted="eval grep -E '  (rm-[01]|report_m)' | sort"; shift; }
[ -f "$T_TMP/$f.data" ] || { echo "no $f.data (record failed)" >&2; exit 1; }
if [ "$cmd" = report ]; then
	# a cut callchain's "[...]": perf 6.1 adds " (inlined)" by chance (PERF-QUIRKS 36)
	rem='s/\[\.\.\.\] (inlined)$/[...]/'
	perf report --stdio -i "$T_TMP/$f.data" "$@" 2>"$T_TMP/perf.err" | grep -v '^# (Tip:' | sed "$rem" |
		$sorted > "$T_TMP/perf.out"
	"$PMUKIT" report --stdio -i "$T_TMP/$f.data" "$@" 2>"$T_TMP/pmukit.err" | grep -v '^# (Tip:' |
		sed "$rem" | $sorted > "$T_TMP/pmukit.out"
else
	perf script -i "$T_TMP/$f.data" "$@" 2>"$T_TMP/perf.err" | $sorted > "$T_TMP/perf.out"
	"$PMUKIT" script -i "$T_TMP/$f.data" "$@" 2>"$T_TMP/pmukit.err" | $sorted > "$T_TMP/pmukit.out"
fi
[ -s "$T_TMP/perf.out" ] || { echo "perf printed nothing" >&2; cat "$T_TMP/perf.err" >&2; exit 1; }
diff "$T_TMP/perf.out" "$T_TMP/pmukit.out" > "$T_TMP/diff" && exit 0
keep="${PMUKIT_BUILD:-build}/check-failures"
mkdir -p "$keep" && cp "$T_TMP/$f.data" "$keep/$tag-$f.data" 2>/dev/null
echo "$(grep -c '^[<>]' "$T_TMP/diff") lines differ (< perf, > pmukit; the file is kept as $keep/$tag-$f.data):" >&2
head -30 "$T_TMP/diff" >&2
cat "$T_TMP/pmukit.err" >&2
exit 1
