#!/bin/sh
# stat_shapes.sh — `pmukit stat` against perf 6.1 on this machine's software
# events (TAP): for each option set, both commands run the same workload and
# their outputs must have the same line shapes (numbers, thousands separators,
# run-dependent K/M/G rate prefixes and space runs normalised). Needs perf and
# permission to count (system-wide cases need paranoid <= 0 or root); cases
# perf cannot run here are reported as passing with a note.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
O=$T_TMP/shape

# One line shape: numbers -> N, "K/sec" -> X/sec, "<not counted>" kept; a text
# line's -r noise is dropped (perf leaves it out when it is 0, as for equal runs).
shape() {
	sed -E -e 's/[0-9][0-9,]*(\.[0-9]+)?(e[-+][0-9]+)?/N/g' \
		-e 's/[KMG]?\/sec/X\/sec/g' -e 's/ +/ /g' -e 's/ +$//' \
		-e 's/ \( \+- N% \)$//' \
		-e 's/^# started on .*/# started on D/' \
		-e '/^ *$/d' "$1" | sort -u
}

can_perf() {	# can_perf ARGS... : perf can count this here
	command -v perf >/dev/null 2>&1 && perf stat "$@" >/dev/null 2>&1
}

# same NAME WORKLOAD -- STAT-ARGS : compare shapes of perf and pmukit
same() {
	name=$1; shift
	wl=$1; shift
	T_N=$((T_N + 1))
	# shellcheck disable=SC2086
	if ! can_perf "$@" $wl; then
		echo "ok $T_N - $name # perf cannot run it here"; return
	fi
	# shellcheck disable=SC2086
	perf stat "$@" $wl 2>"$O.p" >/dev/null
	# shellcheck disable=SC2086
	if ! "$PMUKIT" stat "$@" $wl 2>"$O.q" >/dev/null; then
		T_FAIL=$((T_FAIL + 1))
		echo "not ok $T_N - $name (pmukit failed)"; sed 's/^/# /' "$O.q" | head -10
		return
	fi
	shape "$O.p" > "$O.ps"; shape "$O.q" > "$O.qs"
	if diff "$O.ps" "$O.qs" > "$O.d"; then
		echo "ok $T_N - $name"
		return
	fi
	T_FAIL=$((T_FAIL + 1))
	echo "not ok $T_N - $name (shapes differ)"
	echo "# shapes differ for: $*"; sed 's/^/# /' "$O.d" | head -20
	echo "# perf:"; sed 's/^/#   /' "$O.p" | head -12
	echo "# pmukit:"; sed 's/^/#   /' "$O.q" | head -12
}

export PMUKIT
# A workload busy for 0.25 s: every -I interval has counts (a sleeping one may not)
SPIN=$T_TMP/spin
printf '#!/bin/sh\ns=$(date +%%s%%N)\nwhile [ $(( $(date +%%s%%N) - s )) -lt %s ]; do :; done\n' 250000000 > "$SPIN"
chmod +x "$SPIN"
echo "1..26"
EV=task-clock,page-faults,context-switches
same "text" "true" -e $EV
same "-x," "true" -x, -e $EV
same "-x with ';' and a group" "true" -x';' -e "{task-clock,page-faults}"
same "-j" "true" -j -e $EV
same "not supported, text" "true" -e task-clock,cycles
same "not supported, -x" "true" -x, -e task-clock,cycles
same "not supported, -j" "true" -j -e task-clock,cycles
same "-I text" "$SPIN" -I 100 -e task-clock,page-faults
same "-I -x" "$SPIN" -I 100 -x, -e task-clock,page-faults
same "-I -j" "$SPIN" -I 100 -j -e task-clock,page-faults
same "-r 3 text" "true" -r 3 -e task-clock,page-faults
same "-r 3 -x" "true" -r 3 -x, -e page-faults
same "-r 3 -j" "true" -r 3 -j -e task-clock
same "-a" "sleep 0.05" -a -e cpu-clock,page-faults
same "-a -A" "sleep 0.05" -a -A -e cpu-clock,page-faults
same "-a -A -x" "sleep 0.05" -a -A -x, -e cpu-clock,page-faults
same "-a -A -j" "sleep 0.05" -a -A -j -e cpu-clock
same "-a --per-core" "sleep 0.05" -a --per-core -e cpu-clock,page-faults
same "-a --per-core -x" "sleep 0.05" -a --per-core -x, -e cpu-clock
same "-a --per-socket -j" "sleep 0.05" -a --per-socket -j -e cpu-clock
same "-a --per-socket -I" "sleep 0.12" -a --per-socket -I 50 -e cpu-clock
same "-C 0" "sleep 0.05" -C 0 -e cpu-clock
same "-a, the default events" "sleep 0.05" -a
same "-a -A with a tool event (duration_time once)" "sleep 0.05" -a -A -e cpu-clock,duration_time
same "-a -A -I -x" "sleep 0.12" -a -A -I 50 -x, -e cpu-clock
# -p: a task that runs all along (a sleeping one may not run in the window)
sh -c 'while :; do :; done' & BUSY=$!
same "-p" "sleep 0.05" -p $BUSY -e task-clock
kill $BUSY
[ "$T_FAIL" = 0 ]
