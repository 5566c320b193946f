/* SPDX-License-Identifier: MIT */
/* util/perf_open.h — perf_event_open(2) with perf's retries for what a kernel or PMU lacks. */
#ifndef PMUKIT_UTIL_PERF_OPEN_H
#define PMUKIT_UTIL_PERF_OPEN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/perf_event.h>

/*
 * What the opens so far learnt is missing, kept by the caller (zeroed before
 * the first open) so that later events start without it, as perf's
 * perf_missing_features does. exclude_guest is per PMU (type).
 */
struct pk_open_state {
	uint32_t missing;		/* PK_MISSING_* bits */
	uint32_t no_exclude_guest[8];	/* PMU types that refuse exclude_guest/host */
	unsigned nr_no_exclude_guest;
};

/*
 * Open attr with PERF_FLAG_FD_CLOEXEC. On EINVAL, switch off one feature the
 * attr uses, in the order perf 6.1 probes them (PERF_FORMAT_LOST, weight
 * struct -> WEIGHT, branch HW index, bpf_event, ksymbol, clockid, cloexec,
 * mmap2, exclude_guest/exclude_host, sample_id_all, LBR flags, group read of
 * inherited events), and retry; features whose absence perf treats as fatal
 * (page sizes, cgroup, aux_output, write_backward) end the retries. attr is
 * left as it was last tried, so the caller knows what was opened. Returns
 * the fd or -errno of the last attempt.
 */
int pk_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		 struct pk_open_state *st);
/* The same with more perf_event_open flags (PERF_FLAG_PID_CGROUP: pid is a cgroup fd). */
int pk_perf_open_flags(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		       unsigned long flags, struct pk_open_state *st);

/*
 * Why perf_event_open refused attr with errno err, in perf 6.1's words
 * (evsel__open_strerror) where perf has words for it: "The cycles event is
 * not supported." for ENOENT, the sampling/branch-stack/precise reasons for
 * EOPNOTSUPP, per-thread hints when no CPU was targeted. Returns buf.
 */
const char *pk_perf_open__strerror(const struct perf_event_attr *attr, const char *name, int err,
				   int cpu_target, char *buf, size_t len);

#endif
