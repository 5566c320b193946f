#!/bin/sh
# stat_push.sh — `pmukit stat` beyond one exporter (TAP): -I --openmetrics FILE (the
# exporter's families per interval, timestamped, one file ending in "# EOF") backfilled
# by `promtool tsdb create-blocks-from openmetrics` and read back with `promtool tsdb
# dump`: the values are the running sums of the counts stat printed; -I --push URL into
# a real VictoriaMetrics (started on a free port under this test's temporary directory,
# stopped by PID): /api/v1/export and /api/v1/query answer what was pushed, a dead
# endpoint costs nothing but a message; a fleet of `stat --serve` exporters on different
# -C CPU sets scraped by one Prometheus 2.42, whose documented recording rule
# (docs/prometheus-rules.yml) is the ratio of the sums of their numerators and
# denominators (and `promtool test rules` on synthetic series); -G CGROUP without
# --serve printed as perf 6.1 prints it (numbers masked: both count for real), in a
# cgroup of our own (skipped when none can be made). About 30 s.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
echo "1..28"
PIDS=
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -rf "$T_TMP"
}
trap cleanup EXIT
CG=
export PMUKIT T_TMP SRC
. "${PMUKIT_SRC:-.}/tests/integration/lib/servers.sh"
# sums.sh CSV EVENT: the running sums of stat -x,'s interval counts of EVENT, one a line
cat >"$T_TMP/sums.sh" <<'EOF'
awk -F, -v ev="$2" '$4 == ev { s += $2; print s }' "$1"
EOF
# swm: an events dir of our own whose metrics read software events (ratios, a gauge)
mkdir -p "$T_TMP/arch/x86/swm"
printf 'Family-model,Version,Filename,EventType\nGenuineIntel-6-7F,v1,swm,core\n' >"$T_TMP/arch/x86/mapfile.csv"
cat >"$T_TMP/arch/x86/swm/metrics.json" <<'EOF'
[
    { "MetricName": "pf_per_cs", "MetricGroup": "Serve", "ScaleUnit": "100%",
      "MetricExpr": "d_ratio(page\\-faults, context\\-switches)" },
    { "MetricName": "cs_plus_pf", "MetricGroup": "Serve",
      "MetricExpr": "context\\-switches + page\\-faults" }
]
EOF
SWM="--events-dir $T_TMP/arch --cpuid GenuineIntel-6-7F-1"
export SWM

# --- options ---------------------------------------------------------------------------------
ok "--help lists --openmetrics and --push" sh -c '
	"$PMUKIT" stat --help | grep -q -- "--openmetrics <file>" && "$PMUKIT" stat --help | grep -q -- "--push <url>"'
fails "--openmetrics without -I is refused" timeout 5 "$PMUKIT" stat -a --openmetrics "$T_TMP/x.om" -e task-clock true
fails "--push with --serve is refused" timeout 5 "$PMUKIT" stat --serve 127.0.0.1:0 -a -I 100 --push http://127.0.0.1:1/
ok "--push https://...: refused with the reason, before counting" sh -c '
	! timeout 5 "$PMUKIT" stat -a -I 100 -e task-clock --push https://127.0.0.1:1/ true 2>"$T_TMP/e" &&
	grep -q "not an http:// URL" "$T_TMP/e"'
ok "--openmetrics into a missing directory: refused with the reason" sh -c '
	! timeout 5 "$PMUKIT" stat -a -I 100 -e task-clock --openmetrics "$T_TMP/no/f.om" true 2>"$T_TMP/e" &&
	grep -q "no/f.om: No such file" "$T_TMP/e"'

# --- -I --openmetrics: backfilled by promtool --------------------------------------------------
"$PMUKIT" stat -a -I 200 --interval-count 4 -x, -e context-switches,page-faults \
	--openmetrics "$T_TMP/f.om" 2>"$T_TMP/f.csv"
ok "--openmetrics: 4 intervals, every sample timestamped, one # EOF at the end" sh -c '
	f=$T_TMP/f.om
	[ "$(tail -n 1 $f)" = "# EOF" ] && [ $(grep -c "^# EOF" $f) = 1 ] &&
	! grep -v "^#" $f | grep -Evq " [0-9]{10}\.[0-9]{3}$" &&
	[ $(grep "^pmukit_event_total{event=\"page-faults\"" $f | wc -l) = 4 ] &&
	[ $(grep "^pmukit_event_total{" $f | awk "{ print \$NF }" | sort -u | wc -l) = 4 ] &&
	[ $(grep -c ",context-switches," "$T_TMP/f.csv") = 4 ]'
