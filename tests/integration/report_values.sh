#!/bin/sh
# report_values.sh — what this machine cannot record, from files written by
# tests/workloads/report_mkdata (TAP): PERF_SAMPLE_WEIGHT_STRUCT weights by
# the weight sort keys, compared with perf 6.1; and TopDown Level 1/2 columns
# of a {slots,inst_retired.any,topdown-*}:S sampling read group, whose member
# values are compared with perf 6.1's group view and whose shares must be
# what topdown.txt's formulas give for the deltas report_mkdata wrote.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
M="${PMUKIT_BUILD:-build}/tests/workloads/report_mkdata"
export PMUKIT M T_TMP

PLAN=16
echo "1..$PLAN"
skip_all() {
	i=0; while [ $i -lt $PLAN ]; do i=$((i + 1)); echo "ok $i - report_values # SKIP $1"; done
	exit 0
}
[ -x "$M" ] || skip_all "$M not built (make tests)"
"$M" weights "$T_TMP/w.data" || skip_all "report_mkdata failed"
"$M" topdown "$T_TMP/td.data" > "$T_TMP/td.want" || skip_all "report_mkdata failed"
"$M" topdown2 "$T_TMP/td2.data" > "$T_TMP/td2.want" || skip_all "report_mkdata failed"
"$M" a2l_after "$T_TMP/aa.data" && "$M" a2l_fresh "$T_TMP/af.data" || skip_all "report_mkdata failed"
"$M" late "$T_TMP/late.data" || skip_all "report_mkdata failed"
have_perf=1
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 || have_perf=0

# compare FILE PERF-ARGS -- PMUKIT-EXTRA-ARGS
cat > "$T_TMP/compare" <<'EOF'
f=$1; shift
pa=""; while [ $# -gt 0 ] && [ "$1" != -- ]; do pa="$pa $1"; shift; done
[ "$1" = -- ] && shift
perf report --stdio -i "$T_TMP/$f.data" $pa 2>/dev/null | grep -v '^# (Tip:' > "$T_TMP/perf.out"
"$PMUKIT" report --stdio -i "$T_TMP/$f.data" $pa "$@" 2>&1 | grep -v '^# (Tip:' > "$T_TMP/pmukit.out"
[ -s "$T_TMP/perf.out" ] || { echo "perf printed nothing" >&2; exit 1; }
diff "$T_TMP/perf.out" "$T_TMP/pmukit.out" >&2
EOF
chmod +x "$T_TMP/compare"
C="$T_TMP/compare"
perf_ok() {	# perf_ok NAME ARGS...: an oracle test, skipped without perf
	if [ $have_perf = 1 ]; then ok "$@"; else T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP no perf"; fi
}

perf_ok "weights: --sort sym,local_weight" $C w --sort sym,local_weight
perf_ok "weights: --sort sym,weight (weight x samples)" $C w --sort sym,weight
perf_ok "weights: --sort local_weight,sym -n" $C w --sort local_weight,sym -n
perf_ok "weights: --sort ins_lat,sym and local_ins_lat" sh -c "$C w --sort ins_lat,sym && $C w --sort sym,local_ins_lat"
perf_ok "topdown: group members' values as perf's group view" $C td -- --no-topdown
perf_ok "topdown: Level 2 group members' values as perf's group view" $C td2 -- --no-topdown
perf_ok "topdown: --no-group sections as perf" $C td --no-group
# perf 6.1's addr2line failure limit: a DSO whose first 123 lookups fail gets no more
# lines; once one succeeded, failures are never counted again
perf_ok "srcline: 130 failed lookups after a success: later lines still found, as perf 6.1" $C aa --sort srcline
perf_ok "srcline: a DSO's first 123 lookups failed: no more lines, as perf 6.1" $C af --sort srcline
# perf 6.1 computes a srcline when a comparison first needs it and sizes the column over
# the entries as they are sorted: an entry never compared on srcline is cut to the width
perf_ok "srcline: an entry perf first needs at print time is cut to the width, as perf 6.1" sh -c "
	$C late --sort dso,srcline --no-children &&
	grep -q 'report_mkdata  report_mkdata\$' \"\$T_TMP/perf.out\" ||
	{ echo 'perf did not cut td_func1 (the case did not arise)' >&2; exit 1; }"
perf_ok "srcline: the same entry compared on srcline (first key): its whole line, as perf 6.1" sh -c "
	$C late --sort srcline,dso --no-children && grep -q 'report_mkdata.c:' \"\$T_TMP/perf.out\""
perf_ok "srcline: with the comm key (perf's collapse tree compares them again), as perf 6.1" \
	$C late --sort comm,dso,srcline --no-children

# TopDown columns: the values printed for each function, as "name col=value ..."
cat > "$T_TMP/shares" <<'EOF'
# shares FILE: "td_funcN retiring=.. bad_spec=.. ..." from pmukit's columns
"$PMUKIT" report --stdio -i "$1" --sort sym | awk '
	/^# .*Retiring/ { for (i = 2; i <= NF; i++) h[i] = $i; n = NF; next }
	/\[\.\] td_func/ {
		line = $NF
		# the columns after the group values: Retiring Bad Spec FE Bound BE Bound [L2]
		split("retiring bad_spec fe_bound be_bound heavy_ops light_ops br_mispredict machine_clears fetch_lat fetch_bw mem_bound core_bound", k, " ")
		ncol = 0; for (i = 1; i <= NF; i++) if ($i ~ /%$/) ncol++
		nk = (ncol - members); first = members + 1
		out = line
		for (j = 1; j <= nk; j++) { v = $(first + j - 1); sub(/%$/, "", v); out = out " " k[j] "=" v }
		print out
	}' members="$2"
EOF
chmod +x "$T_TMP/shares"
ok "topdown: Level 1 per symbol as topdown.txt's formulas give them" sh -c '
	"$T_TMP/shares" "$T_TMP/td.data" 6 | sort > "$T_TMP/got"; sort "$T_TMP/td.want" > "$T_TMP/want"
	[ -s "$T_TMP/got" ] && diff "$T_TMP/want" "$T_TMP/got" >&2'
ok "topdown: Level 2 (heavy/light ops, mispredicts/clears, fetch, memory/core)" sh -c '
	"$T_TMP/shares" "$T_TMP/td2.data" 10 | sort > "$T_TMP/got"; sort "$T_TMP/td2.want" > "$T_TMP/want"
	[ -s "$T_TMP/got" ] && diff "$T_TMP/want" "$T_TMP/got" >&2'
ok "topdown: -F td_retiring,td_be_bound,sym picks columns" sh -c '
	"$PMUKIT" report --stdio -i "$T_TMP/td.data" -F td_retiring,td_be_bound,sym > "$T_TMP/o" &&
	grep -q "Retiring  BE Bound  Symbol" "$T_TMP/o" &&
	want=$(sed -n "s/^td_func3 retiring=\([0-9.]*\) .* be_bound=\([0-9.]*\)$/\1% \2%/p" "$T_TMP/td.want") &&
	got=$(awk "/td_func3/ { print \$1, \$2 }" "$T_TMP/o") && [ "$want" = "$got" ] ||
	{ cat "$T_TMP/o" >&2; echo "want $want got $got" >&2; exit 1; }'
ok "topdown: --no-topdown leaves them out" sh -c '
	"$PMUKIT" report --stdio -i "$T_TMP/td.data" --no-topdown > "$T_TMP/o" && ! grep -q Retiring "$T_TMP/o"'
[ $T_FAIL -eq 0 ]
