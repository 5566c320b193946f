/* SPDX-License-Identifier: MIT */
/*
 * export/pprof.c — the profile as pprof's profile.proto (lib/export/profile.proto,
 * serialized by protobuf-c's generated code), gzipped with zlib as it streams.
 *
 * Sample types: per event "samples" (or "EVENT_samples" when there are
 * several events) in "count", then "EVENT" in the event's unit, then
 * "EVENT_weight" when the event has weights. The default sample type and the
 * period type are the chosen event's; a clock event sampled by frequency (-F)
 * has Go's CPU profiles' period: "cpu" in nanoseconds, 1e9/Hz; another event sampled by
 * frequency has the mean of its periods. One pprof sample per (stack, thread),
 * labelled pid, tid and comm (PK_EXPORT_NO_THREADS: one per stack).
 * Locations are per address: an inlined frame and the frames it was inlined
 * into at the same address are one location with several lines, innermost
 * first. Functions are (name, file); mappings are per dso, spanning the
 * addresses seen in it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "profile.pb-c.h"

#include "export/export_int.h"
#include "util/error.h"
#include "util/grow.h"

typedef Perftools__Profiles__Profile PProfile;
typedef Perftools__Profiles__ValueType PValueType;
typedef Perftools__Profiles__Sample PSample;
typedef Perftools__Profiles__Label PLabel;
typedef Perftools__Profiles__Mapping PMapping;
typedef Perftools__Profiles__Location PLocation;
typedef Perftools__Profiles__Line PLine;
typedef Perftools__Profiles__Function PFunction;

/* ---- gzip while protobuf-c packs ---------------------------------------------------- */

struct gz_sink {
	ProtobufCBuffer base;
	z_stream z;
	FILE *out;
	int err;
	unsigned char buf[1 << 16];
};

