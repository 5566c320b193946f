/* SPDX-License-Identifier: MIT */
/*
 * evspec/evlist.c — the public face of spec encoding (pmukit/spec.h): an event
 * list that specs are added to. One add parses the spec, resolves each event
 * (resolve.c), forms groups as perf does (leader, uncore alias groups split
 * per PMU instance, group modifiers), applies the seed rules (rules.c), and
 * only then appends; finally every event's attr is recomputed for the
 * command (defaults.c), since some of perf's defaults depend on the whole
 * list. Also the "did you mean" for unknown event names.
 */
#include <pmukit/spec.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/event_names.h>

#include "evspec/evlist_int.h"
#include "evspec/suggest.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"

/*
 * Sizes of what a list holds inline, so that a list of a few events costs one
 * allocation: its first arena chunk (an event takes ~0.5 KiB; the list stays
 * under 1 KiB, which glibc's malloc serves from its per-thread cache) and the
 * first event pointers. The scratch of one add (syntax tree, expanded alias
 * terms) starts in a stack buffer. Under AddressSanitizer both start empty,
 * so that a pointer kept into freed scratch is caught.
 */
#if defined(__SANITIZE_ADDRESS__)
#define EL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EL_ASAN 1
#endif
#endif
#ifdef EL_ASAN
#define EL_CHUNK 1
#define ADD_SCRATCH 1
#else
#define EL_CHUNK 896
#define ADD_SCRATCH 4096
#endif
#define EL_INLINE 4

struct pk_evlist {
	struct pk_arena arena;
	struct ev **evs;
	size_t nr, cap;
	struct ev_machine machine;
	int privilege;		/* -1 not checked yet, else 1 when perf would exclude the kernel */
	struct pk_evsel *tracking;	/* record: the dummy perf adds, when it does (in the arena) */
	struct ev *inl[EL_INLINE];	/* evs while it fits */
	max_align_t chunk[(EL_CHUNK + sizeof(max_align_t) - 1) / sizeof(max_align_t)];
};

struct pk_evlist *pk_evlist__new(void)
{
	/* not calloc: the inline chunk needs no zeroing (the arena zeroes what it hands out) */
	struct pk_evlist *el = malloc(sizeof(struct pk_evlist));
	if (!el)
		return NULL;
	el->evs = el->inl;
	el->nr = 0;
	el->cap = EL_INLINE;
	el->machine = (struct ev_machine){ 0 };
	el->privilege = -1;
	el->tracking = NULL;
	pk_arena__init_buf(&el->arena, el->chunk, sizeof(el->chunk));
	return el;
}

void pk_evlist__free(struct pk_evlist *el)
{
	if (!el)
		return;
	pk_arena__free(&el->arena);
	if (el->evs != el->inl)
		free(el->evs);
	free(el);
}

size_t pk_evlist__nr(const struct pk_evlist *el)
{
	return el ? el->nr : 0;
}

const struct pk_evsel *pk_evlist__evsel(const struct pk_evlist *el, size_t idx)
{
	return el && idx < el->nr ? &el->evs[idx]->pub : NULL;
}

/* perf's is_same_uncore_block: the names agree up to their last '_'. */
static bool same_uncore_block(const char *a, const char *b)
{
	const char *ea = a ? strrchr(a, '_') : NULL, *eb = b ? strrchr(b, '_') : NULL;
	return ea && eb && ea - a == eb - b && !strncmp(a, b, (size_t)(ea - a));
}

/*
 * perf's parse_events__set_leader_for_uncore_aliase: a group of uncore
 * aliases that each expanded to N instances becomes N groups, one per
 * instance. 1 handled (leaders set), 0 not applicable.
 */
static int split_uncore_group(struct ev **g, size_t n, size_t base)
{
	size_t leaders[256], nr_pmu = 0;
	bool is_leader = true;
	for (size_t i = 0; i < n; i++) {
		if (!g[i]->use_uncore_alias || !same_uncore_block(g[0]->pmu_name, g[i]->pmu_name))
			return 0;
		if (!is_leader)
			continue;
		if (i && !strcmp(g[0]->pmu_name, g[i]->pmu_name)) {
			is_leader = false;
			continue;
		}
		if (nr_pmu == 256)
			return 0;
		leaders[nr_pmu++] = i;
	}
	if (nr_pmu == n)
		return 1;	/* one alias: perf leaves the events ungrouped */
	for (size_t i = 0; i < n; i++)
		g[i]->pub.leader = base + leaders[i % nr_pmu];
	for (size_t k = 0; k < nr_pmu; k++)
		g[leaders[k]]->pub.nr_members = n / nr_pmu;
	return 1;
}

