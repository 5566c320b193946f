# perf_rec.sh — what the tests comparing pmukit with perf 6.1 on recordings share (sourced
# after tap.sh, once PLAN is set): skip_all, the check that perf 6.1 can record here, rec.

skip_all() {	# skip_all REASON — every planned test skipped, then exit
	i=0; while [ $i -lt "$PLAN" ]; do i=$((i + 1)); echo "ok $i - ${0##*/} # SKIP $1"; done
	exit 0
}

perf_rec_check() {	# perf_rec_check PROGRAM... — skip all unless perf 6.1 samples cpu-clock here
	command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 ||
		skip_all "perf (6.1) is not installed"
	for p in "$@"; do [ -x "$p" ] || skip_all "$p not built (make tests)"; done
	perf record -q -e cpu-clock -c 100000 -o "$T_TMP/probe.data" true >/dev/null 2>&1 ||
		skip_all "perf record cannot sample cpu-clock here"
}

rec() {	# rec NAME PERF-RECORD-ARGS... -- recorded into $T_TMP/NAME.data
	name=$1; shift
	perf record -q -o "$T_TMP/$name.data" "$@" >/dev/null 2>"$T_TMP/$name.rec" || {
		echo "# perf record $*: $(tail -1 "$T_TMP/$name.rec")"; rm -f "$T_TMP/$name.data"; }
}
