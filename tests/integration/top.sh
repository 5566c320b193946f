#!/bin/sh
# top.sh — `pmukit top --stdio` beside a spinning workload with known function
# names (report_many): the workload's hottest function (perf 6.1's own profile
# of it is the oracle) is in a frame printed within 3 s; -d 1 refreshes the
# frame each second; SIGINT ends it with status 0; the header line names the
# event as perf names it (perf evlist of perf's own recording); -E, -K, -U,
# -c, -e, -C, -t shape the frames; `top -p PID` ends with status 0 when the
# process exits; --help lists every option.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"

command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf (6.1) is not installed"; exit 0; }
[ -x "$W" ] || { echo "1..0 # SKIP $W not built (make tests)"; exit 0; }
perf record -q -e cpu-clock -a -c 100000 -o "$T_TMP/probe.data" true >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf record cannot sample cpu-clock system-wide here"; exit 0; }
# the oracle: the workload's hottest function in perf's profile of it, and
# perf's name of the default event (cycles:P, cpu-clock:ppp without a PMU)
perf record -q -e cpu-clock -c 100000 -o "$T_TMP/rm.data" "$W" 3000 >/dev/null 2>&1 &&
perf record -q -e cycles:P -F 4000 -o "$T_TMP/def.data" true >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP perf record failed"; exit 0; }
HOT=$(perf report -q --stdio -i "$T_TMP/rm.data" --sort sym 2>/dev/null | awk 'NF { print $NF; exit }')
DEF=$(perf evlist -i "$T_TMP/def.data" 2>/dev/null | head -1)
echo "1..25"

# run_top SECS OUT ARGS...: pmukit top for SECS seconds, then SIGINT; its status
run_top() {
	secs=$1 out=$2; shift 2
	"$PMUKIT" top --stdio "$@" </dev/null >"$out" 2>"$out.err" &
	tp=$!
	sleep "$secs"
	kill -INT "$tp" 2>/dev/null
	wait "$tp"
}
# frames FILE: the number of frames; maxrows FILE: the most rows in one
frames() { grep -c '^   PerfTop:' "$1"; }
maxrows() {
	awk '/^   PerfTop:/ { n = 0 } /^ +[0-9]+\.[0-9]+%/ { if (++n > m) m = n } END { print m + 0 }' "$1"
}

"$W" 100000000 >/dev/null 2>&1 &
WP=$!
trap 'kill $WP 2>/dev/null; rm -rf "$T_TMP"' EXIT
sleep 0.2

ok "top: status 0 after SIGINT" run_top 3 "$T_TMP/a.out" -d 1 -E 80
ok "top: the workload's hottest function ($HOT) within 3 s" contains "$T_TMP/a.out" "[.] $HOT"
ok "top -d 1: refreshed frames" test "$(frames "$T_TMP/a.out")" -ge 2
ok "top: perf top's header line (event $DEF, all CPUs)" contains "$T_TMP/a.out" \
	"drop: 0/0 [4000Hz $DEF],  (all, $(nproc) CPU"
ok "top: each frame starts with the console clear" \
	test "$(grep -c "$(printf '\033\\[H\033\\[2J')" "$T_TMP/a.out")" -eq "$(frames "$T_TMP/a.out")"

ok "top -K -E 5 -e cpu-clock -c 100000: status 0" run_top 1.6 "$T_TMP/k.out" -K -E 5 \
	-e cpu-clock -c 100000 -d 1
ok "top -K: no kernel rows, at most -E rows" sh -c \
	"! grep -q '\\[k\\]' '$T_TMP/k.out' && test \$(awk '/^   PerfTop:/ { n = 0 } /^ +[0-9]+\\.[0-9]+%/ { if (++n > m) m = n } END { print m + 0 }' '$T_TMP/k.out') -le 5 && grep -q '\\[100000 cpu-clock\\]' '$T_TMP/k.out'"

ok "top -U -C 0 --sort sym: status 0" run_top 1.6 "$T_TMP/u.out" -U -C 0 --sort sym -d 1
ok "top -U -C 0: no user rows, CPU list in the header" sh -c \
	"! grep -q '\\[\\.\\]' '$T_TMP/u.out' && grep -q '(all, CPU: 0)' '$T_TMP/u.out'"

# (a loaded machine draws its first frames late: the frames are awaited, up to 15 s)
ok "top -t TID -g: a frame with the workload's callchains" sh -c \
	"'$PMUKIT' top --stdio -t $WP -g -E 3 -d 1 </dev/null >'$T_TMP/t.out' 2>&1 & p=\$!
	 i=0; while [ \$i -lt 150 ] && ! grep -q 'round_all' '$T_TMP/t.out'; do sleep 0.1; i=\$((i + 1)); done
	 kill -INT \$p; wait \$p &&
	 grep -q '(target_tid: $WP)' '$T_TMP/t.out' && grep -q 'round_all' '$T_TMP/t.out'"

