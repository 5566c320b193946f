#!/bin/sh
# tracefs.sh — tracepoints on a machine as it boots, with tracefs mounted
# nowhere: pmukit mounts it as perf does (root), or says how to (others).
# Each case runs in a private mount namespace, so the machine's own mounts
# are left as they are.
. "$(dirname "$0")/lib/tap.sh"
echo "1..4"

if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	for i in 1 2 3 4; do echo "ok $i # SKIP needs root and unshare -m"; done
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
[ $T_FAIL -eq 0 ]
