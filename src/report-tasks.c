/* SPDX-License-Identifier: MIT */
/*
 * report-tasks.c — perf report's views of a whole recording that are not
 * profiles: --stats (how many records of each type, and samples per event,
 * as perf 6.1's stats_print) and --tasks / --mmaps (the thread tree with
 * pid, tid, ppid and comm, and each process's maps, as perf 6.1's
 * tasks_print); the record type names -D prints too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/perf_event.h>

#include <pmukit/symbol.h>

#include "dump.h"

static const char *const kernel_names[] = {
	[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST", [PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT", [PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE", [PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ", [PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE", [PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL", [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP", [PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
};

/* perf 6.1's user records, from 64 (it knows none past FINISHED_INIT) */
static const char *const user_names[] = {
	"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX",
	"AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP", "STAT_CONFIG",
	"STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE", "COMPRESSED",
	"FINISHED_INIT",
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

const char *dump__type_name(uint32_t t)
{
	if (t < NR(kernel_names) && kernel_names[t])
		return kernel_names[t];
	if (t >= 64 && t - 64 < NR(user_names))
		return user_names[t - 64];
	return "UNKNOWN";
}

/* ---- --stats ------------------------------------------------------------------------ */

static int stats_grow(struct report_stats *st, size_t n)
{
	if (n <= st->nr)
		return 0;
	uint64_t *a = realloc(st->nr_samples, n * sizeof(*a));
	if (!a)
		return -ENOMEM;
	st->nr_samples = a;
	uint64_t *b = realloc(st->nr_lost, n * sizeof(*b));
	if (!b)
		return -ENOMEM;
	st->nr_lost = b;
	memset(a + st->nr, 0, (n - st->nr) * sizeof(*a));
	memset(b + st->nr, 0, (n - st->nr) * sizeof(*b));
	st->nr = n;
	return 0;
}

/* one delivery of the sample last added */
static int delivered(struct report_stats *st, int attr, uint64_t id, uint64_t period)
{
	if (st->nr_delivered == st->cap_delivered) {
		size_t cap = st->cap_delivered ? 2 * st->cap_delivered : 8;
		void *p = realloc(st->delivered, cap * sizeof(*st->delivered));
		if (!p)
			return -ENOMEM;
		st->delivered = p;
		st->cap_delivered = cap;
	}
	st->delivered[st->nr_delivered++] = (struct report_delivery){ attr, id, period };
	return 0;
}

/* perf's deliver_sample_value: the delta of v since its id's last value; -1: unknown id */
static int deliver_value(struct report_stats *st, const struct pk_session *s,
			 const struct pk_sample_read_value *v)
{
	int ai = pk_session__attr_of_id(s, v->id);
	size_t i;
	for (i = 0; i < st->nr_last; i++)
		if (st->last[i].id == v->id)
			break;
	if (i == st->nr_last) {
		if (st->nr_last == st->cap_last) {
			size_t cap = st->cap_last ? 2 * st->cap_last : 16;
			void *p = realloc(st->last, cap * sizeof(*st->last));
			if (!p)
				return -ENOMEM;
			st->last = p;
			st->cap_last = cap;
		}
		st->last[st->nr_last].id = v->id;
		st->last[st->nr_last++].value = 0;
	}
	uint64_t delta = v->value - st->last[i].value;
	st->last[i].value = v->value;
	if (ai < 0 || !delta || (size_t)ai >= st->nr)
		return 0;
	st->nr_samples[ai]++;
	return delivered(st, ai, v->id, delta);
}

int report_stats__add(struct report_stats *st, const struct pk_session *s,
		      const struct pk_data_event *ev)
{
	int ai = ev->attr;
	st->nr_delivered = 0;
	if (ev->type == PERF_RECORD_LOST_SAMPLES)
		ai = ev->has_sample ? pk_session__attr_of_id(s, ev->sample.id) : -1;
	else if (ev->type != PERF_RECORD_SAMPLE)
		return 0;
	if (ai < 0)
		return 0;
	if (stats_grow(st, pk_session__nr_attrs(s)))
		return -ENOMEM;
	if ((size_t)ai >= st->nr)
		return 0;
	if (ev->type == PERF_RECORD_LOST_SAMPLES) {
		st->nr_lost[ai] += ev->u.lost_samples.lost;
		return 0;
	}
	const struct pk_sample_read *rd = &ev->sample.read;
	if (!(ev->sample.sample_type & PERF_SAMPLE_READ)) {
		bool br = st->branch_mode && (ev->sample.sample_type & PERF_SAMPLE_BRANCH_STACK);
		st->nr_samples[ai] += br ? ev->sample.branch.nr : 1;
		return delivered(st, ai, ev->sample.id, ev->sample.period);
	}
	size_t n = rd->read_format & PERF_FORMAT_GROUP ? rd->nr : 1;
	for (size_t i = 0; i < n; i++) {
		struct pk_sample_read_value v = pk_sample_read__value(rd, i);
		if (deliver_value(st, s, &v))
			return -ENOMEM;
	}
	return 0;
}

void report_stats__print(struct report_stats *st, struct pk_session *s, FILE *f)
{
	uint64_t nr[128], total = 0;
	for (unsigned t = 0; t < 128; t++)
		total += nr[t] = pk_session__nr_records(s, t);
	fprintf(f, "\nAggregated stats:%s\n",
		pk_session__has_feat(s, PK_FEAT_AUXTRACE)
			? " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)"
			: "");
	fprintf(f, "%16s events: %10d\n", "TOTAL", (int)total);
	for (unsigned t = 1; t < 128; t++) {
		const char *name = dump__type_name(t);
		if (!nr[t] || !strcmp(name, "UNKNOWN"))
			continue;
		fprintf(f, "%16s events: %10d  (%4.1f%%)\n", name, (int)nr[t],
			100.0 * (double)nr[t] / (double)total);
	}
	for (size_t i = 0; i < pk_session__nr_attrs(s); i++) {
		uint64_t ns = i < st->nr ? st->nr_samples[i] : 0, nl = i < st->nr ? st->nr_lost[i] : 0;
		if (!ns && !nl)
			continue;
		fprintf(f, "%s stats:\n", pk_session__event_name(s, (int)i));
		if (ns)
			fprintf(f, "%16s events: %10d\n", "SAMPLE", (int)ns);
		if (nl)
			fprintf(f, "%16s events: %10d\n", "LOST_SAMPLES", (int)nl);
	}
}

void report_stats__free(struct report_stats *st)
{
	free(st->nr_samples);
	free(st->nr_lost);
	free(st->last);
	free(st->delivered);
	memset(st, 0, sizeof(*st));
}

/* ---- --tasks, --mmaps --------------------------------------------------------------- */

struct task {
	const struct pk_thread *t;	/* NULL: perf's swapper, when the file has no tid 0 */
	int32_t pid, tid, ppid;
	int parent;			/* index of the parent task, -1: a root */
	bool listed;
};

/* perf 6.1's threads table order: 256 buckets by tid, each sorted by tid */
static int by_bucket(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	uint32_t bx = (uint32_t)x->tid % 256, by = (uint32_t)y->tid % 256;
	if (bx != by)
		return bx < by ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int find_task(const struct task *v, size_t n, int32_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].tid == tid)
			return (int)i;
	return -1;
}

