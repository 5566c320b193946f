#!/bin/sh
# report_tui.sh — pmukit report's interactive browser in a real terminal (TAP):
# tmux runs it (120x40), send-keys types perf's keys, capture-pane reads the
# screen. Its rows are those of `pmukit report --stdio` on the same file (the
# same symbols and percentages in the same order, and perf 6.1's own TUI
# shows the same first screen); an unfolded callchain is --stdio's; the DSO
# zoom, the thread zoom and the / filter show what --dsos, --tid and
# --symbol-filter print; help, header, P (perf.hist.N), a resize, q (exit 0,
# the screen restored), SIGTERM (stty -a as before), TERM=dumb and a missing
# terminfo (--stdio output and one line saying why). Screens are waited for
# by polling capture-pane, never by fixed sleeps.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"

command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf (6.1) is not installed"; exit 0; }
command -v tmux >/dev/null 2>&1 || { echo "1..0 # SKIP no tmux"; exit 0; }
[ -x "$W" ] || { echo "1..0 # SKIP $W not built (make tests)"; exit 0; }
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/probe.data" true >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf record cannot sample cpu-clock here"; exit 0; }
perf record -q -e cpu-clock -c 100000 -g -o "$T_TMP/g.data" "$W" 3000 >/dev/null 2>&1 &&
perf record -q -e cpu-clock -c 100000 -g -o "$T_TMP/thr.data" "$W" -t 2 1500 >/dev/null 2>&1 &&
perf record -q -e cpu-clock,task-clock -c 100000 -o "$T_TMP/two.data" "$W" 1500 >/dev/null 2>&1 &&
perf record -q -e '{cpu-clock,task-clock}:S' -c 100000 -g -o "$T_TMP/grp.data" "$W" 2000 >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf record failed"; exit 0; }
PK="$(cd "$(dirname "$PMUKIT")" && pwd)/$(basename "$PMUKIT")"
export PK T_TMP

TM="tmux -L pmukit-tui-$$ -f /dev/null"
$TM new-session -d -s tu -x 120 -y 40 -c "$T_TMP" "env PS1='$ ' sh" ||
	{ echo "1..0 # SKIP tmux cannot start a session"; exit 0; }
trap '$TM kill-server 2>/dev/null; rm -rf "$T_TMP"' EXIT
$TM set-option -g window-size manual 2>/dev/null

cap() {	# cap: the screen on stdout
	$TM capture-pane -t tu -p
}
settled() {	# settled: the screen in $T_TMP/screen unchanged over three more looks 0.1 s apart
	# (ncurses writes a screen in several chunks: on a loaded machine a pause between
	# two of them looked like a finished screen at a single 50 ms second look)
	sk=0
	while [ $sk -lt 3 ]; do
		sleep 0.1
		cap > "$T_TMP/screen2"
		cmp -s "$T_TMP/screen" "$T_TMP/screen2" || return 1
		sk=$((sk + 1))
	done
}
wait_for() {	# wait_for TEXT [FILE]: until the screen shows TEXT, drawn whole (settled),
	# 10 s at most; the screen in FILE
	i=0
	while [ $i -lt 200 ]; do
		cap > "$T_TMP/screen"
		if grep -qF -- "$1" "$T_TMP/screen" && settled; then
			[ -z "$2" ] || cp "$T_TMP/screen" "$T_TMP/$2"
			return 0
		fi
		sleep 0.05; i=$((i + 1))
	done
	echo "waited in vain for: $1" >&2
	cat "$T_TMP/screen" >&2
	return 1
}
wait_gone() {	# wait_gone TEXT: until the screen no longer shows TEXT, drawn whole (settled)
	i=0
	while [ $i -lt 200 ]; do
		cap > "$T_TMP/screen"
		grep -qF -- "$1" "$T_TMP/screen" || ! settled || return 0
		sleep 0.05; i=$((i + 1))
	done
	echo "still on the screen: $1" >&2
	return 1
}
keys() {	# keys KEY...: typed into the browser
	$TM send-keys -t tu "$@"
}
run() {	# run NAME ARGS...: a fresh shell line running pmukit report ARGS, its first screen in NAME
	name=$1; shift
	keys "clear; echo BEFORE-$name; \"\$PK\" report $*; echo EXIT-$name=\$?" Enter
	wait_for "Press '?' for help" "$name"
}
quit() {	# quit NAME: q (again after a zoom) until the shell prints NAME's exit status
	j=0
	while [ $j -lt 5 ]; do
		keys q
		i=0
		while [ $i -lt 40 ]; do
			cap > "$T_TMP/screen"
			grep -q "^EXIT-$1=" "$T_TMP/screen" && return 0
			sleep 0.05; i=$((i + 1))
		done
		j=$((j + 1))
	done
	echo "$1 did not exit" >&2
	return 1
}
# the entry rows of a screen or of --stdio text: "children self ... symbol" without
# the fold sign and spacing (the columns' widths of a zoom are the unzoomed ones)
rows_screen() {
	sed -n '3,39p' "$T_TMP/$1" | grep -E '^[-+ ] +[0-9]+\.[0-9]+%' | cut -c2- | awk '{$1=$1; print}'
}
rows_stdio() {	# rows_stdio N ARGS...: the first N entry rows of pmukit report --stdio ARGS
	n=$1; shift
	"$PMUKIT" report --stdio "$@" | grep -E '^ +[0-9]+\.[0-9]+%' | head -n "$n" | awk '{$1=$1; print}'
}
same_rows() {	# same_rows SCREEN ARGS...: the screen's rows are --stdio's first ones
	rows_screen "$1" > "$T_TMP/a"
	shift
	[ -s "$T_TMP/a" ] || { echo "no rows on the screen" >&2; return 1; }
	rows_stdio "$(wc -l < "$T_TMP/a")" "$@" > "$T_TMP/b"
	diff "$T_TMP/b" "$T_TMP/a" >&2
}
# the title perf's TUI prints, from --stdio's "# Samples" and "# Event count" lines
title_of() {
	"$PMUKIT" report --stdio "$@" | awk '/^# Samples:/ { sub(/^# /, ""); s = $0 }
		/^# Event count/ { sub(/^# /, ""); print s ", " $0; exit }'
}
perf_first() {	# perf_first NAME ARGS...: perf 6.1's TUI first screen (once it is still) in NAME
	name=$1; shift
	keys "clear; perf report $*; echo EXIT-$name=\$?" Enter
	wait_for "Event count (approx.)" || return 1
	still "$name"
	quit "$name"
}
still() {	# still NAME: the screen once unchanged over three looks 0.1 s apart, in NAME
	prev= i=0 same=0
	while [ $i -lt 100 ] && [ $same -lt 2 ]; do
		sleep 0.1; i=$((i + 1))
		cur=$(cap)
		if [ "$cur" = "$prev" ]; then same=$((same + 1)); else same=0; fi
		prev=$cur
	done
	printf '%s\n' "$cur" > "$T_TMP/$1"
}
same_as_perf() {	# same_as_perf A B: two first screens equal but for the bottom line
	head -n 39 "$T_TMP/$1" > "$T_TMP/a"
	head -n 39 "$T_TMP/$2" > "$T_TMP/b"
	diff "$T_TMP/a" "$T_TMP/b" >&2
}

