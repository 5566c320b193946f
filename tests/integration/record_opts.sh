#!/bin/sh
# record_opts.sh — perf record's options that change what is recorded, not the
# attrs (those are record_attrs.sh's), judged by perf 6.1 on pmukit's files
# and, where perf can, by perf doing the same (TAP): --filter keeps only what
# the filter lets through; --max-size stops and ends the command as perf
# (exit 143); a command with -p sets how long, and the target's end ends it;
# -D starts sampling later; -u records a user's processes only;
# --switch-events writes context switches; --switch-output rotates into
# FILE.<timestamp> files on SIGUSR2, by time and by size, --switch-max-files
# keeps the last N.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
B=${PMUKIT_BUILD:-build}
W=$(cd "$B" && pwd)/tests/workloads/report_many

if ! command -v perf >/dev/null 2>&1 || ! perf --version 2>/dev/null | grep -q "^perf version 6\.1\."; then
	echo "1..0 # SKIP perf 6.1 not installed"
	exit 0
fi
if ! "$PMUKIT" record -q -o "$T_TMP/probe.data" -e cpu-clock true >/dev/null 2>&1; then
	echo "1..0 # SKIP pmukit record cannot sample here (perf_event_open refused)"
	exit 0
fi
if [ ! -x "$W" ]; then
	echo "1..0 # SKIP $W not built (make tests)"
	exit 0
fi
echo "1..17"
cd "$T_TMP" || exit 1
export PMUKIT

# --filter
"$PMUKIT" record -q -o f.data -e syscalls:sys_enter_openat --filter 'flags == 0' -- \
	sh -c 'cat /dev/null; cat /dev/null' > /dev/null 2>&1
perf script -i f.data 2> f.err | grep -c 'sys_enter_openat' > f.all
perf script -i f.data 2> /dev/null | grep -c 'flags: 0x00000000,' > f.zero
ok "--filter 'flags == 0': samples, every one with flags 0 (perf script)" sh -c \
	'[ "$(cat f.all)" -gt 0 ] && [ "$(cat f.all)" = "$(cat f.zero)" ] && ! [ -s f.err ]'

# --max-size: perf stops, ends its command with SIGTERM and exits with its status
"$PMUKIT" record -q -o m.data -e cpu-clock -c 10000 --max-size 64K "$W" 3000 > /dev/null 2>&1
echo $? > m.rc
ok "--max-size 64K: stopped, exit 143 as perf's" sh -c '[ "$(cat m.rc)" = 143 ]'
ok "--max-size 64K: perf script reads the file" sh -c \
	'[ "$(perf script -i m.data 2>/dev/null | wc -l)" -gt 100 ]'

# a command with -p: it sets the duration; the target's end ends the recording
sleep 30 &
SP=$!
start=$(date +%s)
"$PMUKIT" record -q -o p.data -F 99 -g -p $SP -- sleep 0.3 > /dev/null 2>&1
echo $? > p.rc
end=$(date +%s)
ok "-F 99 -g -p PID -- sleep 0.3: exit 0, done with the command" sh -c \
	"[ \"\$(cat p.rc)\" = 0 ] && [ $((end - start)) -lt 5 ]"
kill $SP 2>/dev/null
sh -c 'sleep 0.3' &
SP=$!
start=$(date +%s)
"$PMUKIT" record -q -o p2.data -e cpu-clock -p $SP -- sleep 20 > /dev/null 2>&1
end=$(date +%s)
ok "-p PID -- sleep 20: the target's exit ends the recording" [ $((end - start)) -lt 10 ]

# -D: nothing sampled in the first MSECS after exec
"$PMUKIT" record -q -o d.data -e cpu-clock -c 100000 -D 300 -- sh -c 'i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done' \
	> /dev/null 2>&1
perf script -i d.data --show-task-events -F time 2>/dev/null | tr -d ' :' | grep . > d.times
ok "-D 300: the first sample at least 0.3 s after exec" sh -c \
	'[ "$(wc -l < d.times)" -gt 2 ] && awk "NR==2 { t0 = \$1 } NR==3 { exit !(\$1 - t0 >= 0.29) }" d.times'

