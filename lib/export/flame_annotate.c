/* SPDX-License-Identifier: MIT */
/*
 * export/flame_annotate.c — the flame graph page's annotations. The samples
 * of the session the profile came from are annotated through
 * pmukit/annotate.h (the path `pmukit annotate` and the report browser
 * take: no second disassembler); the hottest functions of the drawn event
 * by self period, up to a count and a size cap, become rows for the page's
 * script: each instruction as [percent, address, text] (percent of the
 * function's period, perf annotate's default "local period", rounded as it
 * prints it), each source or text line as a string, or as [percent, text]
 * for the line the instructions below it came from (their sum). Every frame
 * of the graph gets its annotation's index, or the reason it has none.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/annotate.h>
#include <pmukit/session.h>

#include "export/export_int.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/strmap.h"

/* the fixed reasons, first in the page's "why" list */
enum {
	WHY_NOT_FUNC, WHY_INLINED, WHY_NO_SYM, WHY_NO_SELF, WHY_NOT_HOT, WHY_CAP, WHY_NONE,
	WHY_FIXED
};

struct pk_flame_ann {
	struct pk_buf fns;		/* the annotations' JSON objects, comma separated */
	size_t nr_fns;
	char **why;			/* reasons: WHY_* then the annotate library's errors */
	size_t nr_why, cap_why;
	struct pk_strmap by_key;	/* "dso\1symbol" -> rank (the hottest first) */
	/* "dso's basename\1symbol" -> rank: when the profile names the DSO by another path */
	struct pk_strmap by_base;
	char **keys;			/* the maps' keys (owned) */
	size_t nr_keys, cap_keys;
	long *val;			/* per rank: the annotation's index or -(reason + 1) */
	size_t nr_ranks;
	unsigned max;
	size_t cap;
	const char *event;
};

/* A JSON string for a <script> element: '<', '>', '&' and controls as \u escapes. */
static void json_str(struct pk_buf *b, const char *s)
{
	pk_buf__putc(b, '"');
	for (const char *run = s;; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&')
			continue;
		pk_buf__add(b, run, (size_t)(s - run));
		if (!c)
			break;
		if (c == '"' || c == '\\')
			pk_buf__printf(b, "\\%c", c);
		else
			pk_buf__printf(b, "\\u%04x", c);
		run = s + 1;
	}
	pk_buf__putc(b, '"');
}

static long add_why(struct pk_flame_ann *fa, const char *text)
{
	for (size_t i = 0; i < fa->nr_why; i++)
		if (!strcmp(fa->why[i], text))
			return -(long)i - 1;
	char *d = strdup(text);
	if (!d || PK_GROW(fa->why, fa->cap_why, fa->nr_why + 1)) {
		free(d);
		return 0;	/* out of memory: the caller's buffer errors say so */
	}
	fa->why[fa->nr_why++] = d;
	return -(long)fa->nr_why;
}

/* key -> rank in map, the key kept; a key already there keeps its (hotter) rank */
static int map_key(struct pk_flame_ann *fa, struct pk_strmap *m, const char *key, size_t rank)
{
	size_t old;
	if (!pk_strmap__get(m, key, &old))
		return 0;
	char *d = strdup(key);
	if (!d || PK_GROW(fa->keys, fa->cap_keys, fa->nr_keys + 1) || pk_strmap__set(m, d, rank)) {
		free(d);
		return -ENOMEM;
	}
	fa->keys[fa->nr_keys++] = d;
	return 0;
}

/* The last non-empty text line before each run of instructions: the run's period, else UINT64_MAX. */
static uint64_t *anchors(const struct pk_annotation *an, int attr, size_t n)
{
	uint64_t *sum = malloc((n ? n : 1) * sizeof(*sum)), acc = 0;
	bool open = false, in_run = false;
	for (size_t i = n; sum && i-- > 0;) {
		const struct pk_annotation_line *l = pk_annotation__line(an, i);
		sum[i] = UINT64_MAX;
		if (l->offset >= 0) {
			if (!in_run)
				acc = 0;
			acc += l->period[attr];
			in_run = open = true;
			continue;
		}
		in_run = false;
		if (*l->text && open) {
			sum[i] = acc;
			open = false;
		}
	}
	return sum;
}

