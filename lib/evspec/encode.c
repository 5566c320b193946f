/* SPDX-License-Identifier: MIT */
/*
 * evspec/encode.c — the bits: PMU format terms placed into config words (a
 * value's bits go, low to high, into the set bits of the format's mask, which
 * may be split over several ranges), perf's fixed terms (config*, period,
 * freq, call-graph, stack-size, inherit, name, metric-id...) and modifier
 * letters, giving the attr perf's parser builds (defaults.c then applies the
 * command's defaults).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evspec/evlist_int.h"
#include "evspec/suggest.h"
#include "util/error.h"

struct spec_pos spec_pos_make(unsigned off, unsigned len)
{
	return (struct spec_pos){ off, len };
}

/*
 * Copy src into dst (len bytes): a quoted name ('...') longer than QUOTED_MAX
 * keeps its start and its closing quote with "..." between, and a message
 * still too long ends in "..." rather than mid-word.
 */
#define QUOTED_MAX 48
static void shorten(char *dst, size_t len, const char *src)
{
	size_t o = 0;
	for (const char *p = src; *p && o + 1 < len;) {
		const char *close = *p == '\'' ? strchr(p + 1, '\'') : NULL;
		if (close && (size_t)(close - p - 1) > QUOTED_MAX) {
			int w = snprintf(dst + o, len - o, "'%.*s...'", QUOTED_MAX - 3, p + 1);
			o = w < 0 ? o : o + (size_t)w >= len ? len - 1 : o + (size_t)w;
			p = close + 1;
			continue;
		}
		const char *end = close ? close + 1 : p + 1;	/* a short quote whole: quotes pair up */
		while (p < end && o + 1 < len)
			dst[o++] = *p++;
		if (o + 1 == len && p[0]) {	/* out of room: end on "..." at a word break */
			size_t cut = o > 3 ? o - 3 : 0;
			while (cut > len / 2 && dst[cut - 1] != ' ')
				cut--;
			memcpy(dst + cut, "...", 3);
			o = cut + 3;
			break;
		}
	}
	dst[o < len ? o : len - 1] = '\0';
}

int rctx_error(struct rctx *rc, int code, struct spec_pos pos, const char *hint, const char *fmt, ...)
{
	struct pk_spec_error *e = rc->err;
	if (!code)
		code = -EINVAL;
	if (!e)
		return code;
	va_list ap;
	va_start(ap, fmt);
	char *full = NULL;
	if (vasprintf(&full, fmt, ap) < 0)
		full = NULL;
	va_end(ap);
	char msg[sizeof(e->msg)], short_hint[sizeof(e->hint)];
	shorten(msg, sizeof(msg), full ? full : "out of memory");
	free(full);
	shorten(short_hint, sizeof(short_hint), hint ? hint : "");
	return pk_spec_error__set(e, code, pos.off, pos.len ? pos.len : 1, short_hint, "%s", msg);
}

