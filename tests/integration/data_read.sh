#!/bin/sh
# data_read.sh — the perf.data reader (pmukit/data_read.h, through the oracle dump
# tool build/tests/data_dump) against perf 6.1 on files perf records here: cpu-clock
# with and without -g, sched:sched_switch with raw data and -a, -a cpu-clock, a
# {task-clock,page-faults}:S group, --call-graph dwarf, every side-band option,
# pipe mode (saved and live through stdin), -z (file and pipe). For each file:
#  - `perf report -D` line for line (record offsets, sizes, types, times, decoded
#    fields, callchains, registers, read values) in perf's order, raw hex dumps and
#    perf's thread/dso lookups left out;
#  - `perf script -F` sample fields (pid/tid, cpu, time, period, event, ip);
#  - the header (`perf report --header-only -I`) and build-ids (`perf buildid-list`);
#  - the same reading with the smallest mapped window, and records as a set with a
#    tiny ordering queue; tracepoint fields against perf script's;
#  - real files cut short and damaged: an error naming the offset, never a crash.
# Without perf (or a kind of recording perf can not make here) the cases skip.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
DUMP="${PMUKIT_BUILD:-build}/tests/data_dump"
D=$T_TMP/rec
mkdir -p "$D"
N=35
echo "1..$N"

if ! command -v perf >/dev/null 2>&1 || ! perf version >/dev/null 2>&1 || [ ! -x "$DUMP" ]; then
	i=1
	while [ $i -le $N ]; do echo "ok $i # SKIP perf or data_dump missing"; i=$((i + 1)); done
	exit 0
fi

WL='i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done; ls / >/dev/null'
# rec NAME ARGS... : perf record into $D/NAME (quiet), 0 when it made a file
rec() {
	n=$1; shift
	perf record -q "$@" -o "$D/$n" -- sh -c "$WL" >"$D/$n.out" 2>"$D/$n.err" && [ -s "$D/$n" ]
}
recp() {	# pipe mode
	n=$1; shift
	perf record -q "$@" -o - -- sh -c "$WL" >"$D/$n" 2>"$D/$n.err" && [ -s "$D/$n" ]
}
have() { [ -s "$D/$1" ]; }
skip() { T_N=$((T_N + 1)); echo "ok $T_N # SKIP $1"; }

rec cc.data -e cpu-clock -F 2000
rec g.data -e cpu-clock -F 2000 -g
rec tp.data -e sched:sched_switch -R -a
rec a.data -e cpu-clock -F 1000 -a
rec grp.data -e '{task-clock,page-faults}:S'
rec dw.data --call-graph dwarf,4096 -e cpu-clock -F 500
rec misc.data --switch-events --namespaces --all-cgroups -d --data-page-size --code-page-size \
	-W --sample-cpu -T --user-regs=ax,bx,sp --intr-regs=ip,sp -e cpu-clock -F 2000
rec z.data -z -e cpu-clock -F 2000 -g -a
recp pipe.data -e cpu-clock -F 2000 -g
recp pipez.data -z -e cpu-clock -F 2000 -g
recp pipetp.data -e sched:sched_switch -a

# perf report -D without what depends on perf's own lookups
filt() {
	grep -v '^\. \|^\.$\|^$\|^ \.\.\. thread\|^ \.\.\.\.\.\. dso\|^#' | sed '/^Aggregated stats/,$d'
}
same_dump() {	# same_dump FILE [data_dump options]
	f=$1; shift
	perf report -D -i "$D/$f" 2>/dev/null | filt >"$T_TMP/perf.d" &&
		"$DUMP" "$@" "$D/$f" >"$T_TMP/mine.d" &&
		[ -s "$T_TMP/perf.d" ] &&
		diff "$T_TMP/perf.d" "$T_TMP/mine.d" >&2
}
for f in cc.data g.data tp.data a.data grp.data dw.data misc.data z.data pipe.data pipez.data \
	pipetp.data; do
	if have $f; then ok "perf report -D equals the reader's dump: $f" same_dump $f
	else skip "perf could not record $f here"; fi
