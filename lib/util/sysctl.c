/* SPDX-License-Identifier: MIT */
/* util/sysctl.c — reading the kernel settings in util/sysctl.h. */
#include "util/sysctl.h"

#include <stdio.h>

int pk_sysctl__perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

int pk_sysctl__perf_max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	int v = 0;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v > 0 ? v : 100000;
}

int pk_sysctl__perf_user_access(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_user_access", "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}
