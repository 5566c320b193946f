/* SPDX-License-Identifier: MIT */
/*
 * export/flamegraph.c — flame graphs: the samples of one event merged into a
 * call tree (all → process (comm) → outermost caller → ... → leaf), frames
 * merged by name and kind as FlameGraph's flamegraph.pl merges folded lines,
 * siblings in name order. Written as a plain SVG, or as a self-contained HTML
 * page whose script (lib/export/flamegraph.js, embedded at build time) draws
 * it and adds zoom, search and tooltips, and the hottest functions'
 * annotations (flame_annotate.c). Frame ids in the page are the tree's
 * preorder indices (URL hash: #zoom=ID&search=REGEX&annotate=ID).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "export/export_int.h"
#include "util/error.h"
#include "util/grow.h"

extern const char pk_flamegraph_css[], pk_flamegraph_js[];

/* kinds, as the page and the SVG colour them */
enum { K_USER, K_KERNEL, K_JIT, K_INLINE, K_OTHER };

struct tnode_key {
	uint32_t parent, label, kind;
};

struct tree {
	struct pk_strtab labels;
	struct pk_recset nodes;		/* struct tnode_key; node 0 = "all" */
	uint64_t *total, *self;
	uint32_t *frame;		/* a profile frame of the node (UINT32_MAX: all, a process) */
	size_t cap, n;
	/* preorder layout */
	uint32_t *order;		/* preorder position -> node */
	uint32_t *depth;
	uint64_t *x;
	uint32_t max_depth;
	int oom;
};

static const struct tnode_key *tkey(const struct tree *t, uint32_t n)
{
	return (const struct tnode_key *)pk_recset__get(&t->nodes, n);
}

static uint32_t tnode(struct tree *t, uint32_t parent, uint32_t label, uint32_t kind)
{
	struct tnode_key k = { parent, label, kind };
	int64_t got = pk_recset__add(&t->nodes, &k);
	if (got < 0) {
		t->oom = 1;
		return 0;
	}
	uint32_t id = (uint32_t)got;
	if (id >= t->n) {
		if (id >= t->cap) {	/* three arrays, one capacity: the same policy, the same size */
			size_t cap_total = t->cap, cap_self = t->cap, cap_frame = t->cap;
			if (PK_GROW(t->total, cap_total, (size_t)id + 1) ||
			    PK_GROW(t->self, cap_self, (size_t)id + 1) ||
			    PK_GROW(t->frame, cap_frame, (size_t)id + 1)) {
				t->oom = 1;
				return 0;
			}
			t->cap = cap_total < cap_self ? cap_total : cap_self;
			t->cap = t->cap < cap_frame ? t->cap : cap_frame;
		}
		t->total[id] = t->self[id] = 0;
		t->frame[id] = UINT32_MAX;
		t->n = id + 1;
	}
	return id;
}

static long label(struct tree *t, const char *s)
{
	long i = pk_strtab__str(&t->labels, s);
	if (i < 0)
		t->oom = 1;
	return i < 0 ? 0 : i;
}

struct memo_key {
	uint32_t comm, node;	/* label of the process, profile stack node */
};

struct builder {
	const struct pk_profile *p;
	struct tree *t;
	struct pk_recset memo;		/* (comm, stack node) -> tree node */
	uint32_t *memo_val;
	size_t cap_memo;
	long *flabel;			/* per frame: its label, -1 not yet */
	uint32_t *chain;
	size_t cap_chain;
};

static int remember(struct builder *b, const struct memo_key *k, uint32_t tn)
{
	int64_t id = pk_recset__add(&b->memo, k);
	if (id < 0)
		return -1;
	if (PK_GROW(b->memo_val, b->cap_memo, (size_t)id + 1))
		return -1;
	b->memo_val[id] = tn;
	return 0;
}