done

# perf script -F: fields only (perf prints user callchain addresses map-relative)
norm() { sed 's/^[ \t]*//; s/[ \t][ \t]*/ /g; s/ *$//'; }
# (perf script prints a pipe's callchains even without ip: sample lines only)
same_script() {	# same_script FILE FIELDS
	perf script -F "$2" -i "$D/$1" 2>/dev/null | norm | grep -E '^-?[0-9]+/' >"$T_TMP/perf.s" &&
		"$DUMP" -S "$2" "$D/$1" | norm | grep -E '^-?[0-9]+/' >"$T_TMP/mine.s" &&
		[ -s "$T_TMP/perf.s" ] && diff "$T_TMP/perf.s" "$T_TMP/mine.s" >&2
}
for c in "cc.data pid,tid,time,period,event,ip" "tp.data pid,tid,cpu,time,period,event,ip" \
	"a.data pid,tid,cpu,time,period,event,ip" "g.data pid,tid,time,period,event" \
	"dw.data pid,tid,time,period,event" "z.data pid,tid,cpu,time,period,event" \
	"pipe.data pid,tid,time,period,event"; do
	set -- $c
	if have $1; then ok "perf script -F $2: $1" same_script $1 $2
	else skip "no $1"; fi
done

# header features and build-ids
same_header() {
	perf report --header-only -I -i "$D/$1" 2>/dev/null |
		grep -E '^# (hostname|os release|perf version|arch|nrcpus|cpudesc|cpuid|total memory|cmdline|sibling|CPU [0-9]|pmu mappings|group|time of|compressed)' \
		>"$T_TMP/perf.h" &&
		"$DUMP" -H "$D/$1" >"$T_TMP/mine.all" && grep '^#' "$T_TMP/mine.all" >"$T_TMP/mine.h" &&
		diff "$T_TMP/perf.h" "$T_TMP/mine.h" >&2 &&
		perf buildid-list -i "$D/$1" 2>/dev/null | grep -E '^[0-9a-f]{40} ' | sort >"$T_TMP/perf.b" &&
		grep '^buildid ' "$T_TMP/mine.all" | sed 's/^buildid //' | sort -u >"$T_TMP/mine.b" &&
		diff "$T_TMP/perf.b" "$T_TMP/mine.b" >&2
}
for f in g.data grp.data z.data; do
	if have $f; then ok "header and build-ids as perf reads them: $f" same_header $f
	else skip "no $f"; fi
done
# event names: perf script's event field for every sample of the group
if have grp.data; then
	ok "group: event names and leader from EVENT_DESC/GROUP_DESC" sh -c \
		"'$DUMP' -H '$D/grp.data' | grep -x 'event 0 task-clock' &&
		 '$DUMP' -H '$D/grp.data' | grep -x 'event 1 page-faults' &&
		 '$DUMP' -H '$D/grp.data' | grep -x '# group: {task-clock,page-faults}'"
else skip "no grp.data"; fi

# tracepoint fields from the tracing data: the pids perf script prints
same_tp() {
	perf script -i "$D/$1" 2>/dev/null | sed -n 's/.*prev_pid=\([0-9]*\).*next_pid=\([0-9]*\).*/\1 \2/p' \
		>"$T_TMP/perf.t" &&
		"$DUMP" -S trace "$D/$1" | sed -n 's/.*prev_pid=\([0-9]*\).*next_pid=\([0-9]*\).*/\1 \2/p' \
		>"$T_TMP/mine.t" && [ -s "$T_TMP/perf.t" ] && diff "$T_TMP/perf.t" "$T_TMP/mine.t" >&2
}
for f in tp.data pipetp.data; do
	if have $f; then ok "sched_switch fields from the tracing data: $f" same_tp $f
	else skip "no $f"; fi
done

