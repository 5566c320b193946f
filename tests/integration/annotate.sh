#!/bin/sh
# annotate.sh — pmukit annotate against perf 6.1's perf annotate --stdio (TAP):
# tests/workloads/report_many.c built -O2 -g (source interleaved), without -g
# (no source), stripped (no symbols: nothing of it is annotated), and as the
# tests build it (-O1, frame pointers) with callchains; every symbol, one
# (-s, or as an argument), each --percent-type, -M intel, --no-source, -n,
# --show-total-period, --asm-raw, -l, --percent-limit, -d, --full-path, a
# file with two events (alone and --group), a recorded :S group; --stdio2; -k of a
# vmlinux the test makes (annotate, report and script).
# stdout and the exit status must be perf's.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
W="${PMUKIT_BUILD:-build}/tests/workloads/report_many"
SRC_C="${PMUKIT_SRC:-.}/tests/workloads/report_many.c"
PMUKIT=$(cd "$(dirname "$PMUKIT")" && pwd)/pmukit
export PMUKIT T_TMP

PLAN=75
echo "1..$PLAN"
skip_all() {
	i=0; while [ $i -lt $PLAN ]; do i=$((i + 1)); echo "ok $i - annotate # SKIP $1"; done
	exit 0
}
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 || skip_all "perf (6.1) is not installed"
command -v objdump >/dev/null 2>&1 || skip_all "objdump (binutils), which perf annotate runs, is not installed"
[ -x "$W" ] || skip_all "$W not built (make tests)"
CC=${CC:-cc}
# each build its own build-id, so that perf's build-id cache never mixes them up
$CC -O2 -g -pthread -Wl,--build-id=0x5eed0201 -o "$T_TMP/rm_g" "$SRC_C" &&
$CC -O2 -pthread -Wl,--build-id=0x5eed0202 -o "$T_TMP/rm_nog" "$SRC_C" &&
$CC -O2 -g -pthread -Wl,--build-id=0x5eed0203 -o "$T_TMP/rm_full" "$SRC_C" &&
	strip -o "$T_TMP/rm_strip" "$T_TMP/rm_full" || skip_all "cannot build the workload ($CC)"
rec() {	# rec NAME ARGS...
	n=$1; shift
	perf record -q -o "$T_TMP/$n.data" "$@" >/dev/null 2>&1
}
rec g -e cpu-clock -c 100000 "$T_TMP/rm_g" 2000 || skip_all "perf record cannot sample cpu-clock here"
rec nog -e cpu-clock -c 100000 "$T_TMP/rm_nog" 1500
rec strip -e cpu-clock -c 100000 "$T_TMP/rm_strip" 1000
rec two -e cpu-clock,task-clock -c 100000 "$T_TMP/rm_g" 1000
rec cg -e cpu-clock -c 100000 -g "$W" -t 2 1000
rec grp -e '{cpu-clock,task-clock}:S' -c 100000 "$T_TMP/rm_g" 1000
rec dw -e cpu-clock -c 200000 --call-graph dwarf "$T_TMP/rm_g" 600
# C++: a template's inlined member function, objdump's demangled func(): lines
cat > "$T_TMP/cxx.cc" <<'EOF_CXX'
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace ns {
template <typename T> struct Acc {
	T v{};
	inline void add(T x) { v += x * x + (x >> 3); }
};
__attribute__((noinline)) long work(const std::vector<long> &d, int rounds)
{
	Acc<long> a;
	for (int r = 0; r < rounds; r++)
		for (long x : d)
			a.add(x + r);
	return a.v;
}
}
int main(int argc, char **argv)
{
	std::vector<long> d(4096);
	for (size_t i = 0; i < d.size(); i++)
		d[i] = (long)i * 7;
	printf("%ld\n", ns::work(d, argc > 1 ? atoi(argv[1]) : 1000));
}
EOF_CXX
${CXX:-c++} -O2 -g -Wl,--build-id=0x5eed0204 -o "$T_TMP/cxx" "$T_TMP/cxx.cc" 2>/dev/null &&
	rec cxx -e cpu-clock -c 100000 "$T_TMP/cxx" 6000
