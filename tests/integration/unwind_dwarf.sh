#!/bin/sh
# unwind_dwarf.sh — user callchains of --call-graph dwarf files (a register and
# stack dump per sample, the kernel's callchain without user entries), unwound
# by pmukit (lib/session/unwind.c, libdw) against perf 6.1 (libunwind): report
# --stdio and script on the same file with the same options want the same text,
# line for line, except perf's random closing tip ("# (Tip: ...)"). The files
# are recorded fresh each run from tests/workloads/report_many (inlined helpers:
# each unwound frame is its inline chain, and perf's inlined entries of adjacent
# functions compare equal — lib/report/replay.c), callchain (also linked by lld
# when there is one) and vdso_time (frames in the vDSO), by perf 6.1 and by
# pmukit record, in files and pipes, with the default 8 KiB dump and with 4 KiB
# (the chains stop where the dump ends, one word early as perf's libunwind reader).
#
# Not compared: -g fractal (perf 6.1 marks its "[...]" remainder lines
# "(inlined)" or not from an uninitialized heap byte, ui/stdio/hist.c's
# rem_sq_bracket).
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
CW="${PMUKIT_BUILD:-build}/workloads/callchain"
VD="${PMUKIT_BUILD:-build}/workloads/vdso_time"
export PMUKIT W T_TMP

PLAN=45
echo "1..$PLAN"
skip_all() {
	i=0; while [ $i -lt $PLAN ]; do i=$((i + 1)); echo "ok $i - unwind_dwarf # SKIP $1"; done
	exit 0
}
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 || skip_all "perf (6.1) is not installed"
[ -x "$W" ] && [ -x "$CW" ] && [ -x "$VD" ] || skip_all "$W, $CW or $VD not built (make tests)"
perf record -q -e cpu-clock -c 100000 --call-graph dwarf -o "$T_TMP/probe.data" true >/dev/null 2>&1 ||
	skip_all "perf record cannot sample cpu-clock with --call-graph dwarf here"

rec() {	# rec NAME PERF-RECORD-ARGS... -- recorded into $T_TMP/NAME.data
	name=$1; shift
	perf record -q -o "$T_TMP/$name.data" "$@" >/dev/null 2>"$T_TMP/$name.rec" || {
		echo "# perf record $*: $(tail -1 "$T_TMP/$name.rec")"; rm -f "$T_TMP/$name.data"; }
}
rec rm -e cpu-clock -c 100000 --call-graph dwarf "$W" 3000
rec thr -e cpu-clock -c 100000 --call-graph dwarf "$W" -t 2 1500
rec cc -e cpu-clock -c 100000 --call-graph dwarf "$CW" 250
rec small -e cpu-clock -c 100000 --call-graph dwarf,4096 "$W" 2000
perf record -q -e cpu-clock -c 100000 --call-graph dwarf -o - "$CW" 100 2>/dev/null > "$T_TMP/pipe.data" ||
	rm -f "$T_TMP/pipe.data"
# clock_gettime in a loop: frames in the vDSO (in a pipe, whose build-ids come last, the
# reader's own vDSO, as perf takes it)
rec vd -e cpu-clock -c 100000 --call-graph dwarf "$VD" 3000000
perf record -q -e cpu-clock -c 100000 --call-graph dwarf -o - "$VD" 3000000 2>/dev/null \
	> "$T_TMP/vdpipe.data" || rm -f "$T_TMP/vdpipe.data"
# callchain linked by lld: its code segment's address is its file offset + 0x1000, so the
# load address is the first segment's (a module placed at the code map's start less its
# offset is a page off, its CFI not found); without frame pointers, so that a frame-pointer
# walk cannot stand in for the CFI; built here when a compiler can use lld
lld=
for c in clang gcc; do
	"$c" -O1 -g -fomit-frame-pointer -fuse-ld=lld -o "$T_TMP/cc_lld" \
		"$SRC/tests/workloads/callchain.c" 2>/dev/null && lld=1 && break
done
[ -n "$lld" ] && rec lld -e cpu-clock -c 100000 --call-graph dwarf "$T_TMP/cc_lld" 200
# programs exec'd from a recorded shell (dash's vfork + exec): docs/PERF-DIFFERENCES.md
rec ex -e cpu-clock -c 20000 --call-graph dwarf sh -c 'for i in $(seq 40); do /bin/true; done'
"$PMUKIT" record -q -o "$T_TMP/pk.data" -e cpu-clock -c 100000 --call-graph dwarf "$W" 2000 \
	>/dev/null 2>"$T_TMP/pk.rec" || { echo "# pmukit record: $(tail -1 "$T_TMP/pk.rec")"; rm -f "$T_TMP/pk.data"; }

# $C: perf 6.1 and pmukit on one file (tests/integration/lib/perf_compare.sh)
cp "${PMUKIT_SRC:-.}/tests/integration/lib/perf_compare.sh" "$T_TMP/compare"
chmod +x "$T_TMP/compare"
C="$T_TMP/compare unwind_dwarf "

