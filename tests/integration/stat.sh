#!/bin/sh
# stat.sh — `pmukit stat` on real software events (TAP): perf's text and CSV
# shapes, the default event set, exit status forwarding, a missing command,
# page-faults of a program touching N pages.
. "${PMUKIT_SRC:-.}/tests/integration/lib/tap.sh"
echo "1..14"
O=$T_TMP/stat
HW="cycles instructions branches branch-misses"

ok "--help" sh -c "'$PMUKIT' stat --help | grep -q '^ Usage: pmukit stat'"

ok "default set: header, 8 events, elapsed" sh -c "
	'$PMUKIT' stat true 2>'$O' &&
	grep -q \"^ Performance counter stats for 'true':\$\" '$O' &&
	grep -Eq '^ +[0-9.,]+ msec task-clock +# +[0-9.]+ CPUs utilized' '$O' &&
	for e in context-switches cpu-migrations page-faults $HW; do
		grep -Eq \"^ +([0-9,]+|<not supported>) +\$e( |\$)\" '$O' || exit 1; done &&
	grep -Eq '^ +[0-9]+\.[0-9]{9} seconds time elapsed\$' '$O'"

# no core PMU here (a VM): the hardware events are <not supported>, never a failure
ok "hardware events <not supported> where there is no core PMU" sh -c "
	if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then exit 0; fi
	for e in $HW; do grep -Eq \"^ +<not supported> +\$e\" '$O' || exit 1; done"

ok "page-faults counted" sh -c "grep -Eq '^ +[1-9][0-9,]* +page-faults' '$O'"

ok "exit status forwarded" sh -c "'$PMUKIT' stat -e task-clock sh -c 'exit 3' 2>/dev/null; [ \$? = 3 ]"

ok "killed by a signal of its own: perf's psignal line, exit 0 (WEXITSTATUS)" sh -c "
	'$PMUKIT' stat -e task-clock sh -c 'kill -SEGV \$\$' 2>'$O.sig'; [ \$? = 0 ] &&
	head -1 '$O.sig' | grep -qx 'sh: Segmentation fault'"
if command -v perf >/dev/null; then
# (perf 6.1 itself leaves its psignal line out about 1 run in 30: it is asked up to 5 times)
ok "... as perf 6.1 (message and exit status)" sh -c "
	for i in 1 2 3 4 5; do
		perf stat -e task-clock sh -c 'kill -TERM \$\$' 2>'$O.psig'; pr=\$?
		[ -n \"\$(head -1 '$O.psig')\" ] && break
	done
	'$PMUKIT' stat -e task-clock sh -c 'kill -TERM \$\$' 2>'$O.ksig'; kr=\$?
	[ \$pr = \$kr ] && [ \"\$(head -1 '$O.psig')\" = \"\$(head -1 '$O.ksig')\" ] ||
	{ echo \"perf exit \$pr, pmukit exit \$kr\"; head -3 '$O.psig' '$O.ksig'; exit 1; } >&2"
else
echo "ok \$((T_N += 1)) # SKIP perf not installed"
fi

ok "missing command: perf's message, non-zero" sh -c "
	'$PMUKIT' stat -e task-clock /nonexistent/cmd 2>'$O.m'; r=\$?
	[ \$r != 0 ] && grep -q 'Workload failed: No such file or directory' '$O.m'"

fails "invalid event specification" "$PMUKIT" stat -e 'nosuchevent-xyz' true
ok "no command and no target: system-wide until interrupted, as perf" sh -c "
	'$PMUKIT' stat -e cpu-clock 2>'$O.nc' & p=\$!
	sleep 0.4; kill -INT \$p; wait \$p
	grep -q 'for .system wide.:' '$O.nc' && grep -Eq 'msec cpu-clock' '$O.nc'"

ok "-x, fields: value,unit,event,run-time,percentage,metric,metric unit" sh -c "
	'$PMUKIT' stat -x, -e task-clock,page-faults,cycles true 2>'$O.x' &&
	[ \$(wc -l < '$O.x') = 3 ] &&
	awk -F, 'NF != 7 { exit 1 }' '$O.x' &&
	grep -Eq '^[0-9]+\.[0-9]{2},msec,task-clock,[0-9]+,100\.00,[0-9.]+,CPUs utilized\$' '$O.x' &&
	grep -Eq '^[0-9]+,,page-faults,[0-9]+,100\.00,[0-9.]+,[KMG]?/sec\$' '$O.x' &&
	grep -Eq '^([0-9]+|<not supported>),,cycles,[0-9]+,[0-9.]+,' '$O.x'"

# the same shape as perf 6.1's CSV here, when perf can count
ok "-x, matches perf stat -x, field for field (shape)" sh -c "
	command -v perf >/dev/null && perf stat -x, -e task-clock,page-faults true 2>'$O.p' || exit 0
	'$PMUKIT' stat -x, -e task-clock,page-faults true 2>'$O.q' &&
	sed -E 's/[0-9]+(\.[0-9]+)?/N/g' '$O.p' > '$O.p2' && sed -E 's/[0-9]+(\.[0-9]+)?/N/g' '$O.q' > '$O.q2' &&
	sed -E 's/,[KMG]?\/sec/,X\/sec/' '$O.p2' > '$O.p3' && sed -E 's/,[KMG]?\/sec/,X\/sec/' '$O.q2' > '$O.q3' &&
	diff '$O.p3' '$O.q3' >&2"

ok "a group reads, -x with another separator" sh -c "
	'$PMUKIT' stat -x';' -e '{task-clock,page-faults}' true 2>'$O.g' &&
	awk -F';' 'NF != 7 || \$5 != \"100.00\" { exit 1 }' '$O.g' && [ \$(wc -l < '$O.g') = 2 ]"

# page-faults of a program that touches N pages (the unit test binary's --touch)
TC=${PMUKIT_BUILD:-build}/tests/test_count
ok "page-faults of N touched pages within 3% of N" sh -c "
	[ -x '$TC' ] || { echo 'no $TC' >&2; exit 1; }
	a=\$('$PMUKIT' stat -x, -e page-faults '$TC' --touch 0 2>&1 | cut -d, -f1)
	b=\$('$PMUKIT' stat -x, -e page-faults '$TC' --touch 8192 2>&1 | cut -d, -f1)
	d=\$((b - a)); echo \"faults \$a -> \$b: \$d for 8192\" >&2
	[ \$d -gt 7946 ] && [ \$d -lt 8438 ]"

[ "$T_FAIL" = 0 ]
