/* SPDX-License-Identifier: MIT */
/*
 * report/srcline_key.c — the srcline sort key's strings as perf 6.1 gets them:
 * file:line from the debug info (computed for every address at once on the
 * session's workers), else perf's fallbacks ("sym+offset" in decimal, or
 * "dso[addr]"), "??:0" outside every map; cumulative entries asked at their
 * raw address (perf's fill_callchain_info); and perf's addr2line failure
 * limit: when a DSO's first 123 lookups all fail, perf stops asking for
 * that DSO, so entries first seen after that get the fallback even when
 * the debug info has their line (once a lookup succeeded, 6.1 never counts
 * failures again: its counter starts at 1, a success sets it to 0, and only
 * a non-zero counter is incremented). That state is replayed here over
 * the lookups perf makes (one per sample, one or two per callchain frame of
 * cumulative entries), in the order of the samples (a run of samples of one
 * callchain is replayed until the state stops changing).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "util/error.h"
#include "util/grow.h"

#define A2L_FAIL_LIMIT 123	/* perf's */

/* the debug info's answer for an lclass (NULL: none), and perf's fallback into buf */
static const char *lookup(struct pk_report *r, const struct rp_lclass *lc, char *buf, size_t size,
			  const char **fallback)
{
	const struct pk_loc *loc = lc->loc;
	uint64_t addr = lc->raw ? lc->addr : loc->addr;
	const char *s;
	if (lc->raw && !lc->frame && r->cg.key != RP_CCKEY_FUNCTION) {
		/*
		 * perf's callchain_srcline (-g address or srcline): the frame's own,
		 * from its map-relative address, in the template that made the entry;
		 * its fallback without the symbol's name (-g srcline: none)
		 */
		s = r->s ? pk_session__loc_srcline(r->s, loc) : NULL;
		if (r->cg.key == RP_CCKEY_SRCLINE)
			snprintf(buf, size, "??:0");
		else if (loc->sym)
			snprintf(buf, size, "+%" PRIu64, loc->addr - loc->sym->start);
		else
			snprintf(buf, size, "%s[%" PRIx64 "]", loc->dso ? pk_dso__short_name(loc->dso) : "",
				 loc->dso ? pk_dso__objdump_addr(loc->dso, loc->addr) : loc->addr);
		*fallback = buf;
		return s;
	}
	if (lc->raw && lc->frame)
		s = r->s ? pk_session__loc_srcline(r->s, loc) : NULL;	/* the node's own srcline */
	else if (lc->raw)
		s = loc->dso ? pk_dso__srcline_str(loc->dso, addr) : NULL;
	else
		s = r->s ? pk_session__loc_srcline(r->s, loc) : NULL;
	if (loc->sym)
		snprintf(buf, size, "%s+%" PRIu64, loc->sym->name, addr - loc->sym->start);
	else
		snprintf(buf, size, "%s[%" PRIx64 "]", loc->dso ? pk_dso__short_name(loc->dso) : "",
			 loc->dso ? pk_dso__objdump_addr(loc->dso, addr) : addr);	/* perf's */
	*fallback = buf;
	return s;
}

static const char *keep(struct pk_report *r, const char *s)
{
	const char *k = pk_arena__strdup(&r->arena, s);
	return k ? k : "??:0";
}

const char *rp_lclass_srcline(struct pk_report *r, uint32_t lci)
{
	struct rp_lclass *lc = rp_lclass(r, lci);
	if (lc->srcline)
		return lc->srcline;
	if (!lc->loc->map) {
		lc->srcline = "??:0";	/* perf's SRCLINE_UNKNOWN */
		return lc->srcline;
	}
	char buf[512];
	const char *fb, *s = lookup(r, lc, buf, sizeof(buf), &fb);
	lc->srcline = s ? s : keep(r, fb);
	return lc->srcline;
}

/* perf's srcfile: the file of a srcline from the debug info ("" for the fallbacks, "??:0") */
const char *rp_lclass_srcfile(struct pk_report *r, uint32_t lci)
{
	struct rp_lclass *lc = rp_lclass(r, lci);
	if (lc->srcfile)
		return lc->srcfile;
	const char *s = rp_lclass_srcline(r, lci), *colon = strchr(s, ':');
	lc->srcfile = "";
	if (colon && colon != s && strcmp(s, "??:0")) {
		char *f = pk_arena__alloc(&r->arena, (size_t)(colon - s) + 1);
		if (f) {
			memcpy(f, s, (size_t)(colon - s));
			f[colon - s] = 0;
			lc->srcfile = f;
		}
	}
	return lc->srcfile;
}

