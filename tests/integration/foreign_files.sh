#!/bin/sh
# foreign_files.sh — perf.data of kinds other tests do not record, read as perf 6.1 reads
# them (issue 18), script line for line and report --stdio against perf's:
#  - samples in kernel modules this machine has not loaded (report_mkdata modules: kernel
#    MMAP records of a module by its /lib/modules/.../x.ko path and of one by "[name]"):
#    the module named as perf names it ([pkfakefs], [pknet]), not [kernel.kallsyms], its
#    addresses module-relative;
#  - an Arm SPE recording (report_mkdata aux: AUXTRACE_INFO, AUX, AUXTRACE records beside
#    cpu-clock samples): the other samples as perf prints them (the event column as wide
#    as the events perf's SPE decoder adds), one warning that AUX traces are not decoded;
#  - a statically linked program's callchains (tests/workloads/callchain.c built with
#    -static and frame pointers): script and report -g as perf's;
#  - a `perf mem record -d -W --phys-data`-like file (report_mkdata mem: ADDR, WEIGHT,
#    DATA_SRC, PHYS_ADDR samples whose data sources set every perf_mem_data_src field):
#    script's data_src column decoded as perf 6.1 decodes it ("|OP LOAD|LVL L1 hit|SNP
#    None|..."), cut at 99 bytes and padded to the widest so far;
#  - a --call-graph lbr recording (report_mkdata lbr: CALLCHAIN with PERF_CONTEXT_USER and
#    BRANCH_STACK with PERF_SAMPLE_BRANCH_CALL_STACK): the callchain the kernel part, the first
#    branch's target and every branch's source, as perf's resolve_lbr_callchain_sample builds it
#    (in caller order perf looks the kernel part up as the user's: unresolved addresses);
#  - a perf 3.x-like file (report_mkdata old: a 64-byte attr without sample_id_all, MMAP not
#    MMAP2, samples without ID): perf then processes the records as stored, unordered;
#  - CPU_TOPOLOGY sections of older perf (report_mkdata topo_old: no core and socket ids;
#    topo_nodie: no die lists): read as perf reads them;
#  - samples in a 32-bit (i386 ELF32) program, built here without libc (report_mkdata elf32):
#    its symbols and srclines as perf's (skipped where gcc -m32 cannot link);
#  - MMAP2 records in the build-id layout (report_mkdata mmap2bid, mmap2bad: a wrong build
#    id): script, report, report --mmaps (perf takes the build id's bytes as maj/min/ino);
#  - files without feature sections older perf did not write (report_mkdata nodesc: no
#    EVENT_DESC, events named from their attrs; nofeat: none but BUILD_ID): script, evlist,
#    --header-only ("missing features" names PMU_CAPS, which Debian's perf 6.1 knows);
#  - perf_event_attrs of every older size (report_mkdata attr64 .. attr128: PERF_ATTR_SIZE_VER0
#    .. VER7, the file's attr_size that size): script, report and evlist -v as perf's; and
#    VER8 (136 bytes, perf >= 6.3) that perf 6.1 refuses: pmukit reads it as the 128-byte one;
#  - a 32-bit armv7 perf's files (report_mkdata armv7, armv7nog): HEADER_ARCH armv7l, an ARM
#    program built here (arm-linux-gnueabihf-gcc, Thumb-2 and ARM functions, without libc)
#    read through --symfs; MMAP2 and callchains (user and kernel), MMAP and none: script,
#    srclines (perf's dso[addr] fallback in objdump addresses), report's callchains;
#  - perf 3.x's files (report_mkdata perf3: the old file with only the feature sections perf
#    3.x wrote, its CPU_TOPOLOGY without ids, version 3.16.7; perf2: its header of the
#    previous format, 72 bytes without the feature bitmap; oldbid: its BUILD_ID entries without
#    the pid field, perf's ABI quirk; perf1: that file as perf before 2.6.37 wrote it, magic
#    "PERFFILE", header version 0 as perf prints it): script, report, --header-only,
#    buildid-list;
#  - MMAP2 records without sample_id_all's trailer, one with a 16-byte build id
#    (report_mkdata mmap2old): script --show-mmap-events, report, --mmaps; and one without
#    prot and flags as kernels 3.12-3.15 wrote it (mmap2v313: perf 6.1 takes the filename's
#    first 8 bytes for them, and pmukit as perf);
#  - uprobe events (perf probe -x BINARY main), named from the file's tracing data
#    (probe_rm_probe:main, not "unknown tracepoint"). The probes are made for the test
#    and deleted after it; without root, tracefs or perf probe those cases skip.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
MK="${PMUKIT_BUILD:-build}/tests/workloads/report_mkdata"
N=92
echo "1..$N"
skip_all() {
	i=$T_N
	while [ $i -lt $N ]; do i=$((i + 1)); echo "ok $i # SKIP $1"; done
	exit $T_FAIL
}
command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 && [ -x "$W" ] && [ -x "$MK" ] ||
	skip_all "perf or the workloads missing"