static void pct(struct pk_buf *b, uint64_t v, uint64_t total)
{
	/* as perf annotate --stdio computes and prints it (%.2f) */
	pk_buf__printf(b, "%.2f", total ? 100.0 * (double)v / (double)total : 0.0);
}

/* One annotation's JSON object into b. */
static int fn_json(struct pk_buf *b, const struct pk_annotation *an, int attr,
		   const struct pk_annotate_entry *e, uint64_t ev_period)
{
	size_t n = pk_annotation__nr_lines(an);
	uint64_t *anchor = anchors(an, attr, n);	/* one value per line, n of them */
	if (!anchor)
		return -ENOMEM;
	pk_buf__puts(b, "{\"sym\":");
	json_str(b, e->sym->name);
	pk_buf__puts(b, ",\"dso\":");
	json_str(b, pk_dso__name(e->dso));
	pk_buf__printf(b, ",\"samples\":%" PRIu64 ",\"period\":%" PRIu64 ",\"share\":", e->nr_samples,
		       e->period);
	pct(b, e->period, ev_period);
	pk_buf__puts(b, ",\"rows\":[");
	for (size_t i = 0; i < n; i++) {
		const struct pk_annotation_line *l = pk_annotation__line(an, i);
		if (i)
			pk_buf__putc(b, ',');
		if (l->offset >= 0) {
			const char *t = l->text;
			while (*t == ' ')
				t++;	/* perf's line keeps the spaces after "addr:" */
			pk_buf__putc(b, '[');
			pct(b, l->period[attr], e->period);
			pk_buf__printf(b, ",\"%" PRIx64 "\",", l->addr);
			json_str(b, t);
			pk_buf__putc(b, ']');
		} else if (anchor[i] != UINT64_MAX) {
			pk_buf__putc(b, '[');
			pct(b, anchor[i], e->period);
			pk_buf__putc(b, ',');
			json_str(b, l->text);
			pk_buf__putc(b, ']');
		} else {
			json_str(b, l->text);
		}
	}
	pk_buf__puts(b, "]}");
	free(anchor);
	return b->err;
}

/* The session's attr the profile's event ev came from: dummy events have no profile event. */
static int attr_of_event(struct pk_session *s, int ev)
{
	for (size_t i = 0, k = 0; i < pk_session__nr_attrs(s); i++) {
		const struct perf_event_attr *a = &pk_session__attr(s, (int)i)->attr;
		if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY)
			continue;
		if (k++ == (size_t)ev)
			return (int)i;
	}
	return -1;
}

/* Entry rank annotated into fa->fns, or the reason why not; -ENOMEM. */
static int annotate_one(struct pk_flame_ann *fa, struct pk_annotate *a, int attr, size_t rank,
			const struct pk_annotate_entry *e, uint64_t ev_period, struct pk_buf *tmp)
{
	struct pk_annotation *an;
	struct pk_error err = { 0 };
	if (pk_annotation__new(&an, a, attr, rank, &err)) {
		if (err.code == -ENOMEM)
			return -ENOMEM;
		/*
		 * perf's reason, without its first line when that names the function
		 * ("Couldn't annotate SYM:"): one text for all of a DSO's functions
		 */
		const char *why = err.msg, *nl = strchr(why, '\n');
		if (!strncmp(why, "Couldn't annotate ", 18) && nl && nl > why && nl[-1] == ':' && nl[1])
			why = nl + 1;
		char msg[sizeof(err.msg) + 40];
		snprintf(msg, sizeof(msg), "could not be annotated: %s", why);
		fa->val[rank] = add_why(fa, msg);
		return fa->val[rank] ? 0 : -ENOMEM;
	}
	pk_buf__reset(tmp);
	int rc = fn_json(tmp, an, attr, e, ev_period);
	pk_annotation__free(an);
	if (rc)
		return -ENOMEM;
	if (fa->fns.len + tmp->len + 1 > fa->cap) {
		fa->val[rank] = -(WHY_CAP + 1);
		return 0;
	}
	if (fa->nr_fns)
		pk_buf__putc(&fa->fns, ',');
	pk_buf__add(&fa->fns, (const char *)tmp->data, tmp->len);
	fa->val[rank] = (long)fa->nr_fns++;
	return fa->fns.err;
}