lines() {	# lines FILE FROM TO: those lines, trailing blanks dropped
	sed -n "$2,$3p" "$T_TMP/$1" | sed 's/ *$//'
}
title_ok() {	# title_ok SCREEN SUFFIX ARGS...: the title is --stdio's samples and count, then SUFFIX
	f=$1 suffix=$2; shift 2
	t="$(title_of "$@")$suffix"
	head -1 "$T_TMP/$f" | sed 's/ *$//' | grep -qxF -- "$t" || { echo "title: want $t" >&2; head -1 "$T_TMP/$f" >&2; return 1; }
}
is_first_view_of() {	# is_first_view_of FIRST FILE: lines 1-39 as those of FIRST
	lines "$1" 1 39 > "$T_TMP/a"; lines "$2" 1 39 > "$T_TMP/b"
	diff "$T_TMP/a" "$T_TMP/b" >&2
}
is_first_view() {	# is_first_view FILE: lines 1-39 as the first view's
	lines first 1 39 > "$T_TMP/a"; lines "$1" 1 39 > "$T_TMP/b"
	diff "$T_TMP/a" "$T_TMP/b" >&2
}

# ---- the first view: --stdio's rows, perf's title and columns, as perf 6.1's TUI ----
run first -i g.data
ok "first view: the title as perf's (samples, event, event count)" title_ok first "" -i "$T_TMP/g.data"
ok "first view: Children Self Command Shared Object Symbol" \
	sh -c "sed -n 2p '$T_TMP/first' | grep -qE '^ +Children +Self +Command +Shared Object +Symbol'"
ok "first view: the rows of --stdio (symbols, percentages, order)" same_rows first -i "$T_TMP/g.data"
ok "first view: 37 rows, each with a folded callchain (+)" \
	sh -c "[ \$(sed -n '3,39p' '$T_TMP/first' | grep -c '^+ ') = 37 ]"
quit first
perf_first perf-first -i g.data
ok "first view: perf 6.1's TUI shows the same screen (but its bottom line)" same_as_perf perf-first first

# ---- callchains: --stdio's lines under the unfolded entry ----
run cc -i g.data
keys Enter
wait_for "---__libc_start_call_main" chain
"$PMUKIT" report --stdio -i "$T_TMP/g.data" | grep -v '^#' | sed -n '2,37p' | sed 's/ *$//' > "$T_TMP/chain.stdio"
chain_ok() {	# (a screen caught mid-draw is looked at again, 5 s at most)
	t=0
	until lines chain 4 39 | diff "$T_TMP/chain.stdio" - > "$T_TMP/chain.diff" &&
		sed -n 3p "$T_TMP/chain" | grep -qE '^- +[0-9]+\.[0-9]+%'; do
		t=$((t + 1))
		[ $t -lt 10 ] || { cat "$T_TMP/chain.diff" >&2; return 1; }
		sleep 0.5; cap > "$T_TMP/chain"
	done
}
ok "+/Enter: the callchain unfolded as --stdio prints it" chain_ok
keys Enter
wait_gone "---__libc_start_call_main"
ok "+/Enter again: folded, the first view" is_first_view screen
keys E
wait_for "---__libc_start_call_main"
keys P
wait_for "perf.hist.0 written"
all_ok() {	# every entry unfolded: perf.hist.0 (P) has no folded one
	# (entries whose callchain is all under -g's threshold have none, no sign: as perf)
	n=$("$PMUKIT" report --stdio -i "$T_TMP/g.data" | grep -cE '^ +[0-9]+\.[0-9]+%')
	[ "$(grep -cE '^[- ] +[0-9]+\.[0-9]+%' "$T_TMP/perf.hist.0")" = "$n" ] &&
		[ "$(grep -c '^-  ' "$T_TMP/perf.hist.0")" -gt 37 ] && ! grep -q '^+  ' "$T_TMP/perf.hist.0"
}
ok "E: every callchain unfolded (P's perf.hist.0 shows it)" all_ok
keys C
wait_gone "---__libc_start_call_main"
ok "C: every callchain folded" is_first_view screen

