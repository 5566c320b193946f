#!/bin/sh
# record_seeds.sh — the seeds' sampling features through `pmukit record` (TAP).
# What this machine can run is recorded for real and read back by perf 6.1:
# a {...}:S group (the leader samples, the members' counts ride along as
# PERF_SAMPLE_READ group values: perf report --group shows both), -W and -d
# on software events. What it cannot (no hardware PMU: TopDown groups,
# Intel ACR groups, precise/PEBS weights) must fail with a message naming
# the feature and the reason, and the default cycles falls back to
# cpu-clock as perf's does (said only with -v). :R in record mode asks for the weight struct (pmukit's
# rule: perf 6.1 has no :R), as explain shows.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
B=${PMUKIT_BUILD:-build}
W=$B/workloads/callchain
FX=$SRC/tests/fixtures/sysfs

if ! "$PMUKIT" record -q -o "$T_TMP/probe.data" -e cpu-clock true >/dev/null 2>&1; then
	echo "1..0 # SKIP pmukit record cannot sample here (perf_event_open refused)"
	exit 0
fi
have_perf=0
perf --version 2>/dev/null | grep -q "^perf version 6\.1\." && have_perf=1
[ -x "$W" ] || W=true
echo "1..10"

# a leader-sampled group, for real
"$PMUKIT" record -q -o "$T_TMP/g.data" -W -d -e '{cpu-clock,page-faults}:S' -- "$W" 200
T_N=$((T_N + 1))
if [ $have_perf = 0 ]; then
	echo "ok $T_N # SKIP perf 6.1 not installed"
elif perf report -i "$T_TMP/g.data" --stdio --group 2>"$T_TMP/e" | grep -q "of events 'anon group { cpu-clock, page-faults }'" &&
     [ ! -s "$T_TMP/e" ] &&
     perf script -i "$T_TMP/g.data" -F event,period 2>/dev/null | grep -q 'page-faults:'; then
	echo "ok $T_N - {cpu-clock,page-faults}:S: perf reads the group, members' values from the leader's samples"
else
	echo "not ok $T_N - {cpu-clock,page-faults}:S: perf reads the group"
	sed 's/^/# /' "$T_TMP/e" | head -5
fi
T_N=$((T_N + 1))
if [ $have_perf = 0 ]; then
	echo "ok $T_N # SKIP perf 6.1 not installed"
elif perf evlist -v -i "$T_TMP/g.data" 2>/dev/null | grep 'cpu-clock' | grep -q 'WEIGHT_STRUCT.*' &&
     perf evlist -v -i "$T_TMP/g.data" 2>/dev/null | grep 'cpu-clock' | grep -q 'ADDR' &&
     perf script -i "$T_TMP/g.data" -F event,weight,addr >/dev/null 2>"$T_TMP/e" && [ ! -s "$T_TMP/e" ]; then
	echo "ok $T_N - -W -d: weight struct and data addresses sampled, perf script prints them"
else
	echo "not ok $T_N - -W -d: weight struct and data addresses sampled"
	sed 's/^/# /' "$T_TMP/e" | head -5
fi

# refusals with the feature and the reason
refused() {	# refused NAME EXPECTED-TEXT... -- ARGS
	name=$1; shift
	exp=
	while [ "$1" != -- ]; do exp="$exp
$1"; shift; done
	shift
	T_N=$((T_N + 1))
	"$PMUKIT" record -q -o "$T_TMP/r.data" "$@" > "$T_TMP/r.out" 2> "$T_TMP/r.err"
	rc=$?
	miss=
	for t in $(printf '%s' "$exp" | tr ' ' '\001'); do
		t=$(printf '%s' "$t" | tr '\001' ' ')
		grep -qF -- "$t" "$T_TMP/r.err" || miss="$miss [$t]"
	done
	if [ $rc != 0 ] && [ -z "$miss" ]; then
		echo "ok $T_N - $name: refused, naming the feature and why"
	else
		echo "not ok $T_N - $name: exit $rc, missing:$miss"
		sed 's/^/# /' "$T_TMP/r.err" | head -5
	fi
}
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ] ||
   ls /sys/bus/event_source/devices/ 2>/dev/null | grep -q '^armv[89]'; then
	for i in 1 2 3 4 5; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP this machine has a hardware PMU"; done
