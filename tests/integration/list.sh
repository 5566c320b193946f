#!/bin/sh
# list.sh — `pmukit list`: help, classes, globs, --json shape, every event and
# metric of real models (checked against the JSON files by an independent perl
# reader), --events-dir, unknown --cpuid, PMU trees given with --sysfs.
. "$(dirname "$0")/lib/tap.sh"
L="$SRC/tests/integration/lib"
echo "1..20"

ok "list --help" "$PMUKIT" list --help

ok "list sw shows software events" sh -c "'$PMUKIT' list sw > '$T_TMP/sw'"
ok "task-clock and faults alias" sh -c "grep -q '^  task-clock  *\[Software event\]' '$T_TMP/sw' && grep -q 'page-faults OR faults' '$T_TMP/sw'"

ok "glob on a known model" sh -c "'$PMUKIT' list --cpuid GenuineIntel-6-55-4 'l1d.replacement' > '$T_TMP/g'"
ok "glob prints topic, name and description" sh -c "grep -q '^cache:' '$T_TMP/g' && grep -q '^  l1d.replacement' '$T_TMP/g' && grep -q '^       \[' '$T_TMP/g'"

# Every event and metric of these models, against the JSON files themselves.
for spec in "GenuineIntel-6-55-4 x86 skylakex" "AuthenticAMD-25-1-1 x86 amdzen3" \
	    "0x00000000410fd0c0 arm64 arm/neoverse-n1" "0x004e1200 powerpc power9"; do
	set -- $spec
	ok "list --json --all --cpuid $1 lists every event and metric of $3" sh -c "
		'$PMUKIT' list --json --all --cpuid $1 | perl '$L/jsonnames.pl' | sort > '$T_TMP/got' &&
		perl '$L/names.pl' '$ARCH_DIR' $2 $3 | sort -u > '$T_TMP/want' &&
		test -s '$T_TMP/want' && diff '$T_TMP/want' '$T_TMP/got' >&2"
done

ok "--events-dir gives the same list as the built-in tables" sh -c "
	'$PMUKIT' list --json --all --cpuid skylake > '$T_TMP/a' &&
	'$PMUKIT' list --json --all --cpuid skylake --events-dir '$ARCH_DIR' > '$T_TMP/b' &&
	cmp '$T_TMP/a' '$T_TMP/b'"
ok "PMUKIT_EVENTS_DIR and PMUKIT_CPUID work like the options" sh -c "
	PMUKIT_CPUID=skylake PMUKIT_EVENTS_DIR='$ARCH_DIR' '$PMUKIT' list --json --all > '$T_TMP/c' &&
	cmp '$T_TMP/a' '$T_TMP/c'"

fails "unknown --cpuid is refused" "$PMUKIT" list --cpuid GenuineIntel-6-FF-0
ok "unknown --cpuid names the closest models" sh -c "
	'$PMUKIT' list --cpuid GenuineIntel-6-FE-0 2>&1 >/dev/null | grep -q 'closest known models' &&
	'$PMUKIT' list --cpuid GenuineIntel-6-FE-0 2>&1 >/dev/null | grep -q 'GenuineIntel-6-'"
# three suggestions, all of the identifier's arch (the third was once read before it was set)
ok "unknown --cpuid: the closest models are three x86 ones" sh -c "
	'$PMUKIT' list --cpuid GenuineIntel-6-FE-0 2>&1 >/dev/null |
		sed '1,/closest known models/d' > '$T_TMP/near' &&
	test \$(wc -l < '$T_TMP/near') -eq 3 && ! grep -v ' x86/' '$T_TMP/near' >&2"

fails "a missing --events-dir is an error" "$PMUKIT" list --events-dir /nonexistent --cpuid skylake
fails "a missing --sysfs is an error" "$PMUKIT" list --sysfs /nonexistent

# Without --all, only core events and uncore events whose PMU exists are shown.
ok "uncore events appear when the PMU tree has their PMU" sh -c "
	'$PMUKIT' list --json --cpuid skylakex --sysfs '$SRC/tests/fixtures/sysfs/x86-skl' > '$T_TMP/d' &&
	grep -q '\"pmu\": \"uncore_cha\"' '$T_TMP/d'"
ok "uncore events are hidden without their PMU, shown with --all" sh -c "
	'$PMUKIT' list --json --cpuid skylakex --sysfs '$SRC/tests/fixtures/sysfs/x86-hybrid' > '$T_TMP/e' &&
	! grep -q '\"pmu\": \"uncore_cha\"' '$T_TMP/e' &&
	'$PMUKIT' list --json --all --cpuid skylakex --sysfs '$SRC/tests/fixtures/sysfs/x86-hybrid' |
		grep -q '\"pmu\": \"uncore_cha\"'"
# --json: what perf's list -j gives the events without JSON of their own
TFS=$(sed -n 's/^[^ ]* \([^ ]*\) tracefs .*/\1/p' /proc/mounts | head -1)
ok "--json: hw/sw/tool/cache/tracepoint events carry pmu, desc; cache aliases; tracepoint encodings" sh -c "
	'$PMUKIT' list --json --sysfs '$SRC/tests/fixtures/sysfs/x86-skl' --cpuid skylake |
		perl '$SRC/tests/integration/lib/listfill.pl' cpu '$TFS' > '$T_TMP/f' && [ \$(cat '$T_TMP/f') -gt 100 ]"
ok "... on a hybrid tree the first core PMU in name order, as perf scans them (cpu_atom)" sh -c "
	'$PMUKIT' list --json hw --sysfs '$SRC/tests/fixtures/sysfs/x86-hybrid' --cpuid alderlake |
		perl '$SRC/tests/integration/lib/listfill.pl' cpu_atom '' > '$T_TMP/h' && [ \$(cat '$T_TMP/h') -ge 10 ]"
[ $T_FAIL -eq 0 ]
