#!/bin/sh
# stat_thread.sh — `pmukit stat --per-thread` and per-package events (TAP).
# A three-thread helper built here (main "pkspin" and "pkwork" busy, "pkidle"
# blocked) is counted with -p/-t (text, -x, -j, -I, -r) and compared with
# perf 6.1 on the same process: line shapes (numbers normalised), the text
# columns exactly, the interval header; then pmukit's own rules: a row per
# thread labelled comm-tid from /proc, events one after the other, threads by
# count (largest first), the blocked thread's <not counted> rows kept with -p
# and every zero row left out with -a, the combinations perf refuses.
# Per-package events: tests/fixtures/sysfs/perpkg's pkgsw/cpuclk/ (cpu-clock
# with .per-pkg 1) counted with -a is one CPU's clock per package, where
# pkgsw/cpuclk_all/ adds every CPU's. Cases perf cannot run here pass with a note.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
O=$T_TMP/thr
FX=$SRC/tests/fixtures/sysfs/perpkg
export PMUKIT O FX T_TMP

# --- the helper: three threads for 60 s at most -------------------------------------------
cat > "$T_TMP/pkspin.c" <<'EOF'
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
static double until;
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
static void *busy(void *name)
{
	if (name)
		prctl(PR_SET_NAME, name);
	while (now() < until)
		usleep(50);	/* runs often, switches often: every event counts */
	return NULL;
}
static void *idle(void *a)
{
	(void)a;
	prctl(PR_SET_NAME, "pkidle");
	for (;;)
		pause();
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t w, i;
	until = now() + (argc > 1 ? atof(argv[1]) : 60);
	pthread_create(&i, NULL, idle, NULL);
	pthread_create(&w, NULL, busy, "pkwork");
	busy(NULL);
	return 0;
}
EOF
echo "1..23"
if ! ${CC:-cc} -O1 -pthread -o "$T_TMP/pkspin" "$T_TMP/pkspin.c" 2>"$T_TMP/cc.err"; then
	# no compiler: nothing of the per-thread part can run
	i=0; while [ $i -lt 20 ]; do i=$((i + 1)); echo "ok $i - per-thread # SKIP no C compiler"; done
	T_N=20
else
	"$T_TMP/pkspin" 60 & SPIN_PID=$!
	trap 'kill $SPIN_PID 2>/dev/null; rm -rf "$T_TMP"' EXIT
	# wait for its three threads
	n=0; while [ "$(ls /proc/$SPIN_PID/task 2>/dev/null | wc -l)" -lt 3 ] && [ $n -lt 50 ]; do
		sleep 0.02; n=$((n + 1)); done
	P=$SPIN_PID
	TIDS=$(ls /proc/$P/task | sort -n | tr '\n' ',' | sed 's/,$//')
	export P TIDS
fi

# Line shapes: numbers -> N, rate prefixes -> X/sec, space runs -> one, sorted.
shape() {
	sed -E -e 's/[0-9][0-9,]*(\.[0-9]+)?(e[-+][0-9]+)?/N/g' \
		-e 's/[KMG]?\/sec/X\/sec/g' -e 's/ +/ /g' -e 's/ +$//' \
		-e '/^ *$/d' "$1" | sort -u
}
# Where each event name starts on the text lines: the columns must be perf's exactly.
columns() {
	awk '{ for (e = 1; e <= 4; e++) { split("task-clock context-switches page-faults duration_time", n, " ")
		i = index($0, " " n[e] " "); if (i) print n[e], i } }' "$1" | sort -u
}

can_perf() { command -v perf >/dev/null 2>&1 && perf stat "$@" >/dev/null 2>&1; }

# same NAME STAT-ARGS... : perf and pmukit on the helper, shapes and text columns compared
same() {
	name=$1; shift
	T_N=$((T_N + 1))
	if [ -z "${P:-}" ]; then echo "ok $T_N - $name # SKIP no helper"; return; fi
	if ! can_perf "$@"; then echo "ok $T_N - $name # perf cannot run it here"; return; fi
	perf stat "$@" 2>"$O.p" >/dev/null
	if ! "$PMUKIT" stat "$@" 2>"$O.q" >/dev/null; then
		T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - $name (pmukit failed)"
		sed 's/^/# /' "$O.q" | head -10; return
	fi
	shape "$O.p" > "$O.ps"; shape "$O.q" > "$O.qs"
	columns "$O.p" > "$O.pc"; columns "$O.q" > "$O.qc"
	grep '^#' "$O.p" > "$O.ph"; grep '^#' "$O.q" > "$O.qh"
	if diff "$O.ps" "$O.qs" > "$O.d" && diff "$O.pc" "$O.qc" >> "$O.d" &&
	   diff "$O.ph" "$O.qh" >> "$O.d"; then
		echo "ok $T_N - $name"; return
	fi
	T_FAIL=$((T_FAIL + 1))
	echo "not ok $T_N - $name (shapes differ)"
	sed 's/^/# /' "$O.d" | head -20
	echo "# perf:"; sed 's/^/#   /' "$O.p" | head -14
	echo "# pmukit:"; sed 's/^/#   /' "$O.q" | head -14
}