static void print_maps(struct pk_session *s, const struct pk_thread *t, int indent, FILE *f)
{
	const struct pk_map *m;
	for (size_t i = 0; t && (m = pk_session__thread_map_at(s, t, i)); i++)
		fprintf(f, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
			indent, "", m->start, m->end, m->prot & PROT_READ ? 'r' : '-',
			m->prot & PROT_WRITE ? 'w' : '-', m->prot & PROT_EXEC ? 'x' : '-',
			m->flags & MAP_SHARED ? 's' : 'p', m->pgoff, m->ino,
			m->dso ? pk_dso__name(m->dso) : "");
}

/* perf 6.1's task__print_level: the task, its maps, then its children */
static void print_task(struct pk_session *s, const struct task *v, const size_t *linked,
		       size_t n, size_t i, int level, bool mmaps, FILE *f)
{
	const struct task *k = &v[i];
	int indent = fprintf(f, "  %8d %8d %8d |%*s", k->pid, k->tid, k->ppid, level, "");
	fprintf(f, "%s\n", k->t ? k->t->comm : "swapper");
	if (mmaps)
		print_maps(s, k->t, indent, f);
	for (size_t c = 0; c < n; c++)
		if (v[linked[c]].parent == (int)i)
			print_task(s, v, linked, n, linked[c], level + 1, mmaps, f);
}