/* ---- perf's addr2line failure limit ------------------------------------------------------ */

struct dso_state {
	const struct pk_dso *dso;
	uint32_t fails;
	bool disabled;
};

struct a2l {
	struct pk_report *r;
	struct dso_state *st;
	size_t nr, cap;
	uint8_t *decided;	/* by lclass */
	uint32_t *dso_of;	/* by lclass: state index + 1 */
	const char **real;	/* by lclass: the debug info's answer */
	uint8_t *looked;	/* by lclass: real[] set (NULL: no answer) */
};

static struct dso_state *state_of(struct a2l *a, const struct pk_dso *d)
{
	for (size_t i = 0; i < a->nr; i++)
		if (a->st[i].dso == d)
			return &a->st[i];
	if (PK_GROW(a->st, a->cap, a->nr + 1))
		return NULL;
	a->st[a->nr] = (struct dso_state){ .dso = d, .fails = 1 };	/* perf's dso__new */
	return &a->st[a->nr++];
}

/* one lookup of lclass lci, as perf's __get_srcline counts it */
static int query(struct a2l *a, uint32_t lci)
{
	struct pk_report *r = a->r;
	struct rp_lclass *lc = rp_lclass(r, lci);
	if (!lc->loc->map) {
		a->decided[lci] = 1;
		lc->srcline = "??:0";
		return 0;
	}
	if (!a->dso_of[lci]) {
		struct dso_state *ds = state_of(a, lc->loc->dso);
		if (!ds)
			return -ENOMEM;
		a->dso_of[lci] = (uint32_t)(ds - a->st) + 1;
	}
	struct dso_state *ds = &a->st[a->dso_of[lci] - 1];
	char buf[512];
	const char *fb = NULL;
	if (!a->looked[lci]) {
		a->real[lci] = lookup(r, lc, buf, sizeof(buf), &fb);
		a->looked[lci] = 1;
	}
	const char *s = NULL;
	if (!ds->disabled) {
		s = a->real[lci];
		if (s)
			ds->fails = 0;
		else if (ds->fails && ++ds->fails > A2L_FAIL_LIMIT)
			ds->disabled = true;
	}
	if (!a->decided[lci]) {
		a->decided[lci] = 1;
		if (!s && !fb)
			lookup(r, lc, buf, sizeof(buf), &fb);
		lc->srcline = s ? s : keep(r, fb);
	}
	return 0;
}

/* the lookups of one sample of self node t: its own, then each frame's (callers first) */
static int replay_sample(struct a2l *a, uint32_t lc0, const uint32_t *fr, size_t n,
			 struct pk_buf *cache)
{
	struct pk_report *r = a->r;
	int rc = query(a, lc0);
	if (rc || !r->children || !fr)
		return rc;
	/* perf's cumulative iteration: a lookup to compare with the entries of the sample so far,
	 * and one more in the histogram for a frame whose entry is new to the sample */
	cache->len = 0;
	uint32_t cc0 = rp_lclass_cclass(r, lc0);
	if (cc0 == UINT32_MAX || pk_buf__append(cache, &cc0, sizeof(cc0)) < 0)
		return -ENOMEM;
	for (size_t k = 0; k < n && !rc; k++) {
		size_t i = r->cg.caller ? n - 1 - k : k;
		uint32_t lc = rp_loc_lclass_chain(r, pk_session__loc_at(r->s, fr[i]));
		rc = query(a, lc);
		if (rc)
			break;
		uint32_t cc = rp_lclass_cclass(r, lc);
		if (cc == UINT32_MAX)
			return -ENOMEM;
		const uint32_t *c = (const uint32_t *)cache->data;
		size_t nc = cache->len / sizeof(uint32_t), j;
		for (j = 0; j < nc && c[j] != cc; j++)
			;
		if (j < nc)
			continue;
		if (pk_buf__append(cache, &cc, sizeof(cc)) < 0)
			return -ENOMEM;
		rc = query(a, lc);
	}
	return rc;
}

static bool same_states(const struct dso_state *x, const struct dso_state *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i].fails != y[i].fails || x[i].disabled != y[i].disabled)
			return false;
	return true;
}

