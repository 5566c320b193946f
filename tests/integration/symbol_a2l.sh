#!/bin/sh
# symbol_a2l.sh — the symbolizer (pmukit/symbol.h, through tests/fixtures/symbol/symq.c)
# against binutils, which perf 6.1 runs for source lines: addr2line -a -f -i -C's
# answer (function, file:line, every inline frame) at every byte of the fixture
# programs' code (C at -O2 -g with inlines, PIE and not, C++, a shared library)
# and at thousands of addresses of the system's libc, ld.so and libstdc++; nm's
# symbols; debug files found by build-id and by .gnu_debuglink, --symfs;
# MiniDebugInfo; a build-id that does not match; two threads on one DSO.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
. "$SRC/tests/fixtures/symbol/helpers.sh"
echo "1..18"
B=$T_TMP/b
export HOME=$T_TMP/home
mkdir -p "$HOME"

if ! command -v addr2line >/dev/null || ! command -v cc >/dev/null || ! [ -x "$SYMQ" ]; then
	for i in $(seq 18); do skip "symbolizer vs binutils" "needs cc, binutils and $SYMQ"; done
	exit 0
fi
sym_build "$B" || { echo "Bail out! fixtures do not build"; exit 1; }

for p in inl inl_nopie cxx libsymfix.so; do
	sweep "$B/$p" 1 512 > "$B/$p.addrs"
	ok "addr2line -f -i at every code byte of $p ($(wc -l < "$B/$p.addrs") addresses)" a2l_cmp "$B/$p" "$B/$p.addrs"
done

for L in /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 \
	 /usr/lib/x86_64-linux-gnu/libstdc++.so.6; do
	n=$(basename "$L")
	if [ -f "$L" ]; then
		sweep "$L" 67 4096 > "$B/$n.addrs"
		ok "addr2line -f -i on $n ($(wc -l < "$B/$n.addrs") addresses)" a2l_cmp "$L" "$B/$n.addrs"
	else
		skip "addr2line -f -i on $n" "no $L"
	fi
done

# the symbol tables (readelf -s / nm): every defined function found at its address, by its name or an alias
ok "readelf -s/nm: every function of inl, inl_nopie, cxx, libsymfix.so by its address" sh -c "
	. '$SRC/tests/fixtures/symbol/helpers.sh'
	for p in inl inl_nopie cxx libsymfix.so; do nm_cmp '$B/'\$p || exit 1; done"