# perf top -g's cumulative values: Children and Self (the rows' two percentages); --no-children: Self
ok "top -t TID -g: Children and Self on each row" sh -c \
	"grep -E '^ +[0-9]+\.[0-9]+%' '$T_TMP/t.out' > '$T_TMP/t.rows' && [ -s '$T_TMP/t.rows' ] &&
	 ! grep -vqE '^ +[0-9]+\.[0-9]+% +[0-9]+\.[0-9]+% ' '$T_TMP/t.rows'"
ok "top -t TID -g --no-children: one percentage a row" sh -c \
	"'$PMUKIT' top --stdio -t $WP -g --no-children -E 3 -d 1 </dev/null >'$T_TMP/n.out' 2>&1 & p=\$!
	 i=0; while [ \$i -lt 150 ] && ! grep -q '\\[\\.\\]' '$T_TMP/n.out'; do sleep 0.1; i=\$((i + 1)); done
	 kill -INT \$p; wait \$p &&
	 grep -E '^ +[0-9]+\.[0-9]+%' '$T_TMP/n.out' > '$T_TMP/n.rows' && [ -s '$T_TMP/n.rows' ] &&
	 ! grep -qE '^ +[0-9]+\.[0-9]+% +[0-9]+\.[0-9]+% ' '$T_TMP/n.rows'"

# perf top's decay: without -z the samples of a process that ended stay in the later
# frames (decayed by 7/8 a refresh); -z: each frame its own samples only
decay_run() {	# decay_run OUT ARGS...: a dd of 0.8 s a second into top --sort comm
	out=$1; shift
	"$PMUKIT" top --stdio -d 1 -E 300 --sort comm "$@" </dev/null >"$out" 2>&1 &
	dp=$!
	sleep 1.5
	timeout 0.8 dd if=/dev/zero of=/dev/null bs=64k 2>/dev/null
	sleep 3.5
	kill -INT $dp
	wait $dp
}
last_dd() {	# last_dd FILE: dd in its last frame, after a frame with it
	awk '/PerfTop:/ { n++ } / dd +$/ { seen = seen " " n } END {
		k = split(seen, f, " "); if (!k || f[1] == n) exit 2; exit f[k] == n ? 0 : 1 }' "$1"
}
decay_run "$T_TMP/dk.out"
decay_run "$T_TMP/dz.out" -z
ok "top (no -z): an ended process's samples stay in the later frames (decayed)" last_dd "$T_TMP/dk.out"
ok "top -z: they are gone from the last frame" sh -c \
	"grep -q ' dd  *\$' '$T_TMP/dz.out' && awk '/PerfTop:/ { n++ } / dd +\$/ { l = n } END { exit l == n }' '$T_TMP/dz.out'"

# -p of a process that exits: the last frame, then status 0
"$W" 60000 >/dev/null 2>&1 &
SP=$!
ok "top -p PID: ends with status 0 when PID exits" sh -c \
	"timeout 20 '$PMUKIT' top --stdio -d 1 -p $SP </dev/null >'$T_TMP/p.out'"
ok "top -p PID: a frame of that process" contains "$T_TMP/p.out" "(target_pid: $SP, "

# -p of a sleeping process: no samples, still a (header) frame every -d
sleep 30 &
IP=$!
run_top 3.2 "$T_TMP/i.out" -d 1 -p "$IP"
kill "$IP" 2>/dev/null
ok "top -p PID of an idle process: a frame each second" sh -c \
	"test \$(grep -c '(target_pid: $IP, ' '$T_TMP/i.out') -ge 2"

ok "top --help lists every option" sh -c "'$PMUKIT' top --help > '$T_TMP/help' &&
	for o in -e -c -F -a -C -p -t -u -g --call-graph --children -K -U -s -d -z -E --percent-limit --stdio; do
		grep -qe \"\$o[ ,=]\" '$T_TMP/help' || { echo \"missing \$o\" >&2; exit 1; }; done"

