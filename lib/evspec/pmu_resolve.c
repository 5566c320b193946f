/* SPDX-License-Identifier: MIT */
/*
 * evspec/pmu_resolve.c — which PMU(s) an event of the syntax tree lands on, the way
 * perf 6.1 decides it: symbolic hardware/software/tool and generic cache
 * events; rNNN and TYPE:CONFIG; breakpoints; tracepoints (id from tracefs);
 * PMU/terms/ with table or sysfs aliases expanded in place; bare alias names
 * and alias/terms/ on every PMU that has the alias; uncore PMU names without
 * their instance suffix ("uncore_cha/.../" → uncore_cha_0, uncore_cha_1...);
 * hybrid machines (cpu_core + cpu_atom), where a core event becomes one
 * event per core PMU and "cpu_core/cycles/" is "cycles" on cpu_core only.
 *
 * PMUs are visited in perf's order: readdir of the sysfs directory, which on
 * sysfs (kernfs) is (name hash, name). Tracepoints and breakpoints are in
 * tracepoint.c.
 *
 * Every spec pays for this, so work is not repeated within one add: the
 * PMUs an alias name may land on come from the tree's derived indexes
 * (pmu/derived.h) rather than a scan; the table lookup of the last name is
 * kept (tmemo), so is what each of those PMUs answers to it (amemo, used
 * when its alias is expanded) and the last alias encoding cut into terms
 * (emem: uncore instances share one). These live in the add's rctx only.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/event_names.h>


#include "events/catalog_int.h"
#include "pmu/lookup.h"
#include "pmu/derived.h"
#include "evspec/evlist_int.h"
#include "util/grow.h"
#include "util/hash.h"

int ev_vec__push(struct ev_vec *vec, struct ev *ev)
{
	if (!vec->v) {
		vec->v = vec->inl;
		vec->cap = sizeof(vec->inl) / sizeof(vec->inl[0]);
	}
	if (PK_GROW_FROM(vec->v, vec->cap, vec->nr + 1, vec->inl))
		return -ENOMEM;
	vec->v[vec->nr++] = ev;
	return 0;
}

void ev_vec__free(struct ev_vec *vec)
{
	if (vec->v != vec->inl)
		free(vec->v);
	vec->v = NULL;
	vec->nr = vec->cap = 0;
}

/* --- PMU order -------------------------------------------------------------------------- */

int rctx_order(struct rctx *rc)
{
	const struct pk_pmu_tree_derived *d = pk_pmu_tree__derived(rc->opts->pmus);
	if (rc->have_order)
		return 0;
	rc->order = d ? d->order : NULL;
	rc->nr_order = d ? d->nr_order : 0;
	rc->have_order = true;
	return 0;
}

void rctx_facts(struct rctx *rc)
{
	const struct pk_pmu_tree_derived *d = pk_pmu_tree__derived(rc->opts->pmus);
	if (rc->have_facts)
		return;
	rc->have_facts = true;
	if (d) {
		rc->max_precise = d->max_precise;
		rc->perf_metrics = d->perf_metrics;
	}
}

int rctx_init(struct rctx *rc, const struct pk_spec_opts *opts, const char *text,
	      struct pk_arena *arena, struct pk_arena *scratch, struct pk_spec_error *err)
{
	const struct pk_pmu_tree_derived *d = pk_pmu_tree__derived(opts->pmus);
	*rc = (struct rctx){ .opts = opts, .text = text, .arena = arena, .scratch = scratch,
			     .err = err, .max_precise = -1 };
	/* hybrid core PMUs (cpu_core, cpu_atom), in sysfs order */
	if (d) {
		rc->nr_hybrid = d->nr_hybrid;
		memcpy(rc->hybrid, d->hybrid, d->nr_hybrid * sizeof(rc->hybrid[0]));
	}
	return 0;
}

void rctx_fini(struct rctx *rc)
{
	rc->order = NULL;
}

static const struct pk_pmu *find_pmu(struct rctx *rc, const char *name)
{
	return rc->opts->pmus ? pk_pmu_tree__find(rc->opts->pmus, name) : NULL;
}