/* The tree node of a profile stack in process `comm`: each (comm, stack node) is made once. */
static uint32_t tree_node(struct builder *b, uint32_t comm, uint32_t node)
{
	const struct pk_profile *p = b->p;
	struct tree *t = b->t;
	size_t n = 0;
	uint32_t tn = 0;
	for (;; node = pk_profile__node(p, node)->parent) {
		struct memo_key k = { comm, node };
		int64_t id = pk_recset__find(&b->memo, &k);
		if (id >= 0) {
			tn = b->memo_val[id];
			break;
		}
		if (!node) {	/* the process itself, under "all" */
			tn = tnode(t, 0, comm, K_OTHER);
			if (t->oom || remember(b, &k, tn))
				goto oom;
			break;
		}
		if (PK_GROW(b->chain, b->cap_chain, n + 1))
			goto oom;
		b->chain[n++] = node;
	}
	while (n-- > 0) {	/* down from the known ancestor */
		uint32_t nd = b->chain[n], f = pk_profile__node(p, nd)->frame;
		if (b->flabel[f] < 0) {
			char tmp[300];
			b->flabel[f] = label(t, pk_export__frame_label(p, f, tmp, sizeof(tmp)));
		}
		const struct pk_frame_rec *r = pk_profile__frame_rec(p, f);
		unsigned kind = r->flags & PK_FREC_INLINED ? K_INLINE :
				(r->flags & PK_FREC_KIND) == PK_FRAME_KERNEL ? K_KERNEL :
				(r->flags & PK_FREC_KIND) == PK_FRAME_JIT ? K_JIT : K_USER;
		tn = tnode(t, tn, (uint32_t)b->flabel[f], kind);
		struct memo_key k = { comm, nd };
		if (t->oom || remember(b, &k, tn))
			goto oom;
		if (t->frame[tn] == UINT32_MAX)
			t->frame[tn] = f;	/* the first of the frames merged into it */
	}
	return tn;
oom:
	t->oom = 1;
	return 0;
}

static int build(const struct pk_profile *p, const struct pk_xopts *x, struct tree *t)
{
	struct builder b = { .p = p, .t = t };
	size_t nfr = pk_profile__nr_frames(p), nthr = pk_profile__nr_threads(p);
	long *tlabel = malloc((nthr + 1) * sizeof(*tlabel));
	int ret = -ENOMEM;
	b.flabel = malloc((nfr + 1) * sizeof(*b.flabel));
	pk_recset__init(&b.memo, sizeof(struct memo_key));
	pk_recset__init(&t->nodes, sizeof(struct tnode_key));
	if (!b.flabel || !tlabel)
		goto out;
	label(t, "all");
	tnode(t, UINT32_MAX, 0, K_OTHER);
	for (size_t i = 0; i < nfr; i++)
		b.flabel[i] = -1;
	for (size_t i = 0; i < nthr; i++)
		tlabel[i] = label(t, pk_profile__str(p, pk_profile__thread_rec(p, (uint32_t)i)->comm));
	for (size_t i = 0; i < p->nr_samples && !t->oom; i++) {
		uint64_t v = pk_export__value(p, i, x->event, x->value);
		if (!v)
			continue;
		uint32_t tn = tree_node(&b, (uint32_t)tlabel[pk_profile__srec(p, i)->thread],
					 pk_profile__srec(p, i)->stack);
		if (!t->oom)
			t->self[tn] += v;
	}
	/* totals bottom up: a node's id is larger than its parent's */
	for (size_t id = t->n; id-- > 1 && !t->oom;) {
		t->total[id] += t->self[id];
		t->total[tkey(t, (uint32_t)id)->parent] += t->total[id];
	}
	ret = t->oom ? -ENOMEM : 0;
out:
	pk_recset__free(&b.memo);
	free(b.memo_val);
	free(b.flabel);
	free(b.chain);
	free(tlabel);
	return ret;
}

struct kid {
	const char *label;
	uint32_t kind, node;
};

