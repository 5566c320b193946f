#!/bin/sh
# stat_more.sh — `pmukit stat` beyond the basic shapes (TAP): signals and
# Ctrl-C, -I row counts, --interval-count, -o/--append, -j as JSON, option
# errors, and metrics: --counts FILE with -M / --topdown on synthetic counts
# (expected percentages computed here from TopDown's formulas), a -j round
# trip, and TopDown refusing in one line where it cannot run.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
echo "1..31"
O=$T_TMP/more
FX=$SRC/tests/fixtures/counts
export PMUKIT O FX SRC

# --- signals ---------------------------------------------------------------------------
ok "SIGINT to pmukit: counts printed, the workload stopped, exit 130" sh -c '
	"$PMUKIT" stat -e task-clock sleep 20 2>"$O.int" & p=$!
	sleep 0.4; kill -INT $p; s=$(date +%s)
	wait $p; r=$?; e=$(date +%s)
	[ $r = 130 ] || { echo "exit $r" >&2; exit 1; }
	[ $((e - s)) -lt 5 ] && grep -Eq "msec task-clock" "$O.int"'

ok "-a without a command counts until SIGINT" sh -c '
	"$PMUKIT" stat -a -e cpu-clock 2>"$O.a" & p=$!
	sleep 0.4; kill -INT $p; wait $p; r=$?
	[ $r = 130 ] && grep -q "for .system wide.:" "$O.a" && grep -Eq "msec cpu-clock" "$O.a"' 

ok "SIGTERM to pmukit is passed on: the workload's own exit status comes back" sh -c '
	"$PMUKIT" stat -e task-clock sh -c "trap \"exit 7\" TERM; while :; do sleep 0.05; done" 2>"$O.t" & p=$!
	sleep 0.4; kill -TERM $p; wait $p; r=$?
	[ $r = 7 ] || { echo "exit $r" >&2; exit 1; }
	grep -Eq "msec task-clock" "$O.t"'

# --- intervals, output ---------------------------------------------------------------------
ok "-I 100 over 0.55 s: 5 full intervals and the last partial one" sh -c '
	"$PMUKIT" stat -I 100 -x, -e task-clock sleep 0.55 2>"$O.i"
	n=$(grep -c ",task-clock," "$O.i"); echo "$n rows" >&2
	[ "$n" -ge 5 ] && [ "$n" -le 7 ] &&
	awk -F, "{ if (\$1 + 0 <= last) exit 1; last = \$1 + 0 }" "$O.i"'

ok "-I: each interval is on stderr when it ends, not at exit (stderr is buffered)" sh -c '
	"$PMUKIT" stat -I 100 -x, -e task-clock sh -c "sleep 0.45; cat \"$O.live\" > \"$O.seen\"" 2>"$O.live"
	n=$(grep -c ",task-clock," "$O.seen"); echo "$n rows seen by the workload" >&2
	[ "$n" -ge 1 ]'

ok "--interval-count 3 stops printing after 3 intervals and waits for the workload, as perf" sh -c '
	s=$(date +%s%N)
	"$PMUKIT" stat -I 100 --interval-count 3 -x, -e task-clock sh -c "sleep 1; exit 3" 2>"$O.c"
	r=$?; e=$(date +%s%N)
	[ $r = 3 ] && [ $(grep -c ",task-clock," "$O.c") = 3 ] && [ $(( (e - s) / 1000000 )) -ge 1000 ]'

ok "-o FILE: nothing on stderr, the file has the counts; --append adds" sh -c '
	"$PMUKIT" stat -o "$O.o" -e task-clock true 2>"$O.oe" && [ ! -s "$O.oe" ] &&
	head -1 "$O.o" | grep -q "^# started on " && grep -Eq "msec task-clock" "$O.o" &&
	"$PMUKIT" stat -o "$O.o" --append -e page-faults true 2>/dev/null &&
	grep -Eq "msec task-clock" "$O.o" && grep -Eq " page-faults" "$O.o"'

