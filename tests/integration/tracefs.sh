#!/bin/sh
# tracefs.sh — tracepoints on a machine as it boots, with tracefs mounted
# nowhere: pmukit mounts it as perf does (root), or says how to (others).
# Each case runs in a private mount namespace, so the machine's own mounts
# are left as they are.
. "$(dirname "$0")/lib/tap.sh"
echo "1..6"

if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	for i in 1 2 3 4 5 6; do echo "ok $i # SKIP needs root and unshare -m"; done
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
		id=\$(cat /sys/kernel/tracing/events/sched/sched_switch/id) || exit 1
		perl \"$SRC/tests/integration/lib/json.pl\" \"$T_TMP/j\" \"0.attr.type=2\" \"0.attr.config=0x\$(printf %x \$id)\"'"

ok "list shows tracepoints with tracefs unmounted" sh -c "
	unset PMUKIT_TRACEFS
	$(command -v unshare) -m sh -c '
		for d in /sys/kernel/debug/tracing /sys/kernel/tracing; do
			while umount \$d 2>/dev/null; do :; done
		done
		\"$PMUKIT\" list tracepoint' | grep -q '^ *sched:sched_switch'"

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
