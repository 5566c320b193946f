#!/bin/sh
# perf_lines.sh — the perf command-line corpus (TAP): every line of
# tests/fixtures/perf-lines/*.lines is a command line as a perf user types it
# (without the leading `perf`), run by perf 6.1 and by pmukit in one directory
# holding the same recordings; stdout must be identical (perf's random
# "# (Tip: ...)" line left out) and the exit status the same.
#
#   # comment
#   @rec NAME ARGS...     perf 6.1 records NAME.data (perf record -q -o NAME.data ARGS)
#   report -i g.data --comms rm-0
#   !sorted script -i sys.data     lines compared in any order
#   record ARGS...        both record (-o is added): same exit status; when both
#                         succeed, `perf evlist -i` prints the same for both files,
#                         perf reads pmukit's file, and it has samples where perf's has
#
# $W is tests/workloads/report_many, $CC tests/workloads/callchain, $PID a
# running `sleep 3600`. The standard recordings (made before any line) are
# listed in std_recordings below; docs/PERF-DIFFERENCES.md lists where pmukit
# differs from perf on purpose (those lines are not in the corpus).
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
B=$(cd "${PMUKIT_BUILD:-build}" && pwd)
PMUKIT="$B/pmukit"
W="$B/tests/workloads/report_many"
CC="$B/workloads/callchain"
LINES_DIR="$SRC/tests/fixtures/perf-lines"
D="$T_TMP/d"
mkdir -p "$D"

# the lines to run: every .lines file, comments and blank lines left out
cat "$LINES_DIR"/*.lines 2>/dev/null | sed -e 's/^[[:space:]]*//' -e '/^#/d' -e '/^$/d' > "$T_TMP/all"
PLAN=$(grep -vc '^@rec ' "$T_TMP/all")
echo "1..$PLAN"
skip_all() {
	i=0; while [ $i -lt "$PLAN" ]; do i=$((i + 1)); echo "ok $i - perf line # SKIP $1"; done
	exit 0
}
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 || skip_all "perf (6.1) is not installed"
[ -x "$W" ] && [ -x "$CC" ] || skip_all "workloads not built (make tests)"
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/probe.data" true >/dev/null 2>&1 ||
	skip_all "perf record cannot sample cpu-clock here"

sleep 3600 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$T_TMP"' EXIT
export W CC PID PMUKIT

rec() {	# rec NAME PERF-RECORD-ARGS... (a shell string, as in a .lines file)
	name=$1; shift
	(cd "$D" && sh -c "perf record -q -o $name.data $*" >/dev/null 2>"$T_TMP/rec.err") ||
		echo "# perf record $*: $(tail -1 "$T_TMP/rec.err")"
}
std_recordings() {
	rec g -e cpu-clock -c 100000 -g '"$W"' 3000
	cp "$D/g.data" "$D/perf.data"
	rec nog -e cpu-clock -c 100000 '"$W"' 3000
	rec thr -e cpu-clock -c 100000 -g '"$W"' -t 2 1500
	rec two -e cpu-clock,task-clock -c 100000 '"$W"' 1500
	rec grp -e "'{cpu-clock,task-clock}:S'" -c 100000 -g '"$W"' 2000
	rec tp -e sched:sched_switch -e raw_syscalls:sys_enter -g '"$W"' -t 2 300
	rec freq -e cpu-clock -F 4000 -g '"$W"' 3000
	rec dw -e cpu-clock -c 200000 --call-graph dwarf '"$W"' 1000
	rec sw -e cpu-clock -c 100000 --switch-events '"$W"' -t 2 1000
	rec v0 -e cpu-clock -c 100000 '"$W"' -v 0 2000
	rec v1 -e cpu-clock -c 100000 '"$W"' -v 1 2000
	(cd "$D" && perf record -q -e cpu-clock -c 100000 -g -o - "$W" 2000 2>/dev/null > pipe.data) ||
		echo "# perf record -o - failed"
}
std_recordings

# run_cmd TOOL LINE — TOOL's stdout (Tip lines left out) in $T_TMP/TOOL.out, its status printed;
# perf 6.1 prints a cut callchain's "[...]" with " (inlined)" or without, by what its
# uninitialized node holds (docs/PERF-QUIRKS.md 36): both are read as "[...]"
run_cmd() {
	(cd "$D" && sh -c "$1 $2" 2>"$T_TMP/$3.err"; echo $? > "$T_TMP/$3.rc") |
		grep -v '^# (Tip:' | sed 's/\[\.\.\.\] (inlined)$/[...]/' > "$T_TMP/$3.out"
}