# ---- zooms and the filter: what --dsos, --tid and --symbol-filter print ----
keys Down d
wait_for ", DSO: report_many" dso
ok "d: zoom into the DSO: its title" title_ok dso ", DSO: report_many" -i "$T_TMP/g.data"
dso_rows() {	# dso_rows SCREEN DSO ARGS...: the screen's rows are --stdio's of that DSO
	f=$1 d=$2; shift 2
	rows_screen "$f" > "$T_TMP/a"
	"$PMUKIT" report --stdio "$@" | grep -E '^ +[0-9]+\.[0-9]+%' | awk -v d="$d" '$4 == d { $1 = $1; print }' |
		head -n "$(wc -l < "$T_TMP/a")" > "$T_TMP/b"
	[ -s "$T_TMP/a" ] && diff "$T_TMP/b" "$T_TMP/a" >&2
}
ok "d: the rows are --stdio's of that DSO" dso_rows dso report_many -i "$T_TMP/g.data"
keys Escape
wait_gone ", DSO:"
ok "ESC: out of the zoom, the first view" is_first_view screen
keys /
wait_for "Symbol to show:"
keys leaf_1 Enter
wait_for "Symbol filter: leaf_1" filter
ok "/: the rows of --symbol-filter" same_rows filter -i "$T_TMP/g.data" --symbol-filter leaf_1
keys q
wait_gone "Symbol filter:"
ok "q: backs out of the filter first" is_first_view screen

# ---- help, header, P ----
keys '?'
wait_for "Keys of pmukit report's browser" help
help_ok() {
	for k in UP/DOWN PGUP PGDN HOME/END ENTER 'E  ' 'C  ' 'd  ' 't  ' '/  ' ESC/LEFT 'i  ' 'P  ' \
		 'h/?' 'q/CTRL+C'; do
		grep -qF -- "$k" "$T_TMP/help" || { echo "no $k" >&2; return 1; }
	done
	grep -q 'not supported' "$T_TMP/help" && grep -q '^a  *annotate' "$T_TMP/help"
}
ok "h/?: the help lists every key and the perf keys not supported (a)" help_ok
keys q
wait_for "Press '?' for help"
keys i
wait_for "# captured on" header
ok "i: the perf.data header (report --header-only's)" sh -c "
	\"\$PK\" report --header-only -i '$T_TMP/g.data' | grep '^# hostname' > '$T_TMP/h1' &&
	grep -qxF -f '$T_TMP/h1' '$T_TMP/header'"
keys q
wait_for "Press '?' for help"
keys P
wait_for "perf.hist.1 written"
ok "P: the view written to perf.hist.1 (the next free N) as shown" sh -c "
	sed -n '3,39p' '$T_TMP/first' | sed 's/ *\$//' > '$T_TMP/h' && head -37 '$T_TMP/perf.hist.1' | diff '$T_TMP/h' - >&2"

# ---- a resize mid-view: redrawn at the new size, then back ----
resized() {	# resized W H: the screen at W x H, its status line drawn; in FILE small
	i=0
	while [ $i -lt 200 ]; do
		cap > "$T_TMP/sized"
		# (drawn whole: ncurses may write the status line before the rows)
		[ "$(wc -l < "$T_TMP/sized")" = "$2" ] && sed -n "${2}p" "$T_TMP/sized" | grep -q Press &&
			head -1 "$T_TMP/sized" | grep -q '^Samples:' && cp "$T_TMP/sized" "$T_TMP/screen" &&
			settled && return 0
		sleep 0.05; i=$((i + 1))
	done
	echo "not redrawn at $1x$2:" >&2
	cat "$T_TMP/sized" >&2
	return 1
}
keys Home
$TM resize-window -t tu -x 80 -y 20
resized 80 20 2>"$T_TMP/resize.err"; cp "$T_TMP/sized" "$T_TMP/small"
small_ok() {
	lines first 1 19 | cut -c1-80 | sed 's/ *$//' > "$T_TMP/a"
	lines small 1 19 > "$T_TMP/b"
	diff "$T_TMP/a" "$T_TMP/b" > "$T_TMP/d" && return 0
	sed -n 1,4p "$T_TMP/b" >&2; grep -v '^ *$' "$T_TMP/resize.err" | head -15 >&2; return 1
}
ok "resize: redrawn at 80x20 (the first 17 rows, cut at 80 columns)" small_ok
$TM resize-window -t tu -x 120 -y 40
resized 120 40; cp "$T_TMP/sized" "$T_TMP/big"
ok "resize: back at 120x40, the first view" is_first_view big
quit cc
ok "q: exit status 0, the shell's screen restored" sh -c "
	grep -qx 'EXIT-cc=0' '$T_TMP/screen' && grep -qx 'BEFORE-cc' '$T_TMP/screen'"