cd "$T_TMP" || exit 1
same() {	# same FILE report|script ARGS...
	f=$1 cmd=$2; shift 2
	if [ "$cmd" = report ]; then
		perf report --stdio -i "$f" "$@" 2>/dev/null | grep -v '^# (Tip:' >perf.out
		"$PMUKIT" report --stdio -i "$f" "$@" 2>pmukit.err | grep -v '^# (Tip:' >pmukit.out
	else
		perf script -i "$f" "$@" 2>/dev/null >perf.out
		"$PMUKIT" script -i "$f" "$@" 2>pmukit.err >pmukit.out
	fi
	[ -s perf.out ] || { echo "perf printed nothing" >&2; return 1; }
	diff perf.out pmukit.out >&2 || { cat pmukit.err >&2; return 1; }
}

# kernel modules
"$MK" modules mod.data || exit 1
ok "modules: named as perf names them" sh -c \
	"'$PMUKIT' script -i mod.data | grep -q ' (\[pkfakefs\])\$' && '$PMUKIT' script -i mod.data | grep -q ' (\[pknet\])\$'"
ok "modules: script as perf's" same mod.data script
ok "modules: script -F ip,sym,symoff,dso as perf's" same mod.data script -F ip,sym,symoff,dso
ok "modules: report as perf's" same mod.data report
ok "modules: report --sort dso as perf's" same mod.data report --sort dso
ok "modules: report --sort dso,sym --no-children -n as perf's" same mod.data report --sort dso,sym --no-children -n
ok "modules: report --sort comm,dso,sym as perf's" same mod.data report --sort comm,dso,sym

# AUX area traces (Arm SPE)
"$MK" aux aux.data || exit 1
ok "aux: script as perf's" same aux.data script
ok "aux: script -F comm,event,ip,sym as perf's" same aux.data script -F comm,event,ip,sym
ok "aux: report as perf's" same aux.data report
ok "aux: report --sort sym as perf's" same aux.data report --sort sym
ok "aux: one warning that the traces are not decoded" sh -c \
	"'$PMUKIT' script -i aux.data 2>&1 >/dev/null | grep -c 'Arm SPE AUX area traces are not decoded' | grep -qx 1"

# -W -d --phys-data: the data source decoded
"$MK" mem mem.data || exit 1
ok "mem: script as perf's" same mem.data script
ok "mem: script -F ip,addr,data_src,weight,phys_addr as perf's" \
	same mem.data script -F ip,addr,data_src,weight,phys_addr
ok "mem: script -F data_src (its width grows) as perf's" same mem.data script -F data_src
ok "mem: script -F comm,tid,event,ip,sym,addr,data_src,weight as perf's" \
	same mem.data script -F comm,tid,event,ip,sym,addr,data_src,weight

# --call-graph lbr: the call stack from the LBR
"$MK" lbr lbr.data || exit 1
ok "lbr: script as perf's" same lbr.data script
ok "lbr: script -F comm,ip,sym --max-stack 3 as perf's" same lbr.data script -F comm,ip,sym --max-stack 3
ok "lbr: report as perf's" same lbr.data report
ok "lbr: report --no-children as perf's" same lbr.data report --no-children
ok "lbr: report -g caller --no-children as perf's" same lbr.data report -g caller --no-children
ok "lbr: report -G --sort sym as perf's" same lbr.data report -G --sort sym

# perf 3.x: no sample_id_all, so no ordering
"$MK" old old.data || exit 1
ok "old: script as perf's" same old.data script
ok "old: script with task and mmap events, as stored" \
	same old.data script --show-task-events --show-mmap-events
ok "old: report --sort pid,sym as perf's" same old.data report --sort pid,sym
ok "old: report --tasks as perf's" same old.data report --tasks

# older CPU_TOPOLOGY layouts
for k in topo_old topo_nodie; do
	"$MK" $k $k.data || exit 1
	ok "$k: script as perf's" same $k.data script
	ok "$k: report --header-only as perf's" same $k.data report --header-only
