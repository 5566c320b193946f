#!/bin/sh
# export_folded_perf.sh — folded stacks on real perf output (TAP): perf 6.1 records a
# workload with call graphs (cpu-clock and page-faults, so the first-event filter matters),
# `perf script -F +pid` prints it; build/tests/test_export_folded --fold reads that text into
# a pmukit profile and writes folded stacks, which must equal what stackcollapse-perf.pl's
# rules (tests/fixtures/export/collapse-rules.pl) make of the same text, for each option,
# values included: -F recordings, so the periods perf script prints vary from sample to sample.
B=${PMUKIT_BUILD:-build}
S=${PMUKIT_SRC:-.}
FOLD=$B/tests/test_export_folded
RULES=$S/tests/fixtures/export/collapse-rules.pl
for c in perf perl; do
	command -v $c >/dev/null 2>&1 || { echo "1..0 # SKIP $c not installed"; exit 0; }
done
[ -x "$FOLD" ] || { echo "1..0 # SKIP $FOLD not built (make tests)"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if ! perf record -q -g --sample-cpu -e cpu-clock -e page-faults -F 1999 -o "$T/perf.data" -- \
	sh -c 'find /usr/share -type f 2>/dev/null | head -800 | xargs cat 2>/dev/null | gzip -1 >/dev/null;
	       ls -lR /usr/lib >/dev/null 2>&1' >"$T/record.log" 2>&1; then
	echo "1..0 # SKIP perf record failed: $(tail -1 "$T/record.log")"
	exit 0
fi
perf script -i "$T/perf.data" -F +pid >"$T/script.txt" 2>/dev/null
perf script -i "$T/perf.data" -F comm,pid,tid,cpu,time,period,event,ip,sym,symoff,dso \
	>"$T/script-cpu.txt" 2>/dev/null
n=0
fail=0
echo "1..8"
t() {
	n=$((n + 1))
	if (eval "$2") >"$T/t.out" 2>&1; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/# /' "$T/t.out" | head -12
		fail=$((fail + 1))
	fi
}
# same TEXT HEX-FLAGS SCRIPT-OPTIONS... — pmukit's folded stacks equal the rules'
same() {
	text=$1 flags=$2
	shift 2
	"$FOLD" --fold "$flags" <"$text" >"$T/pmukit.folded" || return 1
	perl "$RULES" "$@" <"$text" >"$T/rules.folded" || return 1
	[ -s "$T/rules.folded" ] || { echo "the rules folded nothing"; return 1; }
	diff "$T/rules.folded" "$T/pmukit.folded" | head -8
	cmp -s "$T/rules.folded" "$T/pmukit.folded"
}
t "perf recorded call graphs of both events" \
	"[ \$(grep -c 'cpu-clock:' '$T/script.txt') -gt 20 ] && grep -q 'page-faults:' '$T/script.txt' &&
	 [ \$(grep -c '^	' '$T/script.txt') -gt 100 ]"
t "folded: equal to the rules" "same '$T/script.txt' 0"
t "--pid" "same '$T/script.txt' 0x1 --pid"
t "--tid" "same '$T/script.txt' 0x2 --tid"
t "--kernel (with kernel frames in the input)" \
	"grep -q 'kernel.kallsyms' '$T/script.txt' && same '$T/script.txt' 0x4 --kernel && grep -q '_\[k\]' '$T/pmukit.folded'"
t "--jit --addrs" "same '$T/script.txt' 0x18 --jit --addrs"
t "-F with the cpu column" "same '$T/script-cpu.txt' 0x6 --tid --kernel"
t "only the first event's samples, weighted by the periods perf script prints (-F: they vary)" \
	"same '$T/script.txt' 0 && first=\$(awk '/^[^ \\t#].*: *\$/ { sub(/: *\$/, \"\"); print \$NF; exit }' '$T/script.txt') &&
	 want=\$(awk -v ev=\"\$first:\" '/^[^ \\t#]/ && \$NF == ev { s += \$(NF - 1) } END { print s }' '$T/script.txt') &&
	 got=\$(awk '{ s += \$NF } END { print s }' '$T/pmukit.folded') &&
	 nper=\$(awk -v ev=\"\$first:\" '/^[^ \\t#]/ && \$NF == ev { print \$(NF - 1) }' '$T/script.txt' | sort -u | wc -l) &&
	 echo \"first event \$first: periods \$want (\$nper distinct), folded \$got\" && [ \"\$want\" = \"\$got\" ] && [ \$nper -gt 1 ]"
exit $((fail > 0))