else
	refused "TopDown sampling group {slots,cycles,topdown-retiring}:S" \
		"leader sampling" "no hardware PMU" -- \
		--sysfs "$FX/x86-icl" --cpuid GenuineIntel-6-7E -e '{slots,cycles,topdown-retiring}:S' -- true
	refused "ACR group (acr_mask)" "auto counter reload (ACR" "no hardware PMU" -- \
		--sysfs "$FX/x86-acr" -e '{cpu_atom/instructions,period=200000,acr_mask=0x2/,cpu_atom/cycles,period=100000,acr_mask=0x3/}' -- true
	refused "ACR group (ratio-to-prev)" "auto counter reload (ACR" -- \
		--sysfs "$FX/x86-acr" -e '{cpu_atom/instructions/,cpu_atom/cycles,period=100000,ratio-to-prev=0.5/}' -- true
	refused "-W on a precise hardware event" "the weight struct" "precise sampling" "no hardware PMU" -- \
		-W -e instructions:pp -- true
	refused "leader sampling of hardware events" "leader sampling" "no hardware PMU" -- \
		-e '{cycles,instructions}:S' -- true
fi

# the default event without a hardware PMU: cpu-clock:ppp, said only with -v (as perf 6.1)
T_N=$((T_N + 1))
"$PMUKIT" record -o "$T_TMP/d.data" -- "$W" 50 2> "$T_TMP/d.err"
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	echo "ok $T_N # SKIP a hardware PMU: cycles is recorded"
elif ! grep -q 'fall back' "$T_TMP/d.err" && grep -q 'Captured and wrote' "$T_TMP/d.err" &&
     { [ $have_perf = 0 ] || perf evlist -i "$T_TMP/d.data" 2>/dev/null | grep -qx 'cpu-clock:ppp'; }; then
	echo "ok $T_N - no hardware PMU: the default cycles falls back to cpu-clock:ppp, quietly"
else
	echo "not ok $T_N - the default event's fallback"
	sed 's/^/# /' "$T_TMP/d.err" | head -5
fi

# :R in record mode: the weight struct, without -W (x86; WEIGHT elsewhere)
T_N=$((T_N + 1))
"$PMUKIT" explain --json --mode record -e 'cpu-clock:R' > "$T_TMP/x.json" 2>&1
st=$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); print $j->[0]{attr}{sample_type}' < "$T_TMP/x.json")
case "$(uname -m)" in x86_64|i?86) bit=16777216 ;; *) bit=16384 ;; esac
if [ -n "$st" ] && [ $((st & bit)) != 0 ]; then
	echo "ok $T_N - :R samples the weight (explain --mode record: sample_type $st)"
else
	echo "not ok $T_N - :R samples the weight (sample_type '$st')"
fi
# ...and a recording of it carries the weights perf decodes
T_N=$((T_N + 1))
if [ $have_perf = 0 ]; then
	echo "ok $T_N # SKIP perf 6.1 not installed"
elif "$PMUKIT" record -q -o "$T_TMP/R.data" -e 'cpu-clock:R' -- "$W" 50 &&
     perf script -i "$T_TMP/R.data" -F event,weight >/dev/null 2>"$T_TMP/e" && [ ! -s "$T_TMP/e" ]; then
	echo "ok $T_N - cpu-clock:R recorded: perf script reads its weights"
else
	echo "not ok $T_N - cpu-clock:R recorded"
	sed 's/^/# /' "$T_TMP/e" | head -5
fi
exit 0
