#!/bin/sh
# library_exports.sh — libpmukit.so exports exactly the public API: the functions
# declared in include/pmukit/*.h (all marked PK_API), the same names as the
# version script lib/libpmukit.map, each at version PMUKIT_0.1; no internal
# helper, no unprefixed name, no test hook. Also the file and its links:
# libpmukit.so -> libpmukit.so.0 (the soname) -> libpmukit.so.0.1.0.
. "$(dirname "$0")/lib/tap.sh"
B="${PMUKIT_BUILD:-build}"
SO="$B/libpmukit.so"
echo "1..13"

ok "libpmukit.so -> libpmukit.so.0 -> libpmukit.so.0.1.0, a real file" sh -c "
	[ \"\$(readlink '$B/libpmukit.so')\" = libpmukit.so.0 ] &&
	[ \"\$(readlink '$B/libpmukit.so.0')\" = libpmukit.so.0.1.0 ] &&
	[ -f '$B/libpmukit.so.0.1.0' ] && [ ! -L '$B/libpmukit.so.0.1.0' ]"

ok "SONAME is libpmukit.so.0" sh -c "
	readelf -d '$SO' | grep -q 'Library soname: \[libpmukit.so.0\]'"

# The exported functions and objects (not the version node's own absolute symbol).
nm -D --defined-only "$SO" | awk '$2 != "A" { print $3 }' > "$T_TMP/exported.v"
sed 's/@.*//' "$T_TMP/exported.v" | LC_ALL=C sort -u > "$T_TMP/exported"

# Every function the public headers declare, from gcc's prototype listing (-aux-info)
# of a unit that includes each header (static inline functions are not exported).
for h in "$SRC"/include/pmukit/*.h; do echo "#include <pmukit/${h##*/}>"; done > "$T_TMP/all.c"
gcc -std=c11 -I"$SRC/include" -fsyntax-only -aux-info "$T_TMP/aux" "$T_TMP/all.c" 2> "$T_TMP/gcc.err"
grep -E '^/\* [^ ]*include/pmukit/[^:]+:[0-9]+:NC \*/ extern ' "$T_TMP/aux" |
	sed -E 's/^.*\*\/ extern [^(]*[ *]([A-Za-z_0-9]+) \(.*/\1/' | LC_ALL=C sort -u > "$T_TMP/declared"

# The declarations that carry PK_API (the name before the first parenthesis).
grep -h '^PK_API ' "$SRC"/include/pmukit/*.h |
	sed -E 's/^PK_API [^(]*[ *]([A-Za-z_0-9]+)\(.*/\1/' | LC_ALL=C sort -u > "$T_TMP/marked"

# The global names of the version script.
sed -n '/global:/,/local:/p' "$SRC/lib/libpmukit.map" | grep -E '^[[:space:]]+[A-Za-z_0-9]+;' |
	tr -d ' \t;' | LC_ALL=C sort -u > "$T_TMP/map"

same() {	# same A B — the two name lists are equal; the differences on stderr
	if LC_ALL=C comm -3 "$1" "$2" > "$T_TMP/diff" && [ ! -s "$T_TMP/diff" ]; then return 0; fi
	echo "only in ${1##*/} / only in ${2##*/}:" >&2
	sed 's/^/  /' "$T_TMP/diff" >&2
	return 1
}

ok "the public headers declare some hundreds of functions" sh -c "
	[ \$(wc -l < '$T_TMP/declared') -gt 300 ] || { cat '$T_TMP/gcc.err' >&2; false; }"
ok "exported = declared in include/pmukit/*.h" same "$T_TMP/exported" "$T_TMP/declared"
ok "every declaration is marked PK_API" same "$T_TMP/marked" "$T_TMP/declared"
ok "libpmukit.map lists exactly the declared functions" same "$T_TMP/map" "$T_TMP/declared"
ok "every exported symbol is at version PMUKIT_0.1" sh -c "
	! grep -v '@@PMUKIT_0.1\$' '$T_TMP/exported.v' >&2"
ok "no unprefixed symbol is exported" sh -c "! grep -v '^pk_' '$T_TMP/exported' >&2"
ok "no test hook is exported" sh -c "! grep -E '(^|_)test(_|\$)' '$T_TMP/exported' >&2"

# The check means something: the tests' archive defines internal helpers and test hooks the
# shared library keeps to itself.
ok "libpmukit-int.a has internal symbols that libpmukit.so does not export" sh -c "
	nm --defined-only '$B/libpmukit-int.a' 2>/dev/null | awk '\$2 == \"T\" { print \$3 }' > '$T_TMP/archive' &&
	grep -qx selfmon__test_inject '$T_TMP/archive' && grep -qx spec_parse '$T_TMP/archive' &&
	! grep -qx selfmon__test_inject '$T_TMP/exported' && ! grep -qx spec_parse '$T_TMP/exported'"

# The installed archive defines the public API only: its global symbols are the exported ones.
nm -g --defined-only "$B/libpmukit.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u > "$T_TMP/static"
ok "libpmukit.a's global symbols = libpmukit.so's exports" same "$T_TMP/static" "$T_TMP/exported"

# A program with its own maps__find, spec_parse and pprof writer names (internal names of the
# library) that uses the library functions of the same objects links statically with
# libpmukit.a; with the internal archive the same link fails (so the test means something).
cat > "$T_TMP/own.c" <<'EOF_C'
#include <stdio.h>
#include <pmukit/export.h>
#include <pmukit/session.h>
#include <pmukit/spec.h>
int maps__find(int x) { return x + 1; }
int perftools__profiles__profile__pack(int x) { return x * 2; }
int spec_parse(void) { return 7; }
int main(void)
{
	/* the library objects that define the same names internally */
	uint64_t (*map_ip)(const struct pk_map *, uint64_t) = pk_map__map_ip;
	int (*pprof)() = (int (*)())pk_export__write;
	printf("%d %d %d %d %d\n", maps__find(1), perftools__profiles__profile__pack(2), spec_parse(),
	       map_ip != NULL && pprof != NULL, pk_spec__needs_context("cpu-clock", PK_SPEC_STAT));
	return 0;
}
EOF_C
LIBS="-ljson-c -lopcodes -lbfd -lsframe -ldw -lelf -lprotobuf-c -liberty -lz -llzma -lbz2 -lzstd -lpthread -lm"
# a sanitized build's archive (make check SANITIZE=1|thread) needs its runtime at link time
if nm "$B/libpmukit.a" 2>/dev/null | grep -q ' U __asan_'; then
	LIBS="-fsanitize=address,undefined $LIBS"
elif nm "$B/libpmukit.a" 2>/dev/null | grep -q ' U __tsan_'; then
	LIBS="-fsanitize=thread $LIBS"
fi
ok "a program defining maps__find, spec_parse and a pprof writer name links with libpmukit.a" sh -c "
	cc -std=gnu11 -I'$SRC/include' -o '$T_TMP/own' '$T_TMP/own.c' '$B/libpmukit.a' $LIBS &&
	[ \"\$('$T_TMP/own')\" = '2 4 7 1 0' ]"
ok "... where the internal archive's symbols collide with the program's" sh -c "
	cc -std=gnu11 -I'$SRC/include' -o '$T_TMP/own2' '$T_TMP/own.c' '$B/libpmukit-int.a' $LIBS -ltraceevent 2>&1 |
		grep -q 'multiple definition of .maps__find'"
[ $T_FAIL -eq 0 ]
