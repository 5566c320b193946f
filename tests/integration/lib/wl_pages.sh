# tests/integration/lib/wl_pages.sh — what the flame graph and export scripts share (sourced
# after tap.sh): the script_wl workload built and recorded by perf 6.1 (or the whole script
# skipped, with the reason), and a headless Chromium run.

# record_wl_or_skip: $W built from script_wl.c, perf's -g cpu-clock recording of it in
# $T_TMP/g.data; prints the TAP skip line and exits when either cannot be done here
record_wl_or_skip() {
	W="$T_TMP/wl"
	cc -O2 -g -fno-omit-frame-pointer -o "$W" "$SRC/tests/integration/script_wl.c" 2>/dev/null ||
		{ echo "1..0 # SKIP the workload does not build"; exit 0; }
	if ! perf record -q -e cpu-clock -c 100000 -g -o "$T_TMP/g.data" "$W" 300 >/dev/null \
		2>"$T_TMP/rec.err"; then
		echo "1..0 # SKIP perf record cannot sample cpu-clock here: $(tail -1 "$T_TMP/rec.err")"
		exit 0
	fi
}

# chrome OUT ARGS... — $CHROMIUM headless, a fresh profile, no network services; the window
# CHROME_SIZE (default 1200,700), the virtual time BUDGET ms (default 10000)
run=0
chrome() {
	out=$1; shift
	run=$((run + 1))
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-extensions --run-all-compositor-stages-before-draw --virtual-time-budget=${BUDGET:-10000} \
		--user-data-dir="$T_TMP/profile$run" --window-size=${CHROME_SIZE:-1200,700} "$@" \
		>"$out" 2>"$T_TMP/chrome$run.err"
}