static int cmp_kid(const void *a, const void *b)
{
	const struct kid *x = a, *y = b;
	int c = strcmp(x->label, y->label);
	return c ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

/* Children in label order (then kind): the preorder, depths and x offsets. */

static int layout(struct tree *t)
{
	size_t n = t->n;
	uint32_t *nchild = calloc(n + 1, sizeof(*nchild)), *first = calloc(n + 1, sizeof(*first));
	uint32_t *kids = calloc(n + 1, sizeof(*kids)), *stack = malloc((n + 1) * sizeof(*stack));
	t->order = malloc((n + 1) * sizeof(*t->order));
	t->depth = calloc(n + 1, sizeof(*t->depth));
	t->x = calloc(n + 1, sizeof(*t->x));
	struct kid *sk = NULL;
	size_t nsk = 0;
	int ret = -ENOMEM;
	if (!nchild || !first || !kids || !stack || !t->order || !t->depth || !t->x)
		goto out;
	for (uint32_t i = 1; i < n; i++)
		nchild[tkey(t, i)->parent]++;
	for (uint32_t i = 0, acc = 0; i < n; i++) {
		first[i] = acc;
		acc += nchild[i];
		nchild[i] = 0;
	}
	for (uint32_t i = 1; i < n; i++) {
		uint32_t par = tkey(t, i)->parent;
		kids[first[par] + nchild[par]++] = i;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t nk = nchild[i];
		if (nk < 2)
			continue;
		if (nk > nsk) {
			free(sk);
			nsk = nk;
			if (!(sk = malloc(nsk * sizeof(*sk))))
				goto out;
		}
		uint32_t *k = kids + first[i];
		for (uint32_t c = 0; c < nk; c++) {
			const struct tnode_key *kk = tkey(t, k[c]);
			sk[c] = (struct kid){ pk_strtab__get(&t->labels, kk->label), kk->kind, k[c] };
		}
		qsort(sk, nk, sizeof(*sk), cmp_kid);
		for (uint32_t c = 0; c < nk; c++)
			k[c] = sk[c].node;
	}
	/* iterative preorder; children pushed in reverse so the first comes out first */
	size_t sp = 0, pos = 0;
	stack[sp++] = 0;
	t->x[0] = 0;
	t->depth[0] = 0;
	while (sp) {
		uint32_t v = stack[--sp];
		t->order[pos++] = v;
		uint64_t x = t->x[v];
		for (uint32_t c = 0; c < nchild[v]; c++) {
			uint32_t k = kids[first[v] + c];
			t->x[k] = x;
			t->depth[k] = t->depth[v] + 1;
			x += t->total[k];
			if (t->depth[k] > t->max_depth)
				t->max_depth = t->depth[k];
		}
		for (uint32_t c = nchild[v]; c-- > 0;)
			stack[sp++] = kids[first[v] + c];
	}
	ret = 0;
out:
	free(sk);
	free(nchild);
	free(first);
	free(kids);
	free(stack);
	return ret;
}

static void tree_free(struct tree *t)
{
	pk_strtab__free(&t->labels);
	pk_recset__free(&t->nodes);
	free(t->total);
	free(t->self);
	free(t->frame);
	free(t->order);
	free(t->depth);
	free(t->x);
}

/* ---- SVG ----------------------------------------------------------------------------- */

static void xml_text(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if ((unsigned char)s[i] < 0x20)
				fputc(' ', out);
			else
				fputc(s[i], out);
		}
	}
}

/* A colour per kind; within a kind the name picks the shade (stable across runs). */
static void colour(const char *name, unsigned kind, char *buf, size_t len)
{
	uint32_t h = 2166136261u;
	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	unsigned a = h % 55, b = (h >> 8) % 55;
	switch (kind) {
	case K_KERNEL: snprintf(buf, len, "rgb(%u,%u,%u)", 200 + a % 55, 120 + b, 40 + a / 2); break;
	case K_JIT: snprintf(buf, len, "rgb(%u,%u,%u)", 50 + a, 180 + b % 50, 50 + a); break;
	case K_INLINE: snprintf(buf, len, "rgb(%u,%u,%u)", 60 + a, 190 + b % 40, 200 + a % 40); break;
	case K_OTHER: snprintf(buf, len, "rgb(%u,%u,%u)", 170 + a / 2, 170 + a / 2, 180 + a / 2); break;
	default: snprintf(buf, len, "rgb(%u,%u,%u)", 200 + a % 55, 60 + b * 2, 40 + a / 2); break;
	}
}

