#!/bin/sh
# stat_ipc_context.sh — perf pairs a modified event with the cycles of the same
# modifiers (its evsel_context: exclude_user/kernel/hv/host/idle) for insn per cycle,
# while GHz takes task-clock whatever the modifiers (TAP). Oracle: perf 6.1's own
# metric values in a -j capture made on the emulated arm64 PMU of make check-arm64.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
echo "1..2"
O=$T_TMP/ipcctx
FX=$SRC/tests/fixtures/counts/arm64-qemu-modifiers.json
export PMUKIT O FX

ok "--counts: every metric value as perf printed it (insn per cycle of :u over cycles:u, :k over cycles:k)" sh -c '
	"$PMUKIT" stat --counts "$FX" -x, 2>"$O.csv" || exit 1
	perl -MJSON::PP -ne "next unless /^\{/; my \$o = JSON::PP->new->decode(\$_);
		print qq(\$o->{event},\$o->{q(metric-value)},\$o->{q(metric-unit)}\n)" "$FX" > "$O.want"
	n=0
	while IFS=, read -r e v u; do
		[ "$e" = task-clock ] && continue	# CPUs utilized: the file has no elapsed time
		got=$(awk -F, -v e="$e" "\$3 == e { print \$6 \",\" \$7 }" "$O.csv")
		want=$(awk -v v="$v" -v u="$u" "BEGIN { f = u == \"insn per cycle\" ? \"%.2f\" : \"%.3f\"; printf f \",%s\", v, u }")
		echo "$e: $got / $want" >&2
		[ "$got" = "$want" ] || exit 1
		n=$((n + 1))
	done < "$O.want"
	[ $n = 6 ]'

ok "--counts: insn per cycle of instructions:u is not over all-mode cycles" sh -c '
	"$PMUKIT" stat --counts "$FX" 2>"$O.txt" || exit 1
	grep -E "instructions:u +# +0\.50  insn per cycle" "$O.txt"'