ok "-j: every line a JSON object with perf's keys" sh -c '
	"$PMUKIT" stat -j -a -A -I 100 --interval-count 2 -e cpu-clock,page-faults,cycles 2>"$O.j" &&
	perl -MJSON::PP -ne "
		my \$o = JSON::PP->new->decode(\$_);
		for my \$k (qw(interval cpu counter-value unit event event-runtime pcnt-running)) {
			exists \$o->{\$k} or die qq(no \$k in \$_);
		}
		\$n++; END { die qq(lines: \$n) unless \$n == 2 * 2 * 3 }" "$O.j"'

ok "-r 3: (3 runs) and the relative deviation" sh -c '
	"$PMUKIT" stat -r 3 -e task-clock true 2>"$O.r" &&
	grep -q "for .true. (3 runs):" "$O.r" && grep -Eq "task-clock .*\( \+- +[0-9.]+% \)" "$O.r" &&
	grep -Eq "seconds time elapsed +\( \+- +[0-9.]+% \)" "$O.r"'

# --- errors -----------------------------------------------------------------------------------
ok "-p of a process that does not exist: perf's message, exit 234" sh -c '
	"$PMUKIT" stat -p 999999999 -e task-clock sleep 0.1 2>"$O.p"; [ $? = 234 ] &&
	grep -qx "Problems finding threads of monitor" "$O.p"'
ok "-C with a bad list: non-zero, says where" sh -c '
	! "$PMUKIT" stat -C 0-x -e cpu-clock sleep 0.1 2>"$O.C" && grep -q -- "-C" "$O.C"'
fails "-x and -j together" "$PMUKIT" stat -x, -j -e task-clock true
fails "-A without -a or -C" "$PMUKIT" stat -A -e task-clock true
ok "-M with an unknown metric: caret and hint" sh -c '
	! "$PMUKIT" stat --cpuid skylake -M tma_retirin true 2>"$O.M" &&
	grep -q "^\^" "$O.M" && grep -qi "tma_retiring" "$O.M"'
ok "--topdown where it cannot run: one line saying why" sh -c '
	! "$PMUKIT" stat --cpuid amdzen3 --topdown true 2>"$O.td" &&
	[ $(wc -l < "$O.td") = 1 ] && grep -qi "topdown" "$O.td"'
ok "--topdown with the events missing from the machine: one line after the counts" sh -c '
	[ -e /sys/bus/event_source/devices/cpu ] && exit 0
	"$PMUKIT" stat --cpuid skylake --sysfs "$SRC/tests/fixtures/sysfs/x86-skl" --topdown -x, true 2>"$O.tn"
	[ $(grep -c "^pmukit stat: --topdown: " "$O.tn") = 1 ] && grep -q "not supported" "$O.tn"'
ok "--record-tpebs accepted, the output says static values are used" sh -c '
	"$PMUKIT" stat --record-tpebs -e task-clock true 2>"$O.tp" && grep -q "static values" "$O.tp"'

