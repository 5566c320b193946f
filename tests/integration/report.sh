#!/bin/sh
# report.sh — pmukit report --stdio against perf 6.1's report --stdio (TAP), on
# files perf 6.1 records here from tests/workloads/report_many: cpu-clock with
# and without -g, two threads, pipe mode, -z, tracepoints, a {..}:S group,
# system wide (-a). Every test runs both on the same file with the same
# options and wants the same text, line for line, except perf's random
# closing tip ("# (Tip: ...)"). For -a, where tie orders depend on garbage
# stacks of other processes, the workload's lines in any order.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
export PMUKIT W T_TMP

PLAN=56
echo "1..$PLAN"
. "$SRC/tests/integration/lib/perf_rec.sh"
perf_rec_check "$W"
rec g -e cpu-clock -c 100000 -g "$W" 3000
rec nog -e cpu-clock -c 100000 "$W" 3000
rec thr -e cpu-clock -c 100000 -g "$W" -t 2 1500
rec z -e cpu-clock -c 100000 -g -z "$W" 2000
rec grp -e '{cpu-clock,task-clock}:S' -c 100000 -g "$W" 2000
rec two -e cpu-clock,task-clock -c 100000 "$W" 1500
rec tp -e sched:sched_switch -e raw_syscalls:sys_enter -g "$W" -t 2 300
rec sys -e cpu-clock -c 500000 -a -g -- "$W" -t 2 3000
perf record -q -e cpu-clock -c 100000 -g -o - "$W" 2000 2>/dev/null > "$T_TMP/pipe.data" ||
	rm -f "$T_TMP/pipe.data"

# $C: perf 6.1 and pmukit on one file (tests/integration/lib/perf_compare.sh)
cp "${PMUKIT_SRC:-.}/tests/integration/lib/perf_compare.sh" "$T_TMP/compare"
chmod +x "$T_TMP/compare"
C="$T_TMP/compare report report "

# cpu-clock with frame-pointer callchains: children (caller graph), self only (callee graph)
ok "-g: default (children, graph,0.5,caller)" $C g
ok "-g: --no-children (callee graph)" $C g --no-children
ok "-g: -g none keeps children" $C g -g none
ok "-g: --no-children -g none" $C g --no-children -g none
ok "-g: -g callee with children" $C g -g callee
ok "-g: -g caller --no-children" $C g -g caller --no-children
ok "-g: -g flat" $C g -g flat
ok "-g: -g folded" $C g -g folded
ok "-g: -g folded,0,callee,count" $C g -g folded,0,callee,count
ok "-g: -g graph,0.5,2 (print limit)" $C g -g graph,0.5,2
ok "-g: -g caller,0.1,address" $C g -g caller,0.1,address
ok "-g: -g fractal,0.5,callee --no-children" $C g --no-children -g fractal,0.5,callee
ok "-g: -g graph,0.5,caller,function,period" $C g -g graph,0.5,caller,function,period
ok "-g: --percent-limit 2 (entries and callchains)" $C g --percent-limit 2
ok "-g: --percent-limit 1 --no-children" $C g --percent-limit 1 --no-children
ok "-g: --sort sym (callchains without the symbol twice)" $C g --sort sym
ok "-g: --sort dso" $C g --sort dso
ok "-g: --sort pid,sym" $C g --sort pid,sym
ok "-g: --sort cpu,comm" $C g --sort cpu,comm
ok "-g: --sort srcline (children at raw addresses, as perf 6.1)" $C g --sort srcline
ok "-g: --sort dso,srcline --no-children" $C g --sort dso,srcline --no-children
ok "-g: -n --show-total-period --sort dso,sym" $C g -n --show-total-period --sort dso,sym
ok "-g: -F overhead,sym --sort dso" $C g -F overhead,sym --sort dso
ok "-g: -F sym,overhead (sorted by the fields)" $C g -F sym,overhead
ok "-g: -q" $C g -q
ok "-g: --max-stack 4 (caller order: the entries nearest the root)" $C g --max-stack 4
ok "-g: --max-stack 4 -g caller --no-children" $C g --max-stack 4 -g caller --no-children
ok "-g: --max-stack 3 --no-children (callee order: nearest the sample)" $C g --max-stack 3 --no-children
# no callchains
ok "no -g: default" $C nog
ok "no -g: --sort comm,dso,sym -n" $C nog --sort comm,dso,sym -n
ok "no -g: --sort srcline" $C nog --sort srcline
ok "no -g: --sort srcline,sym --percent-limit 1" $C nog --sort srcline,sym --percent-limit 1
# threads, compression, pipes
ok "two threads: default (callers above callees within a thread)" $C thr
ok "two threads: --sort sym" $C thr --sort sym
ok "two threads: --sort pid --no-children" $C thr --sort pid --no-children
ok "-z: default" $C z
ok "-z: --no-children" $C z --no-children
ok "pipe mode: default (no children, callers first, as perf 6.1)" $C pipe
ok "pipe mode: --no-children" $C pipe --no-children
ok "pipe mode from stdin: -i -" sh -c '
	perf report --stdio -i - < "$T_TMP/pipe.data" 2>/dev/null | grep -v "^# (Tip:" > "$T_TMP/a"
	"$PMUKIT" report --stdio -i - < "$T_TMP/pipe.data" | grep -v "^# (Tip:" > "$T_TMP/b"
	[ -s "$T_TMP/a" ] && diff "$T_TMP/a" "$T_TMP/b" >&2'
# groups
ok "group: {cpu-clock,task-clock}:S (group view, children)" $C grp
ok "group: --no-group" $C grp --no-group
ok "group: --no-children -n" $C grp --no-children -n
ok "two events: default" $C two
ok "two events: --group (forced leader)" $C two --group
ok "two events: --no-group" $C two --no-group
# tracepoints: perf's "trace" sort key
ok "tracepoints: default (trace output key)" $C tp
ok "tracepoints: --sort comm,sym --no-children" $C tp --sort comm,sym --no-children
# system wide: the same lines
ok "-a: default, the workload's lines" $C sys --sorted
ok "-a: --no-children --sort comm,dso, the workload's lines" $C sys --sorted --no-children --sort comm,dso
# --header / --header-only: the file's header and features
ok "--header-only: -g file" $C g --header-only
ok "--header-only: group and tracepoint files" sh -c "$C grp --header-only && $C tp --header-only"
ok "--header-only: -z (compressed) file" $C z --header-only
ok "--header-only: pipe mode" $C pipe --header-only
ok "--header: header, then the report" $C thr --header --no-children
# errors as perf's
ok "-g on a file without callchains: perf's error and exit status (0)" sh -c '
	perf report --stdio -i "$T_TMP/nog.data" -g > /dev/null 2> "$T_TMP/perf.err"; p=$?
	"$PMUKIT" report --stdio -i "$T_TMP/nog.data" -g > /dev/null 2> "$T_TMP/pmukit.err"
	[ $? = $p ] || exit 1
	grep -v "^$" "$T_TMP/perf.err" | head -4 > "$T_TMP/a"
	diff "$T_TMP/a" "$T_TMP/pmukit.err" >&2'
[ $T_FAIL -eq 0 ]
