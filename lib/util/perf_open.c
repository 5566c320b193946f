/* SPDX-License-Identifier: MIT */
/*
 * util/perf_open.c — perf_event_open with the fallback sequence perf uses when
 * the kernel answers EINVAL: the msr PMU refuses exclude_guest (perf stat's
 * default for it), older kernels lack PERF_FORMAT_LOST or the weight struct.
 * Counting and recording open through here so both see the same attrs perf
 * would end up with.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/perf_open.h"

enum {
	M_READ_LOST = 1 << 0,
	M_WEIGHT_STRUCT = 1 << 1,
	M_BRANCH_HW_IDX = 1 << 2,
	M_BPF = 1 << 3,
	M_KSYMBOL = 1 << 4,
	M_CLOCKID_WRONG = 1 << 5,
	M_CLOCKID = 1 << 6,
	M_CLOEXEC = 1 << 7,
	M_MMAP2 = 1 << 8,
	M_SAMPLE_ID_ALL = 1 << 9,
	M_LBR_FLAGS = 1 << 10,
	M_GROUP_READ = 1 << 11,
};

static int no_exclude_guest(const struct pk_open_state *st, uint32_t type)
{
	for (unsigned i = 0; i < st->nr_no_exclude_guest; i++)
		if (st->no_exclude_guest[i] == type)
			return 1;
	return 0;
}

/* perf's evsel__disable_missing_features */
static void disable_missing(struct perf_event_attr *a, const struct pk_open_state *st)
{
	uint32_t m = st->missing;
	if (m & M_READ_LOST)
		a->read_format &= ~(uint64_t)PERF_FORMAT_LOST;
	if ((m & M_WEIGHT_STRUCT) && (a->sample_type & PERF_SAMPLE_WEIGHT_STRUCT)) {
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT;
		a->sample_type |= PERF_SAMPLE_WEIGHT;
	}
	if (m & M_CLOCKID_WRONG)
		a->clockid = 1;	/* CLOCK_MONOTONIC */
	if (m & M_CLOCKID)
		a->use_clockid = 0, a->clockid = 0;
	if (m & M_MMAP2)
		a->mmap2 = 0;
	if (no_exclude_guest(st, a->type))
		a->exclude_guest = a->exclude_host = 0;
	if (m & M_LBR_FLAGS)
		a->branch_sample_type &= ~(uint64_t)(PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES);
	if ((m & M_GROUP_READ) && a->inherit)
		a->read_format &= ~(uint64_t)(PERF_FORMAT_GROUP | PERF_FORMAT_ID);
	if (m & M_KSYMBOL)
		a->ksymbol = 0;
	if (m & M_BPF)
		a->bpf_event = 0;
	if (m & M_BRANCH_HW_IDX)
		a->branch_sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_HW_INDEX;
	if (m & M_SAMPLE_ID_ALL)
		a->sample_id_all = 0;
}

/* perf's evsel__detect_missing_features: 1 when something was switched off. */
static int detect_missing(const struct perf_event_attr *a, int group_leader, struct pk_open_state *st)
{
	uint32_t m = st->missing;
#define TRY(bit, cond) if (!(m & (bit)) && (cond)) { st->missing |= (bit); return 1; }
	TRY(M_READ_LOST, a->read_format & PERF_FORMAT_LOST)
	TRY(M_WEIGHT_STRUCT, a->sample_type & PERF_SAMPLE_WEIGHT_STRUCT)
	if (a->sample_type & (PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_DATA_PAGE_SIZE) || a->cgroup)
		return 0;	/* fatal for perf */
	TRY(M_BRANCH_HW_IDX, a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
	if (a->aux_output)
		return 0;
	TRY(M_BPF, a->bpf_event)
	TRY(M_KSYMBOL, a->ksymbol)
	if (a->write_backward)
		return 0;
	TRY(M_CLOCKID_WRONG, a->use_clockid)
	TRY(M_CLOCKID, a->use_clockid)
	TRY(M_CLOEXEC, 1)
	TRY(M_MMAP2, a->mmap2)
	if ((a->exclude_guest || a->exclude_host) && !no_exclude_guest(st, a->type)) {
		if (st->nr_no_exclude_guest >= sizeof(st->no_exclude_guest) / sizeof(st->no_exclude_guest[0]))
			return 0;
		st->no_exclude_guest[st->nr_no_exclude_guest++] = a->type;
		return 1;
	}
	TRY(M_SAMPLE_ID_ALL, a->sample_id_all)
	TRY(M_LBR_FLAGS, a->branch_sample_type & (PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS))
	TRY(M_GROUP_READ, a->inherit && (a->read_format & PERF_FORMAT_GROUP) && group_leader)
#undef TRY
	return 0;
}

int pk_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		 struct pk_open_state *st)
{
	return pk_perf_open_flags(attr, pid, cpu, group_fd, 0, st);
}

int pk_perf_open_flags(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		       unsigned long more, struct pk_open_state *st)
{
	for (;;) {
		disable_missing(attr, st);
		unsigned long flags = (st->missing & M_CLOEXEC ? 0 : PERF_FLAG_FD_CLOEXEC) | more;
		int fd = (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
		if (fd >= 0)
			return fd;
		int en = errno;
		if (en != EINVAL || !detect_missing(attr, group_fd < 0, st))
			return -en;
	}
}

const char *pk_perf_open__strerror(const struct perf_event_attr *a, const char *name, int err,
				   int cpu_target, char *buf, size_t len)
{
	const char *msg = NULL;
	switch (err) {
	case ENOENT:
		snprintf(buf, len, "The %s event is not supported.", name);
		return buf;
	case EMFILE:
		msg = "Too many events are opened.\nProbably the maximum number of open file "
		      "descriptors has been reached.\nHint: Try again after reducing the number of "
		      "events.\nHint: Try increasing the limit with 'ulimit -n <limit>'";
		break;
	case ENODEV:
		if (cpu_target)
			msg = "No such device - did you specify an out-of-range profile CPU?";
		break;
	case EOPNOTSUPP:
		if (a->sample_type & PERF_SAMPLE_BRANCH_STACK) {
			snprintf(buf, len, "%s: PMU Hardware or event type doesn't support branch stack "
				 "sampling.", name);
			return buf;
		}
		if (a->aux_output) {
			snprintf(buf, len, "%s: PMU Hardware doesn't support 'aux_output' feature", name);
			return buf;
		}
		if (a->sample_period) {
			snprintf(buf, len, "%s: PMU Hardware doesn't support sampling/overflow-interrupts. "
				 "Try 'perf stat'", name);
			return buf;
		}
		if (a->precise_ip)
			msg = "'precise' request may not be supported. Try removing 'p' modifier.";
#if defined(__i386__) || defined(__x86_64__)
		else if (a->type == PERF_TYPE_HARDWARE)
			msg = "No hardware sampling interrupt available.\n";
#endif
		else if (!cpu_target) {
			snprintf(buf, len, "Unsupported event (%s) in per-thread mode, enable system wide "
				 "with '-a'.", name);
			return buf;
		}
		break;
	case EINVAL:
		if (!cpu_target) {
			snprintf(buf, len, "Invalid event (%s) in per-thread mode, enable system wide with "
				 "'-a'.", name);
			return buf;
		}
		break;
	default:
		break;
	}
	if (msg)
		snprintf(buf, len, "%s", msg);
	else
		snprintf(buf, len, "The sys_perf_event_open() syscall returned with %d (%s) for event "
			 "(%s).\n/bin/dmesg | grep -i perf may provide additional information.\n",
			 err, strerror(err), name);
	return buf;
}
