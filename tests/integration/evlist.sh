#!/bin/sh
# evlist.sh — pmukit evlist and pmukit buildid-list against perf 6.1 (TAP): the
# same stdout and exit status for every option, on files perf 6.1 records here
# from tests/workloads/report_many (one event, two, a {..}:S group, tracepoints,
# -F frequency, --switch-events, a pipe-mode file).
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
export PMUKIT T_TMP

PLAN=29
echo "1..$PLAN"
. "$SRC/tests/integration/lib/perf_rec.sh"
perf_rec_check "$W"
rec g -e cpu-clock -c 100000 -g "$W" 2000
rec two -e cpu-clock,task-clock -c 100000 "$W" 1000
rec grp -e '{cpu-clock,task-clock}:S' -c 100000 -g "$W" 1000
rec tp -e sched:sched_switch -e raw_syscalls:sys_enter -g "$W" -t 2 200
rec freq -e cpu-clock -F 4000 "$W" 1000
rec sw -e cpu-clock -c 100000 --switch-events "$W" -t 2 500
perf record -q -e cpu-clock -c 100000 -g -o - "$W" 1000 2>/dev/null > "$T_TMP/pipe.data" ||
	rm -f "$T_TMP/pipe.data"
cp "$T_TMP/g.data" "$T_TMP/perf.data"

# same CMD ARGS...: perf and pmukit in $T_TMP, the same stdout and exit status
cat > "$T_TMP/same" <<'EOS'
cd "$T_TMP" || exit 1
perf "$@" > perf.out 2> perf.err; pe=$?
"$PMUKIT" "$@" > pmukit.out 2> pmukit.err; pm=$?
[ $pe = $pm ] || { echo "exit status: perf $pe, pmukit $pm" >&2; cat pmukit.err >&2; exit 1; }
diff perf.out pmukit.out >&2 || { cat pmukit.err >&2; exit 1; }
EOS
chmod +x "$T_TMP/same"
S="$T_TMP/same"
case "$PMUKIT" in /*) ;; *) PMUKIT="$PWD/$PMUKIT" ;; esac
case "$W" in /*) ;; *) W="$PWD/$W" ;; esac

ok "evlist: names" $S evlist -i g.data
ok "evlist: perf.data by default" $S evlist
ok "evlist -v: every attr field" $S evlist -v -i g.data
ok "evlist -v: two events" $S evlist -v -i two.data
ok "evlist -v: a {..}:S group" $S evlist -v -i grp.data
ok "evlist -g: the group" $S evlist -g -i grp.data
ok "evlist -g: no group" $S evlist --group -i two.data
ok "evlist -F: sample_period" $S evlist -F -i two.data
ok "evlist -F: sample_freq" $S evlist --freq -i freq.data
ok "evlist -v: -F's attr" $S evlist -v -i freq.data
ok "evlist: tracepoints (and perf's tip)" $S evlist -i tp.data
ok "evlist --trace-fields" $S evlist --trace-fields -i tp.data
ok "evlist -v --trace-fields" $S evlist --verbose --trace-fields -i tp.data
ok "evlist -F --trace-fields: not a tracepoint" $S evlist -F --trace-fields -i g.data
ok "evlist -v: --switch-events' context_switch" $S evlist -v -i sw.data
ok "evlist -v: pipe-mode file" $S evlist -v -i pipe.data
ok "evlist -f" $S evlist -f -i g.data
ok "evlist -g -v: refused with perf's status" $S evlist -g -v -i g.data
ok "evlist: unknown option" $S evlist --nosuch -i g.data
ok "buildid-list: the file's table" $S buildid-list -i g.data
ok "buildid-list -H: DSOs with samples" $S buildid-list -H -i g.data
ok "buildid-list --with-hits: threads" $S buildid-list --with-hits -i tp.data
ok "buildid-list: pipe (no table: DSOs with samples, no ids)" $S buildid-list -i pipe.data
ok "buildid-list -H: pipe" $S buildid-list -H -i pipe.data
ok "buildid-list -k: the running kernel" $S buildid-list -k
ok "buildid-list -m: the running kernel's map" $S buildid-list -m
ok "buildid-list -i ELF: the file's own build-id" $S buildid-list -i "$W"
ok "buildid-list: missing file" $S buildid-list -i nosuch.data
ok "evlist: missing file" $S evlist -i nosuch.data
exit $((T_FAIL > 0))
