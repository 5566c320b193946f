/* SPDX-License-Identifier: MIT */
/*
 * record/stats.c — reading the recorded stream as it goes by
 * (pk_record_stats, pmukit/record.h): samples and lost records counted, and
 * the DSOs samples fell in, for the BUILD_ID feature. Each process's maps
 * follow MMAP/MMAP2 (a new map replaces what it overlaps), FORK (a new
 * process starts with its parent's maps), COMM with COMM_EXEC (exec: none);
 * a sample's IP, and the user entries of its callchain, are looked up in
 * its process's maps; kernel IPs count for "[kernel.kallsyms]".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/record.h>

#include "util/bsearch.h"
#include "util/grow.h"
#include "util/hash.h"

struct st_map {
	uint64_t start, end;
	uint32_t dso;
};

struct st_proc {
	int32_t pid;		/* 0 slot unused (pid 0 is kept as INT32_MIN) */
	struct st_map *maps;	/* sorted by start, not overlapping */
	size_t nr, cap;
};

struct st_dso {
	char *name;
	uint16_t misc;
	bool hit;
};

struct st_ev {
	uint64_t id;
	uint64_t sample_type, read_format;
};

struct pk_record_stats {
	uint64_t samples, lost, lost_records;
	uint64_t sample_type, read_format;	/* of events sampled without an identifier */
	bool identifier;			/* samples start with their id */
	struct st_ev *evs;			/* by id, sorted */
	size_t nr_evs;
	struct st_proc *procs;			/* open addressing by pid */
	size_t procs_cap, nr_procs;
	struct st_dso *dsos;
	size_t nr_dsos, dsos_cap;
	uint32_t *dso_index;			/* open addressing by name hash: dso number + 1 */
	size_t dso_index_cap;
	uint32_t kernel_dso;			/* +1; 0 none yet */
	uint64_t *scratch;			/* a misaligned record, copied (64 KiB) */
};

#define PID_ZERO INT32_MIN

static int cmp_ev(const void *a, const void *b)
{
	const struct st_ev *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

int pk_record_stats__new(struct pk_record_stats **out, const struct pk_record *r,
			 uint64_t sample_type)
{
	struct pk_record_stats *s = calloc(1, sizeof(*s));
	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->sample_type = sample_type;
	size_t n = pk_record__nr_events(r), cap_evs = 0;
	for (size_t e = 0; e < n; e++) {
		struct pk_record_event ev;
		pk_record__event(r, e, &ev);
		if (!e) {
			s->sample_type = ev.attr->sample_type;
			s->read_format = ev.attr->read_format;
		}
		if (ev.attr->sample_type & PERF_SAMPLE_IDENTIFIER)
			s->identifier = true;
		if (ev.nr_ids > SIZE_MAX - 1 - s->nr_evs ||
		    PK_GROW(s->evs, cap_evs, s->nr_evs + ev.nr_ids + 1)) {
			pk_record_stats__free(s);
			return -ENOMEM;
		}
		for (size_t k = 0; k < ev.nr_ids; k++)
			s->evs[s->nr_evs++] = (struct st_ev){ .id = ev.ids[k],
							      .sample_type = ev.attr->sample_type,
							      .read_format = ev.attr->read_format };
	}
	if (s->evs)
		qsort(s->evs, s->nr_evs, sizeof(*s->evs), cmp_ev);
	*out = s;
	return 0;
}

void pk_record_stats__free(struct pk_record_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->procs_cap; i++)
		free(s->procs[i].maps);
	free(s->procs);
	for (size_t i = 0; i < s->nr_dsos; i++)
		free(s->dsos[i].name);
	free(s->dsos);
	free(s->dso_index);
	free(s->evs);
	free(s->scratch);
	free(s);
}

uint64_t pk_record_stats__samples(const struct pk_record_stats *s)
{
	return s->samples;
}

uint64_t pk_record_stats__lost(const struct pk_record_stats *s)
{
	return s->lost;
}

uint64_t pk_record_stats__lost_records(const struct pk_record_stats *s)
{
	return s->lost_records;
}

/* ---- processes ---- */

static size_t pid_slot(const struct pk_record_stats *s, int32_t key)
{
	return (size_t)(((uint32_t)key * 2654435761u) & (uint32_t)(s->procs_cap - 1));
}

