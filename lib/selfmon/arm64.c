/* SPDX-License-Identifier: MIT */
/*
 * arm64.c — what userspace counter access needs on arm64
 * (Documentation/arch/arm64/perf.rst, "Perf Userspace PMU Hardware Counter
 * Access"), applied to a group's attrs before it is opened:
 *
 * - the core PMU's `rdpmc` format term (config1:1) asks for user access and
 *   its `long` term (config1:0) for a 64-bit counter; both are placed through
 *   the PMU's format files, not hard-coded bits;
 * - on heterogeneous systems (several core PMUs, big.LITTLE) access works
 *   only for a PMU opened by its own type, never a generic type
 *   (PERF_TYPE_HARDWARE / HW_CACHE / RAW), with the task pinned to that
 *   PMU's CPUs;
 * - chained events cannot be read from userspace: the CHAIN event itself is
 *   refused here, and a 64-bit counter the hardware cannot give (the kernel
 *   says EOPNOTSUPP rather than chain) is retried as a 32-bit one whose upper
 *   bits the user page's pmc_width discards.
 *
 * Pure functions over a PMU tree, so they are tested on any machine with the
 * fake trees under tests/fixtures/sysfs.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/pmu.h>

#include "selfmon/selfmon_int.h"

#define ARMV8_CHAIN 0x1e
#define MAX_CPUS 4096
#define MAX_CORE 16

/* "0-3,8,10-11" into a bitmap; -EINVAL on anything else. */
static int cpulist_parse(const char *s, uint64_t bits[MAX_CPUS / 64])
{
	memset(bits, 0, MAX_CPUS / 8);
	while (*s == ' ' || *s == '\n')
		s++;
	while (*s) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi;

		if (end == s)
			return -EINVAL;
		hi = lo;
		s = end;
		if (*s == '-') {
			hi = strtoul(s + 1, &end, 10);
			if (end == s + 1)
				return -EINVAL;
			s = end;
		}
		if (lo > hi || hi >= MAX_CPUS)
			return -EINVAL;
		for (unsigned long c = lo; c <= hi; c++)
			bits[c / 64] |= 1ULL << (c % 64);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n' && *s != ' ')
			return -EINVAL;
		while (*s == '\n' || *s == ' ')
			s++;
	}
	return 0;
}

bool selfmon_cpulist_subset(const char *sub, const char *super)
{
	uint64_t a[MAX_CPUS / 64], b[MAX_CPUS / 64];

	if (!sub || !super || cpulist_parse(sub, a) || cpulist_parse(super, b))
		return false;
	for (size_t i = 0; i < MAX_CPUS / 64; i++)
		if (a[i] & ~b[i])
			return false;
	return true;
}

int selfmon_affinity_cpulist(char *buf, size_t len)
{
	cpu_set_t set;
	size_t n = 0;
	int c = 0;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	while (c < CPU_SETSIZE) {
		int lo;

		if (!CPU_ISSET(c, &set)) {
			c++;
			continue;
		}
		lo = c;
		while (c + 1 < CPU_SETSIZE && CPU_ISSET(c + 1, &set))
			c++;
		n += (size_t)snprintf(buf + (n < len ? n : len - 1), n < len ? len - n : 1,
				      lo == c ? "%s%d" : "%s%d-%d", n ? "," : "", lo, c);
		c++;
	}
	return n < len ? 0 : -ENAMETOOLONG;
}

static bool is_generic(uint32_t type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW;
}

static size_t core_pmus(const struct pk_pmu_tree *tree, const struct pk_pmu *out[MAX_CORE])
{
	size_t n = 0;

	for (size_t i = 0; tree && i < pk_pmu_tree__nr_pmus(tree) && n < MAX_CORE; i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(tree, i);
		if (pk_pmu__is_core(p) && pk_pmu__find_format(p, "rdpmc"))
			out[n++] = p;
	}
	return n;
}

/* The core PMU an attr runs on: by its type, or the only one for a generic type. */
static const struct pk_pmu *attr_pmu(const struct perf_event_attr *a,
				     const struct pk_pmu *core[], size_t ncore)
{
	for (size_t k = 0; k < ncore; k++)
		if (pk_pmu__type(core[k]) == a->type)
			return core[k];
	return is_generic(a->type) && ncore ? core[0] : NULL;
}