# --- metrics offline (--counts) ------------------------------------------------------------------
ok "--counts --topdown (metric-only), Skylake TopdownL1 from the JSON TMA metrics (topdown.txt's formulas); -M TopdownL1 flags thresholds" sh -c '
	"$PMUKIT" stat --cpuid skylake --counts "$FX/skl-tma.json" --topdown -j 2>"$O.s" || exit 1
	v() { perl -MJSON::PP -ne "next if /^#/; my \$o = JSON::PP->new->decode(\$_); print \$o->{q(counter-value)} if \$o->{event} eq q($1)" "$FX/skl-tma.json"; }
	m() { perl -MJSON::PP -ne "my \$o = JSON::PP->new->decode(\$_); for (keys %\$o) { print \$o->{\$_} if /\b$1\$/ }" "$O.s" | head -1; }
	slots=$(awk -v t=$(v CPU_CLK_UNHALTED.THREAD) "BEGIN { print 4 * t }")
	ret=$(awk -v r=$(v UOPS_RETIRED.RETIRE_SLOTS) -v s=$slots "BEGIN { print 100 * r / s }")
	fe=$(awk -v f=$(v IDQ_UOPS_NOT_DELIVERED.CORE) -v s=$slots "BEGIN { print 100 * f / s }")
	bs=$(awk -v i=$(v UOPS_ISSUED.ANY) -v r=$(v UOPS_RETIRED.RETIRE_SLOTS) -v c=$(v INT_MISC.RECOVERY_CYCLES) -v s=$slots \
		"BEGIN { print 100 * (i - r + 4 * c) / s }")
	be=$(awk -v a=$ret -v b=$fe -v c=$bs "BEGIN { print 100 - a - b - c }")
	for p in "tma_retiring $ret" "tma_frontend_bound $fe" "tma_bad_speculation $bs" "tma_backend_bound $be"; do
		set -- $p; got=$(m $1); echo "$1: $got want $2" >&2
		awk -v a="$got" -v b="$2" "BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != \"\" && d < 0.05) }" || exit 1
	done
	"$PMUKIT" stat --cpuid skylake --counts "$FX/skl-tma.json" -M TopdownL1 -j 2>"$O.s2" &&
	grep "tma_backend_bound" "$O.s2" | grep -q "\"metric-threshold\" : \"bad\""'

ok "--counts, Ice Lake TopdownL1 from PERF_METRICS (topdown-* / sum of the four)" sh -c '
	"$PMUKIT" stat --cpuid icelake --counts "$FX/icl-perf-metrics.json" --topdown -j 2>"$O.icl" || exit 1
	v() { perl -MJSON::PP -ne "next if /^#/; my \$o = JSON::PP->new->decode(\$_); print \$o->{q(counter-value)} if \$o->{event} eq q($1)" "$FX/icl-perf-metrics.json"; }
	m() { perl -MJSON::PP -ne "my \$o = JSON::PP->new->decode(\$_); for (keys %\$o) { print \$o->{\$_} if /\b$1\$/ }" "$O.icl" | head -1; }
	r=$(v topdown-retiring); f=$(v topdown-fe-bound); b=$(v topdown-bad-spec); k=$(v topdown-be-bound)
	for p in "tma_retiring $r" "tma_frontend_bound $f" "tma_bad_speculation $b" "tma_backend_bound $k"; do
		set -- $p
		want=$(awk -v x=$2 -v r=$r -v f=$f -v b=$b -v k=$k "BEGIN { print 100 * x / (r + f + b + k) }")
		got=$(m $1); echo "$1: $got want $want" >&2
		awk -v a="$got" -v b="$want" "BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != \"\" && d < 0.05) }" || exit 1
	done'

ok "--counts -M: IPC from INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD" sh -c '
	"$PMUKIT" stat --cpuid skylake --counts "$FX/skl-tma.json" -M tma_info_thread_ipc -x, 2>"$O.ipc" || exit 1
	i=$(perl -MJSON::PP -ne "next if /^#/; my \$o = JSON::PP->new->decode(\$_); print \$o->{q(counter-value)} / 1 if \$o->{event} eq q(INST_RETIRED.ANY)" "$FX/skl-tma.json")
	c=$(perl -MJSON::PP -ne "next if /^#/; my \$o = JSON::PP->new->decode(\$_); print \$o->{q(counter-value)} / 1 if \$o->{event} eq q(CPU_CLK_UNHALTED.THREAD)" "$FX/skl-tma.json")
	want=$(awk -v i=$i -v c=$c "BEGIN { printf \"%.2f\", i / c }")
	grep -q ",$want,tma_info_thread_ipc\$" "$O.ipc"'