static int report_tasks__print(struct pk_session *s, bool mmaps, FILE *f)
{
	size_t nt = pk_session__nr_threads(s), n = 0;
	struct task *v = calloc(nt + 1, sizeof(*v));
	if (!v)
		return 255;
	bool have_swapper = false;
	for (uint32_t i = 0; i < nt; i++) {
		const struct pk_thread *t = pk_session__thread_at(s, i);
		if (pk_session__find_thread(s, t->tid) != t)
			continue;	/* replaced by a later thread of its tid (perf removed it) */
		if (!mmaps && !t->task_seen)
			continue;	/* met only by an MMAP record: perf's --tasks reads none */
		v[n++] = (struct task){ .t = t, .pid = t->pid, .tid = t->tid, .ppid = t->ppid };
		have_swapper |= t->tid == 0;
	}
	if (!have_swapper)
		v[n++] = (struct task){ .pid = 0, .tid = 0, .ppid = -1 };
	qsort(v, n, sizeof(*v), by_bucket);
	/* perf links each task up to its root; children keep the order they were linked in */
	/* roots, and children in the order they were linked */
	size_t *order = calloc(2 * n, sizeof(*order)), nroots = 0, nlinked = 0;
	if (!order) {
		free(v);
		return 255;
	}
	size_t *linked = order + n;
	for (size_t i = 0; i < n; i++)
		v[i].parent = -2;	/* not linked yet */
	for (size_t i = 0; i < n; i++) {
		size_t k = i;
		while (v[k].parent == -2) {
			int p = v[k].ppid == -1 ? -1 : find_task(v, n, v[k].ppid);
			v[k].parent = p;
			if (p < 0) {
				order[nroots++] = k;
				break;
			}
			linked[nlinked++] = k;
			k = (size_t)p;
		}
	}
	fprintf(f, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	for (size_t i = 0; i < nroots; i++)
		print_task(s, v, linked, nlinked, order[i], 0, mmaps, f);
	free(order);
	free(v);
	return fflush(f) ? 255 : 0;
}

/* ---- the modes together ------------------------------------------------------------- */

int report_modes__run(struct pk_session *s, const char *input, const struct report_modes *m,
		      FILE *f)
{
	struct report_stats st = { .branch_mode = !m->stats &&
			pk_session__has_feat(s, PK_FEAT_BRANCH_STACK) };
	struct dump_raw d = { .f = f, .s = s, .name = dump_raw__file_name(s, input),
			      .report = true };
	struct pk_error err = { 0 };
	const struct pk_data_event *ev;
	int rc;
	while ((rc = pk_session__next(s, &ev, &err)) > 0) {
		if (m->dump)
			dump_raw__event(&d, ev);
		if (report_stats__add(&st, s, ev)) {
			rc = -ENOMEM;
			break;
		}
		for (size_t i = 0; m->dump && i < st.nr_delivered; i++)
			dump_raw__resolve(&d, ev);
	}
	if (rc < 0) {
		char buf[1024];
		fflush(f);
		fprintf(stderr, "pmukit report: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		report_stats__free(&st);
		return 255;
	}
	if (m->tasks) {
		report_stats__free(&st);
		return report_tasks__print(s, m->mmaps, f);
	}
	report_stats__print(&st, s, f);
	report_stats__free(&st);
	return fflush(f) ? 255 : 0;
}
