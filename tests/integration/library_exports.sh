#!/bin/sh
# library_exports.sh — libpmukit.so exports exactly the public API: the functions
# declared in include/pmukit/*.h (all marked PK_API), the same names as the
# version script lib/libpmukit.map, each at version PMUKIT_0.1; no internal
# helper, no unprefixed name, no test hook. Also the file and its links:
# libpmukit.so -> libpmukit.so.0 (the soname) -> libpmukit.so.0.1.0.
. "$(dirname "$0")/lib/tap.sh"
B="${PMUKIT_BUILD:-build}"
SO="$B/libpmukit.so"
echo "1..10"

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

# The check means something: the archive defines internal helpers and test hooks the
# shared library keeps to itself.
ok "libpmukit.a has internal symbols that libpmukit.so does not export" sh -c "
	nm --defined-only '$B/libpmukit.a' 2>/dev/null | awk '\$2 == \"T\" { print \$3 }' > '$T_TMP/archive' &&
	grep -qx selfmon__test_inject '$T_TMP/archive' && grep -qx spec_parse '$T_TMP/archive' &&
	! grep -qx selfmon__test_inject '$T_TMP/exported' && ! grep -qx spec_parse '$T_TMP/exported'"
[ $T_FAIL -eq 0 ]
