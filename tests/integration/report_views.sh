#!/bin/sh
# report_views.sh — perf report's other views against perf 6.1 (TAP): --sort
# srcline on --call-graph dwarf files (the cumulative entries of unwound
# frames carry their inline frame's own srcline, as perf's callchain nodes
# do), and the options of pmukit issue 18 that pmukit refused before:
# -U/--hide-unresolved, --full-source-path, the srcfile, symbol_size,
# parent (-p/-x), time (--time-quantum) keys, -G/--inverted,
# --ignore-callees, the IPC columns perf adds to --sort symbol; and the
# pager (a real terminal under tmux). Both tools read the same files with
# the same options and must print the same text, line for line, except
# perf's random closing tip.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
CW="${PMUKIT_BUILD:-build}/workloads/callchain"
export PMUKIT W T_TMP

command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf (6.1) is not installed"; exit 0; }
[ -x "$W" ] && [ -x "$CW" ] || { echo "1..0 # SKIP $W or $CW not built (make tests)"; exit 0; }
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/probe.data" true >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf record cannot sample cpu-clock here"; exit 0; }

rec() {	# rec NAME PERF-RECORD-ARGS... -- recorded into $T_TMP/NAME.data
	name=$1; shift
	perf record -q -o "$T_TMP/$name.data" "$@" >/dev/null 2>"$T_TMP/$name.rec" || {
		echo "# perf record $*: $(tail -1 "$T_TMP/$name.rec")"; rm -f "$T_TMP/$name.data"; }
}
rec g -e cpu-clock -c 100000 -g "$W" 3000
rec nog -e cpu-clock -c 100000 "$W" 3000
rec dw -e cpu-clock -c 200000 --call-graph dwarf "$W" 1000
rec cc -e cpu-clock -c 100000 --call-graph dwarf "$CW" 250
rec thr -e cpu-clock -c 100000 -g "$W" -t 2 1500
# a stripped program of its own (no build-id cache entry with symbols): unresolved frames
cc -O1 -fno-omit-frame-pointer -o "$T_TMP/cc_st" "$SRC/tests/workloads/callchain.c" 2>/dev/null &&
	strip -s "$T_TMP/cc_st" && rec st -e cpu-clock -c 100000 -g "$T_TMP/cc_st" 100

# $C: perf 6.1 and pmukit on one file (tests/integration/lib/perf_compare.sh)
cp "${PMUKIT_SRC:-.}/tests/integration/lib/perf_compare.sh" "$T_TMP/compare"
chmod +x "$T_TMP/compare"
C="$T_TMP/compare report_views report "

# --sort srcline on unwound callchains: file:line for each inline frame, not sym+address
ok "dwarf: --sort srcline (children: the frames' own srclines)" $C dw --sort srcline
ok "dwarf: --sort srcline -g none" $C dw --sort srcline -g none
ok "dwarf: --sort srcline --no-children" $C dw --sort srcline --no-children
ok "dwarf: --sort srcline,sym (perf's trees: inlined functions and srcline strings)" \
	$C dw --sort srcline,sym
ok "dwarf: --sort srcline,sym -g none" $C dw --sort srcline,sym -g none
ok "dwarf: --sort dso,srcline" $C dw --sort dso,srcline
ok "dwarf, callchain: --sort srcline" $C cc --sort srcline
ok "dwarf, callchain: --sort comm,srcline (srclines perf had not computed: no width)" \
	$C cc --sort comm,srcline
ok "dwarf, callchain: --sort srcline,sym -g none" $C cc --sort srcline,sym -g none
ok "dwarf, callchain: --sort dso,srcline --no-children -g caller" $C cc --sort dso,srcline --no-children -g caller

