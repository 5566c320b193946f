#!/bin/sh
# export_push.sh — `pmukit export --format pprof --push URL` (TAP), and the pprof fields a
# profile store reads: period, period_type, sample_type, duration and time of -c and -F
# recordings that perf 6.1 makes here, read back with `go tool pprof -raw`; `pmukit record
# --switch-output --push URL`: each file closed is pushed.
#
# No profile store is packaged for Debian 12, so the push goes to a fixture: a few lines of
# python3's http.server (written into $T_TMP) that record the request (method, path and
# query, headers, body) to files; the test asserts the request shape the real clients and
# servers use, which is:
#  - Pyroscope's server HTTP API documentation (grafana/pyroscope,
#    docs/sources/configure-server/about-server-api.md): `POST /ingest` with the metadata
#    as query parameters `name` (APP{k=v,...}), `from` and `until` (UNIX seconds),
#    `format` (pprof), `sampleRate` (Hz), `spyName`; the tenant in `X-Scope-OrgID`;
#  - Pyroscope's ingest handler (grafana/pyroscope, pkg/ingester/pyroscope/ingest_handler.go):
#    with format=pprof the request body itself is the profile (a multipart form is only
#    read without format=pprof); pkg/og/convert/pprof's RawProfile gives such a body the
#    Content-Type "binary/octet-stream" when it forwards it, and pkg/pprof's RawFromBytes
#    gunzips it: the body is the gzipped pprof as a .pb.gz file holds it (no
#    Content-Encoding);
#  - the Go client (grafana/pyroscope-go, upstream/remote/remote.go): POST to the server
#    URL's path + "/ingest", the same query parameters, X-Scope-OrgID for the tenant, any
#    answer but 200 an error reported with its status and body.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
export TZ=UTC	# perf script -F tod, go tool pprof and date(1) in one zone

for c in perf cc python3; do
	command -v $c >/dev/null 2>&1 || { echo "1..0 # SKIP $c is not installed"; exit 0; }
done
W="$T_TMP/wl"
cc -O2 -g -fno-omit-frame-pointer -o "$W" "$SRC/tests/integration/script_wl.c" 2>/dev/null ||
	{ echo "1..0 # SKIP the workload does not build"; exit 0; }
if ! perf record -q -e cpu-clock -c 100000 -g -o "$T_TMP/c.data" "$W" 300 >/dev/null 2>"$T_TMP/rec.err"; then
	echo "1..0 # SKIP perf record cannot sample cpu-clock here: $(tail -1 "$T_TMP/rec.err")"
	exit 0
fi
perf record -q -e cpu-clock -F 999 -g -o "$T_TMP/f.data" "$W" 300 >/dev/null 2>&1
perf record -q -k mono -e cpu-clock -F 999 -o "$T_TMP/k.data" "$W" 200 >/dev/null 2>&1
perf record -q -e page-faults -F 999 -o "$T_TMP/pf.data" "$W" 200 >/dev/null 2>&1