# -u: a user's processes only
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'while :; do :; done' &
	NP=$!
	sleep 0.2
	"$PMUKIT" record -q -o u.data -e cpu-clock -u nobody -- sleep 0.5 > /dev/null 2>&1
	kill $NP
	perf script -i u.data -F pid 2>/dev/null | sort -u | tr -d ' ' > u.pids
	ok "-u nobody: samples, all of nobody's process" sh -c "[ \"\$(cat u.pids)\" = $NP ]"
else
	T_N=$((T_N + 1)); echo "ok $T_N # SKIP setpriv or user nobody missing"
fi

# --switch-events
"$PMUKIT" record -q -o s.data -e cpu-clock --switch-events -- "$W" -t 2 300 > /dev/null 2>&1
ok "--switch-events: perf script shows PERF_RECORD_SWITCH records" sh -c \
	'perf script -i s.data --show-switch-events 2>/dev/null | grep -q PERF_RECORD_SWITCH'

# --switch-output on SIGUSR2: as many files as perf's, perf reads each, same evlist
wait_for() {	# wait_for CMD: poll (up to 5 s) until CMD succeeds
	i=0
	while ! sh -c "$1" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
}
rot() {	# rot TOOL PREFIX: two SIGUSR2 during a 4 s recording, each once the tool is ready
	# (its output file there; then the first switch's file), so a loaded machine's slow
	# start does not meet a SIGUSR2 before the tool's handler
	$1 record -q -o "$2.data" -e cpu-clock --switch-output -- sleep 4 > /dev/null 2>&1 &
	rp=$!
	wait_for "[ -e $2.data ]"
	sleep 0.3; kill -USR2 $rp
	wait_for "ls $2.data.* >/dev/null 2>&1"
	sleep 0.3; kill -USR2 $rp
	wait $rp
}
rot perf pg
rot "$PMUKIT" kg
ok "--switch-output: 3 files after 2 SIGUSR2, as perf (no FILE left)" sh -c \
	'[ "$(ls kg.data.* | wc -l)" = 3 ] && [ "$(ls pg.data.* | wc -l)" = 3 ] && ! [ -e kg.data ]'
ok "--switch-output: named FILE.YYYYmmddHHMMSScc" sh -c \
	'ls kg.data.* | grep -qxE "kg\.data\.[0-9]{16}" && [ "$(ls kg.data.* | grep -cvE "^kg\.data\.[0-9]{16}$")" = 0 ]'
ok "--switch-output: perf reads every file" sh -c \
	'for f in kg.data.*; do perf script -i $f > /dev/null 2> e || exit 1; [ -s e ] && exit 1; done; exit 0'
ok "--switch-output: perf evlist the same as perf's files" sh -c \
	'perf evlist -v -i "$(ls pg.data.* | head -1)" > p.ev && perf evlist -v -i "$(ls kg.data.* | head -1)" > k.ev && cmp p.ev k.ev'
ok "--switch-output: the second file has the workload's side-band (COMM sleep)" sh -c \
	'perf script -i "$(ls kg.data.* | sed -n 2p)" --show-task-events 2>/dev/null | grep -q "PERF_RECORD_COMM: sleep"'

# by time and by size
"$PMUKIT" record -q -o kt.data -e cpu-clock --switch-output=1s -- sleep 2.5 > /dev/null 2>&1
ok "--switch-output=1s, 2.5 s: 3 files" sh -c '[ "$(ls kt.data.* | wc -l)" = 3 ]'
"$PMUKIT" record -q -o ks.data -e cpu-clock -c 10000 --switch-output=100K "$W" 2000 > /dev/null 2>&1
ok "--switch-output=100K: several files, each read by perf" sh -c \
	'[ "$(ls ks.data.* | wc -l)" -ge 2 ] && for f in ks.data.*; do perf script -i $f > /dev/null 2>&1 || exit 1; done'
"$PMUKIT" record -q -o km.data -e cpu-clock -c 10000 --switch-output=100K --switch-max-files 2 \
	"$W" 2000 > /dev/null 2>&1
ok "--switch-max-files 2: the last 2 kept" sh -c '[ "$(ls km.data.* | wc -l)" = 2 ]'
perf record -q -o x.data --switch-output=bogus true > /dev/null 2>&1
echo $? > x.perf
"$PMUKIT" record -q -o x.data --switch-output=bogus true > /dev/null 2>&1
echo $? > x.pmukit
ok "--switch-output=bogus: refused with perf's exit status" sh -c \
	'[ "$(cat x.perf)" != 0 ] && cmp x.perf x.pmukit'
exit 0
