#!/bin/sh
# script.sh — `pmukit script` against perf 6.1's `perf script`, line for line, on files
# perf records here: cpu-clock with and without -g, a tracepoint with raw data
# (sched:sched_switch), system-wide (-a), pipe mode (file and stdin), zstd (-z), -F
# field lists, --ns; and on pmukit's own recordings when `pmukit record` exists.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"

if ! command -v perf >/dev/null 2>&1; then
	echo "1..0 # SKIP perf is not installed"
	exit 0
fi
W="$T_TMP/wl"
if ! cc -O2 -g -fno-omit-frame-pointer -o "$W" "$SRC/tests/integration/script_wl.c" 2>"$T_TMP/cc.err"; then
	echo "1..0 # SKIP no C compiler for the workload"
	exit 0
fi
if ! perf record -q -e cpu-clock -c 200000 -o "$T_TMP/probe.data" "$W" 10 >/dev/null 2>&1; then
	echo "1..0 # SKIP perf record cannot sample cpu-clock here"
	exit 0
fi

echo "1..31"

rec() {	# rec NAME PERF-RECORD-ARGS... — record $T_TMP/NAME.data
	n=$1; shift
	perf record -q -o "$T_TMP/$n.data" "$@" >/dev/null 2>"$T_TMP/$n.rec.err"
}

# same NAME FILE [ARGS...] — pmukit script and perf script print the same bytes and
# exit with the same status. System-wide files name other processes' binaries, which
# other programs may delete between the two runs: one retry.
same_once() {
	f=$1; shift
	perf script -i "$f" "$@" >"$T_TMP/perf.out" 2>"$T_TMP/perf.err"
	prc=$?
	"$PMUKIT" script -i "$f" "$@" >"$T_TMP/pk.out" 2>"$T_TMP/pk.err"
	krc=$?
	[ "$prc" = "$krc" ] && cmp -s "$T_TMP/perf.out" "$T_TMP/pk.out"
}
same_out() {
	if same_once "$@" || same_once "$@"; then
		return 0
	fi
	echo "perf exit $prc, pmukit exit $krc; $(wc -l <"$T_TMP/perf.out") lines from perf" >&2
	diff "$T_TMP/perf.out" "$T_TMP/pk.out" | head -10 >&2
	head -3 "$T_TMP/pk.err" >&2
	return 1
}
same() {
	name=$1; shift
	ok "$name" same_out "$@"
}
nonempty() { [ -s "$T_TMP/perf.out" ]; }

rec plain -e cpu-clock -c 100000 "$W" 200
same "cpu-clock" "$T_TMP/plain.data"
ok "cpu-clock: samples were printed" nonempty
rec g -e cpu-clock -c 100000 -g "$W" 200
same "cpu-clock -g (callchains)" "$T_TMP/g.data"
same "cpu-clock -g, -G hides callchains" "$T_TMP/g.data" -G
same "cpu-clock -g --max-stack 3" "$T_TMP/g.data" --max-stack 3
rec sw -e sched:sched_switch -- sh -c "for i in 1 2 3 4 5; do sleep 0.01; $W 5; done"
same "sched:sched_switch raw fields" "$T_TMP/sw.data"
ok "sched:sched_switch: prev_comm= printed" contains "$T_TMP/pk.out" "prev_comm="
rec swg -e sched:sched_switch -g -- sh -c "sleep 0.01; $W 5"
same "sched:sched_switch -g" "$T_TMP/swg.data"
rec all -a -e cpu-clock -c 1000000 -- sleep 0.3
same "cpu-clock -a" "$T_TMP/all.data"
ok "cpu-clock -a: the cpu column" contains "$T_TMP/pk.out" "[00"
rec z -z -e cpu-clock -c 100000 -g "$W" 200
same "cpu-clock -g -z (zstd)" "$T_TMP/z.data"
perf record -q -o - -e cpu-clock -c 100000 -g "$W" 200 2>/dev/null >"$T_TMP/pipe.data"
same "pipe mode file" "$T_TMP/pipe.data"
pipe_stdin() {
	perf script -i "$T_TMP/pipe.data" >"$T_TMP/perf.out" 2>/dev/null &&
	"$PMUKIT" script -i - <"$T_TMP/pipe.data" >"$T_TMP/pk.out" &&
	cmp "$T_TMP/perf.out" "$T_TMP/pk.out"
}
ok "pipe mode on stdin (-i -)" pipe_stdin
same "-F comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period" "$T_TMP/all.data" \
	-F comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period
same "-F comm,pid,tid,ip,sym with callchains" "$T_TMP/g.data" -F comm,pid,tid,ip,sym
same "-F +pid,-period" "$T_TMP/plain.data" -F +pid,-period
same "-F ip,sym,misc,tid" "$T_TMP/plain.data" -F ip,sym,misc,tid
same "-F trace:comm,trace" "$T_TMP/sw.data" -F trace:comm,trace
same "-F addr refused as perf refuses it" "$T_TMP/plain.data" -F addr
same "-F dsoff (not a perf 6.1 field)" "$T_TMP/plain.data" -F dsoff
same "-F ip,sym,dso,srcline (addr2line's answers, libraries' debug info)" "$T_TMP/g.data" \
	-F ip,sym,dso,srcline

ok "-F srcline: the workload's own lines are there" grep -q "script_wl.c:" "$T_TMP/pk.out"
same "--ns" "$T_TMP/plain.data" --ns
fails "a missing file fails" "$PMUKIT" script -i "$T_TMP/none.data"
same "--header" "$T_TMP/g.data" --header
same "--header-only of a tracepoint recording" "$T_TMP/sw.data" --header-only
same "--header of a -z recording (compressed line)" "$T_TMP/z.data" --header-only
same "--header of a pipe-mode file (features as they come)" "$T_TMP/pipe.data" --header

if "$PMUKIT" record --help >/dev/null 2>&1; then
	"$PMUKIT" record -q -o "$T_TMP/pk.data" -e cpu-clock -c 100000 -g "$W" 200 >/dev/null 2>&1
	same "pmukit record -g, read by both" "$T_TMP/pk.data"
	"$PMUKIT" record -q -a -o "$T_TMP/pka.data" -e cpu-clock -c 1000000 -- sleep 0.3 >/dev/null 2>&1
	same "pmukit record -a, read by both" "$T_TMP/pka.data"
	# (the workload's own stdout kept out of the pipe: pmukit record does not move it to
	# stderr as perf record -o - does)
	"$PMUKIT" record -q -o - -e cpu-clock -c 100000 -g -- sh -c "$W 100 >/dev/null" \
		2>/dev/null >"$T_TMP/pkpipe.data"
	same "pmukit record -o - (pipe), read by both" "$T_TMP/pkpipe.data"
else
	for i in 29 30 31; do echo "ok $i # SKIP no pmukit record in this build"; done
fi
[ "$T_FAIL" = 0 ]