static int place(const struct pk_pmu *p, const char *term, uint64_t v,
		 struct perf_event_attr *a)
{
	const struct pk_pmu_format *f = pk_pmu__find_format(p, term);
	uint64_t cfg[4] = { a->config, a->config1, a->config2, 0 };
	int rc;

	if (!f)
		return -ENOENT;
	rc = pk_pmu_format__place(f, v, cfg);
	if (rc)
		return rc;
	a->config = cfg[0];
	a->config1 = cfg[1];
	a->config2 = cfg[2];
	return 0;
}

int selfmon_arm64_prepare(struct perf_event_attr *attrs, size_t nr,
			  const struct pk_pmu_tree *tree, const char *affinity, bool want_long,
			  char *why, size_t len)
{
	const struct pk_pmu *core[MAX_CORE], *target = NULL;
	size_t ncore = core_pmus(tree, core);
	bool het = ncore > 1;

	if (!ncore) {
		snprintf(why, len, "no arm64 core PMU with an `rdpmc` format term in the PMU "
			 "tree (userspace access needs the PMUv3 driver of Linux 5.17 or later)");
		return SM_ARM64_NO_PMU;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct perf_event_attr *a = &attrs[i];
		const struct pk_pmu *p;
		const struct pk_pmu_format *ev;

		if (het && is_generic(a->type)) {
			snprintf(why, len, "event %zu has a generic type (%u) on a heterogeneous "
				 "system (%zu core PMUs): userspace access needs the PMU opened by "
				 "its own type, e.g. %s/cpu_cycles/, with the thread pinned to its "
				 "CPUs", i, a->type, ncore, pk_pmu__name(core[0]));
			return SM_ARM64_GENERIC;
		}
		p = attr_pmu(a, core, ncore);
		if (!p)
			continue;	/* software or another PMU: no user access */
		if (target && p != target) {
			snprintf(why, len, "the group spans core PMUs %s and %s",
				 pk_pmu__name(target), pk_pmu__name(p));
			return SM_ARM64_MIXED;
		}
		target = p;
		ev = pk_pmu__find_format(p, "event");
		if (a->type != PERF_TYPE_HARDWARE && a->type != PERF_TYPE_HW_CACHE && ev) {
			uint64_t cfg[4] = { a->config, a->config1, a->config2, 0 };
			if (pk_pmu_format__extract(ev, cfg) == ARMV8_CHAIN) {
				snprintf(why, len, "event %zu is the CHAIN event: chained counters "
					 "cannot be read from userspace", i);
				return SM_ARM64_CHAIN;
			}
		}
	}
	if (!target) {
		snprintf(why, len, "no event of the group is on an arm64 core PMU");
		return SM_ARM64_NO_PMU;
	}
	if (het) {
		char aff[1024];
		const char *cpus = pk_pmu__cpus(target);

		if (!affinity) {
			if (selfmon_affinity_cpulist(aff, sizeof(aff)))
				aff[0] = '\0';
			affinity = aff;
		}
		if (!cpus || !selfmon_cpulist_subset(affinity, cpus)) {
			snprintf(why, len, "the thread may run on CPUs %s but %s covers only %s: "
				 "pin it there first (sched_setaffinity, taskset -c %s)",
				 affinity, pk_pmu__name(target), cpus ? cpus : "(unknown)",
				 cpus ? cpus : "...");
			return SM_ARM64_NOT_PINNED;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		struct perf_event_attr *a = &attrs[i];

		if (attr_pmu(a, core, ncore) != target)
			continue;
		if (place(target, "rdpmc", 1, a)) {
			snprintf(why, len, "cannot set %s's rdpmc term", pk_pmu__name(target));
			return SM_ARM64_NO_PMU;
		}
		if (want_long)
			(void)place(target, "long", 1, a);	/* absent: 32-bit counters */
	}
	return SM_ARM64_OK;
}

void selfmon_arm64_drop_long(struct perf_event_attr *attrs, size_t nr,
			     const struct pk_pmu_tree *tree)
{
	const struct pk_pmu *core[MAX_CORE];
	size_t ncore = core_pmus(tree, core);

	for (size_t i = 0; i < nr; i++) {
		const struct pk_pmu *p = attr_pmu(&attrs[i], core, ncore);
		if (p)
			(void)place(p, "long", 0, &attrs[i]);
	}
}
