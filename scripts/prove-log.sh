#!/bin/sh
# prove-log.sh LOG COMMAND... — runs the test runner (COMMAND) with LOG emptied first;
# when it fails, prints what the failing tests logged there (tests/integration/lib/tap.sh
# appends each failure's reason), last, where a CI log that keeps only its tail shows it,
# and then the failing tests' names (a long reason can push them out of that tail).
log=$1; shift
mkdir -p "$(dirname "$log")"
: > "$log"
"$@" && exit 0
rc=$?
if [ -s "$log" ]; then
	echo "--- why the failing tests failed ($log, last 80 lines):"
	tail -n 80 "$log"
	echo "--- the failing tests:"
	grep '^== ' "$log" | tail -n 30
fi
exit $rc