if [ -n "${P:-}" ]; then
EV=task-clock,context-switches,page-faults
same "-p text" --per-thread -p "$P" -e $EV,duration_time sleep 0.2
same "-p -x," --per-thread -p "$P" -x, -e $EV,duration_time sleep 0.2
same "-p -j" --per-thread -p "$P" -j -e $EV sleep 0.2
same "-t text" --per-thread -t "$TIDS" -e $EV sleep 0.2
same "-p -I text (header, columns)" --per-thread -p "$P" -I 100 -e task-clock,context-switches sleep 0.25
same "-p -I -x," --per-thread -p "$P" -I 100 -x, -e task-clock sleep 0.25
same "-p -I -j" --per-thread -p "$P" -I 100 -j -e task-clock sleep 0.25
same "-p -r 2 -x, (no noise per thread)" --per-thread -r 2 -p "$P" -x, -e task-clock sleep 0.1
same "-p, an event not supported here" --per-thread -p "$P" -e task-clock,cycles sleep 0.1

ok "a row per thread and event, labelled comm-tid as /proc has them" sh -c '
	"$PMUKIT" stat --per-thread -p $P -x, -e task-clock,context-switches sleep 0.2 2>"$O.l"
	for t in $(ls /proc/$P/task); do echo "$(cat /proc/$P/task/$t/comm)-$t"; done | sort > "$O.want"
	for e in task-clock context-switches; do
		awk -F, -v e=$e "\$4 == e { print \$1 }" "$O.l" | sort > "$O.got"
		diff "$O.want" "$O.got" >&2 || exit 1
	done
	grep -q "^pkidle-" "$O.got" && grep -q "^pkwork-" "$O.got" && grep -q "^pkspin-$P," "$O.l"'