static struct st_proc *proc_find(struct pk_record_stats *s, int32_t pid)
{
	int32_t key = pid ? pid : PID_ZERO;
	if (!s->procs_cap)
		return NULL;
	for (size_t i = pid_slot(s, key);; i = (i + 1) & (s->procs_cap - 1)) {
		if (s->procs[i].pid == key)
			return &s->procs[i];
		if (!s->procs[i].pid)
			return NULL;
	}
}

static struct st_proc *proc_get(struct pk_record_stats *s, int32_t pid)
{
	struct st_proc *p = proc_find(s, pid);
	if (p)
		return p;
	if ((s->nr_procs + 1) * 2 > s->procs_cap) {
		size_t cap = s->procs_cap ? s->procs_cap * 2 : 64;
		struct st_proc *old = s->procs;
		size_t old_cap = s->procs_cap;
		if (!(s->procs = calloc(cap, sizeof(*s->procs)))) {
			s->procs = old;
			return NULL;
		}
		s->procs_cap = cap;
		for (size_t i = 0; i < old_cap; i++) {
			if (!old[i].pid)
				continue;
			size_t j = pid_slot(s, old[i].pid);
			while (s->procs[j].pid)
				j = (j + 1) & (cap - 1);
			s->procs[j] = old[i];
		}
		free(old);
	}
	int32_t key = pid ? pid : PID_ZERO;
	size_t j = pid_slot(s, key);
	while (s->procs[j].pid)
		j = (j + 1) & (s->procs_cap - 1);
	s->procs[j] = (struct st_proc){ .pid = key };
	s->nr_procs++;
	return &s->procs[j];
}

/* ---- DSOs ---- */

static uint32_t dso_get(struct pk_record_stats *s, const char *name, uint16_t misc)
{
	uint32_t h = pk_hash__casefold(name);
	if (s->dso_index_cap) {
		for (size_t i = h & (s->dso_index_cap - 1);; i = (i + 1) & (s->dso_index_cap - 1)) {
			uint32_t v = s->dso_index[i];
			if (!v)
				break;
			if (!strcmp(s->dsos[v - 1].name, name))
				return v;
		}
	}
	if ((s->nr_dsos + 1) * 2 > s->dso_index_cap) {
		size_t cap = s->dso_index_cap ? s->dso_index_cap * 2 : 64;
		uint32_t *ix = calloc(cap, sizeof(*ix));
		if (!ix)
			return 0;
		for (size_t d = 0; d < s->nr_dsos; d++) {
			size_t i = pk_hash__casefold(s->dsos[d].name) & (cap - 1);
			while (ix[i])
				i = (i + 1) & (cap - 1);
			ix[i] = (uint32_t)d + 1;
		}
		free(s->dso_index);
		s->dso_index = ix;
		s->dso_index_cap = cap;
	}
	if (PK_GROW(s->dsos, s->dsos_cap, s->nr_dsos + 1))
		return 0;
	char *copy = strdup(name);
	if (!copy)
		return 0;
	s->dsos[s->nr_dsos] = (struct st_dso){ .name = copy, .misc = misc };
	size_t i = h & (s->dso_index_cap - 1);
	while (s->dso_index[i])
		i = (i + 1) & (s->dso_index_cap - 1);
	s->dso_index[i] = (uint32_t)++s->nr_dsos;
	return (uint32_t)s->nr_dsos;
}

/* ---- maps ---- */

static int map_insert(struct st_proc *p, uint64_t start, uint64_t len, uint32_t dso)
{
	uint64_t end = start + len;
	if (end <= start)
		end = UINT64_MAX;
	/* cut what the new map overlaps */
	size_t w = 0;
	struct st_map tail = { 0 };
	bool have_tail = false;
	for (size_t i = 0; i < p->nr; i++) {
		struct st_map m = p->maps[i];
		if (m.end <= start || m.start >= end) {
			p->maps[w++] = m;
			continue;
		}
		if (m.start < start)
			p->maps[w++] = (struct st_map){ m.start, start, m.dso };
		if (m.end > end) {
			tail = (struct st_map){ end, m.end, m.dso };
			have_tail = true;
		}
	}
	p->nr = w;
	if (PK_GROW(p->maps, p->cap, p->nr + 2))
		return -ENOMEM;
	size_t at = 0;
	while (at < p->nr && p->maps[at].start < start)
		at++;
	size_t add = have_tail ? 2 : 1;
	memmove(p->maps + at + add, p->maps + at, (p->nr - at) * sizeof(*p->maps));
	p->maps[at] = (struct st_map){ start, end, dso };
	if (have_tail)
		p->maps[at + 1] = tail;
	p->nr += add;
	return 0;
}

