// SPDX-License-Identifier: MIT
/*
 * stat-serve-ratio.c — which -M / --topdown metrics are ratios, for
 * `stat --serve`: a metric whose MetricExpr is "A / B" or "d_ratio(A, B)"
 * (TopDown's "... + 0 * slots" padding ignored) is exported as the
 * cumulative A and B, so that sums over CPUs or hosts divide into the right
 * ratio; anything else is a gauge. The split is made on the expression as
 * pk_mexpr__print writes it, fully parenthesised, and both halves are parsed
 * again with their metric references resolved.
 */
#include <stdlib.h>
#include <string.h>

#include <pmukit/events.h>
#include <pmukit/metric.h>

#include "stat-serve-ratio.h"

struct span {
	const char *p;
	size_t n;
};

/* The ')' closing the '(' at p (escaped characters skipped), or NULL. */
static const char *close_of(const char *p, const char *end)
{
	int depth = 0;
	for (; p < end; p++) {
		if (*p == '\\' && p + 1 < end)
			p++;
		else if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p;
	}
	return NULL;
}

/* Split s at the spaces outside parentheses into at most max tokens; how many (max + 1: more). */
static size_t tokens(struct span s, struct span *t, size_t max)
{
	size_t nr = 0;
	const char *p = s.p, *end = s.p + s.n;

	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		const char *b = p;
		while (p < end && *p != ' ') {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '(' && !(p = close_of(p, end)))
				return max + 1;
			p++;
		}
		if (nr == max)
			return max + 1;
		t[nr++] = (struct span){ b, (size_t)(p - b) };
	}
	return nr;
}

static bool is(struct span s, const char *text)
{
	return s.n == strlen(text) && !memcmp(s.p, text, s.n);
}

/* "(L op R)": the three tokens inside the brackets. */
static bool binary(struct span s, struct span t[3])
{
	if (s.n < 2 || s.p[0] != '(' || close_of(s.p, s.p + s.n) != s.p + s.n - 1)
		return false;
	return tokens((struct span){ s.p + 1, s.n - 2 }, t, 3) == 3;
}

/* "(0 * X)" or "(X * 0)": TopDown's way of reading an event it does not use */
static bool zero_product(struct span s)
{
	struct span t[3];
	return binary(s, t) && is(t[1], "*") && (is(t[0], "0") || is(t[2], "0"));
}

int serve_ratio__split_text(const char *text, size_t *num_off, size_t *num_len, size_t *den_off,
			    size_t *den_len)
{
	struct span s = { text, strlen(text) }, t[3];

	for (;;) {
		if (binary(s, t) && is(t[1], "+") && zero_product(t[2])) {
			s = t[0];
			continue;
		}
		if (binary(s, t) && is(t[1], "+") && zero_product(t[0])) {
			s = t[2];
			continue;
		}
		break;
	}
	if (binary(s, t) && is(t[1], "/")) {
		*num_off = (size_t)(t[0].p - text), *num_len = t[0].n;
		*den_off = (size_t)(t[2].p - text), *den_len = t[2].n;
		return 0;
	}
	static const char dr[] = "d_ratio(";
	if (s.n > sizeof(dr) && !memcmp(s.p, dr, sizeof(dr) - 1) &&
	    close_of(s.p + sizeof(dr) - 2, s.p + s.n) == s.p + s.n - 1) {
		/* the arguments: "A, B" (the comma ends A's last token) */
		struct span a = { s.p + sizeof(dr) - 1, s.n - sizeof(dr) };
		for (const char *p = a.p; p < a.p + a.n; p++) {
			if (*p == '\\')
				p++;
			else if (*p == '(' && !(p = close_of(p, a.p + a.n)))
				return -1;
			else if (*p == ',' && p + 1 < a.p + a.n && p[1] == ' ') {
				*num_off = (size_t)(a.p - text), *num_len = (size_t)(p - a.p);
				*den_off = (size_t)(p + 2 - text);
				*den_len = (size_t)(a.p + a.n - p - 2);
				return 0;
			}
		}
	}
	return -1;
}

static struct pk_mexpr *part(struct pk_catalog *cat, size_t model, const char *pmu,
			     const char *text, size_t off, size_t len)
{
	char *s = strndup(text + off, len);
	struct pk_mexpr *e = NULL;
	if (s && (pk_mexpr__parse(&e, s, NULL) || pk_mexpr__resolve_metrics(e, cat, model, pmu) < 0)) {
		pk_mexpr__free(e);
		e = NULL;
	}
	free(s);
	return e;
}

int serve_ratio__new(struct serve_ratio *r, struct pk_catalog *cat, size_t model, size_t idx)
{
	struct pk_metric m = { .sz = sizeof(m) };
	struct pk_mexpr *e = NULL;
	char text[8192];
	size_t no, nl, doff, dl;

	memset(r, 0, sizeof(*r));
	if (pk_catalog__metric(cat, model, idx, &m) || !m.expr || pk_mexpr__parse(&e, m.expr, NULL))
		return -1;
	size_t n = pk_mexpr__print(e, text, sizeof(text));
	pk_mexpr__free(e);
	if (n >= sizeof(text) || serve_ratio__split_text(text, &no, &nl, &doff, &dl))
		return -1;
	r->num = part(cat, model, m.pmu, text, no, nl);
	r->den = part(cat, model, m.pmu, text, doff, dl);
	if (!r->num || !r->den) {
		serve_ratio__fini(r);
		return -1;
	}
	return 0;
}

void serve_ratio__fini(struct serve_ratio *r)
{
	pk_mexpr__free(r->num);
	pk_mexpr__free(r->den);
	r->num = r->den = NULL;
}
