/* SPDX-License-Identifier: MIT */
/*
 * util/tracefs.c — find tracefs, or mount it. A freshly booted machine often
 * has neither tracefs nor debugfs mounted; perf then mounts tracefs on
 * /sys/kernel/tracing itself (its tracefs__mount) and tracepoints work. The
 * same here, so that `sched:sched_switch` means the same thing to pmukit as
 * to perf on such a machine. Nothing is cached: the answer is cheap (one
 * statfs) and the library keeps no mutable state.
 *
 * The order is perf's (tools/lib/api/fs: tracefs__mount): the places tracefs
 * is usually mounted, /sys/kernel/tracing first, then debugfs' tracing
 * directory (where the kernel mounts tracefs on first access when debugfs is
 * mounted), /tracing and /trace; then a mount of our own on
 * /sys/kernel/tracing. (perf also looks through /proc/mounts before it mounts:
 * a tracefs elsewhere is not found here.)
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/vfs.h>

#include "util/tracefs.h"

#define TRACEFS_MAGIC_NR 0x74726163	/* "trac", as statfs reports tracefs */

static int is_tracefs(const char *dir)
{
	struct statfs st;
	return !statfs(dir, &st) && (unsigned long)st.f_type == TRACEFS_MAGIC_NR;
}

const char *pk_tracefs__root(const char **why)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing",
					    "/tracing", "/trace" };
	const char *env = getenv("PMUKIT_TRACEFS");
	if (why)
		*why = NULL;
	if (env && *env)
		return env;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (is_tracefs(dirs[i]))
			return dirs[i];
	if (!mount("nodev", dirs[0], "tracefs", 0, NULL) && is_tracefs(dirs[0]))
		return dirs[0];
	if (why)
		*why = errno == EPERM || errno == EACCES
			       ? "tracefs is not mounted and only root may mount it: "
				 "mount -t tracefs nodev /sys/kernel/tracing"
			       : "tracefs is not mounted and could not be mounted on /sys/kernel/tracing";
	return NULL;
}
