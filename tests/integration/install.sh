#!/bin/sh
# install.sh — `make install DESTDIR=... PREFIX=/usr` on the built tree: the files a
# package holds, examples/*.c built against the staged tree with nothing but
# `pkg-config --cflags --libs pmukit` (shared, then --static) and run, and
# `make uninstall` leaving no file behind. Reuses the build (compiles nothing).
. "$(dirname "$0")/lib/tap.sh"
B="${PMUKIT_BUILD:-build}"
case $B in /*) ;; *) B="$(pwd)/$B";; esac
SRC=$(cd "$SRC" && pwd)
O=${B#"$SRC"/}		# the build directory as the Makefile names it
ROOT="$T_TMP/root"
LIB="$ROOT/usr/lib"
echo "1..11"

# An ASan build (make check SANITIZE=1): the same make variables; programs linked with
# its library are built with the sanitizers too, and a static link is not possible.
SAN= MAKESAN=
if nm -D --undefined-only "$B/libpmukit.so" | grep -q __asan_; then
	SAN="-fsanitize=address,undefined" MAKESAN="SANITIZE=1"
fi
run_make() {	# run_make TARGET... — as a packager would, not as part of make check's make
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$SRC" --no-print-directory O="$O" \
		$MAKESAN DESTDIR="$ROOT" PREFIX=/usr "$@" > "$T_TMP/make.out" 2>&1 ||
		{ cat "$T_TMP/make.out" >&2; return 1; }
}
# pkg-config finds pmukit.pc in the staged tree and puts the stage before its paths
export PKG_CONFIG_PATH="$LIB/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$ROOT"
CFLAGS_X="-std=c11 -Wall -Wextra -Werror $SAN"

ok "make install DESTDIR=\$tmp PREFIX=/usr" run_make install
ok "install compiled and linked nothing (the tree was built)" sh -c "
	! grep -E '^  (CC|LD|AR|EVENTC)' '$T_TMP/make.out' >&2"

# What a package holds: the CLI, both libraries, the links, every public header, pmukit.pc.
(cd "$SRC/include/pmukit" && ls) | sed 's|^|usr/include/pmukit/|' > "$T_TMP/want"
cat >> "$T_TMP/want" <<EOF
usr/bin/pmukit
usr/bin/pmukit-serve
usr/lib/libpmukit.a
usr/lib/libpmukit.so
usr/lib/libpmukit.so.0
usr/lib/libpmukit.so.0.1.0
usr/lib/pkgconfig/pmukit.pc
EOF
ok "the installed files" sh -c "
	(cd '$ROOT' && find . ! -type d | sed 's|^\./||') | LC_ALL=C sort > '$T_TMP/have' &&
	LC_ALL=C sort '$T_TMP/want' | diff - '$T_TMP/have' >&2 &&
	[ \"\$(readlink '$LIB/libpmukit.so')\" = libpmukit.so.0 ] &&
	[ \"\$(readlink '$LIB/libpmukit.so.0')\" = libpmukit.so.0.1.0 ]"
ok "pmukit.pc: version and prefix" sh -c "
	[ \"\$(pkg-config --modversion pmukit)\" = 0.1.0 ] &&
	grep -qx 'prefix=/usr' '$LIB/pkgconfig/pmukit.pc' &&
	pkg-config --cflags pmukit | grep -q -- '-I$ROOT/usr/include' &&
	pkg-config --libs pmukit | grep -q -- '-L$LIB -lpmukit'"
ok "the installed CLI runs" "$ROOT/usr/bin/pmukit" --help

# examples/*.c, copied out of the tree: only the staged headers can be found.
mkdir -p "$T_TMP/ex"
cp "$SRC"/examples/*.c "$T_TMP/ex/"
build_examples() {	# build_examples SUFFIX [--static and link flags]
	sfx=$1; shift
	for c in "$T_TMP"/ex/*.c; do
		# shellcheck disable=SC2046
		gcc $CFLAGS_X "$@" -o "${c%.c}$sfx" "$c" $(pkg-config $PCSTATIC --cflags --libs pmukit) ||
			return 1
	done
}
PCSTATIC=
ok "examples/*.c built with pkg-config --cflags --libs pmukit" build_examples .dyn
ok "examples/region runs with the staged libpmukit.so.0" sh -c "
	LD_LIBRARY_PATH='$LIB' ldd '$T_TMP/ex/region.dyn' | grep -q 'libpmukit.so.0 => $LIB/libpmukit.so.0' &&
	LD_LIBRARY_PATH='$LIB' '$T_TMP/ex/region.dyn' > '$T_TMP/region.out' &&
	grep -q 'whole run' '$T_TMP/region.out'"

if [ -n "$SAN" ]; then
	for n in 1 2; do T_N=$((T_N + 1)); echo "ok $T_N # SKIP a static link of an ASan build"; done
else
	PCSTATIC=--static
	ok "examples/*.c built -static with pkg-config --static" build_examples .static -static
	ok "examples/region static: no dynamic section, runs" sh -c "
		readelf -d '$T_TMP/ex/region.static' | grep -q 'no dynamic section' &&
		'$T_TMP/ex/region.static' > '$T_TMP/region.out' && grep -q 'whole run' '$T_TMP/region.out'"
fi

ok "make uninstall" run_make uninstall
ok "uninstall leaves no file, link or include/pmukit behind" sh -c "
	[ -z \"\$(find '$ROOT' ! -type d)\" ] && [ ! -e '$ROOT/usr/include/pmukit' ] ||
	{ find '$ROOT' >&2; false; }"
[ $T_FAIL -eq 0 ]
