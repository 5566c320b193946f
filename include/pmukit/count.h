/* SPDX-License-Identifier: MIT */
/*
 * pmukit/count.h — counting mode: open every event of a pk_evlist for a task
 * (groups through group_fd, leader first), read them with each attr's
 * read_format (PERF_FORMAT_GROUP, TOTAL_TIME_ENABLED/RUNNING), scale
 * multiplexed counts as perf stat does, and say which events were not
 * supported here or never ran.
 *
 *   struct pk_counter *c;
 *   pk_counter__open(&c, el, &(struct pk_count_opts){ .sz = sizeof(o), .pid = pid, .cpu = -1 }, &err);
 *   ... the task runs ...
 *   pk_counter__read(c, &err);
 *   for (size_t i = 0; i < pk_counter__nr(c); i++)
 *           pk_counter__value(c, i, &v);
 *   pk_counter__close(c);
 */
#ifndef PMUKIT_COUNT_H
#define PMUKIT_COUNT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmukit/error.h>
#include <pmukit/spec.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_counter;

struct pk_count_opts {
	size_t sz;		/* sizeof(struct pk_count_opts) */
	pid_t pid;		/* task to count (-1 with cpu >= 0: every task on that CPU) */
	int cpu;		/* -1: any CPU */
};

enum pk_count_status {
	PK_COUNT_OK,		/* counted (possibly multiplexed: running < enabled) */
	PK_COUNT_NOT_COUNTED,	/* opened but never ran (running == 0): perf's <not counted> */
	PK_COUNT_NOT_SUPPORTED,	/* open failed with ENOENT/EOPNOTSUPP/EINVAL: <not supported> */
};

struct pk_count_value {
	enum pk_count_status status;
	int open_errno;		/* NOT_SUPPORTED: the errno of perf_event_open */
	uint64_t raw;		/* value as read */
	uint64_t enabled, running;	/* ns; 0 when the read_format lacks them */
	double scaled;		/* raw * enabled / running (raw when not multiplexed) */
	double percent;		/* running / enabled * 100 (100 when not multiplexed) */
};

/*
 * Open every event of el for opts->pid/cpu. Events the machine does not have
 * (ENOENT, EOPNOTSUPP, EINVAL) are marked not supported, the rest still open;
 * a member whose leader is not supported is not supported either. Other
 * failures (EACCES/EPERM with the sysctl that would allow them, EMFILE, ...)
 * close everything and return a negative errno with err filled.
 */
int pk_counter__open(struct pk_counter **out, const struct pk_evlist *el,
		     const struct pk_count_opts *opts, struct pk_error *err);
/* Read every opened event (one read per group with PERF_FORMAT_GROUP). */
int pk_counter__read(struct pk_counter *c, struct pk_error *err);
size_t pk_counter__nr(const struct pk_counter *c);
/* The last read value of event idx (evlist order). */
int pk_counter__value(const struct pk_counter *c, size_t idx, struct pk_count_value *v);
void pk_counter__close(struct pk_counter *c);

/* raw * enabled / running, rounded as perf does; raw when running is 0 or equals enabled. */
double pk_count__scale(uint64_t raw, uint64_t enabled, uint64_t running);
/*
 * Decode one read(2) buffer of a counter opened with read_format: nr values
 * (nr must match the group's opened size with PERF_FORMAT_GROUP, else 1) into
 * out[0..nr), status and scaling filled. Returns 0 or -EINVAL when the buffer
 * is too short or the group size differs.
 */
int pk_count__decode(uint64_t read_format, const void *buf, size_t len, size_t nr,
		     struct pk_count_value *out);

#ifdef __cplusplus
}
#endif
#endif
