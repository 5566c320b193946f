#!/bin/sh
# scripts/readme-shot.sh — the README's screenshot of the report browser,
# captured from a tmux pane, never drawn by hand: perf 6.1 records the
# report workload (`-e cpu-clock -c 100000 -g report_many 3000`, the corpus's
# g.data), `pmukit report -i g.data` runs in a detached 80x20 tmux pane,
# five rows down and Enter unfold a callchain, and `tmux capture-pane -p`
# prints the screen (trailing blanks cut) on stdout, ready for the README's
# code block. The samples differ from run to run; the layout does not.
#
#   scripts/readme-shot.sh [BUILD]     (default build; needs perf, tmux, make tests)
#   COLS, ROWS                         the pane's size (default 80x20)
set -eu
B=$(cd "${1:-build}" && pwd)
W="$B/tests/workloads/report_many"
[ -x "$W" ] && [ -x "$B/pmukit" ] || { echo "readme-shot: build pmukit and the tests first (make tests)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "readme-shot: tmux is not installed" >&2; exit 1; }
D=$(mktemp -d)
TM="tmux -L pmukit-shot-$$ -f /dev/null"
trap '$TM kill-server 2>/dev/null || true; rm -rf "$D"' EXIT
perf record -q -e cpu-clock -c 100000 -g -o "$D/g.data" "$W" 3000 >/dev/null 2>&1
$TM new-session -d -s shot -x "${COLS:-80}" -y "${ROWS:-20}" -c "$D" "$B/pmukit report -i g.data"
$TM set-option -g window-size manual 2>/dev/null || true

# until the pane shows TEXT and stays unchanged for 0.3 s (ncurses draws in chunks), 10 s at most
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		a=$($TM capture-pane -t shot -p)
		if printf '%s\n' "$a" | grep -qF -- "$1"; then
			sleep 0.3
			[ "$a" = "$($TM capture-pane -t shot -p)" ] && return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "readme-shot: the browser did not show: $1" >&2
	exit 1
}
wait_for "Press '?' for help"
$TM send-keys -t shot Down Down Down Down Down Enter
wait_for "---"
$TM capture-pane -t shot -p | sed 's/[[:space:]]*$//'
$TM send-keys -t shot q