# The comparisons mean something: perf unwinds the workload's own frames here.
ok "perf 6.1 unwinds report_many's frames (main, round_all, an inlined churn)" sh -c '
	perf script -i "$T_TMP/rm.data" 2>/dev/null > "$T_TMP/s" &&
	grep -q " main+0x" "$T_TMP/s" && grep -q " round_all+0x" "$T_TMP/s" &&
	grep -q " churn+0x[0-9a-f]* (inlined)" "$T_TMP/s"'

# report_many, 8 KiB dumps: inlined helpers in every leaf
ok "report_many: default (children, caller graph)" $C report rm
ok "report_many: --no-children (callee graph)" $C report rm --no-children
ok "report_many: -g caller --no-children" $C report rm -g caller --no-children
ok "report_many: -g callee (children)" $C report rm -g callee
ok "report_many: --sort sym" $C report rm --sort sym
ok "report_many: --sort dso,sym -g none" $C report rm --sort dso,sym -g none
ok "report_many: -g folded" $C report rm -g folded
ok "report_many: -g caller,0.1,address --no-children (inline frames' srclines)" \
	$C report rm -g caller,0.1,address --no-children
ok "report_many: --no-inline" $C report rm --no-inline
ok "report_many: script" $C script rm
ok "report_many: script -F +srcline (inline frames' own srclines)" $C script rm -F +srcline
ok "report_many: script --max-stack 6 (unwound frames counted apart)" $C script rm --max-stack 6
ok "report_many: script --no-inline" $C script rm --no-inline
ok "report_many: --max-stack 4 (caller order: unwound first, then the kernel's from the root)" \
	$C report rm --max-stack 4
# two threads of one process: one address space unwound for both
ok "two threads: default" $C report thr
ok "two threads: --sort pid,sym --no-children" $C report thr --sort pid,sym --no-children
ok "two threads: script" $C script thr
# callchain: no inlined helpers (libc's and ld.so's inline frames only)
ok "callchain: default" $C report cc
ok "callchain: --no-children" $C report cc --no-children
ok "callchain: -g caller" $C report cc -g caller
ok "callchain: --sort sym" $C report cc --sort sym
ok "callchain: --sort dso,sym -g none" $C report cc --sort dso,sym -g none
ok "callchain: script" $C script cc
# 4 KiB dumps: chains cut where the dump ends
ok "dwarf,4096: default" $C report small
ok "dwarf,4096: --no-children" $C report small --no-children
ok "dwarf,4096: -g caller" $C report small -g caller
ok "dwarf,4096: --sort sym" $C report small --sort sym
ok "dwarf,4096: --sort dso,sym -g none" $C report small --sort dso,sym -g none
ok "dwarf,4096: script" $C script small
# pmukit record --call-graph dwarf
ok "pmukit record: default" $C report pk
ok "pmukit record: --no-children" $C report pk --no-children
ok "pmukit record: -g caller" $C report pk -g caller
ok "pmukit record: --sort sym" $C report pk --sort sym
ok "pmukit record: --sort dso,sym -g none" $C report pk --sort dso,sym -g none
ok "pmukit record: script" $C script pk
# a file linked by lld (skipped without lld)
lld_ok() {
	if [ -n "$lld" ]; then ok "$@"; else T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP no lld"; fi
}
lld_ok "lld-linked callchain: script" $C script lld
lld_ok "lld-linked callchain: --no-children" $C report lld --no-children
# vDSO frames
ok "vdso_time: script" $C script vd
ok "vdso_time: default" $C report vd
# pipe mode (the arch feature and the build-ids arrive as records): stdin
cat > "$T_TMP/pipecmp" <<'EOF'
f=$1 cmd=$2; shift 2
[ -f "$T_TMP/$f.data" ] || { echo "no $f.data (record failed)" >&2; exit 1; }
perf $cmd -i - "$@" < "$T_TMP/$f.data" 2>/dev/null | grep -v "^# (Tip:" > "$T_TMP/a"
"$PMUKIT" $cmd -i - "$@" < "$T_TMP/$f.data" | grep -v "^# (Tip:" > "$T_TMP/b"
[ -s "$T_TMP/a" ] && diff "$T_TMP/a" "$T_TMP/b" >&2
EOF
P="sh $T_TMP/pipecmp"
ok "pipe mode: script -i -" $P pipe script
ok "pipe mode: report -i -" $P pipe report --stdio
ok "pipe mode, vdso_time: script -i -" $P vdpipe script
ok "pipe mode, vdso_time: report -i -" $P vdpipe report --stdio
# perf 6.1 unwinds such a program with the parent's lowest map of the DSO as its base and
# prints 0xffffffffffffffff frames; pmukit unwinds each from its own map
ok "exec'd children of a recorded shell: their own maps, no 0xffffffffffffffff frame" sh -c '
	[ -f "$1/ex.data" ] || exit 1
	"$2" report -i "$1/ex.data" --stdio --no-children > "$1/ex.out" || exit 1
	grep -q "_dl_start" "$1/ex.out" && ! grep -q ffffffffffffffff "$1/ex.out"' sh "$T_TMP" "$PMUKIT"
[ $T_FAIL -eq 0 ]
