/* SPDX-License-Identifier: MIT */
/*
 * export/gecko.c — the Firefox Profiler's "processed profile" JSON, format
 * version 48 (meta.preprocessedProfileVersion; the profiler upgrades older
 * versions when it loads them, so a fixed version stays readable). One thread
 * per (pid, tid), sorted; each with its own string array and stack, frame,
 * func, resource and native-symbol tables, and the samples of the chosen
 * event in time order, times in ms from the first one. The stack table is
 * the profile's stack-node tree, so a stack's prefix always comes before it.
 * Inlined frames get an inline depth (0 for the function they were inlined
 * into). Categories: Other (grey, the default), User, Kernel, JIT.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "export/export_int.h"
#include "util/error.h"
#include "util/grow.h"

#define NONE UINT32_MAX

enum { CAT_OTHER, CAT_USER, CAT_KERNEL, CAT_JIT };

struct tkey {
	int32_t pid, tid;
};

struct func_key {
	uint32_t name, dso, file;	/* profile string refs */
};

struct ff_frame {
	uint32_t func, line, depth, cat;
};

struct ff_stack {
	uint32_t frame, prefix, cat;
};

struct thread_tab {
	struct pk_strtab st;
	struct pk_recset funcs, res;
	struct ff_frame *fr;
	size_t nfr, cap_fr;
	struct ff_stack *sk;
	size_t nsk, cap_sk;
	uint32_t *func_frame;		/* per func */
	size_t nfunc, cap_ff;
	int oom;
};

struct gecko {
	const struct pk_profile *p;
	const struct pk_xopts *x;
	FILE *out;
	uint32_t *frame2ff, *node2ff;	/* per thread; reset through the touched lists */
	uint32_t *touched_f, *touched_n;
	size_t ntf, ntn;
	struct pk_recset libs;		/* dso refs of the profile's libs list */
};

static void jstr(FILE *out, const char *s)
{
	json_object *o = json_object_new_string(s);
	fputs(o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						   JSON_C_TO_STRING_NOSLASHESCAPE) : "\"\"", out);
	json_object_put(o);
}

static uint32_t sidx(struct thread_tab *t, const char *s)
{
	long i = pk_strtab__str(&t->st, s);
	if (i < 0)
		t->oom = 1;
	return i < 0 ? 0 : (uint32_t)i;
}

static uint32_t intern(struct thread_tab *t, struct pk_recset *set, const void *rec)
{
	int64_t id = pk_recset__add(set, rec);
	if (id < 0)
		t->oom = 1;
	return id < 0 ? 0 : (uint32_t)id;
}

static uint32_t frame_of(struct gecko *g, struct thread_tab *t, uint32_t node)
{
	const struct pk_profile *p = g->p;
	const struct pk_stack_node *nd = pk_profile__node(p, node);
	uint32_t id = nd->frame;
	if (g->frame2ff[id] != NONE)
		return g->frame2ff[id];
	const struct pk_frame_rec *f = pk_profile__frame_rec(p, id);
	uint32_t depth = 0;
	if ((f->flags & PK_FREC_INLINED) && nd->parent) {
		const struct pk_stack_node *pn = pk_profile__node(p, nd->parent);
		const struct pk_frame_rec *pf = pk_profile__frame_rec(p, pn->frame);
		if (pf->addr == f->addr && pf->dso == f->dso) {
			uint32_t pfi = frame_of(g, t, nd->parent);
			if (t->oom)
				return 0;
			depth = t->fr[pfi].depth + 1;
		}
	}
	struct func_key fk = { .name = f->name, .dso = f->dso, .file = f->file };
	uint32_t func = intern(t, &t->funcs, &fk);
	if (!t->oom && func == t->nfunc) {	/* a new function: a frame of it names it */
		if (pk_grow(&t->func_frame, &t->cap_ff, t->nfunc + 1, sizeof(uint32_t))) {
			t->oom = 1;
			return 0;
		}
		t->func_frame[t->nfunc++] = id;
	}
	if (f->dso)
		intern(t, &t->res, &f->dso);
	if (t->oom || pk_grow(&t->fr, &t->cap_fr, t->nfr + 1, sizeof(*t->fr))) {
		t->oom = 1;
		return 0;
	}
	unsigned kind = f->flags & PK_FREC_KIND;
	uint32_t i = (uint32_t)t->nfr++;
	t->fr[i] = (struct ff_frame){ .func = func, .line = f->line, .depth = depth,
		.cat = kind == PK_FRAME_KERNEL ? CAT_KERNEL : kind == PK_FRAME_JIT ? CAT_JIT : CAT_USER };
	g->frame2ff[id] = i;
	g->touched_f[g->ntf++] = id;
	return i;
}

