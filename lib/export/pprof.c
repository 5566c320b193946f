/* SPDX-License-Identifier: MIT */
/*
 * export/pprof.c — the profile as pprof's profile.proto (lib/export/profile.proto,
 * serialized by protobuf-c's generated code), gzipped with zlib as it streams.
 *
 * Sample types: per event "samples" (or "EVENT_samples" when there are
 * several events) in "count", then "EVENT" in the event's unit, then
 * "EVENT_weight" when the event has weights. The default sample type and the
 * period type are the chosen event's. One pprof sample per (stack, thread),
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
	struct pk_strtab st;
	struct pk_intern locs, funcs, maps, samples;
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

static uint32_t intern(struct builder *b, struct pk_intern *in, const void *rec, size_t size)
{
	long off = pk_intern__add(in, rec, size, 0);
	if (off < 0) {
		b->oom = 1;
		return 0;
	}
	return (uint32_t)((size_t)off / size);
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 256;
	while (n < need)
		n *= 2;
	void *a = realloc(*arr, n * elem);
	if (!a)
		return -1;
	*arr = a;
	*cap = n;
	return 0;
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
		b->node_loc[s] = intern(b, &b->locs, &k, sizeof(k));
		b->node_next[s] = next;
	}
}

static uint32_t mapping_of(struct builder *b, const struct pk_frame_rec *f)
{
	uint32_t dso = f->dso;
	uint32_t m = intern(b, &b->maps, &dso, sizeof(dso));
	if (b->oom || grow((void **)&b->mi, &b->cap_mi, m + 1, sizeof(*b->mi))) {
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

int pk_export__pprof(const struct pk_profile *p, FILE *out, const struct pk_xopts *x,
		     struct pk_error *err)
{
	struct builder b = { .p = p };
	size_t nst = pk_profile__nr_stacks(p), nev = p->nr_events;
	int ret = -ENOMEM;
	PValueType *vt = NULL, **vtp = NULL;
	PSample *ps = NULL, **psp = NULL;
	PLabel *pl = NULL, **plp = NULL;
	uint64_t *locids = NULL;
	PLocation *pls = NULL, **plsp = NULL;
	PLine *lines = NULL, **linep = NULL;
	PFunction *pf = NULL, **pfp = NULL;
	PMapping *pm = NULL, **pmp = NULL;
	char **strs = NULL;
	struct gz_sink *gz = NULL;

	b.node_loc = calloc(nst, sizeof(*b.node_loc));
	b.node_next = calloc(nst, sizeof(*b.node_next));
	if (!b.node_loc || !b.node_next || pk_strtab__str(&b.st, "") != 0)
		goto out;
	build_locations(&b);

	/* sample types */
	int wide = nev > 1;
	size_t nvals = 0;
	int *vt_event = calloc(nev * 3 + 1, sizeof(int)), *vt_kind = calloc(nev * 3 + 1, sizeof(int));
	vt = calloc(nev * 3 + 1, sizeof(*vt));
	vtp = calloc(nev * 3 + 1, sizeof(*vtp));
	if (!vt_event || !vt_kind || !vt || !vtp)
		goto out_vt;
	long default_type = 0;
	for (size_t e = 0; e < nev; e++) {
		const struct pk_event_rec *er = &p->events[e];
		const char *name = pk_profile__str(p, er->name);
		char tmp[512];
		for (int kind = 0; kind < 3; kind++) {
			if (kind == 2 && !er->weight_unit)
				continue;
			PValueType *t = &vt[nvals];
			perftools__profiles__value_type__init(t);
			if (kind == 0) {
				snprintf(tmp, sizeof(tmp), "%s_samples", name);
				t->type = str_(&b, wide ? tmp : "samples");
				t->unit = str_(&b, "count");
			} else if (kind == 1) {
				t->type = str_(&b, name);
				t->unit = str_(&b, pk_profile__str(p, er->unit));
				if ((int)e == x->event)
					default_type = t->type;
			} else {
				snprintf(tmp, sizeof(tmp), "%s_weight", name);
				t->type = str_(&b, tmp);
				t->unit = str_(&b, pk_profile__str(p, er->weight_unit));
			}
			vt_event[nvals] = (int)e;
			vt_kind[nvals] = kind;
			vtp[nvals] = t;
			nvals++;
		}
	}
	b.nvals = nvals;

	/* aggregate samples by (stack, thread) */
	int threads = !(x->flags & PK_EXPORT_NO_THREADS);
	uint64_t tmin = UINT64_MAX, tmax = 0;
	for (size_t i = 0; i < p->nr_samples && !b.oom; i++) {
		struct sample_key k = { .stack = p->s_stack[i], .thread = threads ? p->s_thread[i] : 0 };
		uint32_t si = intern(&b, &b.samples, &k, sizeof(k));
		if (si >= b.nsamples) {
			if (grow((void **)&b.values, &b.cap_values, (si + 1) * nvals, sizeof(*b.values)))
				goto out_vt;
			memset(b.values + (size_t)si * nvals, 0, nvals * sizeof(*b.values));
			b.nsamples = si + 1;
		}
		int64_t *v = b.values + (size_t)si * nvals;
		const struct pk_profile_value *sv = p->s_values + i * nev;
		for (size_t j = 0; j < nvals; j++) {
			int e = vt_event[j];
			v[j] += vt_kind[j] == 0 ? (p->s_event[i] == e) :
				vt_kind[j] == 1 ? (int64_t)sv[e].count : (int64_t)sv[e].weight;
		}
		tmin = p->s_time[i] < tmin ? p->s_time[i] : tmin;
		tmax = p->s_time[i] > tmax ? p->s_time[i] : tmax;
	}
	if (b.oom)
		goto out_vt;

	/* samples: location ids from the stacks, labels from the threads */
	size_t nsam = b.nsamples, nlocref = 0;
	for (size_t i = 0; i < nsam; i++) {
		const struct sample_key *k = (const struct sample_key *)b.samples.buf.data + i;
		for (uint32_t s = k->stack; s; s = b.node_next[s])
			nlocref++;
	}
	ps = calloc(nsam + 1, sizeof(*ps));
	psp = calloc(nsam + 1, sizeof(*psp));
	locids = calloc(nlocref + 1, sizeof(*locids));
	pl = calloc(nsam * 3 + 1, sizeof(*pl));
	plp = calloc(nsam * 3 + 1, sizeof(*plp));
	if (!ps || !psp || !locids || !pl || !plp)
		goto out_vt;
	long k_pid = str_(&b, "pid"), k_tid = str_(&b, "tid"), k_comm = str_(&b, "comm");
	size_t li = 0;
	for (size_t i = 0; i < nsam; i++) {
		const struct sample_key *k = (const struct sample_key *)b.samples.buf.data + i;
		PSample *s = &ps[i];
		perftools__profiles__sample__init(s);
		s->location_id = locids + li;
		for (uint32_t n = k->stack; n; n = b.node_next[n])
			locids[li++] = (uint64_t)b.node_loc[n] + 1;
		s->n_location_id = (size_t)(locids + li - s->location_id);
		s->value = b.values + i * nvals;
		s->n_value = nvals;
		if (threads && p->nr_samples) {
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
			l[2].str = str_(&b, pk_profile__str(p, t->comm));
			s->label = &plp[i * 3];
			s->n_label = 3;
		}
		psp[i] = s;
	}

	/* locations, their lines and functions; mappings */
	size_t nloc = b.locs.buf.len / sizeof(struct loc_key), nline = 0;
	for (size_t i = 0; i < nloc; i++) {
		for (const struct loc_key *k = (const struct loc_key *)b.locs.buf.data + i;;
		     k = (const struct loc_key *)b.locs.buf.data + k->tail - 1) {
			nline++;
			if (!k->tail)
				break;
		}
	}
	pls = calloc(nloc + 1, sizeof(*pls));
	plsp = calloc(nloc + 1, sizeof(*plsp));
	lines = calloc(nline + 1, sizeof(*lines));
	linep = calloc(nline + 1, sizeof(*linep));
	if (!pls || !plsp || !lines || !linep)
		goto out_vt;
	size_t ln = 0;
	for (size_t i = 0; i < nloc && !b.oom; i++) {
		const struct loc_key *k = (const struct loc_key *)b.locs.buf.data + i;
		const struct pk_frame_rec *f = pk_profile__frame_rec(p, k->frame);
		PLocation *l = &pls[i];
		perftools__profiles__location__init(l);
		l->id = i + 1;
		l->address = f->addr;
		l->mapping_id = mapping_of(&b, f);	/* an index until the mappings are ordered */
		l->line = &linep[ln];
		for (;; k = (const struct loc_key *)b.locs.buf.data + k->tail - 1) {
			const struct pk_frame_rec *lf = pk_profile__frame_rec(p, k->frame);
			char tmp[300];
			const char *label = pk_export__frame_label(p, k->frame, tmp, sizeof(tmp));
			struct func_key fk = { .name = (uint32_t)str_(&b, label),
					       .file = lf->file ? (uint32_t)str_(&b, pk_profile__str(p, lf->file)) : 0 };
			PLine *pline = &lines[ln];
			perftools__profiles__line__init(pline);
			pline->function_id = (uint64_t)intern(&b, &b.funcs, &fk, sizeof(fk)) + 1;
			pline->line = lf->line;
			linep[ln++] = pline;
			l->n_line++;
			if (!k->tail)
				break;
		}
		plsp[i] = l;
	}
	size_t nfunc = b.funcs.buf.len / sizeof(struct func_key);
	size_t nmap = b.maps.buf.len / sizeof(uint32_t);
	pf = calloc(nfunc + 1, sizeof(*pf));
	pfp = calloc(nfunc + 1, sizeof(*pfp));
	pm = calloc(nmap + 1, sizeof(*pm));
	pmp = calloc(nmap + 1, sizeof(*pmp));
	if (b.oom || !pf || !pfp || !pm || !pmp)
		goto out_vt;
	for (size_t i = 0; i < nfunc; i++) {
		const struct func_key *k = (const struct func_key *)b.funcs.buf.data + i;
		perftools__profiles__function__init(&pf[i]);
		pf[i].id = i + 1;
		pf[i].name = pf[i].system_name = k->name;
		pf[i].filename = k->file;
		pfp[i] = &pf[i];
	}
	struct map_sort *ms = calloc(nmap + 1, sizeof(*ms));
	if (!ms)
		goto out_vt;
	for (size_t i = 0; i < nmap; i++)
		ms[i] = (struct map_sort){ p, &b.mi[i], (uint32_t)i };
	qsort(ms, nmap, sizeof(*ms), cmp_map);
	for (size_t i = 0; i < nmap; i++) {
		const struct map_info *mi = ms[i].m;
		b.mi[ms[i].idx].order = (uint32_t)i;
		perftools__profiles__mapping__init(&pm[i]);
		pm[i].id = i + 1;
		pm[i].memory_start = mi->lo;
		pm[i].memory_limit = mi->hi;
		pm[i].filename = str_(&b, mi->dso ? pk_profile__str(p, mi->dso) : "[unknown]");
		pm[i].has_functions = 1;
		pm[i].has_filenames = mi->has_files;
		pm[i].has_line_numbers = mi->has_lines;
		pm[i].has_inline_frames = mi->has_inline;
		pmp[i] = &pm[i];
	}
	free(ms);
	for (size_t i = 0; i < nloc; i++)
		pls[i].mapping_id = (uint64_t)b.mi[pls[i].mapping_id].order + 1;

	PProfile prof;
	perftools__profiles__profile__init(&prof);
	PValueType period_type;
	perftools__profiles__value_type__init(&period_type);
	if (nev) {
		const struct pk_event_rec *er = &p->events[x->event];
		period_type.type = str_(&b, pk_profile__str(p, er->name));
		period_type.unit = str_(&b, pk_profile__str(p, er->unit));
		prof.period_type = &period_type;
		prof.period = (int64_t)er->period;
		prof.default_sample_type = default_type;
	}
	if (b.oom)
		goto out_vt;
	size_t nstr = pk_strtab__nr(&b.st);
	strs = calloc(nstr + 1, sizeof(*strs));
	if (!strs)
		goto out_vt;
	for (size_t i = 0; i < nstr; i++)
		strs[i] = (char *)pk_strtab__get(&b.st, i);
	prof.n_sample_type = nvals;
	prof.sample_type = vtp;
	prof.n_sample = nsam;
	prof.sample = psp;
	prof.n_mapping = nmap;
	prof.mapping = pmp;
	prof.n_location = nloc;
	prof.location = plsp;
	prof.n_function = nfunc;
	prof.function = pfp;
	prof.n_string_table = nstr;
	prof.string_table = strs;
	if (p->nr_samples) {
		prof.time_nanos = (int64_t)pk_profile__wall_time(p, tmin);
		prof.duration_nanos = (int64_t)(tmax - tmin);
	}

	gz = calloc(1, sizeof(*gz));
	if (!gz)
		goto out_vt;
	gz->base.append = gz_append;
	gz->out = out;
	if (deflateInit2(&gz->z, x->gzip_level ? x->gzip_level : Z_DEFAULT_COMPRESSION, Z_DEFLATED,
			 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		goto out_vt;
	protobuf_c_message_pack_to_buffer(&prof.base, &gz->base);
	if (!gz->err)
		gz_push(gz, NULL, 0, Z_FINISH);
	deflateEnd(&gz->z);
	ret = gz->err ? gz->err : ferror(out) ? -EIO : 0;
out_vt:
	free(vt_event);
	free(vt_kind);
out:
	if (ret)
		fail(err, ret);
	free(gz);
	free(strs);
	free(pf);
	free(pfp);
	free(pm);
	free(pmp);
	free(pls);
	free(plsp);
	free(lines);
	free(linep);
	free(ps);
	free(psp);
	free(pl);
	free(plp);
	free(locids);
	free(vt);
	free(vtp);
	free(b.node_loc);
	free(b.node_next);
	free(b.mi);
	free(b.values);
	pk_strtab__free(&b.st);
	pk_intern__free(&b.locs);
	pk_intern__free(&b.funcs);
	pk_intern__free(&b.maps);
	pk_intern__free(&b.samples);
	return ret;
}