# perf report adds its IPC columns to a --sort with "symbol" (ipc_null: no branch stacks)
ok "--sort symbol: the IPC columns" $C g --sort symbol
ok "--sort dso,symbol -g none" $C g --sort dso,symbol -g none
ok "--sort comm,symbol,dso --no-children" $C thr --sort comm,symbol,dso --no-children
ok "--sort sym: no IPC columns" $C nog --sort sym
# symbol_size (its "symbol" brings the IPC columns too: entries by symbol)
ok "--sort symbol_size" $C g --sort symbol_size
ok "--sort sym_size: perf 6.1's unknown key (nothing on stdout, exit 0)" sh -c '
	perf report --stdio -i "$T_TMP/g.data" --sort sym_size > "$T_TMP/k1" 2>/dev/null; a=$?
	"$PMUKIT" report --stdio -i "$T_TMP/g.data" --sort sym_size > "$T_TMP/k2" 2>"$T_TMP/k2e"; b=$?
	[ $a = $b ] && cmp "$T_TMP/k1" "$T_TMP/k2" && grep -q "Unknown --sort key: .sym_size" "$T_TMP/k2e"'
ok "--sort symbol_size,dso --no-children" $C nog --sort symbol_size,dso
ok "--sort dso,symbol_size on a stripped program (unknown sizes)" $C st --sort dso,symbol_size -g none
# srcfile and --full-source-path
ok "--sort srcfile" $C g --sort srcfile
ok "--sort srcfile,sym --no-children" $C nog --sort srcfile,sym --no-children
ok "--sort dso,srcfile -g none" $C thr --sort dso,srcfile -g none
ok "--sort srcfile --full-source-path" $C nog --sort srcfile --full-source-path
ok "--sort srcline --full-source-path" $C nog --sort srcline --full-source-path
ok "dwarf: --sort srcfile -g none" $C dw --sort srcfile -g none
# parent, -p, -x
ok "--sort parent (perf's default regex)" $C g --sort parent
ok "-p round --sort parent" $C g -p round --sort parent
ok "-p top_ (adds the parent key)" $C g -p top_
ok "-x -p top_" $C g -x -p top_
ok "-x -p leaf_ --no-children --sort sym" $C thr -x -p leaf_ --no-children --sort sym
ok "-p 'leaf_1|mid' --sort parent,sym -g none" $C thr -p 'leaf_1|mid' --sort parent,sym -g none
ok "--sort parent without callchains: perf's error, exit 0" sh -c '
	perf report --stdio -i "$T_TMP/nog.data" --sort parent > "$T_TMP/p1" 2> "$T_TMP/e1"; a=$?
	"$PMUKIT" report --stdio -i "$T_TMP/nog.data" --sort parent > "$T_TMP/p2" 2> "$T_TMP/e2"; b=$?
	[ $a = $b ] && cmp "$T_TMP/p1" "$T_TMP/p2" && cmp "$T_TMP/e1" "$T_TMP/e2"'
# -U: no samples or callchain entries without a symbol
ok "stripped program: unresolved entries shown by default" $C st
ok "-U (--hide-unresolved)" $C st -U
ok "-U --no-children" $C st -U --no-children
ok "-U -g caller --no-children --sort dso,sym" $C st -U -g caller --no-children --sort dso,sym
# time (--time-quantum): perf 6.1's children of a time entry count each frame again
ok "--sort time -g none" $C g --sort time -g none
ok "--sort time --no-children" $C thr --sort time --no-children
ok "--sort time,sym --time-quantum 10ms --no-children" $C g --sort time,sym --time-quantum 10ms --no-children
ok "--sort sym,time --time-quantum 50ms -g none" $C thr --sort sym,time --time-quantum 50ms -g none
ok "--sort time --time-quantum 1s (no callchains)" $C nog --sort time --time-quantum 1s
# ... and their callchains: each frame's again (perf's he_cache never matches the time key)
ok "--sort time with children and callchains" $C g --sort time
ok "--sort time,sym --time-quantum 10ms -g callee (children)" $C thr --sort time,sym --time-quantum 10ms -g callee
ok "--sort sym,time -g fractal (children)" $C g --sort sym,time -g fractal
ok "--sort time with children on a dwarf recording: refused with a reason" sh -c '
	"$PMUKIT" report --stdio -i "$T_TMP/dw.data" --sort time,sym -g none >/dev/null 2>"$T_TMP/t.err"
	[ $? = 255 ] && grep -q "key .time. with children on a --call-graph dwarf recording is not supported" "$T_TMP/t.err"'