# ---- a: the selected symbol's annotation, as perf 6.1's TUI annotate browser shows it ----
run annr -i g.data --no-children
keys a
wait_for "[Percent: local period]" pkann
ann_ok() {	# the symbol's title and its hottest line's percent: pmukit annotate --stdio's
	sym=$(sed -n 2p "$T_TMP/pkann" | awk '{ print $1 }')
	[ -n "$sym" ] || return 1
	sed -n 2p "$T_TMP/pkann" | grep -qF "$sym  $(cd "$(dirname "$W")" && pwd)/report_many [Percent: local period]" ||
		{ echo "title 2: $(sed -n 2p "$T_TMP/pkann")" >&2; return 1; }
	hot=$("$PMUKIT" annotate --stdio -i "$T_TMP/g.data" "$sym" 2>/dev/null |
		awk -F: '$1 ~ /^ +[0-9]+\.[0-9]+ *$/ { v = $1 + 0; if (v > m) m = v } END { printf "%6.2f", m }')
	grep -q "^$hot │" "$T_TMP/pkann" || { echo "no line of $hot%" >&2; return 1; }
	t="$(title_of -i "$T_TMP/g.data" --no-children | sed "s/', Event count/', 100000 Hz, Event count/")"
	head -1 "$T_TMP/pkann" | sed 's/ *$//' | grep -qxF -- "$t"
}
ok "a: the annotation of the selected symbol (title, hottest line as annotate --stdio)" ann_ok
for k in q Escape Left; do
	keys "$k"
	wait_for "Press '?' for help" annback
	ok "a, then $k: back to the report's view" sh -c "sed -n 1,39p '$T_TMP/annr' > '$T_TMP/a'; sed -n 1,39p '$T_TMP/annback' | diff '$T_TMP/a' - >&2"
	[ "$k" = Left ] || { keys a; wait_for "[Percent: local period]"; }
done
quit annr
keys "clear; perf report -i g.data --no-children; echo EXIT-pann=\$?" Enter
wait_for "Event count (approx.)" && still pann0
keys a
wait_for "[Percent: local period]" && still pfann
quit pann
ok "a: perf 6.1's TUI annotate browser shows the same screen" same_as_perf pfann pkann
changed() {	# changed FROM NAME: once the screen differs from FROM's, the still screen in NAME
	i=0
	while cap | cmp -s - "$T_TMP/$1"; do
		i=$((i + 1)); [ $i -lt 200 ] || { echo "the screen did not change" >&2; return 1; }
		sleep 0.05
	done
	still "$2"
}
# the annotate view's keys against perf 6.1's: for pmukit and perf, a on g.data's first
# entry (--no-children), then each STEP's keys (blank-separated) typed and the screen,
# once changed, in ${who}${tag}2, ${who}${tag}3, ...; perf draws a scroll bar once a key
# moved: the ...s copies leave its last column out
ann_steps() {	# ann_steps TAG STEP...
	tag=$1; shift
	for who in pk pf; do
		if [ $who = pk ]; then run "${who}${tag}0" -i g.data --no-children
		else keys "clear; perf report -i g.data --no-children; echo EXIT-${who}${tag}0=\$?" Enter
			wait_for "Event count (approx.)" && still "${who}${tag}0"
		fi
		keys a
		wait_for "[Percent: local period]" && still "${who}${tag}1"
		n=1
		for step in "$@"; do
			for k in $step; do keys "$k"; sleep 0.3; done
			changed "${who}${tag}$n" "${who}${tag}$((n + 1))"
			n=$((n + 1))
			sed 's/ *[▒◆█]$//; s/ *$//' "$T_TMP/${who}${tag}$n" > "$T_TMP/${who}${tag}${n}s"
		done
		quit "${who}${tag}0"
	done
}
# s: the source lines hidden, then shown again
ann_steps s s s
ok "a, s: the source lines hidden, as perf 6.1's annotate browser" same_as_perf pfs2 pks2
ok "a, s, s: shown again, the selection on its row, as perf 6.1's" same_as_perf pfs3 pks3
# TAB: the line with the next lower percent, centred
ann_steps t "Tab Tab"
ok "a, TAB, TAB: the third hottest line centred, as perf 6.1's annotate browser" same_as_perf pft2s pkt2s

# ENTER on a call in the annotate view: the callee's annotation, q back to the caller's
# (a caller with samples of its own: not in every recording of report_many, up to 3 made)
caller() {
	"$PMUKIT" report --stdio -i "$T_TMP/call.data" --no-children --sort dso,sym -g none |
		awk '$2 == "report_many" && $4 ~ /^(mid|top)_/ { print $4; exit }'
}
mid= n=0
while [ -z "$mid" ] && [ $n -lt 3 ]; do	# (a short period: ten times the samples)
	perf record -q -e cpu-clock -c 10000 -g -o "$T_TMP/call.data" "$W" 3000 >/dev/null 2>&1
	mid=$(caller); n=$((n + 1))
done
[ -n "$mid" ] || echo "# no recording with a caller's own samples: ENTER on a call not tried"
if [ -n "$mid" ]; then
	run callr -i call.data --no-children
	keys /
	wait_for "Symbol to show:"
	keys "$mid" Enter
	wait_for "Symbol filter: $mid"
	keys a
	wait_for "$mid  " callv
	# from the hottest line (the selection) to the nearest call above it, else below it
	hot=$(awk -F'│' 'NR > 2 && $1 ~ /[0-9]/ { v = $1 + 0; if (v >= m) { m = v; r = NR } } END { print r }' "$T_TMP/callv")
	call=$(awk -v h="$hot" 'NR > 2 && NR <= h && /→ call/ { r = NR } END { print r }' "$T_TMP/callv")
	[ -n "$call" ] || call=$(awk -v h="$hot" 'NR > h && NR < 40 && /→ call/ { print NR; exit }' "$T_TMP/callv")
	callee=$(sed -n "${call:-1}p" "$T_TMP/callv" | sed 's/.*→ call *//; s/ *$//')
	i=${call:-0}; while [ "$i" -lt "${hot:-0}" ]; do keys Up; i=$((i + 1)); done
	i=${hot:-0}; while [ "$i" -lt "${call:-0}" ]; do keys Down; i=$((i + 1)); done
	keys Enter
	callee_ok() {	# its annotation (or the status line's "no samples of" it), then q: the caller's again
		[ -n "$callee" ] || { echo "no call above the hottest line" >&2; return 1; }
		i=0
		until sed -n 2p "$T_TMP/callee" | grep -q "^$callee  " || grep -q "no samples of $callee" "$T_TMP/callee"; do
			i=$((i + 1)); [ $i -lt 100 ] || { cat "$T_TMP/callee" >&2; return 1; }
			sleep 0.1; cap > "$T_TMP/callee"
		done
	}
	cap > "$T_TMP/callee"
	ok "a, ENTER on a call: the callee's annotation" callee_ok
	sed -n 2p "$T_TMP/callee" | grep -q "^$callee  " && keys q
	wait_for "$mid  " callback
	ok "a, ENTER on a call, q: back to the caller's annotation" sh -c "sed -n 2p '$T_TMP/callback' | grep -q '^$mid  '"
	quit callr