ok "promtool tsdb create-blocks-from openmetrics accepts the file" sh -c '
	promtool tsdb create-blocks-from openmetrics "$T_TMP/f.om" "$T_TMP/blocks" >&2 && mkdir -p "$T_TMP/blocks/wal"'
# dumped.sh NAME EVENT: the backfilled values of NAME{event=EVENT} in time order (as promtool
# prints them: Go's %g, 1e6 and more as 1.234567e+06)
cat >"$T_TMP/dumped.sh" <<'EOF'
promtool tsdb dump --match="{__name__=\"$1\",event=\"$2\"}" "$T_TMP/blocks" |
	awk '{ print $NF, $(NF - 1) }' | sort -n | cut -d' ' -f2
EOF
ok "the backfilled counts are the running sums of what stat -I printed" sh -c '
	for ev in context-switches page-faults; do
		sh "$T_TMP/sums.sh" "$T_TMP/f.csv" $ev >"$T_TMP/want"
		sh "$T_TMP/dumped.sh" pmukit_event_total $ev | awk "{ printf \"%.0f\n\", \$1 }" >"$T_TMP/got"
		echo "$ev: printed $(tr "\n" " " <"$T_TMP/want")/ backfilled $(tr "\n" " " <"$T_TMP/got")" >&2
		[ -s "$T_TMP/want" ] && cmp -s "$T_TMP/want" "$T_TMP/got" || exit 1
	done'
ok "the backfilled running seconds are the sums of the run times stat -x, printed" sh -c '
	awk -F, "\$4 == \"page-faults\" { s += \$5; printf \"%.9f\n\", s / 1e9 }" "$T_TMP/f.csv" >"$T_TMP/want"
	sh "$T_TMP/dumped.sh" pmukit_event_running_seconds_total page-faults |
		awk "{ printf \"%.9f\n\", \$1 }" >"$T_TMP/got"
	cat "$T_TMP/want" "$T_TMP/got" >&2; [ -s "$T_TMP/want" ] && cmp -s "$T_TMP/want" "$T_TMP/got"'
# the command: forks for half a second (page faults, context switches)
"$PMUKIT" stat $SWM -I 100 -x, -M Serve --openmetrics "$T_TMP/m.om" -- sh -c '
	end=$(($(date +%s%N) + 500000000)); while [ $(date +%s%N) -lt $end ]; do :; done' 2>"$T_TMP/m.csv"
ok "--openmetrics with -M and a command: numerator = page-faults at every interval, the last partial one too" sh -c '
	promtool tsdb create-blocks-from openmetrics "$T_TMP/m.om" "$T_TMP/mblk" >&2 && mkdir -p "$T_TMP/mblk/wal" || exit 1
	d() { promtool tsdb dump --match="$1" "$T_TMP/mblk" | awk "{ print \$NF, \$(NF - 1) }" | sort -n |
		awk "{ printf \"%.0f\n\", \$2 }"; }
	d "{__name__=\"pmukit_metric_numerator_total\",metric=\"pf_per_cs\"}" >"$T_TMP/num"
	d "{__name__=\"pmukit_event_total\",event=\"page-faults\"}" >"$T_TMP/pf"
	d "{__name__=\"pmukit_metric_value\",metric=\"cs_plus_pf\"}" >"$T_TMP/gauge"
	n=$(grep -c ",page-faults," "$T_TMP/m.csv")
	echo "$n intervals; numerators $(tr "\n" " " <"$T_TMP/num")" >&2
	[ "$n" -ge 3 ] && [ $(wc -l <"$T_TMP/num") = "$n" ] && [ $(wc -l <"$T_TMP/gauge") = "$n" ] &&
	cmp -s "$T_TMP/num" "$T_TMP/pf" && sh "$T_TMP/sums.sh" "$T_TMP/m.csv" page-faults | cmp -s - "$T_TMP/pf"'

