#!/bin/sh
# stat_options.sh — perf stat's option rules, checked against perf 6.1 where it
# runs here: usage errors exit 129 with the reason first, perf's checks after its
# parse 234, each with the usage of the options it names (stderr compared with
# perf's, help texts aside); -r 0 repeats until
# interrupted; -I 0 is no interval and -I below 10 ms is accepted; -I with -r,
# --interval-count 0, --append without -o and --td-level without --topdown
# are accepted; -p with -a warns and counts the process; --timeout, -D
# and -n as perf runs them; --for-each-cgroup's expansion, lines and errors
# as perf's, on two cgroups made for the test.
. "$(dirname "$0")/lib/tap.sh"
echo "1..57"
O=$T_TMP/opt
HAVE_PERF=0
command -v perf >/dev/null && perf stat -e task-clock true 2>/dev/null && HAVE_PERF=1
export PMUKIT O HAVE_PERF

# same exit status as perf for one set of arguments (skipped without perf)
same_rc() {
	name=$1; shift
	if [ $HAVE_PERF = 0 ]; then T_N=$((T_N + 1)); echo "ok $T_N # SKIP perf not usable here"; return; fi
	ok "$name" sh -c '
		perf stat "$@" >/dev/null 2>&1; p=$?
		"$PMUKIT" stat "$@" >/dev/null 2>&1; k=$?
		[ $p = $k ] || { echo "perf $p, pmukit $k" >&2; exit 1; }' same_rc "$@"
}

# same exit status and first line on stderr as perf (perf's parse_options messages)
same_err() {
	name=$1; shift
	if [ $HAVE_PERF = 0 ]; then T_N=$((T_N + 1)); echo "ok $T_N # SKIP perf not usable here"; return; fi
	ok "$name" sh -c '
		perf stat "$@" >/dev/null 2>"$O.pe"; p=$?
		"$PMUKIT" stat "$@" >/dev/null 2>"$O.ke"; k=$?
		[ $p = $k ] && [ "$(head -1 "$O.pe")" = "$(head -1 "$O.ke")" ] &&
		grep -q "^ Usage: pmukit stat" "$O.ke" ||
			{ echo "perf $p: $(head -1 "$O.pe"); pmukit $k: $(head -1 "$O.ke")" >&2; exit 1; }' \
		same_err "$@"
}

ok "an unknown option: perf's ' Error:' line, then the usage, exit 129" sh -c '
	"$PMUKIT" stat --bogus true 2>"$O.u"; [ $? = 129 ] &&
	head -1 "$O.u" | grep -qx "  Error: unknown option .bogus." && grep -q "^ Usage: pmukit stat" "$O.u"'
same_err "... the exit status and first line perf gives it" --bogus true
same_err "a missing value: perf's line, exit 129" -e
ok "-r -1: perf's words and -r's usage, exit 234 (perf's -EINVAL)" sh -c '
	"$PMUKIT" stat -r -1 -e task-clock true 2>"$O.r"; [ $? = 234 ] &&
	[ "$(head -1 "$O.r")" = "Run count must be a positive number" ] &&
	grep -q "^ Usage: pmukit stat" "$O.r" && [ $(grep -c "^    -" "$O.r") = 1 ] &&
	grep -q "^    -r, --repeat <n>" "$O.r"'
