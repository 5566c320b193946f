#!/bin/sh
# bench/run.sh — run every benchmark and the command-level measurements, printing
# `name value` lines. Ratios compare pmukit with perf measured in this same run.
# Env: PMUKIT_BUILD (build dir), PMU_EVENTS_DIR (the arch/ tree).
set -u
B=${PMUKIT_BUILD:-build}
ARCH=${PMU_EVENTS_DIR:-build/arch}
for b in "$@"; do "$b" "$B" "$ARCH" || echo "bench_failed $(basename "$b")"; done

# median wall time in ms of N runs of a command
median_ms() {
	n=$1; shift
	i=0
	while [ $i -lt "$n" ]; do
		s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
		echo $(( (e - s) / 1000 ))
		i=$((i + 1))
	done | sort -n | awk '{a[NR]=$1} END {printf "%.3f\n", a[int((NR+1)/2)]/1000}'
}

# eventc over every arch, and its object's text size
echo "eventc_all_ms $(median_ms 5 "$B/eventc" -o /tmp/pmukit-bench-events.c "$ARCH")"
echo "tables_text_bytes $(size "$B/pmu-events.o" | awk 'NR==2 {print $1}')"
echo "tables_image_bytes $("$B/eventc" --image /dev/stdout "$ARCH" | wc -c)"
if [ -f build/perf-py/jevents.py ] && command -v python3 >/dev/null; then
	s=$(date +%s%N)
	python3 build/perf-py/jevents.py all all "$ARCH" /tmp/pmukit-bench-jevents.c >/dev/null 2>&1 && {
		e=$(date +%s%N)
		echo "jevents_py_all_ms $(( (e - s) / 1000000 ))"
	}
fi

# list: pmukit vs perf for the same CPU model, listing the same things: both see
# the fake Skylake-SP PMU tree (so perf lists the core events too, as on that
# machine) and this machine's tracepoints. perf needs the tree bind-mounted in a
# private mount namespace (root); without that, perf lists no core events and
# the comparison is marked unequal. Times from perf stat -r (wall and CPU).
stat_ms() {	# stat_ms N CMD... -> "wall_ms cpu_ms"
	n=$1; shift
	perf stat -r "$n" -e task-clock "$@" 2>&1 >/dev/null |
		awk '/task-clock/ {cpu=$1} /seconds time elapsed/ {wall=$1*1000} END {printf "%.3f %.3f\n", wall, cpu}'
}
FX=${PMUKIT_SRC:-.}/tests/fixtures/sysfs/x86-skl
if command -v perf >/dev/null; then
	if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
		p=$(unshare -m sh -c "mount --make-rprivate / 2>/dev/null; mount --bind '$FX' /sys/bus/event_source/devices &&
			PERF_CPUID=GenuineIntel-6-55-4 perf stat -r 11 -e task-clock perf list 2>&1 >/dev/null" |
			awk '/task-clock/ {cpu=$1} /seconds time elapsed/ {wall=$1*1000} END {printf "%.3f %.3f\n", wall, cpu}')
		echo "list_compare same_tree"
	else
		p=$(PERF_CPUID=GenuineIntel-6-55-4 stat_ms 11 perf list)
		echo "list_compare unequal_perf_lists_no_core_events"
	fi
	k=$(stat_ms 11 "$B/pmukit" list --sysfs "$FX" --cpuid GenuineIntel-6-55-4)
	set -- $p $k
	echo "perf_list_ms $1"
	echo "pmukit_list_ms $3"
	echo "list_ratio $(awk -v a="$3" -v b="$1" 'BEGIN {printf "%.3f", a / b}')"
	echo "perf_list_cpu_ms $2"
	echo "pmukit_list_cpu_ms $4"
	echo "list_cpu_ratio $(awk -v a="$4" -v b="$2" 'BEGIN {printf "%.3f", a / b}')"
	e=$(stat_ms 11 "$B/pmukit" explain --cpuid skylake -e l1d.replacement)
	t=$(stat_ms 11 /bin/true)
	echo "explain_startup_ms ${e%% *}"
	echo "true_startup_ms ${t%% *}"
fi

# stat --counts: time over the number of distinct events (linear: the 40k/5k ratio near 8)
counts_file() {	# counts_file N FILE: N distinct events as perf stat -j writes them
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
		printf "{\"counter-value\" : \"%d\", \"unit\" : \"\", \"event\" : \"ev%d\", \"event-runtime\" : 100, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n", 1000 + i, i }' > "$2"
}
counts_file 5000 /tmp/pmukit-bench-c5k.json
counts_file 40000 /tmp/pmukit-bench-c40k.json
c5=$(median_ms 3 "$B/pmukit" stat --counts /tmp/pmukit-bench-c5k.json)
c40=$(median_ms 3 "$B/pmukit" stat --counts /tmp/pmukit-bench-c40k.json)
echo "stat_counts_5k_events_ms $c5"
echo "stat_counts_40k_events_ms $c40"
echo "stat_counts_40k_over_5k $(awk -v a="$c40" -v b="$c5" 'BEGIN {printf "%.2f", a / b}')"
rm -f /tmp/pmukit-bench-c5k.json /tmp/pmukit-bench-c40k.json