fi

# ---- m: perf's context menu (its lines as perf 6.1 words them), ENTER on Annotate ----
run menr -i g.data --no-children
keys m
wait_for "Exit" pkmenu
menu_sub() {	# every line of our menu is one of perf's, in the same order
	sed -n '2,12p' "$T_TMP/pkmenu" | sed 's/ *$//' | grep -v '^$' > "$T_TMP/a"
	sed -n '2,12p' "$T_TMP/pfmenu" | sed 's/ *[▒◆█]* *$//; s/ *$//' | grep -v '^$' > "$T_TMP/b"
	[ "$(wc -l < "$T_TMP/a")" -ge 4 ] && grep -q '^Annotate ' "$T_TMP/a" &&
		[ "$(grep -cxF -f "$T_TMP/a" "$T_TMP/b")" = "$(wc -l < "$T_TMP/a")" ] || { diff "$T_TMP/b" "$T_TMP/a" >&2; return 1; }
}
keys Enter
wait_for "[Percent: local period]" menann
ok "m, ENTER on 'Annotate SYM': the annotate view of that symbol" \
	sh -c "sed -n 2p '$T_TMP/menann' | grep -q \"^\$(sed -n 2p '$T_TMP/pkmenu' | awk '{ print \$2 }')  \""
keys q
wait_for "Press '?' for help"
keys k
wait_for ", DSO: " kz
kz_ok() {	# the kernel's rows of --stdio --no-children (none: no kernel sample, nothing to check)
	"$PMUKIT" report --stdio -i "$T_TMP/g.data" --no-children | grep -q '\[kernel.kallsyms\]' || return 0
	head -1 "$T_TMP/kz" | grep -q ', DSO: \[kernel.kallsyms\]$' || return 1
	rows_screen kz > "$T_TMP/a"
	"$PMUKIT" report --stdio -i "$T_TMP/g.data" --no-children | grep -E '^ +[0-9]+\.[0-9]+%' |
		awk '$3 == "[kernel.kallsyms]" { $1 = $1; print }' | head -n "$(wc -l < "$T_TMP/a")" > "$T_TMP/b"
	[ -s "$T_TMP/a" ] && diff "$T_TMP/b" "$T_TMP/a" >&2
}
ok "k: zoom into the kernel map (its title and rows, as --stdio's kernel rows)" kz_ok
keys k
wait_gone ", DSO: "
keys Home
kout_ok() {	# (the selection on the kernel's row scrolled the view: HOME, looked at again 5 s at most)
	t=0
	until wait_for "Press '?' for help" kout && is_first_view_of menr kout 2>/dev/null; do
		t=$((t + 1)); [ $t -lt 10 ] || { is_first_view_of menr kout; return 1; }
		sleep 0.5
	done
}
ok "k again, HOME: out of the zoom, the first view" kout_ok
keys r
wait_for "no scripts here" rs
keys s
wait_for "not supported here" ss
ok "r, s: the status line says why they do nothing here" true
quit menr
keys "clear; perf report -i g.data --no-children; echo EXIT-pmenu2=\$?" Enter
wait_for "Event count (approx.)" && still pm0
keys m
wait_for "Exit" && still pfmenu
quit pmenu2
ok "m: the context menu's lines are perf 6.1's (those it has, in perf's order)" menu_sub

# ---- H: the column headers hidden, 0-9 without a group: perf 6.1's screen and message ----
run hh -i g.data --no-children
keys H
wait_gone "  Overhead  Command"
still pkH
keys 1
wait_for "Sort by index" pk1
quit hh
keys "clear; perf report -i g.data --no-children; echo EXIT-phh=\$?" Enter
wait_for "Event count (approx.)" && still phh0
keys H
wait_gone "  Overhead  Command"
still pfH
keys 1
wait_for "Sort by index" pf1
quit phh
ok "H: the column headers hidden, perf 6.1's TUI shows the same screen" same_as_perf pfH pkH
ok "0-9 without a group: perf 6.1's message" sh -c "
	tail -1 '$T_TMP/pf1' | sed 's/ *\$//' > '$T_TMP/a' && tail -1 '$T_TMP/pk1' | sed 's/ *\$//' | diff '$T_TMP/a' - >&2 &&
	grep -qx 'Sort by index only available with group events!' '$T_TMP/a'"

# ---- S: perf's socket zoom, which needs the socket sort key (pmukit report refuses it):
# nothing happens, the screen and its bottom line as before, as perf 6.1's ----
for who in pk pf; do
	if [ $who = pk ]; then run "${who}S0" -i g.data
	else keys "clear; perf report -i g.data; echo EXIT-${who}S0=\$?" Enter
		wait_for "Event count (approx.)" && still "${who}S0"
	fi
	still "${who}S1"
	keys S
	sleep 0.3
	still "${who}S2"
	quit "${who}S0"