ok "--time-quantum 5x: perf's usage error (129)" sh -c '
	"$PMUKIT" report --stdio -i "$T_TMP/g.data" --sort time --time-quantum 5x >/dev/null 2>&1; [ $? = 129 ]'
# -G, --ignore-callees
ok "-G (--inverted)" $C g -G
ok "-G --no-children" $C g -G --no-children
ok "--inverted -g callee --no-children (-G wins)" $C thr --inverted -g callee --no-children
ok "--ignore-callees top_a" $C g --ignore-callees top_a
ok "--ignore-callees 'mid_|top_b' --no-children" $C thr --ignore-callees 'mid_|top_b' --no-children
ok "--ignore-callees round_all -g caller --no-children" $C g --ignore-callees round_all -g caller --no-children
ok "--ignore-callees top_ -p mid --sort parent,sym --no-children" \
	$C g --ignore-callees top_ -p mid --sort parent,sym --no-children
ok "dwarf: --ignore-callees 'top_|leaf_1' -G (unwound frames are not matched)" \
	$C dw --ignore-callees 'top_|leaf_1' -G
ok "dwarf: -p round --sort parent,sym -g none" $C dw -p round --sort parent,sym -g none
# --hierarchy (one level per sort key; the leaves' callchains)
ok "--hierarchy (no callchains)" $C nog --hierarchy
ok "--hierarchy -g none" $C g --hierarchy -g none
ok "--hierarchy --sort dso,sym" $C nog --hierarchy --sort dso,sym
ok "--hierarchy -n --sort dso" $C nog --hierarchy -n --sort dso
ok "--hierarchy -g none --sort sym,comm (ties by the level's key)" $C thr --hierarchy -g none --sort sym,comm
ok "--hierarchy -g none --sort pid,dso" $C thr --hierarchy -g none --sort pid,dso
ok "--hierarchy -g none --percent-limit 2" $C g --hierarchy -g none --percent-limit 2
ok "--hierarchy -g none --percent-limit 30 -n (perf's \"no entry >=\" lines)" \
	$C g --hierarchy -g none --percent-limit 30 -n
ok "--hierarchy -g none --sort comm,sym --show-total-period" \
	$C thr --hierarchy -g none --sort comm,sym --show-total-period
ok "--hierarchy with callchains (caller order: perf decides it before children go off)" \
	$C g --hierarchy
ok "--hierarchy -g callee" $C thr --hierarchy -g callee
ok "--hierarchy --sort dso,sym -g folded" $C g --hierarchy --sort dso,sym -g folded
ok "--hierarchy --sort sym --percent-limit 2" $C thr --hierarchy --sort sym --percent-limit 2
ok "dwarf: --hierarchy" $C dw --hierarchy