# a function of a shared library
cat > "$T_TMP/shl.c" <<'EOF_SHL'
#include <stdint.h>
uint64_t shl_work(uint64_t x, int n)
{
	for (int i = 0; i < n; i++) {
		x ^= x >> 13;
		x *= 0x9e3779b97f4a7c15ull;
	}
	return x;
}
EOF_SHL
printf '%s\n' '#include <stdio.h>' '#include <stdint.h>' 'uint64_t shl_work(uint64_t x, int n);' \
	'int main(void) { uint64_t s = 1; for (int i = 0; i < 1500; i++) s = shl_work(s + i, 10000); printf("%lu\n", (unsigned long)s); return 0; }' \
	> "$T_TMP/shm.c"
$CC -O2 -g -fPIC -shared -Wl,--build-id=0x5eed0205 -o "$T_TMP/libshl.so" "$T_TMP/shl.c" &&
	$CC -O2 -g -o "$T_TMP/shm" "$T_TMP/shm.c" -L"$T_TMP" -lshl -Wl,-rpath,"$T_TMP" &&
	rec shl -e cpu-clock -c 100000 "$T_TMP/shm"
# a JIT symbol of /tmp/perf-PID.map: perf cannot disassemble it, nor does pmukit (stderr only)
cat > "$T_TMP/jit.c" <<'EOF_JIT'
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void)
{
	unsigned char code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };	/* dec %rdi; jnz; ret */
	unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	if (p == MAP_FAILED)
		return 1;
	memcpy(p, code, sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	FILE *f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx jitted_loop\n", (unsigned long)p, sizeof(code));
	fclose(f);
	for (int i = 0; i < 10; i++)
		((void (*)(long))p)(20000000);
	unlink(path);
	return 0;
}
EOF_JIT
$CC -O1 -o "$T_TMP/jit" "$T_TMP/jit.c" && rec jit -e cpu-clock -c 100000 "$T_TMP/jit"

cat > "$T_TMP/compare" <<'EOF2'
f=$1; shift
(cd "$T_TMP" && perf annotate ${MODE:---stdio} -i "$f.data" "$@" > perf.out 2>/dev/null; echo "exit $?" >> perf.out)
(cd "$T_TMP" && "$PMUKIT" annotate ${MODE:---stdio} -i "$f.data" "$@" > pmukit.out 2>pmukit.err; echo "exit $?" >> pmukit.out)
[ "$(wc -l < "$T_TMP/perf.out")" -gt 1 ] || [ -n "$EMPTY_OK" ] || { echo "perf annotate printed nothing" >&2; exit 1; }
diff "$T_TMP/perf.out" "$T_TMP/pmukit.out" > "$T_TMP/diff" && exit 0
echo "$(grep -c '^[<>]' "$T_TMP/diff") lines differ (< perf, > pmukit):" >&2
head -30 "$T_TMP/diff" >&2; head -5 "$T_TMP/pmukit.err" >&2
exit 1
EOF2
chmod +x "$T_TMP/compare"
C="$T_TMP/compare"
# the hottest symbol of the program, as perf names it
HOT=$(perf report --stdio -i "$T_TMP/g.data" --dsos rm_g -s sym -q 2>/dev/null | awk '$2 == "[.]" { print $3; exit }')
[ -n "$HOT" ] || HOT=leaf_13