static bool is_hybrid_pmu(struct rctx *rc, const struct pk_pmu *pmu)
{
	for (size_t i = 0; i < rc->nr_hybrid; i++)
		if (rc->hybrid[i] == pmu)
			return true;
	return false;
}

/*
 * The model's table events named name (pk_catalog__find_event), remembered
 * for the last name asked: an event name is looked up to find its PMUs, then
 * again on each PMU when its alias is expanded.
 */
static const struct pk_alias_range *table_range_h(struct rctx *rc, const char *name, uint32_t h)
{
	if (!rc->opts->cat || rc->opts->model == PK_NO_MODEL)
		return NULL;
	if (!rc->tmemo_name || (rc->tmemo_name != name && strcmp(rc->tmemo_name, name))) {
		rc->tmemo.found = !pk_catalog__find_event_hashed(rc->opts->cat, rc->opts->model, name, h,
								 NULL, &rc->tmemo.first, &rc->tmemo.count);
		rc->tmemo_name = name;
	}
	return &rc->tmemo;
}

static const struct pk_alias_range *table_range(struct rctx *rc, const char *name)
{
	if (!rc->opts->cat || rc->opts->model == PK_NO_MODEL)
		return NULL;
	if (rc->tmemo_name && (rc->tmemo_name == name || !strcmp(rc->tmemo_name, name)))
		return &rc->tmemo;
	return table_range_h(rc, name, pk_hash__casefold(name));
}

/*
 * pk_alias__find's answer for name on pmu, the part the encoder uses; 0 or
 * -ENOENT. parts_out (may be NULL) gets what it was merged from.
 */
static int alias_find(struct rctx *rc, const struct pk_pmu *pmu, const char *name,
		      struct pk_alias_brief *out, struct pk_alias_parts *parts_out)
{
	/* cppcheck-suppress uninitvar ; both paths below fill *p before reading it */
	struct pk_alias_parts parts, *p = parts_out ? parts_out : &parts;
	if (rc->amemo_name && (rc->amemo_name == name || !strcmp(rc->amemo_name, name)))
		for (size_t i = 0; i < rc->nr_amemo; i++)
			if (rc->amemo[i].pmu == pmu) {
				*p = rc->amemo[i].parts;
				return pk_alias__brief(rc->opts->cat, p, out);
			}
	pk_alias__find_parts(pmu, rc->opts->cat, rc->opts->cat ? rc->opts->model : PK_NO_MODEL,
			     name, table_range(rc, name), p);
	return pk_alias__brief(rc->opts->cat, p, out);
}

/*
 * What the alias says of its counts: per package (the table event's PerPkg
 * when it has one, else sysfs's .per-pkg; any alias of the event, as perf),
 * and their unit and scale (the table's ScaleUnit, else sysfs's .unit/.scale).
 */
static void alias_count_facts(struct rctx *rc, const struct pk_alias_parts *parts, struct ev *ev)
{
	struct pk_alias a;
	if (parts->table && rc->opts->cat) {
		if (pk_alias__from_parts(rc->opts->cat, parts, &a))
			return;
	} else if (parts->sysfs) {
		a = (struct pk_alias){ .unit = parts->sysfs->unit, .scale = parts->sysfs->scale,
				       .per_pkg = parts->sysfs->per_pkg };
	} else {
		return;
	}
	ev->pub.per_pkg |= a.per_pkg;
	if (a.unit && *a.unit)
		ev->pub.unit = a.unit;
	if (a.scale > 0 && a.scale != 1.0)
		ev->pub.scale = a.scale;
}

/* --- events without a PMU --------------------------------------------------------------- */

int resolve_push(struct rctx *rc, struct ev_vec *out, struct ev *ev)
{
	if (!ev || ev_vec__push(out, ev))
		return rctx_error(rc, -ENOMEM, spec_pos_make(0, 0), NULL, "out of memory");
	return 0;
}

