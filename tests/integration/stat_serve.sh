#!/bin/sh
# stat_serve.sh — `pmukit stat --serve ADDR`, the Prometheus exporter (TAP).
# Exporters on free ports (127.0.0.1:0, the port read from the "serving" line)
# under this test's temporary directory, stopped by PID: /metrics in the text
# format accepted by `promtool check metrics`, OpenMetrics when the Accept
# header asks for it, counts read at each scrape; the stat options that choose
# what to count (-a, -A, -C, --per-core, --per-socket, -p, --per-thread, -M on
# a machine without the PMU: a state, not a crash); many concurrent scrapes,
# clients that stall or vanish mid-request; SIGTERM and SIGINT stop it (exit
# 0, socket closed); -M metrics of an events dir of our own (software events)
# as numerator and denominator counters; a real Prometheus 2.42 scraping two
# exporters every second answers rate(pmukit_event_total{event="context-switches"}[5s])
# and a ratio of sums (its first scrape comes ~5 s after start: queries are
# polled) and evaluates docs/prometheus-rules.yml (also run through
# `promtool test rules`); node_exporter's perf collector beside pmukit counts
# the same context switches and page faults within 5 %, and so does
# `pmukit stat -a` over a window the exporter is scraped around; -G counts
# a cgroup of our own, which is then removed while served; --for-each-cgroup
# labels each cgroup's copy of the events. About 20 s.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
echo "1..40"
PIDS=
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$T_TMP"' EXIT
export PMUKIT T_TMP SRC

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
		if [ $i -gt 100 ] || ! kill -0 $PID 2>/dev/null; then
			echo "# exporter $name did not start:"; sed 's/^/# /' "$T_TMP/$name.err"
			exit 1
		fi
		sleep 0.05
	done
}
# stop PID: SIGTERM, wait up to 5 s; the exit status
stop() {
	kill -TERM "$1" 2>/dev/null
	wait "$1"
}
scrape() {	# scrape PORT [curl args]: GET /metrics
	port=$1; shift
	curl -sf --max-time 5 "$@" "http://127.0.0.1:$port/metrics"
}
. "${PMUKIT_SRC:-.}/tests/integration/lib/servers.sh"

ok "examples/expose (the public API alone): promtool accepts its text, OpenMetrics ends with # EOF" sh -c '
	B=${PMUKIT_BUILD:-build}
	"$B/examples/expose" >"$T_TMP/ex" && promtool check metrics <"$T_TMP/ex" >&2 &&
	grep -Eq "^pmukit_event_total\{event=\"page-faults\",pmu=\"software\"\} [0-9]{4,}$" "$T_TMP/ex" &&
	[ "$("$B/examples/expose" --openmetrics | tail -n 1)" = "# EOF" ]'
ok "--help lists --serve" sh -c '"$PMUKIT" stat --help | grep -q -- "--serve <addr>"'
fails "--serve with a command is refused" timeout 5 "$PMUKIT" stat --serve 127.0.0.1:0 true
fails "--serve with -I is refused" timeout 5 "$PMUKIT" stat --serve 127.0.0.1:0 -a -I 1000
ok "[::1]:0 serves on IPv6 loopback (or the machine has no IPv6)" sh -c '
	python3 -c "import socket; s = socket.socket(socket.AF_INET6); s.bind((\"::1\", 0))" 2>/dev/null || exit 0
	"$PMUKIT" stat --serve "[::1]:0" -a -e task-clock 2>"$T_TMP/v6" & p=$!; i=0
	until grep -q "serving http://\[::1\]:" "$T_TMP/v6" || [ $i -gt 50 ]; do sleep 0.1; i=$((i + 1)); done
	port=$(sed -n "s|.*\[::1\]:\([0-9]*\)/metrics|\1|p" "$T_TMP/v6")
	curl -sfg "http://[::1]:$port/metrics" | grep -q "^pmukit_event_total"; r=$?
	kill $p; wait $p; exit $r'
ok "a bad ADDR: the reason, exit non-zero" sh -c '
	! "$PMUKIT" stat --serve nocolon -a -e task-clock 2>"$T_TMP/bad" && grep -q "not \[HOST\]:PORT" "$T_TMP/bad"'

