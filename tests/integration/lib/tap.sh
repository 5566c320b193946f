# tap.sh — tiny TAP helpers for the CLI tests (sourced). Each test file prints
# a plan, then "ok N - name" / "not ok N - name" lines; prove summarises.
T_N=0
T_FAIL=0
PMUKIT="${PMUKIT_BUILD:-build}/pmukit"
SRC="${PMUKIT_SRC:-.}"
ARCH_DIR="${PMUKIT_ARCH_DIR:-build/arch}"
# perf retries without kernel/hv counting when not privileged; the tests expect
# privileged attrs (as perf 6.1 run as root), whoever runs them.
export PMUKIT_PERF_PARANOID="${PMUKIT_PERF_PARANOID:--1}"
T_TMP=$(mktemp -d)
trap 'rm -rf "$T_TMP"' EXIT
# Each failure is also appended here, so that `make check` can show why at the end
# of its output (prove hides a test's comments, and CI keeps only the tail).
T_LOG="${PMUKIT_BUILD:-build}/check-failures.log"

ok() {	# ok NAME COMMAND...  — passes when COMMAND exits 0
	T_N=$((T_N + 1))
	name=$1; shift
	if "$@" >"$T_TMP/out" 2>"$T_TMP/err"; then
		echo "ok $T_N - $name"
	else
		echo "not ok $T_N - $name"
		sed 's/^/# /' "$T_TMP/err" | head -20
		{ echo "== ${0##*/} $T_N - $name"; head -40 "$T_TMP/err"; } >> "$T_LOG" 2>/dev/null
		T_FAIL=$((T_FAIL + 1))
	fi
}

fails() {	# fails NAME COMMAND... — passes when COMMAND exits non-zero
	T_N=$((T_N + 1))
	name=$1; shift
	if "$@" >"$T_TMP/out" 2>"$T_TMP/err"; then
		echo "not ok $T_N - $name (exit 0)"
		{ echo "== ${0##*/} $T_N - $name (exit 0)"; head -20 "$T_TMP/out"; } >> "$T_LOG" 2>/dev/null
		T_FAIL=$((T_FAIL + 1))
	else
		echo "ok $T_N - $name"
	fi
}

contains() {	# contains FILE TEXT — fixed-string grep
	grep -qF -- "$2" "$1" || { echo "missing: $2" >&2; sed 's/^/  /' "$1" | head -20 >&2; return 1; }
}
