#!/bin/sh
# report_chain_rb.sh — callchain trees whose siblings perf 6.1's match_chain does
# not order (lib/report/chain_rb.c), against perf 6.1 on the same file. perf
# compares two symbols by their start but a symbol and an unresolved address by
# their raw ips, which differ between processes mapping one DSO at different
# bases; its red-black tree of a node's children then has an in-order that
# depends on the tree's shape, and a frame can miss its function's node and make
# another one (perf prints "nodebug_pad" three times under one parent, each with
# its share). The file (report_mkdata mixchain) is the same at every run: eight
# processes, a fixed pseudo-random sequence of chains, then unresolved addresses of
# two DSOs.
#
# The entries too (lib/report/replay.c): under --sort sym without the dso key, perf's
# sort__sym_cmp compares two unresolved addresses by address alone but a symbol and
# anything else by DSO first, and its entries and collapse trees are no sort. perf walks
# its entries tree at every sample, and a later sample of an entry can miss it and make a
# second one (report_mkdata mixsym: perf prints two entries for one address); a found
# entry takes the sample's map (its DSO) where sym is a --sort key. pmukit replays every
# sample through the trees there. The fresh recordings of many short processes (12-229
# differing lines before, then 3-54 in 3 runs in 8 with the replay of each entry's first
# sample) matched perf in all 52 runs of 9 comparisons each.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
M="${PMUKIT_BUILD:-build}/tests/workloads/report_mkdata"
export PMUKIT T_TMP

PLAN=28
echo "1..$PLAN"
skip_all() {
	i=0; while [ $i -lt $PLAN ]; do i=$((i + 1)); echo "ok $i - report_chain_rb # SKIP $1"; done
	exit 0
}
[ -x "$M" ] || skip_all "$M not built (make tests)"
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 || skip_all "perf (6.1) is not installed"
"$M" mixchain "$T_TMP/mix.data" || skip_all "report_mkdata failed"
"$M" mixsym "$T_TMP/mixsym.data" || skip_all "report_mkdata mixsym failed"
P="sh ${PMUKIT_SRC:-.}/tests/integration/lib/perf_compare.sh chain_rb report mix"

ok "perf made two nodes of one function under one parent (the case this file is for)" sh -c "
	perf report --stdio -i '$T_TMP/mix.data' 2>/dev/null | grep -c -- '--nodebug_pad\$' | grep -qv '^[01]\$'"
ok "default (children, caller order)" $P
ok "--no-children" $P --no-children
ok "-g caller" $P -g caller
ok "-g graph,0 (every node)" $P -g graph,0
ok "--no-children -g graph,0,callee" $P --no-children -g graph,0,callee
ok "-g flat,0 (perf's post-order of its rb trees)" $P -g flat,0
ok "-g folded,0" $P -g folded,0
ok "-g graph,0,caller,count" $P -g graph,0,caller,count
ok "--sort sym -g graph,0" $P --sort sym -g graph,0
ok "--sort dso,sym --no-children -g graph,0,callee" $P --sort dso,sym --no-children -g graph,0,callee
ok "-g graph,0,caller,address (an order: no replay)" $P -g graph,0,caller,address
ok "mixchain: --no-children --sort sym -g none (unresolved addresses of two DSOs)" \
	$P --no-children --sort sym -g none

Q="sh ${PMUKIT_SRC:-.}/tests/integration/lib/perf_compare.sh chain_rb report mixsym"
ok "mixsym: perf made a second entry for one address (the case these are for)" sh -c "
	perf report --stdio --sort sym --no-children -g none -i '$T_TMP/mixsym.data' 2>/dev/null |
	awk '/%/ { print \$3 }' | sort | uniq -d | grep -q '^0x'"
ok "mixsym: --sort sym -g none (children)" $Q --sort sym -g none
ok "mixsym: --sort sym --no-children -g none" $Q --sort sym --no-children -g none
ok "mixsym: --sort comm,sym --no-children -g none (the collapse tree)" $Q --sort comm,sym --no-children -g none
ok "mixsym: -F overhead,sym -g none (no map update: sym is no --sort key)" $Q -F overhead,sym -g none
ok "mixsym: -F overhead,sym --no-children -g none" $Q -F overhead,sym --no-children -g none
ok "mixsym: --sort sym --no-children (callchains of the replayed entries)" $Q --sort sym --no-children

perf record -q -e cpu-clock -c 20000 -g -o "$T_TMP/short.data" -- \
	sh -c 'for i in $(seq 120); do /bin/true; done' >/dev/null 2>&1 || rm -f "$T_TMP/short.data"
S="sh ${PMUKIT_SRC:-.}/tests/integration/lib/perf_compare.sh chain_rb report short"
ok "short processes: default (callchain siblings of many bases)" $S
ok "short processes: --no-children -g graph,0,callee" $S --no-children -g graph,0,callee
ok "short processes: --sort sym (entries perf's sort__sym_cmp does not order)" $S --sort sym
ok "short processes: --sort sym --no-children -g none" $S --sort sym --no-children -g none
ok "short processes: --sort comm,sym" $S --sort comm,sym
ok "short processes: -F overhead,sym" $S -F overhead,sym
perf record -q -e cpu-clock -c 20000 -g -o "$T_TMP/lsloop.data" -- \
	sh -c 'for i in $(seq 60); do ls /usr/bin >/dev/null; done' >/dev/null 2>&1 || rm -f "$T_TMP/lsloop.data"
L="sh ${PMUKIT_SRC:-.}/tests/integration/lib/perf_compare.sh chain_rb report lsloop"
ok "short ls processes: --sort sym" $L --sort sym
ok "short ls processes: --sort comm,sym --no-children" $L --sort comm,sym --no-children
[ $T_FAIL -eq 0 ]