same_output() {	# same_output SORTED LINE
	# perf and pmukit run side by side (two cores; the corpus takes half the time),
	# except lines that write files into the shared directory
	case "$2" in
	*per-event-dump*) run_cmd perf "$2" perf; run_cmd "$PMUKIT" "$2" pmukit ;;
	*) run_cmd perf "$2" perf & bg=$!; run_cmd "$PMUKIT" "$2" pmukit; wait $bg ;;
	esac
	if [ "$1" = yes ]; then
		sort "$T_TMP/perf.out" -o "$T_TMP/perf.out"
		sort "$T_TMP/pmukit.out" -o "$T_TMP/pmukit.out"
	fi
	rc_perf=$(cat "$T_TMP/perf.rc") rc_pmukit=$(cat "$T_TMP/pmukit.rc")
	[ "$rc_perf" = "$rc_pmukit" ] || {
		echo "exit status: perf $rc_perf, pmukit $rc_pmukit" >&2
		head -5 "$T_TMP/pmukit.err" >&2
		return 1
	}
	diff "$T_TMP/perf.out" "$T_TMP/pmukit.out" > "$T_TMP/diff" && return 0
	echo "$(grep -c '^[<>]' "$T_TMP/diff") lines differ (< perf, > pmukit):" >&2
	head -30 "$T_TMP/diff" >&2
	head -5 "$T_TMP/pmukit.err" >&2
	keep_inputs "$2"
	return 1
}

# the recordings a failing line read, kept as $PMUKIT_BUILD/check-failures/perf_lines-N-FILE
# (each run records afresh: a difference that shows on one recording in many can be rerun)
keep_inputs() {
	keep="${PMUKIT_BUILD:-build}/check-failures"
	mkdir -p "$keep" || return 0
	for w in $1; do
		case "$w" in *.data) [ -f "$D/$w" ] && cp "$D/$w" "$keep/perf_lines-$T_N-$w" &&
			echo "(kept $keep/perf_lines-$T_N-$w)" >&2 ;; esac
	done
	return 0
}

same_recording() {	# same_recording ARGS — record lines (see the top)
	args=${1#record}
	rm -f "$D/perf-rec.data" "$D/pmukit-rec.data"
	run_cmd perf "record -o perf-rec.data $args" perf
	run_cmd "$PMUKIT" "record -o pmukit-rec.data $args" pmukit
	rc_perf=$(cat "$T_TMP/perf.rc") rc_pmukit=$(cat "$T_TMP/pmukit.rc")
	[ "$rc_perf" = "$rc_pmukit" ] || {
		echo "exit status: perf $rc_perf, pmukit $rc_pmukit" >&2
		head -5 "$T_TMP/pmukit.err" >&2
		return 1
	}
	[ "$rc_perf" = 0 ] || return 0
	diff "$T_TMP/perf.out" "$T_TMP/pmukit.out" >&2 || { echo "the workload's output differs" >&2; return 1; }
	(cd "$D" && perf evlist -i perf-rec.data > "$T_TMP/ev.perf" 2>&1 &&
		perf evlist -i pmukit-rec.data > "$T_TMP/ev.pmukit" 2>&1) ||
		{ echo "perf evlist failed:" >&2; cat "$T_TMP/ev.pmukit" >&2; return 1; }
	diff "$T_TMP/ev.perf" "$T_TMP/ev.pmukit" >&2 || { echo "perf evlist differs" >&2; return 1; }
	(cd "$D" && perf script -i perf-rec.data 2>/dev/null | wc -l > "$T_TMP/n.perf" &&
		perf script -i pmukit-rec.data 2>"$T_TMP/script.err" | wc -l > "$T_TMP/n.pmukit") ||
		{ echo "perf script cannot read pmukit's file:" >&2; head -5 "$T_TMP/script.err" >&2; return 1; }
	[ "$(cat "$T_TMP/n.perf")" = 0 ] || [ "$(cat "$T_TMP/n.pmukit")" != 0 ] ||
		{ echo "perf's file has samples, pmukit's none" >&2; return 1; }
}

while IFS= read -r line; do
	case "$line" in
	@rec\ *)
		set -- $line
		name=$2
		rec "$name" "${line#@rec $name }"
		;;
	\!sorted\ *)
		ok "${line#!sorted }" same_output yes "${line#!sorted }"
		;;
	record\ *|record)
		ok "$line" same_recording "$line"
		;;
	*)
		ok "$line" same_output no "$line"
		;;
	esac
done < "$T_TMP/all"
[ "$T_N" = "$PLAN" ] || echo "# ran $T_N of $PLAN"
exit 0