done

# a 32-bit program (ELF32)
printf 'int f(int x) { return x * 3; }\nint g(int x) { return f(x) + 1; }\nvoid _start(void) { for (;;) g(1); }\n' >p32.c
if ${CC:-cc} -m32 -O1 -g -nostdlib -static -fno-pic -no-pie -o p32 p32.c 2>/dev/null &&
	MK_ELF32="$T_TMP/p32" "$MK" elf32 e32.data; then
	ok "elf32: script -F ip,sym,symoff,dso,srcline as perf's" same e32.data script -F ip,sym,symoff,dso,srcline
	ok "elf32: report --sort dso,sym,srcline as perf's" same e32.data report --sort dso,sym,srcline
	ok "elf32: report --sort symbol_size,sym as perf's" same e32.data report --sort symbol_size,sym
else
	for i in 1 2 3; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP no 32-bit compiler"; done
fi

# MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID
for k in mmap2bid mmap2bad; do
	"$MK" $k $k.data || exit 1
	ok "$k: script --show-mmap-events as perf's" same $k.data script --show-mmap-events
	ok "$k: report --sort dso,sym as perf's" same $k.data report --sort dso,sym
	ok "$k: report --mmaps as perf's" same $k.data report --mmaps
done

# feature sections older perf did not write
for k in nodesc nofeat; do
	"$MK" $k $k.data || exit 1
	ok "$k: script as perf's" same $k.data script
	ok "$k: report --header-only as perf's" same $k.data report --header-only
	ok "$k: script --header-only as perf's" same $k.data script --header-only
done

# older perf_event_attr sizes
for sz in 64 72 80 96 104 112 120 128; do
	"$MK" attr$sz a$sz.data || exit 1
	ok "attr size $sz: script, report, evlist -v as perf's" sh -c "
		for c in 'script' 'report --stdio' 'evlist -v'; do
			perf \$c -i a$sz.data 2>/dev/null | grep -v '^# (Tip:' >p.out
			'$PMUKIT' \$c -i a$sz.data 2>/dev/null | grep -v '^# (Tip:' >k.out
			[ -s p.out ] && diff p.out k.out >&2 || exit 1
		done"
done
"$MK" attr136 a136.data || exit 1
ok "attr size 136 (newer than perf 6.1): read as the 128-byte one" sh -c \
	"perf script -i a128.data 2>/dev/null | sed 's/ [0-9a-f]* td_/ td_/' >p.out &&
	 '$PMUKIT' script -i a136.data | sed 's/ [0-9a-f]* td_/ td_/' >k.out && [ -s p.out ] && diff p.out k.out >&2"

# a statically linked program
if ${CC:-cc} -O1 -g -static -fno-omit-frame-pointer -o cc_static "$SRC/tests/workloads/callchain.c" \
	2>/dev/null && perf record -q -e cpu-clock -c 100000 -g -o st.data ./cc_static 400 >/dev/null 2>&1; then
	ok "static: script as perf's" same st.data script
	ok "static: report as perf's" same st.data report
	ok "static: report --no-children as perf's" same st.data report --no-children
	ok "static: report -g caller --sort sym as perf's" same st.data report -g caller --sort sym
else
	for i in 1 2 3 4; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP no static libc"; done
fi

# a 32-bit armv7 perf's files, read with --symfs
printf '%s\n' 'int f(int x) { return x * 3; }' \
	'__attribute__((target("arm"))) int h(int x) { return x * 7 + f(x); }' \
	'int g(int x) { return f(x) + h(x) + 1; }' 'void _start(void) { for (;;) g(1); }' >parm.c
