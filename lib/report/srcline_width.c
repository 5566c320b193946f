/* SPDX-License-Identifier: MIT */
/*
 * report/srcline_width.c — which srclines perf 6.1 has when it sizes the
 * srcline column. perf computes an entry's srcline lazily: the first time a
 * comparison of two entries reaches the srcline key (every key before it
 * equal), or when the entry is printed. It sizes each column over the
 * entries as they go into the output tree, so an entry whose srcline is
 * first computed later (at print time) is left out of the width and cut to
 * it. With --no-children (without callchains, or -g none...) that happens
 * for a few entries, e.g. under --sort dso,srcline a kernel entry that never
 * met another kernel entry on its way into the trees.
 *
 * Replayed here exactly: perf's red-black trees (util/rbtree.h gives the
 * same shapes) over the samples in perf's order: the entries tree
 * (hists__findnew_entry, compared with hist_entry__cmp(existing, new); a new
 * entry keeps the srcline its template got on the way down), the collapse
 * tree when a key has a collapse function (comm), then the output tree
 * (hist_entry__sort(new, existing), resort.c) after whose every insertion
 * perf takes the entry's width. With children every callchain entry is
 * compared with the sample's others (he_cache) and all end up known: not
 * replayed.
 */
#include <errno.h>
#include <stdlib.h>

#include "report/report_int.h"
#include "util/rbtree.h"

/* the entry perf has for entry i: its collapse root */
static uint32_t root_of(struct pk_report *r, uint32_t i)
{
	const struct rp_entry *e = rp_entry(r, i);
	return e->merged ? e->merged - 1 : i;
}

struct walk {
	struct pk_report *r;
	uint8_t *known;
	size_t nr_known;	/* entries of the hists with known[] set */
	bool tmpl;		/* the new entry's template got its srcline */
	uint32_t probe;		/* the entry looked up (a template) */
};

static void mark(struct walk *w, uint32_t i)
{
	if (!w->known[i]) {
		w->known[i] = 1;
		w->nr_known++;
	}
}

/*
 * perf's hist_entry__cmp(left, right) (and hist_entry__collapse: in 6.1 the
 * same functions but for comm, whose collapse compares alike): the sort keys
 * in order until one differs; srcline compares its strings. Marks left as
 * known, and right too unless it is a template (then w->tmpl).
 */
static int64_t cmp_mark(struct walk *w, uint32_t left, uint32_t right, bool right_tmpl)
{
	const struct pk_report *r = w->r;
	const struct rp_entry *a = rp_entry(r, left), *b = rp_entry(r, right);
	for (int i = 0; i < r->nr_sorts; i++) {
		int k = r->sorts[i];
		int64_t c;
		if (k == RP_KEY_SRCLINE) {
			mark(w, left);
			if (right_tmpl)
				w->tmpl = true;
			else
				mark(w, right);
			c = rp_key_collapse(r, k, a, b);
		} else {
			c = rp_key_cmp(r, k, a, b);
		}
		if (c)
			return c;
	}
	return 0;
}

/* insertion: left when cmp(existing, new) < 0, as perf's findnew and collapse_insert */
static bool goes_left(void *ctx, uint32_t node, uint32_t other)
{
	return cmp_mark(ctx, other, node, false) < 0;
}

/* the search of perf's entries tree: cmp(existing, template) */
static int64_t probe_cmp(void *ctx, uint32_t node)
{
	struct walk *w = ctx;
	return cmp_mark(w, node, w->probe, true);
}

int64_t rp_sort_mark(const struct pk_report *r, uint32_t a, uint32_t b, uint8_t *known)
{
	const struct rp_entry *ea = rp_entry(r, a), *eb = rp_entry(r, b);
	for (int i = 0; i < r->nr_sorts; i++) {
		if (r->elide[r->sorts[i]])
			continue;	/* perf_hpp__should_skip */
		if (r->sorts[i] == RP_KEY_SRCLINE && known)
			known[a] = known[b] = 1;
		int64_t c = rp_col_sort(r, r->sorts[i], ea, eb);
		if (c)
			return c;
	}
	return 0;
}

int rp_srcline_known(struct pk_report *r, int h, const uint32_t *order, size_t n, uint8_t *known)
{
	if (!r->has_key[RP_KEY_SRCLINE] || r->children || r->group)
		return 0;
	size_t ne = rp_nr_entries(r);
	struct pk_rbnode *nodes = malloc((ne ? ne : 1) * sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	struct walk w = { .r = r, .known = known };
	uint32_t root = PK_RB_NIL;

	/*
	 * The entries tree, sample by sample (a run's third sample walks as its
	 * second); once every entry is in it with its srcline known, nothing
	 * more can change (n: the hists' entries).
	 */
	size_t nruns = r->entry_seq.len / sizeof(struct rp_run), inserted = 0;
	for (size_t ri = 0; ri < nruns && !(inserted == n && w.nr_known == n); ri++) {
		const struct rp_run *run = &((const struct rp_run *)r->entry_seq.data)[ri];
		uint32_t e = root_of(r, run->id);
		if (rp_ctx(r, rp_entry(r, e)->ctx)->hists != h)
			continue;
		for (uint32_t k = 0; k < run->reps && k < 2; k++) {
			w.tmpl = false;
			w.probe = e;
			if (pk_rbtree__find_or_link(nodes, &root, e, probe_cmp, &w) != e)
				continue;	/* found: the sample's period went to it */
			if (w.tmpl)	/* hist_entry__new keeps the template's srcline */
				mark(&w, e);
			inserted++;
		}
	}
	/* perf's collapse tree, when a key has a collapse function: in-order insertions */
	if (r->has_key[RP_KEY_COMM] && w.nr_known < n) {
		uint32_t croot = PK_RB_NIL;
		struct pk_rbnode *cn = malloc((ne ? ne : 1) * sizeof(*cn));
		if (!cn) {
			free(nodes);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++)
			pk_rbtree__insert(cn, &croot, order[i], goes_left, &w);
		free(cn);
	}
	free(nodes);
	return 1;
}
