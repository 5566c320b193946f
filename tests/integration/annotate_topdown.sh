#!/bin/sh
# annotate_topdown.sh — pmukit annotate's columns beyond perf (TAP), on
# recordings this machine cannot make, written by tests/workloads/report_mkdata
# (report_mkdata_annotate.h), which prints every sample it writes:
# - a {slots,inst_retired.any,topdown-*}:S group (ann_td): each instruction's
#   TopDown Level 1 shares, in --json and as --stdio columns, must be
#   topdown.txt's formulas over the member deltas of the samples on it (the
#   sample's offset mapped to the instruction at or before it), computed here;
# - weighted samples, PERF_SAMPLE_WEIGHT (ann_w) and WEIGHT_STRUCT (ann_ws):
#   each instruction's average weight, computed here the same way;
# - with -l, each source line of the summary: the Level 1 shares over all its
#   instructions' samples (the instructions' srclines from --json);
# - outside those, no extra column: the brstack kind's header is perf's
#   (annotate.sh compares ordinary recordings with perf 6.1 byte for byte);
# - with the extra columns cut out, --stdio is perf 6.1's on the same files.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
M="${PMUKIT_BUILD:-build}/tests/workloads/report_mkdata"

PLAN=14
echo "1..$PLAN"
skip_all() {
	i=0; while [ $i -lt $PLAN ]; do i=$((i + 1)); echo "ok $i - annotate_topdown # SKIP $1"; done
	exit 0
}
[ -x "$M" ] || skip_all "$M not built (make tests)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
"$M" ann_td "$T_TMP/td.data" > "$T_TMP/td.txt" || skip_all "report_mkdata failed"
"$M" ann_w "$T_TMP/w.data" > "$T_TMP/w.txt" || skip_all "report_mkdata failed"
"$M" ann_ws "$T_TMP/ws.data" > "$T_TMP/ws.txt" || skip_all "report_mkdata failed"
"$M" brstack "$T_TMP/br.data" > /dev/null || skip_all "report_mkdata failed"

# check.py MODE SAMPLES JSON [STDIO]: MODE td or w; exit 1 with the differences
cat > "$T_TMP/check.py" <<'EOF_PY'
import json, sys
mode, samples, jfile = sys.argv[1:4]
stdio = sys.argv[4] if len(sys.argv) > 4 else None
want = {}	# (symbol, instruction offset) -> sums
syms = {}
for js in open(jfile):
    a = json.loads(js)
    syms[a["symbol"]] = a
bad = []
for line in open(samples):
    f = line.split()
    sym, off, vals = f[0], int(f[1]), [int(x) for x in f[2:]]
    ins = [i["offset"] for i in syms[sym]["instructions"] if i["offset"] <= off]
    key = (sym, max(ins))
    s = want.setdefault(key, [0] * (len(vals) + 1))
    s[0] += 1
    for k, v in enumerate(vals):
        s[k + 1] += v
def expect(key):
    s = want.get(key)
    if mode == "td":
        return [100.0 * s[k] / s[1] for k in range(2, 6)] if s else [None] * 4
    return [s[1] / s[0]] if s else [None]
def got(i):
    if mode == "td":
        t = i["topdown"]
        return [t["retiring"], t["bad_spec"], t["fe_bound"], t["be_bound"]]
    return [i["weight"]]
by_addr = {}
n = 0
for sym, a in syms.items():
    for i in a["instructions"]:
        e, g = expect((sym, i["offset"])), got(i)
        by_addr[(sym, int(i["addr"], 16))] = e
        n += e[0] is not None
        if any((x is None) != (y is None) or (x is not None and abs(x - y) > 1e-9) for x, y in zip(e, g)):
            bad.append("json %s+%d: want %s got %s" % (sym, i["offset"], e, g))
if n < 4:
    bad.append("only %d instructions with samples" % n)
