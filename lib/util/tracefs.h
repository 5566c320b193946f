/* SPDX-License-Identifier: MIT */
/* util/tracefs.h — where tracefs is, mounting it as perf does when it is nowhere yet. */
#ifndef PMUKIT_UTIL_TRACEFS_H
#define PMUKIT_UTIL_TRACEFS_H

#include <stddef.h>

/*
 * The tracefs directory (its events/ holds SYS/NAME/{id,format}):
 * $PMUKIT_TRACEFS when set; else the first of /sys/kernel/tracing,
 * /sys/kernel/debug/tracing, /tracing, /trace where tracefs is mounted; else, as perf does, it
 * is mounted on /sys/kernel/tracing when this process may (root or
 * CAP_SYS_ADMIN). Returns NULL when there is none; *why (when not NULL) then
 * says what to do.
 */
const char *pk_tracefs__root(const char **why);

#endif