# --- the main exporter ---------------------------------------------------------------------
start main -a -e task-clock,context-switches
MAIN=$PID MPORT=$PORT
export MPORT
scrape $MPORT >"$T_TMP/m1.txt"
ok "text format: promtool check metrics accepts it" sh -c 'promtool check metrics <"$T_TMP/m1.txt" >&2'
ok "text format: raw count, enabled/running seconds, state, info" sh -c '
	f=$T_TMP/m1.txt
	grep -q "^# TYPE pmukit_event_total counter$" $f &&
	grep -Eq "^pmukit_event_total\{event=\"context-switches\",pmu=\"software\"\} [0-9]+$" $f &&
	grep -Eq "^pmukit_event_enabled_seconds_total\{event=\"task-clock\",pmu=\"software\"\} [0-9]+\.[0-9]{9}$" $f &&
	grep -q "^pmukit_event_state{event=\"task-clock\",pmu=\"software\",pmukit_event_state=\"counting\"} 1$" $f &&
	grep -q "^pmukit_build_info{version=" $f && grep -q "^pmukit_cpu_info{cpu=\"0\"" $f &&
	grep -q "^pmukit_cpuid_info{cpuid=\"" $f &&
	! grep -q "# EOF" $f'
ok "the header says text 0.0.4" sh -c '
	curl -sf -D - -o /dev/null "http://127.0.0.1:$MPORT/metrics" | grep -qi "^content-type: text/plain; version=0.0.4"'
ok "OpenMetrics when Accept asks for it: counter families, UNIT, # EOF last" sh -c '
	curl -sf -D "$T_TMP/om.h" -H "Accept: application/openmetrics-text;version=1.0.0,text/plain;q=0.5" \
		"http://127.0.0.1:$MPORT/metrics" >"$T_TMP/om.txt" &&
	grep -qi "^content-type: application/openmetrics-text; version=1.0.0" "$T_TMP/om.h" &&
	grep -q "^# TYPE pmukit_event counter$" "$T_TMP/om.txt" &&
	grep -q "^# UNIT pmukit_event_running_seconds seconds$" "$T_TMP/om.txt" &&
	grep -q "^# TYPE pmukit_event_state stateset$" "$T_TMP/om.txt" &&
	[ "$(tail -n 1 "$T_TMP/om.txt")" = "# EOF" ]'
ok "counts are read at each scrape: task-clock grows" sh -c '
	a=$(curl -sf "http://127.0.0.1:$MPORT/metrics" | sed -n "s/^pmukit_event_total{event=\"task-clock\",.*} //p")
	sleep 0.3
	b=$(curl -sf "http://127.0.0.1:$MPORT/metrics" | sed -n "s/^pmukit_event_total{event=\"task-clock\",.*} //p")
	echo "$a -> $b" >&2; [ -n "$a" ] && [ "$b" -gt "$a" ]'
