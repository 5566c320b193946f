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

# $C: perf 6.1 and pmukit on one file (tests/integration/lib/perf_compare.sh)
cp "${PMUKIT_SRC:-.}/tests/integration/lib/perf_compare.sh" "$T_TMP/compare"
chmod +x "$T_TMP/compare"
C="$T_TMP/compare report_views report "

# --sort srcline on unwound callchains: file:line for each inline frame, not sym+address
ok "dwarf: --sort srcline (children: the frames' own srclines)" $C dw --sort srcline
ok "dwarf: --sort srcline -g none" $C dw --sort srcline -g none
ok "dwarf: --sort srcline --no-children" $C dw --sort srcline --no-children
ok "dwarf, callchain: --sort srcline" $C cc --sort srcline
ok "dwarf, callchain: --sort srcline,sym -g none" $C cc --sort srcline,sym -g none
ok "dwarf, callchain: --sort dso,srcline --no-children -g caller" $C cc --sort dso,srcline --no-children -g caller

# ---- the pager, in a real terminal (tmux, 100x30): perf 6.1 and pmukit screen by screen ----
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
	$TM new-session -d -s pv -x 100 -y 30 -c "$T_TMP" "env -u PAGER -u PERF_PAGER -u LESS PS1='$ ' sh"; then
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