static int replay(struct pk_report *r, uint8_t *decided)
{
	size_t nl = r->lclasses.len / sizeof(struct rp_lclass) + 1;
	struct a2l a = { .r = r, .decided = decided };
	struct pk_buf frames = { 0 }, cache = { 0 };
	struct dso_state *before = NULL;
	size_t before_cap = 0;
	int rc = 0;
	a.dso_of = calloc(nl, sizeof(*a.dso_of));
	a.real = calloc(nl, sizeof(*a.real));
	a.looked = calloc(nl, 1);
	if (!a.dso_of || !a.real || !a.looked)
		rc = -ENOMEM;
	size_t nruns = r->srcline_seq.len / sizeof(struct rp_run);
	for (size_t ri = 0; ri < nruns && !rc; ri++) {
		const struct rp_run *run = &((const struct rp_run *)r->srcline_seq.data)[ri];
		const uint32_t *fr = NULL;
		size_t n = 0;
		uint32_t lc0;
		if (run->id & RP_SELF) {
			lc0 = run->id & ~RP_SELF;	/* a sample without a callchain */
		} else {
			const struct rp_tnode *t = rp_tnode(r, run->id);
			lc0 = rp_loc_lclass(r, pk_session__loc_at(r->s, t->loc & ~RP_SELF));
			frames.len = 0;
			for (uint32_t p = t->parent; rp_tnode(r, p)->parent; p = rp_tnode(r, p)->parent)
				if (pk_buf__append(&frames, &rp_tnode(r, p)->loc, sizeof(uint32_t)) < 0)
					rc = -ENOMEM;
			fr = (const uint32_t *)frames.data;
			n = frames.len / sizeof(uint32_t);
		}
		/* the run's samples one after the other, until the counts no longer change */
		for (uint64_t k = 0; k < run->reps && !rc; k++) {
			size_t nb = a.nr;
			if (PK_GROW(before, before_cap, nb)) {
				rc = -ENOMEM;
				break;
			}
			if (nb)
				memcpy(before, a.st, nb * sizeof(*before));
			rc = replay_sample(&a, lc0, fr, n, &cache);
			if (k && a.nr == nb && same_states(before, a.st, nb))
				break;
			if (k > A2L_FAIL_LIMIT + 2)
				break;
		}
	}
	free(before);
	free(a.st);
	free(a.dso_of);
	free(a.real);
	free(a.looked);
	pk_buf__free(&frames);
	pk_buf__free(&cache);
	return rc;
}

int rp_prepare_srclines(struct pk_report *r, struct pk_error *err)
{
	/* every location of the prefix trees (perf 6.1 compares their srclines when adding) */
	size_t nt = r->tnodes.len / sizeof(struct rp_tnode);
	for (size_t i = 1; i < nt; i++) {
		const struct rp_tnode *t = rp_tnode(r, (uint32_t)i);
		if (!t->parent)
			continue;
		const struct pk_loc *loc = pk_session__loc_at(r->s, t->loc & ~RP_SELF);
		if (((t->loc & RP_SELF) ? rp_loc_lclass(r, loc) : rp_loc_lclass_chain(r, loc)) ==
		    UINT32_MAX)
			return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	}
	size_t n = rp_nr_entries(r), nl = r->lclasses.len / sizeof(struct rp_lclass);
	const struct pk_loc **locs = malloc((nl ? nl : 1) * sizeof(*locs));
	uint8_t *seen = calloc(nl ? nl : 1, 1);
	uint8_t *decided = calloc(nl ? nl : 1, 1);
	if (!locs || !seen || !decided) {
		free(locs);
		free(seen);
		free(decided);
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		seen[rp_entry(r, (uint32_t)i)->lclass] = 1;
	size_t k = 0;
	for (size_t i = 0; i < nl; i++) {
		const struct pk_loc *loc = rp_lclass(r, (uint32_t)i)->loc;
		if (loc->map && !rp_lclass(r, (uint32_t)i)->raw)
			locs[k++] = loc;
	}
	/* the debug info's answers, on the session's workers */
	int rc = 0;
	if (k && r->s)
		rc = pk_session__prepare_srclines(r->s, locs, k, PK_PREPARE_SRCLINE, err);
	/* which answer each entry got, in perf's order of lookups */
	if (!rc && (rc = replay(r, decided)))
		pk_error__set(err, rc, "", 0, 0, "out of memory");
	for (size_t i = 0; i < nl && !rc; i++)
		if (seen[i] && !decided[i])
			rp_lclass_srcline(r, (uint32_t)i);
	for (size_t i = 0; i < nl && !rc; i++)
		if (seen[i] && r->has_key[RP_KEY_SRCFILE])
			rp_lclass_srcfile(r, (uint32_t)i);
	free(locs);
	free(seen);
	free(decided);
	return rc;
}
