#!/bin/sh
# stat_perf61.sh — what perf 6.1 prints for an event, pmukit prints: the name
# (tracepoints as SYS:NAME without modifiers, mem:ADDR/LEN by the text before
# the slash) and the unit (msec for cpu-clock/task-clock by name, none when
# written as PMU terms), read from both tools' -x, output on the same machine.
. "$(dirname "$0")/lib/tap.sh"
SPECS='task-clock
cpu-clock:u
software/config=1/
software/config=0/
sched:sched_switch:u
sched:sched_switch:k
mem:0x1000/8:w
mem:4096/4
mem:0x1000:w:u
{mem:0x1000/8:w,task-clock}'
n=$(printf '%s\n' "$SPECS" | wc -l)
echo "1..$((n + 1))"
if ! command -v perf >/dev/null || ! perf stat -e task-clock true 2>/dev/null; then
	i=0; while [ $i -le "$n" ]; do i=$((i + 1)); echo "ok $i # SKIP perf 6.1 not usable here"; done
	exit 0
fi
printf '%s\n' "$SPECS" | while IFS= read -r spec; do
	ok "$spec: name and unit as perf 6.1" sh -c "
		perf stat -x, -e '$spec' true 2>'$T_TMP/p' || exit 1
		'$PMUKIT' stat -x, -e '$spec' true 2>'$T_TMP/k' || exit 1
		cut -d, -f2,3 '$T_TMP/p' > '$T_TMP/p23'; cut -d, -f2,3 '$T_TMP/k' > '$T_TMP/k23'
		diff '$T_TMP/p23' '$T_TMP/k23' >&2"
done

# an alias's .unit and .scale (power/energy-*: Joules, 2.3e-10): the unit and a
# scaled value with two decimals, as perf prints them
U=$(ls /sys/bus/event_source/devices/*/events/*.unit 2>/dev/null | head -1)
T_N=$n
if [ -z "$U" ] || ! perf stat -a -e "$(basename "$(dirname "$(dirname "$U")")")/$(basename "$U" .unit)/" true 2>/dev/null; then
	echo "ok $((n + 1)) # SKIP no PMU event with a .unit file that perf can count here"
else
	ev="$(basename "$(dirname "$(dirname "$U")")")/$(basename "$U" .unit)/"
	ok "$ev: the alias's unit ($(cat "$U")) and scaled value, as perf 6.1" sh -c "
		perf stat -x, -a -e '$ev' sleep 0.05 2>'$T_TMP/p' || exit 1
		'$PMUKIT' stat -x, -a -e '$ev' sleep 0.05 2>'$T_TMP/k' || exit 1
		cut -d, -f2,3 '$T_TMP/p' > '$T_TMP/p23'; cut -d, -f2,3 '$T_TMP/k' > '$T_TMP/k23'
		diff '$T_TMP/p23' '$T_TMP/k23' >&2 &&
		grep -Eq '^[0-9]+\.[0-9]{2},' '$T_TMP/k'"
fi