static int annotate_all(struct pk_flame_ann *fa, struct pk_annotate *a, int attr)
{
	size_t n = pk_annotate__nr_entries(a, attr);
	uint64_t ev_period = pk_annotate__total_period(a, attr);
	struct pk_buf key = { 0 }, tmp = { 0 };
	int rc = 0;
	if (!(fa->val = malloc((n ? n : 1) * sizeof(*fa->val))))
		return -ENOMEM;
	fa->nr_ranks = n;
	for (size_t i = 0; !rc && i < n; i++) {
		struct pk_annotate_entry e = { .sz = sizeof(e) };
		if ((rc = pk_annotate__entry(a, attr, i, &e)))
			break;
		const char *dso = pk_dso__name(e.dso);
		pk_buf__reset(&key);
		pk_buf__printf(&key, "%s\1%s", dso, e.sym->name);
		if (key.err || map_key(fa, &fa->by_key, pk_buf__str(&key), i)) {
			rc = -ENOMEM;
			break;
		}
		pk_buf__reset(&key);
		pk_buf__printf(&key, "%s\1%s", pk_export__basename(dso), e.sym->name);
		if (key.err || map_key(fa, &fa->by_base, pk_buf__str(&key), i)) {
			rc = -ENOMEM;
			break;
		}
		fa->val[i] = -(WHY_NOT_HOT + 1);
		if (i < fa->max)
			rc = annotate_one(fa, a, attr, i, &e, ev_period, &tmp);
	}
	pk_buf__free(&key);
	pk_buf__free(&tmp);
	return rc;
}

static int reasons(struct pk_flame_ann *fa, const char *none)
{
	char hot[200], cap[200];
	snprintf(hot, sizeof(hot), "not among the %u hottest functions by self samples, the ones this "
		 "page embeds annotations of", fa->max);
	snprintf(cap, sizeof(cap), "its annotation would pass the page's cap of %zu KiB on annotations",
		 fa->cap >> 10);
	const char *fixed[WHY_FIXED] = {
		[WHY_NOT_FUNC] = "not a function: the whole profile, or a process",
		[WHY_INLINED] = "inlined: its instructions are in the annotation of the function it was "
				"inlined into",
		[WHY_NO_SYM] = "no symbol: its addresses are in no known function",
		[WHY_NO_SELF] = "no samples of its own: all of its samples are in the functions it calls",
		[WHY_NOT_HOT] = hot,
		[WHY_CAP] = cap,
		[WHY_NONE] = none,
	};
	for (int i = 0; i < WHY_FIXED; i++)
		if (!add_why(fa, fixed[i]))
			return -ENOMEM;
	return 0;
}