static bool st_map_ends_by(const void *elem, const void *ip)
{
	return ((const struct st_map *)elem)->end <= *(const uint64_t *)ip;
}

/* The maps are sorted and do not overlap: the first ending after ip holds it, or none does. */
static const struct st_map *map_find(const struct st_proc *p, uint64_t ip)
{
	size_t i = pk_bsearch(&ip, p->maps, p->nr, sizeof(*p->maps), st_map_ends_by);
	return i < p->nr && p->maps[i].start <= ip ? &p->maps[i] : NULL;
}

static void hit(struct pk_record_stats *s, int32_t pid, uint16_t cpumode, uint64_t ip,
		const struct st_proc **last)
{
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		if (!s->kernel_dso)
			s->kernel_dso = dso_get(s, "[kernel.kallsyms]", PERF_RECORD_MISC_KERNEL);
		if (s->kernel_dso)
			s->dsos[s->kernel_dso - 1].hit = true;
		return;
	}
	if (cpumode != PERF_RECORD_MISC_USER)
		return;
	const struct st_proc *p = *last && (*last)->pid == (pid ? pid : PID_ZERO) ? *last
										 : proc_find(s, pid);
	*last = p;
	const struct st_map *m = p ? map_find(p, ip) : NULL;
	if (m && m->dso)
		s->dsos[m->dso - 1].hit = true;
}

/* ---- records ---- */

static const struct st_ev *ev_of(const struct pk_record_stats *s, uint64_t id)
{
	struct st_ev key = { .id = id };
	return s->nr_evs ? bsearch(&key, s->evs, s->nr_evs, sizeof(key), cmp_ev) : NULL;
}

/* Words of a PERF_SAMPLE_READ value at p (n words left), or 0 when it does not fit. */
static size_t read_words(uint64_t rf, const uint64_t *p, size_t n)
{
	size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	if (!(rf & PERF_FORMAT_GROUP))
		return per + times <= n ? per + times : 0;
	if (!n || p[0] > 4096)
		return 0;
	size_t w = 1 + times + (size_t)p[0] * per;
	return w <= n ? w : 0;
}

static void sample(struct pk_record_stats *s, const struct perf_event_header *h)
{
	const uint64_t *p = (const uint64_t *)(h + 1);
	size_t n = (h->size - sizeof(*h)) / 8;
	uint64_t st = s->sample_type, rf = s->read_format;
	s->samples++;
	if (s->identifier) {
		if (!n)
			return;
		const struct st_ev *e = ev_of(s, p[0]);
		if (!e)
			return;
		st = e->sample_type;
		rf = e->read_format;
	}
	size_t i = 0;
	uint64_t ip = 0;
	int32_t pid = -1;
#define NEED(k) do { if (i + (k) > n) return; } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER)
		i++;
	if (st & PERF_SAMPLE_IP) {
		NEED(1);
		ip = p[i++];
	}
	if (st & PERF_SAMPLE_TID) {
		NEED(1);
		pid = (int32_t)(uint32_t)p[i++];
	}
	i += !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR) + !!(st & PERF_SAMPLE_ID) +
	     !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_PERIOD);
	uint16_t cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct st_proc *last = NULL;
	if (st & PERF_SAMPLE_IP)
		hit(s, pid, cpumode, ip, &last);
	if (!(st & PERF_SAMPLE_CALLCHAIN))
		return;
	if (st & PERF_SAMPLE_READ) {
		NEED(1);
		size_t w = read_words(rf, p + i, n - i);
		if (!w)
			return;
		i += w;
	}
	NEED(1);
	uint64_t nr = p[i++];
	if (nr > n - i)
		return;
	uint16_t mode = cpumode;
	for (uint64_t k = 0; k < nr; k++) {
		uint64_t a = p[i + k];
		if (a >= (uint64_t)PERF_CONTEXT_MAX) {
			mode = a == (uint64_t)PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL
			       : a == (uint64_t)PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER
								  : 0;
			continue;
		}
		if (k && a)	/* the first entry is the sample's IP again */
			hit(s, pid, mode, a - (mode == PERF_RECORD_MISC_USER), &last);
	}
#undef NEED
}