static void gz_push(struct gz_sink *g, const uint8_t *data, size_t len, int flush)
{
	g->z.next_in = (Bytef *)data;
	g->z.avail_in = (uInt)len;
	do {
		g->z.next_out = g->buf;
		g->z.avail_out = sizeof(g->buf);
		int r = deflate(&g->z, flush);
		if (r == Z_STREAM_ERROR) {
			g->err = -EIO;
			return;
		}
		size_t n = sizeof(g->buf) - g->z.avail_out;
		if (n && fwrite(g->buf, 1, n, g->out) != n)
			g->err = -EIO;
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && g->z.avail_in));
}

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_sink *g = (struct gz_sink *)b;
	while (len && !g->err) {	/* avail_in is a uInt */
		size_t n = len > (1u << 30) ? (1u << 30) : len;
		gz_push(g, data, n, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

/* ---- building --------------------------------------------------------------------- */

struct loc_key {
	uint32_t frame;		/* this location's first (innermost) frame */
	uint32_t tail;		/* location id + 1 of the frames it was inlined into, 0 = none */
};

struct func_key {
	uint32_t name, file;	/* profile string refs */
};

struct map_info {
	uint64_t lo, hi;
	uint64_t nloc;		/* locations in it */
	uint32_t dso, order;	/* profile string ref; position in the output */
	unsigned has_files : 1, has_lines : 1, has_inline : 1;
};

/*
 * pprof names the profile after its first mapping ("File:"): executables first (a
 * path that is no shared object), then shared objects, then [kernel.kallsyms] and
 * the like; within each, the mapping with more locations first.
 */
static int map_rank(const struct pk_profile *p, const struct map_info *m)
{
	const char *d = pk_profile__str(p, m->dso);
	if (!d || d[0] == '[')
		return 2;
	return strstr(pk_export__basename(d), ".so") ? 1 : 0;
}

struct map_sort {
	const struct pk_profile *p;
	const struct map_info *m;
	uint32_t idx;
};

static int cmp_map(const void *a, const void *b)
{
	const struct map_sort *x = a, *y = b;
	int rx = map_rank(x->p, x->m), ry = map_rank(y->p, y->m);
	if (rx != ry)
		return rx - ry;
	if (x->m->nloc != y->m->nloc)
		return x->m->nloc > y->m->nloc ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

struct sample_key {
	uint32_t stack, thread;
};

struct builder {
	const struct pk_profile *p;
	const struct pk_xopts *x;
	struct gz_sink *gz;
	/* sample types: per value, its event and kind (0 samples, 1 counts, 2 weights) */
	PValueType *vt, **vtp;
	int *vt_event, *vt_kind;
	long default_type;
	struct pk_strtab st;
	struct pk_recset locs, funcs, maps, samples;
	uint32_t *node_loc, *node_next;	/* per stack node: location id, node after it */
	struct map_info *mi;
	size_t cap_mi, nmi;
	int64_t *values;		/* per pprof sample: nvals */
	size_t cap_values, nvals, nsamples;
	int oom;
};

static long str_(struct builder *b, const char *s)
{
	long i = pk_strtab__str(&b->st, s);
	if (i < 0)
		b->oom = 1;
	return i < 0 ? 0 : i;
}

static uint32_t intern(struct builder *b, struct pk_recset *set, const void *rec)
{
	int64_t id = pk_recset__add(set, rec);
	if (id < 0) {
		b->oom = 1;
		return 0;
	}
	return (uint32_t)id;
}

/* Locations of every stack node; parents have smaller ids, so one pass in id order. */
static void build_locations(struct builder *b)
{
	const struct pk_profile *p = b->p;
	size_t n = pk_profile__nr_stacks(p);
	for (uint32_t s = 1; s < n && !b->oom; s++) {
		const struct pk_stack_node *nd = pk_profile__node(p, s);
		const struct pk_frame_rec *f = pk_profile__frame_rec(p, nd->frame);
		struct loc_key k = { .frame = nd->frame, .tail = 0 };
		uint32_t next = nd->parent;
		if ((f->flags & PK_FREC_INLINED) && nd->parent) {
			const struct pk_frame_rec *pf =
				pk_profile__frame_rec(p, pk_profile__node(p, nd->parent)->frame);
			if (pf->addr == f->addr && pf->dso == f->dso) {
				k.tail = b->node_loc[nd->parent] + 1;
				next = b->node_next[nd->parent];
			}
		}
		b->node_loc[s] = intern(b, &b->locs, &k);
		b->node_next[s] = next;
	}
}

static uint32_t mapping_of(struct builder *b, const struct pk_frame_rec *f)
{
	uint32_t dso = f->dso;
	uint32_t m = intern(b, &b->maps, &dso);
	if (b->oom || pk_grow(&b->mi, &b->cap_mi, m + 1, sizeof(*b->mi))) {
		b->oom = 1;
		return 0;
	}
	for (; b->nmi <= m; b->nmi++)
		b->mi[b->nmi] = (struct map_info){ .lo = UINT64_MAX, .hi = 0, .dso = dso };
	struct map_info *mi = &b->mi[m];
	mi->nloc++;
	mi->lo = f->addr < mi->lo ? f->addr : mi->lo;
	mi->hi = f->addr >= mi->hi ? f->addr + 1 : mi->hi;
	mi->has_files |= !!f->file;
	mi->has_lines |= !!f->line;
	mi->has_inline |= !!(f->flags & PK_FREC_INLINED);
	return m;
}

static int fail(struct pk_error *err, int code)
{
	return pk_error__set(err, code, NULL, 0, 0, code == -EIO ? "write error" :
			     "out of memory writing pprof");
}

/* Per event: "samples" (or "EVENT_samples"), "EVENT" in its unit, "EVENT_weight". */
static int sample_types(struct builder *b)
{
	const struct pk_profile *p = b->p;
	size_t nev = p->nr_events;
	b->vt_event = calloc(nev * 3 + 1, sizeof(int));
	b->vt_kind = calloc(nev * 3 + 1, sizeof(int));
	b->vt = calloc(nev * 3 + 1, sizeof(*b->vt));
	b->vtp = calloc(nev * 3 + 1, sizeof(*b->vtp));
	if (!b->vt_event || !b->vt_kind || !b->vt || !b->vtp)
		return -ENOMEM;
	for (size_t e = 0; e < nev; e++) {
		const struct pk_event_rec *er = &p->events[e];
		const char *name = pk_profile__str(p, er->name);
		char tmp[512];
		for (int kind = 0; kind < 3; kind++) {
			if (kind == 2 && !er->weight_unit)
				continue;
			PValueType *t = &b->vt[b->nvals];
			perftools__profiles__value_type__init(t);
			if (kind == 0) {
				snprintf(tmp, sizeof(tmp), "%s_samples", name);
				t->type = str_(b, nev > 1 ? tmp : "samples");
				t->unit = str_(b, "count");
			} else if (kind == 1) {
				t->type = str_(b, name);
				t->unit = str_(b, pk_profile__str(p, er->unit));
				if ((int)e == b->x->event)
					b->default_type = t->type;
			} else {
				snprintf(tmp, sizeof(tmp), "%s_weight", name);
				t->type = str_(b, tmp);
				t->unit = str_(b, pk_profile__str(p, er->weight_unit));
			}
			b->vt_event[b->nvals] = (int)e;
			b->vt_kind[b->nvals] = kind;
			b->vtp[b->nvals++] = t;
		}
	}
	return b->oom ? -ENOMEM : 0;
}

/* One pprof sample per (stack, thread): the values summed. */
static int aggregate(struct builder *b, uint64_t *tmin, uint64_t *tmax)
{
	const struct pk_profile *p = b->p;
	int threads = !(b->x->flags & PK_EXPORT_NO_THREADS);
	size_t nvals = b->nvals;
	*tmin = UINT64_MAX;
	*tmax = 0;
	for (size_t i = 0; i < p->nr_samples && !b->oom; i++) {
		const struct pk_sample_rec *sr = pk_profile__srec(p, i);
		struct sample_key k = { .stack = sr->stack, .thread = threads ? sr->thread : 0 };
		uint32_t si = intern(b, &b->samples, &k);
		if (si >= b->nsamples) {
			if (pk_grow(&b->values, &b->cap_values, (si + 1) * nvals, sizeof(*b->values)))
				return -ENOMEM;
			memset(b->values + (size_t)si * nvals, 0, nvals * sizeof(*b->values));
			b->nsamples = si + 1;
		}
		int64_t *v = b->values + (size_t)si * nvals;
		for (size_t j = 0; j < nvals; j++) {
			int e = b->vt_event[j];
			v[j] += b->vt_kind[j] == 0 ? (sr->event == (uint32_t)e) :
				b->vt_kind[j] == 1 ? (int64_t)pk_profile__s_value(p, i, (uint32_t)e).count :
				(int64_t)pk_profile__s_value(p, i, (uint32_t)e).weight;
		}
		uint64_t t = pk_profile__s_time(p, i);
		*tmin = t < *tmin ? t : *tmin;
		*tmax = t > *tmax ? t : *tmax;
	}
	return b->oom ? -ENOMEM : 0;
}

#define CHUNK 4096

/*
 * The samples, CHUNK at a time, each chunk a Profile message holding only samples:
 * serialized messages concatenate into one whose repeated fields are the union, so
 * memory stays bounded however many samples there are.
 */
static int write_samples(struct builder *b)
{
	const struct pk_profile *p = b->p;
	int threads = !(b->x->flags & PK_EXPORT_NO_THREADS);
	PSample *ps = calloc(CHUNK, sizeof(*ps));
	PSample **psp = calloc(CHUNK, sizeof(*psp));
	PLabel *pl = calloc(CHUNK * 3, sizeof(*pl));
	PLabel **plp = calloc(CHUNK * 3, sizeof(*plp));
	uint64_t *locids = NULL;
	size_t cap_loc = 0;
	int ret = -ENOMEM;
	if (!ps || !psp || !pl || !plp)
		goto out;
	long k_pid = str_(b, "pid"), k_tid = str_(b, "tid"), k_comm = str_(b, "comm");
	for (size_t first = 0; first < b->nsamples && !b->gz->err; first += CHUNK) {
		size_t n = b->nsamples - first < CHUNK ? b->nsamples - first : CHUNK, nref = 0;
		for (size_t i = 0; i < n; i++) {
			const struct sample_key *k = pk_recset__get(&b->samples, first + i);
			for (uint32_t s = k->stack; s; s = b->node_next[s])
				nref++;
		}
		if (pk_grow(&locids, &cap_loc, nref + 1, sizeof(*locids)))
			goto out;
		size_t li = 0;
		for (size_t i = 0; i < n; i++) {
			const struct sample_key *k = pk_recset__get(&b->samples, first + i);
			PSample *s = &ps[i];
			perftools__profiles__sample__init(s);
			s->location_id = locids + li;
			for (uint32_t nd = k->stack; nd; nd = b->node_next[nd])
				locids[li++] = (uint64_t)b->node_loc[nd] + 1;
			s->n_location_id = (size_t)(locids + li - s->location_id);
			s->value = b->values + (first + i) * b->nvals;
			s->n_value = b->nvals;
			if (threads) {
				const struct pk_thread_rec *t = pk_profile__thread_rec(p, k->thread);
				PLabel *l = &pl[i * 3];
				for (int j = 0; j < 3; j++) {
					perftools__profiles__label__init(&l[j]);
					plp[i * 3 + j] = &l[j];
				}
				l[0].key = k_pid;
				l[0].num = t->pid;
				l[1].key = k_tid;
				l[1].num = t->tid;
				l[2].key = k_comm;
				l[2].str = str_(b, pk_profile__str(p, t->comm));
				s->label = &plp[i * 3];
				s->n_label = 3;
			}
			psp[i] = s;
		}
		if (b->oom)
			goto out;
		PProfile part;
		perftools__profiles__profile__init(&part);
		part.n_sample = n;
		part.sample = psp;
		protobuf_c_message_pack_to_buffer(&part.base, &b->gz->base);
	}
	ret = b->gz->err;
out:
	free(ps);
	free(psp);
	free(pl);
	free(plp);
	free(locids);
	return ret;
}

/* Everything but the samples: types, locations with their lines, functions, mappings, strings. */
/* The message's location, line, function and mapping arrays (and pointer arrays to them). */
struct ptables {
	PLocation *pls, **plsp;
	PLine *lines, **linep;
	PFunction *pf, **pfp;
	PMapping *pm, **pmp;
	struct map_sort *ms;
	size_t nloc, nfunc, nmap;
};

/* One location per loc key, its lines the key's inline chain; functions interned on the way. */
static int pb_locations(struct builder *b, struct ptables *tb)
{
	const struct pk_profile *p = b->p;
	size_t nloc = tb->nloc = pk_recset__nr(&b->locs), nline = 0;
	for (size_t i = 0; i < nloc; i++)
		for (const struct loc_key *k = pk_recset__get(&b->locs, i);;
		     k = pk_recset__get(&b->locs, k->tail - 1)) {
			nline++;
			if (!k->tail)
				break;
		}
	tb->pls = calloc(nloc + 1, sizeof(*tb->pls));
	tb->plsp = calloc(nloc + 1, sizeof(*tb->plsp));
	tb->lines = calloc(nline + 1, sizeof(*tb->lines));
	tb->linep = calloc(nline + 1, sizeof(*tb->linep));
	if (!tb->pls || !tb->plsp || !tb->lines || !tb->linep)
		return -ENOMEM;
	size_t ln = 0;
	for (size_t i = 0; i < nloc && !b->oom; i++) {
		const struct loc_key *k = pk_recset__get(&b->locs, i);
		const struct pk_frame_rec *f = pk_profile__frame_rec(p, k->frame);
		PLocation *l = &tb->pls[i];
		perftools__profiles__location__init(l);
		l->id = i + 1;
		l->address = f->addr;
		l->mapping_id = mapping_of(b, f);	/* an index until the mappings are ordered */
		l->line = &tb->linep[ln];
		for (;; k = pk_recset__get(&b->locs, k->tail - 1)) {
			const struct pk_frame_rec *lf = pk_profile__frame_rec(p, k->frame);
			char tmp[300];
			const char *label = pk_export__frame_label(p, k->frame, tmp, sizeof(tmp));
			struct func_key fk = { .name = (uint32_t)str_(b, label),
					       .file = lf->file ? (uint32_t)str_(b, pk_profile__str(p, lf->file)) : 0 };
			PLine *pline = &tb->lines[ln];
			perftools__profiles__line__init(pline);
			pline->function_id = (uint64_t)intern(b, &b->funcs, &fk) + 1;
			pline->line = lf->line;
			tb->linep[ln++] = pline;
			l->n_line++;
			if (!k->tail)
				break;
		}
		tb->plsp[i] = l;
	}
	return b->oom ? -ENOMEM : 0;
}

/* The functions, and the mappings in address order (the locations' mapping ids follow). */
static int pb_funcs_maps(struct builder *b, struct ptables *tb)
{
	const struct pk_profile *p = b->p;
	size_t nfunc = tb->nfunc = pk_recset__nr(&b->funcs), nmap = tb->nmap = pk_recset__nr(&b->maps);
	PFunction *pf = tb->pf = calloc(nfunc + 1, sizeof(*pf));
	tb->pfp = calloc(nfunc + 1, sizeof(*tb->pfp));
	PMapping *pm = tb->pm = calloc(nmap + 1, sizeof(*pm));
	tb->pmp = calloc(nmap + 1, sizeof(*tb->pmp));
	struct map_sort *ms = tb->ms = calloc(nmap + 1, sizeof(*ms));
	if (!pf || !tb->pfp || !pm || !tb->pmp || !ms)
		return -ENOMEM;
	for (size_t i = 0; i < nfunc; i++) {
		const struct func_key *k = pk_recset__get(&b->funcs, i);
		perftools__profiles__function__init(&pf[i]);
		pf[i].id = i + 1;
		pf[i].name = pf[i].system_name = k->name;
		pf[i].filename = k->file;
		tb->pfp[i] = &pf[i];
	}
	for (size_t i = 0; i < nmap; i++)
		ms[i] = (struct map_sort){ p, &b->mi[i], (uint32_t)i };
	qsort(ms, nmap, sizeof(*ms), cmp_map);
	for (size_t i = 0; i < nmap; i++) {
		const struct map_info *mi = ms[i].m;
		b->mi[ms[i].idx].order = (uint32_t)i;
		perftools__profiles__mapping__init(&pm[i]);
		pm[i].id = i + 1;
		pm[i].memory_start = mi->lo;
		pm[i].memory_limit = mi->hi;
		pm[i].filename = str_(b, mi->dso ? pk_profile__str(p, mi->dso) : "[unknown]");
		pm[i].has_functions = 1;
		pm[i].has_filenames = mi->has_files;
		pm[i].has_line_numbers = mi->has_lines;
		pm[i].has_inline_frames = mi->has_inline;
		tb->pmp[i] = &pm[i];
	}
	for (size_t i = 0; i < tb->nloc; i++)
		tb->pls[i].mapping_id = (uint64_t)b->mi[tb->pls[i].mapping_id].order + 1;
	return 0;
}

/* The period type and period of the chosen event, its default sample type; time and duration. */
static void set_period(struct builder *b, PProfile *prof, PValueType *period_type,
		       uint64_t tmin, uint64_t tmax)
{
	const struct pk_profile *p = b->p;
	if (p->nr_events) {
		const struct pk_event_rec *er = &p->events[b->x->event];
		const char *unit = pk_profile__str(p, er->unit);
		if (er->freq && unit && !strcmp(unit, "nanoseconds")) {
			/* a clock sampled by frequency: as Go's CPU profiles, 1e9/Hz ns of "cpu" */
			period_type->type = str_(b, "cpu");
			period_type->unit = str_(b, unit);
			prof->period = (int64_t)(1000000000u / er->freq);
		} else {
			period_type->type = str_(b, pk_profile__str(p, er->name));
			period_type->unit = str_(b, unit);
			prof->period = (int64_t)er->period;
			struct pk_profile_total t;
			/* a count sampled by frequency: its periods vary, the mean stands for them */
			if (!er->period && !pk_profile__total(p, (size_t)b->x->event, &t) && t.samples)
				prof->period = (int64_t)((t.count + t.samples / 2) / t.samples);
		}
		prof->period_type = period_type;
		prof->default_sample_type = b->default_type;
	}
	if (p->nr_samples) {
		prof->time_nanos = (int64_t)pk_profile__wall_time(p, tmin);
		prof->duration_nanos = (int64_t)(tmax - tmin);
	}
}

static int write_rest(struct builder *b, uint64_t tmin, uint64_t tmax)
{
	struct ptables tb = { 0 };
	char **strs = NULL;
	int ret = pb_locations(b, &tb);
	if (!ret)
		ret = pb_funcs_maps(b, &tb);
	if (ret)
		goto out;
	PProfile prof;
	perftools__profiles__profile__init(&prof);
	PValueType period_type;
	perftools__profiles__value_type__init(&period_type);
	set_period(b, &prof, &period_type, tmin, tmax);
	size_t nstr = pk_strtab__nr(&b->st);
	strs = calloc(nstr + 1, sizeof(*strs));
	ret = -ENOMEM;
	if (b->oom || !strs)
		goto out;
	for (size_t i = 0; i < nstr; i++)
		strs[i] = (char *)pk_strtab__get(&b->st, i);
	prof.n_sample_type = b->nvals;
	prof.sample_type = b->vtp;
	prof.n_mapping = tb.nmap;
	prof.mapping = tb.pmp;
	prof.n_location = tb.nloc;
	prof.location = tb.plsp;
	prof.n_function = tb.nfunc;
	prof.function = tb.pfp;
	prof.n_string_table = nstr;
	prof.string_table = strs;
	protobuf_c_message_pack_to_buffer(&prof.base, &b->gz->base);
	ret = b->gz->err;
out:
	free(strs);
	free(tb.ms);
	free(tb.pf);
	free(tb.pfp);
	free(tb.pm);
	free(tb.pmp);
	free(tb.pls);
	free(tb.plsp);
	free(tb.lines);
	free(tb.linep);
	return ret;
}

int pk_export__pprof(const struct pk_profile *p, FILE *out, const struct pk_xopts *x,
		     struct pk_error *err)
{
	struct builder b = { .p = p, .x = x };
	size_t nst = pk_profile__nr_stacks(p);
	uint64_t tmin, tmax;
	int ret = -ENOMEM, zinit = 0;
	pk_recset__init(&b.locs, sizeof(struct loc_key));
	pk_recset__init(&b.funcs, sizeof(struct func_key));
	pk_recset__init(&b.maps, sizeof(uint32_t));
	pk_recset__init(&b.samples, sizeof(struct sample_key));
	b.node_loc = calloc(nst, sizeof(*b.node_loc));
	b.node_next = calloc(nst, sizeof(*b.node_next));
	b.gz = calloc(1, sizeof(*b.gz));
	if (!b.node_loc || !b.node_next || !b.gz || pk_strtab__str(&b.st, "") != 0)
		goto out;
	build_locations(&b);
	if (b.oom || (ret = sample_types(&b)) || (ret = aggregate(&b, &tmin, &tmax)))
		goto out;
	b.gz->base.append = gz_append;
	b.gz->out = out;
	ret = -ENOMEM;
	if (deflateInit2(&b.gz->z, x->gzip_level ? x->gzip_level : Z_BEST_SPEED, Z_DEFLATED,
			 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		goto out;
	zinit = 1;
	if ((ret = write_samples(&b)) || (ret = write_rest(&b, tmin, tmax)))
		goto out;
	gz_push(b.gz, NULL, 0, Z_FINISH);
	ret = b.gz->err ? b.gz->err : ferror(out) ? -EIO : 0;
out:
	if (ret)
		fail(err, ret);
	if (zinit)
		deflateEnd(&b.gz->z);
	free(b.gz);
	free(b.vt);
	free(b.vtp);
	free(b.vt_event);
	free(b.vt_kind);
	free(b.node_loc);
	free(b.node_next);
	free(b.mi);
	free(b.values);
	pk_strtab__free(&b.st);
	pk_recset__free(&b.locs);
	pk_recset__free(&b.funcs);
	pk_recset__free(&b.maps);
	pk_recset__free(&b.samples);
	return ret;
}