done
ok "S without a socket key: nothing happens (the bottom line too)" cmp "$T_TMP/pkS1" "$T_TMP/pkS2"
ok "S: perf 6.1's TUI shows the same screen" same_as_perf pfS2 pkS2

# L: perf's percent limit, the rows of --stdio --percent-limit
run pl -i g.data
keys L
wait_for "Percent limit:"
keys 3 Enter
wait_gone "Percent limit:"
still plim
ok "L 3: the rows of --stdio --percent-limit 3" same_rows plim -i "$T_TMP/g.data" --percent-limit 3
ok "L 3: fewer rows than the first view" sh -c "[ \$(sed -n '3,39p' '$T_TMP/plim' | grep -c '%') -lt \$(sed -n '3,39p' '$T_TMP/pl' | grep -c '%') ]"
keys L
wait_for "Percent limit:"
keys 0 Enter
wait_gone "Percent limit:"
still plim0
ok "L 0: every row again" is_first_view_of pl plim0
keys L
wait_for "Percent limit:"
keys 200 Enter
wait_for "Invalid percent: 200.00"
ok "L 200: perf's 'Invalid percent' message" true
quit pl

# F: the percentages of what a zoom leaves, as --dsos with --percentage relative prints them
run fr -i g.data --no-children
keys d
wait_for ", DSO: report_many" fr1
keys F
changed fr1 fr2
rel_ok() {
	title_ok fr2 ", DSO: report_many" -i "$T_TMP/g.data" --no-children --dsos report_many --percentage relative || return 1
	rows_screen fr2 | awk '{ $3 = ""; print }' | awk '{ $1 = $1; print }' > "$T_TMP/a"
	rows_stdio "$(wc -l < "$T_TMP/a")" -i "$T_TMP/g.data" --no-children --dsos report_many --percentage relative > "$T_TMP/b"
	[ -s "$T_TMP/a" ] && diff "$T_TMP/b" "$T_TMP/a" >&2
}
ok "d, F: the title and rows of --dsos report_many --percentage relative" rel_ok
keys F
changed fr2 fr3
ok "d, F, F: the percentages of the whole again" sh -c "lines() { sed -n 1,39p \"\$1\" | sed 's/ *\$//'; }; lines '$T_TMP/fr1' > '$T_TMP/a'; lines '$T_TMP/fr3' | diff '$T_TMP/a' - >&2"
quit fr

# 0-9 with a group of two: an index past it gets perf's message
run gi -i grp.data
keys 5
wait_for "Max event group" pk5
quit gi
keys "clear; perf report -i grp.data; echo EXIT-pgi=\$?" Enter
wait_for "Event count (approx.)" && still pgi0
keys 5
wait_for "Max event group" pf5
quit pgi
ok "0-9 past a group's members: perf 6.1's message" sh -c "
	tail -1 '$T_TMP/pf5' | sed 's/ *\$//' > '$T_TMP/a' && tail -1 '$T_TMP/pk5' | sed 's/ *\$//' | diff '$T_TMP/a' - >&2 &&
	grep -qx 'Max event group index to sort is 1 (index from 0 to 1)' '$T_TMP/a'"

# ---- --no-children, --sort, -g caller: the first view is --stdio's rows and perf 6.1's TUI screen ----
for args in "--no-children" "--sort dso,sym" "-g caller" "--sort comm,dso --no-children" "-n --percent-limit 2"; do
	tag=$(printf '%s' "$args" | tr -c 'a-z' '_')
	run "v$tag" -i g.data $args
	ok "$args: the rows of --stdio $args" same_rows "v$tag" -i "$T_TMP/g.data" $args
	quit "v$tag"
	perf_first "p$tag" -i g.data $args
	ok "$args: perf 6.1's TUI shows the same screen" same_as_perf "p$tag" "v$tag"
done
# --hierarchy: its levels folded, e and E unfold them: perf 6.1's TUI screens
unfolded() {	# unfolded NAME: once the first entry shows '-' (its level unfolded), the still screen in NAME
	i=0
	until cap | sed -n 3p | grep -q '^-'; do
		i=$((i + 1)); [ $i -lt 200 ] || { echo "not unfolded" >&2; return 1; }
		sleep 0.05
	done
	still "$1"
}
for keys_hier in "" e E; do
	tag=h$keys_hier
	run "k$tag" -i g.data --hierarchy --sort comm,dso,sym -g none
	[ -z "$keys_hier" ] || { keys "$keys_hier"; unfolded "k$tag"; }
	quit "k$tag"
	keys "clear; perf report -i g.data --hierarchy --sort comm,dso,sym -g none; echo EXIT-p$tag=\$?" Enter
	wait_for "Event count (approx.)" && still "p$tag"
	[ -z "$keys_hier" ] || { keys "$keys_hier"; unfolded "p$tag"; }
	quit "p$tag"
	ok "--hierarchy${keys_hier:+, $keys_hier}: perf 6.1's TUI shows the same screen" same_as_perf "p$tag" "k$tag"
done
hier_ok() {	# the node lines, every level unfolded, are --stdio --hierarchy's
	"$PMUKIT" report --stdio -i "$T_TMP/g.data" --hierarchy --sort comm,dso,sym -g none | grep -E '^ +[0-9]+\.[0-9]+%' |
		head -37 | awk '{ $1 = $1; print }' > "$T_TMP/b"
	sed -n '3,39p' "$T_TMP/khE" | cut -c2- | awk '{ $1 = $1; print }' | sed 's/^[-+] //' | grep -v '^$' > "$T_TMP/a"
	[ -s "$T_TMP/a" ] && diff "$T_TMP/b" "$T_TMP/a" >&2
}
ok "--hierarchy, E: the nodes of --stdio --hierarchy" hier_ok