unsigned encode_popcount(uint64_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

uint64_t encode_place_bits(uint64_t mask, uint64_t value)
{
	/* value's bits, low to high, into mask's set bits, low to high */
	uint64_t low = mask & -mask;
	if (mask && !(mask & (mask + low)))	/* one range of bits: a shift */
		return (value << __builtin_ctzll(mask)) & mask;
	uint64_t out = 0;
	for (; mask && value; mask &= mask - 1, value >>= 1)
		if (value & 1)
			out |= mask & -mask;
	return out;
}

__u64 *encode_config_word(struct perf_event_attr *a, int config)
{
	switch (config) {
	case 0:
		return &a->config;
	case 1:
		return &a->config1;
	case 2:
		return &a->config2;
	default:
#ifdef PERF_ATTR_SIZE_VER8
		a->size = EV_ATTR_SIZE_CONFIG3;
		return &a->config3;
#else
		return NULL;
#endif
	}
}

const char *encode_format_desc(const struct pk_pmu_format *f, char *buf, size_t len)
{
	static const char *const words[] = { "config", "config1", "config2", "config3" };
	size_t used = (size_t)snprintf(buf, len, "%s:", words[f->config & 3]);
	bool first = true;
	for (unsigned b = 0; b < 64 && used < len;) {
		if (!(f->mask & (UINT64_C(1) << b))) {
			b++;
			continue;
		}
		unsigned e = b;
		while (e + 1 < 64 && (f->mask & (UINT64_C(1) << (e + 1))))
			e++;
		int w = e == b ? snprintf(buf + used, len - used, "%s%u", first ? "" : ",", b)
			       : snprintf(buf + used, len - used, "%s%u-%u", first ? "" : ",", b, e);
		used += w > 0 ? (size_t)w : 0;
		first = false;
		b = e + 1;
	}
	return buf;
}

struct ev *ev_new(struct rctx *rc, const struct spec_event *e)
{
	struct ev *ev = pk_arena__alloc(rc->arena, sizeof(*ev));
	if (!ev)
		return NULL;
	ev->attr0.size = EV_ATTR_SIZE;
	ev->attr0.exclude_guest = 1;	/* perf's event_attr_init: not a guest tool */
	ev->max_precise = -1;
	ev->pub.scale = 1.0;
	if (e) {
		ev->pub.spec_off = e->pos.off;
		ev->pub.spec_len = e->pos.len;
		/* perf names an event by its text, modifiers included */
		ev->perf_name = pk_arena__strndup(rc->arena, rc->text + e->pos.off, e->pos.len);
		ev->pub.name = ev->perf_name;
	}
	return ev;
}

int ev_add_cterm(struct rctx *rc, struct ev *ev, const struct ev_cterm *ct)
{
	struct ev_cterm *n = pk_arena__alloc(rc->arena, (ev->nr_cterms + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	if (ev->nr_cterms)
		memcpy(n, ev->cterms, ev->nr_cterms * sizeof(*n));
	n[ev->nr_cterms] = *ct;
	ev->cterms = n;
	ev->nr_cterms++;
	if ((ct->kind == CT_PERIOD || ct->kind == CT_FREQ) && !ct->weak)
		ev->has_period = true;
	return 0;
}

const struct ev_cterm *ev_find_cterm(const struct ev *ev, enum ev_cterm_kind kind)
{
	const struct ev_cterm *found = NULL;
	for (size_t i = 0; i < ev->nr_cterms; i++)
		if (ev->cterms[i].kind == kind)
			found = &ev->cterms[i];
	return found;
}

/* --- fixed terms -------------------------------------------------------------- */

enum fixed {
	F_CONFIG, F_CONFIG1, F_CONFIG2, F_CONFIG3, F_NAME, F_PERIOD, F_FREQ, F_BRANCH, F_TIME,
	F_CALLGRAPH, F_STACK, F_MAX_STACK, F_NR, F_INHERIT, F_NO_INHERIT, F_OVERWRITE,
	F_NO_OVERWRITE, F_PERCORE, F_AUX_OUTPUT, F_AUX_SAMPLE_SIZE, F_METRIC_ID, F_RATIO,
	F_DRV_CFG, F_NONE,
};

static const struct {
	const char *name;
	enum fixed f;
	bool str;		/* wants a string value */
	bool stat_ok;		/* usable with perf stat */
} fixed_terms[] = {
	{ "config", F_CONFIG, false, true },
	{ "config1", F_CONFIG1, false, true },
	{ "config2", F_CONFIG2, false, true },
	{ "config3", F_CONFIG3, false, true },
	{ "name", F_NAME, true, true },
	{ "period", F_PERIOD, false, true },
	{ "freq", F_FREQ, false, false },
	{ "branch_type", F_BRANCH, true, false },
	{ "time", F_TIME, false, false },
	{ "call-graph", F_CALLGRAPH, true, false },
	{ "stack-size", F_STACK, false, false },
	{ "max-stack", F_MAX_STACK, false, false },
	{ "nr", F_NR, false, false },
	{ "inherit", F_INHERIT, false, false },
	{ "no-inherit", F_NO_INHERIT, false, false },
	{ "overwrite", F_OVERWRITE, false, false },
	{ "no-overwrite", F_NO_OVERWRITE, false, false },
	{ "percore", F_PERCORE, false, true },
	{ "aux-output", F_AUX_OUTPUT, false, false },
	{ "aux-sample-size", F_AUX_SAMPLE_SIZE, false, false },
	{ "metric-id", F_METRIC_ID, true, true },
	{ "ratio-to-prev", F_RATIO, false, true },
};
#define NR_FIXED (sizeof(fixed_terms) / sizeof(fixed_terms[0]))
/* 1 + the index of each fixed term, by name length (tests/unit/test_evspec_internal.c checks it) */
static const unsigned char fixed_by_len[16][6] = {
	[2] = { 13 },			/* nr */
	[4] = { 5, 7, 9 },		/* name freq time */
	[6] = { 1, 6 },			/* config period */
	[7] = { 2, 3, 4, 14, 18 },	/* config1 config2 config3 inherit percore */
	[9] = { 12, 16, 21 },		/* max-stack overwrite metric-id */
	[10] = { 10, 11, 15, 19 },	/* call-graph stack-size no-inherit aux-output */
	[11] = { 8 },			/* branch_type */
	[12] = { 17 },			/* no-overwrite */
	[13] = { 22 },			/* ratio-to-prev */
	[15] = { 20 },			/* aux-sample-size */
};
_Static_assert(NR_FIXED == 22, "fixed_by_len lists every fixed term");

int encode_fixed_index(const char *name)
{
	/* format terms are looked up for every event: by length, at most 16 bytes read */
	switch (name[0]) {	/* the first letters of fixed terms */
	case 'a': case 'b': case 'c': case 'f': case 'i': case 'm': case 'n': case 'o':
	case 'p': case 'r': case 's': case 't':
		break;
	default:
		return -1;
	}
	size_t n = 0;
	while (n < 16 && name[n])
		n++;
	if (n == 16)
		return -1;
	for (const unsigned char *c = fixed_by_len[n]; *c; c++)
		if (name[0] == fixed_terms[*c - 1].name[0] && !memcmp(name, fixed_terms[*c - 1].name, n))
			return *c - 1;
	return -1;
}

int encode_term_fixed(const struct spec_term *t)
{
	return t->fixed ? t->fixed - 2 : encode_fixed_index(t->name);
}

static enum fixed fixed_of(const struct spec_term *t, size_t *idx)
{
	if (t->kind == SPEC_TERM_RAW)
		return F_CONFIG;
	if (t->kind == SPEC_TERM_DRV_CFG)
		return F_DRV_CFG;
	int i = encode_term_fixed(t);
	if (i < 0)
		return F_NONE;
	*idx = (size_t)i;
	return fixed_terms[i].f;
}

static const char *const branch_names[] = {
	"u", "k", "hv", "any", "any_call", "any_ret", "ind_call", "abort_tx", "in_tx",
	"no_tx", "cond", "ind_jmp", "call", "save_type", "stack", "priv",
};
static const uint64_t branch_bits[] = {
	PERF_SAMPLE_BRANCH_USER, PERF_SAMPLE_BRANCH_KERNEL, PERF_SAMPLE_BRANCH_HV,
	PERF_SAMPLE_BRANCH_ANY, PERF_SAMPLE_BRANCH_ANY_CALL, PERF_SAMPLE_BRANCH_ANY_RETURN,
	PERF_SAMPLE_BRANCH_IND_CALL, PERF_SAMPLE_BRANCH_ABORT_TX, PERF_SAMPLE_BRANCH_IN_TX,
	PERF_SAMPLE_BRANCH_NO_TX, PERF_SAMPLE_BRANCH_COND, PERF_SAMPLE_BRANCH_IND_JUMP,
	PERF_SAMPLE_BRANCH_CALL, PERF_SAMPLE_BRANCH_TYPE_SAVE, PERF_SAMPLE_BRANCH_CALL_STACK,
	PERF_SAMPLE_BRANCH_PRIV_SAVE,
};

/* perf's parse_branch_str: ORs into *mode; only privilege bits become "any". */
int encode_branch_parse(const char *s, uint64_t *mode)
{
	const uint64_t plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			     PERF_SAMPLE_BRANCH_HV;
	while (*s) {
		size_t n = strcspn(s, ",");
		size_t i;
		for (i = 0; i < sizeof(branch_names) / sizeof(branch_names[0]); i++)
			if (strlen(branch_names[i]) == n && !strncasecmp(s, branch_names[i], n))
				break;
		if (i == sizeof(branch_names) / sizeof(branch_names[0]))
			return -EINVAL;
		*mode |= branch_bits[i];
		s += n + (s[n] == ',');
	}
	if (!(*mode & ~plm))
		*mode = PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

static const char *fixed_hint(const char *word, char *buf, size_t len)
{
	const char *cands[NR_FIXED];
	for (size_t i = 0; i < NR_FIXED; i++)
		cands[i] = fixed_terms[i].name;
	const char *s = spec_suggest(word, cands, NR_FIXED);
	if (!s)
		return NULL;
	snprintf(buf, len, "did you mean '%s'?", s);
	return buf;
}

/* The value's type (string, number, integer), a tracepoint's terms and stat's: 0, or an error. */
static int check_common_term(struct rctx *rc, const struct xterm *x, enum fixed f, size_t fi,
			     bool tracepoint)
{
	const struct spec_term *t = x->t;
	bool is_num = t->kind == SPEC_TERM_NUM || t->kind == SPEC_TERM_FLAG || t->kind == SPEC_TERM_RAW;
	if (f != F_CONFIG || t->kind != SPEC_TERM_RAW) {
		bool want_str = fixed_terms[fi].str;
		if (want_str && t->kind != SPEC_TERM_STR)
			return rctx_error(rc, 0, t->val_pos, NULL, "%s= expects a string value",
					  t->name);
		if (!want_str && !is_num)
			return rctx_error(rc, 0, t->val_pos, NULL, "%s= expects a number", t->name);
		if (f != F_RATIO && t->is_float)
			return rctx_error(rc, 0, t->val_pos, NULL, "%s= expects an integer", t->name);
	}
	if (tracepoint) {
		switch (f) {
		case F_CALLGRAPH: case F_STACK: case F_INHERIT: case F_NO_INHERIT:
		case F_MAX_STACK: case F_NR: case F_OVERWRITE: case F_NO_OVERWRITE:
		case F_AUX_OUTPUT: case F_AUX_SAMPLE_SIZE:
			break;
		default:
			return rctx_error(rc, 0, t->name_pos.len ? t->name_pos : t->pos,
					  "valid terms: call-graph, stack-size, inherit, no-inherit, max-stack, nr, overwrite, no-overwrite, aux-output",
					  "term '%s' does not apply to tracepoints", t->name);
		}
	}
	if (rc->opts->mode == PK_SPEC_STAT && f != F_CONFIG && !fixed_terms[fi].stat_ok)
		return rctx_error(rc, 0, t->name_pos.len ? t->name_pos : t->pos, NULL,
				  "'%s' is not usable with stat (perf stat refuses it too)", t->name);
	return 0;
}

/* The event-time term f as a cterm (applied when the event is finished): 0, or an error. */
static int common_cterm(struct rctx *rc, struct ev *ev, const struct xterm *x, enum fixed f,
			const char *sval, struct ev_cterm *ct)
{
	const struct spec_term *t = x->t;
	uint64_t v = ct->num;
	switch (f) {
	case F_PERIOD:
		ct->kind = CT_PERIOD;
		break;
	case F_FREQ:
		ct->kind = CT_FREQ;
		break;
	case F_TIME:
		if (v > 1)
			return rctx_error(rc, 0, t->val_pos, NULL, "time= expects 0 or 1");
		ct->kind = CT_TIME;
		break;
	case F_PERCORE:
		if (v > 1)
			return rctx_error(rc, 0, t->val_pos, NULL, "percore= expects 0 or 1");
		ct->kind = CT_PERCORE;
		break;
	case F_CALLGRAPH:
		ct->kind = CT_CALLGRAPH;
		ct->str = pk_arena__strdup(rc->arena, sval);
		if (strcmp(sval, "no") && strcmp(sval, "fp") && strcmp(sval, "dwarf") &&
		    strcmp(sval, "lbr"))
			return rctx_error(rc, 0, t->val_pos, NULL,
					  "call-graph= expects fp, dwarf, lbr or no");
		break;
	case F_BRANCH: {
		ct->kind = CT_BRANCH;
		ct->str = pk_arena__strdup(rc->arena, sval);
		uint64_t mode = ev->attr0.branch_sample_type;
		if (strcmp(sval, "no")) {
			if (encode_branch_parse(sval, &mode))
				return rctx_error(rc, 0, t->val_pos, NULL, "invalid branch sample type '%s'",
						  sval);
			ev->attr0.branch_sample_type = mode;	/* perf parses it here once already */
		}
		break;
	}
	case F_STACK:
		ct->kind = CT_STACK_USER;
		break;
	case F_MAX_STACK:
		ct->kind = CT_MAX_STACK;
		break;
	case F_NR:
		ct->kind = CT_MAX_EVENTS;
		break;
	case F_INHERIT:
	case F_NO_INHERIT:
		ct->kind = CT_INHERIT;
		ct->num = (v != 0) == (f == F_INHERIT);
		break;
	case F_OVERWRITE:
	case F_NO_OVERWRITE:
		ct->kind = CT_OVERWRITE;
		ct->num = (v != 0) == (f == F_OVERWRITE);
		break;
	case F_AUX_OUTPUT:
		ct->kind = CT_AUX_OUTPUT;
		ct->num = v != 0;
		break;
	case F_AUX_SAMPLE_SIZE:
		if (v > UINT32_MAX)
			return rctx_error(rc, 0, t->val_pos, NULL, "aux-sample-size is too big");
		return rctx_error(rc, 0, t->pos, NULL,
				  "aux-sample-size needs an AUX area event (intel_pt, cs_etm...) as group leader");
	case F_RATIO:
		ct->kind = CT_RATIO_TO_PREV;
		ct->fnum = t->is_float ? t->fnum : (double)t->num;
		if (!(ct->fnum > 0))
			return rctx_error(rc, 0, t->val_pos, NULL, "ratio-to-prev must be above 0");
		break;
	default:
		return rctx_error(rc, 0, t->pos, NULL, "internal: unhandled term '%s'", t->name);
	}
	return 0;
}

int encode_common_term(struct rctx *rc, struct ev *ev, const struct xterm *x, bool fmt_ok,
		       bool tracepoint)
{
	const struct spec_term *t = x->t;
	size_t fi = 0;
	enum fixed f = fixed_of(t, &fi);
	char hint[128];

	if (f == F_NONE) {
		if (fmt_ok)
			return 1;
		return rctx_error(rc, 0, t->name_pos.len ? t->name_pos : t->pos,
				  tracepoint ? "valid terms: call-graph, stack-size, inherit, no-inherit, max-stack, nr, overwrite, no-overwrite, aux-output"
					     : fixed_hint(t->name, hint, sizeof(hint)),
				  "unknown term '%s' for this event", t->name);
	}
	if (f == F_DRV_CFG) {
		if (!fmt_ok)
			return rctx_error(rc, 0, t->pos, NULL,
					  "driver configuration terms apply to PMU events only");
		return ev_add_cterm(rc, ev, &(struct ev_cterm){ .kind = CT_DRV_CFG,
								 .str = pk_arena__strdup(rc->arena, t->str ? t->str : ""),
								 .pos = t->pos });
	}
	int ret = check_common_term(rc, x, f, fi, tracepoint);
	if (ret)
		return ret;
	uint64_t v = t->kind == SPEC_TERM_FLAG ? 1 : t->num;
	const char *sval = t->kind == SPEC_TERM_STR && t->str ? t->str : "";
	struct ev_cterm ct = { .weak = x->weak, .num = v, .pos = t->pos };
	switch (f) {
	case F_CONFIG:
		ev->attr0.config = v;
		return 0;
	case F_CONFIG1:
		ev->attr0.config1 = v;
		return 0;
	case F_CONFIG2:
		ev->attr0.config2 = v;
		return 0;
	case F_CONFIG3: {
		__u64 *w = encode_config_word(&ev->attr0, 3);
		if (!w)
			return rctx_error(rc, 0, t->pos, NULL,
					  "config3 needs <linux/perf_event.h> from Linux 6.3 or later");
		*w = v;
		return 0;
	}
	case F_NAME:
		if (!x->weak) {
			ev->pub.name = pk_arena__strdup(rc->arena, sval);
			ev->perf_name = ev->pub.name;
		}
		return 0;
	case F_METRIC_ID:
		ev->pub.metric_id = pk_arena__strdup(rc->arena, sval);
		return 0;
	default:
		ret = common_cterm(rc, ev, x, f, sval, &ct);
		return ret ? ret : ev_add_cterm(rc, ev, &ct);
	}
}

/* --- format terms -------------------------------------------------------------------- */

static bool is_fixed_name(const struct spec_term *t)
{
	size_t i;
	return fixed_of(t, &i) != F_NONE;
}

static const char *format_hint(const struct pk_pmu *pmu, const char *word, char *buf, size_t len)
{
	size_t n = pk_pmu__nr_formats(pmu);
	const char **cands = calloc(n + NR_FIXED, sizeof(*cands));
	if (!cands)
		return NULL;
	for (size_t i = 0; i < n; i++)
		cands[i] = pk_pmu__format(pmu, i)->name;
	for (size_t i = 0; i < NR_FIXED; i++)
		cands[n + i] = fixed_terms[i].name;
	const char *s = spec_suggest(word, cands, n + NR_FIXED);
	if (s)
		snprintf(buf, len, "did you mean '%s'?", s);
	else {
		size_t used = (size_t)snprintf(buf, len, "%s terms:", pk_pmu__name(pmu));
		for (size_t i = 0; i < n && used < len; i++) {
			int w = snprintf(buf + used, len - used, "%s%s", i ? "," : " ", cands[i]);
			used += w > 0 ? (size_t)w : 0;
		}
	}
	free(cands);
	return buf;
}

int encode_format_terms(struct rctx *rc, struct ev *ev, const struct pk_pmu *pmu,
			struct xterm *xs, size_t n)
{
	char hint[128], desc[96];
	for (size_t i = 0; i < n; i++) {
		const struct spec_term *t = xs[i].t;
		if (xs[i].used || is_fixed_name(t))
			continue;
		const struct pk_pmu_format *f = pk_pmu__find_format(pmu, t->name);
		const char *bad = f ? NULL : pk_pmu__format_problem(pmu, t->name);
		if (bad)	/* the file is there but says nothing usable: say what is wrong */
			return rctx_error(rc, 0, t->name_pos.len ? t->name_pos : t->pos, NULL,
					  "term '%s' of PMU '%s' is unusable: %s", t->name,
					  pk_pmu__name(pmu), bad);
		if (!f)
			return rctx_error(rc, 0, t->name_pos.len ? t->name_pos : t->pos,
					  format_hint(pmu, t->name, hint, sizeof(hint)),
					  "unknown term '%s' for PMU '%s'", t->name, pk_pmu__name(pmu));
		uint64_t v;
		if (t->kind == SPEC_TERM_FLAG) {
			v = 1;	/* perf 6.1 takes "umask" alone as umask=1, whatever the width */
		} else if (t->kind == SPEC_TERM_NUM) {
			if (t->is_float)
				return rctx_error(rc, 0, t->val_pos, NULL, "%s= expects an integer",
						  t->name);
			v = t->num;
		} else if (t->kind == SPEC_TERM_STR && t->str && !strcmp(t->str, "?")) {
			/* an alias parameter: the value comes from a term of that name */
			size_t j;
			for (j = 0; j < n; j++)
				if (j != i && xs[j].t->kind == SPEC_TERM_NUM &&
				    !strcmp(xs[j].t->name, t->name))
					break;
			if (j == n)
				return rctx_error(rc, 0, spec_pos_make(ev->pub.spec_off, ev->pub.spec_len),
						  NULL, "this event needs a value for '%s' (add %s=N)",
						  t->name, t->name);
			xs[j].used = true;
			v = xs[j].t->num;
		} else {
			return rctx_error(rc, 0, t->val_pos, NULL, "%s= expects a number", t->name);
		}
		unsigned need = 64 - (unsigned)__builtin_clzll(v | 1);
		if (v == 0)
			need = 0;
		if (f->width < 64 && need > f->width)
			return rctx_error(rc, 0, t->val_pos.len ? t->val_pos : t->pos, NULL,
					  "%s=%s: value needs %u bits, %s is %u bit%s (%s)", t->name,
					  t->str ? t->str : "?", need, t->name, f->width,
					  f->width == 1 ? "" : "s",
					  encode_format_desc(f, desc, sizeof(desc)));
		__u64 *w = encode_config_word(&ev->attr0, f->config);
		if (!w)
			return rctx_error(rc, 0, t->pos, NULL,
					  "'%s' is in config3, which needs <linux/perf_event.h> from Linux 6.3 or later",
					  t->name);
		*w |= encode_place_bits(f->mask, v);
	}
	ev->attr0.type = pk_pmu__type(pmu);
	return 0;
}

/* --- modifiers ------------------------------------------------------------------------- */

int encode_modifiers(struct rctx *rc, struct ev *ev, const struct spec_mods *m, bool group,
		     bool is_leader)
{
	struct perf_event_attr *a = &ev->attr0;
	int eu = group ? a->exclude_user : 0, ek = group ? a->exclude_kernel : 0;
	int eh = group ? a->exclude_hv : 0, eH = group ? a->exclude_host : 0;
	int eG = group ? a->exclude_guest : 0, eI = group ? a->exclude_idle : 0;
	int precise = group ? a->precise_ip : 0;
	int pinned = group ? a->pinned : 0, exclusive = group ? a->exclusive : 0;
	bool exGH = group ? ev->exclude_GH : false;

	if (!m->present)
		return 0;
	if (m->u || m->k || m->h) {
		if (!(eu | ek | eh))
			eu = ek = eh = 1;
		if (m->u)
			eu = 0;
		if (m->k)
			ek = 0;
		if (m->h)
			eh = 0;
	}
	if (m->G || m->H) {
		if (!exGH) {
			exGH = true;
			eG = eH = 1;
		}
		if (m->G)
			eG = 0;
		if (m->H)
			eH = 0;
	} else if ((m->u || m->precise) && !exGH) {
		eG = 1;		/* perf: user-only and precise events exclude guests */
	}
	if (m->I)
		eI = 1;
	precise += m->precise;
	if (precise > 3)
		return rctx_error(rc, 0, m->pos, NULL,
				  "too many 'p': precise_ip would be %d, the most is 3 (ppp)", precise);
	if (m->D)
		pinned = 1;
	if (m->e)
		exclusive = 1;

	a->exclude_user = (unsigned)eu;
	a->exclude_kernel = (unsigned)ek;
	a->exclude_hv = (unsigned)eh;
	a->exclude_host = (unsigned)eH;
	a->exclude_guest = (unsigned)eG;
	a->exclude_idle = (unsigned)eI;
	a->precise_ip = (unsigned)precise;
	ev->exclude_GH = exGH;
	ev->sample_read = m->S;
	ev->precise_max = m->P;
	ev->weak_group = m->W;
	ev->bpf_counter = m->b;
	if (m->R)
		ev->pub.tpebs = true;
	if (is_leader) {
		a->pinned = (unsigned)pinned;
		a->exclusive = (unsigned)exclusive;
	}
	return 0;
}