# symbols kept as perf keeps them: aliases at one address resolved to the global one
# perf's choose_best_symbol: both global, same size and underscores: the longer name
ok "aliases at one address: weak_entry_impl over strong_entry (the longer name)" sh -c "
	\"$SYMQ\" syms '$B/inl' > '$B/inl.syms' &&
	a=\$(nm '$B/inl' | awk '\$3 == \"strong_entry\" { print \$1 }') &&
	[ -n \"\$a\" ] && \"$SYMQ\" sym '$B/inl' \$a | grep -q ' weak_entry_impl\$'"

# a stripped binary and its debug file: by build-id under the debug directory, by .gnu_debuglink
mkdir -p "$B/dbg" "$B/link/.debug"
bid=$(readelf -n "$B/inl" | awk '/Build ID/ { print $3 }')
objcopy --only-keep-debug "$B/inl" "$B/inl.debug"
mkdir -p "$B/dbg/.build-id/$(echo "$bid" | cut -c1-2)"
cp "$B/inl.debug" "$B/dbg/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
strip -o "$B/inl_stripped" "$B/inl"
"$SYMQ" syms "$B/inl" > "$B/syms.full"
ok "stripped binary, debug file by build-id: the unstripped symbols, addr2line's lines" sh -c "
	\"$SYMQ\" --debug-dir '$B/dbg' syms '$B/inl_stripped' > '$B/syms.bid' && diff '$B/syms.full' '$B/syms.bid' >&2 &&
	\"$SYMQ\" syms '$B/inl_stripped' > '$B/syms.nodbg' && ! diff -q '$B/syms.full' '$B/syms.nodbg' >/dev/null &&
	\"$SYMQ\" --debug-dir '$B/dbg' --params --full a2l '$B/inl_stripped' \$(head -300 '$B/inl.addrs') > '$B/a2l.bid' &&
	head -300 '$B/inl.addrs' | addr2line -a -f -i -C -e '$B/inl' | sed 's/ (discriminator [0-9]*)//' | diff - '$B/a2l.bid' >&2"
cp "$B/inl.debug" "$B/link/.debug/inl.dbg"
objcopy --strip-debug --strip-unneeded --add-gnu-debuglink="$B/link/.debug/inl.dbg" "$B/inl" "$B/link/inl"
ok "stripped binary, debug file by .gnu_debuglink in .debug/" sh -c "
	\"$SYMQ\" syms '$B/link/inl' > '$B/syms.link' && diff '$B/syms.full' '$B/syms.link' >&2"

# --symfs: the tree under DIR stands for /
mkdir -p "$B/symfs$B"
cp "$B/inl" "$B/symfs$B/inl_elsewhere"
ok "--symfs DIR: the file is looked up under DIR" sh -c "
	\"$SYMQ\" --symfs '$B/symfs' syms '$B/inl_elsewhere' > '$B/syms.symfs' && diff '$B/syms.full' '$B/syms.symfs' >&2"

# a recorded build-id that is not the file's: no symbols (perf's rule)
ok "build-id mismatch: no symbols" sh -c "
	printf 'B 0123456789abcdef0123456789abcdef01234567 %s\nM 1 1000 2000 1000 5 2 %s\nS 1 1234\n' '$B/inl' '$B/inl' |
		\"$SYMQ\" resolve | grep -q '^1234 \[unknown\] ($B/inl)\$' &&
	printf 'B %s %s\nM 1 1000 2000 1000 5 2 %s\nS 1 1234\n' '$bid' '$B/inl' '$B/inl' | \"$SYMQ\" resolve | grep -vq unknown"

# MiniDebugInfo, made as Fedora makes it: the local functions' symbols, xz'd, in .gnu_debugdata
mini() {
	nm -D "$B/inl" --format=posix --defined-only | awk '{ print $1 }' | sort > "$B/dynsyms"
	nm "$B/inl" --format=posix --defined-only | awk '$2 == "T" || $2 == "t" { print $1 }' | sort > "$B/funcsyms"
	comm -13 "$B/dynsyms" "$B/funcsyms" > "$B/keep"
	objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols="$B/keep" "$B/inl.debug" "$B/mini"
	xz -f "$B/mini"
	strip --strip-all -R .comment -o "$B/inl_mini" "$B/inl"
	objcopy --add-section .gnu_debugdata="$B/mini.xz" "$B/inl_mini"
}
if command -v xz >/dev/null && mini 2>"$T_TMP/minierr"; then
	ok "MiniDebugInfo: its .symtab's functions (inner_loop, middle, step)" sh -c "
		\"$SYMQ\" syms '$B/inl_mini' > '$B/syms.mini' &&
		for f in inner_loop middle step table_a helper_sum; do grep -q \" \$f\" '$B/syms.mini' || exit 1; done &&
		grep ' inner_loop' '$B/syms.mini' | awk '{ print \$1, \$2 }' > '$B/m1' &&
		grep ' inner_loop' '$B/syms.full' | awk '{ print \$1, \$2 }' | diff - '$B/m1'"
	ok "MiniDebugInfo off (perf 6.1): .dynsym only" sh -c "
		\"$SYMQ\" --no-minidebuginfo syms '$B/inl_mini' > '$B/syms.nomini' && ! grep -q ' inner_loop' '$B/syms.nomini'"
else
	skip "MiniDebugInfo" "xz/objcopy could not make one"
	skip "MiniDebugInfo off" "xz/objcopy could not make one"
fi

ok "two threads on one DSO: every symbol found and symbolized" sh -c "
	\"$SYMQ\" threads '$B/cxx' 2 | awk '{ exit !(\$2 == \$4 && \$2 > 0) }'"
# debuginfod (only when asked for): a local stand-in server, then one that never answers
if command -v python3 >/dev/null && [ -e /usr/lib/x86_64-linux-gnu/libdebuginfod.so.1 -o -e /usr/lib64/libdebuginfod.so.1 -o -e /usr/lib/libdebuginfod.so.1 ]; then
	mkdir -p "$B/di/buildid/$bid"
	cp "$B/inl.debug" "$B/di/buildid/$bid/debuginfo"
	python3 "$FIX/httpd.py" "$B/di" "$B/port" & srv=$!
	python3 "$FIX/httpd.py" "$B/di" "$B/port2" --hang & hang=$!
	i=0; while { [ ! -s "$B/port" ] || [ ! -s "$B/port2" ]; } && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	ok "debuginfod: the debug file fetched by build-id (progress lines); nothing without --debuginfod" sh -c "
		DEBUGINFOD_URLS=http://127.0.0.1:\$(cat '$B/port') DEBUGINFOD_CACHE_PATH='$B/dc1' \
			\"$SYMQ\" --debuginfod 20 syms '$B/inl_stripped' > '$B/syms.di' 2> '$B/di.err' &&
		diff '$B/syms.full' '$B/syms.di' >&2 && grep -q '^symq: debuginfod: $bid debuginfo: asking' '$B/di.err' &&
		DEBUGINFOD_URLS=http://127.0.0.1:\$(cat '$B/port') DEBUGINFOD_CACHE_PATH='$B/dc1b' \
			\"$SYMQ\" syms '$B/inl_stripped' 2> '$B/di2.err' | diff -q '$B/syms.full' - >/dev/null; [ \$? = 1 ] && [ ! -s '$B/di2.err' ]"
	ok "debuginfod: a server that never answers is given up after the timeout, with progress" sh -c "
		s=\$(date +%s)
		DEBUGINFOD_URLS=http://127.0.0.1:\$(cat '$B/port2') DEBUGINFOD_CACHE_PATH='$B/dc2' \
			\"$SYMQ\" --debuginfod 2 syms '$B/inl_stripped' > /dev/null 2> '$B/hang.err'
		e=\$(date +%s)
		[ \$((e - s)) -lt 15 ] && grep -q 'gave up after' '$B/hang.err' && [ \$(grep -c ' s\$' '$B/hang.err') -ge 2 ]"
	kill $srv $hang 2>/dev/null
	wait $srv $hang 2>/dev/null
else
	skip "debuginfod: the debug file fetched by build-id" "no python3 or libdebuginfod"
	skip "debuginfod: a server that never answers" "no python3 or libdebuginfod"
fi
exit $((T_FAIL > 0))