# a group ({cpu-clock,task-clock}:S): its description in the title, a column per member
run grp -i grp.data
ok "a group: the rows of --stdio (a column per member)" same_rows grp -i "$T_TMP/grp.data"
ok "a group: the title names the group and counts its members' samples" \
	sh -c "head -1 '$T_TMP/grp' | grep -q \"^Samples: .* of events 'anon group { cpu-clock, task-clock }', Event count\""
quit grp
perf_first pgrp -i grp.data
ok "a group: perf 6.1's TUI shows the same screen" same_as_perf pgrp grp
# -g caller: an unfolded callchain in caller order, as --stdio prints it
run gc -i g.data -g caller --no-children
keys Enter
wait_for "---" gcc
# (the first entry's callchain: --stdio's lines up to the blank line closing it)
"$PMUKIT" report --stdio -i "$T_TMP/g.data" -g caller --no-children | grep -v '^#' | sed -n '2,$p' |
	sed 's/ *$//' | sed '/^$/,$d' > "$T_TMP/gc.stdio"
gc_ok() {
	k=$(wc -l < "$T_TMP/gc.stdio")
	[ "$k" -gt 3 ] && lines gcc 4 $((3 + k)) | diff "$T_TMP/gc.stdio" - >&2 &&
		sed -n "$((4 + k))p" "$T_TMP/gcc" | grep -qE '^\+ +[0-9]+\.[0-9]+%'
}
ok "-g caller --no-children: the unfolded callchain is --stdio's, the next entry under it" gc_ok
quit gc

# ---- t: zoom into a thread (two threads rm-0 and rm-1) ----
run thr -i thr.data --sort pid,sym
thr_ok() {	# the title names rm-1's thread, every row is rm-1's, the rows --stdio's of that pid
	head -1 "$T_TMP/tz" | grep -q ', Thread: rm-1(' || return 1
	pid=$(head -1 "$T_TMP/tz" | sed 's/.*Thread: rm-1(\([0-9]*\)).*/\1/')
	rows_screen tz > "$T_TMP/a"
	"$PMUKIT" report --stdio -i "$T_TMP/thr.data" --sort pid,sym | grep -E '^ +[0-9]+\.[0-9]+%' |
		awk -v p="$pid:rm-1" '$3 == p { $1 = $1; print }' | head -n "$(wc -l < "$T_TMP/a")" > "$T_TMP/b"
	[ -s "$T_TMP/a" ] && diff "$T_TMP/b" "$T_TMP/a" >&2
}
# the first rm-1 row selected, then t
n=$(sed -n '3,39p' "$T_TMP/thr" | grep -n 'rm-1 ' | head -1 | cut -d: -f1)
i=1; while [ $i -lt "${n:-1}" ]; do keys Down; i=$((i + 1)); done
keys t
wait_for ", Thread: rm-1(" tz
ok "t: zoom into the selected entry's thread (title, rows of that pid)" thr_ok
keys Left
wait_gone ", Thread:"
ok "LEFT: out of the thread zoom" sh -c "lines() { sed -n 1,39p \"\$1\" | sed 's/ *\$//'; }; lines '$T_TMP/thr' > '$T_TMP/a'; lines '$T_TMP/screen' > '$T_TMP/b'; cmp -s '$T_TMP/a' '$T_TMP/b' || [ -n '$n' ]"
quit thr

# ---- two events: perf's "Available samples" menu first, ENTER browses one, ESC back to it ----
keys "clear; echo BEFORE-two; \"\$PK\" report -i two.data; echo EXIT-two=\$?" Enter
wait_for "ESC: exit, ENTER" menu
quit two
keys "clear; perf report -i two.data; echo EXIT-ptwo=\$?" Enter
wait_for "Available samples" && still pmenu
quit ptwo
menu_ok() {	# the menu's lines as perf's (its scroll bar left out): "N event" per event
	sed -n '1,3p' "$T_TMP/pmenu" | awk '{ print $1, $2 }' > "$T_TMP/a"
	sed -n '1,3p' "$T_TMP/menu" | awk '{ print $1, $2 }' > "$T_TMP/b"
	diff "$T_TMP/a" "$T_TMP/b" >&2 && grep -qx '[0-9]* task-clock' "$T_TMP/b"
}
ok "two events: the menu of perf 6.1's TUI" menu_ok
keys "clear; echo BEFORE-two; \"\$PK\" report -i two.data; echo EXIT-two=\$?" Enter
wait_for "ESC: exit, ENTER"
keys Down Enter
wait_for "of event 'task-clock'" task
task_ok() {	# the second event's rows: --stdio's second section
	rows_screen task > "$T_TMP/a"
	"$PMUKIT" report --stdio -i "$T_TMP/two.data" | awk '/^# Samples:/ { s++ } s == 2' |
		grep -E '^ +[0-9]+\.[0-9]+%' | head -n "$(wc -l < "$T_TMP/a")" | awk '{ $1 = $1; print }' > "$T_TMP/b"
	[ -s "$T_TMP/a" ] && diff "$T_TMP/b" "$T_TMP/a" >&2 && title_ok task "" -i "$T_TMP/two.data" -T 2>/dev/null ||
		head -1 "$T_TMP/task" | grep -q "^Samples: [0-9]*  of event 'task-clock', Event count"
}
ok "two events: ENTER on task-clock browses its rows (--stdio's second section)" task_ok
keys Escape
wait_for "ESC: exit, ENTER"
ok "two events: ESC back to the menu" true
quit two
ok "two events: q from the menu exits 0" grep -qx 'EXIT-two=0' "$T_TMP/screen"