/* Terms of an event that has no PMU formats (perf's config_term_common). */
int resolve_common_terms(struct rctx *rc, struct ev *ev, const struct spec_event *e, bool tp)
{
	for (size_t i = 0; i < e->nr_terms; i++) {
		struct xterm x = { .t = &e->terms[i] };
		int r = encode_common_term(rc, ev, &x, false, tp);
		if (r)
			return r < 0 ? r : -EINVAL;
	}
	return 0;
}

static void set_symbol_pmu(struct ev *ev, const struct pk_pmu *pmu)
{
	ev->pmu = pmu;
	ev->pmu_name = pk_pmu__name(pmu);
	ev->pub.pmu = ev->pmu_name;
}

/* Symbolic, raw and TYPE:CONFIG events (perf's parse_events_add_numeric). */
static int add_numeric(struct rctx *rc, const struct spec_event *e, uint32_t type, uint64_t config,
		       struct ev_vec *out)
{
	if (type == PERF_TYPE_SOFTWARE || !rc->nr_hybrid) {
		struct ev *ev = ev_new(rc, e);
		if (!ev)
			return resolve_push(rc, out, NULL);
		ev->attr0.type = type;
		ev->attr0.config = config;
		int r = resolve_common_terms(rc, ev, e, false);
		if (r)
			return r;
		if (type == PERF_TYPE_SOFTWARE)
			ev->pub.pmu = "software";
		else if (type == PERF_TYPE_RAW || type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE)
			ev->pub.pmu = NULL;
		return resolve_push(rc, out, ev);
	}
	/* hybrid: one event per core PMU; hardware ids carry the PMU type in bits 32-63 */
	for (size_t i = 0; i < rc->nr_hybrid; i++) {
		const struct pk_pmu *pmu = rc->hybrid[i];
		if (rc->hybrid_only && strcmp(rc->hybrid_only, pk_pmu__name(pmu)))
			continue;
		struct ev *ev = ev_new(rc, e);
		if (!ev)
			return resolve_push(rc, out, NULL);
		ev->attr0.config = config;
		int r = resolve_common_terms(rc, ev, e, false);
		if (r)
			return r;
		if (type == PERF_TYPE_RAW) {
			ev->attr0.type = pk_pmu__type(pmu);
		} else {
			ev->attr0.type = type == PERF_TYPE_HW_CACHE ? PERF_TYPE_HW_CACHE : PERF_TYPE_HARDWARE;
			ev->attr0.config = (ev->attr0.config & 0xffffffffu) |
					   ((uint64_t)pk_pmu__type(pmu) << 32);
		}
		set_symbol_pmu(ev, pmu);
		if ((r = resolve_push(rc, out, ev)))
			return r;
	}
	return 0;
}

static int add_tool(struct rctx *rc, const struct spec_event *e, const struct pk_symbol *s,
		    struct ev_vec *out)
{
	if (e->nr_terms)
		return rctx_error(rc, 0, e->terms[0].pos, NULL, "%s takes no terms", s->name);
	struct ev *ev = ev_new(rc, e);
	if (!ev)
		return resolve_push(rc, out, NULL);
	ev->attr0.type = PERF_TYPE_SOFTWARE;
	ev->attr0.config = PERF_COUNT_SW_DUMMY;
	ev->tool = true;
	/* perf stat's system-wide test compares the name: "duration_time:u" is not it */
	ev->duration_time = !strcmp(ev->perf_name ? ev->perf_name : "", "duration_time");
	ev->pub.pmu = "tool";
	return resolve_push(rc, out, ev);
}

/* --- PMU events ----------------------------------------------------------------------------- */

struct xlist {
	struct xterm *v;
	size_t n;
};

static bool fixed_term(const struct spec_term *t)
{
	return t->kind == SPEC_TERM_RAW || t->kind == SPEC_TERM_DRV_CFG ||
	       encode_term_fixed(t) >= 0;
}