mkdir -p sym/opt/arm
if arm-linux-gnueabihf-gcc -O1 -g -nostdlib -static -fno-pic -no-pie -fno-omit-frame-pointer \
	-o sym/opt/arm/parm parm.c 2>/dev/null &&
	MK_ELFARM="$T_TMP/sym/opt/arm/parm" MK_ELFARM_AS=/opt/arm/parm "$MK" armv7 arm.data &&
	MK_ELFARM="$T_TMP/sym/opt/arm/parm" MK_ELFARM_AS=/opt/arm/parm "$MK" armv7nog armng.data; then
	ok "armv7: script as perf's" same arm.data script --symfs sym
	ok "armv7: script -F ip,sym,symoff,dso,srcline as perf's" \
		same arm.data script --symfs sym -F ip,sym,symoff,dso,srcline
	ok "armv7: report as perf's" same arm.data report --symfs sym
	ok "armv7: report --no-children as perf's" same arm.data report --symfs sym --no-children
	ok "armv7: report -g caller --sort sym as perf's" same arm.data report --symfs sym -g caller --sort sym
	ok "armv7: report --sort dso,sym,srcline as perf's" same arm.data report --symfs sym --sort dso,sym,srcline
	ok "armv7: report --header-only as perf's (arch armv7l)" same arm.data report --header-only
	ok "armv7 MMAP, no callchains: script -F ip,sym,symoff,dso,srcline as perf's" \
		same armng.data script --symfs sym -F ip,sym,symoff,dso,srcline
	ok "armv7 MMAP, no callchains: report as perf's" same armng.data report --symfs sym
	ok "armv7 MMAP, no callchains: report --sort dso,sym,srcline as perf's" \
		same armng.data report --symfs sym --sort dso,sym,srcline
else
	for i in 1 2 3 4 5 6 7 8 9 10; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP no arm-linux-gnueabihf-gcc"; done
fi

# perf 3.x's feature sections; the header before the feature bitmap
for k in perf3 perf2 perf1; do
	"$MK" $k $k.data || exit 1
	ok "$k: script as perf's" same $k.data script
	ok "$k: report as perf's" same $k.data report
	ok "$k: report --header-only as perf's" same $k.data report --header-only
done
ok "perf3: script with task and mmap events as perf's" same perf3.data script --show-task-events --show-mmap-events
ok "perf3: script --header-only as perf's" same perf3.data script --header-only
"$MK" oldbid oldbid.data || exit 1
ok "oldbid (BUILD_ID without pids): buildid-list as perf's" sh -c \
	"perf buildid-list -i oldbid.data >p.out 2>/dev/null && '$PMUKIT' buildid-list -i oldbid.data >k.out &&
	 grep -q 'kernel.kallsyms' p.out && diff p.out k.out >&2"
ok "oldbid: script as perf's" same oldbid.data script
ok "oldbid: report --sort dso,sym as perf's" same oldbid.data report --sort dso,sym
ok "perf1 (PERFFILE): buildid-list as perf's" sh -c \
	"perf buildid-list -i perf1.data >p.out 2>/dev/null && '$PMUKIT' buildid-list -i perf1.data >k.out &&
	 [ -s p.out ] && diff p.out k.out >&2"

# MMAP2 without sample_id_all
"$MK" mmap2old m2o.data || exit 1
ok "mmap2old: script --show-mmap-events --show-task-events as perf's" \
	same m2o.data script --show-mmap-events --show-task-events
ok "mmap2old: report --sort pid,dso,sym as perf's" same m2o.data report --sort pid,dso,sym
ok "mmap2old: report --mmaps as perf's" same m2o.data report --mmaps
"$MK" mmap2v313 m313.data || exit 1
ok "mmap2v313 (no prot, flags): script --show-mmap-events as perf's" same m313.data script --show-mmap-events
# perf's misreading leaves the filename less its first 8 bytes: an absolute path or, as the
# clone's path goes, a relative rest, whose basename both print as the DSO
ok "mmap2v313 (no prot, flags): report --sort pid,dso,sym as perf's" same m313.data report --sort pid,dso,sym

# uprobes
T=/sys/kernel/tracing
[ -d "$T/events" ] || mount -t tracefs nodev "$T" 2>/dev/null
[ -w "$T/uprobe_events" ] || skip_all "no writable tracefs (uprobe_events)"
cp "$W" "$T_TMP/rm_probe" || exit 1
# a probe of our own binary (a copy: its group is probe_rm_probe, ours alone)
perf probe -q -x "$T_TMP/rm_probe" main >/dev/null 2>&1 || skip_all "perf probe -x failed"
trap 'perf probe -q -d "probe_rm_probe:*" >/dev/null 2>&1; rm -rf "$T_TMP"' EXIT
perf record -q -e probe_rm_probe:main -e cpu-clock -c 100000 -o up.data ./rm_probe -t 2 300 \
	>/dev/null 2>&1

ok "uprobe: named from the tracing data" sh -c "'$PMUKIT' script -i up.data | grep -q ' probe_rm_probe:main: '"
ok "uprobe: script as perf's" same up.data script
ok "uprobe: script -F comm,tid,event,ip,sym as perf's" same up.data script -F comm,tid,event,ip,sym
ok "uprobe: report --sort comm,dso,sym as perf's" same up.data report --sort comm,dso,sym
exit $T_FAIL