static int form_group(struct rctx *rc, const struct spec_group *grp, struct ev_vec *v, size_t start)
{
	struct ev **g = v->v + start;
	size_t n = v->nr - start;
	int r;
	if (!grp->braced) {
		for (size_t i = 0; i < n; i++) {
			g[i]->pub.leader = start + i;
			g[i]->pub.nr_members = 1;
		}
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		g[i]->pub.leader = start + i;
		g[i]->pub.nr_members = 1;
	}
	if (!split_uncore_group(g, n, start)) {
		size_t ld = rules_group_leader(rc, g, n);
		if (ld) {	/* perf moves the leader to the front */
			struct ev *l = g[ld];
			memmove(g + 1, g, ld * sizeof(*g));
			g[0] = l;
		}
		for (size_t i = 0; i < n; i++) {
			g[i]->pub.leader = start;
			g[i]->pub.nr_members = i ? 0 : n;
		}
	}
	for (size_t i = 0; i < n; i++)
		if ((r = encode_modifiers(rc, g[i], &grp->mods, true, g[i]->pub.leader == start + i)))
			return r;
	return 0;
}

/*
 * perf's evlist__splice_list_tail: each group's members follow their leader
 * (split uncore groups become contiguous). Leaders are indexes into v.
 */
static int splice_groups(struct ev_vec *v)
{
	size_t n = v->nr;
	if (!n)
		return 0;
	struct ev *out_s[32];
	size_t newpos_s[32];
	bool used_s[32] = { 0 };
	bool small = n <= 32;
	struct ev **out = small ? out_s : malloc(n * sizeof(*out));
	size_t *newpos = small ? newpos_s : malloc(n * sizeof(*newpos));
	bool *used = small ? used_s : calloc(n, sizeof(*used));
	if (!out || !newpos || !used) {
		if (!small) {
			free(out);
			free(newpos);
			free(used);
		}
		return -ENOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (used[i])
			continue;
		used[i] = true;
		newpos[i] = k;
		out[k++] = v->v[i];
		for (size_t j = i + 1; j < n; j++)
			if (!used[j] && v->v[j]->pub.leader == i && j != i) {
				used[j] = true;
				newpos[j] = k;
				out[k++] = v->v[j];
			}
	}
	for (size_t i = 0; i < n; i++)
		out[i]->pub.leader = newpos[out[i]->pub.leader];
	memcpy(v->v, out, n * sizeof(*out));
	if (!small) {
		free(out);
		free(newpos);
		free(used);
	}
	return 0;
}

/*
 * The CPUs perf stat opens an event on: uncore events on their cpumask; the
 * others per task ("-1") unless system-wide, then on their PMU's CPUs (or all).
 */
static const char *stat_cpus(const struct ev *ev, bool system_wide)
{
	if (ev->requires_cpu)
		return ev->pmu ? pk_pmu__cpus(ev->pmu) : NULL;
	if (!system_wide)
		return "-1";
	return ev->tool ? "0" : ev->pmu ? pk_pmu__cpus(ev->pmu) : NULL;
}

/*
 * perf stat's evlist__check_cpu_maps: a group whose members do not run on the
 * leader's CPUs (uncore with per-task events; cpu_core with cpu_atom when
 * system-wide) is broken up, every event counted on its own.
 */
static void stat_check_cpu_maps(struct ev_vec *v, const struct pk_spec_opts *o)
{
	bool sw = o->system_wide || !o->workload;
	if (!sw) {
		sw = v->nr > 0;
		for (size_t i = 0; i < v->nr && sw; i++)
			sw = v->v[i]->requires_cpu || v->v[i]->duration_time;
	}
	for (size_t i = 0; i < v->nr; i++) {
		struct ev *ev = v->v[i], *ld = v->v[ev->pub.leader];
		const char *ca = stat_cpus(ld, sw), *cb = stat_cpus(ev, sw);
		if (ev == ld || ca == cb || (ca && cb && !strcmp(ca, cb)))
			continue;
		size_t lidx = ev->pub.leader;
		for (size_t j = 0; j < v->nr; j++)
			if (v->v[j]->pub.leader == lidx) {
				v->v[j]->pub.leader = j;
				v->v[j]->pub.nr_members = 1;
			}
	}
}

