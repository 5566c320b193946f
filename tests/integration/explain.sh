#!/bin/sh
# explain.sh — `pmukit explain`: offline answers for a CPU without its PMU, the
# seeds' examples (arm64 threshold, Intel ACR ratio-to-prev), group roles,
# reverse lookup, and refusals that point at the offending character.
. "$(dirname "$0")/lib/tap.sh"
FX="$SRC/tests/fixtures/sysfs"
J="$SRC/tests/integration/lib/json.pl"
echo "1..29"

ok "explain --help" "$PMUKIT" explain --help

ok "a table event on an absent CPU, offline" sh -c "
	'$PMUKIT' explain --cpuid skylake -e l1d.replacement > '$T_TMP/a' &&
	grep -q 'offline' '$T_TMP/a' && grep -q 'config  *0x151' '$T_TMP/a' &&
	grep -q 'table event  *l1d.replacement' '$T_TMP/a'"

ok "--json: one object per event with the attr" sh -c "
	'$PMUKIT' explain --json --sysfs '$FX/x86-skl' --cpuid skylake -e '{cycles,l1d.replacement}:u' > '$T_TMP/j' &&
	perl '$J' '$T_TMP/j' '0.attr.type=0' '0.attr.config=0x0' '0.group.role=leader' '0.group.size=2' \
		'1.attr.type=4' '1.attr.config=0x151' '1.group.role=member' '1.attr.exclude_kernel=1' \
		'1.table_event=l1d.replacement'"

ok "reverse lookup of a raw config" sh -c "
	'$PMUKIT' explain --json --sysfs '$FX/x86-skl' --cpuid skylake -e r02c2 > '$T_TMP/r' &&
	perl '$J' '$T_TMP/r' '0.table_event=uops_retired.retire_slots' '0.attr.config=0x2c2'"

ok "arm64 threshold in words" sh -c "
	'$PMUKIT' explain --json --sysfs '$FX/arm64-het' --cpuid neoverse-v1 \
		-e 'armv8_pmuv3_1/stall_slot,threshold=2,threshold_compare=2/' > '$T_TMP/t' &&
	perl '$J' '$T_TMP/t' '0.attr.config1=0x48' '0.threshold.value=2' '0.threshold.compare=2' &&
	grep -q 'increments by >= 2' '$T_TMP/t'"
fails "threshold above caps/threshold_max is refused" "$PMUKIT" explain --sysfs "$FX/arm64-th255" \
	--cpuid neoverse-v1 -e 'stall_slot/threshold=256/'
ok "... quoting the maximum; 255 is accepted" sh -c "
	'$PMUKIT' explain --sysfs '$FX/arm64-th255' --cpuid neoverse-v1 -e 'stall_slot/threshold=256/' 2>&1 |
		grep -q '0xff\\|255' &&
	'$PMUKIT' explain --sysfs '$FX/arm64-th255' --cpuid neoverse-v1 -e 'stall_slot/threshold=255/' >/dev/null"
fails "any threshold on a PMU without FEAT_PMUv3_TH is refused" "$PMUKIT" explain --sysfs "$FX/arm64-het" \
	--cpuid neoverse-v1 -e 'armv8_pmuv3_0/stall_slot,threshold=2/'
ok "... saying so" sh -c "
	'$PMUKIT' explain --sysfs '$FX/arm64-het' --cpuid neoverse-v1 -e 'armv8_pmuv3_0/stall_slot,threshold=2/' 2>&1 |
		grep -q 'threshold_max'"
ok "threshold of 13 bits is refused at parse, naming the 12-bit field" sh -c "
	! '$PMUKIT' explain --cpuid neoverse-v1 -e 'stall_slot/threshold=4096/' 2> '$T_TMP/b' &&
	grep -q '12 bits' '$T_TMP/b'"

ok "arm64 exception levels per system" sh -c "
	'$PMUKIT' explain --cpuid neoverse-v1 -e 'cpu_cycles:k' > '$T_TMP/e' &&
	grep -q 'VHE host' '$T_TMP/e' && grep -q 'never counted within a guest' '$T_TMP/e'"

ok "ACR ratio-to-prev encodes as the explicit masks" sh -c "
	'$PMUKIT' explain --json --mode record --sysfs '$FX/x86-acr' --cpuid alderlake \
		-e '{cpu_atom/instructions/,cpu_atom/cycles,period=100000,ratio-to-prev=0.5/}' > '$T_TMP/x1' &&
	'$PMUKIT' explain --json --mode record --sysfs '$FX/x86-acr' --cpuid alderlake \
		-e '{cpu_atom/instructions,period=200000,acr_mask=0x2/,cpu_atom/cycles,period=100000,acr_mask=0x3/}' > '$T_TMP/x2' &&
	perl '$J' '$T_TMP/x1' '0.attr.sample_period=200000' '1.attr.sample_period=100000' &&
	perl -MJSON::PP -e 'my @a = map { local \$/; open my \$f, \"<\", \$_; [ map { \$_->{attr} } @{ decode_json(<\$f>) } ] } @ARGV;
		exit(JSON::PP->new->canonical->encode(\$a[0]) eq JSON::PP->new->canonical->encode(\$a[1]) ? 0 : 1)' '$T_TMP/x1' '$T_TMP/x2'"
