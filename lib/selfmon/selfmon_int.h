/* SPDX-License-Identifier: MIT */
/*
 * selfmon_int.h — what the files of lib/selfmon share: the group object, its
 * events and regions, the TopDown bookkeeping, and the hooks the unit tests
 * use to put synthetic user pages and a stub counter under a real group.
 */
#ifndef PMUKIT_SELFMON_INT_H
#define PMUKIT_SELFMON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/selfmon.h>

#define SELFMON_DEFAULT_RETRIES 1000u
#define SELFMON_TOPDOWN_RESET_NS 2000000000ull	/* topdown.txt: "every few seconds" */
#define SELFMON_MAX_EVENTS 256

struct selfmon_caps {
	bool user_rdpmc, user_time, user_time_zero, user_time_short;
};
void selfmon_caps_decode(uint64_t capabilities, struct selfmon_caps *c);

int selfmon_topdown_pair(const volatile struct perf_event_mmap_page *ps,
			 const volatile struct perf_event_mmap_page *pm,
			 const struct pk_selfmon_ops *ops, unsigned max_retries,
			 struct pk_topdown_sample *s, unsigned *retries);

/* TopDown role of an event, from its attr: x86 event=0x00 pseudo events. */
enum {
	SM_TD_NONE = -2,
	SM_TD_SLOTS = -1,	/* umask 0x04: fixed counter 3 */
	/* 0..7: metric event umask 0x80 + i, byte i of PERF_METRICS */
};
int selfmon_topdown_role(const struct perf_event_attr *attr, const char *pmu);

struct sm_event {
	struct perf_event_attr attr;
	char *name;
	int fd;
	uint64_t id;
	const volatile struct perf_event_mmap_page *page;	/* user path */
	void *map;		/* our mapping of page (NULL when injected) */
	size_t map_len;
	int td_role;		/* SM_TD_* or metric byte */
	uint64_t base;		/* added to the kernel's count (TopDown resets) */
};

/* A TopDown observation, from the registers or from the kernel's counts. */
enum { TD_SRC_NONE = 0, TD_SRC_REG, TD_SRC_KERNEL };
struct td_point {
	int source;
	uint64_t epoch;		/* g->td_epoch when taken */
	struct pk_topdown_sample reg;	/* TD_SRC_REG */
	uint64_t slots;			/* TD_SRC_KERNEL: SLOTS count */
	uint64_t count[8];		/* TD_SRC_KERNEL: metric counts (slots) */
	uint32_t have;			/* TD_SRC_KERNEL: metric bytes present */
};

struct sm_region {
	char *name;
	bool open;
	uint64_t begin_epoch;
	uint64_t begin_enabled, begin_running;
	uint64_t *begin_raw;
	double *begin_scaled;
	struct td_point begin_td;
	uint64_t calls, lost;
	uint64_t *sum_raw;
	double *sum_scaled;
	uint64_t sum_enabled, sum_running;
	struct pk_topdown td;
};

struct pk_selfmon {
	size_t nr;
	struct sm_event *ev;
	enum pk_selfmon_path path;
	char reason[256];
	struct pk_selfmon_ops ops;
	unsigned max_retries;
	const void *owner;	/* thread anchor of the opening thread */
	bool self;		/* pid 0, cpu -1 */
	uint64_t *rbuf;		/* read(2) buffer */
	size_t rbuf_len;
	struct pk_selfmon_value *scratch;	/* region reads */
	struct pk_selfmon_stats st;
	uint64_t epoch;		/* bumped by pk_selfmon__reset */

	/* TopDown */
	bool topdown, level2;
	size_t td_metric_ev;	/* a metric member (its page gives PERF_METRICS) */
	uint64_t td_epoch;	/* bumped by every reset of the registers */
	uint64_t td_reset_ns;
	uint64_t td_reset_enabled;	/* leader enabled time at the last reset */
	uint64_t last_enabled;		/* leader enabled time at the last read */
	unsigned td_open;		/* open regions (no scheduled reset meanwhile) */

	struct sm_region *regions;
	size_t nr_regions, cap_regions;
	size_t last_region;
};

/* group.c */
const void *selfmon_thread_anchor(void);
/* Read every event and, on TopDown groups, the TopDown point of the same read. */
int selfmon_read_all(struct pk_selfmon *g, struct pk_selfmon_value *vals, struct td_point *td);
void selfmon_regions_free(struct pk_selfmon *g);

/* topdown.c */
/* Region delta between two points; false when they cannot be compared. */
bool selfmon_topdown_point_delta(const struct pk_selfmon *g, const struct td_point *a,
				 const struct td_point *b, struct pk_topdown *out);
/* Scheduled PERF_METRICS reset, before a region begins. */
int selfmon_topdown_maybe_reset(struct pk_selfmon *g);

/* arm64.c: prepare attrs for userspace access on an arm64 core PMU. */
enum {
	SM_ARM64_OK = 0,	/* rdpmc (and long) set on the hardware members */
	SM_ARM64_NO_PMU,	/* no core PMU with an `rdpmc` format term */
	SM_ARM64_GENERIC,	/* heterogeneous system, generic event type */
	SM_ARM64_MIXED,		/* members on different core PMUs */
	SM_ARM64_NOT_PINNED,	/* affinity not within the PMU's CPUs */
	SM_ARM64_CHAIN,		/* the CHAIN event */
};
/*
 * attrs: the group (modified in place on SM_ARM64_OK). affinity: the thread's
 * allowed CPUs as a cpulist string ("0-3"), NULL to read it. why: message.
 */
int selfmon_arm64_prepare(struct perf_event_attr *attrs, size_t nr,
			  const struct pk_pmu_tree *tree, const char *affinity, bool want_long,
			  char *why, size_t len);
/* Clear the `long` bit placed by prepare (64-bit counters refused). */
void selfmon_arm64_drop_long(struct perf_event_attr *attrs, size_t nr,
			     const struct pk_pmu_tree *tree);
/* cpulist helpers shared with access.c */
bool selfmon_cpulist_subset(const char *sub, const char *super);
int selfmon_affinity_cpulist(char *buf, size_t len);

/* Test hooks: put synthetic pages and ops under an open group and switch it to
 * the user path; td_roles (NULL: keep) gives each event's SM_TD_* role. */
int selfmon__test_inject(struct pk_selfmon *g,
			 const volatile struct perf_event_mmap_page *const *pages,
			 const struct pk_selfmon_ops *ops, const int *td_roles, bool level2);

#endif
