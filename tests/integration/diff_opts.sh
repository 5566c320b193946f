#!/bin/sh
# diff_opts.sh — what pmukit diff's options do beyond perf's output, which
# tests/fixtures/perf-lines/diff.lines compares with perf 6.1 (TAP): --help
# lists every option, the options pmukit lacks are refused with a reason (not
# a bare usage), --time OLD:NEW gives each file its own range (the times
# come from the recordings: no line can say them), -o past the last file and
# -c errors stop before any file is read, and the computed columns agree with the periods they come from
# (ratio = Period / Base period, wdiff = Period * W2 - Base period * W1), and
# a pipe-mode file, which perf 6.1's diff cannot read, is diffed with the shares
# perf report gives it.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
export PMUKIT W T_TMP

PLAN=11
echo "1..$PLAN"
skip_all() {
	i=0; while [ $i -lt $PLAN ]; do i=$((i + 1)); echo "ok $i - diff options # SKIP $1"; done
	exit 0
}
[ -x "$W" ] || skip_all "$W not built (make tests)"
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 || skip_all "perf (6.1) is not installed"
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/v0.data" "$W" 1500 >/dev/null 2>&1 &&
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/v1.data" "$W" -v 1 1500 >/dev/null 2>&1 ||
	skip_all "perf record cannot sample cpu-clock here"

ok "--help lists every option" sh -c '
	"$PMUKIT" diff --help > "$T_TMP/help" || exit 1
	for o in -c, --compute -p, --period -F, --formula -b, --baseline-only -o, --order -s, \
	    --percentage -q, -f, --symfs --kallsyms -S, --symbols -d, --dsos -C, --comms --pid --tid \
	    --cpu --time -v, --verbose; do
		grep -q -e " $o" "$T_TMP/help" || { echo "no $o" >&2; exit 1; }
	done'
for o in "-t :" "-D" "-m"; do
	ok "$o is refused with a reason" sh -c '
		"$PMUKIT" diff '"$o"' "$T_TMP/v0.data" "$T_TMP/v1.data" > "$T_TMP/o" 2> "$T_TMP/e"
		rc=$?; [ $rc = 129 ] && [ ! -s "$T_TMP/o" ] && grep -q "not supported" "$T_TMP/e" &&
		! grep -q usage: "$T_TMP/e" || { echo "rc $rc" >&2; cat "$T_TMP/e" >&2; exit 1; }'
done
ok "--time OLD:NEW: each file's own absolute range, as perf 6.1" sh -c '
	t0=$(perf script -i "$T_TMP/v0.data" -F time | sed -n "20p;200p" | tr -d " :" | paste -sd,)
	t1=$(perf script -i "$T_TMP/v1.data" -F time | sed -n "50p;600p" | tr -d " :" | paste -sd,)
	perf diff --time "$t0:$t1" "$T_TMP/v0.data" "$T_TMP/v1.data" > "$T_TMP/p" 2>/dev/null &&
	"$PMUKIT" diff --time "$t0:$t1" "$T_TMP/v0.data" "$T_TMP/v1.data" > "$T_TMP/q" &&
	perf diff --time "$t0" "$T_TMP/v0.data" "$T_TMP/v1.data" > "$T_TMP/p1" 2>/dev/null &&
	! cmp -s "$T_TMP/p" "$T_TMP/p1" && [ "$(grep -c %  "$T_TMP/q")" -gt 5 ] &&
	diff "$T_TMP/p" "$T_TMP/q" >&2'
ok "--time with fewer ranges than files: Invalid time string, 234 (perf 6.1 crashes)" sh -c '
	"$PMUKIT" diff --time 1.5,2.5:3.5,4.5 "$T_TMP/v0.data" "$T_TMP/v1.data" "$T_TMP/v0.data" \
		> "$T_TMP/o" 2> "$T_TMP/e"
	[ $? = 234 ] && [ ! -s "$T_TMP/o" ] && grep -qx "Invalid time string" "$T_TMP/e"'
ok "ratio and wdiff agree with the periods shown" sh -c '
	"$PMUKIT" diff -q -p -c ratio "$T_TMP/v0.data" "$T_TMP/v1.data" > "$T_TMP/r" &&
	"$PMUKIT" diff -q -p -c wdiff:3,5 "$T_TMP/v0.data" "$T_TMP/v1.data" > "$T_TMP/w" || exit 1
	# rows with both periods: baseline%, base period, value, period
	awk "NF >= 4 && \$2 ~ /^[0-9]+\$/ && \$3 != \"N/A\" && \$4 ~ /^[0-9]+\$/ {
		n++; want = \$4 / (\$2 ? \$2 : 1); if (sprintf(\"%.6f\", want) != \$3) bad++ }
		END { if (n < 10 || bad) { print n, bad; exit 1 } }" "$T_TMP/r" || exit 1
	awk "NF >= 4 && \$2 ~ /^[0-9]+\$/ && \$3 != \"N/A\" && \$4 ~ /^[0-9]+\$/ {
		n++; if (\$4 * 5 - \$2 * 3 != \$3) bad++ }
		END { if (n < 10 || bad) { print n, bad; exit 1 } }" "$T_TMP/w"'
ok "-o past the last file: perf's message, 255, before reading any file" sh -c '
	"$PMUKIT" diff -o 2 nosuch.data "$T_TMP/v1.data" > "$T_TMP/o" 2> "$T_TMP/e"
	[ $? = 255 ] && grep -qx "Order option out of limit." "$T_TMP/e" || { cat "$T_TMP/e" >&2; exit 1; }'
ok "--stdio (which perf diff lacks) changes nothing" sh -c '
	"$PMUKIT" diff "$T_TMP/v0.data" "$T_TMP/v1.data" > "$T_TMP/a" &&
	"$PMUKIT" diff --stdio "$T_TMP/v0.data" "$T_TMP/v1.data" > "$T_TMP/b" &&
	[ -s "$T_TMP/a" ] && cmp "$T_TMP/a" "$T_TMP/b"'
ok "-s tid (which perf lacks) pairs by thread as report --sort tid keys" sh -c '
	"$PMUKIT" diff -s tid "$T_TMP/v0.data" "$T_TMP/v1.data" > "$T_TMP/t" &&
	grep -q "^# Baseline  Delta Abs  *Tid:Command" "$T_TMP/t" &&
	[ "$(grep -c "[0-9]:rm-0" "$T_TMP/t")" -ge 2 ] || { cat "$T_TMP/t" >&2; exit 1; }'
ok "a pipe-mode file: its shares are perf report's (perf diff fails on it)" sh -c '
	(cd "$T_TMP" && perf record -q -e cpu-clock -c 100000 -g -o - "$W" 1000 > pipe.data 2>/dev/null) ||
		exit 1
	"$PMUKIT" diff -q "$T_TMP/pipe.data" "$T_TMP/pipe.data" > "$T_TMP/d" || exit 1
	[ "$(grep -c . "$T_TMP/d")" -gt 5 ] && ! grep -v "  +0.00%  " "$T_TMP/d" >&2 || exit 1
	awk "{ print \$1, \$3, \$5 }" "$T_TMP/d" | sort > "$T_TMP/d.shares"
	perf report -i "$T_TMP/pipe.data" --stdio -q --no-children -g none --sort dso,sym 2>/dev/null |
		awk "NF { print \$1, \$2, \$4 }" | sort > "$T_TMP/r.shares"
	diff "$T_TMP/r.shares" "$T_TMP/d.shares" >&2'
[ $T_FAIL -eq 0 ]
