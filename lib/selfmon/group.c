/* SPDX-License-Identifier: MIT */
/*
 * group.c — using an open self-monitoring group: enable, disable, reset, and
 * the read that serves every value (pk_selfmon__read, regions, TopDown).
 *
 * One read, one source. On the user path every member is read through its
 * page; if any page says "not now" (index 0, times that cannot be extended,
 * a lock that will not settle) or the caller is not the thread that opened
 * the group, the whole read is redone with one read(2) of the leader — a
 * read never combines page values with kernel values. read(2) of a counter
 * that is not on the PMU does not touch the hardware, so this fallback does
 * not reset PERF_METRICS (topdown.txt's reason not to mix the two).
 *
 * Another thread reading a user-path group gets read(2) (its rdpmc would read
 * its own CPU), except on TopDown groups: there read(2) of the running group
 * would zero the registers the owner's regions rely on, so it gets -EPERM.
 *
 * TopDown groups on the user path: SLOTS and the metric events are not read
 * as "offset + counter" (the kernel folds PERF_METRICS into its counts on
 * its own schedule); their values come from the raw SLOTS and PERF_METRICS
 * registers since the last reset — SLOTS, and field/0xff * SLOTS per metric —
 * plus what was counted before the library's last scheduled reset (base).
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <pmukit/selfmon.h>

#include "selfmon/selfmon_int.h"

static double scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	if (!running)
		return 0.0;
	if (enabled == running)
		return (double)raw;
	return (double)raw * ((double)enabled / (double)running);
}

static void finish(const struct pk_selfmon *g, size_t i, uint64_t count, uint64_t enabled,
		   uint64_t running, struct pk_selfmon_value *v)
{
	v->raw = g->ev[i].base + count;
	v->enabled = enabled;
	v->running = running;
	v->scaled = scale(v->raw, enabled, running);
	v->id = g->ev[i].id;
}

static int read_syscall(struct pk_selfmon *g, struct pk_selfmon_value *vals, struct td_point *td)
{
	const uint64_t *b = g->rbuf;
	ssize_t n = read(g->ev[0].fd, g->rbuf, g->rbuf_len);
	uint64_t cnt;

	if (n < 0)
		return -errno;
	if ((size_t)n < 3 * sizeof(uint64_t))
		return -EIO;
	cnt = b[0];
	if (cnt > g->nr || (size_t)n < (3 + 2 * cnt) * sizeof(uint64_t))
		return -EIO;
	for (size_t i = 0; i < g->nr; i++)
		finish(g, i, 0, b[1], b[2], &vals[i]);
	for (size_t j = 0; j < cnt; j++) {
		uint64_t value = b[3 + 2 * j], id = b[4 + 2 * j];
		size_t i = j;

		if (g->ev[i].id != id) {	/* kernel order differs: find it */
			for (i = 0; i < g->nr && g->ev[i].id != id; i++)
				;
			if (i == g->nr)
				continue;
		}
		finish(g, i, value, b[1], b[2], &vals[i]);
	}
	if (td && g->topdown) {
		memset(td, 0, sizeof(*td));
		td->source = TD_SRC_KERNEL;
		td->epoch = g->td_epoch;
		td->slots = vals[0].raw;
		for (size_t i = 1; i < g->nr; i++) {
			int r = g->ev[i].td_role;
			if (r >= 0) {
				td->count[r] = vals[i].raw;
				td->have |= 1u << r;
			}
		}
	}
	g->st.syscall_reads++;
	g->last_enabled = vals[0].enabled;
	return 0;
}

/* 0 when the pages served the read, else a pk_userpage_status. */
static int read_user(struct pk_selfmon *g, struct pk_selfmon_value *vals, struct td_point *td)
{
	struct pk_topdown_sample s = { 0, 0 };
	int st;

	for (size_t i = 0; i < g->nr; i++) {
		struct pk_userpage_value pv;

		st = pk_userpage__read(g->ev[i].page, &g->ops, g->max_retries, &pv);
		if (st != PK_USERPAGE_OK)
			return st;
		g->st.retries += pv.retries;
		finish(g, i, pv.count, pv.enabled, pv.running, &vals[i]);
	}
	if (g->topdown) {
		unsigned retries = 0;

		st = selfmon_topdown_pair(g->ev[0].page, g->ev[g->td_metric_ev].page, &g->ops,
					  g->max_retries, &s, &retries);
		g->st.retries += retries;
		if (st != PK_USERPAGE_OK)
			return st;
		for (size_t i = 0; i < g->nr; i++) {
			int r = g->ev[i].td_role;
			uint64_t c;

			if (r == SM_TD_NONE)
				continue;
			c = r == SM_TD_SLOTS ? s.slots : pk_topdown__field(s.metrics, (unsigned)r) *
								 s.slots / 0xff;
			finish(g, i, c, vals[i].enabled, vals[i].running, &vals[i]);
		}
		if (td) {
			memset(td, 0, sizeof(*td));
			td->source = TD_SRC_REG;
			td->epoch = g->td_epoch;
			td->reg = s;
		}
	}
	g->st.user_reads++;
	g->last_enabled = vals[0].enabled;
	return 0;
}

int selfmon_read_all(struct pk_selfmon *g, struct pk_selfmon_value *vals, struct td_point *td)
{
	if (g->path == PK_SELFMON_PATH_USER) {
		int st = PK_USERPAGE_BUSY;

		if (g->owner == selfmon_thread_anchor()) {
			st = read_user(g, vals, td);
			if (st == PK_USERPAGE_OK)
				return 0;
		} else if (g->topdown) {
			/* read(2) of a running TopDown group zeroes SLOTS and
			 * PERF_METRICS under the owner's feet: refuse */
			return -EPERM;
		}
		g->st.fallbacks++;
		if (st == PK_USERPAGE_INDEX0)
			g->st.fallback_index0++;
	}
	return read_syscall(g, vals, td);
}

