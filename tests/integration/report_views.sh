#!/bin/sh
# report_views.sh — perf report's other views against perf 6.1 (TAP): --sort
# srcline on --call-graph dwarf files (the cumulative entries of unwound
# frames carry their inline frame's own srcline, as perf's callchain nodes
# do), and the options of pmukit issue 18 that pmukit refused before:
# -U/--hide-unresolved, --full-source-path, the srcfile, symbol_size,
# parent (-p/-x), time (--time-quantum) keys, -G/--inverted,
# --ignore-callees, the IPC columns perf adds to --sort symbol; and the
# pager (a real terminal under tmux). Both tools read the same files with
# the same options and must print the same text, line for line, except
# perf's random closing tip.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
CW="${PMUKIT_BUILD:-build}/workloads/callchain"
export PMUKIT W T_TMP

command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf (6.1) is not installed"; exit 0; }
[ -x "$W" ] && [ -x "$CW" ] || { echo "1..0 # SKIP $W or $CW not built (make tests)"; exit 0; }
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/probe.data" true >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf record cannot sample cpu-clock here"; exit 0; }

rec() {	# rec NAME PERF-RECORD-ARGS... -- recorded into $T_TMP/NAME.data
	name=$1; shift
	perf record -q -o "$T_TMP/$name.data" "$@" >/dev/null 2>"$T_TMP/$name.rec" || {
		echo "# perf record $*: $(tail -1 "$T_TMP/$name.rec")"; rm -f "$T_TMP/$name.data"; }
}
rec g -e cpu-clock -c 100000 -g "$W" 3000
rec nog -e cpu-clock -c 100000 "$W" 3000
rec dw -e cpu-clock -c 200000 --call-graph dwarf "$W" 1000
rec cc -e cpu-clock -c 100000 --call-graph dwarf "$CW" 250

# $C: perf 6.1 and pmukit on one file (tests/integration/lib/perf_compare.sh)
cp "${PMUKIT_SRC:-.}/tests/integration/lib/perf_compare.sh" "$T_TMP/compare"
chmod +x "$T_TMP/compare"
C="$T_TMP/compare report_views report "

# --sort srcline on unwound callchains: file:line for each inline frame, not sym+address
ok "dwarf: --sort srcline (children: the frames' own srclines)" $C dw --sort srcline
ok "dwarf: --sort srcline -g none" $C dw --sort srcline -g none
ok "dwarf: --sort srcline --no-children" $C dw --sort srcline --no-children
ok "dwarf, callchain: --sort srcline" $C cc --sort srcline
ok "dwarf, callchain: --sort srcline,sym -g none" $C cc --sort srcline,sym -g none
ok "dwarf, callchain: --sort dso,srcline --no-children -g caller" $C cc --sort dso,srcline --no-children -g caller

echo "1..$T_N"
[ $T_FAIL -eq 0 ]