# ---- the pager, in a real terminal (tmux, 250x30: perf's tips do not wrap): perf 6.1 and pmukit screen by screen ----
TM="tmux -L pmukit-views-$$ -f /dev/null"
PK="$(cd "$(dirname "$PMUKIT")" && pwd)/$(basename "$PMUKIT")"
tm() {	# tm NAME CMD: CMD typed in the terminal; its screen in $T_TMP/NAME.cap (perf's tip
	# lines left out) once it stops changing; q typed when a pager holds it
	name=$1; shift
	$TM send-keys -t pv "clear; $*; echo DONE-$name" Enter
	i=0 prev=
	while [ $i -lt 50 ]; do
		sleep 0.3; i=$((i + 1))
		cur=$($TM capture-pane -t pv -p)
		case $cur in *DONE-$name*) break ;; esac
		[ "$cur" = "$prev" ] && [ "${cur#\#}" != "$cur" ] && break
		prev=$cur
	done
	printf '%s\n' "$cur" | grep -v '^# (Tip:' > "$T_TMP/$name.cap"
	grep -q "^DONE-$name" "$T_TMP/$name.cap" && return 0
	$TM send-keys -t pv q
	i=0
	while [ $i -lt 30 ] && ! $TM capture-pane -t pv -p | grep -q "^DONE-$name"; do
		sleep 0.2; i=$((i + 1))
	done
}
same() {	# same A B: two screens equal (but for the DONE-NAME lines)
	sed 's/^DONE-.*/DONE/' "$T_TMP/$1.cap" > "$T_TMP/$1.scr"
	sed 's/^DONE-.*/DONE/' "$T_TMP/$2.cap" > "$T_TMP/$2.scr"
	diff "$T_TMP/$1.scr" "$T_TMP/$2.scr" >&2
}
paged() {	# paged NAME: a pager held the screen (the command had not ended)
	! grep -q "^DONE-$1" "$T_TMP/$1.cap" || { echo "no pager:" >&2; cat "$T_TMP/$1.cap" >&2; return 1; }
}
unpaged() {	# unpaged NAME: the command ended without a pager
	grep -q "^DONE-$1" "$T_TMP/$1.cap" || { echo "a pager:" >&2; cat "$T_TMP/$1.cap" >&2; return 1; }
}
if command -v tmux >/dev/null 2>&1 &&
	$TM new-session -d -s pv -x 250 -y 30 -c "$T_TMP" "env -u PAGER -u PERF_PAGER -u LESS PS1='$ ' sh"; then
	trap '$TM kill-server 2>/dev/null; rm -rf "$T_TMP"' EXIT
	tm pg-perf perf report -i g.data --stdio
	tm pg-pk "$PK" report -i g.data --stdio
	ok "pager: report on a terminal waits in a pager (less, LESS=FRSX)" paged pg-pk
	ok "pager: its first screen is perf's" same pg-perf pg-pk
	tm np-perf perf --no-pager report -i g.data --stdio
	tm np-pk "$PK" --no-pager report -i g.data --stdio
	ok "pager: pmukit --no-pager report runs to its end" unpaged np-pk
	ok "pager: --no-pager: the screen is perf --no-pager's" same np-perf np-pk
	tm cat-perf PAGER=cat perf report -i nog.data --stdio
	tm cat-pk PAGER=cat "$PK" report -i nog.data --stdio
	ok "pager: PAGER=cat: no pager" unpaged cat-pk
	ok "pager: PAGER=cat: the screen is perf's" same cat-perf cat-pk
	tm pipe-pk "$PK" report -i g.data --stdio "| head -3"
	ok "pager: not when stdout is not a terminal" unpaged pipe-pk
	tm stdin-pk "$PK" report -i - --stdio "< nog.data"
	ok "pager: not when reading a pipe's -i - (as perf)" unpaged stdin-pk
	# what the pager is run with: PERF_PAGER before PAGER, LESS=FRSX unless LESS is set
	for t in perf pk; do
		tool=perf; [ $t = pk ] && tool=$PK
		tm env1-$t "PERF_PAGER='env > env1-$t.out; cat >/dev/null' PAGER=false $tool report -i nog.data --stdio"
		tm env2-$t "LESS=R PAGER='env > env2-$t.out; cat >/dev/null' $tool report -i nog.data --stdio"
	done
	ok "pager: PERF_PAGER first, LESS=FRSX by default (as perf)" sh -c "
		grep -qx LESS=FRSX '$T_TMP/env1-pk.out' && grep -qx LESS=FRSX '$T_TMP/env1-perf.out'"
	ok "pager: PAGER, LESS kept when set (as perf)" sh -c "
		grep -qx LESS=R '$T_TMP/env2-pk.out' && grep -qx LESS=R '$T_TMP/env2-perf.out'"
else
	for t in 1 2 3 4 5 6 7 8 9 10; do T_N=$((T_N + 1)); echo "ok $T_N - pager # SKIP no tmux"; done
fi

echo "1..$T_N"
[ $T_FAIL -eq 0 ]
