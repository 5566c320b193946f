#!/bin/sh
# record.sh — `pmukit record` judged by perf 6.1 (TAP). Every file pmukit
# writes — cpu-clock, task-clock, page-faults and sched:sched_switch (raw
# tracepoint data), each with and without -g; -a; -p; a pipe; -z; a group —
# must be read by `perf report --stdio` and `perf script` with exit 0 and
# nothing on stderr, and perf script must print as many samples as pmukit
# said it wrote. `perf report --header-only` shows the feature sections,
# `perf buildid-list` the workload's build-id. Side by side with perf record
# on the same deterministic workload (tests/workloads/callchain.c, frame
# pointers) and period, the top-10 symbols' overheads agree within 2 points.
# Endings: SIGINT and SIGTERM (-a and a workload), a workload killed, its
# exit status, an exec failure, FILE -> FILE.old, a full disk (tmpfs in a
# private mount namespace), lost samples reported.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
B=${PMUKIT_BUILD:-build}
W=$B/workloads/callchain

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
echo "1..68"

# samples pmukit said it wrote (its summary on stderr)
said() { sed -n 's/.*(\([0-9]*\) samples) \]$/\1/p' "$1" | tail -1; }

# judge NAME FILE NSAMPLES [EVENT]: perf report and perf script read FILE cleanly (3 tests);
# perf script prints NSAMPLES samples (of EVENT: a group's members get samples of their own)
judge() {
	name=$1 f=$2 n=$3 only=${4:-}
	T_N=$((T_N + 1))
	perf report --stdio -i "$f" > "$T_TMP/rep.out" 2> "$T_TMP/rep.err"
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$T_TMP/rep.err" ] && grep -q '^# Samples' "$T_TMP/rep.out"; then
		echo "ok $T_N - $name: perf report reads it (exit 0, empty stderr)"
	else
		echo "not ok $T_N - $name: perf report reads it (exit $rc)"
		sed 's/^/# /' "$T_TMP/rep.err" | head -5
	fi
	T_N=$((T_N + 1))
	perf script -i "$f" > "$T_TMP/scr.out" 2> "$T_TMP/scr.err"
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$T_TMP/scr.err" ]; then
		echo "ok $T_N - $name: perf script reads it (exit 0, empty stderr)"
	else
		echo "not ok $T_N - $name: perf script reads it (exit $rc)"
		sed 's/^/# /' "$T_TMP/scr.err" | head -5
	fi
	T_N=$((T_N + 1))
	if [ -n "$only" ]; then
		got=$(perf script -i "$f" -G -F event 2>/dev/null | grep -c "^ *$only:")
	else
		got=$(perf script -i "$f" -G -F comm,tid 2>/dev/null | wc -l)
	fi
	if [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$got" = "$n" ]; then
		echo "ok $T_N - $name: perf script prints the $n samples pmukit wrote"
	else
		echo "not ok $T_N - $name: perf script prints $got samples, pmukit said '$n'"
	fi
}

# --- events x call graphs, a workload -----------------------------------------------------
for ev in cpu-clock task-clock page-faults sched:sched_switch; do
	for g in "" "-g"; do
		f=$T_TMP/m.data
		rm -f "$f"
		# shellcheck disable=SC2086
		"$PMUKIT" record -o "$f" -e $ev $g -- sh -c "$W 150; $W 150" 2> "$T_TMP/rec.err"
		judge "$ev $g" "$f" "$(said "$T_TMP/rec.err")"
	done
done
# the tracepoint's raw data: its fields decoded
T_N=$((T_N + 1))
"$PMUKIT" record -q -o "$T_TMP/tp.data" -e sched:sched_switch -- sh -c "$W 100; sleep 0.01"
if perf script -i "$T_TMP/tp.data" 2>/dev/null | grep -q 'prev_comm=.*next_comm='; then
	echo "ok $T_N - sched:sched_switch: perf script decodes the raw tracepoint fields"
else
	echo "not ok $T_N - sched:sched_switch: perf script decodes the raw tracepoint fields"
fi

# --- targets: -a (SIGINT), -p ----------------------------------------------------------------
for g in "" "-g"; do
	f=$T_TMP/a.data
	# shellcheck disable=SC2086
	"$PMUKIT" record -o "$f" -a -e cpu-clock $g 2> "$T_TMP/rec.err" &
	pid=$!
	"$W" 200
	kill -INT $pid
	wait $pid
	judge "-a $g (SIGINT)" "$f" "$(said "$T_TMP/rec.err")"
done
"$W" 3000 &
wpid=$!
sleep 0.1
"$PMUKIT" record -o "$T_TMP/p.data" -p $wpid -e cpu-clock -g 2> "$T_TMP/rec.err"
wait $wpid
judge "-p (until it exits)" "$T_TMP/p.data" "$(said "$T_TMP/rec.err")"
T_N=$((T_N + 1))
if perf report --stdio -i "$T_TMP/p.data" --sort comm,dso 2>/dev/null | grep -q 'callchain  *callchain'; then
	echo "ok $T_N - -p: the running process's maps were synthesized (its DSO resolves)"
else
	echo "not ok $T_N - -p: the running process's maps were synthesized (its DSO resolves)"
fi

# --- a pipe ------------------------------------------------------------------------------------
"$PMUKIT" record -o - -e cpu-clock -g -- "$W" 300 2> "$T_TMP/pipe.err" |
	perf report -i - --stdio > "$T_TMP/pr.out" 2> "$T_TMP/pr.err"
T_N=$((T_N + 1))
if [ -s "$T_TMP/pr.out" ] && grep -q 'leaf_12' "$T_TMP/pr.out" && [ ! -s "$T_TMP/pr.err" ]; then
	echo "ok $T_N - -o - | perf report -i -: read, symbols resolved, empty stderr"
else
	echo "not ok $T_N - -o - | perf report -i -"
	sed 's/^/# /' "$T_TMP/pr.err" | head -5
fi
"$PMUKIT" record -o - -e cpu-clock -- "$W" 300 2> "$T_TMP/pipe.err" |
	perf script -i - -G -F comm,tid > "$T_TMP/ps.out" 2> "$T_TMP/ps.err"
n=$(said "$T_TMP/pipe.err")
T_N=$((T_N + 1))
if [ -n "$n" ] && [ "$(wc -l < "$T_TMP/ps.out")" = "$n" ] && [ ! -s "$T_TMP/ps.err" ]; then
	echo "ok $T_N - -o - | perf script -i -: the $n samples pmukit wrote"
else
	echo "not ok $T_N - -o - | perf script -i -: $(wc -l < "$T_TMP/ps.out") samples, pmukit said '$n'"
	sed 's/^/# /' "$T_TMP/ps.err" | head -5
fi

# --- -z ----------------------------------------------------------------------------------------
"$PMUKIT" record -o "$T_TMP/z.data" -z -e cpu-clock -g -- "$W" 300 2> "$T_TMP/rec.err"
judge "-z" "$T_TMP/z.data" "$(said "$T_TMP/rec.err")"
T_N=$((T_N + 1))
if perf report --header-only -i "$T_TMP/z.data" 2>/dev/null | grep -q '^# compressed : Zstd'; then
	echo "ok $T_N - -z: the COMPRESSED feature (Zstd)"
else
	echo "not ok $T_N - -z: the COMPRESSED feature (Zstd)"
fi

# --- a group read by its leader's samples ------------------------------------------------------
"$PMUKIT" record -o "$T_TMP/g.data" -e '{cpu-clock,page-faults}:S' -- "$W" 300 2> "$T_TMP/rec.err"
judge "{cpu-clock,page-faults}:S" "$T_TMP/g.data" "$(said "$T_TMP/rec.err")" cpu-clock

# --- the header's features ---------------------------------------------------------------------
perf report --header-only -i "$T_TMP/g.data" > "$T_TMP/hdr" 2>&1
for feat in "hostname :" "os release :" "perf version :" "arch :" "nrcpus online :" \
	"cpudesc :" "cpuid :" "total memory :" "cmdline :" "event : name = cpu-clock" \
	"CPU_TOPOLOGY info available" "NUMA_TOPOLOGY info available" "pmu mappings:" \
	"group: {cpu-clock,page-faults}"; do
	T_N=$((T_N + 1))
	if grep -qF "# $feat" "$T_TMP/hdr"; then
		echo "ok $T_N - header-only shows '$feat'"
	else
		echo "not ok $T_N - header-only shows '$feat'"
	fi
done
T_N=$((T_N + 1))
bid=$(readelf -n "$W" 2>/dev/null | sed -n 's/.*Build ID: *//p')
if [ -n "$bid" ] && perf buildid-list -i "$T_TMP/g.data" 2>/dev/null | grep -q "^$bid .*callchain$"; then
	echo "ok $T_N - BUILD_ID: the workload's build-id ($bid)"
else
	echo "not ok $T_N - BUILD_ID: the workload's build-id ($bid)"
	perf buildid-list -i "$T_TMP/g.data" 2>&1 | sed 's/^/# /' | head -5
fi

# --- side by side with perf record ---------------------------------------------------------------
perf record -q -o "$T_TMP/perf.data" -e cpu-clock -c 100000 -- "$W" >/dev/null 2>&1
"$PMUKIT" record -q -o "$T_TMP/pk.data" -e cpu-clock -c 100000 -- "$W"
perf report --stdio -i "$T_TMP/perf.data" --sort sym 2>/dev/null | grep -v '^#' | grep . | head -10 > "$T_TMP/top.perf"
perf report --stdio -i "$T_TMP/pk.data" --sort sym 2>/dev/null | grep -v '^#' | grep . > "$T_TMP/top.pk"
T_N=$((T_N + 1))
if [ "$(wc -l < "$T_TMP/top.perf")" = 10 ] && perl -e '
	my %pk; open my $f, "<", $ARGV[1] or die;
	while (<$f>) { $pk{$2} = $1 if /^\s*([\d.]+)%\s+\[.\]\s+(\S+)/ }
	open my $g, "<", $ARGV[0] or die; my $bad = 0;
	while (<$g>) {
		next unless /^\s*([\d.]+)%\s+\[.\]\s+(\S+)/;
		my $d = abs($1 - ($pk{$2} // 0));
		printf "# %-10s perf %6.2f%%  pmukit %6.2f%%\n", $2, $1, $pk{$2} // 0;
		$bad = 1 if $d > 2;
	}
	exit $bad' "$T_TMP/top.perf" "$T_TMP/top.pk" > "$T_TMP/cmp"; then
	echo "ok $T_N - side by side with perf record -e cpu-clock -c 100000: top-10 within 2 points"
else
	echo "not ok $T_N - side by side with perf record: top-10 within 2 points"
fi
cat "$T_TMP/cmp"

# --- endings ---------------------------------------------------------------------------------------
"$PMUKIT" record -o "$T_TMP/t.data" -a -e cpu-clock 2> "$T_TMP/rec.err" &
pid=$!
"$W" 100
kill -TERM $pid
wait $pid
rc=$?
T_N=$((T_N + 1))
if [ $rc = 143 ] && grep -q 'Captured and wrote' "$T_TMP/rec.err" && perf report --stdio -i "$T_TMP/t.data" >/dev/null 2>&1; then
	echo "ok $T_N - -a ended by SIGTERM: summary, a readable file, then dies of it as perf (143)"
else
	echo "not ok $T_N - -a ended by SIGTERM (exit $rc)"
fi
# SIGTERM to pmukit alone while its workload runs: the workload is ended, the file complete
"$PMUKIT" record -o "$T_TMP/w.data" -e cpu-clock -- "$W" 100000 2> "$T_TMP/rec.err" &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
rc=$?
n=$(said "$T_TMP/rec.err")
T_N=$((T_N + 1))
if [ "$rc" = 143 ] && [ -n "$n" ] && [ "$(perf script -i "$T_TMP/w.data" -G -F comm,tid 2>/dev/null | wc -l)" = "$n" ]; then
	echo "ok $T_N - SIGTERM during a workload: it is ended (exit 143), the file has its $n samples"
else
	echo "not ok $T_N - SIGTERM during a workload: exit $rc, samples '$n'"
	sed 's/^/# /' "$T_TMP/rec.err" | head -5
fi
"$PMUKIT" record -o "$T_TMP/k.data" -e cpu-clock -- sh -c "$W 100; kill -KILL \$\$" 2> "$T_TMP/rec.err"
rc=$?
T_N=$((T_N + 1))
if [ $rc = 137 ] && grep -q 'Captured and wrote' "$T_TMP/rec.err" && judge_quiet=$(perf report --stdio -i "$T_TMP/k.data" 2>&1 >/dev/null) && [ -z "$judge_quiet" ]; then
	echo "ok $T_N - a workload killed by SIGKILL: exit 137, a complete file"
else
	echo "not ok $T_N - a workload killed by SIGKILL: exit $rc"
fi
"$PMUKIT" record -q -o "$T_TMP/e.data" -e cpu-clock -- sh -c 'exit 3'
rc=$?
T_N=$((T_N + 1))
[ $rc = 3 ] && echo "ok $T_N - exit status 3 returned" || echo "not ok $T_N - exit status: $rc, not 3"
"$PMUKIT" record -q -o "$T_TMP/x.data" -e cpu-clock -- /nonexistent/cmd 2> "$T_TMP/x.err"
rc=$?
T_N=$((T_N + 1))
if [ $rc = 127 ] && grep -q 'No such file' "$T_TMP/x.err"; then
	echo "ok $T_N - an exec failure: exit 127 and why"
else
	echo "not ok $T_N - an exec failure: exit $rc"
fi
# an existing FILE becomes FILE.old
echo previous > "$T_TMP/o.data"
"$PMUKIT" record -q -o "$T_TMP/o.data" -e cpu-clock -- true
T_N=$((T_N + 1))
if [ "$(cat "$T_TMP/o.data.old")" = previous ] && perf report --stdio -i "$T_TMP/o.data" >/dev/null 2>&1; then
	echo "ok $T_N - -o over an existing file renames it FILE.old"
else
	echo "not ok $T_N - -o over an existing file renames it FILE.old"
fi
# lost records: a one-page buffer at 100 kHz with call chains
"$PMUKIT" record -o "$T_TMP/l.data" -m 1 -e cpu-clock -c 10000 -g -- "$W" 300 2> "$T_TMP/rec.err"
T_N=$((T_N + 1))
lost=$(sed -n 's/^pmukit record: \([0-9]*\) samples lost in \([0-9]*\) chunks.*/\2/p' "$T_TMP/rec.err")
plost=$(perf report -i "$T_TMP/l.data" --stats 2>/dev/null | sed -n 's/^ *LOST events: *\([0-9]*\).*/\1/p')
if [ -n "$lost" ] && [ "$lost" = "$plost" ]; then
	echo "ok $T_N - lost records reported ($lost), as many as perf counts in the file"
else
	echo "not ok $T_N - lost records: pmukit '$lost', perf '$plost'"
fi

# --- a full disk: a 192 KiB tmpfs in a private mount namespace --------------------------------------
T_N=$((T_N + 1))
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	mkdir -p "$T_TMP/small"
	unshare -m sh -c "mount --make-rprivate / && mount -t tmpfs -o size=192k tmpfs '$T_TMP/small' &&
		'$PMUKIT' record -o '$T_TMP/small/f.data' -e cpu-clock -c 20000 -g -- '$W' 1000 2> '$T_TMP/nospc.err';
		echo \$? > '$T_TMP/nospc.rc';
		perf report --stdio -i '$T_TMP/small/f.data' > '$T_TMP/nospc.rep' 2>&1; echo \$? > '$T_TMP/nospc.prc'"
	if [ "$(cat "$T_TMP/nospc.rc")" != 0 ] && grep -q 'No space left on device' "$T_TMP/nospc.err" &&
	   [ "$(cat "$T_TMP/nospc.prc")" = 0 ] && grep -q '^# Samples' "$T_TMP/nospc.rep"; then
		echo "ok $T_N - disk full: non-zero exit, a clear message, perf reads what was written"
	else
		echo "not ok $T_N - disk full: exit $(cat "$T_TMP/nospc.rc"), perf report $(cat "$T_TMP/nospc.prc")"
		sed 's/^/# /' "$T_TMP/nospc.err" "$T_TMP/nospc.rep" | head -8
	fi
else
	echo "ok $T_N # SKIP disk full: needs root and unshare -m"
fi
exit 0
