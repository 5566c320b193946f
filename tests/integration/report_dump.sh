#!/bin/sh
# report_dump.sh — the record-level views of report and script against perf
# 6.1 (TAP): report --stats, --tasks, --mmaps, -D, -T; script -D,
# --per-event-dump (stdout and the files), --show-switch/-round/-namespace/
# -lost-events, -F brstack,brstacksym. Same stdout and exit status, on files
# perf 6.1 records here and on a branch-stack file that report_mkdata writes
# (no machine here records branch stacks).
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
M="${PMUKIT_BUILD:-build}/tests/workloads/report_mkdata"
export PMUKIT T_TMP

PLAN=51
echo "1..$PLAN"
. "$SRC/tests/integration/lib/perf_rec.sh"
perf_rec_check "$W" "$M"
rec g -e cpu-clock -c 100000 -g "$W" 2000
rec nog -e cpu-clock -c 100000 "$W" 1000
rec thr -e cpu-clock -c 100000 -g "$W" -t 2 1000
rec two -e cpu-clock,task-clock -c 100000 "$W" 1000
rec grp -e '{cpu-clock,task-clock}:S' -c 100000 -g "$W" 1000
rec tp -e sched:sched_switch -e raw_syscalls:sys_enter -g "$W" -t 2 200
rec sw -e cpu-clock -c 100000 --switch-events "$W" -t 2 500
rec ns -e cpu-clock -c 100000 --namespaces "$W" 300
rec cg -e cpu-clock -c 100000 --all-cgroups "$W" 300
rec rd -e cpu-clock -c 100000 -s "$W" -t 2 500
rec sys -e cpu-clock -c 500000 -a -g -- "$W" -t 2 1000
perf record -q -e cpu-clock -c 100000 -g -o - "$W" 1000 2>/dev/null > "$T_TMP/pipe.data" ||
	rm -f "$T_TMP/pipe.data"
"$M" brstack "$T_TMP/br.data" || rm -f "$T_TMP/br.data"

# same CMD ARGS...: perf and pmukit in $T_TMP, the same stdout (perf's random tip
# left out) and exit status; perf must have printed something (unless EMPTY_OK is set)
cat > "$T_TMP/same" <<'EOS'
cd "$T_TMP" || exit 1
perf "$@" 2> perf.err | grep -v '^# (Tip:' > perf.out; pe=$(perf "$@" >/dev/null 2>&1; echo $?)
"$PMUKIT" "$@" 2> pmukit.err | grep -v '^# (Tip:' > pmukit.out; pm=$("$PMUKIT" "$@" >/dev/null 2>&1; echo $?)
[ $pe = $pm ] || { echo "exit status: perf $pe, pmukit $pm" >&2; cat pmukit.err >&2; exit 1; }
[ -s perf.out ] || [ -n "$EMPTY_OK" ] || { echo "perf printed nothing" >&2; cat perf.err >&2; exit 1; }
diff perf.out pmukit.out > diff.out || { echo "$(grep -c '^[<>]' diff.out) lines differ:" >&2;
	head -30 diff.out >&2; cat pmukit.err >&2; exit 1; }
EOS
chmod +x "$T_TMP/same"
S="$T_TMP/same"
case "$PMUKIT" in /*) ;; *) PMUKIT="$PWD/$PMUKIT" ;; esac

ok "report --stats" $S report --stats -i g.data
ok "report --stats: two events" $S report --stats -i two.data
ok "report --stats: a read group (each member's samples)" $S report --stats -i grp.data
ok "report --stats: tracepoints" $S report --stats -i tp.data
ok "report --stats: pipe" $S report --stats -i pipe.data
ok "report --stats --tasks: refused as perf" env EMPTY_OK=1 $S report --stats --tasks -i g.data
ok "report --tasks: threads" $S report --tasks -i thr.data
ok "report --tasks: tracepoint file" $S report --tasks -i tp.data
ok "report --mmaps" $S report --mmaps -i thr.data
ok "report --mmaps: one thread" $S report --mmaps -i g.data
# system wide: synthesized FORKs name parents before their own FORK (perf replaces those
# threads), and children come in perf's threads-table order
ok "report --tasks: system wide" $S report --tasks -i sys.data
ok "report --mmaps: system wide" $S report --mmaps -i sys.data
ok "report --stats: system wide" $S report --stats -i sys.data
ok "buildid-list -H: system wide" $S buildid-list -H -i sys.data
ok "buildid-list: system wide" $S buildid-list -i sys.data
ok "report -D" $S report -D -i nog.data
ok "report -D: callchains" $S report -D -i g.data
ok "report -D: pipe" $S report --dump-raw-trace -i pipe.data
ok "report -D: a read group (resolve lines per member)" $S report -D -i grp.data
ok "report -D -q: tracepoints" $S report -D -q -i tp.data
ok "report -D: READ records (record -s)" $S report -D -i rd.data
ok "report -D: switch records" $S report -D -i sw.data
ok "report -D: namespaces" $S report -D -i ns.data
ok "report -D: branch stacks (branch mode counts)" $S report -D -i br.data
ok "report -T: per-thread values" $S report -T --stdio -i rd.data
ok "report --threads: no READ records" $S report --threads --stdio -i thr.data
ok "script -D" $S script -D -i nog.data
ok "script -D: tracepoints" $S script --dump-raw-trace -i tp.data
ok "script -D: pipe" $S script -D -i pipe.data
ok "script -D: branch stacks" $S script -D -i br.data
ok "script -D: READ records (unhandled in script)" $S script -D -i rd.data
# perf delivers a read group's sample to each member whose value moved since its last
ok "script: a read group, one line per member" $S script -i grp.data
ok "script -F: a read group's periods" $S script -F comm,tid,period,event,ip -i grp.data
ok "script -D: a read group (resolve lines per member)" $S script -D -i grp.data
ok "script --per-event-dump: stdout" $S script --per-event-dump -i two.data
ok "script --per-event-dump: the files" sh -c '
	cd "$T_TMP" && mkdir -p a b && cp tp.data a/ && cp tp.data b/ &&
	(cd a && perf script --per-event-dump -i tp.data > out 2>/dev/null) &&
	(cd b && "$PMUKIT" script --per-event-dump -i tp.data > out) &&
	diff -r a b >&2 && [ -s a/tp.data.raw_syscalls:sys_enter.dump ]'
ok "script --show-switch-events" $S script --show-switch-events -i sw.data
ok "script --show-switch-events --show-task-events" $S script --show-task-events --show-switch-events -i sw.data
ok "script --show-round-events (records as stored)" $S script --show-round-events -i g.data
ok "script --show-namespace-events" $S script --show-namespace-events -i ns.data
ok "script --show-lost-events" $S script --show-lost-events -i nog.data
ok "script --show-cgroup-events" $S script --show-cgroup-events -i cg.data
ok "report -D: a CGROUP record" $S report -D -i cg.data
ok "script -F brstack" $S script -F brstack -i br.data
ok "script -F ip,sym,brstack" $S script -F ip,sym,brstack -i br.data
ok "script -F brstack,dso" $S script -F brstack,dso -i br.data
ok "script -F brstacksym" $S script -F brstacksym -i br.data
ok "script -F brstacksym,dso" $S script -F brstacksym,dso -i br.data
ok "script -F +brstack (after the default fields)" $S script -F +brstack -i br.data
ok "script -F comm,tid,brstacksym,brstack (brstack wins)" $S script -F comm,tid,brstacksym,brstack -i br.data
ok "script -F ip,brstack: no branch stack recorded" $S script -F ip,brstack -i nog.data
exit $((T_FAIL > 0))