static int from_parse_error(struct pk_spec_error *err, const struct pk_spec_error *pe)
{
	int code = pe->code ? pe->code : -EINVAL;
	if (err) {
		*err = *pe;
		err->code = code;
	}
	return code;
}

int pk_evlist__add(struct pk_evlist *el, const char *spec, const struct pk_spec_opts *opts,
		   struct pk_spec_error *err)
{
	struct pk_spec_opts o = { .sz = sizeof(o) };
	struct spec_ast ast = { 0 };
	struct pk_spec_error pe;	/* spec_parse_in fills it */
	struct ev_vec v = { 0 };
	struct rctx rc;
	struct pk_arena scratch;
	max_align_t scratch_buf[(ADD_SCRATCH + sizeof(max_align_t) - 1) / sizeof(max_align_t)];
	int r;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!el || !spec)
		return -EINVAL;
	if (PK_OPTS_LOAD(&o, opts))
		return pk_spec_error__set(err, -EINVAL, 0, 0, NULL,
					  "pk_spec_opts: bad sz %zu", opts->sz);
	if (!o.cat)
		o.model = PK_NO_MODEL;
	pk_arena__init_buf(&scratch, scratch_buf, sizeof(scratch_buf));
	if (spec_parse_in(spec, &scratch, &ast, &pe)) {
		pk_arena__free(&scratch);
		return from_parse_error(err, &pe);
	}
	/*
	 * Events are allocated in the list's arena directly: a refused spec
	 * leaves a little unused memory there until the list is freed, which is
	 * cheaper than copying them out of the scratch.
	 */
	if ((r = rctx_init(&rc, &o, ast.text ? ast.text : spec, &el->arena, &scratch, err))) {
		pk_arena__free(&scratch);
		return r;
	}
	for (size_t gi = 0; gi < ast.nr_groups && !r; gi++) {
		const struct spec_group *g = &ast.groups[gi];
		size_t start = v.nr;
		for (size_t i = 0; i < g->nr_events && !r; i++)
			r = resolve_event(&rc, &g->events[i], &v);
		if (!r)
			r = form_group(&rc, g, &v, start);
	}
	if (!r)
		r = splice_groups(&v);
	if (!r && o.mode == PK_SPEC_STAT)
		stat_check_cpu_maps(&v, &o);
	if (!r)
		r = rules_check(&rc, v.v, v.nr);
	if (!r)
		r = PK_GROW_FROM(el->evs, el->cap, el->nr + v.nr, el->inl);
	if (r) {
		if (err && !err->msg[0]) {
			err->code = r;
			strcpy(err->msg, r == -ENOMEM ? "out of memory" : "invalid event specification");
		}
		rctx_fini(&rc);
		ev_vec__free(&v);
		pk_arena__free(&scratch);
		return r;
	}
	size_t base = el->nr;
	for (size_t i = 0; i < v.nr; i++) {
		v.v[i]->pub.leader += base;
		el->evs[el->nr++] = v.v[i];
	}
	rctx_facts(&rc);
	if (el->privilege < 0)	/* once per list: it costs system calls */
		el->privilege = defaults_paranoid_excludes_kernel();
	el->machine = (struct ev_machine){ .hybrid = rc.nr_hybrid > 0, .max_precise = rc.max_precise,
					   .exclude_kernel = el->privilege > 0 };
	rctx_fini(&rc);
	ev_vec__free(&v);
	pk_arena__free(&scratch);
	struct perf_event_attr track;
	bool tracked = encode_configure(el->evs, el->nr, &o, &el->machine, &track);
	if (tracked && !el->tracking)
		el->tracking = pk_arena__alloc(&el->arena, sizeof(*el->tracking));
	if (tracked && el->tracking)
		*el->tracking = (struct pk_evsel){ .attr = track, .name = "dummy:HG", .pmu = "software",
						   .leader = el->nr, .nr_members = 1 };
	else if (el->tracking)
		el->tracking->name = NULL;	/* none any more */
	return 0;
}