# the browser on a terminal (tmux): the hottest function on the first screen
# within 3 s, a newer window's report shown in place (its title's sample count
# changes), q ends it with status 0
PK="$(cd "$(dirname "$PMUKIT")" && pwd)/$(basename "$PMUKIT")"
if command -v tmux >/dev/null 2>&1; then
	# a server (socket) of its own per session: a new session on a socket whose server
	# is still going away after kill-server dies with it ("no server running")
	TM="tmux -L pmukit-top-$$ -f /dev/null"
	TMA="tmux -L pmukit-topa-$$ -f /dev/null"
	TMB="tmux -L pmukit-topb-$$ -f /dev/null"
	TMC="tmux -L pmukit-topc-$$ -f /dev/null"
	TMD="tmux -L pmukit-topd-$$ -f /dev/null"
	TME="tmux -L pmukit-tope-$$ -f /dev/null"
	trap 'kill $WP 2>/dev/null; for t in "$TM" "$TMA" "$TMB" "$TMC" "$TMD" "$TME"; do $t kill-server 2>/dev/null; done; rm -rf "$T_TMP"' EXIT
	$TM new-session -d -s tt -x 120 -y 60 "'$PK' top -d 1; echo EXIT=\$?; sleep 60"
	sleep 3
	$TM capture-pane -p -t tt > "$T_TMP/s1"
	sleep 2.2
	$TM capture-pane -p -t tt > "$T_TMP/s2"
	$TM send-keys -t tt q
	sleep 0.5
	$TM capture-pane -p -t tt > "$T_TMP/s3"
	$TM kill-server 2>/dev/null
	ok "top (browser): the hottest function on the first screen within 3 s" \
		contains "$T_TMP/s1" "[.] $HOT"
	ok "top (browser): refreshed in place" sh -c \
		"head -1 '$T_TMP/s1' | grep -q '^Samples: .* of event .$DEF.' &&
		 ! cmp -s '$T_TMP/s1' '$T_TMP/s2'"
	ok "top (browser): q exits with status 0" contains "$T_TMP/s3" "EXIT=0"
	# perf top's title: the sample frequency after the event, the lost and dropped
	# events after the count; perf 6.1's own (numbers aside) is the oracle
	# pane TMUX SESSION FILE REGEX TRIES: the pane in FILE once a line matches (0.1 s a try)
	pane() {
		i=0
		while [ $i -lt "$5" ]; do
			sleep 0.1; i=$((i + 1))
			$1 capture-pane -p -t "$2" > "$3"
			grep -q -- "$4" "$3" && return 0
		done
		return 1
	}
	$TMC new-session -d -s tp -x 120 -y 60 "perf top -d 1; sleep 60"
	pane "$TMC" tp "$T_TMP/p1" '^Samples: [1-9].*drop:' 100
	$TMC send-keys -t tp q
	$TMC kill-server 2>/dev/null
	numbers() {	# numbers FILE: its title, each number (with perf's unit letter) N
		head -1 "$1" | sed -E 's/ +$//; s/[0-9]+[KMG]? +of /N of /; s/[0-9]+/N/g'
	}
	title_as_perf() {
		[ "$(numbers "$T_TMP/p1")" = "$(numbers "$T_TMP/s1")" ] &&
			numbers "$T_TMP/s1" | grep -q ' Hz, Event count .* lost: N/N drop: N/N$' ||
			{ head -1 "$T_TMP/p1" >&2; head -1 "$T_TMP/s1" >&2; return 1; }
	}
	ok "top (browser): perf top's title (N Hz, lost, drop), as perf 6.1's" title_as_perf
	# -g: perf top's Children and Self columns (their headers as perf 6.1's)
	for who in perf pk; do
		[ $who = perf ] && cmd="perf top -g -d 1" || cmd="'$PK' top -g -d 1"
		[ $who = perf ] && TG=$TMD || TG=$TME	# (a socket each, as above)
		$TG new-session -d -s tg -x 120 -y 40 "$cmd; sleep 60"
		pane "$TG" tg "$T_TMP/g-$who" '^[-+ ] .*%.*\[' 150
		$TG send-keys -t tg q
		$TG kill-server 2>/dev/null
	done
	ok "top -g (browser): Children and Self columns, as perf 6.1's" sh -c \
		"sed -n 2p '$T_TMP/g-perf' | awk '{ print \$1, \$2 }' > '$T_TMP/gp' &&
		 sed -n 2p '$T_TMP/g-pk' | awk '{ print \$1, \$2 }' | diff '$T_TMP/gp' - >&2 &&
		 grep -qx 'Children Self' '$T_TMP/gp'"
	# a: the selected symbol annotated from the recording top keeps (-p: the
	# workload's own rows, -K: no kernel row first); without a writable TMPDIR
	# the status line says why
	shot() {	# shot TEXT FILE: the pane of $TX in FILE once it shows TEXT (10 s at most)
		i=0
		while [ $i -lt 100 ]; do
			$TX capture-pane -p -t ta > "$2"
			grep -qF -- "$1" "$2" && return 0
			sleep 0.1; i=$((i + 1))
		done
		return 1
	}
	TX=$TMA
	$TX new-session -d -s ta -x 120 -y 40 "'$PK' top -d 1 -K -p $WP; echo EXIT=\$?; sleep 60"
	shot "[.] " "$T_TMP/a1"
	ASYM=$(awk '/\[\.\] / { print $NF; exit }' "$T_TMP/a1")
	$TX send-keys -t ta a
	# (a symbol seen first: an empty name would match any annotation's title)
	ann_title() { [ -n "$1" ] && shot "$1  $2/report_many [Percent: local period]" "$T_TMP/a2"; }
	ok "top (browser): a annotates the selected symbol ($ASYM)" ann_title "$ASYM" \
		"$(cd "$(dirname "$W")" && pwd)"
	$TX kill-server 2>/dev/null
	TX=$TMB
	$TX new-session -d -s ta -x 120 -y 40 "TMPDIR=$T_TMP/none '$PK' top -d 1 -K -p $WP; sleep 60"
	shot "[.] " "$T_TMP/a3"
	$TX send-keys -t ta a
	ok "top (browser): a without a writable TMPDIR says why" shot \
		"annotate: top keeps no recording here (TMPDIR: No such file or directory)" "$T_TMP/a4"
	$TX kill-server 2>/dev/null
else
	for i in 1 2 3 4 5 6 7; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP no tmux"; done
fi

[ "$T_FAIL" -eq 0 ]
