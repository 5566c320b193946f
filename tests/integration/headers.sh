#!/bin/sh
# headers.sh — the public headers as a user compiles them: each include/pmukit/*.h
# alone (the only #include of a unit) under -std=c11 -Wall -Wextra -Wpedantic
# -Werror, and as C++ (g++, when installed) with every function it declares
# referenced, which must stay unmangled (the extern "C" guards); pmukit.h
# includes every other header; no header names a type of a library pmukit uses
# (json-c, libdw/libelf, protobuf-c, libtraceevent).
. "$(dirname "$0")/lib/tap.sh"
INC="$SRC/include"
set -- "$INC"/pmukit/*.h
echo "1..$(($# * 2 + 2))"
CXX_OK=
command -v g++ > /dev/null && CXX_OK=1

# c_alone H — H compiles on its own as C11; its functions' names go to $T_TMP/H.fns
c_alone() {
	h=$1
	# (and a declaration: -Wpedantic refuses an empty unit, as api.h alone would be)
	printf '#include <pmukit/%s>\ntypedef int unit_not_empty;\n' "$h" > "$T_TMP/$h.c"
	gcc -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror -I"$INC" \
		-fsyntax-only -aux-info "$T_TMP/$h.aux" "$T_TMP/$h.c" || return 1
	grep -E "^/\\* [^ ]*include/pmukit/$h:[0-9]+:NC \\*/ extern " "$T_TMP/$h.aux" |
		sed -E 's/^.*\*\/ extern [^(]*[ *]([A-Za-z_0-9]+) \(.*/\1/' | sort -u > "$T_TMP/$h.fns"
}

# cxx_alone H — H compiles on its own as C++ and the functions it declares have C linkage:
# a unit taking the address of each leaves only unmangled undefined symbols.
cxx_alone() {
	h=$1
	{
		printf '#include <pmukit/%s>\n' "$h"
		echo 'extern void (*pk_fns[])();'
		echo 'void (*pk_fns[])() = {'
		sed 's/.*/	reinterpret_cast<void (*)()>(\&&),/' "$T_TMP/$h.fns"
		echo '	nullptr,'
		echo '};'
	} > "$T_TMP/$h.cc"
	g++ -std=c++11 -Wall -Wextra -Werror -I"$INC" -c -o "$T_TMP/$h.o" "$T_TMP/$h.cc" || return 1
	nm -u "$T_TMP/$h.o" | awk '{ print $2 }' | sort -u > "$T_TMP/$h.undef"
	if grep '^_Z' "$T_TMP/$h.undef" >&2; then
		echo "C++ linkage: no extern \"C\" around these declarations of $h" >&2
		return 1
	fi
	# every declared function is referenced, under its C name
	comm -23 "$T_TMP/$h.fns" "$T_TMP/$h.undef" > "$T_TMP/$h.miss"
	[ ! -s "$T_TMP/$h.miss" ] || { cat "$T_TMP/$h.miss" >&2; return 1; }
}

for f in "$@"; do
	h=${f##*/}
	ok "pmukit/$h alone, C11" c_alone "$h"
	if [ -z "$CXX_OK" ]; then
		T_N=$((T_N + 1)); echo "ok $T_N # SKIP pmukit/$h as C++: no g++"
	else
		ok "pmukit/$h alone, C++, extern \"C\"" cxx_alone "$h"
	fi
done

every_header() {
	(cd "$INC/pmukit" && ls ./*.h) | sed 's|^\./||' | grep -vx pmukit.h | sort > "$T_TMP/all"
	sed -n 's|^#include <pmukit/\(.*\)>$|\1|p' "$INC/pmukit/pmukit.h" | sort > "$T_TMP/umbrella"
	diff "$T_TMP/all" "$T_TMP/umbrella" >&2
}
ok "pmukit.h includes every public header" every_header
ok "no public header exposes a dependency's types" sh -c "
	! grep -nE '#include <(json-c|elfutils|traceevent|protobuf-c)/|#include <(g?elf|libelf|zstd|zlib|lzma)\\.h>|struct (json_object|json_tokener|tep_[a-z_]+)|(Dwarf|Dwfl|Elf|GElf)[A-Za-z_0-9]* *\\*|ProtobufC' \\
		'$INC'/pmukit/*.h >&2"
[ $T_FAIL -eq 0 ]