const struct pk_evsel *pk_evlist__tracking(const struct pk_evlist *el)
{
	return el && el->tracking && el->tracking->name ? el->tracking : NULL;
}

/* --- context-free specs -------------------------------------------------------------------- */

/* A software or tool event whose attr no PMU, table or machine fact changes. */
static bool event_software_only(const struct spec_event *e)
{
	if (e->mods.precise || e->mods.P)
		return false;	/* the precise level comes from the PMU tree */
	switch (e->kind) {
	case SPEC_EV_NUMERIC:
		return e->numeric_type == PERF_TYPE_SOFTWARE;
	case SPEC_EV_NAME:
	case SPEC_EV_SLASH: {
		const struct pk_symbol *s = pk_symbols__find(e->name);
		return s && (s->kind == PK_SYMBOL_SOFTWARE || s->kind == PK_SYMBOL_TOOL);
	}
	default:
		return false;
	}
}

bool pk_spec__needs_context(const char *spec, enum pk_spec_mode mode)
{
	struct spec_ast ast = { 0 };
	struct pk_spec_error pe;
	struct pk_arena scratch;
	max_align_t scratch_buf[(ADD_SCRATCH + sizeof(max_align_t) - 1) / sizeof(max_align_t)];
	bool needs = false;

	if (!spec || mode != PK_SPEC_STAT)
		return true;	/* record adds tracking events by the machine's PMUs */
	pk_arena__init_buf(&scratch, scratch_buf, sizeof(scratch_buf));
	if (spec_parse_in(spec, &scratch, &ast, &pe))
		needs = true;	/* the full context gives the better error */
	for (size_t g = 0; !needs && g < ast.nr_groups; g++) {
		const struct spec_group *gr = &ast.groups[g];
		needs = gr->mods.precise || gr->mods.P;
		for (size_t i = 0; !needs && i < gr->nr_events; i++)
			needs = !event_software_only(&gr->events[i]);
	}
	pk_arena__free(&scratch);
	return needs;
}

/* --- suggestions ------------------------------------------------------------------------------ */

struct cands {
	const char **v;
	size_t n, cap;
};

static void cand_add(struct cands *c, const char *s)
{
	if (PK_GROW(c->v, c->cap, c->n + 1))
		return;
	c->v[c->n++] = s;
}

static int cand_alias(const struct pk_alias *a, void *ctx)
{
	cand_add(ctx, a->name);
	return 0;
}

const char *resolve_suggest_event(struct rctx *rc, const char *word)
{
	struct cands c = { 0 };
	char name[64];
	if (rctx_order(rc))
		return "";
	for (size_t i = 0; i < pk_symbols__count(); i++) {
		cand_add(&c, pk_symbols__get(i)->name);
		if (pk_symbols__get(i)->alias)
			cand_add(&c, pk_symbols__get(i)->alias);
	}
	for (size_t i = 0; i < rc->nr_order; i++) {
		cand_add(&c, pk_pmu__name(rc->order[i]));
		pk_alias__for_each(rc->order[i], rc->opts->cat,
				   rc->opts->cat ? rc->opts->model : PK_NO_MODEL, cand_alias, &c);
	}
	const char *s = spec_suggest(word, c.v, c.n);
	char *cache_names = NULL;
	if (!s) {
		size_t nc = pk_symbols__nr_cache();
		cache_names = malloc(nc * sizeof(name));
		const char **cv = malloc(nc * sizeof(*cv));
		if (cache_names && cv) {
			for (size_t i = 0; i < nc; i++) {
				pk_symbols__cache(i, cache_names + i * sizeof(name), sizeof(name));
				cv[i] = cache_names + i * sizeof(name);
			}
			s = spec_suggest(word, cv, nc);
		}
		free(cv);
	}
	char *hint = NULL;
	if (s) {
		hint = pk_arena__alloc(rc->scratch, strlen(s) + 24);
		if (hint)
			sprintf(hint, "did you mean '%s'?", s);
	}
	free(cache_names);
	free(c.v);
	return hint ? hint : "";
}