ok "-O2 -g: every symbol with samples, source interleaved" $C g
ok "-O2 -g: the program's symbols (-d)" $C g -d rm_g
ok "without -g: no source lines" $C nog -d rm_nog
ok "stripped: no symbol of the program to annotate" sh -c "EMPTY_OK=1 $C strip -d rm_strip"
ok "-s $HOT" $C g -s "$HOT"
ok "$HOT as an argument" $C g "$HOT"
ok "--percent-type local-period" $C g --percent-type local-period -d rm_g
ok "--percent-type global-period" $C g --percent-type global-period -d rm_g
ok "--percent-type local-hits" $C g --percent-type local-hits -d rm_g
ok "--percent-type global-hits (perf 6.1 prints 0.00)" $C g --percent-type global-hits -s "$HOT"
ok "-M intel" $C g -M intel -s "$HOT"
ok "--no-source" $C g --no-source -d rm_g
ok "-n" $C g -n -d rm_g
ok "--show-total-period" $C g --show-total-period -s "$HOT"
ok "--asm-raw" $C g --asm-raw -s "$HOT"
ok "-l -s $HOT (the sorted summary, // srcline)" $C g -l -s "$HOT"
ok "-l without -g" $C nog -l -s "$(perf report --stdio -i "$T_TMP/nog.data" --dsos rm_nog -s sym -q 2>/dev/null | awk '$2 == "[.]" { print $3; exit }')"
ok "--percent-limit 2" $C g --percent-limit 2
ok "--full-path" $C g --full-path -s "$HOT"
ok "two events" $C two -d rm_g
ok "two events, --group: a column each" $C two --group -d rm_g
ok "--group -n -l --percent-type global-period (members: 0.00, as perf 6.1)" $C two --group -n -l --percent-type global-period -s "$HOT"
ok "a recorded {cpu-clock,task-clock}:S group (PERF_SAMPLE_READ)" $C grp -d rm_g
ok "a recorded group, --percent-type local-hits" $C grp --percent-type local-hits -d rm_g
ok "callchains, threads, -O1 frame pointers (the tests' build)" $C cg -d report_many
ok "--call-graph dwarf" $C dw -d rm_g
if [ -f "$T_TMP/cxx.data" ]; then
	ok "C++: inlined template members, demangled" $C cxx -d cxx
	ok "C++: -l --no-source" $C cxx -l --no-source -s ns::work
else
	ok "C++ # SKIP no C++ compiler" true
	ok "C++ -l # SKIP no C++ compiler" true
fi
ok "a shared library's function" $C shl -d libshl.so
ok "a JIT symbol (perf-PID.map): nothing on stdout, as perf" sh -c "EMPTY_OK=1 $C jit jitted_loop"
# --stdio2: perf's annotate browser text (jump targets, arrows, operands by symbol, its padding)
C2="env MODE=--stdio2 $C"
ok "--stdio2: every symbol, source interleaved" $C2 g
ok "--stdio2 without -g" $C2 nog -d rm_nog
ok "--stdio2 --no-source (calls into ld.so named by perf's symbols)" $C2 g --no-source
ok "--stdio2 -n" $C2 g -n -d rm_g
ok "--stdio2 --show-total-period" $C2 g --show-total-period -s "$HOT"
ok "--stdio2 -l" $C2 g -l -d rm_g
ok "--stdio2 --percent-type global-period, -M intel" $C2 g --percent-type global-period -M intel -d rm_g
ok "--stdio2 --asm-raw" $C2 g --asm-raw -s "$HOT"
ok "--stdio2, two events, --group" $C2 two --group -d rm_g
ok "--stdio2, a recorded group" $C2 grp -d rm_g
ok "--stdio2, callchains and threads" $C2 cg -d report_many
if [ -f "$T_TMP/cxx.data" ]; then
	ok "--stdio2, C++" $C2 cxx -d cxx
else
	ok "--stdio2 C++ # SKIP no C++ compiler" true
fi
ok "--stdio2, a shared library's function" $C2 shl -d libshl.so
# kernel symbols without -k: perf 6.1 needs a vmlinux or a readable /proc/kcore; where it
# has neither, pmukit gives perf's message (stderr) and exit status
rec k -e cpu-clock -c 100000 dd if=/dev/zero of=/dev/null bs=1k count=200000
KSYM=$(perf report --stdio -i "$T_TMP/k.data" -s sym -q 2>/dev/null | awk '$2 == "[k]" { print $3; exit }')
perf annotate --stdio -i "$T_TMP/k.data" "$KSYM" 2>"$T_TMP/k.perf.err" >/dev/null
if [ -z "$KSYM" ]; then
	for t in 1 2 3; do ok "kernel symbol # SKIP no kernel samples recorded here" true; done
elif ! grep -q "No vmlinux file" "$T_TMP/k.perf.err"; then
	for t in 1 2 3; do ok "kernel symbol # SKIP perf finds a vmlinux or kcore here by itself" true; done