ok "other paths 404, other methods 405" sh -c '
	[ "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$MPORT/nope")" = 404 ] &&
	[ "$(curl -s -o /dev/null -w "%{http_code}" -X POST "http://127.0.0.1:$MPORT/metrics")" = 405 ]'
ok "64 concurrent scrapes: every one answered in full" sh -c '
	for i in $(seq 64); do curl -sf --max-time 10 -o "$T_TMP/c$i" "http://127.0.0.1:$MPORT/metrics" & done
	wait; n=0
	for i in $(seq 64); do grep -q "^pmukit_event_total{event=\"context-switches\"" "$T_TMP/c$i" && n=$((n + 1)); done
	echo "$n of 64" >&2; [ $n = 64 ]'
# clients that stall (half a request, or requests and no reading) and clients that reset the
# connection mid-request or mid-response: meanwhile a scrape is answered at once, and after them too
cat >"$T_TMP/bad_clients.py" <<'EOF'
import socket, struct, subprocess, sys, time
port = int(sys.argv[1])
held = []
for i in range(20):
    s = socket.create_connection(("127.0.0.1", port))
    if i % 2:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nAcc")          # half a header, then silence
    else:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n" * 50)   # pipelined, never read
    held.append(s)
for i in range(20):                                                      # reset mid-request
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHo")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
for i in range(20):                                                      # reset mid-response
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n" * 20)
    s.recv(200)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
t = time.time()
r = subprocess.run(["curl", "-sf", "--max-time", "3", "http://127.0.0.1:%d/metrics" % port],
                   capture_output=True)
took = time.time() - t
print("scrape beside 20 stalled clients, after 40 resets: %.3f s" % took, file=sys.stderr)
sys.exit(0 if r.returncode == 0 and b"pmukit_event_total" in r.stdout and took < 1 else 1)
EOF
ok "stalled and vanished clients do not hold up a scrape" python3 "$T_TMP/bad_clients.py" $MPORT
ok "still serving after them" sh -c 'curl -sf --max-time 3 "http://127.0.0.1:$MPORT/metrics" | grep -q "^pmukit_event_total"'

# --- what to count: the stat options ----------------------------------------------------------
NCPU=$(getconf _NPROCESSORS_ONLN)
start percpu -A -a -e task-clock
ok "-A: a series per CPU (cpu label)" sh -c '
	n=$(curl -sf "http://127.0.0.1:'$PORT'/metrics" | grep -c "^pmukit_event_total{event=\"task-clock\",pmu=\"software\",cpu=\"[0-9]*\"}")
	[ "$n" = '$NCPU' ]'
stop $PID
start cpu0 -C 0 -A -e context-switches
ok "-C 0 -A: CPU 0 alone" sh -c '
	curl -sf "http://127.0.0.1:'$PORT'/metrics" >"$T_TMP/c0" &&
	[ $(grep -c "^pmukit_event_total{" "$T_TMP/c0") = 1 ] && grep -q "cpu=\"0\"} " "$T_TMP/c0"'
stop $PID
start core --per-core -a -e task-clock
ok "--per-core: socket, die and core labels" sh -c '
	curl -sf "http://127.0.0.1:'$PORT'/metrics" | grep -q "^pmukit_event_total{event=\"task-clock\",pmu=\"software\",socket=\"0\",die=\"0\",core=\"0\"} [0-9]"'
stop $PID
start socket --per-socket -a -e task-clock
ok "--per-socket: a socket label" sh -c '
	curl -sf "http://127.0.0.1:'$PORT'/metrics" | grep -q "^pmukit_event_total{event=\"task-clock\",pmu=\"software\",socket=\"0\"} [0-9]"'
stop $PID
sh -c 'while :; do sleep 0.01; done' &
BUSY=$!
PIDS="$PIDS $BUSY"
start pid -p $BUSY -e task-clock,context-switches --per-thread
ok "-p PID --per-thread: a thread label comm-tid, counting" sh -c '
	sleep 0.2
	curl -sf "http://127.0.0.1:'$PORT'/metrics" >"$T_TMP/p" &&
	grep -Eq "^pmukit_event_total\{event=\"context-switches\",pmu=\"software\",thread=\"sh-'$BUSY'\"\} [1-9]" "$T_TMP/p"'
stop $PID
start tid -t $BUSY -e context-switches
ok "-t TID: the thread's count" sh -c '
	sleep 0.2
	curl -sf "http://127.0.0.1:'$PORT'/metrics" |
	grep -Eq "^pmukit_event_total\{event=\"context-switches\",pmu=\"software\"\} [1-9]"'
stop $PID
kill $BUSY
start metric --cpuid skylake --sysfs "$SRC/tests/fixtures/sysfs/x86-skl" -a -M tma_info_thread_ipc,tma_retiring
ok "-M where the PMU is missing: served, events not_supported, promtool accepts it" sh -c '
	curl -sf "http://127.0.0.1:'$PORT'/metrics" >"$T_TMP/mm" &&
	grep -q "^pmukit_event_state{event=\"INST_RETIRED.ANY\",pmu=\"cpu\",pmukit_event_state=\"not_supported\"} 1$" "$T_TMP/mm" &&
	grep -q "^pmukit_metric_info{metric=\"tma_retiring\",unit=\"%\",scale=\"100\"} 1$" "$T_TMP/mm" &&
	promtool check metrics <"$T_TMP/mm" >&2'
MEPID=$PID
start topdown --cpuid skylake --sysfs "$SRC/tests/fixtures/sysfs/x86-skl" -a --topdown
ok "--topdown where the PMU is missing: TopdownL1's metrics and events, served" sh -c '
	curl -sf "http://127.0.0.1:'$PORT'/metrics" >"$T_TMP/td" &&
	grep -q "^pmukit_metric_info{metric=\"tma_retiring\",unit=\"%\",scale=\"100\"} 1$" "$T_TMP/td" &&
	grep -q "^pmukit_event_state{event=\"UOPS_RETIRED.RETIRE_SLOTS\",pmu=\"cpu\",pmukit_event_state=\"not_supported\"} 1$" "$T_TMP/td" &&
	promtool check metrics <"$T_TMP/td" >&2'
stop $MEPID
ok "SIGINT stops it: exit 0, socket closed" sh -c '
	kill -INT '$PID'; i=0
	while kill -0 '$PID' 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	! kill -0 '$PID' 2>/dev/null && ! curl -s --max-time 1 "http://127.0.0.1:'$PORT'/metrics" >/dev/null'
wait $PID 2>/dev/null

# --- -G: a cgroup of our own, under the perf_event mount perf uses (v1 perf_event, else cgroup2) --
fails "-G without -a or -C is refused" timeout 5 "$PMUKIT" stat --serve 127.0.0.1:0 -G x -p $$
fails "-G before any -e is refused (perf: must define events before cgroups)" timeout 5 "$PMUKIT" stat -a -G x -e context-switches true
CGM=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/self/mounts)
[ -n "$CGM" ] || CGM=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
CGN=pmukit-serve-$$
CG=$CGM/$CGN
if [ -n "$CGM" ] && awk '$1 == "perf_event" && $4 == 1 { f = 1 } END { exit !f }' /proc/cgroups &&
   mkdir "$CG" 2>/dev/null; then
	trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; sleep 0.1; rmdir "$CG" 2>/dev/null; rm -rf "$T_TMP"' EXIT
	sh -c 'echo $$ >"$1/cgroup.procs" && exec sh -c "while :; do sleep 0.005; done"' sh "$CG" &
	CGLOAD=$!
	PIDS="$PIDS $CGLOAD"
	start cgroup -a -e context-switches,context-switches -G $CGN,
	CPID=$PID CPORT=$PORT
	export CGN CPORT CGM CG
	ok "-G CG, : the cgroup's count (cgroup label) beside the machine's, smaller and counting" sh -c '
		sleep 0.5
		curl -sf "http://127.0.0.1:$CPORT/metrics" >"$T_TMP/g1" || exit 1
		a=$(sed -n "s/^pmukit_event_total{event=\"context-switches\",pmu=\"software\",cgroup=\"$CGN\"} //p" "$T_TMP/g1")
		b=$(sed -n "s/^pmukit_event_total{event=\"context-switches\",pmu=\"software\"} //p" "$T_TMP/g1")
		echo "cgroup $a, all $b" >&2; [ -n "$a" ] && [ "$a" -gt 20 ] && [ "$a" -lt "$b" ] &&
		promtool check metrics <"$T_TMP/g1" >&2'
	start each -a -e context-switches --for-each-cgroup "$CGN,/"
	EPID=$PID EPORT=$PORT
	export EPORT
	ok "--for-each-cgroup CG,/: the event once per cgroup (a label each), CG's below the root's" sh -c '
		sleep 0.5
		curl -sf "http://127.0.0.1:$EPORT/metrics" >"$T_TMP/e1" || exit 1
		a=$(sed -n "s/^pmukit_event_total{event=\"context-switches\",pmu=\"software\",cgroup=\"$CGN\"} //p" "$T_TMP/e1")
		r=$(sed -n "s|^pmukit_event_total{event=\"context-switches\",pmu=\"software\",cgroup=\"/\"} ||p" "$T_TMP/e1")
		echo "cgroup $a, root $r" >&2; [ -n "$a" ] && [ "$a" -gt 20 ] && [ "$a" -le "$r" ] &&
		promtool check metrics <"$T_TMP/e1" >&2'
	stop $EPID
	echo $CGLOAD >"$CGM/cgroup.procs"
	kill $CGLOAD
	wait $CGLOAD 2>/dev/null
	ok "a cgroup that disappears: still served, its count kept" sh -c '
		i=0	# the loop'"'"'s last sleep may still be in it: until it is empty
		until rmdir "$CG" 2>/dev/null; do
			for p in $(cat "$CG/cgroup.procs"); do echo $p >"$CGM/cgroup.procs"; done
			i=$((i + 1)); [ $i -lt 40 ] || { rmdir "$CG"; exit 1; }; sleep 0.05
		done
		curl -sf "http://127.0.0.1:$CPORT/metrics" >"$T_TMP/g2" || exit 1
		a=$(sed -n "s/^pmukit_event_total{event=\"context-switches\",pmu=\"software\",cgroup=\"$CGN\"} //p" "$T_TMP/g1")
		c=$(sed -n "s/^pmukit_event_total{event=\"context-switches\",pmu=\"software\",cgroup=\"$CGN\"} //p" "$T_TMP/g2")
		echo "before $a, after $c" >&2; [ -n "$c" ] && [ "$c" -ge "$a" ]'
	stop $CPID
