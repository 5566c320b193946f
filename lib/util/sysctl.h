/* SPDX-License-Identifier: MIT */
/* util/sysctl.h — kernel settings the library consults. */
#ifndef PMUKIT_UTIL_SYSCTL_H
#define PMUKIT_UTIL_SYSCTL_H

/* kernel.perf_event_paranoid, or the kernel's default 2 when it can not be read. */
int pk_sysctl__perf_paranoid(void);
/* kernel.perf_event_max_sample_rate, or the kernel's default 100000 when it can not be read. */
int pk_sysctl__perf_max_sample_rate(void);
/* arm64 kernel.perf_user_access (0 or 1), or -1 when the kernel has none. */
int pk_sysctl__perf_user_access(void);

#endif