ok "--counts of perf 6.1's own -j capture: the same events and values back" sh -c '
	"$PMUKIT" stat --counts "$FX/perf61-sw.json" -j 2>"$O.rt" || exit 1
	perl -MJSON::PP -e "
		my (%a, %b);
		for my \$p ([\$ARGV[0], \\%a], [\$ARGV[1], \\%b]) {
			open my \$f, q(<), \$p->[0] or die; while (my \$l = <\$f>) { next if \$l =~ /^#/ || \$l !~ /\\S/;
			my \$o = JSON::PP->new->decode(\$l); \$p->[1]{\$o->{event}} = \$o->{q(counter-value)} }
		}
		die q(count) unless keys %a == keys %b && keys %a > 2;
		for (keys %a) { die qq(\$_: \$a{\$_} vs \$b{\$_}) unless \$a{\$_} eq \$b{\$_} }" "$FX/perf61-sw.json" "$O.rt"'

ok "a live -j capture reads back with --counts (-A, intervals)" sh -c '
	"$PMUKIT" stat -j -a -A -I 100 --interval-count 2 -e cpu-clock,page-faults 2>"$O.cap" &&
	"$PMUKIT" stat --counts "$O.cap" -j 2>"$O.back" &&
	perl -MJSON::PP -e "
		sub rd { my (\$p) = @_; open my \$f, q(<), \$p or die; my @r;
			while (<\$f>) { my \$o = JSON::PP->new->decode(\$_);
				push @r, join q(|), map { \$o->{\$_} } qw(interval cpu event counter-value) } return join qq(\\n), sort @r }
		die qq(differ) unless rd(\$ARGV[0]) eq rd(\$ARGV[1]) " "$O.cap" "$O.back"'

ok "--counts with bad input: file:line:column, non-zero" sh -c '
	printf "{\"event\" : \"cycles\", \"counter-value\" : \n" > "$O.bad"
	! "$PMUKIT" stat --counts "$O.bad" 2>"$O.be" && grep -q "$O.bad:1:" "$O.be"'

ok "--counts: perf's built-in metrics (GHz, insn per cycle, miss ratios) from their formulas" sh -c '
	"$PMUKIT" stat --counts "$FX/hw-default.json" -x, 2>"$O.hw" || exit 1
	v() { perl -MJSON::PP -ne "next if /^#/; my \$o = JSON::PP->new->decode(\$_); print \$o->{q(counter-value)} / 1 if \$o->{event} eq q($1)" "$FX/hw-default.json"; }
	m() { awk -F, -v e="$1" "\$3 == e { print \$6 \",\" \$7 }" "$O.hw"; }
	ghz=$(awk -v c=$(v cycles) -v t=$(v task-clock) "BEGIN { printf \"%.3f,GHz\", c / (t * 1e6) }")
	ipc=$(awk -v i=$(v instructions) -v c=$(v cycles) "BEGIN { printf \"%.2f,insn per cycle\", i / c }")
	br=$(awk -v m=$(v branch-misses) -v b=$(v branches) "BEGIN { printf \"%.2f,of all branches\", 100 * m / b }")
	cm=$(awk -v m=$(v cache-misses) -v r=$(v cache-references) "BEGIN { printf \"%.2f,of all cache refs\", 100 * m / r }")
	l1=$(awk -v m=$(v L1-dcache-load-misses) -v r=$(v L1-dcache-loads) "BEGIN { printf \"%.2f,of all L1-dcache accesses\", 100 * m / r }")
	for p in "cycles|$ghz" "instructions|$ipc" "branch-misses|$br" "cache-misses|$cm" "L1-dcache-load-misses|$l1"; do
		e=${p%%|*}; want=${p#*|}; got=$(m $e); echo "$e: $got / $want" >&2
		[ "$got" = "$want" ] || exit 1
	done'

ok "no permission (paranoid, not root): the message names the sysctl" sh -c '
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null || exit 0
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] || exit 0
	! PMUKIT_PERF_PARANOID= setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PMUKIT" stat -a -e cpu-clock sleep 0.1 2>"$O.perm" &&
	grep -q "perf_event_paranoid" "$O.perm"'

