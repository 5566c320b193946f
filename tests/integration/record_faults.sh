#!/bin/sh
# record_faults.sh — pmukit record under faults (TAP): killed with SIGKILL at ten
# moments, stopped by SIGINT and SIGTERM, writing to a full tmpfs, recording a
# task that exits mid-recording. Each time the file it leaves is read by perf
# 6.1 and by pmukit, and `pmukit script` prints what `perf script` prints (the
# same exit status too); a file killed after half a second holds samples.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
B=$(cd "${PMUKIT_BUILD:-build}" && pwd)
PMUKIT="$B/pmukit"
W="$B/tests/workloads/report_many"
MOMENTS="0.02 0.05 0.1 0.2 0.3 0.5 0.7 1.0 1.5 2.0"
PLAN=16
echo "1..$PLAN"
skip_all() {
	i=0; while [ $i -lt $PLAN ]; do i=$((i + 1)); echo "ok $i - record faults # SKIP $1"; done
	exit 0
}
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 || skip_all "perf (6.1) is not installed"
[ -x "$W" ] || skip_all "$W not built (make tests)"
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/probe.data" true >/dev/null 2>&1 ||
	skip_all "perf record cannot sample cpu-clock here"

# same_reading FILE [MIN-SAMPLES] — perf script and pmukit script print the same for FILE and
# exit alike; with MIN-SAMPLES, at least that many sample lines
same_reading() {
	perf script -i "$1" -F comm,tid,time,ip,sym > "$T_TMP/perf.out" 2>"$T_TMP/perf.err"
	rp=$?
	"$PMUKIT" script -i "$1" -F comm,tid,time,ip,sym > "$T_TMP/pmukit.out" 2>"$T_TMP/pmukit.err"
	rk=$?
	[ $rp = $rk ] || { echo "exit status: perf $rp, pmukit $rk" >&2; cat "$T_TMP/pmukit.err" >&2; return 1; }
	diff "$T_TMP/perf.out" "$T_TMP/pmukit.out" > "$T_TMP/diff" ||
		{ echo "$(grep -c '^[<>]' "$T_TMP/diff") lines differ:" >&2; head -20 "$T_TMP/diff" >&2; return 1; }
	[ -z "$2" ] && return 0
	n=$(grep -cE "^ *(rm-0|report_many) " "$T_TMP/perf.out")
	[ "$n" -ge "$2" ] || { echo "$n samples of the workload, wanted $2 or more" >&2; return 1; }
}

# SIGKILL: pmukit record and its workload as one process group, killed at once (as the OOM
# killer or a closed terminal would)
i=0
for t in $MOMENTS; do
	i=$((i + 1))
	f="$T_TMP/kill$i.data"
	min=
	case $t in 0.5|0.7|1.0|1.5|2.0) min=1 ;; esac
	setsid "$PMUKIT" record -q -e cpu-clock -c 100000 -g -o "$f" "$W" 100000 >/dev/null 2>&1 &
	pid=$!
	sleep "$t"
	# a loaded machine (or the sanitizer build) may not have written a sample yet at the
	# moments that want some (here 0.5 s holds ~2,500): those wait up to 10 s for 64 KiB
	n=0
	while [ -n "$min" ] && [ $n -lt 100 ] && [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" -lt 65536 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -9 -- "-$pid" 2>/dev/null || kill -9 "$pid"
	wait "$pid" 2>/dev/null
	if [ -e "$f" ]; then
		ok "kill -9 after ${t}s: perf and pmukit read the same samples${min:+ (some)}" same_reading "$f" $min
	else
		ok "kill -9 after ${t}s: no file yet" true
	fi
done

# SIGINT and SIGTERM to pmukit alone: it stops the workload, finishes the file and exits 0
for sig in INT TERM; do
	f="$T_TMP/sig$sig.data"
	"$PMUKIT" record -q -e cpu-clock -c 100000 -g -o "$f" "$W" 100000 >/dev/null 2>"$T_TMP/rec.err" &
	pid=$!
	sleep 0.6
	kill -s $sig "$pid"
	wait "$pid" 2>/dev/null	# (perf too ends by the signal, raised again once the file is done)
	ok "SIG$sig: perf and pmukit read the same samples" same_reading "$f" 10
done

# a full disk: a 512 KiB tmpfs in a private mount namespace. pmukit says why it stopped, exits
# non-zero, and what it wrote reads the same with both tools.
full_disk() {
	unshare -m sh -c "
		mkdir -p '$T_TMP/full' && mount -t tmpfs -o size=512k none '$T_TMP/full' || exit 77
		'$PMUKIT' record -e cpu-clock -c 20000 -g -o '$T_TMP/full/f.data' '$W' 20000 \
			>/dev/null 2>'$T_TMP/full.err'
		echo \$? > '$T_TMP/full.rc'
		cp '$T_TMP/full/f.data' '$T_TMP/full.data' 2>/dev/null; true"
}
if full_disk && [ -f "$T_TMP/full.rc" ]; then
	ok "full disk: a non-zero exit status and the reason" sh -c "
		[ \$(cat '$T_TMP/full.rc') != 0 ] && grep -q 'No space left on device' '$T_TMP/full.err' ||
		{ cat '$T_TMP/full.err' >&2; false; }"
	ok "full disk: what was written reads the same with both tools" same_reading "$T_TMP/full.data"
else
	ok "full disk # SKIP no private tmpfs here (unshare -m, mount)" true
	ok "full disk # SKIP no private tmpfs here (unshare -m, mount)" true
fi

# -p: the task exits mid-recording; record ends with it, exit 0
"$W" 20000 >/dev/null &
target=$!
sleep 0.1
ok "-p: a task that exits mid-recording ends the recording" \
	"$PMUKIT" record -q -e cpu-clock -c 100000 -g -p "$target" -o "$T_TMP/gone.data"
ok "-p: perf and pmukit read the same samples" same_reading "$T_TMP/gone.data" 1
[ $T_FAIL -eq 0 ]