# the same exit status and stderr as perf, help texts aside (pmukit's are its own):
# perf's message, then the usage of only the options it names (parse_options_usage).
usage_shape() {
	sed -e "s/perf stat/pmukit stat/" -e "/^                          /d" \
	    -e "s/^\(    [- ][-a-zA-Z0-9], --[^ ]*\( <[^>]*>\)\{0,1\}\).*/\1/" \
	    -e "s/^\(        --[^ ]*\( <[^>]*>\)\{0,1\}\).*/\1/" "$1"
}
stderr_like_perf() {
	perf stat "$@" >/dev/null 2>"$O.pe"; p=$?
	"$PMUKIT" stat "$@" >/dev/null 2>"$O.ke"; k=$?
	usage_shape "$O.pe" > "$O.pn"; usage_shape "$O.ke" > "$O.kn"
	[ $p = $k ] || { echo "perf $p, pmukit $k" >&2; cat "$O.ke" >&2; return 1; }
	diff "$O.pn" "$O.kn" >&2
}
same_stderr() {
	name=$1; shift
	if [ $HAVE_PERF = 0 ]; then T_N=$((T_N + 1)); echo "ok $T_N # SKIP perf not usable here"; return; fi
	ok "$name" stderr_like_perf "$@"
}
same_stderr "-r -1: perf's stderr and status" -r -1 -e task-clock true
same_stderr "-r abc: 'switch \`r' expects a numerical value', -r's usage" -r abc true
same_stderr "-r 1.5" -r 1.5 true
same_stderr "-I -5: 'expects an unsigned numerical value'" -I -5 true
same_stderr "-nI: the bundle's switch named, its usage" -nI
same_stderr "--interval-print=abc: no option's usage (perf matches the text with '=abc')" \
	--interval-print=abc true
same_stderr "--interval-p abc: the abbreviation's option" --interval-p abc true
same_stderr "-D abc" -D abc true
same_stderr "--timeout -5" --timeout -5 true
same_stderr "--interval-count=x" --interval-count=x true
same_stderr "-e without a value" -e
same_stderr "-G before -e: 'must define events before cgroups', exit 129" -G foo -e task-clock true
same_stderr "-G of a cgroup that is not there: perf's 'no access to cgroup PATH', exit 129" \
	-e cpu-clock -G pmukit-no-such-cgroup -a true
same_stderr "-G without -a or -C: perf's message, -G/-A/-a usage, exit 234" -e cpu-clock -G / true
same_stderr "--for-each-cgroup without -a or -C: the same message, its usage too" \
	--for-each-cgroup / -e cpu-clock true
same_stderr "--for-each-cgroup of a cgroup that is not there: 'no access', exit 234" \
	--for-each-cgroup /,pmukit-no-such-cgroup -a -e cpu-clock true
same_stderr "--for-each-cgroup of an expression nothing matches: 'no cgroup matched'" \
	--for-each-cgroup 'pmukit-no-such-.*' -a -e cpu-clock true
same_stderr "--for-each-cgroup after -G: both usages, exit 234" -a -e cpu-clock -G / --for-each-cgroup / true
same_stderr "-G after --for-each-cgroup: refused while parsing, exit 129" \
	--for-each-cgroup / -G / -a -e cpu-clock true
same_stderr "-A without -a or -C" -A -e task-clock true
same_stderr "--per-core without -a or -C" --per-core -e task-clock true
same_stderr "--per-thread with a command: -p and -t lines without a usage header" \
	--per-thread -e task-clock true
same_stderr "--per-thread -C 0" --per-thread -C 0 -e task-clock true
same_stderr "-B with -x" -B -x, -e task-clock true
same_stderr "--interval-count without -I: two usages" --interval-count 2 -e task-clock true
same_stderr "--timeout 5: 'timeout must be >= 10ms.'" --timeout 5 -e task-clock true
same_stderr "--timeout with -I" --timeout 100 -I 100 -e task-clock true
same_stderr "-p of a process that is not there: 'Problems finding threads of monitor'" \
	-p 999999999 -e task-clock true
same_stderr "--metric-only with -r 2" --metric-only -r 2 -e task-clock true
same_stderr "--metric-only with --per-thread" --metric-only --per-thread -a -e task-clock true
same_stderr "-o in a directory that is not there: perror's line, exit 255" \
	-o /nonexistent-dir/out -e task-clock true
same_stderr "-D -1: events never enabled (no --control): <not counted>" \
	-D -1 -x, -e task-clock,page-faults true
ok "--timeout 50: perf's warning under 100 ms first" sh -c '
	"$PMUKIT" stat --timeout 50 -e task-clock true 2>"$O.tw" &&
	head -1 "$O.tw" | grep -qx "timeout < 100ms. The overhead percentage could be high in some cases. Please proceed with caution."'