ok "--openmetrics, stopped by SIGINT: what was counted, ended with # EOF, promtool reads it" sh -c '
	"$PMUKIT" stat -a -I 100 -e context-switches --openmetrics "$T_TMP/s.om" 2>/dev/null & p=$!; i=0
	until grep -q "^pmukit_event_total" "$T_TMP/s.om" 2>/dev/null || [ $i -gt 100 ]; do sleep 0.05; i=$((i + 1)); done
	kill -INT $p; wait $p
	[ "$(tail -n 1 "$T_TMP/s.om")" = "# EOF" ] &&
	promtool tsdb create-blocks-from openmetrics "$T_TMP/s.om" "$T_TMP/sblk" >&2'

# --- -I --push into VictoriaMetrics --------------------------------------------------------------
if command -v victoria-metrics >/dev/null 2>&1; then
	VPORT=$(free_port)
	victoria-metrics -storageDataPath="$T_TMP/vm" -httpListenAddr=127.0.0.1:$VPORT \
		-search.latencyOffset=0s -search.disableCache >"$T_TMP/vm.log" 2>&1 &
	VM=$!
	PIDS="$PIDS $VM"
	i=0
	until curl -sf "http://127.0.0.1:$VPORT/health" >/dev/null 2>&1 || [ $i -gt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	export VPORT
	ok "--push http://HOST:PORT (default path /api/v1/import/prometheus): 3 intervals, every one delivered" sh -c '
		"$PMUKIT" stat -a -I 200 --interval-count 3 -x, -e context-switches,page-faults \
			--push "http://127.0.0.1:$VPORT" 2>"$T_TMP/p.csv" && ! grep -q "pmukit stat:" "$T_TMP/p.csv" &&
		[ $(grep -c ",page-faults," "$T_TMP/p.csv") = 3 ]'
	# exported.sh EVENT: VictoriaMetrics' values of pmukit_event_total{event=EVENT}, one a line,
	# once it has all 3 (new series are searchable after a moment: polled, 15 s at most)
	cat >"$T_TMP/exported.sh" <<'EOF'
i=0
while [ $i -lt 60 ]; do
	curl -s "http://127.0.0.1:$VPORT/internal/force_flush" >/dev/null
	curl -sf "http://127.0.0.1:$VPORT/api/v1/export" \
		--data-urlencode "match[]=pmukit_event_total{event=\"$1\"}" >"$T_TMP/x" 2>/dev/null &&
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if len(r["values"]) == 3:
        assert r["timestamps"] == sorted(r["timestamps"])
        print("\n".join("%d" % v for v in r["values"])); print(r["timestamps"][-1], file=sys.stderr); sys.exit(0)
sys.exit(1)' "$T_TMP/x" 2>"$T_TMP/last_ts" && exit 0
	sleep 0.25; i=$((i + 1))
done
cat "$T_TMP/x" >&2; exit 1
EOF
	ok "VictoriaMetrics /api/v1/export: the pushed values are the running sums stat printed" sh -c '
		for ev in context-switches page-faults; do
			sh "$T_TMP/exported.sh" $ev >"$T_TMP/got" || exit 1
			sh "$T_TMP/sums.sh" "$T_TMP/p.csv" $ev >"$T_TMP/want"
			echo "$ev: printed $(tr "\n" " " <"$T_TMP/want")/ in VictoriaMetrics $(tr "\n" " " <"$T_TMP/got")" >&2
			cmp -s "$T_TMP/want" "$T_TMP/got" || exit 1
		done'
	ok "VictoriaMetrics /api/v1/query at the last push: the last running sum" sh -c '
		sh "$T_TMP/exported.sh" page-faults >/dev/null || exit 1
		t=$(cat "$T_TMP/last_ts"); want=$(sh "$T_TMP/sums.sh" "$T_TMP/p.csv" page-faults | tail -n 1)
		# polled: a query may see the new samples a moment after the export does; compared
		# as numbers (VictoriaMetrics writes 1e6 and more as 1.234567e+06)
		i=0
		until curl -sf "http://127.0.0.1:$VPORT/api/v1/query" --data-urlencode "query=pmukit_event_total{event=\"page-faults\"}" \
			--data-urlencode "time=$((t / 1000)).$(printf %03d $((t % 1000)))" >"$T_TMP/q" &&
		      python3 -c "import json, sys
r = json.load(open(sys.argv[1]))[\"data\"][\"result\"]
sys.exit(not (len(r) == 1 and float(r[0][\"value\"][1]) == float(sys.argv[2])))" "$T_TMP/q" "$want"; do
			i=$((i + 1)); [ $i -lt 40 ] || { cat "$T_TMP/q" >&2; echo " want $want" >&2; exit 1; }
			sleep 0.25
		done'
	ok "--push to a path VictoriaMetrics does not serve: its answer reported, counting goes on" sh -c '
		"$PMUKIT" stat -a -I 100 --interval-count 2 -x, -e context-switches \
			--push "http://127.0.0.1:$VPORT/nope" 2>"$T_TMP/e" || exit 1
		cat "$T_TMP/e" >&2
		grep -q "answered \"HTTP/1.1 [45][0-9][0-9]" "$T_TMP/e" &&
		grep -q "2 of 2 intervals not delivered" "$T_TMP/e" && [ $(grep -c ",context-switches," "$T_TMP/e") = 2 ]'
	kill $VM; wait $VM 2>/dev/null
else
	for i in 1 2 3 4; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP victoria-metrics not installed (scripts/deps.sh)"; done
fi
DEAD=$(free_port)
ok "--push to a port nobody listens on: said once, every interval printed, exit 0, no wait" sh -c '
	t0=$(date +%s%N)
	"$PMUKIT" stat -a -I 100 --interval-count 5 -x, -e context-switches --push "http://127.0.0.1:'$DEAD'/" 2>"$T_TMP/e" || exit 1
	ms=$((($(date +%s%N) - t0) / 1000000)); cat "$T_TMP/e" >&2; echo "$ms ms" >&2
	[ $(grep -c "Connection refused" "$T_TMP/e") = 1 ] && grep -q "5 of 5 intervals not delivered" "$T_TMP/e" &&
	[ $(grep -c ",context-switches," "$T_TMP/e") = 5 ] && [ $ms -lt 5000 ]'

# an endpoint that takes the connection and never answers (a listening socket nobody accepts)
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1], flush=True); time.sleep(120)' >"$T_TMP/stall.port" &
STALL=$!
PIDS="$PIDS $STALL"
i=0
until [ -s "$T_TMP/stall.port" ] || [ $i -gt 100 ]; do sleep 0.05; i=$((i + 1)); done
ok "--push to an endpoint that never answers: each interval waits 2 s at most, then counting goes on" sh -c '
	t0=$(date +%s%N)
	"$PMUKIT" stat -a -I 100 --interval-count 2 -x, -e context-switches \
		--push "http://127.0.0.1:$(cat "$T_TMP/stall.port")/" 2>"$T_TMP/e" || exit 1
	ms=$((($(date +%s%N) - t0) / 1000000)); cat "$T_TMP/e" >&2; echo "$ms ms" >&2
	grep -q "no HTTP answer: Connection timed out" "$T_TMP/e" && grep -q "2 of 2 intervals not delivered" "$T_TMP/e" &&
	[ $(grep -c ",context-switches," "$T_TMP/e") = 2 ] && [ $ms -lt 9000 ]'
kill $STALL; wait $STALL 2>/dev/null

# --- a fleet: exporters on different CPU sets, one Prometheus, the documented ratio of sums -----
# start NAME ARGS...: an exporter in the background; sets PORT and PID, or exits
start() {
	name=$1; shift
	: >"$T_TMP/$name.err"
	"$PMUKIT" stat --serve 127.0.0.1:0 "$@" 2>"$T_TMP/$name.err" &
	PID=$!
	PIDS="$PIDS $PID"
	i=0
	until PORT=$(sed -n 's|^pmukit stat: serving http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' \
			"$T_TMP/$name.err") && [ -n "$PORT" ]; do
		i=$((i + 1))
		if [ $i -gt 200 ] || ! kill -0 $PID 2>/dev/null; then
			echo "# exporter $name did not start:"; sed 's/^/# /' "$T_TMP/$name.err"
			exit 1
		fi
		sleep 0.05
	done
}
NCPU=$(getconf _NPROCESSORS_ONLN)
LAST=$((NCPU - 1))
# host a: CPU 0 (forks: many page faults per switch); host b: the others, or CPU 0 again on a
# one-CPU machine (two threads' ping-pong over pipes, niced: switches without page faults)
taskset -c 0 sh -c 'while :; do /bin/true; done' >/dev/null 2>&1 &
LOADA=$!
taskset -c $LAST nice -n 19 python3 -c 'import os, threading
a, b = os.pipe(); c, d = os.pipe()
def pong():
    while os.read(a, 1): os.write(d, b"x")
threading.Thread(target=pong, daemon=True).start()
while True: os.write(b, b"x"); os.read(c, 1)' >/dev/null 2>&1 &
LOADB=$!
PIDS="$PIDS $LOADA $LOADB"
start host_a $SWM -C 0 -M Serve
APORT=$PORT
start host_b $SWM -C $([ $NCPU -gt 1 ] && echo 1-$LAST || echo 0) -M Serve
BPORT=$PORT
start_prometheus fleet 127.0.0.1:$APORT 127.0.0.1:$BPORT
# fleet.py: once the rule has 3 samples (polled, 40 s at most), at each of its samples
# (but the newest) the rule must equal the ratio of the summed rates Prometheus computes at
# that time from the two hosts' series, for 2 of 3 (a scrape committed just after an
# evaluation may differ); and it is not the mean of the hosts' ratios.
cat >"$T_TMP/fleet.py" <<'EOF'
import json, os, sys, time, urllib.parse, urllib.request
base = "http://127.0.0.1:%s/api/v1/query" % os.environ["PPORT"]
def q(expr, t=None):
    args = {"query": expr}
    if t is not None:
        args["time"] = repr(t)
    with urllib.request.urlopen(base + "?" + urllib.parse.urlencode(args), timeout=5) as r:
        return json.load(r)["data"]["result"]
rule = 'pmukit_metric:ratio_rate5m:fleet{metric="pf_per_cs"}'
num = 'rate(pmukit_metric_numerator_total{metric="pf_per_cs"}[5m])'
den = 'rate(pmukit_metric_denominator_total{metric="pf_per_cs"}[5m])'
deadline = time.time() + 40
while True:
    try:        # 503 while Prometheus starts
        r = q(rule + "[30s]")
    except OSError as e:
        r = None
    if r and len(r[0]["values"]) >= 4:
        break
    if time.time() > deadline:
        print("the rule has no 4 samples:", r, file=sys.stderr); sys.exit(1)
    time.sleep(0.5)
hosts = q('count by (instance) (pmukit_metric_numerator_total{metric="pf_per_cs"})')
if len(hosts) != 2:
    print("not two hosts:", hosts, file=sys.stderr); sys.exit(1)
good = 0
for t, v in r[0]["values"][-4:-1]:
    fleet = q("sum(%s) / sum(%s)" % (num, den), t)
    per = q("%s / %s" % (num, den), t)
    ratios = [float(p["value"][1]) for p in per]
    mean = sum(ratios) / len(ratios) if ratios else float("nan")
    want = float(fleet[0]["value"][1]) if fleet else float("nan")
    print("at %.3f: rule %s, ratio of sums %r, host ratios %r (mean %r)" % (t, v, want, ratios, mean), file=sys.stderr)
    if abs(float(v) - want) <= 1e-9 * abs(want) and len(ratios) == 2:
        good += 1
sys.exit(0 if good >= 2 else 1)
EOF
ok "fleet: 2 exporters (-C 0, -C 1-N) scraped by one Prometheus; the documented rule is the ratio of sums" \
	python3 "$T_TMP/fleet.py"
ok "fleet: the hosts' ratios differ, so the mean of ratios is not the fleet's" sh -c '
	curl -sf "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode \
		"query=abs(max(pmukit_metric:ratio_rate5m:instance{metric=\"pf_per_cs\"}) - min(pmukit_metric:ratio_rate5m:instance{metric=\"pf_per_cs\"})) / scalar(pmukit_metric:ratio_rate5m:fleet{metric=\"pf_per_cs\"}) > 0.05" >"$T_TMP/q" &&
	{ cat "$T_TMP/q"; echo; } >&2 && grep -q "\"value\":\[" "$T_TMP/q"'
kill $PROM $LOADA $LOADB; wait $PROM 2>/dev/null
ok "promtool test rules: docs/prometheus-rules.yml on synthetic series (fleet ratio of sums, per-CPU hosts)" \
	promtool test rules "$SRC/tests/fixtures/serve/rules_test.yml"

# --- -G CGROUP without --serve: perf 6.1's cgroup column --------------------------------------
CGM=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/self/mounts)
[ -n "$CGM" ] || CGM=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
CGN=pmukit-push-$$
if [ -n "$CGM" ] && awk '$1 == "perf_event" && $4 == 1 { f = 1 } END { exit !f }' /proc/cgroups &&
   mkdir "$CGM/$CGN" 2>/dev/null; then
	CG=$CGM/$CGN
	# a load in it on every CPU (a CPU it never ran on is <not counted>: perf's run and
	# ours would differ)
	CGLOAD=
	for c in $(seq 0 $LAST); do
		sh -c 'echo $$ >"$1/cgroup.procs" && exec taskset -c $2 sh -c "while :; do sleep 0.005; done"' \
			sh "$CG" $c &
		CGLOAD="$CGLOAD $!"
	done
	PIDS="$PIDS $CGLOAD"
	export CGN
	# same.sh ARGS...: perf stat and pmukit stat print the same lines, numbers masked
	cat >"$T_TMP/same.sh" <<'EOF'
mask() { sed -E 's/ *[0-9][0-9.,]*/N/g' "$1"; }
perf stat "$@" 2>"$T_TMP/perf.raw" >/dev/null
"$PMUKIT" stat "$@" 2>"$T_TMP/pmukit.raw" >/dev/null
mask "$T_TMP/perf.raw" >"$T_TMP/perf.txt"
mask "$T_TMP/pmukit.raw" >"$T_TMP/pmukit.txt"
diff "$T_TMP/perf.txt" "$T_TMP/pmukit.txt" >&2 || exit 1
grep -q "$CGN" "$T_TMP/perf.raw" && grep -q "$CGN" "$T_TMP/pmukit.raw"
EOF
	ok "-G CG: perf's lines (cgroup after the event, metrics from the cgroup's own clock)" \
		sh "$T_TMP/same.sh" -a -e context-switches,task-clock -G $CGN sleep 0.3
	ok "-G CG, -x,: perf's CSV (an empty cgroup field for the event counted everywhere)" \
		sh "$T_TMP/same.sh" -a -x, -e context-switches,task-clock -G $CGN, sleep 0.3
	ok "-G CG -j: perf's JSON" sh "$T_TMP/same.sh" -a -j -e context-switches,task-clock -G $CGN sleep 0.2
	ok "-A -e A -G CG -e B: -G names the events before it (B counts everywhere), per CPU" \
		sh "$T_TMP/same.sh" -a -A -e context-switches -G $CGN -e page-faults sleep 0.2
	ok "-G CG -I 100: perf's interval lines" \
		sh "$T_TMP/same.sh" -a -e context-switches -G $CGN -I 100 --interval-count 2
	ok "-e A,A -G CG, : the cgroup's count is counting and below the machine's" sh -c '
		"$PMUKIT" stat -a -x, -e context-switches,context-switches -G $CGN, sleep 0.3 2>"$T_TMP/g" || exit 1
		cat "$T_TMP/g" >&2
		a=$(awk -F, "\$4 == \"$CGN\" { print \$1 }" "$T_TMP/g"); b=$(awk -F, "\$4 == \"\" { print \$1 }" "$T_TMP/g")
		[ -n "$a" ] && [ "$a" -gt 5 ] && [ "$a" -lt "$b" ]'
	ok "-G CG --openmetrics: the cgroup label on its series" sh -c '
		"$PMUKIT" stat -a -I 100 --interval-count 1 -e context-switches -G $CGN --openmetrics "$T_TMP/g.om" 2>/dev/null &&
		grep -Eq "^pmukit_event_total\{event=\"context-switches\",pmu=\"software\",cgroup=\"$CGN\"\} [0-9]+ [0-9.]+$" "$T_TMP/g.om"'
	ok "-G before any -e, and a cgroup that does not exist: refused, as perf refuses them" sh -c '
		! perf stat -a -G $CGN -e context-switches true 2>/dev/null &&
		! "$PMUKIT" stat -a -G $CGN -e context-switches true 2>"$T_TMP/e" &&
		grep -q "must define events before cgroups" "$T_TMP/e" &&
		! perf stat -a -e context-switches -G nope-$$ true 2>/dev/null &&
		! "$PMUKIT" stat -a -e context-switches -G nope-$$ true 2>/dev/null'
	kill $CGLOAD; wait $CGLOAD 2>/dev/null
	i=0
	until rmdir "$CG" 2>/dev/null || [ $i -gt 40 ]; do
		for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do echo $p >"$CGM/cgroup.procs"; done
		i=$((i + 1)); sleep 0.05
	done
	CG=
else
	for i in 1 2 3 4 5 6 7 8; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP no perf_event cgroup to write"; done
fi
[ "$T_FAIL" = 0 ]
