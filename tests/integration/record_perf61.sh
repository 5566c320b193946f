#!/bin/sh
# record_perf61.sh — what `pmukit record` writes where perf 6.1 writes it so (TAP),
# judged by perf itself on both files:
# - the forked workload's COMM "perf-exec", synthesized before exec, so that
#   samples taken before exec have a name (perf script --show-task-events);
# - system-wide (-a) recordings do not sample pmukit's own reads of tracefs,
#   sysfs and caches (the header's facts are read before the events start);
# - on a machine without a hardware PMU, cycles fall back to cpu-clock as
#   perf's do: same exit status, same `perf evlist -v`, the note only with -v;
# - a recorder killed with SIGKILL leaves a file perf and pmukit read, with
#   the samples the kernel handed over (nothing held back in pmukit's memory).
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"

if ! command -v perf >/dev/null 2>&1 || ! perf --version 2>/dev/null | grep -q "^perf version 6\.1\."; then
	echo "1..0 # SKIP perf 6.1 not installed"
	exit 0
fi
if ! "$PMUKIT" record -q -o "$T_TMP/probe.data" -e cpu-clock true >/dev/null 2>&1; then
	echo "1..0 # SKIP pmukit record cannot sample here (perf_event_open refused)"
	exit 0
fi
NOPMU=1
for p in cpu cpu_core cpu_atom armv8_pmuv3 armv8_pmuv3_0; do
	[ -e "/sys/bus/event_source/devices/$p" ] && NOPMU=
done
echo "1..14"
cd "$T_TMP" || exit 1

# --- perf-exec ---------------------------------------------------------------------------
# the first task event of each file, pids made N
first_task() { perf script -i "$1" --show-task-events 2>/dev/null | grep -m1 PERF_RECORD_ |
	sed 's/[0-9][0-9]*/N/g; s/  */ /g'; }
perf record -q -o p.data -e cpu-clock -c 10000 -- true 2>/dev/null
"$PMUKIT" record -q -o k.data -e cpu-clock -c 10000 -- true 2>/dev/null
first_task p.data > p.first
first_task k.data > k.first
ok "the workload's COMM perf-exec comes first, as perf's" sh -c \
	'grep -q "PERF_RECORD_COMM: perf-exec:N/N" k.first && cmp p.first k.first'
ok "samples before exec are perf-exec's, not :PID" sh -c \
	'! perf script -i k.data -F comm 2>/dev/null | grep -q "^ *:[0-9]"'

# --- -a does not sample pmukit itself ----------------------------------------------------
# (other pmukit processes may run meanwhile: count the recorder's pid)
"$PMUKIT" record -q -o tp.data -e syscalls:sys_enter_openat -a -- sleep 0.3 2>/dev/null &
me=$!
wait $me
perf script -i tp.data -F pid 2>/dev/null | grep -cw "$me" > self.n
ok "-a -e syscalls:sys_enter_openat: at most 1 sample of the recorder itself (perf: 1)" \
	sh -c '[ "$(cat self.n)" -le 1 ]'

# --- cycles without a hardware PMU -------------------------------------------------------
# same NAME ARGS...: same exit status, and perf evlist -v prints the same of both files
same() {
	name=$1; shift
	rm -f p.data k.data
	perf record -q -o p.data "$@" -- true > /dev/null 2> p.err; prc=$?
	"$PMUKIT" record -q -o k.data "$@" -- true > /dev/null 2> k.err; krc=$?
	perf evlist -v -i p.data > p.ev 2>&1
	perf evlist -v -i k.data > k.ev 2>&1
	ok "$name: exit $prc as perf's, perf evlist -v the same" sh -c \
		"[ $prc = $krc ] && cmp p.ev k.ev || { diff p.ev k.ev; cat k.err; false; } >&2"
}
if [ -n "$NOPMU" ]; then
	same "the default event (cpu-clock:ppp after the fallback)"
	same "-e cycles" -e cycles
	same "-e cycles:u" -e cycles:u
	same "-e cycles:k" -e cycles:k
	same "-e {cycles,cpu-clock}" -e '{cycles,cpu-clock}'
	same "-e cpu-cycles -c 10000" -e cpu-cycles -c 10000
	"$PMUKIT" record -q -o k.data -e cycles -- true > /dev/null 2> k.err
	ok "no fallback note without -v (perf prints none)" sh -c '! [ -s k.err ]'
	perf record -v -o p.data -e cycles -- true 2>&1 | grep -A1 '^Warning:' > p.warn
	"$PMUKIT" record -v -q -o k.data -e cycles -- true 2>&1 | grep -A1 '^Warning:' > k.warn
	ok "-v: perf's fallback note" sh -c '[ -s p.warn ] && cmp p.warn k.warn'
else
	for i in 1 2 3 4 5 6 7 8; do
		T_N=$((T_N + 1)); echo "ok $T_N # SKIP a hardware PMU here: no fallback"
	done
fi

# --- kill -9 -----------------------------------------------------------------------------
# (a small ring, -m 4: the kernel wakes the recorder every 8 KiB, so that most is on disk)
"$PMUKIT" record -m 4 -o kill.data -e cpu-clock -c 100000 -- sh -c 'while :; do :; done' \
	> /dev/null 2>&1 &
rp=$!
sleep 2
ch=$(ps -o pid= --ppid $rp)
kill -9 $rp
wait $rp 2>/dev/null
[ -n "$ch" ] && kill -9 $ch
perf script -i kill.data -F comm > kill.scr 2> kill.err
ok "kill -9: perf script reads the samples written (exit 0)" sh -c \
	'[ "$(grep -c . kill.scr)" -gt 500 ] || { wc -l kill.scr; cat kill.err; false; } >&2'
ok "kill -9: perf report reads it" sh -c \
	'perf report --stdio -i kill.data 2>&1 | grep -q "^# Samples: [0-9]"'
ok "kill -9: pmukit report reads it" sh -c \
	"\"$PMUKIT\" report --stdio -i kill.data 2>&1 | grep -q '^# Samples: [0-9]'"
exit 0