same_rc "-C with a list that does not parse: exit 234 (perf's stale errno aside)" -C abc true
ok "-r 0 repeats until interrupted, printing each run" sh -c '
	"$PMUKIT" stat -r 0 -e task-clock sleep 0.1 2>"$O.f" & p=$!
	sleep 0.55; kill -INT $p; wait $p
	n=$(grep -c "Performance counter stats" "$O.f"); echo "$n runs printed" >&2; [ "$n" -ge 3 ]'
ok "-I 0 is no interval (one summary)" sh -c '
	"$PMUKIT" stat -I 0 -e task-clock true 2>"$O.i0" && grep -q "seconds time elapsed" "$O.i0"'
ok "-I 5 is accepted: intervals of 5 ms" sh -c '
	"$PMUKIT" stat -I 5 -x, -e task-clock sleep 0.06 2>"$O.i5" && [ $(grep -c ",task-clock," "$O.i5") -ge 5 ]'
ok "-I with -r: the intervals of every run, no summary" sh -c '
	"$PMUKIT" stat -I 100 -r 2 -x, -e task-clock sleep 0.25 2>"$O.ir" &&
	n=$(grep -c ",task-clock," "$O.ir") && [ "$n" -ge 4 ] && ! grep -q "time elapsed" "$O.ir"'
same_rc "--interval-count 0 is no limit" -I 100 --interval-count 0 -e task-clock true
same_rc "--append without -o is accepted" --append -e task-clock true
same_rc "--td-level without --topdown is accepted" --td-level 2 -e task-clock true
ok "-p with -a: perf's warning, the process is counted" sh -c '
	sleep 1 & s=$!
	"$PMUKIT" stat -p $s -a -e task-clock sleep 0.2 2>"$O.pa"; kill $s 2>/dev/null
	grep -q "PID/TID switch overriding SYSTEM" "$O.pa" && grep -q "process id .$s." "$O.pa"'
ok "--timeout 100: the command gets SIGTERM after 0.1 s (perf's psignal line), counts printed" sh -c '
	s=$(date +%s%N); "$PMUKIT" stat --timeout 100 -e task-clock sleep 2 2>"$O.t"; r=$?; e=$(date +%s%N)
	[ $r = 0 ] && [ $(( (e - s) / 1000000 )) -lt 1500 ] &&
	grep -qx "sleep: Terminated" "$O.t" && grep -q "msec task-clock" "$O.t"'
same_rc "... exit status as perf" --timeout 100 -e task-clock sleep 1
ok "-D 150: counting starts 150 ms after the command (perf's two lines, elapsed from then)" sh -c '
	"$PMUKIT" stat -D 150 -x, -e task-clock sleep 0.3 2>"$O.d" &&
	[ "$(head -2 "$O.d")" = "$(printf "Events disabled\nEvents enabled")" ] &&
	grep -q ",task-clock," "$O.d"'
ok "tool events: the run time is the event's own, 0 is <not counted> (perf's CSV)" sh -c '
	for i in 1 2 3 4 5; do "$PMUKIT" stat -x, -e duration_time,user_time,system_time true; done 2>"$O.tool"
	awk -F, "
		\$3 ~ /_time\$/ && \$1 == \"<not counted>\" && \$4 != 0 { bad++ }
		\$3 ~ /_time\$/ && \$1 != \"<not counted>\" && \$1 != \$4 { bad++ }
		\$1 == \"0\" { bad++ }
		END { exit bad > 0 }" "$O.tool" || { cat "$O.tool" >&2; exit 1; }'
ok "--counts of a -r 5 capture: the noise, and no run count (the file has none)" sh -c '
	"$PMUKIT" stat -r 5 -j -e task-clock true 2>"$O.r5" &&
	"$PMUKIT" stat --counts "$O.r5" 2>"$O.r5o" &&
	grep -q "(saved counts):" "$O.r5o" && ! grep -q "runs)" "$O.r5o" && grep -q "( +-" "$O.r5o"'