# The fixture server: each request's method + path line, headers and body into $SRV;
# it answers with the status in $SRV/status (200 unless changed) and a short body.
SRV="$T_TMP/srv"
mkdir -p "$SRV"
echo 200 >"$SRV/status"
cat >"$T_TMP/ingest.py" <<'PY'
import http.server, os, sys
out = sys.argv[1]
class Ingest(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(os.path.join(out, "body"), "wb") as f:
            f.write(body)
        with open(os.path.join(out, "headers"), "w") as f:
            for k, v in self.headers.items():
                f.write("%s: %s\n" % (k.lower(), v))
        with open(os.path.join(out, "request"), "w") as f:
            f.write("%s %s\n" % (self.command, self.path))
        with open(os.path.join(out, "log"), "a") as f:
            f.write("%s %s %d\n" % (self.command, self.path, len(body)))
        status = int(open(os.path.join(out, "status")).read())
        msg = b"" if status == 200 else b"profile rejected by the fixture"
        self.send_response(status)
        self.send_header("Content-Length", str(len(msg)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(msg)
    def log_message(self, *args):
        pass
srv = http.server.HTTPServer(("127.0.0.1", 0), Ingest)
with open(os.path.join(out, "port.tmp"), "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
srv.serve_forever()
PY
python3 "$T_TMP/ingest.py" "$SRV" >"$T_TMP/srv.log" 2>&1 &
SRV_PID=$!
trap 'kill $SRV_PID 2>/dev/null; rm -rf "$T_TMP"' EXIT
i=0
while [ ! -s "$SRV/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -s "$SRV/port" ] || { echo "1..0 # SKIP the fixture server did not start: $(cat "$T_TMP/srv.log")"; exit 0; }
PORT=$(cat "$SRV/port")
URL="http://127.0.0.1:$PORT"

HAVE_GO=
if command -v go >/dev/null 2>&1; then
	HAVE_GO=1
	export HOME="$T_TMP/home" GOCACHE="$T_TMP/gocache" GOFLAGS=-mod=mod
	mkdir -p "$HOME"
fi

echo "1..27"

# push FILE ARGS... — one push of FILE; the fixture's files fresh
push() {
	f=$1; shift
	rm -f "$SRV/request" "$SRV/headers" "$SRV/body"
	"$PMUKIT" export --format pprof -i "$f" --push "$URL" "$@"
}
# query NAME — the (decoded) value of query parameter NAME of the last request
query() {
	python3 -c 'import sys, urllib.parse
path = open(sys.argv[1]).read().split()[1]
q = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
print(q[sys.argv[2]][0])' "$SRV/request" "$1"
}
header() { sed -n "s/^$1: //p" "$SRV/headers"; }

ok "push of a -c recording exits 0" push "$T_TMP/c.data" --app wl --label env=ci --label host=vm1 --tenant team-a
shape() {
	cat "$SRV/request" >&2
	read -r method target <"$SRV/request"
	[ "$method" = POST ] && [ "${target%%\?*}" = /ingest ]
}
ok "the request is POST /ingest" shape
ok "name is APP{labels}" eval '[ "$(query name)" = "wl{env=ci,host=vm1}" ]'
ok "format=pprof, spyName=pmukit" eval '[ "$(query format)" = pprof ] && [ "$(query spyName)" = pmukit ]'
ok "sampleRate of -c 100000 on cpu-clock (ns) is 10000 Hz" eval '[ "$(query sampleRate)" = 10000 ]'
headers() {
	cat "$SRV/headers" >&2
	[ "$(header content-type)" = binary/octet-stream ] &&
		[ "$(header content-length)" = "$(wc -c <"$SRV/body" | tr -d ' ')" ] &&
		[ "$(header x-scope-orgid)" = team-a ] && [ -z "$(header content-encoding)" ]
}
ok "Content-Type binary/octet-stream, Content-Length, X-Scope-OrgID: the tenant" headers
same_body() {	# the body is what export -o writes: a gzipped pprof
	"$PMUKIT" export --format pprof -i "$T_TMP/c.data" -o "$T_TMP/c.pb.gz" &&
		gzip -t "$SRV/body" && cmp "$SRV/body" "$T_TMP/c.pb.gz"
}
ok "the body gunzips and is export --format pprof -o's file, byte for byte" same_body
window() {	# from/until hold the samples: the file's mtime is the last one (no CLOCK_DATA)
	from=$(query from) until=$(query until) mtime=$(stat -c %Y "$T_TMP/c.data")
	echo "from $from until $until mtime $mtime" >&2
	[ "$from" -le "$mtime" ] && [ "$mtime" -le "$until" ] && [ $((until - from)) -le 3 ]
}
ok "from <= the recording's mtime <= until (UNIX seconds)" window

ok "push of a -F recording without --app" push "$T_TMP/f.data"
ok "sampleRate of -F 999 is 999" eval '[ "$(query sampleRate)" = 999 ]'
default_app() {
	comm=$(perf script -i "$T_TMP/f.data" -F comm 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
	echo "name $(query name), comm $comm" >&2
	[ -n "$comm" ] && [ "$(query name)" = "$comm{}" ]
}
ok "without --app the name is the recorded comm's, {} without labels" default_app
ok "no X-Scope-OrgID without --tenant" eval '[ -z "$(header x-scope-orgid)" ]'
kwindow() {	# a -k recording has perf's CLOCK_DATA: from/until are its first/last time of day
	push "$T_TMP/k.data" || return 1
	first=$(perf script -i "$T_TMP/k.data" -F tod 2>/dev/null | head -1 | sed 's/[: ]*$//')
	last=$(perf script -i "$T_TMP/k.data" -F tod 2>/dev/null | tail -1 | sed 's/[: ]*$//')
	f=$(date -d "$first" +%s) l=$(date -d "$last" +%s.%N | awk '{ s = int($1); print ($1 > s) ? s + 1 : s }')
	echo "tod $first .. $last; from $(query from) until $(query until); want $f $l" >&2
	[ "$(query from)" = "$f" ] && [ "$(query until)" = "$l" ]
}
ok "from/until of a -k recording: its first and last sample's time of day (perf script -F tod)" kwindow

prefixed() {	# a store under a path: URL's path + /ingest, as the Go client joins them
	rm -f "$SRV/request"
	"$PMUKIT" export --format pprof -i "$T_TMP/c.data" --push "$URL/profiles/?tenant_hint=x" || return 1
	cat "$SRV/request" >&2
	read -r method target <"$SRV/request"
	[ "${target%%\?*}" = /profiles/ingest ] && [ "$(query tenant_hint)" = x ] && [ "$(query format)" = pprof ]
}
ok "a URL with a path and a query: POST PATH/ingest, its query kept" prefixed

# faults: nobody listening, an answer that is not 200, bad options
FREE=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
unreachable() {
	"$PMUKIT" export --format pprof -i "$T_TMP/c.data" --push "http://127.0.0.1:$FREE" 2>"$T_TMP/e"
	rc=$?
	cat "$T_TMP/e" >&2
	[ $rc = 1 ] && grep -q "cannot connect to 127.0.0.1 port $FREE: Connection refused" "$T_TMP/e"
}
ok "an unreachable URL: exit 1, 'cannot connect ... Connection refused'" unreachable
answered() {	# answered STATUS — the status and the server's text reported, exit 1
	echo "$1" >"$SRV/status"
	push "$T_TMP/c.data" 2>"$T_TMP/e"
	rc=$?
	echo 200 >"$SRV/status"
	cat "$T_TMP/e" >&2
	[ $rc = 1 ] && grep -q "the server answered HTTP $1 .*: profile rejected by the fixture" "$T_TMP/e"
}
ok "an HTTP 400 answer is reported, exit 1" answered 400
ok "an HTTP 503 answer is reported, exit 1" answered 503
refused() {	# refused ARGS... — exit 129 with a message, nothing sent
	rm -f "$SRV/request"
	"$PMUKIT" export -i "$T_TMP/c.data" "$@" >/dev/null 2>"$T_TMP/e"
	rc=$?
	cat "$T_TMP/e" >&2
	[ $rc = 129 ] && [ -s "$T_TMP/e" ] && [ ! -e "$SRV/request" ]
}
ok "refused: https://, a label that is no KEY=VALUE, --push with --format folded, --tenant without --push" \
	eval 'refused --format pprof --push https://127.0.0.1:1 && refused --format pprof --push "$URL" --label 1x=y &&
	refused --format folded --push "$URL" && refused --format pprof --tenant t'

# the pprof fields, go tool pprof -raw's header lines
if [ -n "$HAVE_GO" ]; then
	raw() { go tool pprof -raw "$1" 2>/dev/null | sed '/^Samples:/{n;q}' >"$T_TMP/raw.txt"; cat "$T_TMP/raw.txt" >&2; }
	# Go prints the duration as %.4v of a time.Duration: its first 4 characters
	go_duration() {
		perf script -i "$1" -F time --ns 2>/dev/null | tr -d ' :' | sed -n '1p;$p' | python3 -c '
import sys
a, b = [int(x.replace(".", "")) for x in sys.stdin.read().split()]
d = b - a
s = ("%.6f" % (d / 1e6)).rstrip("0").rstrip(".") + "ms" if d < 10**9 else ("%.9f" % (d / 1e9)).rstrip("0").rstrip(".") + "s"
print(s[:4])'
	}
	fields_c() {
		raw "$T_TMP/c.pb.gz"
		want=$(go_duration "$T_TMP/c.data")
		grep -qx "PeriodType: cpu-clock nanoseconds" "$T_TMP/raw.txt" &&
			grep -qx "Period: 100000" "$T_TMP/raw.txt" && grep -qx "Duration: $want" "$T_TMP/raw.txt" &&
			grep -qx "samples/count cpu-clock/nanoseconds\[dflt\]" "$T_TMP/raw.txt"
	}
	ok "-c: period_type cpu-clock/ns, period 100000, duration = last - first sample, sample types" fields_c
	time_c() {	# no CLOCK_DATA: time_nanos from the file's mtime, the last sample's
		t=$(sed -n 's/^Time: \(.*\) +0000 UTC/\1/p' "$T_TMP/raw.txt")
		[ -n "$t" ] || return 1
		t=$(date -d "$t" +%s) mtime=$(stat -c %Y "$T_TMP/c.data")
		echo "time $t, mtime $mtime" >&2
		[ "$t" -le "$mtime" ] && [ $((mtime - t)) -le 2 ]
	}
	ok "-c without CLOCK_DATA: time_nanos is set, the file's mtime less the duration" time_c
	fields_f() {
		"$PMUKIT" export --format pprof -i "$T_TMP/f.data" -o "$T_TMP/f.pb.gz" && raw "$T_TMP/f.pb.gz"
		want=$(go_duration "$T_TMP/f.data")
		grep -qx "PeriodType: cpu nanoseconds" "$T_TMP/raw.txt" &&
			grep -qx "Period: $((1000000000 / 999))" "$T_TMP/raw.txt" &&
			grep -qx "Duration: $want" "$T_TMP/raw.txt" && grep -q "^Time: " "$T_TMP/raw.txt"
	}
	ok "-F 999 on cpu-clock: Go's CPU profile period (cpu/ns, 1e9/Hz), duration, time" fields_f
	time_k() {	# CLOCK_DATA: time_nanos is perf's time of day of the first sample
		"$PMUKIT" export --format pprof -i "$T_TMP/k.data" -o "$T_TMP/k.pb.gz" && raw "$T_TMP/k.pb.gz"
		want=$(perf script -i "$T_TMP/k.data" -F tod 2>/dev/null | head -1 | sed 's/[: ]*$//')
		echo "perf script's first tod: $want" >&2
		[ -n "$want" ] && grep -q "^Time: $want[0-9]* +0000 UTC" "$T_TMP/raw.txt"
	}
	ok "-k: time_nanos is perf script's tod of the first sample" time_k
	fields_pf() {	# -F on a count: the mean of the varying periods
		"$PMUKIT" export --format pprof -i "$T_TMP/pf.data" -o "$T_TMP/pf.pb.gz" && raw "$T_TMP/pf.pb.gz"
		want=$(perf script -i "$T_TMP/pf.data" -F period 2>/dev/null |
			awk '{ s += $1; n++ } END { if (n) printf "%d\n", (s + int(n / 2)) / n }')
		grep -qx "PeriodType: page-faults count" "$T_TMP/raw.txt" && grep -qx "Period: $want" "$T_TMP/raw.txt"
	}
	ok "-F on page-faults: period_type page-faults/count, period the mean period" fields_pf
	totals() {	# what the store gets reads as the file does: same totals in both indexes
		push "$T_TMP/f.data" || return 1
		for idx in samples cpu-clock; do
			a=$(go tool pprof -top -sample_index=$idx "$SRV/body" 2>/dev/null | grep -o 'of [0-9.a-z]* total')
			b=$(go tool pprof -top -sample_index=$idx "$T_TMP/f.pb.gz" 2>/dev/null | grep -o 'of [0-9.a-z]* total')
			echo "$idx: pushed '$a', file '$b'" >&2
			[ -n "$a" ] && [ "$a" = "$b" ] || return 1
		done
	}
	ok "the pushed profile: go tool pprof's totals (samples, cpu-clock) are the file's" totals
else
	for i in 1 2 3 4 5 6; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP go (golang-go) is not installed"; done
fi
both() {	# -o and --push: the file written and the profile pushed
	rm -f "$T_TMP/both.pb.gz"
	push "$T_TMP/c.data" -o "$T_TMP/both.pb.gz" && cmp "$T_TMP/both.pb.gz" "$SRV/body"
}
ok "-o FILE with --push: both" both

# record --switch-output --push: every file closed is sent (by a child: the recording goes on)
rotate() {
	rm -f "$SRV/log" "$T_TMP"/r.data*
	"$PMUKIT" record -q -e cpu-clock -c 100000 -g --switch-output=20K -o "$T_TMP/r.data" \
		--push "$URL" --app rot --label run=1 "$W" 300 >/dev/null || return 1
	files=$(ls "$T_TMP"/r.data.* | wc -l) pushed=$(grep -c '^POST /ingest?name=rot%7Brun%3D1%7D&' "$SRV/log")
	cat "$SRV/log" >&2
	echo "files $files, pushed $pushed" >&2
	[ "$files" -ge 2 ] && [ "$pushed" = "$files" ]
}
ok "record --switch-output=20K --push: one POST /ingest per file, each with the labels" rotate
rec_refused() {
	"$PMUKIT" record -q -e cpu-clock -o "$T_TMP/x.data" --push "$URL" true 2>"$T_TMP/e"
	rc=$?
	cat "$T_TMP/e" >&2
	[ $rc != 0 ] && grep -q -- "--push sends the --switch-output files" "$T_TMP/e" && [ ! -e "$T_TMP/x.data" ]
}
ok "record --push without --switch-output is refused" rec_refused
