#!/bin/sh
# export_cli.sh — `pmukit export` on files perf 6.1 records here (TAP): folded stacks equal
# what stackcollapse-perf.pl's rules (tests/fixtures/export/collapse-rules.pl) make of
# `perf script -F +pid` for the same file (file, pipe on stdin, -z; --pid/--tid/--kernel; -F
# recordings, whose periods vary, weighted by those periods; two events: the first kept);
# pprof read by `go tool pprof -top` has perf report --no-children's total and top functions
# with their percentages; the Firefox Profiler JSON names the workload's functions.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
. "${PMUKIT_SRC:-.}/tests/integration/lib/wl_pages.sh"

RULES="$SRC/tests/fixtures/export/collapse-rules.pl"
for c in perf perl cc; do
	command -v $c >/dev/null 2>&1 || { echo "1..0 # SKIP $c is not installed"; exit 0; }
done
record_wl_or_skip
perf record -q -z -e cpu-clock -c 100000 -g -o "$T_TMP/z.data" "$W" 100 >/dev/null 2>&1
perf record -q -e cpu-clock -c 100000 -g -o - "$W" 100 2>/dev/null >"$T_TMP/pipe.data"
# by frequency: the periods vary from sample to sample; two events for the first-event filter
perf record -q -e cpu-clock -F 999 -g -o "$T_TMP/f.data" "$W" 300 >/dev/null 2>&1
perf record -q -e cpu-clock -e page-faults -F 999 -g -o "$T_TMP/f2.data" "$W" 300 >/dev/null 2>&1

echo "1..21"

# folded FILE [RULE-OPTIONS] — pmukit's folded stacks of FILE equal the rules' from perf script
folded() {
	f=$1; shift
	perf script -i "$f" -F +pid 2>/dev/null | perl "$RULES" "$@" >"$T_TMP/rules.folded"
	[ -s "$T_TMP/rules.folded" ] || { echo "the rules folded nothing" >&2; return 1; }
	"$PMUKIT" export --format folded -i "$f" "$@" >"$T_TMP/pk.folded" || return 1
	diff "$T_TMP/rules.folded" "$T_TMP/pk.folded" | head -8 >&2
	cmp -s "$T_TMP/rules.folded" "$T_TMP/pk.folded"
}
ok "folded equals stackcollapse-perf's rules on perf script" folded "$T_TMP/g.data"
ok "folded --pid" folded "$T_TMP/g.data" --pid
ok "folded --tid --kernel" folded "$T_TMP/g.data" --tid --kernel
ok "folded of a -z (zstd) recording" folded "$T_TMP/z.data"
pipe_folded() {
	perf script -i "$T_TMP/pipe.data" -F +pid 2>/dev/null | perl "$RULES" >"$T_TMP/rules.folded"
	"$PMUKIT" export --format folded -i - <"$T_TMP/pipe.data" >"$T_TMP/pk.folded" &&
		[ -s "$T_TMP/pk.folded" ] && cmp "$T_TMP/rules.folded" "$T_TMP/pk.folded"
}
ok "folded of a pipe on stdin" pipe_folded

# -F recordings: stackcollapse-perf.pl weights each stack by the periods perf script prints
ok "folded of a -F recording: the periods perf script prints, summed" folded "$T_TMP/f.data"
period_sum() {	# the folded values add up to perf script's periods of the first event
	perf script -i "$1" -F event,period 2>/dev/null | awk 'NR == 1 { ev = $2 }
		$2 == ev { s += $1 } END { print s }' >"$T_TMP/want.sum"
	"$PMUKIT" export --format folded -i "$1" 2>/dev/null | awk '{ s += $NF } END { print s }' >"$T_TMP/got.sum"
	echo "perf script: $(cat "$T_TMP/want.sum"), folded: $(cat "$T_TMP/got.sum")" >&2
	[ -s "$T_TMP/want.sum" ] && cmp -s "$T_TMP/want.sum" "$T_TMP/got.sum"
}
ok "folded of a -F recording adds up to perf script's period total" period_sum "$T_TMP/f.data"
value_samples() {	# --value samples: one per sample, as before
	want=$(perf script -i "$T_TMP/f.data" 2>/dev/null | grep -c 'cpu-clock:')
	got=$("$PMUKIT" export --format folded --value samples -i "$T_TMP/f.data" | awk '{ s += $NF } END { print s }')
	echo "samples: $want, folded: $got" >&2
	[ "$want" = "$got" ]
}
ok "folded --value samples counts the samples" value_samples
ok "folded of a -F recording of two events: the rules' (first event only)" folded "$T_TMP/f2.data" --tid
ok "... the sum is perf script's periods of the first event" period_sum "$T_TMP/f2.data"
note() {
	"$PMUKIT" export --format folded -i "$T_TMP/f2.data" 2>"$T_TMP/note.err" >/dev/null
	first=$(perf script -i "$T_TMP/f2.data" -F event 2>/dev/null | awk '{ sub(/:$/, "", $1); print $1; exit }')
	cat "$T_TMP/note.err" >&2
	grep -q "only the samples of $first" "$T_TMP/note.err" &&
		! "$PMUKIT" export --format folded -i "$T_TMP/f.data" 2>&1 >/dev/null | grep -q .
}
ok "... and stderr says only the first event's samples are written (nothing for one event)" note
out_file() {
	"$PMUKIT" export --format folded -i "$T_TMP/g.data" -o "$T_TMP/o.folded" &&
		"$PMUKIT" export --format folded -i "$T_TMP/g.data" | cmp - "$T_TMP/o.folded"
}
ok "-o FILE writes what stdout gets" out_file
fails "an unknown format is refused" "$PMUKIT" export --format nope -i "$T_TMP/g.data"

