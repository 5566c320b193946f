#!/bin/sh
# tracefs.sh — tracepoints on a machine as it boots, with tracefs mounted
# nowhere: pmukit mounts it as perf does (root), or says how to (others).
# Each case runs in a private mount namespace, so the machine's own mounts
# are left as they are. Where tracefs ends up depends on the machine (with
# debugfs mounted, the kernel mounts it under /sys/kernel/debug/tracing on
# first access): the tests look for it in pmukit's (and perf's) order.
. "$(dirname "$0")/lib/tap.sh"
echo "1..8"

# find-tracefs.sh: the tracefs directory, looked for as pmukit and perf look for it
cat >"$T_TMP/find-tracefs.sh" <<'EOF'
for d in /sys/kernel/tracing /sys/kernel/debug/tracing /tracing /trace; do
	[ "$(stat -f -c %T "$d" 2>/dev/null)" = tracefs ] && { echo "$d"; exit 0; }
done
exit 1
EOF

if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	for i in 1 2 3 4 5 6 7 8; do echo "ok $i # SKIP needs root and unshare -m"; done
	exit 0
fi


ok "explain resolves a tracepoint with tracefs unmounted" sh -c "
	unset PMUKIT_TRACEFS
	$(command -v unshare) -m sh -c '
		for d in /sys/kernel/debug/tracing /sys/kernel/tracing; do
			while umount \$d 2>/dev/null; do :; done
		done
		! grep -q \" tracefs \" /proc/self/mounts || exit 2
		\"$PMUKIT\" explain --json -e sched:sched_switch > \"$T_TMP/j\" || exit 1
		id=\$(cat \"\$(sh \"$T_TMP/find-tracefs.sh\")/events/sched/sched_switch/id\") || exit 1
		perl \"$SRC/tests/integration/lib/json.pl\" \"$T_TMP/j\" \"0.attr.type=2\" \"0.attr.config=0x\$(printf %x \$id)\"'"

ok "list shows tracepoints with tracefs unmounted" sh -c "
	unset PMUKIT_TRACEFS
	$(command -v unshare) -m sh -c '
		for d in /sys/kernel/debug/tracing /sys/kernel/tracing; do
			while umount \$d 2>/dev/null; do :; done
		done
		\"$PMUKIT\" list tracepoint' | grep -q '^ *sched:sched_switch'"

# with debugfs mounted (tracefs then appears under it) and tracefs unmounted elsewhere
debugfs_case() {	# the id pmukit encodes is the one under the tracefs found in perf's order
	unset PMUKIT_TRACEFS
	$(command -v unshare) -m sh -c '
		mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug || exit 3
		while umount /sys/kernel/tracing 2>/dev/null; do :; done
		d=$(sh "'"$T_TMP"'/find-tracefs.sh") || exit 4
		echo "tracefs found at $d" >&2
		[ "$d" = /sys/kernel/debug/tracing ] || exit 5
		"'"$PMUKIT"'" explain --json -e sched:sched_switch >"'"$T_TMP"'/jd" || exit 1
		id=$(cat "$d/events/sched/sched_switch/id") || exit 1
		perl "'"$SRC"'/tests/integration/lib/json.pl" "'"$T_TMP"'/jd" "0.attr.type=2" "0.attr.config=0x$(printf %x $id)"'
}
ok "with debugfs mounted: explain encodes the id under debugfs' tracing" debugfs_case
perf_same() {	# perf 6.1 counts the same tracepoint there too
	command -v perf >/dev/null || return 0
	$(command -v unshare) -m sh -c '
		mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug || exit 3
		while umount /sys/kernel/tracing 2>/dev/null; do :; done
		perf stat -e sched:sched_switch true 2>&1 | grep -q sched:sched_switch &&
			"'"$PMUKIT"'" stat -e sched:sched_switch true 2>&1 | grep -q sched:sched_switch'
}
ok "... and stat counts it there as perf 6.1 does" perf_same

# someone who may not mount it gets told how
if command -v setpriv >/dev/null; then
	fails "an unprivileged user with tracefs unmounted is refused" sh -c "
		unset PMUKIT_TRACEFS
		$(command -v unshare) -m sh -c '
			for d in /sys/kernel/debug/tracing /sys/kernel/tracing; do
				while umount \$d 2>/dev/null; do :; done
			done
			exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$PMUKIT\" explain -e sched:sched_switch' 2> '$T_TMP/e2'"
	ok "... saying how to mount it" sh -c "grep -q 'mount -t tracefs' '$T_TMP/e2'"
else
	echo "ok 3 # SKIP no setpriv"; echo "ok 4 # SKIP no setpriv"
fi
# root refused for another reason than the sysctl: no perf_event_paranoid advice
if "$PMUKIT" explain -e ftrace:function >/dev/null 2>&1; then
	fails "as root, ftrace:function:u is refused by the kernel (it traces the kernel only)" \
		"$PMUKIT" stat -e ftrace:function:u true
	ok "... and the message says so, with no perf_event_paranoid advice" sh -c "
		'$PMUKIT' stat -e ftrace:function:u true 2>'$T_TMP/ff'
		grep -q 'refuses this event even to root' '$T_TMP/ff' && ! grep -q paranoid '$T_TMP/ff'"
else
	echo "ok 5 # SKIP no ftrace:function tracepoint"; echo "ok 6 # SKIP no ftrace:function tracepoint"
fi
[ $T_FAIL -eq 0 ]