else
	ok "a kernel symbol without vmlinux: stdout and exit status (every symbol)" $C k
	"$PMUKIT" annotate --stdio -i "$T_TMP/k.data" "$KSYM" 2>"$T_TMP/k.pmukit.err" >/dev/null
	ok "a kernel symbol without vmlinux: perf's message" diff "$T_TMP/k.perf.err" "$T_TMP/k.pmukit.err"
	ok "--stdio2, a kernel symbol without vmlinux" sh -c "EMPTY_OK=1 $C2 k '$KSYM'"
fi
# -k/--vmlinux: a vmlinux of the test's making (two functions at the x86_64 kernel's
# address, -O2 -g) and kernel samples in them (report_mkdata vmlinux), recorded at its
# address and at one moved 256 MiB (KASLR: perf relocates the symbols by _text); perf
# 6.1 annotates them from the file, and report and script name them and their lines.
MK="${PMUKIT_BUILD:-build}/tests/workloads/report_mkdata"
cat > "$T_TMP/kv.c" <<'EOF_KV'
__attribute__((noinline)) long kfunc_a(long x)
{
	long s = 0;
	for (long i = 0; i < x; i++)
		s += i * i;
	return s;
}
__attribute__((noinline)) long kfunc_b(long x)
{
	return kfunc_a(x) + 1;
}
void _start(void)
{
	kfunc_b(10);
	for (;;)
		;
}
EOF_KV
KT=ffffffff81000000
if [ "$(uname -m)" = x86_64 ] && [ -x "$MK" ] &&
   $CC -O2 -g -mcmodel=kernel -fno-pie -no-pie -nostdlib -static -ffreestanding \
	-Wl,-Ttext=0x$KT -Wl,--defsym=_text=0x$KT -Wl,--build-id=0x5eed0301 \
	-o "$T_TMP/vmlinux" "$T_TMP/kv.c" 2>/dev/null; then
	# the functions' offsets from _text (the low 32 bits: the shell's numbers are signed)
	A=$(nm "$T_TMP/vmlinux" | awk '$3 == "kfunc_a" { print substr($1, 9) }')
	B=$(nm "$T_TMP/vmlinux" | awk '$3 == "kfunc_b" { print substr($1, 9) }')
	KS=$(printf '%x,%x,%x,%x' $((0x$A - 0x81000000 + 0x10)) $((0x$A - 0x81000000 + 0x10)) \
		$((0x$A - 0x81000000 + 0x18)) $((0x$B - 0x81000000 + 4)))
	PMUKIT_KTEXT=$KT PMUKIT_KSAMPLES=$KS "$MK" vmlinux "$T_TMP/kv.data" >/dev/null 2>&1
	PMUKIT_KTEXT=ffffffff91000000 PMUKIT_KSAMPLES=$KS "$MK" vmlinux "$T_TMP/kvr.data" >/dev/null 2>&1
	ok "-k vmlinux: the kernel's symbols from it, source interleaved" \
		sh -c "$C kv -k vmlinux && grep -q 'Disassembly of vmlinux' '$T_TMP/pmukit.out'"
	ok "-k vmlinux, the kernel moved (KASLR): the file's addresses" $C kvr -k vmlinux
	ok "-k vmlinux -l kfunc_b" $C kv -k vmlinux -l kfunc_b
	ok "-k vmlinux --stdio2" $C2 kv -k vmlinux
	ok "-k vmlinux of a file without debug information: no source" \
		sh -c "strip -g -o '$T_TMP/vml_nodbg' '$T_TMP/vmlinux' && $C kv -k vml_nodbg"
	ok "-k vmlinux --ignore-vmlinux: as without it" sh -c "EMPTY_OK=1 $C kv -k vmlinux --ignore-vmlinux"
	ok "report and script -k vmlinux: its symbols and source lines, as perf's" sh -c '
		cd "$T_TMP" || exit 1
		for d in kv kvr; do
			perf report --stdio -i $d.data -k vmlinux --sort sym,srcline 2>/dev/null | grep -v "^# (Tip" > r.p
			"$PMUKIT" report --stdio -i $d.data -k vmlinux --sort sym,srcline 2>/dev/null | grep -v "^# (Tip" > r.k
			grep -q "kfunc_a" r.k && diff r.p r.k >&2 || exit 1
			perf script -F ip,sym,srcline,dso -i $d.data -k vmlinux > s.p 2>/dev/null
			"$PMUKIT" script -F ip,sym,srcline,dso -i $d.data -k vmlinux > s.k 2>/dev/null
			diff s.p s.k >&2 || exit 1
		done'
	ok "report -k and script -k of a missing file: perf's 'Invalid file' and statuses" sh -c '
		for c in report script; do
			perf $c -i "$T_TMP/kv.data" -k "$T_TMP/no-vmlinux" >/dev/null 2>"$T_TMP/i.p"; p=$?
			"$PMUKIT" $c -i "$T_TMP/kv.data" -k "$T_TMP/no-vmlinux" >/dev/null 2>"$T_TMP/i.k"; k=$?
			[ $p = $k ] && diff "$T_TMP/i.p" "$T_TMP/i.k" >&2 || { echo "$c: perf $p, pmukit $k" >&2; exit 1; }
		done'
