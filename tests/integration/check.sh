#!/bin/sh
# check.sh — `pmukit check user-access`: answers, reasons, exit codes, JSON (TAP).
B=${PMUKIT_BUILD:-build}
S=${PMUKIT_SRC:-.}
P=$B/pmukit
F=$S/tests/fixtures/sysfs
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
echo "1..6"
t() {
	n=$((n + 1))
	if sh -c "$1"; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
t "$P check user-access --sysfs $F/x86-icl --arch x86 | grep -q 'user-access: yes (ok)'" \
	"a fixture with cpu/rdpmc 1 passes the static checks"
mkdir -p "$T/x/cpu" && echo 4 > "$T/x/cpu/type" && echo 0 > "$T/x/cpu/rdpmc"
t "$P check user-access --sysfs $T/x --arch x86 > $T/out; [ \$? = 1 ] && grep -q 'no (rdpmc-off)' $T/out && grep -q 'fix: echo 1 >' $T/out" \
	"rdpmc 0: exit 1, the reason and the fix"
echo 0 > "$T/ua"
t "$P check user-access --json --sysfs $F/arm64-het --arch arm64 --sysctl $T/ua | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"code\"] == \"sysctl-off\" and d[\"ok\"] is False and d[\"fix\"]'" \
	"arm64 sysctl off, as JSON"
t "$P check user-access > $T/out; r=\$?; [ \$r -le 1 ] && grep -q '^user-access: ' $T/out" \
	"this machine: a yes or a no with its reason"
t "$P check > /dev/null 2>&1; [ \$? = 129 ]" "no check named: usage error (perf's 129)"
t "$P check nonsense > /dev/null 2>&1; [ \$? = 129 ]" "unknown check: usage error"