static int mmap_rec(struct pk_record_stats *s, const struct perf_event_header *h)
{
	const unsigned char *b = (const unsigned char *)(h + 1);
	size_t n = h->size - sizeof(*h), fixed = h->type == PERF_RECORD_MMAP ? 32 : 64;
	if (n <= fixed)
		return 0;
	uint32_t pid;
	uint64_t start, len;
	memcpy(&pid, b, 4);
	memcpy(&start, b + 8, 8);
	memcpy(&len, b + 16, 8);
	const char *name = (const char *)b + fixed;
	if (!memchr(name, '\0', n - fixed))
		return 0;
	uint16_t cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (cpumode != PERF_RECORD_MISC_USER || (h->misc & PERF_RECORD_MISC_MMAP_DATA))
		return 0;	/* kernel maps: kernel IPs count for the kernel as a whole */
	if (!*name || !strcmp(name, "//anon") || !strncmp(name, "[anon", 5) || !strcmp(name, "[heap]") ||
	    !strcmp(name, "[stack]"))
		return 0;
	struct st_proc *p = proc_get(s, (int32_t)pid);
	uint32_t dso = dso_get(s, name, PERF_RECORD_MISC_USER);
	if (!p || !dso)
		return -ENOMEM;
	return map_insert(p, start, len, dso);
}

static int fork_rec(struct pk_record_stats *s, const struct perf_event_header *h)
{
	const uint32_t *f = (const uint32_t *)(h + 1);
	if (h->size < sizeof(*h) + 16)
		return 0;
	int32_t pid = (int32_t)f[0], ppid = (int32_t)f[1];
	if (pid == ppid)
		return 0;	/* a thread: same maps */
	struct st_proc *pp = proc_find(s, ppid);
	if (!pp || !pp->nr)
		return 0;
	struct st_proc *c = proc_get(s, pid);
	if (!c)
		return -ENOMEM;
	pp = proc_find(s, ppid);	/* proc_get may have moved it */
	struct st_map *v = malloc(pp->nr * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, pp->maps, pp->nr * sizeof(*v));
	free(c->maps);
	c->maps = v;
	c->nr = c->cap = pp->nr;
	return 0;
}

int pk_record_stats__feed(struct pk_record_stats *s, const void *recs, size_t len)
{
	const unsigned char *p = recs, *end = p + len;
	while ((size_t)(end - p) >= sizeof(struct perf_event_header)) {
		struct perf_event_header hh;
		memcpy(&hh, p, sizeof(hh));
		if (hh.size < sizeof(hh) || hh.size > end - p)
			break;
		const struct perf_event_header *h = (const void *)p;
		if ((uintptr_t)p & 7) {
			/* records are 8-byte aligned in a kernel's ring; a caller's may not be */
			if (!s->scratch && !(s->scratch = malloc(65536)))
				return -ENOMEM;
			memcpy(s->scratch, p, hh.size);
			h = (const void *)s->scratch;
		}
		int r = 0;
		switch (h->type) {
		case PERF_RECORD_SAMPLE:
			sample(s, h);
			break;
		case PERF_RECORD_LOST:
			if (h->size >= sizeof(*h) + 16)
				s->lost += ((const uint64_t *)(h + 1))[1];
			s->lost_records++;
			break;
		case PERF_RECORD_LOST_SAMPLES:
			if (h->size >= sizeof(*h) + 8)
				s->lost += ((const uint64_t *)(h + 1))[0];
			s->lost_records++;
			break;
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2:
			r = mmap_rec(s, h);
			break;
		case PERF_RECORD_FORK:
			r = fork_rec(s, h);
			break;
		case PERF_RECORD_COMM:
			if (h->misc & PERF_RECORD_MISC_COMM_EXEC) {
				struct st_proc *pr = proc_find(s, (int32_t)((const uint32_t *)(h + 1))[0]);
				if (pr)
					pr->nr = 0;	/* a new program: its maps follow */
			}
			break;
		default:
			break;
		}
		if (r)
			return r;
		p += h->size;	/* h may be the copy: same size */
	}
	return 0;
}

int pk_record_stats__for_each_dso(const struct pk_record_stats *s,
				  int (*fn)(void *ctx, int32_t pid, uint16_t misc, const char *filename),
				  void *ctx)
{
	for (size_t d = 0; d < s->nr_dsos; d++) {
		if (!s->dsos[d].hit)
			continue;
		int r = fn(ctx, -1, s->dsos[d].misc, s->dsos[d].name);
		if (r)
			return r;
	}
	return 0;
}
