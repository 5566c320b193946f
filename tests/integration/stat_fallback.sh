#!/bin/sh
# stat_fallback.sh — events the kernel refuses, handled as perf 6.1 handles
# them: an attr a PMU refuses is retried as perf retries it (the msr PMU
# refuses exclude_guest with EINVAL; perf opens it again without and counts;
# lib/util/perf_open.c), and an event the machine lacks is <not supported>
# unless it leads a group of several, which fails the run (exit 255, perf's
# message).
. "$(dirname "$0")/lib/tap.sh"
echo "1..6"

if "$PMUKIT" stat -x, -e cycles true 2>&1 | grep -q "not supported"; then
	ok "a group led by an event the machine lacks fails the run: exit 255, perf's words" sh -c "
		'$PMUKIT' stat -e '{cycles,task-clock}' true 2>'$T_TMP/g'; [ \$? = 255 ] &&
		[ \"\$(cat '$T_TMP/g')\" = \"\$(printf 'Error:\\nThe cycles event is not supported.')\" ]"
	ok "... but a member or a lone event it lacks is <not supported>, exit 0" sh -c "
		'$PMUKIT' stat -x, -e '{task-clock,cycles},cycles' true 2>'$T_TMP/m' &&
		[ \$(grep -c '^<not supported>,,cycles,' '$T_TMP/m') = 2 ]"
	if command -v perf >/dev/null; then
		ok "... as perf 6.1 (same stderr, same exit status)" sh -c "
			perf stat -e '{cycles,task-clock}' true 2>'$T_TMP/pg'; pr=\$?
			'$PMUKIT' stat -e '{cycles,task-clock}' true 2>'$T_TMP/kg'; kr=\$?
			[ \$pr = \$kr ] && cmp '$T_TMP/pg' '$T_TMP/kg' >&2"
	else
		echo "ok 3 # SKIP perf not installed"
	fi
else
	for i in 1 2 3; do echo "ok $i # SKIP cycles can be counted here"; done
fi

MSR=/sys/bus/event_source/devices/msr
if [ ! -e "$MSR/events/tsc" ]; then
	for i in 4 5 6; do echo "ok $i # SKIP no msr PMU with a tsc event here"; done
	exit 0
fi

ok "msr/tsc/ is counted, not <not supported>" sh -c "
	'$PMUKIT' stat -x, -e msr/tsc/ true 2>'$T_TMP/t' &&
	grep -Eq '^[0-9]+,,msr/tsc/,' '$T_TMP/t'"

ok "-j: msr/tsc/ counted next to task-clock" sh -c "
	'$PMUKIT' stat -j -e msr/tsc/,task-clock true 2>'$T_TMP/j' &&
	grep -q '\"event\" *: *\"msr/tsc/\"' '$T_TMP/j' && ! grep -q 'not supported' '$T_TMP/j'"

if command -v perf >/dev/null; then
ok "... as perf 6.1 counts it (both print a count)" sh -c "
	perf stat -x, -e msr/tsc/ true 2>'$T_TMP/p' &&
	grep -Eq '^[0-9]+,,msr/tsc/,' '$T_TMP/p'"
else
echo "ok 6 # SKIP perf not installed"
fi
[ $T_FAIL -eq 0 ]