int pk_selfmon__read(struct pk_selfmon *g, struct pk_selfmon_value *vals, size_t nr)
{
	int rc;

	if (!g || (!vals && nr))
		return -EINVAL;
	if (nr >= g->nr)
		return selfmon_read_all(g, vals, NULL);
	rc = selfmon_read_all(g, g->scratch, NULL);
	if (!rc && nr)
		memcpy(vals, g->scratch, nr * sizeof(*vals));
	return rc;
}

static int group_ioctl(struct pk_selfmon *g, unsigned long req)
{
	if (!g)
		return -EINVAL;
	if (ioctl(g->ev[0].fd, req, PERF_IOC_FLAG_GROUP) < 0)
		return -errno;
	return 0;
}

int pk_selfmon__enable(struct pk_selfmon *g)
{
	return group_ioctl(g, PERF_EVENT_IOC_ENABLE);
}

int pk_selfmon__disable(struct pk_selfmon *g)
{
	return group_ioctl(g, PERF_EVENT_IOC_DISABLE);
}

/*
 * arm64, counters narrower than 64 bits read through the page, the group on the PMU: after
 * PERF_EVENT_IOC_RESET the kernel's prev_count holds the counter's raw value instead of
 * the sign-extended start value, and the page's offset is computed from it, so page reads
 * come out 2^32 low until the event is next scheduled in (Linux 6.1's arm_pmu, measured on
 * the emulated PMU of make check-arm64). Disabling and enabling around the reset programs
 * the counter afresh and rewrites the page.
 */
static bool reset_reprograms(const struct pk_selfmon *g)
{
#if defined(__aarch64__)
	if (!g || g->path != PK_SELFMON_PATH_USER)
		return false;
	for (size_t i = 0; i < g->nr; i++) {
		const volatile struct perf_event_mmap_page *pg = g->ev[i].page;
		if (pg && pg->index && pg->pmc_width < 64)
			return true;
	}
#else
	(void)g;
#endif
	return false;
}

int pk_selfmon__reset(struct pk_selfmon *g)
{
	bool again = reset_reprograms(g);
	int rc = again ? group_ioctl(g, PERF_EVENT_IOC_DISABLE) : 0;

	if (!rc)
		rc = group_ioctl(g, PERF_EVENT_IOC_RESET);
	if (again) {
		int rc2 = group_ioctl(g, PERF_EVENT_IOC_ENABLE);
		if (!rc)
			rc = rc2;
	}
	if (rc)
		return rc;
	for (size_t i = 0; i < g->nr; i++)
		g->ev[i].base = 0;
	g->epoch++;
	g->td_epoch++;
	g->td_reset_enabled = g->last_enabled;
	return 0;
}

/*
 * Reset the counters but keep the totals: read everything, make it the base,
 * then PERF_EVENT_IOC_RESET. What counts between the read and the ioctl is
 * lost (a few hundred ns of events).
 */
int pk_selfmon__topdown_reset(struct pk_selfmon *g)
{
	int rc;

	if (!g)
		return -EINVAL;
	rc = selfmon_read_all(g, g->scratch, NULL);
	if (rc)
		return rc;
	rc = group_ioctl(g, PERF_EVENT_IOC_RESET);
	if (rc)
		return rc;
	for (size_t i = 0; i < g->nr; i++)
		g->ev[i].base = g->scratch[i].raw;
	g->td_epoch++;
	g->td_reset_enabled = g->last_enabled;
	g->st.topdown_resets++;
	return 0;
}

int pk_selfmon__topdown_sample(struct pk_selfmon *g, struct pk_topdown_sample *s)
{
	unsigned retries = 0;
	int st;

	if (!g || !s)
		return -EINVAL;
	if (!g->topdown || g->path != PK_SELFMON_PATH_USER)
		return -ENOTSUP;
	if (g->owner != selfmon_thread_anchor())
		return -EPERM;
	st = selfmon_topdown_pair(g->ev[0].page, g->ev[g->td_metric_ev].page, &g->ops,
				  g->max_retries, s, &retries);
	g->st.retries += retries;
	if (st == PK_USERPAGE_OK)
		return 0;
	return st == PK_USERPAGE_INDEX0 || st == PK_USERPAGE_BUSY ? -EAGAIN : -ENOTSUP;
}

size_t pk_selfmon__nr(const struct pk_selfmon *g)
{
	return g ? g->nr : 0;
}

const char *pk_selfmon__name(const struct pk_selfmon *g, size_t idx)
{
	return g && idx < g->nr ? g->ev[idx].name : NULL;
}

int pk_selfmon__fd(const struct pk_selfmon *g, size_t idx)
{
	return g && idx < g->nr ? g->ev[idx].fd : -1;
}

const struct perf_event_attr *pk_selfmon__attr(const struct pk_selfmon *g, size_t idx)
{
	return g && idx < g->nr ? &g->ev[idx].attr : NULL;
}

enum pk_selfmon_path pk_selfmon__path(const struct pk_selfmon *g)
{
	return g ? g->path : PK_SELFMON_PATH_SYSCALL;
}

const char *pk_selfmon__path_reason(const struct pk_selfmon *g)
{
	return g ? g->reason : "";
}

void pk_selfmon__stats(const struct pk_selfmon *g, struct pk_selfmon_stats *st)
{
	if (g && st)
		*st = g->st;
}

bool pk_selfmon__has_topdown(const struct pk_selfmon *g)
{
	return g && g->topdown;
}

bool pk_selfmon__topdown_level2(const struct pk_selfmon *g)
{
	return g && g->topdown && g->level2;
}
