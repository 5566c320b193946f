#!/bin/sh
# make_options.sh — the Makefile's switches, on single objects compiled into scratch
# build directories: short "  CC" lines by default, the full command with V=1,
# -Werror unless WERROR=0, -fvisibility=hidden on library objects only.
. "$(dirname "$0")/lib/tap.sh"
SRC=$(cd "$SRC" && pwd)
echo "1..5"

mk() {	# mk DIR SOURCE [VAR=...] — SOURCE's object into $T_TMP/DIR; make's output in $T_TMP/DIR.out
	dir=$1 src=$2; shift 2
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$SRC" --no-print-directory \
		O="$T_TMP/$dir" "$T_TMP/$dir/obj/${src%.c}.o" "$@" > "$T_TMP/$dir.out" 2>&1 ||
		{ cat "$T_TMP/$dir.out" >&2; return 1; }
}
has() {	# has DIR TEXT — make's output for DIR has a line with TEXT
	grep -qF -- "$2" "$T_TMP/$1.out" || { echo "no '$2' in:" >&2; cat "$T_TMP/$1.out" >&2; return 1; }
}
lacks() {	# lacks DIR TEXT
	! grep -F -- "$2" "$T_TMP/$1.out" >&2
}

quiet() {
	mk quiet lib/util/buf.c && has quiet '  CC      lib/util/buf.c' && lacks quiet '-c lib/util/buf.c'
}
verbose() {
	mk verbose lib/util/buf.c V=1 && has verbose "-c lib/util/buf.c -o $T_TMP/verbose/obj/lib/util/buf.o" &&
		lacks verbose '  CC '
}
library_flags() {
	has verbose ' -Werror ' && has verbose ' -fvisibility=hidden '
}
no_werror() {
	mk nowerror lib/util/buf.c V=1 WERROR=0 && has nowerror '-Wall -Wextra' && lacks nowerror '-Werror'
}
cli_visibility() {
	mk cli src/env.c V=1 && has cli '-c src/env.c' && lacks cli '-fvisibility'
}

ok "by default: one short line per object, no compiler command" quiet
ok "V=1: the full compiler command instead" verbose
ok "a library object: -Werror and -fvisibility=hidden" library_flags
ok "WERROR=0: no -Werror" no_werror
ok "the CLI's objects keep the default visibility" cli_visibility
[ $T_FAIL -eq 0 ]