else
	for i in 1 2 3; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP no perf_event cgroup to write"; done
fi

# --- -M metrics as ratios: an events dir of our own whose metrics read software events ---------
mkdir -p "$T_TMP/arch/x86/swm"
printf 'Family-model,Version,Filename,EventType\nGenuineIntel-6-7F,v1,swm,core\n' >"$T_TMP/arch/x86/mapfile.csv"
cat >"$T_TMP/arch/x86/swm/metrics.json" <<'EOF'
[
    { "MetricName": "cs_per_second", "MetricGroup": "Serve", "ScaleUnit": "1per_s",
      "MetricExpr": "context\\-switches / (cpu\\-clock / 1e9) + 0 * page\\-faults",
      "MetricThreshold": "cs_per_second > 1e12" },
    { "MetricName": "pf_per_cs", "MetricGroup": "Serve", "ScaleUnit": "100%",
      "MetricExpr": "d_ratio(page\\-faults, context\\-switches)" },
    { "MetricName": "cs_plus_pf", "MetricGroup": "Serve",
      "MetricExpr": "context\\-switches + page\\-faults" }
]
EOF
start ratio --events-dir "$T_TMP/arch" --cpuid GenuineIntel-6-7F-1 -a -M Serve
RPID=$PID RPORT=$PORT
export RPORT
ok "-M: ratios as numerator and denominator counters (TopDown's + 0 * X padding, d_ratio), others a gauge" sh -c '
	curl -sf "http://127.0.0.1:$RPORT/metrics" >"$T_TMP/r" && f=$T_TMP/r &&
	grep -Eq "^pmukit_metric_numerator_total\{metric=\"cs_per_second\"\} [0-9]+$" $f &&
	grep -Eq "^pmukit_metric_denominator_total\{metric=\"cs_per_second\"\} [0-9.]+$" $f &&
	grep -Eq "^pmukit_metric_numerator_total\{metric=\"pf_per_cs\"\} [0-9]+$" $f &&
	grep -Eq "^pmukit_metric_value\{metric=\"cs_plus_pf\"\} [0-9]+$" $f &&
	! grep -q "^pmukit_metric_value{metric=\"cs_per_second\"" $f &&
	grep -q "^pmukit_metric_threshold_exceeded{metric=\"cs_per_second\"} 0$" $f &&
	grep -q "^pmukit_metric_info{metric=\"pf_per_cs\",unit=\"%\",scale=\"100\"} 1$" $f &&
	promtool check metrics <$f >&2'
