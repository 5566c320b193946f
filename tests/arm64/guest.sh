#!/bin/sh
# guest.sh — the in-guest driver of `make check-arm64` (run by /init under busybox sh).
# It runs perf 6.1 and pmukit side by side on the workloads (/pk/loop: a user loop,
# /pk/sysloop: a syscall loop) and prints every output as a block on the console:
#   === case CHECK NAME TOOL
#   ...stdout and stderr...
#   === rc N
# The host (tests/arm64/compare.py) compares the blocks and prints TAP. Unit tests run
# with TAP output in blocks of their own (TOOL "tap"). The boot's kind comes from the
# kernel command line: pk.boot=nvhe|vhe|a72.
P=/pk/pmukit
BOOT=$(sed -n 's/.* pk\.boot=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
LOOP="/pk/loop 1000000"
SYS="/pk/sysloop 10000"

# run CHECK NAME TOOL CMD...: one block
run() {
	echo "=== case $1 $2 $3"
	shift 3
	"$@" 2>&1
	echo "=== rc $?"
}
# both CHECK NAME ARGS...: perf stat ARGS and pmukit stat ARGS
both() {
	_c=$1 _n=$2
	shift 2
	run "$_c" "$_n" perf perf stat "$@"
	run "$_c" "$_n" pmukit $P stat "$@"
}

echo "=== boot $BOOT"
run info midr cat cat /sys/devices/system/cpu/cpu0/regs/identification/midr_el1
run info el dmesg sh -c 'dmesg | grep -E "started at EL|hw perfevents"'
run info caps ls ls /sys/bus/event_source/devices/armv8_pmuv3/events

# --- 1: stat (non-VHE and VHE boots) ----------------------------------------------------
if [ "$BOOT" != a72 ]; then
both stat loop_u -x, -e cycles:u,instructions:u $LOOP
both stat loop -x, -e cycles,instructions $LOOP
for m in u k h H G uk uh kh; do
	both stat mod_$m -x, -e cycles:$m,instructions:$m $SYS
done
both stat raw -x, -e armv8_pmuv3/inst_retired/,r08,armv8_pmuv3/cpu_cycles/,r11 $LOOP
both stat groups -x, -e '{cycles,instructions}' -e '{cycles:u,instructions:u}' -e '{cycles:k,instructions:k}' $SYS
both stat ctx -x, -e task-clock,page-faults:u,cycles:u,instructions:u,cycles,instructions,cycles:k,instructions:k $SYS
both stat unsup -x, -e cycles,instructions,branches,branch-misses,cache-references,cache-misses,stalled-cycles-frontend,stalled-cycles-backend $LOOP
MUX=cycles,instructions,cycles:u,instructions:u,cycles:k,instructions:k,r08,r11
both stat mux -x, -e $MUX /pk/loop 3000000
both stat mux_text -e $MUX /pk/loop 3000000
both stat default -x, $LOOP
both stat default_text $LOOP
# perf's own -j of the modifier pairs (tests/fixtures/counts/arm64-qemu-modifiers.json)
run stat json perf perf stat -j -e task-clock,cycles,instructions,cycles:u,instructions:u,cycles:k,instructions:k $SYS

# --- 2: explain against measurement ----------------------------------------------------
for w in loop sys; do
	[ $w = loop ] && W=$LOOP || W=$SYS
	run explain basis_$w perf perf stat -x, -e instructions:u,instructions:k $W
	for m in u k h uk uh kh ukh H G uH kH uG kG; do
		run explain ev_${w}_$m pmukit $P stat -x, -e instructions:$m $W
	done
done
run explain json pmukit $P explain --json -e instructions:u,instructions:k,instructions:h,instructions:uk,instructions:uh,instructions:kh,instructions:ukh,instructions:H,instructions:G,instructions:uH,instructions:kH,instructions:uG,instructions:kG

fi

# --- 3: self-monitoring ----------------------------------------------------------------
echo 0 > /proc/sys/kernel/perf_user_access
run selfmon ua_off pmukit $P check user-access --json
run selfmon agree_off pmukit /pk/selfmon_agree 1000000
echo 1 > /proc/sys/kernel/perf_user_access
run selfmon ua_on pmukit $P check user-access --json
run selfmon agree_on pmukit /pk/selfmon_agree 1000000
run selfmon perftest perf perf test 'User space counter reading'
run selfmon region example /pk/examples/region
run selfmon topdown_region example /pk/examples/topdown_region
cd /pk/tests
for t in test_selfmon_*; do
	case $t in *.d) continue;; esac
	PMUKIT_SRC=/pk/src PMUKIT_STRESS_READS=100000 CMOCKA_MESSAGE_OUTPUT=TAP run unit "$t" tap ./"$t"
done
cd /tmp

# --- 4: metrics (non-VHE boot) ----------------------------------------------------------
if [ "$BOOT" = nvhe ]; then
# perf 6.1 has no metrics for the CPUs QEMU 7.2 emulates: both tools are given HiSilicon
# hip08's tables (PERF_CPUID / --cpuid), whose retiring metric needs only INST_RETIRED
# and CPU_CYCLES (its other TopDownL1 metrics need events QEMU does not implement)
H=0x00000000480fd010
run metrics list perf env PERF_CPUID=$H perf list metric
for mt in retiring; do
	run metrics m_$mt perf env PERF_CPUID=$H perf stat -x, -M $mt $LOOP
	run metrics m_$mt pmukit $P stat --cpuid $H -x, -M $mt $LOOP
done
fi

# --- 5: sampling (non-VHE and VHE boots) ----------------------------------------------------
# perf report in the guest reads pmukit's perf.data; the sample counts of the same
# deterministic workload agree with perf record's
if [ "$BOOT" != a72 ]; then
	if $P record --help >/dev/null 2>&1; then
		for ev in cycles:u instructions:u; do
			n=$(echo $ev | tr -d :)
			run sample rec_$n perf perf record -e $ev -c 100000 -o /tmp/perf-$n.data /pk/loop 10000000
			run sample rep_$n perf perf report --stdio -i /tmp/perf-$n.data --sort comm,dso
			run sample rec_$n pmukit $P record -e $ev -c 100000 -o /tmp/pk-$n.data /pk/loop 10000000
			run sample rep_$n pmukit perf report --stdio -i /tmp/pk-$n.data --sort comm,dso
		done
	else
		run sample absent pmukit $P record --help
	fi
fi
echo "=== end"
