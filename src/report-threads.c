/* SPDX-License-Identifier: MIT */
/*
 * report-threads.c — perf report -T / --threads: the counts that
 * PERF_RECORD_READ records carry (perf record -s, inherit_stat: each thread's
 * value at its exit), summed per thread and event and printed after the
 * profile as perf 6.1's perf_read_values_display prints them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "dump.h"
#include "util/grow.h"

struct read_values {
	struct {
		int32_t pid, tid;
	} *threads;
	size_t nr_threads, cap_threads;
	int *counters;		/* attr index of each column, in order of first sight */
	size_t nr_counters, cap_counters;
	uint64_t *value;	/* [thread * cap_counters_fixed + counter] */
	size_t cap_value;
	bool failed;
};

/* value cells are kept as a dense nr_threads x MAX_COUNTERS grid */
#define MAX_COUNTERS 256

static int add(struct read_values *v, int32_t pid, int32_t tid, int attr, uint64_t value)
{
	size_t t, c;
	for (t = 0; t < v->nr_threads; t++)
		if (v->threads[t].pid == pid && v->threads[t].tid == tid)
			break;
	if (t == v->nr_threads) {
		size_t old = v->cap_value;
		if (PK_GROW(v->threads, v->cap_threads, t + 1) ||
		    PK_GROW(v->value, v->cap_value, (t + 1) * MAX_COUNTERS))
			return -1;
		memset(v->value + old, 0, (v->cap_value - old) * sizeof(*v->value));
		v->threads[t].pid = pid;
		v->threads[t].tid = tid;
		v->nr_threads++;
	}
	for (c = 0; c < v->nr_counters; c++)
		if (v->counters[c] == attr)
			break;
	if (c == v->nr_counters) {
		if (c == MAX_COUNTERS)
			return -1;
		if (PK_GROW(v->counters, v->cap_counters, c + 1))
			return -1;
		v->counters[v->nr_counters++] = attr;
	}
	v->value[t * MAX_COUNTERS + c] += value;
	return 0;
}

void read_values__on_event(void *ctx, struct pk_session *s, const struct pk_data_event *ev)
{
	struct read_values **pv = ctx;
	if (ev->type != PERF_RECORD_READ)
		return;
	if (!*pv && !(*pv = calloc(1, sizeof(**pv))))
		return;
	struct read_values *v = *pv;
	int attr = ev->attr >= 0 ? ev->attr : 0;
	if (!pk_session__nr_attrs(s))
		return;
	/* perf's event->read.value: the first u64 of the values (nr for a group read) */
	const struct pk_sample_read *rd = &ev->u.read.values;
	uint64_t value = rd->read_format & PERF_FORMAT_GROUP ? rd->nr : rd->one.value;
	if (add(v, ev->u.read.pid, ev->u.read.tid, attr, value))
		v->failed = true;
}

static int width_u64(uint64_t x)
{
	return snprintf(NULL, 0, "%" PRIu64, x);
}

void read_values__free(struct read_values *v)
{
	if (!v)
		return;
	free(v->threads);
	free(v->counters);
	free(v->value);
	free(v);
}

void read_values__print(const struct read_values *pv, struct pk_session *s, FILE *f)
{
	const struct read_values empty = { 0 }, *v = pv ? pv : &empty;
	int pidw = 3, tidw = 3, cw[MAX_COUNTERS];
	for (size_t c = 0; c < v->nr_counters; c++)
		cw[c] = (int)strlen(pk_session__event_name(s, v->counters[c]));
	for (size_t t = 0; t < v->nr_threads; t++) {
		int w = snprintf(NULL, 0, "%d", v->threads[t].pid);
		pidw = w > pidw ? w : pidw;
		w = snprintf(NULL, 0, "%d", v->threads[t].tid);
		tidw = w > tidw ? w : tidw;
		for (size_t c = 0; c < v->nr_counters; c++) {
			w = width_u64(v->value[t * MAX_COUNTERS + c]);
			cw[c] = w > cw[c] ? w : cw[c];
		}
	}
	fprintf(f, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (size_t c = 0; c < v->nr_counters; c++)
		fprintf(f, "  %*s", cw[c], pk_session__event_name(s, v->counters[c]));
	fprintf(f, "\n");
	for (size_t t = 0; t < v->nr_threads; t++) {
		fprintf(f, "  %*d  %*d", pidw, v->threads[t].pid, tidw, v->threads[t].tid);
		for (size_t c = 0; c < v->nr_counters; c++)
			fprintf(f, "  %*" PRIu64, cw[c], v->value[t * MAX_COUNTERS + c]);
		fprintf(f, "\n");
	}
}