# with the comm key (no pid): ", Thread: COMM" as perf's title; without comm or pid, no zoom
run thc -i thr.data
keys t
wait_for ", Thread: " thct
ok "t with --sort comm,...: the title says ', Thread: COMM' (perf's, no tid)" \
	sh -c "head -1 '$T_TMP/thct' | grep -qE ', Thread: rm-[01]\$'"
quit thc
run nothr -i thr.data --sort dso,sym
keys t
wait_for "to zoom into" nothr2
ok "t without a comm or pid column: no zoom, the status line says why" \
	sh -c "! grep -q 'Thread:' '$T_TMP/nothr2' && grep -q 'no Command or Pid:Command column' '$T_TMP/nothr2'"
keys d
wait_for "Shared Object" nothr3
ok "d with --sort dso,sym: the zoom" sh -c "head -1 '$T_TMP/nothr3' | grep -q ', DSO: '"
quit nothr
run nodso -i g.data --sort sym
keys d
wait_for "to zoom into" nodso2
ok "d without a Shared Object column: no zoom, the status line says why" \
	sh -c "! grep -q 'DSO:' '$T_TMP/nodso2' && grep -q 'no Shared Object column' '$T_TMP/nodso2'"
quit nodso

# ---- SIGTERM: the terminal as before (stty -a), the signal's exit status ----
keys "clear; stty -a > stty.before; sh -c 'echo \$\$ > pk.pid; exec \"\$PK\" report -i g.data'; echo EXIT-term=\$?; stty -a > stty.after; echo STTY-\"\"DONE" Enter
wait_for "Press '?' for help"
kill -TERM "$(cat "$T_TMP/pk.pid")"
wait_for "STTY-DONE"
ok "SIGTERM: stty -a as before the browser" cmp "$T_TMP/stty.before" "$T_TMP/stty.after"
ok "SIGTERM: the screen restored, the exit status of SIGTERM (143)" \
	sh -c "grep -qx 'EXIT-term=143' '$T_TMP/screen'"
# a crash (SIGSEGV) on the way out too
keys "clear; stty -a > stty.before; sh -c 'echo \$\$ > pk.pid; exec \"\$PK\" report -i g.data'; echo EXIT-segv=\$?; stty -a > stty.after; echo SEGV-\"\"DONE" Enter
wait_for "Press '?' for help"
kill -SEGV "$(cat "$T_TMP/pk.pid")"
wait_for "SEGV-DONE"
ok "a crash (SIGSEGV): stty -a as before the browser" cmp "$T_TMP/stty.before" "$T_TMP/stty.after"

# ---- no usable terminal: --stdio output and one line saying why ----
keys "clear; TERM=dumb PAGER=cat \"\$PK\" report -i g.data -g none --percent-limit 20 2>dumb.err > /dev/tty; echo DUMB-\"\"DONE" Enter
wait_for "DUMB-DONE" dumb
ok "TERM=dumb: --stdio's text, one line saying why" sh -c "
	[ \$(wc -l < '$T_TMP/dumb.err') = 1 ] && grep -q 'TERM=dumb' '$T_TMP/dumb.err' &&
	grep -q '^# Event count (approx.)' '$T_TMP/dumb'"
keys "clear; TERM=no-such-terminal PAGER=cat \"\$PK\" report -i g.data -g none --percent-limit 20 2>noti.err > /dev/tty; echo NOTI-\"\"DONE" Enter
wait_for "NOTI-DONE" noti
ok "no terminfo entry: --stdio's text, one line saying why" sh -c "
	[ \$(wc -l < '$T_TMP/noti.err') = 1 ] && grep -q 'no terminfo entry for TERM=no-such-terminal' '$T_TMP/noti.err' &&
	grep -q '^# Event count (approx.)' '$T_TMP/noti'"

keys "clear; setsid -w sh -c 'PAGER=cat \"\$PK\" report -i g.data -g none --percent-limit 20 2>nott.err > '\$(tty); echo NOTT-\"\"DONE" Enter
wait_for "NOTT-DONE" nott
ok "no controlling terminal (setsid): --stdio's text, one line saying why" sh -c "
	[ \$(wc -l < '$T_TMP/nott.err') = 1 ] && grep -q 'no controlling terminal' '$T_TMP/nott.err' &&
	grep -q '^# Event count (approx.)' '$T_TMP/nott'"

# ---- no terminal: today's text ----
ok "stdout not a terminal: report is --stdio, byte for byte" sh -c "
	\"\$PK\" report -i '$T_TMP/g.data' > '$T_TMP/o1' && \"\$PK\" report --stdio -i '$T_TMP/g.data' > '$T_TMP/o2' &&
	cmp '$T_TMP/o1' '$T_TMP/o2'"
ok "--tui with stdout not a terminal: --stdio output, one line saying why" sh -c "
	\"\$PK\" report --tui -i '$T_TMP/g.data' > '$T_TMP/o3' 2>'$T_TMP/e3' && cmp '$T_TMP/o2' '$T_TMP/o3' &&
	[ \$(wc -l < '$T_TMP/e3') = 1 ] && grep -q 'not a terminal' '$T_TMP/e3'"
ok "--help lists --tui" sh -c "\"\$PK\" report --help 2>&1 | grep -q -- '--tui'"

echo "1..$T_N"
[ $T_FAIL -eq 0 ]