static void write_svg(const struct pk_profile *p, const struct tree *t, const struct pk_xopts *x,
		      FILE *out)
{
	const double fh = 16, top = 40, pad = 10, fs = 12;
	double W = x->width, gw = W - 2 * pad;
	double H = top + (t->max_depth + 1) * fh + 30;
	int inverted = !!(x->flags & PK_EXPORT_INVERTED);
	const char *title = x->title ? x->title : inverted ? "Icicle Graph" : "Flame Graph";
	const char *unit = pk_export__value_unit(p, x);
	uint64_t total = t->total[0] ? t->total[0] : 1;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text{font-family:Verdana,sans-serif;font-size:%.0fpx;fill:#000}"
		".t{font-size:17px;text-anchor:middle}</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
		"<text class=\"t\" x=\"%.1f\" y=\"24\">", W, H, W, H, fs, W / 2);
	xml_text(out, title, strlen(title));
	fputs("</text>\n", out);
	for (size_t i = 0; i < t->n; i++) {
		uint32_t v = t->order[i];
		double w = (double)t->total[v] / (double)total * gw;
		if (w < 0.1)
			continue;	/* too narrow to see (its children are narrower still) */
		double xx = pad + (double)t->x[v] / (double)total * gw;
		double y = inverted ? top + t->depth[v] * fh : top + (t->max_depth - t->depth[v]) * fh;
		const struct tnode_key *k = tkey(t, v);
		const char *name = pk_strtab__get(&t->labels, k->label);
		char col[40];
		colour(name, k->kind, col, sizeof(col));
		fputs("<g><title>", out);
		xml_text(out, name, strlen(name));
		fprintf(out, " (%" PRIu64 " %s, %.2f%%)</title><rect x=\"%.1f\" y=\"%.1f\" "
			"width=\"%.1f\" height=\"%.1f\" fill=\"%s\" rx=\"2\" ry=\"2\"/>",
			t->total[v], unit, 100.0 * (double)t->total[v] / (double)total, xx, y, w, fh - 1, col);
		size_t fit = (size_t)((w - 6) / (fs * 0.59));
		if (fit >= 3) {
			size_t len = strlen(name);
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", xx + 3, y + fh - 5);
			if (len <= fit) {
				xml_text(out, name, len);
			} else {
				xml_text(out, name, fit - 2);
				fputs("..", out);
			}
			fputs("</text>", out);
		}
		fputs("</g>\n", out);
	}
	fputs("</svg>\n", out);
}

/* ---- HTML ---------------------------------------------------------------------------- */

/* JSON for a <script> element: '<', '>' and '&' as \u escapes. */
static void script_json(FILE *out, json_object *o)
{
	for (const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN); *s; s++) {
		if (*s == '<' || *s == '>' || *s == '&')
			fprintf(out, "\\u%04x", (unsigned)*s);
		else
			fputc(*s, out);
	}
}

static void json_col(FILE *out, const char *name, const struct tree *t, int what)
{
	fprintf(out, ",\"%s\":[", name);
	for (size_t i = 0; i < t->n; i++) {
		uint32_t v = t->order[i];
		uint64_t val = what == 0 ? tkey(t, v)->label : what == 1 ? t->depth[v] :
			       what == 2 ? t->x[v] : what == 3 ? t->total[v] : what == 4 ? t->self[v] :
			       tkey(t, v)->kind;
		fprintf(out, i ? ",%" PRIu64 : "%" PRIu64, val);
	}
	fputc(']', out);
}

/* per frame: its annotation's index, or -(the reason it has none + 1) */
static void json_ann(FILE *out, const struct pk_profile *p, const struct tree *t,
		     const struct pk_flame_ann *fa)
{
	fputs(",\"ann\":[", out);
	for (size_t i = 0; i < t->n; i++)
		fprintf(out, i ? ",%ld" : "%ld", pk_flame_ann__of(fa, p, t->frame[t->order[i]]));
	fputc(']', out);
}