if stdio:
    # " Percent ... |\tSource code & Disassembly of DSO for EVENT (...)": the columns after the events'
    ncols = 0
    rows = 0
    for line in open(stdio):
        if "Source code & Disassembly of" in line:
            head = line.split("|")[0]
            ncols = len(syms[list(syms)[0]]["events"])
            label = "  Retire BadSpec FEBound BEBound" if mode == "td" else " AvgWeight"
            if not head.rstrip().endswith(label.strip()):
                bad.append("header %r" % head)
            continue
        if " :   " not in line or ":" not in line.split(" :   ")[1]:
            continue
        left, right = line.split(" :   ", 1)
        addr = int(right.split(":")[0], 16)
        cols = left[8 * ncols:]
        width = 8 if mode == "td" else 10
        vals = [cols[k * width:(k + 1) * width].strip() for k in range(len(cols) // width)]
        e = [x for s2, x in by_addr.items() if s2[1] == addr]
        if not e:
            continue
        e = e[0]
        fmt = "%.2f" if mode == "td" else "%.1f"
        w = ["" if x is None else fmt % x for x in e]
        rows += e[0] is not None
        if vals != w:
            bad.append("stdio %x: want %s got %s" % (addr, w, vals))
    if rows < n:
        bad.append("stdio: %d rows with samples checked, %d wanted" % (rows, n))
for b in bad[:20]:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF_PY

# lines.py SAMPLES JSON STDIO_L: -l's summary, a row per source line, must carry
# the Level 1 shares of the samples on every instruction of that line
cat > "$T_TMP/lines.py" <<'EOF_PY'
import json, sys
samples, jfile, stdio = sys.argv[1:4]
syms = [json.loads(l) for l in open(jfile)]
by_name = {a["symbol"]: a for a in syms}
sums = {}	# (symbol, srcline) -> [slots, retiring, bad_spec, fe, be]
for line in open(samples):
    f = line.split()
    sym, off, v = f[0], int(f[1]), [int(x) for x in f[2:]]
    ins = [i for i in by_name[sym]["instructions"] if i["offset"] <= off]
    i = max(ins, key=lambda i: i["offset"])
    s = sums.setdefault((sym, i["srcline"]), [0] * 5)
    s[0] += v[0]
    for k in range(4):
        s[k + 1] += v[k + 1]
bad, rows, k = [], 0, -1
lines = open(stdio).read().split("\n")
for n, line in enumerate(lines):
    if line.startswith("Sorted summary for file"):
        k += 1
        continue
    f = line.split()
    # a summary row: 10 numbers and file:line (an instruction's row has a ":" field; with
    # an operand and its <sym+off> it is 11 fields too, as in a sanitizer's build)
    if k < 0 or len(f) != 11 or "|" in line or ":" in f:
        continue
    sym = syms[k]["symbol"]
    s = sums.get((sym, f[10]))
    want = ["%.2f" % (100.0 * s[j] / s[0]) for j in range(1, 5)] if s and s[0] else None
    rows += 1
    if f[6:10] != want:
        bad.append("%s %s: want %s got %s" % (sym, f[10], want, f[6:10]))
if k + 1 != len(syms) or rows < len(syms):
    bad.append("%d summaries, %d rows for %d symbols" % (k + 1, rows, len(syms)))
for b in bad[:20]:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF_PY

# strip.py NEVENTS EXTRA_WIDTH: pmukit's --stdio without the extra columns (and
# the header's dashes, whose length follows the header's)
cat > "$T_TMP/strip.py" <<'EOF_PY'
import sys
w, x = 1 + 8 * int(sys.argv[1]), int(sys.argv[2])
for line in sys.stdin:
    if "|\tSource code & Disassembly of" in line:
        line = line[:w].ljust(w) + line[line.index("|"):]
    elif line.startswith("---"):
        continue
    elif len(line) > w + x:
        line = line[:w] + line[w + x:]
    sys.stdout.write(line)
EOF_PY

P="$PMUKIT"
"$P" annotate -i "$T_TMP/td.data" --json > "$T_TMP/td.json" 2>"$T_TMP/td.err"
"$P" annotate -i "$T_TMP/td.data" --stdio > "$T_TMP/td.stdio" 2>>"$T_TMP/td.err"
ok "ann_td: --json has two symbols" sh -c '[ "$(wc -l < "$1")" = 2 ]' _ "$T_TMP/td.json"
ok "ann_td: --json TopDown Level 1 per instruction = the samples' shares of slots" \
	python3 "$T_TMP/check.py" td "$T_TMP/td.txt" "$T_TMP/td.json"
ok "ann_td: --stdio TopDown columns per instruction" \
	python3 "$T_TMP/check.py" td "$T_TMP/td.txt" "$T_TMP/td.json" "$T_TMP/td.stdio"
"$P" annotate -i "$T_TMP/td.data" --stdio -l > "$T_TMP/td.l.stdio" 2>>"$T_TMP/td.err"
ok "ann_td: -l's summary, TopDown Level 1 per source line" \
	python3 "$T_TMP/lines.py" "$T_TMP/td.txt" "$T_TMP/td.json" "$T_TMP/td.l.stdio"
ok "ann_td: -l's summary labels the TopDown columns" grep -q "^ *Retire BadSpec FEBound BEBound$" "$T_TMP/td.l.stdio"
for k in w ws; do
	"$P" annotate -i "$T_TMP/$k.data" --json > "$T_TMP/$k.json" 2>"$T_TMP/$k.err"
	"$P" annotate -i "$T_TMP/$k.data" --stdio > "$T_TMP/$k.stdio" 2>>"$T_TMP/$k.err"
	ok "ann_$k: --json average weight per instruction" \
		python3 "$T_TMP/check.py" w "$T_TMP/$k.txt" "$T_TMP/$k.json"
	ok "ann_$k: --stdio AvgWeight column per instruction" \
		python3 "$T_TMP/check.py" w "$T_TMP/$k.txt" "$T_TMP/$k.json" "$T_TMP/$k.stdio"
done
# perf 6.1 on the same files: the same text around the extra columns
same_as_perf() {	# same_as_perf NAME NEVENTS EXTRA_WIDTH
	command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 || {
		echo "# SKIP perf (6.1) is not installed"; return 0; }
	perf annotate --stdio -i "$T_TMP/$1.data" 2>/dev/null | grep -v '^---' > "$T_TMP/$1.perf"
	python3 "$T_TMP/strip.py" "$2" "$3" < "$T_TMP/$1.stdio" > "$T_TMP/$1.cut"
	[ "$(grep -c ' :   ' "$T_TMP/$1.perf")" -gt 20 ] && diff "$T_TMP/$1.perf" "$T_TMP/$1.cut" >&2
}
ok "ann_td: --stdio without the TopDown columns is perf's" same_as_perf td 6 32
ok "ann_w: --stdio without the AvgWeight column is perf's" same_as_perf w 1 10
ok "ann_ws: --stdio without the AvgWeight column is perf's" same_as_perf ws 1 10
"$P" annotate -i "$T_TMP/br.data" --stdio > "$T_TMP/br.stdio" 2>/dev/null
ok "no TopDown nor weight: perf's header" sh -c 'grep -q "^ Percent *|	Source code" "$1" &&
	! grep -q "AvgWeight\|Retire\|\"weight\"\|topdown" "$1"' _ "$T_TMP/br.stdio"
"$P" annotate -i "$T_TMP/br.data" --json > "$T_TMP/br.json" 2>/dev/null
ok "no TopDown nor weight: no such --json keys" sh -c '[ -s "$1" ] &&
	! grep -q "\"weight\"\|\"topdown\"" "$1"' _ "$T_TMP/br.json"
[ "$T_FAIL" -eq 0 ]
