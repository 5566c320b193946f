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

# list: pmukit vs perf for the same CPU model, same machine, same run
if command -v perf >/dev/null; then
	p=$(PERF_CPUID=GenuineIntel-6-55-4 median_ms 11 perf list)
	k=$(median_ms 11 "$B/pmukit" list --cpuid GenuineIntel-6-55-4)
	echo "perf_list_ms $p"
	echo "pmukit_list_ms $k"
	echo "list_ratio $(awk -v a="$k" -v b="$p" 'BEGIN {printf "%.3f", a / b}')"
fi