else
	for t in 1 2 3 4 5 6 7 8; do ok "-k vmlinux # SKIP not x86_64, or no report_mkdata, or cannot link a kernel-model file" true; done
fi
# the vdso: perf disassembles its copy in the build-id cache (perf record puts it there)
printf '%s\n' '#include <stdio.h>' '#include <time.h>' \
	'int main(void) { struct timespec t; long s = 0; for (int i = 0; i < 3000000; i++) { clock_gettime(CLOCK_MONOTONIC, &t); s += t.tv_nsec; } printf("%ld\n", s); return 0; }' \
	> "$T_TMP/vd.c"
$CC -O2 -o "$T_TMP/vd" "$T_TMP/vd.c" && rec vd -e cpu-clock -c 100000 "$T_TMP/vd"
ok "the vdso's symbols (from the build-id cache)" $C vd -d '[vdso]'
ok "--stdio2, the vdso's symbols" $C2 vd -d '[vdso]'
# an indirect call through a table of function pointers (non-PIE: "call *ADDR(,%rax,8)"):
# perf names no data object there (its data segment is in no recorded map)
cat > "$T_TMP/ft.c" <<'EOF_FT'
#include <stdio.h>
#include <stdlib.h>
static unsigned long acc;
__attribute__((noinline)) static void f0(void) { for (int i = 0; i < 100; i++) acc += i * 3; }
__attribute__((noinline)) static void f1(void) { for (int i = 0; i < 100; i++) acc ^= acc >> 3 | i; }
__attribute__((noinline)) static void f2(void) { for (int i = 0; i < 100; i++) acc = acc * 7 + i; }
void (*tbl[3])(void) = { f0, f1, f2 };
__attribute__((noinline)) void dispatch(long n) { for (long i = 0; i < n; i++) tbl[i % 3](); }
int main(int argc, char **argv) { dispatch(argc > 1 ? atol(argv[1]) : 3000000); printf("%lu\n", acc); return 0; }
EOF_FT
if $CC -O2 -g -no-pie -fno-pie -Wl,--build-id=0x5eed0206 -o "$T_TMP/ft" "$T_TMP/ft.c" 2>/dev/null &&
	rec ft -e cpu-clock -c 100000 "$T_TMP/ft"; then
	ok "--stdio2: calls through a table of function pointers" $C2 ft -d ft
else
	ok "--stdio2 calls through a table # SKIP cannot build or record a non-PIE program" true