int pk_flame_ann__new(struct pk_flame_ann **out, const struct pk_profile *p, const struct pk_xopts *x,
		      struct pk_error *err)
{
	struct pk_flame_ann *fa = calloc(1, sizeof(*fa));
	struct pk_annotate *a = NULL;
	struct pk_error aerr = { 0 };
	char none[sizeof(aerr.msg) + 80] = "no annotations were embedded in this page";
	*out = NULL;
	if (!fa)
		goto oom;
	fa->max = x->annotate_max;
	fa->cap = x->annotate_bytes;
	if (p->nr_events)
		fa->event = pk_profile__str(p, p->events[x->event].name);
	int rc = 0, attr = -1;
	struct pk_annotate_opts ao = { .sz = sizeof(ao) };
	if (x->annotate_session &&
	    (pk_annotate__new(&a, x->annotate_session, &ao, &aerr) || pk_annotate__process(a, &aerr))) {
		if (aerr.code == -ENOMEM)
			goto oom;
		snprintf(none, sizeof(none), "no annotations: reading the samples failed: %s", aerr.msg);
	} else if (x->annotate_session && (attr = attr_of_event(x->annotate_session, x->event)) < 0) {
		snprintf(none, sizeof(none), "no annotations: the event is not in the session");
	}
	if (reasons(fa, none))
		goto oom;
	if (attr >= 0 && !a)
		attr = -1;
	if (attr >= 0)
		rc = annotate_all(fa, a, attr);
	pk_annotate__free(a);
	a = NULL;
	if (rc || fa->fns.err)
		goto oom;
	*out = fa;
	return 0;
oom:
	pk_annotate__free(a);
	pk_flame_ann__free(fa);
	return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory annotating the flame graph");
}

void pk_flame_ann__free(struct pk_flame_ann *fa)
{
	if (!fa)
		return;
	pk_buf__free(&fa->fns);
	for (size_t i = 0; i < fa->nr_why; i++)
		free(fa->why[i]);
	free(fa->why);
	pk_strmap__free(&fa->by_key);
	pk_strmap__free(&fa->by_base);
	for (size_t i = 0; i < fa->nr_keys; i++)
		free(fa->keys[i]);
	free(fa->keys);
	free(fa->val);
	free(fa);
}

long pk_flame_ann__of(const struct pk_flame_ann *fa, const struct pk_profile *p, uint32_t frame)
{
	if (frame == UINT32_MAX)
		return -(WHY_NOT_FUNC + 1);
	const struct pk_frame_rec *r = pk_profile__frame_rec(p, frame);
	if (r->flags & PK_FREC_INLINED)
		return -(WHY_INLINED + 1);
	const char *name = pk_profile__str(p, r->name), *dso = pk_profile__str(p, r->dso);
	if (!name || !*name)
		return -(WHY_NO_SYM + 1);
	if (!fa->val)
		return -(WHY_NONE + 1);
	char tmp[512];
	size_t rank;
	struct pk_buf key;
	pk_buf__init_spill(&key, tmp, sizeof(tmp));
	pk_buf__printf(&key, "%s\1%s", dso ? dso : "", name);
	int found = !key.err && !pk_strmap__get(&fa->by_key, pk_buf__str(&key), &rank);
	if (!found) {
		pk_buf__reset(&key);
		pk_buf__printf(&key, "%s\1%s", pk_export__basename(dso ? dso : ""), name);
		found = !key.err && !pk_strmap__get(&fa->by_base, pk_buf__str(&key), &rank);
	}
	pk_buf__free(&key);
	return found ? fa->val[rank] : -(WHY_NO_SELF + 1);
}

int pk_flame_ann__write(const struct pk_flame_ann *fa, FILE *out)
{
	struct pk_buf b = { 0 };
	pk_buf__printf(&b, "{\"max\":%u,\"cap\":%zu,\"bytes\":%zu,\"nr\":%zu,\"event\":", fa->max, fa->cap,
		       fa->fns.len, fa->nr_fns);
	json_str(&b, fa->event ? fa->event : "");
	pk_buf__puts(&b, ",\"why\":[");
	for (size_t i = 0; i < fa->nr_why; i++) {
		if (i)
			pk_buf__putc(&b, ',');
		json_str(&b, fa->why[i]);
	}
	pk_buf__puts(&b, "],\"fn\":[");
	int rc = b.err ? -ENOMEM : 0;
	if (!rc) {
		fwrite(b.data, 1, b.len, out);
		if (fa->fns.len)
			fwrite(fa->fns.data, 1, fa->fns.len, out);
		fputs("]}", out);
	}
	pk_buf__free(&b);
	return rc;
}