ok "a table event this VM's kernel cannot count: <not supported>, the rest counted" sh -c '
	[ -e /sys/bus/event_source/devices/cpu ] && exit 0
	case $(uname -m) in x86_64) ;; *) exit 0 ;; esac
	"$PMUKIT" stat --cpuid skylake -e INST_RETIRED.ANY,task-clock true 2>"$O.ns" &&
	grep -Eq "<not supported> +INST_RETIRED.ANY" "$O.ns" && grep -Eq "[0-9] msec task-clock" "$O.ns"'

ok "-t TID of a running thread for the time of a command" sh -c '
	sh -c "while :; do :; done" & b=$!
	"$PMUKIT" stat -t $b -e task-clock sleep 0.2 2>"$O.tid"; r=$?; kill $b
	[ $r = 0 ] && grep -q "for thread id .$b.:" "$O.tid" && grep -Eq "[1-9][0-9.]* msec task-clock" "$O.tid"'

ok "-p without a command: counts until SIGINT" sh -c '
	sh -c "while :; do :; done" & b=$!
	"$PMUKIT" stat -p $b -e task-clock 2>"$O.pid" & p=$!
	sleep 0.3; kill -INT $p; wait $p; kill $b
	grep -q "for process id .$b.:" "$O.pid" && grep -Eq "[1-9][0-9.]* msec task-clock" "$O.pid"'

# the capture machine had SMT (its events are the _ANY ones); this one may not: the
# branch of "X if #SMT_on else Y" whose events the file has is taken
ok "--counts --per-core from an SMT machine: TopdownL1 per core with the SMT formulas" sh -c '
	"$PMUKIT" stat --cpuid skylake --counts "$FX/skylake-per-core.json" --topdown -x, 2>"$O.pc" || exit 1
	v() { perl -MJSON::PP -ne "my \$o = JSON::PP->new->decode(\$_); print \$o->{q(counter-value)} / 1 if \$o->{core} eq q(S0-D0-C0) && \$o->{event} eq q($1)" "$FX/skylake-per-core.json"; }
	want=$(awk -v r=$(v UOPS_RETIRED.RETIRE_SLOTS) -v a=$(v CPU_CLK_UNHALTED.THREAD_ANY) "BEGIN { printf \"%.1f\", 100 * r / (4 * a / 2) }")
	col=$(head -1 "$O.pc" | tr , "\n" | grep -n "tma_retiring" | cut -d: -f1)
	got=$(grep "^S0-D0-C0," "$O.pc" | cut -d, -f$col)
	echo "retiring C0: $got want $want" >&2; [ -n "$got" ] && [ "$got" = "$want" ]'

ok "-p without a command stops when the process exits" sh -c '
	sh -c "i=0; while [ \$i -lt 100000 ]; do i=\$((i+1)); done" & b=$!
	"$PMUKIT" stat -p $b -e task-clock 2>"$O.pe" & p=$!
	wait $b; n=0
	while kill -0 $p 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
	if kill -0 $p 2>/dev/null; then kill -INT $p; echo "still running" >&2; exit 1; fi
	wait $p; grep -Eq "msec task-clock" "$O.pe"'

ok "--counts: a metric whose events the file lacks is named with them, once; those it can compute are not" sh -c '
	"$PMUKIT" stat --counts "$FX/skl-tma.json" --cpuid skylake -M TopdownL1,tma_info_inst_mix_ipbranch 2>"$O.miss" >&2
	[ "$(grep -c "no count in the file" "$O.miss")" = 1 ] &&
	grep -q "^pmukit stat: --counts: BR_INST_RETIRED.ALL_BRANCHES: no count in the file: metric tma_info_inst_mix_ipbranch not computed\$" "$O.miss" &&
	grep -q "tma_retiring" "$O.miss"'

[ "$T_FAIL" = 0 ]
