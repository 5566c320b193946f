/* SPDX-License-Identifier: MIT */
/* util/sysctl.h — kernel settings the library consults. */
#ifndef PMUKIT_UTIL_SYSCTL_H
#define PMUKIT_UTIL_SYSCTL_H

/* kernel.perf_event_paranoid, or the kernel's default 2 when it can not be read. */
int pk_sysctl__perf_paranoid(void);

#endif