ok "-M: numerator and denominator are the counts: page-faults / context-switches" sh -c '
	curl -sf "http://127.0.0.1:$RPORT/metrics" | awk "
		/^pmukit_metric_numerator_total.metric=.pf_per_cs/ { n = \$2 }
		/^pmukit_metric_denominator_total.metric=.pf_per_cs/ { d = \$2 }
		/^pmukit_event_total.event=.page-faults/ { pf = \$2 }
		/^pmukit_event_total.event=.context-switches/ { cs = \$2 }
		END { print n, d, pf, cs > \"/dev/stderr\"; exit !(n == pf && d == cs && d > 0) }"'

# --- a real Prometheus scraping both exporters every second ------------------------------------
start_prometheus pmukit 127.0.0.1:$MPORT 127.0.0.1:$RPORT
# poll.sh QUERY: until the query has a value (35 s at most); the answer on stderr
cat >"$T_TMP/poll.sh" <<'EOF'
i=0
while [ $i -lt 70 ]; do
	curl -sf "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=$1" >"$T_TMP/q" 2>/dev/null &&
	grep -Eq '"value":\[[0-9.]+,"[0-9.e+-]+"\]' "$T_TMP/q" && { cat "$T_TMP/q" >&2; exit 0; }
	sleep 0.5; i=$((i + 1))
done
cat "$T_TMP/q" >&2; tail -5 "$T_TMP/prometheus.log" >&2; exit 1
EOF
ok "Prometheus 2.42 (OpenMetrics by its Accept header): rate(pmukit_event_total{event=\"context-switches\"}[5s]) has a value" \
	sh "$T_TMP/poll.sh" 'rate(pmukit_event_total{event="context-switches"}[5s])'
ok "Prometheus: a ratio metric as the ratio of sums over series" \
	sh "$T_TMP/poll.sh" 'sum(rate(pmukit_metric_numerator_total{metric="pf_per_cs"}[5s])) / sum(rate(pmukit_metric_denominator_total{metric="pf_per_cs"}[5s]))'
ok "Prometheus: README's query (context switches per second, scaled) has a value" \
	sh "$T_TMP/poll.sh" 'rate(pmukit_event_total{event="context-switches"}[5s]) * rate(pmukit_event_enabled_seconds_total[5s]) / rate(pmukit_event_running_seconds_total[5s])'
ok "Prometheus: the documented recording rules evaluate (fleet ratio, scaled rate)" sh -c '
	sh "$T_TMP/poll.sh" "pmukit_metric:ratio_rate5m:fleet{metric=\"pf_per_cs\"}" &&
	sh "$T_TMP/poll.sh" "pmukit_event:rate5m:scaled{event=\"context-switches\"}"'
ok "the documented recording rules: promtool test rules (a fleet ratio is a ratio of sums)" \
	promtool test rules "$SRC/tests/fixtures/serve/rules_test.yml"
ok "Prometheus: both exporters up, no scrape error" sh -c '
	curl -sf "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=sum(up{job=\"pmukit\"})" | grep -q "\"2\"\]" &&
	[ $(curl -sf "http://127.0.0.1:$PPORT/api/v1/targets" | grep -o "\"lastError\":\"\"" | wc -l) = 2 ]'
kill $PROM; wait $PROM 2>/dev/null

# --- node_exporter's perf collector (the anchor) beside pmukit: the same software counters ------
NPORT=$(free_port)
prometheus-node-exporter --collector.disable-defaults --collector.perf --collector.perf.cpus=0-$((NCPU - 1)) \
	--web.listen-address=127.0.0.1:$NPORT >"$T_TMP/ne.log" 2>&1 &
NE=$!
PIDS="$PIDS $NE"
start anchor -A -a -e context-switches,page-faults
APID=$PID APORT=$PORT
sh -c 'while :; do sleep 0.005; done' &
LOAD=$!
PIDS="$PIDS $LOAD"
i=0
until curl -sf "http://127.0.0.1:$NPORT/metrics" >/dev/null 2>&1 || [ $i -gt 50 ]; do sleep 0.1; i=$((i + 1)); done
export NPORT APORT
# sum NAME FILE: the sum over CPUs of one counter
cat >"$T_TMP/anchor.sh" <<'EOF'
sum() { awk -v re="$1" '$0 ~ re { s += $NF } END { printf "%.0f\n", s }' "$2"; }
snap() {	# both at once: the two windows start and end together
	curl -sf "http://127.0.0.1:$APORT/metrics" >"$T_TMP/a$1" & a=$!
	curl -sf "http://127.0.0.1:$NPORT/metrics" >"$T_TMP/n$1" & n=$!
	wait $a && wait $n
}
snap 1 && sleep 4 && snap 2 || exit 1
for ev in context-switches:context_switches page-faults:page_faults; do
	p=${ev%%:*} n=${ev##*:}
	dp=$(( $(sum "^pmukit_event_total.event=\"$p\"" "$T_TMP/a2") - $(sum "^pmukit_event_total.event=\"$p\"" "$T_TMP/a1") ))
	dn=$(( $(sum "^node_perf_${n}_total" "$T_TMP/n2") - $(sum "^node_perf_${n}_total" "$T_TMP/n1") ))
	echo "$p over 4 s: pmukit $dp, node_exporter $dn" >&2
	awk -v a=$dp -v b=$dn 'BEGIN { exit !(b > 100 && (a - b) / b < 0.05 && (b - a) / b < 0.05) }' || exit 1
done
EOF
ok "node_exporter --collector.perf: context-switches and page-faults agree within 5 %" sh "$T_TMP/anchor.sh"
ok "pmukit stat -a over 3 s and the exporter's increase around it agree within 5 %" sh -c '
	curl -sf "http://127.0.0.1:$APORT/metrics" >"$T_TMP/s1" &&
	"$PMUKIT" stat -a -x, -e context-switches sleep 3 2>"$T_TMP/st" &&
	curl -sf "http://127.0.0.1:$APORT/metrics" >"$T_TMP/s2" || exit 1
	sum() { awk "/^pmukit_event_total.event=\"context-switches\"/ { s += \$NF } END { printf \"%.0f\", s }" "$1"; }
	d=$(( $(sum "$T_TMP/s2") - $(sum "$T_TMP/s1") )); s=$(cut -d, -f1 "$T_TMP/st")
	echo "context-switches: stat $s, exporter $d" >&2
	awk -v a=$d -v b=$s "BEGIN { exit !(b > 100 && (a - b) / b < 0.05 && (b - a) / b < 0.05) }"'
kill $LOAD $NE
stop $APID
ok "SIGTERM stops the main exporter: exit 0" stop $MAIN
stop $RPID
[ "$T_FAIL" = 0 ]
