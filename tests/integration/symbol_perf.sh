#!/bin/sh
# symbol_perf.sh — the symbolizer end to end against perf 6.1: recordings of the
# fixture programs (perf record -e cpu-clock -c 10000) where every sample's ip,
# mapped through the recording's own MMAP/MMAP2 records and build-ids
# (tests/fixtures/symbol/symq.c), must give what `perf script -F
# ip,sym,symoff,dso,srcline` prints: symbol+offset, DSO, srcline, user and
# kernel (kallsyms) samples alike. PIE, non-PIE, C++, a shared library, a
# stripped binary with its debug file under --symfs, a binary rebuilt since the
# recording (build-id mismatch: perf shows no symbols), JIT code named in
# /tmp/perf-PID.map, MiniDebugInfo as perf 6.1 reads it, Rust when rustc is here.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
. "$SRC/tests/fixtures/symbol/helpers.sh"
echo "1..10"
B=$T_TMP/b
REAL_HOME=$HOME
export HOME=$T_TMP/home	# perf's build-id cache (~/.debug) is the test's own, empty
mkdir -p "$HOME"

why=
command -v perf >/dev/null || why="no perf"
[ -x "$SYMQ" ] || why="no $SYMQ"
[ -z "$why" ] && ! perf record -q -N -e cpu-clock -c 10000 -o "$T_TMP/probe.data" true >/dev/null 2>&1 && why="perf record cannot sample here"
if [ -n "$why" ]; then
	for i in $(seq 10); do skip "symbolizer vs perf script" "$why"; done
	exit 0
fi
sym_build "$B" || { echo "Bail out! fixtures do not build"; exit 1; }

ok "PIE at -O2 -g (inlines): sym+off, dso, srcline of every sample as perf script" sh -c "
	. '$SRC/tests/fixtures/symbol/helpers.sh'; record '$B/inl.data' '$B/inl' 20 && perf_cmp '$B/inl.data'"
ok "kernel samples: kallsyms symbols (the running kernel's build-id) as perf" sh -c "
	grep -c 'kernel.kallsyms' '$B/inl.data.perf' | awk '{ exit !(\$1 > 0) }' &&
	grep -c 'kernel.kallsyms' '$B/inl.data.mine' | awk '{ exit !(\$1 > 0) }'"
ok "non-PIE (ET_EXEC)" sh -c "
	. '$SRC/tests/fixtures/symbol/helpers.sh'; record '$B/nopie.data' '$B/inl_nopie' 20 && perf_cmp '$B/nopie.data'"
ok "C++: demangled names as perf shows them" sh -c "
	. '$SRC/tests/fixtures/symbol/helpers.sh'; record '$B/cxx.data' '$B/cxx' 300 && perf_cmp '$B/cxx.data' &&
	grep -q 'geo::accumulate<long>' '$B/cxx.data.mine' && grep -q '(anonymous namespace)::hidden_work' '$B/cxx.data.mine'"
ok "shared library through the PLT" sh -c "
	. '$SRC/tests/fixtures/symbol/helpers.sh'; record '$B/sh.data' '$B/shmain' 20 && perf_cmp '$B/sh.data' &&
	grep -q 'lib_hot+0x' '$B/sh.data.mine'"

# a stripped binary recorded; its debug file by build-id under --symfs's /usr/lib/debug
strip -o "$B/inl_s" "$B/inl"
bid=$(readelf -n "$B/inl" | awk '/Build ID/ { print $3 }')
S=$T_TMP/symfs
mkdir -p "$S$B" "$S/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)"
objcopy --only-keep-debug "$B/inl" "$S/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
cp "$B/inl_s" "$S$B/inl_s"
ok "stripped binary, debug file by build-id under --symfs" sh -c "
	. '$SRC/tests/fixtures/symbol/helpers.sh'; record '$B/strip.data' '$B/inl_s' 20 &&
	perf_cmp '$B/strip.data' --symfs '$S' -- --symfs '$S' && grep -q 'inner_loop' '$B/strip.data.mine'"

# rebuilt after the recording: the recorded build-id is not the file's any more
cp "$B/inl" "$B/inl_v"
ok "binary rebuilt since the recording (build-id mismatch): no symbols, as perf" sh -c "
	. '$SRC/tests/fixtures/symbol/helpers.sh'; record '$B/mis.data' '$B/inl_v' 20 &&
	cc -O1 -o '$B/inl_v' '$FIX/inl.c' '$FIX/inl_helpers.c' && perf_cmp '$B/mis.data' &&
	grep -q '\[unknown\] ($B/inl_v)' '$B/mis.data.mine'"

# JIT: anonymous executable memory named in /tmp/perf-PID.map (with bad lines)
if [ "$(uname -m)" = x86_64 ] && cc -O2 -o "$B/jit" "$FIX/jit.c"; then
	ok "JIT code in /tmp/perf-PID.map" sh -c "
		. '$SRC/tests/fixtures/symbol/helpers.sh'; record '$B/jit.data' '$B/jit' 20 && perf_cmp '$B/jit.data' &&
		grep -q 'jit_loop_one+0x' '$B/jit.data.mine' && grep -q 'Lcom/example/Jit;->loop_two(J)J+0x' '$B/jit.data.mine'"
	for p in $(perf script -i "$B/jit.data" -F pid 2>/dev/null | sort -u); do rm -f "/tmp/perf-$p.map"; done
else
	skip "JIT code in /tmp/perf-PID.map" "the fixture's machine code is x86-64"
fi

# MiniDebugInfo: perf 6.1 does not read it (symq --no-minidebuginfo is its behaviour)
mkdir -p "$B/m"
if command -v xz >/dev/null &&
   nm "$B/inl" --format=posix --defined-only | awk '$2 == "T" || $2 == "t" { print $1 }' | sort > "$B/m/f" &&
   nm -D "$B/inl" --format=posix --defined-only | awk '{ print $1 }' | sort > "$B/m/d" &&
   comm -13 "$B/m/d" "$B/m/f" > "$B/m/keep" &&
   objcopy --only-keep-debug "$B/inl" "$B/m/dbg" &&
   objcopy -S --remove-section .comment --keep-symbols="$B/m/keep" "$B/m/dbg" "$B/m/mini" && xz -f "$B/m/mini" &&
   strip --strip-all -o "$B/inl_mini" "$B/inl" && objcopy --add-section .gnu_debugdata="$B/m/mini.xz" "$B/inl_mini"; then
	ok "MiniDebugInfo binary: perf 6.1's .dynsym-only answers with --no-minidebuginfo; ours name the functions" sh -c "
		. '$SRC/tests/fixtures/symbol/helpers.sh'; record '$B/mini.data' '$B/inl_mini' 20 &&
		perf_cmp '$B/mini.data' --no-minidebuginfo &&
		\"$SYMQ\" resolve < '$B/mini.data.in' | grep -q 'inner_loop.constprop.0+0x'"
else
	skip "MiniDebugInfo binary" "xz/objcopy could not make one"
fi

# Rust: libiberty's demangling of rustc's symbols, as perf's
if command -v rustc >/dev/null && HOME=$REAL_HOME rustc -C opt-level=2 -g -o "$B/rs" "$FIX/rs.rs" 2>"$T_TMP/rustc.err"; then
	ok "Rust: names as perf shows them" sh -c "
		. '$SRC/tests/fixtures/symbol/helpers.sh'; record '$B/rs.data' '$B/rs' 30 && perf_cmp '$B/rs.data' &&
		grep -q 'rs::spin+0x' '$B/rs.data.mine'"
else
	skip "Rust: names as perf shows them" "no rustc"
fi
exit $((T_FAIL > 0))