# options: the smallest window gives the same reading; a tiny queue the same records
if have z.data && have a.data; then
	ok "a 256 KiB window reads as the default" sh -c \
		"'$DUMP' -C '$D/a.data' > '$T_TMP/w1' && '$DUMP' -w 1 -C '$D/a.data' > '$T_TMP/w2' &&
		 cmp '$T_TMP/w1' '$T_TMP/w2'"
	ok "a 4 KiB queue delivers the same records (in bounded memory)" sh -c \
		"'$DUMP' -C '$D/z.data' | sort > '$T_TMP/q1' && '$DUMP' -q 4096 -C '$D/z.data' | sort > '$T_TMP/q2' &&
		 cmp '$T_TMP/q1' '$T_TMP/q2'"
else skip "no z.data"; skip "no a.data"; fi

# stdin: a saved pipe and a live perf record -o -
if have pipe.data; then
	ok "stdin reads as the file" sh -c "cat '$D/pipe.data' | '$DUMP' -C - > '$T_TMP/s1' &&
		'$DUMP' -C '$D/pipe.data' > '$T_TMP/s2' && cmp '$T_TMP/s1' '$T_TMP/s2'"
else skip "no pipe.data"; fi
live() {
	perf record -q -e cpu-clock -F 2000 -g -o - -- sh -c "$WL" 2>/dev/null | tee "$T_TMP/live.data" |
		"$DUMP" -C - >"$T_TMP/live1" && "$DUMP" -C "$T_TMP/live.data" >"$T_TMP/live2" &&
		[ -s "$T_TMP/live1" ] && cmp "$T_TMP/live1" "$T_TMP/live2"
}
ok "perf record -o - | reader, live" live
if have cc.data; then
	ok "a file-mode perf.data on stdin: refused with a message" sh -c \
		"! cat '$D/cc.data' | '$DUMP' - 2>'$T_TMP/e' && grep -q 'can not be read from a pipe' '$T_TMP/e'"
else skip "no cc.data"; fi

# damaged real files: exit 0 (read) or 1 with "offset 0x..." — never a signal
damage() {	# damage FILE MODE(cut|flip) COUNT
	f=$D/$1; len=$(wc -c <"$f"); k=0; bad=0
	while [ $k -lt "$3" ]; do
		if [ "$2" = cut ]; then
			n=$(( (len * k) / $3 )); head -c $n "$f" >"$T_TMP/dmg"
		else
			perl -e 'my ($f,$s)=@ARGV; open my $h,"<:raw",$f; local $/; my $d=<$h>;
				srand($s); my $p=int(rand(length $d)); substr($d,$p,1)=chr(int(rand(256)));
				print $d' "$f" "$k" >"$T_TMP/dmg"
		fi
		"$DUMP" -C "$T_TMP/dmg" >/dev/null 2>"$T_TMP/dmg.err"; rc=$?
		if [ $rc -gt 1 ] || { [ $rc = 1 ] && ! grep -q 'offset 0\|offset 0x\|empty file' "$T_TMP/dmg.err"; }; then
			echo "$1 $2 #$k: exit $rc: $(head -3 "$T_TMP/dmg.err")" >&2; bad=1
		fi
		k=$((k + 1))
	done
	[ $bad = 0 ]
}
for c in "g.data cut 150" "g.data flip 150" "pipe.data cut 150" "pipez.data flip 150" \
	"z.data cut 100"; do
	set -- $c
	if have $1; then ok "$1 $2 at $3 places: an error with an offset, or read" damage $1 $2 $3
	else skip "no $1"; fi
done
# a file-mode file cut in its data: the records before the cut, a warning naming it
# (damaged_files.sh compares such files with perf)
cut_fails() {
	len=$(wc -c <"$D/$1")
	head -c $((len / 2)) "$D/$1" >"$T_TMP/half" && "$DUMP" "$T_TMP/half" >/dev/null 2>"$T_TMP/h.err" &&
		grep -q "warning: .*half: offset 0x.*the file ends inside its data section" "$T_TMP/h.err"
}
if have g.data; then ok "half a file-mode file: read up to the cut, truncation named" cut_fails g.data
else skip "no g.data"; fi

exit $T_FAIL
