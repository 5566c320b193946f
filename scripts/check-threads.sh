#!/bin/sh
# scripts/check-threads.sh — the CLI built with ThreadSanitizer (build/tsan, make
# check-threads) records the report workload, then reads the file with every
# reading command: report (read-ahead thread, DSO workers, kallsyms reader),
# script, diff, export, and again with -z. TAP; a ThreadSanitizer report fails the
# command (TSAN_OPTIONS=halt_on_error=1, exit 66) and so its test.
set -u
B=${PMUKIT_TSAN_BUILD:-build/tsan}
K=$B/pmukit
W=$B/tests/workloads/report_many
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
t() {	# t NAME CMD...: ok when CMD exits 0 and says nothing of ThreadSanitizer
	name=$1
	shift
	n=$((n + 1))
	if "$@" >"$tmp/out" 2>"$tmp/err" && ! grep -q ThreadSanitizer "$tmp/err"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# /' "$tmp/err" | head -40
		fail=1
	fi
}
echo "1..10"
t "record -g" "$K" record -q -e cpu-clock -c 20000 -g -o "$tmp/a.data" "$W" -t 2 300
t "record -z -g" "$K" record -q -z -e cpu-clock -c 20000 -g -o "$tmp/z.data" "$W" -t 2 300
t "report" "$K" report --stdio -i "$tmp/a.data"
t "report --no-children -g none" "$K" report --stdio --no-children -g none -i "$tmp/a.data"
t "report --sort srcline" "$K" report --stdio --sort srcline -i "$tmp/a.data"
t "report of -z" "$K" report --stdio -i "$tmp/z.data"
t "script" "$K" script -i "$tmp/a.data"
t "script of -z" "$K" script -i "$tmp/z.data"
t "diff" "$K" diff "$tmp/a.data" "$tmp/z.data"
t "export pprof" "$K" export --format pprof -i "$tmp/a.data" -o "$tmp/a.pb.gz"
exit $fail
