#!/bin/sh
# script_kernel_init.sh — kernel init text in system-wide call graphs (TAP): perf 6.1
# records `-a -g` here; the idle tasks' (swapper's) chains go through init text past
# _etext (start_kernel, x86_64_start_kernel, __pfx_clear_bss) that the recorded kernel
# map ([_text, _etext)) does not cover. perf resolves them because it ends the kernel
# map at its last kallsyms symbol once loaded (map__fixup_end); pmukit script must print
# the same frames as perf script.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
command -v perf >/dev/null 2>&1 || { echo "1..0 # SKIP perf is not installed"; exit 0; }
grep -q ' start_kernel$' /proc/kallsyms 2>/dev/null ||
	{ echo "1..0 # SKIP no start_kernel in /proc/kallsyms (not root?)"; exit 0; }
# idle samples need an idle CPU: a few tries, a little longer each time
for s in 1 2 4; do
	perf record -q -a -g -e cpu-clock -F 2000 -o "$T_TMP/a.data" -- sleep $s >/dev/null 2>&1 ||
		{ echo "1..0 # SKIP perf record -a failed"; exit 0; }
	perf script -i "$T_TMP/a.data" 2>/dev/null >"$T_TMP/perf.txt"
	grep -q 'start_kernel+' "$T_TMP/perf.txt" && break
done
grep -q 'start_kernel+' "$T_TMP/perf.txt" ||
	{ echo "1..0 # SKIP no idle sample through start_kernel (the CPUs stayed busy)"; exit 0; }
echo "1..3"
"$PMUKIT" script -i "$T_TMP/a.data" >"$T_TMP/pk.txt" 2>"$T_TMP/pk.err"
# the samples of the idle tasks (pid 0), as each prints them
idle() { awk '/^[^ \t]/ { keep = ($1 == "swapper") } keep' "$1"; }
idle "$T_TMP/perf.txt" >"$T_TMP/perf.idle"
idle "$T_TMP/pk.txt" >"$T_TMP/pk.idle"
ok "perf script shows init-text frames above _etext" grep -q 'x86_64_start_kernel+\|start_kernel+' "$T_TMP/perf.idle"
same_idle() {
	diff "$T_TMP/perf.idle" "$T_TMP/pk.idle" | head -12 >&2
	cmp -s "$T_TMP/perf.idle" "$T_TMP/pk.idle"
}
ok "pmukit script prints the idle tasks' chains as perf script (start_kernel resolved)" same_idle
same_all() {
	diff "$T_TMP/perf.txt" "$T_TMP/pk.txt" | head -12 >&2
	cmp -s "$T_TMP/perf.txt" "$T_TMP/pk.txt"
}
ok "... and the whole -a -g output as perf script" same_all
[ "$T_FAIL" = 0 ]