/*
 * perf's lexer takes a generic cache event only as its exact spellings:
 * TYPE[-OP|RESULT[-OP|RESULT]] ("L1-dcache-load-misses", "l1d-loads"), case
 * and all; anything else is another kind of name.
 */
static bool cache_spelling(const char *name)
{
	static const char *const types[] = {
		"L1-dcache", "l1-d", "l1d", "L1-data", "L1-icache", "l1-i", "l1i", "L1-instruction",
		"LLC", "L2", "dTLB", "d-tlb", "Data-TLB", "iTLB", "i-tlb", "Instruction-TLB",
		"branch", "branches", "bpu", "btb", "bpc", "node",
	};
	static const char *const opres[] = {
		"load", "loads", "read", "store", "stores", "write", "prefetch", "prefetches",
		"speculative-read", "speculative-load", "refs", "Reference", "ops", "access",
		"misses", "miss",
	};
	if (!strchr("LlDdIibBn", name[0]) || strpbrk(name, "._/:"))
		return false;	/* the spellings are letters, digits and '-' */
	const char *p = name;
	for (int part = 0; part < 3; part++) {
		const char *const *v = part ? opres : types;
		size_t n = part ? sizeof(opres) / sizeof(*opres) : sizeof(types) / sizeof(*types);
		size_t best = 0;
		for (size_t i = 0; i < n; i++) {
			size_t l = strlen(v[i]);
			if (l > best && !strncmp(p, v[i], l))
				best = l;
		}
		if (!best)
			return false;
		p += best;
		if (!*p)
			return true;
		if (*p++ != '-')
			return false;
	}
	return false;
}

/*
 * perf_pmu__check_alias: alias terms replace the term naming them, in place. One alias
 * an event: perf 6.1 refuses a second (every alias sets a scale, 1 by default, and a
 * second one setting it is "Attempt to set event's scale twice"), the same alias too.
 */