static int write_html(const struct pk_profile *p, const struct tree *t, const struct pk_xopts *x,
		      const struct pk_flame_ann *fa, FILE *out)
{
	int inverted = !!(x->flags & PK_EXPORT_INVERTED);
	const char *title = x->title ? x->title : inverted ? "Icicle Graph" : "Flame Graph";
	char ev[300] = "";
	if (p->nr_events)
		snprintf(ev, sizeof(ev), "%s", pk_profile__str(p, p->events[x->event].name));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
	xml_text(out, title, strlen(title));
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1 id=\"title\">",
		pk_flamegraph_css);
	xml_text(out, title, strlen(title));
	fputs("</h1>\n<div id=\"controls\"><button id=\"reset\" type=\"button\">Reset zoom</button>"
	      "<input id=\"search\" type=\"search\" placeholder=\"Search (regex)\" "
	      "aria-label=\"Search\"><span id=\"matched\"></span></div>\n</header>\n"
	      "<main id=\"graph\" role=\"tree\"></main>\n<div id=\"details\">&nbsp;</div>\n"
	      "<section id=\"ann\" hidden><div id=\"ann-head\"><h2 id=\"ann-title\"></h2>"
	      "<button id=\"ann-close\" type=\"button\" aria-label=\"Close\">Close</button></div>"
	      "<p id=\"ann-note\"></p><div id=\"ann-body\"></div></section>\n"
	      "<div id=\"tip\" hidden></div>\n<script id=\"pk-data\" type=\"application/json\">"
	      "{\"title\":", out);
	json_object *js = json_object_new_string(title);
	script_json(out, js);
	json_object_put(js);
	js = json_object_new_string(ev);
	fputs(",\"event\":", out);
	script_json(out, js);
	json_object_put(js);
	js = json_object_new_string(pk_export__value_unit(p, x));
	fputs(",\"unit\":", out);
	script_json(out, js);
	json_object_put(js);
	fprintf(out, ",\"inverted\":%s,\"names\":[", inverted ? "true" : "false");
	for (size_t i = 0; i < pk_strtab__nr(&t->labels); i++) {
		if (i)
			fputc(',', out);
		js = json_object_new_string(pk_strtab__get(&t->labels, i));
		script_json(out, js);
		json_object_put(js);
	}
	fputc(']', out);
	json_col(out, "name", t, 0);
	json_col(out, "depth", t, 1);
	json_col(out, "x", t, 2);
	json_col(out, "total", t, 3);
	json_col(out, "self", t, 4);
	json_col(out, "kind", t, 5);
	json_ann(out, p, t, fa);
	fputs("}</script>\n<script id=\"pk-ann\" type=\"application/json\">", out);
	if (pk_flame_ann__write(fa, out))
		return -ENOMEM;
	fprintf(out, "</script>\n<script>\n%s</script>\n</body>\n</html>\n", pk_flamegraph_js);
	return 0;
}

int pk_export__flamegraph(const struct pk_profile *p, FILE *out, const struct pk_xopts *x,
			  int html, struct pk_error *err)
{
	struct tree t = { .oom = 0 };
	struct pk_flame_ann *fa = NULL;
	int ret = build(p, x, &t);
	if (!ret)
		ret = layout(&t);
	if (!ret && html)
		ret = pk_flame_ann__new(&fa, p, x, err);	/* -ENOMEM only */
	if (!ret) {
		if (html)
			ret = write_html(p, &t, x, fa, out);
		else
			write_svg(p, &t, x, out);
		if (!ret)
			ret = ferror(out) ? -EIO : 0;
	}
	if (ret)
		pk_error__set(err, ret, NULL, 0, 0, ret == -EIO ? "write error" :
			      "out of memory writing the flame graph");
	pk_flame_ann__free(fa);
	tree_free(&t);
	return ret;
}