fi
# --tui with stdout not a terminal: perf prints --stdio's text (or --stdio2's)
ok "--tui, stdout a file: --stdio's text, as perf" $C g --tui -s "$HOT"
ok "--tui --stdio2, stdout a file" $C2 g --tui -s "$HOT"
# -v: the samples per address after each header, DSO ties by long names
ok "-v: samples per address, ties between DSOs by their long names" $C two -v
ok "-vv on a recorded group" $C grp -vv -d rm_g
ok "--stdio2 -v" $C2 g -v
# --prefix/--prefix-strip (objdump's): the source read from the relocated path, one line
# longer so that a command reading the recorded path would show other lines
mkdir -p "$T_TMP/pfx"
{ echo '/* moved */'; cat "$SRC_C"; } > "$T_TMP/pfx/report_many.c"
ok "--prefix DIR --prefix-strip 99: the source from DIR" $C g --prefix "$T_TMP/pfx" --prefix-strip 99 -s "$HOT"
ok "--stdio2 --prefix DIR/ --prefix-strip=99 -l" $C2 g --prefix="$T_TMP/pfx/" --prefix-strip=99 -l -s "$HOT"
ok "--prefix without the source there: no source lines" $C g --prefix /nonexistent -s "$HOT"
ok "--prefix-strip without --prefix: perf's status" sh -c "EMPTY_OK=1 $C g --prefix-strip 1 -s '$HOT'"
rec cpu -e cpu-clock -c 100000 --sample-cpu "$T_TMP/rm_g" -t 2 1000
# (a busy machine may have run the program on one CPU only: both may print nothing)
ok "-C 1: only that CPU's samples" sh -c "EMPTY_OK=1 $C cpu -C 1 -d rm_g"
ok "--stdio2 -C 0" sh -c "EMPTY_OK=1 $C2 cpu -C 0 -d rm_g"
ok "-C without PERF_SAMPLE_CPU: perf's exit status" sh -c "EMPTY_OK=1 $C g -C 0"
ok "-k with a missing file: perf's 'Invalid file', exit status" sh -c "EMPTY_OK=1 $C g -k '$T_TMP/no-vmlinux' leaf_13"
ok "-q -f -P --ignore-vmlinux -m --demangle-kernel --stdio-color never --objdump --itrace" \
	$C g -q -f -P --ignore-vmlinux -m --demangle-kernel --stdio-color never --objdump objdump --itrace=i100us -s "$HOT"
# --json (not in perf): the instructions and counts of --stdio, the inline chains
cat > "$T_TMP/json_check.py" <<'EOF_PY'
import json, re, sys
stdio, js = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines()
heads = re.findall(r'for (.*) \((\d+) samples', stdio)
addrs = re.findall(r'^ +[0-9.]+(?: +[0-9.]+)* :\s+([0-9a-f]+):', stdio, re.M)
assert len(js) == len(heads) > 0, (len(js), len(heads))
got, chains = [], 0
for line, (ev, n) in zip(js, heads):
    o = json.loads(line)
    assert o['samples'][0] == int(n), (o['symbol'], o['samples'], n)
    assert sum(i['samples'][0] for i in o['instructions']) == int(n), o['symbol']
    assert sum(i['period'][0] for i in o['instructions']) == o['period'][0], o['symbol']
    got += [i['addr'][2:] for i in o['instructions']]
    chains += sum(len(i['inline']) > 1 for i in o['instructions'])
assert got == addrs, 'instruction addresses differ from --stdio'
assert chains > 0 or 'noinline' in sys.argv[3:], 'no inline chain'
EOF_PY
"$PMUKIT" annotate --stdio -i "$T_TMP/g.data" -d rm_g > "$T_TMP/j.stdio" 2>/dev/null
"$PMUKIT" annotate --json -i "$T_TMP/g.data" -d rm_g > "$T_TMP/j.json" 2>/dev/null
ok "--json: the instructions, samples and periods of --stdio, inline chains" \
	python3 "$T_TMP/json_check.py" "$T_TMP/j.stdio" "$T_TMP/j.json"
"$PMUKIT" annotate --stdio -i "$T_TMP/two.data" --group -d rm_g > "$T_TMP/j2.stdio" 2>/dev/null
"$PMUKIT" annotate --json -i "$T_TMP/two.data" --group -d rm_g > "$T_TMP/j2.json" 2>/dev/null
ok "--json --group: a value per event" sh -c "python3 '$T_TMP/json_check.py' '$T_TMP/j2.stdio' '$T_TMP/j2.json' &&
	head -1 '$T_TMP/j2.json' | grep -q '\"events\":\[\"cpu-clock\",\"task-clock\"\]'"
fails "two symbols: perf's usage error" "$PMUKIT" annotate -i "$T_TMP/g.data" leaf_13 leaf_14
"$PMUKIT" annotate --help > "$T_TMP/help" 2>&1
ok "--help lists the options" sh -c "grep -q -- '--percent-type' '$T_TMP/help' && grep -q -- '--disassembler-style' '$T_TMP/help' && grep -q -- '--print-line' '$T_TMP/help'"