# perf report --no-children: total event count and "PCT SYM" of the top entries
perf report -i "$T_TMP/g.data" --stdio --no-children --sort sym 2>/dev/null >"$T_TMP/report.txt"
total=$(sed -n 's/^# Event count (approx.): \([0-9]*\).*/\1/p' "$T_TMP/report.txt")
awk '/^ *[0-9.]+%/ && $2 ~ /^\[/ { pct = $1; sub(/%/, "", pct); $1 = ""; $2 = ""; sub(/^ +/, "");
	print pct, $0 }' "$T_TMP/report.txt" | head -6 >"$T_TMP/report.top"

if command -v go >/dev/null 2>&1; then
	export HOME="$T_TMP/home" GOCACHE="$T_TMP/gocache" GOFLAGS=-mod=mod
	mkdir -p "$HOME"
	"$PMUKIT" export --format pprof -i "$T_TMP/g.data" -o "$T_TMP/p.pb.gz"
	go tool pprof -top -unit=ns "$T_TMP/p.pb.gz" >"$T_TMP/pprof.txt" 2>"$T_TMP/pprof.err"
	pprof_total() {
		got=$(sed -n 's/.*Total samples = \([0-9]*\)ns.*/\1/p' "$T_TMP/pprof.txt")
		echo "perf report: $total, pprof: $got" >&2
		[ -n "$total" ] && [ "$got" = "$total" ]
	}
	ok "pprof: go tool pprof's total is perf report's event count" pprof_total
	pprof_top() {
		awk '$1 ~ /ns$/ && $2 ~ /%$/ { pct = $2; sub(/%/, "", pct); printf "%.2f %s\n", pct, $6 }' \
			"$T_TMP/pprof.txt" | head -6 >"$T_TMP/pprof.top"
		diff "$T_TMP/report.top" "$T_TMP/pprof.top" >&2
		[ -s "$T_TMP/report.top" ] && cmp -s "$T_TMP/report.top" "$T_TMP/pprof.top"
	}
	ok "pprof: the top functions and their flat % are perf report's" pprof_top
	pprof_samples() {
		want=$(perf script -i "$T_TMP/g.data" 2>/dev/null | grep -c 'cpu-clock:')
		go tool pprof -top -sample_index=samples "$T_TMP/p.pb.gz" 2>/dev/null |
			grep -q "Total samples = $want "
	}
	ok "pprof: the samples index counts perf script's samples" pprof_samples
	pprof_period() {	# a -F recording: Go's CPU-profile period, 1e9/Hz ns of cpu
		hz=$(perf evlist -v -i "$T_TMP/f.data" 2>/dev/null | sed -n 's/.*sample_freq }: \([0-9]*\),.*/\1/p')
		"$PMUKIT" export --format pprof -i "$T_TMP/f.data" -o "$T_TMP/f.pb.gz" &&
			go tool pprof -raw "$T_TMP/f.pb.gz" 2>/dev/null | head -3 >"$T_TMP/raw.txt"
		cat "$T_TMP/raw.txt" >&2
		[ -n "$hz" ] && grep -qx "PeriodType: cpu nanoseconds" "$T_TMP/raw.txt" &&
			grep -qx "Period: $((1000000000 / hz))" "$T_TMP/raw.txt"
	}
	ok "pprof of a -F recording: period 1e9/Hz nanoseconds of cpu (go tool pprof -raw)" pprof_period
	pprof_fixed() {	# -c: the event's own period stays
		go tool pprof -raw "$T_TMP/p.pb.gz" 2>/dev/null | grep -qx "Period: 100000"
	}
	ok "pprof of a -c recording keeps the fixed period" pprof_fixed
else
	for i in 14 15 16 17 18; do echo "ok $i # SKIP go (golang-go) is not installed"; T_N=$((T_N + 1)); done
fi

if command -v python3 >/dev/null 2>&1; then
	"$PMUKIT" export --format gecko -i "$T_TMP/g.data" -o "$T_TMP/g.json"
	top=$(awk 'NR == 1 { print $2 }' "$T_TMP/report.top")
	gecko() {
		python3 - "$T_TMP/g.json" "$top" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["threads"] if t["name"] == "wl"]
assert t, [t["name"] for t in d["threads"]]
n = sum(len(x["samples"]["stack"]) for x in t)
strings = set(s for x in t for s in x["stringArray"])
assert sys.argv[2] in strings, (sys.argv[2], sorted(strings)[:20])
print("wl samples", n, file=sys.stderr)
assert n > 100
PY
	}
	ok "gecko: valid JSON, the workload's thread, its hottest function named" gecko
	ok "gecko: the meta says pmukit made it" \
		python3 -c "import json, sys; assert json.load(open(sys.argv[1]))['meta']['product'].startswith('pmukit')" \
		"$T_TMP/g.json"
else
	for i in 19 20; do echo "ok $i # SKIP python3 is not installed"; T_N=$((T_N + 1)); done
fi
ok "a missing file fails" sh -c "! '$PMUKIT' export --format folded -i '$T_TMP/none.data' >/dev/null 2>&1"
[ "$T_FAIL" = 0 ]