# --for-each-cgroup over two cgroups made for it (root, under the perf_event
# cgroup mount): perf's lines, numbers aside; a spinning process in the first
# one counts there, the second counts nothing.
CGM=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/self/mounts)
[ -n "$CGM" ] || CGM=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
CGA=pmukit-each-$$-a CGB=pmukit-each-$$-b
if [ $HAVE_PERF = 1 ] && [ -n "$CGM" ] && mkdir "$CGM/$CGA" "$CGM/$CGB" 2>/dev/null; then
	export CGM CGA CGB
	numbers_aside() {
		sed -E -e 's/[0-9]+\.[0-9]+ seconds time elapsed/T seconds time elapsed/' \
		    -e 's/^ +[0-9][0-9.,]* (msec )?/ N \1/' -e 's/[0-9.]+ CPUs utilized/N CPUs utilized/' \
		    -e 's/[0-9.]+ (K|M|G)?\/sec/N \/sec/' "$1"
	}
	each_like_perf() {
		perf stat "$@" sleep 0.1 2>"$O.pe" >/dev/null; p=$?
		"$PMUKIT" stat "$@" sleep 0.1 2>"$O.ke" >/dev/null; k=$?
		[ $p = $k ] || { echo "perf $p, pmukit $k" >&2; exit 1; }
		numbers_aside "$O.pe" > "$O.pn"; numbers_aside "$O.ke" > "$O.kn"
		diff "$O.pn" "$O.kn" >&2
	}
	ok "--for-each-cgroup A,B: each event per cgroup, cgroup by cgroup, as perf" \
		each_like_perf --for-each-cgroup "$CGA,$CGB" -a -e cpu-clock,task-clock
	ok "--for-each-cgroup A,/,A,: each once, an empty name the root, in the order given" \
		each_like_perf --for-each-cgroup "$CGA,/,$CGA," -a -e cpu-clock
	ok "--for-each-cgroup of an expression: the matching directories, in perf's walk order" \
		each_like_perf --for-each-cgroup "pmukit-each-$$-.*" -a -e cpu-clock
	ok "--for-each-cgroup with the default events and -x," \
		each_like_perf --for-each-cgroup "$CGB" -a -x,
	if ! sh -c "echo \$\$ > $CGM/$CGA/cgroup.procs" 2>/dev/null; then
		T_N=$((T_N + 1)); echo "ok $T_N # SKIP no right to move a process into $CGM/$CGA"
	else
	ok "--for-each-cgroup: a process in A counts in A only" sh -c '
		sh -c "echo \$\$ > $CGM/$CGA/cgroup.procs; exec timeout 2 sh -c \"while :; do :; done\"" &
		spin=$!
		sleep 0.3
		"$PMUKIT" stat --for-each-cgroup "$CGA,$CGB" -a -x, -e task-clock sleep 0.5 2>"$O.spin"
		kill $spin 2>/dev/null; wait $spin 2>/dev/null
		awk -F, -v a="$CGA" -v b="$CGB" "
			\$4 == a && \$1 + 0 > 100 { ga = 1 }
			\$4 == b && \$1 == \"<not counted>\" { gb = 1 }
			END { exit !(ga && gb) }" "$O.spin" || { cat "$O.spin" >&2; exit 1; }'
	fi
	rmdir "$CGM/$CGA" "$CGM/$CGB" 2>/dev/null
else
	for i in 1 2 3 4 5; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP no perf, no perf_event cgroup mount or no right to make cgroups there"; done
fi
if [ $HAVE_PERF = 1 ]; then
ok "-n: no counters, perf's shape (digits aside)" sh -c '
	perf stat -n true 2>&1 | sed "s/[0-9]/N/g" > "$O.pn"
	"$PMUKIT" stat -n true 2>&1 | sed "s/[0-9]/N/g" > "$O.kn"
	diff "$O.pn" "$O.kn" >&2'
else
	T_N=$((T_N + 1)); echo "ok $T_N # SKIP perf not usable here"
fi
[ $T_FAIL -eq 0 ]