ok "ACR in words" sh -c "grep -q 'samples when instructions/cycles > 2' '$T_TMP/x1'"
ok "an acr_mask when counting: said to have no effect (stat mode)" sh -c "
	'$PMUKIT' explain --sysfs '$FX/x86-acr' --cpuid alderlake \
		-e '{cpu_core/instructions/,cpu_core/branches,acr_mask=0x1/}' > '$T_TMP/xs' &&
	grep -q 'mask 0x1: no effect when counting' '$T_TMP/xs' && ! grep -q 'overflows and reloads' '$T_TMP/xs'"
ok "a format file that does not parse: the message names the file and what is wrong" sh -c "
	cp -r '$FX/x86-skl' '$T_TMP/badfmt' && printf 'config:15-8\\n' > '$T_TMP/badfmt/cpu/format/umask' &&
	! '$PMUKIT' explain --sysfs '$T_TMP/badfmt' --cpuid skylake -e 'cpu/event=0x3c,umask=1/' 2> '$T_TMP/bf' &&
	grep -q \"term 'umask' of PMU 'cpu' is unusable: $T_TMP/badfmt/cpu/format/umask: the range '15-8' ends below its start\" '$T_TMP/bf'"
ok "a PMU whose type file is not a number: said so, not 'unknown PMU'" sh -c "
	cp -r '$FX/x86-skl' '$T_TMP/badtype' && echo xyz > '$T_TMP/badtype/cpu/type' &&
	! '$PMUKIT' explain --sysfs '$T_TMP/badtype' --cpuid skylake -e 'cpu/event=0x3c/' 2> '$T_TMP/bt' &&
	grep -q \"PMU 'cpu' is unusable: $T_TMP/badtype/cpu/type: 'xyz' is not a PMU type number\" '$T_TMP/bt'"
fails "ratio-to-prev outside a group is refused" "$PMUKIT" explain --mode record --sysfs "$FX/x86-acr" \
	--cpuid alderlake -e 'cpu_atom/cycles,period=100000,ratio-to-prev=0.5/'

fails "a misspelt term is refused" "$PMUKIT" explain --sysfs "$FX/x86-skl" --cpuid skylake -e 'cpu/umsk=1/'
ok "... with a caret under it and a suggestion" sh -c "
	'$PMUKIT' explain --sysfs '$FX/x86-skl' --cpuid skylake -e 'cpu/umsk=1/' 2>&1 | tee '$T_TMP/c' >/dev/null
	grep -qx 'cpu/umsk=1/' '$T_TMP/c' && grep -qx '    ^^^^' '$T_TMP/c' && grep -q \"umask\" '$T_TMP/c'"
ok "a misspelt event suggests the nearest" sh -c "
	! '$PMUKIT' explain --cpuid skylake -e l1d.replacment 2> '$T_TMP/s' && grep -q 'l1d.replacement' '$T_TMP/s'"
fails "an empty spec is refused" "$PMUKIT" explain -e ''
# sampling options: perf refuses negatives and throttles -F to the kernel's limit, saying so
for bad in "-c -5" "-c 99999999999999999999999" "-F -1" "-F 0" "-c abc"; do
	ok "record $bad is refused, not wrapped or clamped" sh -c "
		! '$PMUKIT' explain --mode record -e cpu-clock $bad 2>'$T_TMP/n' >/dev/null &&
		grep -q 'needs a positive number' '$T_TMP/n'"
done
ok "-F over perf_event_max_sample_rate: throttled to it with perf's warning; -F max is the limit" sh -c "
	max=\$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo 100000)
	'$PMUKIT' explain --mode record -e cpu-clock -F 99999999999999 2>'$T_TMP/w' >'$T_TMP/wo' &&
	grep -q \"Maximum frequency rate (\$max Hz) exceeded, throttling from 99999999999999 Hz to \$max Hz\" '$T_TMP/w' &&
	grep -Eq \"sample_freq +\$max\\\$\" '$T_TMP/wo' &&
	'$PMUKIT' explain --mode record -e cpu-clock -F max 2>'$T_TMP/m' >'$T_TMP/mo' &&
	! grep -q warning '$T_TMP/m' && grep -Eq \"sample_freq +\$max\\\$\" '$T_TMP/mo'"
ok "the text view always shows the type, 0 included (cycles:u), and -a's help says system-wide" sh -c "
	'$PMUKIT' explain --sysfs '$FX/x86-skl' --cpuid skylake -e cycles:u > '$T_TMP/t' &&
	grep -Eq '^    type +0\$' '$T_TMP/t' &&
	'$PMUKIT' explain --help | grep -E '^ +-a, ' | grep -q 'system-wide'"
ok "every command: a bad option exits 129, as perf, and the first line names it (getopt's 'pmukit CMD:' or perf's ' Error:')" sh -c "
	for c in list explain record report script diff flamegraph export check stat; do
		'$PMUKIT' \$c --bogus-option >/dev/null 2>'$T_TMP/g'; rc=\$?
		[ \$rc = 129 ] || { echo \"\$c: exit \$rc\" >&2; exit 1; }
		head -1 '$T_TMP/g' | grep -Eq \"^(pmukit \$c: |  Error: unknown option .bogus-option')\" ||
			{ echo \"\$c: \$(head -1 '$T_TMP/g')\" >&2; exit 1; }
	done"
[ $T_FAIL -eq 0 ]