ok "events one after the other, each event's threads by count, largest first" sh -c '
	"$PMUKIT" stat --per-thread -p $P -x, -e context-switches,task-clock,page-faults sleep 0.2 2>"$O.o"
	awk -F, "
		{ v = \$2 + 0 }	# <not counted> sorts as 0, as perf
		\$4 != ev { if (seen[\$4]++) { print \"event \" \$4 \" again\"; exit 1 }; ev = \$4; last = 1e300 }
		v > last { print \"not sorted: \" \$0; exit 1 }
		{ last = v; n++ }
		END { if (n != 9) { print n \" rows\"; exit 1 } }" "$O.o" >&2'

ok "-p: the blocked thread's rows are printed, <not counted> (perf 6.1)" sh -c '
	"$PMUKIT" stat --per-thread -p $P -e task-clock,context-switches sleep 0.2 2>"$O.z"
	[ $(grep -c "pkidle-.*<not counted>" "$O.z") = 2 ]'

ok "-a --per-thread: zero rows left out, busy threads there (perf 6.1)" sh -c '
	"$PMUKIT" stat --per-thread -a -x, -e cpu-clock,context-switches,cycles sleep 0.3 2>"$O.a" || exit 1
	! grep -q "pkidle-" "$O.a" && ! grep -q ",cycles," "$O.a" &&
	! awk -F, "\$4 == \"context-switches\" && \$2 + 0 == 0" "$O.a" | grep -q . &&
	! awk -F, "\$4 == \"cpu-clock\" && \$5 + 0 == 0" "$O.a" | grep -q . &&
	grep -q "^pkwork-[0-9]*,[0-9.]*,msec,cpu-clock," "$O.a" &&
	[ $(grep -c ",cpu-clock," "$O.a") -ge 2 ]'

ok "--per-thread alone: every thread until SIGINT ('system wide')" sh -c '
	"$PMUKIT" stat --per-thread -e cpu-clock 2>"$O.s" & p=$!
	sleep 0.4; kill -INT $p; wait $p
	grep -q "for .system wide.:" "$O.s" && grep -Eq "^ *pkwork-[0-9]+ +[0-9.]+ msec cpu-clock" "$O.s"'

ok "-I: every interval has a row per thread" sh -c '
	"$PMUKIT" stat --per-thread -p $P -I 100 --interval-count 3 -x, -e task-clock,page-faults sleep 0.6 2>"$O.i"
	[ $(wc -l < "$O.i") = $((3 * 3 * 2)) ] &&
	[ $(cut -d, -f1 "$O.i" | sort -u | wc -l) = 3 ]'

ok "a thread that exits while counted keeps its counts" sh -c '
	"$T_TMP/pkspin" 0.2 & q=$!; sleep 0.05
	"$PMUKIT" stat --per-thread -p $q -x, -e task-clock 2>"$O.e"
	[ $(grep -c ",task-clock," "$O.e") = 3 ] && grep -q "^pkwork-[0-9]*,[0-9.]*,msec" "$O.e"'
else
	: # the 20 per-thread tests were reported skipped above
fi

# --- refusals, as perf: the same combinations fail in both ----------------------------------
refused() {	# refused NAME WHY ARGS... : pmukit fails saying WHY; perf (when it can run) fails too
	name=$1; why=$2; shift 2
	T_N=$((T_N + 1))
	if "$PMUKIT" stat "$@" >/dev/null 2>"$O.r" || ! grep -q -- "$why" "$O.r"; then
		T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - refused: $name"; sed 's/^/# /' "$O.r"; return
	fi
	if command -v perf >/dev/null 2>&1 && perf stat "$@" >/dev/null 2>&1; then
		T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - refused: $name (perf runs it)"; return
	fi
	echo "ok $T_N - refused: $name"
}
if [ -n "${P:-}" ]; then
	refused "with a command alone" "per-thread option is only available" --per-thread -e task-clock -- true
	refused "with -C" "per-thread option is only available" --per-thread -C 0 -e cpu-clock sleep 0.01
	refused "with -a -C" "per-thread option is only available" --per-thread -a -C 0 -e cpu-clock sleep 0.01
	refused "with --metric-only" "not supported with --per-thread" --per-thread --metric-only -p "$P" -e task-clock sleep 0.01
fi

# --- per-package events ----------------------------------------------------------------------
# expected share of the per-package event: (socket, die) pairs over online CPUs
pkgs=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -r $c/topology/physical_package_id ] || continue
	[ "$(cat $c/online 2>/dev/null || echo 1)" = 1 ] || continue
	echo "$(cat $c/topology/physical_package_id)-$(cat $c/topology/die_id 2>/dev/null || echo 0)"
done | sort -u | wc -l)
ncpu=$(getconf _NPROCESSORS_ONLN)
export pkgs ncpu
ok "per-package event with -a: one CPU's clock per package ($pkgs of $ncpu CPUs)" sh -c '
	"$PMUKIT" stat --sysfs "$FX" -a -x, -e pkgsw/cpuclk/,pkgsw/cpuclk_all/,cpu-clock sleep 0.3 2>"$O.pp" || exit 1
	awk -F, -v want=$pkgs -v n=$ncpu "
		\$3 == \"pkgsw/cpuclk/\" { pp = \$1 } \$3 == \"pkgsw/cpuclk_all/\" { all = \$1 }
		\$3 == \"cpu-clock\" { cc = \$1 }
		END { r = pp / all; print \"per-pkg \" pp \" all \" all \" cpu-clock \" cc \" ratio \" r
		      if (all < 0.9e6 * cc || all > 1.1e6 * cc) exit 1	# ns (no alias unit) vs msec
		      if (r < 0.9 * want / n || r > 1.1 * want / n) exit 1 }" "$O.pp" >&2'
ok "per-package event with -A: each CPU its own reading" sh -c '
	"$PMUKIT" stat --sysfs "$FX" -a -A -x, -e pkgsw/cpuclk/,pkgsw/cpuclk_all/ sleep 0.2 2>"$O.pa" || exit 1
	[ $(grep -c ",pkgsw/cpuclk/," "$O.pa") = $ncpu ] &&
	awk -F, "\$4 == \"pkgsw/cpuclk/\" && \$2 < 150000000 { exit 1 }" "$O.pa"'
ok "per-package event with --per-socket: one reading per socket" sh -c '
	"$PMUKIT" stat --sysfs "$FX" -a --per-socket -x, -e pkgsw/cpuclk/ sleep 0.2 2>"$O.ps" || exit 1
	awk -F, "\$5 == \"pkgsw/cpuclk/\" && (\$3 < 150000000 || \$3 > 260000000) { exit 1 }" "$O.ps"'
[ "$T_FAIL" = 0 ]