/* The thread's stack for a profile stack node, its prefix made first. */
static uint32_t stack_of(struct gecko *g, struct thread_tab *t, uint32_t node)
{
	if (!node)
		return NONE;
	if (g->node2ff[node] != NONE)
		return g->node2ff[node];
	uint32_t prefix = stack_of(g, t, pk_profile__node(g->p, node)->parent);
	uint32_t frame = frame_of(g, t, node);
	if (t->oom || pk_grow(&t->sk, &t->cap_sk, t->nsk + 1, sizeof(*t->sk))) {
		t->oom = 1;
		return NONE;
	}
	uint32_t i = (uint32_t)t->nsk++;
	t->sk[i] = (struct ff_stack){ .frame = frame, .prefix = prefix, .cat = t->fr[frame].cat };
	g->node2ff[node] = i;
	g->touched_n[g->ntn++] = node;
	return i;
}

struct sample_ref {
	uint64_t time;
	size_t idx;
};

static int cmp_sample(const void *a, const void *b)
{
	const struct sample_ref *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* ---- writing ---------------------------------------------------------------------------- */

#define COL(out, name, n, ...)                                  \
	do {                                                    \
		fputs("\"" name "\":[", out);                   \
		for (size_t i_ = 0; i_ < (n); i_++) {           \
			if (i_)                                 \
				fputc(',', out);                \
			__VA_ARGS__;                            \
		}                                               \
		fputs("],", out);                               \
	} while (0)

static void put_idx(FILE *out, uint32_t v)
{
	if (v == NONE)
		fputs("null", out);
	else
		fprintf(out, "%" PRIu32, v);
}

/* A thread's per-sample stacks and its func and resource columns (string indexes). */
struct thread_cols {
	uint32_t *stacks;
	uint32_t *fn_name, *fn_file, *fn_res, *rs_name, *rs_lib;
	size_t nfunc, nres;
};

/* Build the thread's tables from its n samples (ss), then the func and resource columns. */
static int thread_cols(struct gecko *g, struct thread_tab *t, struct thread_cols *c,
		       const struct sample_ref *ss, size_t n)
{
	const struct pk_profile *p = g->p;
	c->stacks = malloc((n ? n : 1) * sizeof(*c->stacks));
	if (!c->stacks)
		return -ENOMEM;
	for (size_t i = 0; i < n && !t->oom; i++)
		c->stacks[i] = stack_of(g, t, pk_profile__srec(p, ss[i].idx)->stack);
	size_t nfunc = c->nfunc = pk_recset__nr(&t->funcs);
	size_t nres = c->nres = pk_recset__nr(&t->res);
	c->fn_name = calloc(nfunc + 1, sizeof(uint32_t));
	c->fn_file = calloc(nfunc + 1, sizeof(uint32_t));
	c->fn_res = calloc(nfunc + 1, sizeof(uint32_t));
	c->rs_name = calloc(nres + 1, sizeof(uint32_t));
	c->rs_lib = calloc(nres + 1, sizeof(uint32_t));
	if (!c->fn_name || !c->fn_file || !c->fn_res || !c->rs_name || !c->rs_lib || t->oom)
		return -ENOMEM;
	for (size_t i = 0; i < nres; i++) {
		uint32_t dso = *(const uint32_t *)pk_recset__get(&t->res, i);
		c->rs_name[i] = sidx(t, pk_export__basename(pk_profile__str(p, dso)));
		int64_t lib = pk_recset__add(&g->libs, &dso);
		if (lib < 0)
			return -ENOMEM;
		c->rs_lib[i] = (uint32_t)lib;
	}
	for (size_t i = 0; i < nfunc; i++) {
		const struct func_key *k = pk_recset__get(&t->funcs, i);
		char tmp[300];
		c->fn_name[i] = sidx(t, pk_export__frame_label(p, t->func_frame[i], tmp, sizeof(tmp)));
		c->fn_file[i] = k->file ? sidx(t, pk_profile__str(p, k->file)) : NONE;
		c->fn_res[i] = NONE;
		if (k->dso)
			c->fn_res[i] = (uint32_t)pk_recset__find(&t->res, &k->dso);
	}
	return t->oom ? -ENOMEM : 0;
}

/* The samples table (times in ms from t0, weights in the value's unit) and no markers. */
static void write_samples(struct gecko *g, const uint32_t *stacks, const struct sample_ref *ss,
			  size_t n, uint64_t t0)
{
	const struct pk_profile *p = g->p;
	const struct pk_xopts *x = g->x;
	FILE *out = g->out;
	const char *unit = pk_export__value_unit(p, x);
	int ms = x->value != PK_EXPORT_VALUE_SAMPLES && !strcmp(unit, "nanoseconds");
	int bytes = x->value != PK_EXPORT_VALUE_SAMPLES && !strcmp(unit, "bytes");
	fputs("\"samples\":{", out);
	COL(out, "stack", n, put_idx(out, stacks[i_]));
	COL(out, "time", n, fprintf(out, "%.6f", (double)(ss[i_].time - t0) / 1e6));
	if (x->value == PK_EXPORT_VALUE_SAMPLES) {
		fputs("\"weight\":null,", out);
	} else {
		COL(out, "weight", n, {
			uint64_t v = pk_export__value(p, ss[i_].idx, x->event, x->value);
			if (ms)
				fprintf(out, "%.6f", (double)v / 1e6);
			else
				fprintf(out, "%" PRIu64, v);
		});
	}
	fprintf(out, "\"weightType\":\"%s\",\"length\":%zu},",
		ms ? "tracing-ms" : bytes ? "bytes" : "samples", n);
	fputs("\"markers\":{\"data\":[],\"name\":[],\"startTime\":[],\"endTime\":[],\"phase\":[],"
	      "\"category\":[],\"length\":0},", out);
}

/* The stack, frame, func, resource and native-symbol tables, then the string array. */
static void write_tables(FILE *out, const struct thread_tab *t, const struct thread_cols *c)
{
	fputs("\"stackTable\":{", out);
	COL(out, "frame", t->nsk, fprintf(out, "%" PRIu32, t->sk[i_].frame));
	COL(out, "prefix", t->nsk, put_idx(out, t->sk[i_].prefix));
	COL(out, "category", t->nsk, fprintf(out, "%" PRIu32, t->sk[i_].cat));
	COL(out, "subcategory", t->nsk, fputc('0', out));
	fprintf(out, "\"length\":%zu},", t->nsk);

	fputs("\"frameTable\":{", out);
	COL(out, "address", t->nfr, fputs("-1", out));
	COL(out, "inlineDepth", t->nfr, fprintf(out, "%" PRIu32, t->fr[i_].depth));
	COL(out, "category", t->nfr, fprintf(out, "%" PRIu32, t->fr[i_].cat));
	COL(out, "subcategory", t->nfr, fputc('0', out));
	COL(out, "func", t->nfr, fprintf(out, "%" PRIu32, t->fr[i_].func));
	COL(out, "nativeSymbol", t->nfr, fputs("null", out));
	COL(out, "innerWindowID", t->nfr, fputc('0', out));
	COL(out, "implementation", t->nfr, fputs("null", out));
	COL(out, "line", t->nfr, put_idx(out, t->fr[i_].line ? t->fr[i_].line : NONE));
	COL(out, "column", t->nfr, fputs("null", out));
	fprintf(out, "\"length\":%zu},", t->nfr);

	size_t nfunc = c->nfunc, nres = c->nres;
	fputs("\"funcTable\":{", out);
	COL(out, "isJS", nfunc, fputs("false", out));
	COL(out, "relevantForJS", nfunc, fputs("false", out));
	COL(out, "name", nfunc, fprintf(out, "%" PRIu32, c->fn_name[i_]));
	COL(out, "resource", nfunc, c->fn_res[i_] == NONE ? fputs("-1", out) :
					 fprintf(out, "%" PRIu32, c->fn_res[i_]));
	COL(out, "fileName", nfunc, put_idx(out, c->fn_file[i_]));
	COL(out, "lineNumber", nfunc, fputs("null", out));
	COL(out, "columnNumber", nfunc, fputs("null", out));
	fprintf(out, "\"length\":%zu},", nfunc);

	fputs("\"resourceTable\":{", out);
	COL(out, "lib", nres, fprintf(out, "%" PRIu32, c->rs_lib[i_]));
	COL(out, "name", nres, fprintf(out, "%" PRIu32, c->rs_name[i_]));
	COL(out, "host", nres, fputs("null", out));
	COL(out, "type", nres, fputc('1', out));	/* library */
	fprintf(out, "\"length\":%zu},", nres);
	fputs("\"nativeSymbols\":{\"libIndex\":[],\"address\":[],\"name\":[],\"functionSize\":[],"
	      "\"length\":0},", out);

	size_t nstr = pk_strtab__nr(&t->st);
	fputs("\"stringArray\":[", out);
	for (size_t i = 0; i < nstr; i++) {
		if (i)
			fputc(',', out);
		jstr(out, pk_strtab__get(&t->st, i));
	}
	fputs("]}", out);
}

static int write_thread(struct gecko *g, const struct tkey *key, const struct sample_ref *ss,
			size_t n, uint64_t t0, const char *name, const char *pname)
{
	FILE *out = g->out;
	struct thread_tab t = { .oom = 0 };
	struct thread_cols c = { 0 };
	pk_recset__init(&t.funcs, sizeof(struct func_key));
	pk_recset__init(&t.res, sizeof(uint32_t));
	int ret = thread_cols(g, &t, &c, ss, n);
	if (!ret) {
		fputs("{\"processType\":\"default\",\"processStartupTime\":0,\"processShutdownTime\":null,"
		      "\"registerTime\":0,\"unregisterTime\":null,\"pausedRanges\":[],\"name\":", out);
		jstr(out, name);
		fputs(",\"processName\":", out);
		jstr(out, pname);
		fprintf(out, ",\"isMainThread\":%s,\"pid\":\"%" PRId32 "\",\"tid\":%" PRId32 ",",
			key->pid == key->tid ? "true" : "false", key->pid, key->tid);
		write_samples(g, c.stacks, ss, n, t0);
		write_tables(out, &t, &c);
	}
	for (size_t i = 0; i < g->ntf; i++)
		g->frame2ff[g->touched_f[i]] = NONE;
	for (size_t i = 0; i < g->ntn; i++)
		g->node2ff[g->touched_n[i]] = NONE;
	g->ntf = g->ntn = 0;
	free(c.stacks);
	free(c.fn_name);
	free(c.fn_file);
	free(c.fn_res);
	free(c.rs_name);
	free(c.rs_lib);
	free(t.fr);
	free(t.sk);
	free(t.func_frame);
	pk_strtab__free(&t.st);
	pk_recset__free(&t.funcs);
	pk_recset__free(&t.res);
	return ret;
}

struct ff_thread {
	struct tkey key;
	size_t first, n;	/* range in the sorted sample list */
	uint32_t last_rec;	/* thread record of the latest sample: its comm names the thread */
};

static int cmp_thread(const void *a, const void *b)
{
	const struct ff_thread *x = a, *y = b;
	if (x->key.pid != y->key.pid)
		return x->key.pid < y->key.pid ? -1 : 1;
	return (x->key.tid > y->key.tid) - (x->key.tid < y->key.tid);
}

/*
 * The samples of the chosen event grouped by thread (pid, tid), each group in time
 * order (ss), the threads sorted (th, nth); *t0 the earliest sample's time.
 */
static int group_samples(const struct pk_profile *p, int event, struct ff_thread **pth,
			 size_t *pnth, struct sample_ref **pss, uint64_t *t0)
{
	size_t nrec = pk_profile__nr_threads(p), nth = 0, nsel = 0, *pos = NULL;
	struct pk_recset tkeys;
	pk_recset__init(&tkeys, sizeof(struct tkey));
	uint32_t *rec2t = calloc(nrec + 1, sizeof(*rec2t));
	struct ff_thread *th = NULL;
	struct sample_ref *ss = NULL;
	int ret = -ENOMEM;
	if (!rec2t)
		goto out;
	for (size_t r = 0; r < nrec; r++) {
		const struct pk_thread_rec *tr = pk_profile__thread_rec(p, (uint32_t)r);
		struct tkey k = { tr->pid, tr->tid };
		int64_t ti = pk_recset__add(&tkeys, &k);
		if (ti < 0)
			goto out;
		rec2t[r] = (uint32_t)ti;
	}
	nth = pk_recset__nr(&tkeys);
	th = calloc(nth + 1, sizeof(*th));
	pos = calloc(nth + 1, sizeof(*pos));
	for (size_t i = 0; i < p->nr_samples; i++)
		nsel += pk_profile__srec(p, i)->event == (uint32_t)event;
	ss = malloc((nsel + 1) * sizeof(*ss));
	if (!th || !pos || !ss)
		goto out;
	for (size_t i = 0; i < nth; i++)
		th[i].key = *(const struct tkey *)pk_recset__get(&tkeys, i);
	for (size_t i = 0; i < p->nr_samples; i++)
		if (pk_profile__srec(p, i)->event == (uint32_t)event)
			th[rec2t[pk_profile__srec(p, i)->thread]].n++;
	for (size_t i = 0, acc = 0; i < nth; i++) {
		th[i].first = acc;
		pos[i] = acc;
		acc += th[i].n;
	}
	*t0 = UINT64_MAX;
	for (size_t i = 0; i < p->nr_samples; i++) {
		const struct pk_sample_rec *sr = pk_profile__srec(p, i);
		uint64_t ti_ns = pk_profile__s_time(p, i);
		if (sr->event != (uint32_t)event)
			continue;
		uint32_t ti = rec2t[sr->thread];
		ss[pos[ti]++] = (struct sample_ref){ .time = ti_ns, .idx = i };
		*t0 = ti_ns < *t0 ? ti_ns : *t0;
	}
	for (size_t i = 0; i < nth; i++) {
		qsort(ss + th[i].first, th[i].n, sizeof(*ss), cmp_sample);
		th[i].last_rec = UINT32_MAX;
		if (th[i].n)
			th[i].last_rec = pk_profile__srec(p, ss[th[i].first + th[i].n - 1].idx)->thread;
	}
	qsort(th, nth, sizeof(*th), cmp_thread);
	if (*t0 == UINT64_MAX)
		*t0 = 0;
	ret = 0;
out:
	*pth = th;
	*pnth = nth;
	*pss = ss;
	pk_recset__free(&tkeys);
	free(rec2t);
	free(pos);
	return ret;
}

/* meta: the sampling interval in ms, the start time, the product name and the categories */
static void write_meta(const struct pk_profile *p, const struct pk_xopts *x, FILE *out, uint64_t t0)
{
	double interval = 1;
	const char *ev = "";
	if (p->nr_events) {
		const struct pk_event_rec *e = &p->events[x->event];
		const char *unit = pk_profile__str(p, e->unit);
		ev = pk_profile__str(p, e->name);
		if (e->freq)
			interval = 1000.0 / (double)e->freq;
		else if (e->period && !strcmp(unit, "nanoseconds"))
			interval = (double)e->period / 1e6;
	}
	fprintf(out, "{\"meta\":{\"interval\":%.6f,\"startTime\":%.3f,\"processType\":0,"
		"\"product\":", interval, (double)pk_profile__wall_time(p, t0) / 1e6);
	char product[300];
	snprintf(product, sizeof(product), "pmukit %s", ev);
	jstr(out, product);
	fputs(",\"stackwalk\":1,\"debug\":false,\"version\":27,\"preprocessedProfileVersion\":48,"
	      "\"symbolicated\":true,\"markerSchema\":[],\"categories\":["
	      "{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]},"
	      "{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
	      "{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]},"
	      "{\"name\":\"JIT\",\"color\":\"green\",\"subcategories\":[\"Other\"]}]},", out);
}

/* the libs the threads' resources point into */
static void write_libs(struct gecko *g)
{
	FILE *out = g->out;
	for (size_t i = 0; i < pk_recset__nr(&g->libs); i++) {
		const char *dso = pk_profile__str(g->p, *(const uint32_t *)pk_recset__get(&g->libs, i));
		const char *base = pk_export__basename(dso);
		fputs(i ? ",{\"arch\":\"\",\"name\":" : "{\"arch\":\"\",\"name\":", out);
		jstr(out, base);
		fputs(",\"path\":", out);
		jstr(out, dso);
		fputs(",\"debugName\":", out);
		jstr(out, base);
		fputs(",\"debugPath\":", out);
		jstr(out, dso);
		fputs(",\"breakpadId\":\"\",\"codeId\":null}", out);
	}
}

int pk_export__gecko(const struct pk_profile *p, FILE *out, const struct pk_xopts *x,
		     struct pk_error *err)
{
	struct gecko g = { .p = p, .x = x, .out = out };
	size_t nfr = pk_profile__nr_frames(p), nst = pk_profile__nr_stacks(p);
	struct ff_thread *th = NULL;
	struct sample_ref *ss = NULL;
	size_t nth = 0;
	uint64_t t0 = 0;
	int ret = -ENOMEM;
	pk_recset__init(&g.libs, sizeof(uint32_t));
	g.frame2ff = malloc((nfr + 1) * sizeof(uint32_t));
	g.node2ff = malloc((nst + 1) * sizeof(uint32_t));
	g.touched_f = calloc(nfr + 1, sizeof(uint32_t));	/* (calloc: scan-build cannot follow the writes) */
	g.touched_n = calloc(nst + 1, sizeof(uint32_t));
	if (!g.frame2ff || !g.node2ff || !g.touched_f || !g.touched_n)
		goto out;
	memset(g.frame2ff, 0xff, (nfr + 1) * sizeof(uint32_t));
	memset(g.node2ff, 0xff, (nst + 1) * sizeof(uint32_t));
	if ((ret = group_samples(p, x->event, &th, &nth, &ss, &t0)))
		goto out;

	write_meta(p, x, out, t0);
	fputs("\"threads\":[", out);
	int first = 1;
	for (size_t i = 0; i < nth; i++) {
		if (!th[i].n)
			continue;
		const char *name = pk_profile__str(p, pk_profile__thread_rec(p, th[i].last_rec)->comm);
		const char *pname = name;	/* the main thread's name, when it has samples */
		struct ff_thread key = { .key = { th[i].key.pid, th[i].key.pid } };
		const struct ff_thread *main_th = bsearch(&key, th, nth, sizeof(*th), cmp_thread);
		if (main_th && main_th->n)
			pname = pk_profile__str(p, pk_profile__thread_rec(p, main_th->last_rec)->comm);
		if (!first)
			fputc(',', out);
		first = 0;
		if ((ret = write_thread(&g, &th[i].key, ss + th[i].first, th[i].n, t0, name, pname)))
			goto out;
	}
	fputs("],\"libs\":[", out);
	write_libs(&g);
	fputs("]}\n", out);
	ret = ferror(out) ? -EIO : 0;
out:
	if (ret)
		pk_error__set(err, ret, NULL, 0, 0, ret == -EIO ? "write error" :
			      "out of memory writing the Firefox Profiler profile");
	pk_recset__free(&g.libs);
	free(th);
	free(ss);
	free(g.frame2ff);
	free(g.node2ff);
	free(g.touched_f);
	free(g.touched_n);
	return ret;
}