static int expand_aliases(struct rctx *rc, const struct pk_pmu *pmu, const struct xlist *in,
			  struct xlist *out, struct ev *ev)
{
	size_t cap = in->n + 8, n = 0, nr_alias = 0;
	const struct spec_term *first_alias = NULL;
	struct xterm *v = pk_arena__alloc(rc->scratch, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < in->n; i++) {
		const struct spec_term *t = in->v[i].t;
		const char *name = NULL;
		struct pk_alias_brief a;
		struct pk_alias_parts parts;
		if (!fixed_term(t)) {
			if ((t->kind == SPEC_TERM_FLAG || (t->kind == SPEC_TERM_NUM && t->num == 1)) &&
			    !pk_pmu__find_format(pmu, t->name))
				name = t->name;
			else if (t->kind == SPEC_TERM_STR && !strcasecmp(t->name, "event"))
				name = t->str;
		}
		struct spec_term *at = NULL;
		size_t na = 0;
		if (name && !alias_find(rc, pmu, name, &a, &parts)) {
			if (nr_alias++) {
				rctx_error(rc, 0, t->pos, NULL, "'%s' is a second event alias in one "
					   "event (after '%s'): perf refuses it (\"Attempt to set "
					   "event's scale twice\")", name,
					   first_alias->kind == SPEC_TERM_STR ? first_alias->str
									      : first_alias->name);
				return -EINVAL;
			}
			first_alias = t;
			const char *enc = a.encoding ? a.encoding : "";
			if (rc->emem_enc == enc && rc->emem_pos.off == t->pos.off &&
			    rc->emem_pos.len == t->pos.len) {
				/* the same table text for another PMU (uncore instances): its terms again */
				at = rc->emem_terms;
				na = rc->emem_n;
			} else {
				if (resolve_alias_terms(rc, enc, t->pos, &at, &na))
					return -ENOMEM;
				rc->emem_enc = enc;
				rc->emem_pos = t->pos;
				rc->emem_terms = at;
				rc->emem_n = na;
			}
			if (!ev->pub.table_event) {
				ev->pub.table_event = a.name;
				ev->pub.table_desc = a.desc;
			}
			alias_count_facts(rc, &parts, ev);
		} else {
			at = (struct spec_term *)t;
			na = 1;
		}
		if (n + na > cap) {
			cap = (n + na) * 2;
			struct xterm *nv = pk_arena__alloc(rc->scratch, cap * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			memcpy(nv, v, n * sizeof(*v));
			v = nv;
		}
		for (size_t k = 0; k < na; k++)
			v[n++] = (struct xterm){ .t = &at[k], .weak = at != t || in->v[i].weak };
	}
	out->v = v;
	out->n = n;
	return 0;
}

static int resolve_inner(struct rctx *rc, const struct spec_event *e, struct ev_vec *out);

/* perf's parse_events_add_pmu. */
static int add_pmu(struct rctx *rc, const struct spec_event *e, const struct pk_pmu *pmu,
		   const struct xlist *terms, bool use_alias, struct ev_vec *out)
{
	struct ev *ev = ev_new(rc, e);
	if (!ev)
		return resolve_push(rc, out, NULL);
	ev->pmu = pmu;
	ev->pmu_name = ev->pub.pmu = pk_pmu__name(pmu);
	ev->requires_cpu = pk_pmu__is_uncore(pmu);
	ev->use_uncore_alias = use_alias && ev->requires_cpu;
	ev->attr0.type = pk_pmu__type(pmu);
	if (!terms->n)
		return resolve_push(rc, out, ev);
	struct xlist x;
	int r = expand_aliases(rc, pmu, terms, &x, ev);
	if (r)
		return r == -ENOMEM ? resolve_push(rc, out, NULL) : r;
	/* hybrid: "cpu_core/cycles/" is the event "cycles" restricted to cpu_core */
	if (is_hybrid_pmu(rc, pmu) && x.n == 1 && !fixed_term(x.v[0].t) &&
	    strcmp(x.v[0].t->name, "event") && rc->depth < 2 && !rc->hybrid_only) {
		struct spec_event sub = *e;
		sub.kind = SPEC_EV_NAME;
		sub.name = x.v[0].t->name;
		sub.terms = NULL;
		sub.nr_terms = 0;
		sub.slash = false;
		sub.mods = (struct spec_mods){ 0 };
		struct ev_vec tmp = { 0 };
		struct pk_spec_error save = rc->err ? *rc->err : (struct pk_spec_error){ 0 };
		rc->hybrid_only = pk_pmu__name(pmu);
		rc->depth++;
		r = resolve_inner(rc, &sub, &tmp);
		rc->depth--;
		rc->hybrid_only = NULL;
		if (!r && tmp.nr) {
			for (size_t i = 0; i < tmp.nr && !r; i++)
				r = resolve_push(rc, out, tmp.v[i]);
			ev_vec__free(&tmp);
			return r;
		}
		ev_vec__free(&tmp);
		if (rc->err)
			*rc->err = save;
	}
	for (size_t i = 0; i < x.n; i++) {
		r = encode_common_term(rc, ev, &x.v[i], true, false);
		if (r < 0)
			return r;
	}
	/*
	 * Newer perf (6.6+) also takes a symbolic hardware or cache event name
	 * among a core PMU's terms ("cpu_atom/cycles,period=100000/", as in the
	 * ACR documentation): the legacy event with the PMU's type in bits
	 * 32-63 on hybrid machines. perf 6.1 refuses that ("unknown term"), and
	 * so do we, except in term lists that use Auto Counter Reload (a Linux
	 * 6.16 feature, written in that newer syntax).
	 */
	uint32_t ltype = 0;
	uint64_t lconfig = 0;
	const struct spec_term *legacy = NULL;
	bool newer = false;
	for (size_t i = 0; i < x.n; i++) {
		const char *nm = x.v[i].t->name;
		newer |= (nm[0] == 'r' && !strcmp(nm, "ratio-to-prev")) ||
			 (nm[0] == 'a' && !strcmp(nm, "acr_mask"));
	}
	for (size_t i = 0; i < x.n && newer && pk_pmu__is_core(pmu); i++) {
		const struct spec_term *t = x.v[i].t;
		if (t->kind != SPEC_TERM_FLAG || fixed_term(t) || pk_pmu__find_format(pmu, t->name))
			continue;
		const struct pk_symbol *sym = pk_symbols__find(t->name);
		if (sym && sym->kind == PK_SYMBOL_HARDWARE) {
			ltype = PERF_TYPE_HARDWARE;
			lconfig = sym->config;
		} else if (!(cache_spelling(t->name) && !pk_symbols__parse_cache(t->name, &lconfig))) {
			continue;
		} else {
			ltype = PERF_TYPE_HW_CACHE;
		}
		if (legacy)
			return rctx_error(rc, 0, t->pos, NULL, "two event names in one term list");
		legacy = t;
		x.v[i].used = true;
	}
	if ((r = encode_format_terms(rc, ev, pmu, x.v, x.n)))
		return r;
	if (legacy) {
		if (ev->attr0.config)
			return rctx_error(rc, 0, legacy->pos, NULL,
					  "'%s' is a symbolic event: it cannot be combined with terms "
					  "that set config", legacy->name);
		ev->attr0.type = ltype;
		ev->attr0.config = lconfig | (is_hybrid_pmu(rc, pmu) ? (uint64_t)pk_pmu__type(pmu) << 32 : 0);
	}
	if ((r = rules_pmu_event(rc, ev, pmu, x.v, x.n)))
		return r;
	return resolve_push(rc, out, ev);
}

static struct xlist user_terms(struct rctx *rc, const struct spec_event *e, const char *alias)
{
	struct xlist l = { 0 };
	size_t n = e->nr_terms + (alias ? 1 : 0);
	if (!n)
		return l;
	l.v = pk_arena__alloc(rc->scratch, n * sizeof(*l.v));
	if (!l.v)
		return l;
	for (size_t i = 0; i < e->nr_terms; i++)
		l.v[i].t = &e->terms[i];
	if (alias) {
		struct spec_term *t = pk_arena__alloc(rc->scratch, sizeof(*t));
		if (!t) {
			l.v = NULL;
			return l;
		}
		*t = (struct spec_term){ .name = alias, .kind = SPEC_TERM_FLAG, .num = 1,
					 .pos = e->name_pos, .val_pos = e->name_pos,
					 .name_pos = e->name_pos };
		l.v[e->nr_terms].t = t;
	}
	l.n = n;
	return l;
}

/* Does pmu answer to alias name (sysfs or table)? */
static bool pmu_has_alias(struct rctx *rc, const struct pk_pmu *pmu, const char *name)
{
	struct pk_alias_brief a;
	return !alias_find(rc, pmu, name, &a, NULL);
}

/* Run add over several PMUs; perf keeps those that work, fails when none does. */
static int over_pmus(struct rctx *rc, const struct spec_event *e, const struct pk_pmu **pmus,
		     size_t n, const struct xlist *terms, bool use_alias, struct ev_vec *out)
{
	struct pk_spec_error first;	/* set with first_r */
	int first_r = 0, ok = 0;
	for (size_t i = 0; i < n; i++) {
		size_t before = out->nr;
		int r = add_pmu(rc, e, pmus[i], terms, use_alias, out);
		if (!r) {
			ok++;
			continue;
		}
		if (r == -ENOMEM)
			return r;
		out->nr = before;
		if (!first_r && rc->err) {
			first = *rc->err;
			first_r = r;
		}
	}
	if (ok)
		return 0;
	if (rc->err && first_r)
		*rc->err = first;
	return first_r ? first_r : -EINVAL;
}

/* Alias name on every PMU that has it (perf's parse_events_multi_pmu_add). */
static int add_multi(struct rctx *rc, const struct spec_event *e, const char *name,
		     struct ev_vec *out, bool *found)
{
	const struct pk_pmu *v[256];
	struct pk_table_pmu tpmu[16];
	size_t tidx[16];
	size_t n = 0, nt = 0;
	bool all_table = true;	/* every table event of the name is in tpmu */
	*found = false;
	/* the table's PMUs for this name, looked up once */
	uint32_t h = pk_hash__casefold(name);
	const struct pk_alias_range *tr = table_range_h(rc, name, h);
	if (tr && tr->found) {
		for (size_t i = tr->first; i < tr->first + tr->count; i++) {
			const char *tp = pk_catalog__event_pmu(rc->opts->cat, rc->opts->model, i);
			if (!tp)
				continue;
			if (nt == 16) {
				all_table = false;
				break;
			}
			if (nt && tpmu[nt - 1].name == tp)
				tpmu[nt] = tpmu[nt - 1];
			else
				pk_table_pmu__init(&tpmu[nt], tp);
			tidx[nt++] = i;
		}
	}
	/*
	 * What each PMU answers to this name is remembered for the expansion of
	 * its alias (alias_find) when it is all known here: the sysfs alias and
	 * the first table event for the PMU (sys events matched by Compat are
	 * not looked at here).
	 */
	struct alias_memo memo[256];
	size_t np = rc->opts->pmus ? pk_pmu_tree__nr_pmus(rc->opts->pmus) : 0;
	/* only the PMUs that may answer are looked at (all of them in a tree that large) */
	unsigned char mark[256];
	uint32_t cand[256];
	size_t nc = np;
	if (np <= 256) {
		memset(mark, 0, np);
		nc = np ? pk_pmu_tree__candidates(rc->opts->pmus, name, h, tpmu, nt, mark, cand) : 0;
	}
	for (size_t c = 0; c < nc && n < 256; c++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(rc->opts->pmus, np <= 256 ? cand[c] : c);
		const struct pk_pmu_alias *sa = pk_pmu__find_alias(p, name);
		size_t k = 0;
		while (k < nt && !pk_pmu__matches_prepared(p, &tpmu[k]))
			k++;
		bool has = sa || k < nt;
		bool sys = pk_pmu__is_uncore(p) && pk_pmu__identifier(p);
		if (!has && sys)
			has = pmu_has_alias(rc, p, name);	/* sys events, matched by Compat */
		if (!has)
			continue;
		memo[n] = (struct alias_memo){ .pmu = p, .parts = { .sysfs = sa } };
		if (k < nt) {
			memo[n].parts.table = true;
			memo[n].parts.model = rc->opts->model;
			memo[n].parts.idx = tidx[k];
		}
		/* complete unless a table event beyond tpmu or a sys event may apply */
		memo[n].complete = rc->opts->cat && (k < nt || (all_table && !sys));
		v[n++] = p;
	}
	*found = n > 0;
	if (!n)
		return 0;
	if (n > 1)
		pk_pmu__sort_kernfs(v, n);
	struct xlist terms = user_terms(rc, e, name);
	if (!terms.v)
		return resolve_push(rc, out, NULL);
	/* the memo, in the scratch: over_pmus may resolve other names (hybrid) meanwhile */
	struct alias_memo *am = pk_arena__alloc(rc->scratch, n * sizeof(*am));
	size_t na = 0;
	for (size_t i = 0; am && i < n; i++)
		if (memo[i].complete)
			am[na++] = memo[i];
	if (am) {
		rc->amemo = am;
		rc->nr_amemo = na;
		rc->amemo_name = name;
	}
	return over_pmus(rc, e, v, n, &terms, true, out);
}

/* perf_pmu__valid_suffix: tok, then nothing or an optional '_' and digits. */
static bool valid_suffix(const char *name, const char *tok)
{
	size_t n = strlen(tok);
	if (strncmp(name, tok, n))
		return false;
	const char *p = name + n;
	if (!*p)
		return true;
	if (*p == '_')
		p++;
	if (!*p)
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

/* "uncore_cha/…/" or "cha/…/": every instance (perf's fallback when no PMU has the name). */
static int add_wildcard(struct rctx *rc, const struct spec_event *e, struct ev_vec *out,
			bool *found)
{
	const struct pk_pmu *v[256];
	size_t n = 0;
	char pattern[512];
	snprintf(pattern, sizeof(pattern), "%s*", e->name);
	size_t np = rc->opts->pmus ? pk_pmu_tree__nr_pmus(rc->opts->pmus) : 0;
	for (size_t i = 0; i < np && n < 256; i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(rc->opts->pmus, i);
		const char *nm = pk_pmu__name(p);
		if (!strncmp(nm, "uncore_", 7) && strncmp(e->name, "uncore_", 7))
			nm += 7;
		if (!fnmatch(pattern, nm, 0) && valid_suffix(nm, e->name))
			v[n++] = p;
	}
	*found = n > 0;
	if (!n)
		return 0;
	if (n > 1)
		pk_pmu__sort_kernfs(v, n);
	struct xlist terms = user_terms(rc, e, NULL);
	if (e->nr_terms && !terms.v)
		return resolve_push(rc, out, NULL);
	return over_pmus(rc, e, v, n, &terms, false, out);
}

/* --- dispatch ----------------------------------------------------------------------------------- */

static int resolve_inner(struct rctx *rc, const struct spec_event *e, struct ev_vec *out)
{
	int r;
	bool found = false;
	uint64_t cfg;

	switch (e->kind) {
	case SPEC_EV_RAW:
		return add_numeric(rc, e, PERF_TYPE_RAW, e->raw, out);
	case SPEC_EV_NUMERIC:
		return add_numeric(rc, e, e->numeric_type, e->raw, out);
	case SPEC_EV_BREAKPOINT:
		return resolve_breakpoint(rc, e, out);
	case SPEC_EV_TRACEPOINT:
		return resolve_tracepoint(rc, e, out);
	case SPEC_EV_NAME:
	case SPEC_EV_SLASH:
		break;
	}
	const struct pk_symbol *s = pk_symbols__find(e->name);
	if (s && s->kind == PK_SYMBOL_TOOL)
		return add_tool(rc, e, s, out);
	if (s)
		return add_numeric(rc, e, s->type, s->config, out);
	r = cache_spelling(e->name) ? pk_symbols__parse_cache(e->name, &cfg) : -ENOENT;
	if (r == -EINVAL)
		return rctx_error(rc, 0, e->name_pos, NULL,
				  "'%s' is not a valid cache event (that cache has no such operation)",
				  e->name);
	if (!r)
		return add_numeric(rc, e, PERF_TYPE_HW_CACHE, cfg, out);
	if ((r = add_multi(rc, e, e->name, out, &found)) || found)
		return r;
	if (e->kind == SPEC_EV_SLASH) {
		const struct pk_pmu *pmu = find_pmu(rc, e->name);
		if (pmu) {
			struct xlist terms = user_terms(rc, e, NULL);
			if (e->nr_terms && !terms.v)
				return resolve_push(rc, out, NULL);
			return add_pmu(rc, e, pmu, &terms, false, out);
		}
		if ((r = add_wildcard(rc, e, out, &found)) || found)
			return r;
		const char *bad = pk_pmu_tree__pmu_problem(rc->opts->pmus, e->name);
		if (bad)
			return rctx_error(rc, 0, e->name_pos, NULL, "PMU '%s' is unusable: %s", e->name,
					  bad);
		return rctx_error(rc, 0, e->name_pos, resolve_suggest_event(rc, e->name),
				  "unknown PMU or event '%s'", e->name);
	}
	return rctx_error(rc, 0, e->name_pos, resolve_suggest_event(rc, e->name),
			  "unknown event '%s'", e->name);
}

int resolve_event(struct rctx *rc, const struct spec_event *e, struct ev_vec *out)
{
	size_t before = out->nr;
	/* terms given twice are taken as perf 6.1 takes them (encode applies them in order: a
	 * format term ORs into its bits again, a config word or config term is replaced) */
	int r = resolve_inner(rc, e, out);
	for (size_t i = before; !r && i < out->nr; i++)
		r = encode_modifiers(rc, out->v[i], &e->mods, false, true);
	return r;
}
