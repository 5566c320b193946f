/* SPDX-License-Identifier: MIT */
/*
 * fuzz_metric_expr.c — libFuzzer target for the metric expression parser and
 * evaluator: the input bytes (up to the first NUL) are parsed; on success the
 * identifiers are checked against the text, the expression is evaluated with
 * a lookup of made-up values (and failures), folded for needed identifiers,
 * printed, and the printed form parsed again to the same text and value; on
 * failure the error is checked and formatted. Seeds: fuzz/corpus/metric_expr.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/metric.h>

static void check(int ok)
{
	if (!ok)
		abort();
}

/* Values from the name; "fail..." events make the lookup fail, "gone..." are unknown. */
static int lookup(void *ctx, const struct pk_mexpr_id *id, double *v)
{
	(void)ctx;
	check(id->name != NULL);
	if (!strncmp(id->name, "fail", 4))
		return -EIO;
	if (!strncmp(id->name, "gone", 4))
		return -ENOENT;
	unsigned h = 5381;
	for (const char *c = id->name; *c; c++)
		h = h * 33 + (unsigned char)*c;
	*v = id->kind == PK_MEXPR_ID_LITERAL ? (double)(h % 3) : (double)(h % 2000) - 500;
	return 0;
}

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	size_t n = strlen(text);

	struct pk_mexpr *e;
	struct pk_spec_error err;
	struct pk_mexpr_opts opts = { .sz = sizeof(opts), .runtime = (int)(size % 7) - 3 };
	char buf[4096];
	int rc = pk_mexpr__parse_opts(&e, text, &opts, &err);
	if (rc) {
		check(e == NULL && rc < 0 && err.code == rc && err.msg[0] && err.off <= n &&
		      err.off + err.len <= n);
		pk_spec_error__format(&err, text, buf, sizeof(buf));
		pk_spec_error__format(&err, text, buf, 7);
		free(text);
		return 0;
	}
	size_t nr = pk_mexpr__nr_ids(e);
	bool runtime = false, *needed = malloc(nr + 1);
	for (size_t i = 0; i < nr; i++) {
		const struct pk_mexpr_id *id = pk_mexpr__id(e, i);
		check(id->off + id->len <= n && id->len > 0);
		check(pk_mexpr__find_id(e, id->kind, id->name) == (long)i);
		runtime |= id->runtime_param;
		size_t need = pk_mexpr_id__event_spec(id, buf, sizeof(buf));
		check(need == strlen(id->name));
	}
	double v1 = 0, v2 = 0;
	int e1 = pk_mexpr__eval(e, lookup, NULL, &v1);
	check(e1 == 0 || e1 == -EIO || e1 == -EDOM || e1 == -ENOENT);
	if (needed) {
		int f = pk_mexpr__needed_ids(e, lookup, NULL, needed);
		check(f == 0 || f == -EIO || f == -EDOM);
		int g = pk_mexpr__needed_ids(e, NULL, NULL, needed);	/* nothing constant */
		check(g == 0 || g == -EDOM);
	}

	/* the printed form reads back to the same tree (unless only too deep in parentheses) */
	size_t plen = pk_mexpr__print(e, NULL, 0);
	char *p1 = malloc(plen + 1), *p2 = malloc(plen + 1);
	if (p1 && p2) {
		check(pk_mexpr__print(e, p1, plen + 1) == plen && strlen(p1) == plen);
		struct pk_mexpr *e2;
		int r2 = pk_mexpr__parse(&e2, p1, &err);
		if (r2 == 0) {
			if (!runtime) {
				check(pk_mexpr__print(e2, p2, plen + 1) == plen && !strcmp(p1, p2));
				check(pk_mexpr__nr_ids(e2) == nr);
				int e2rc = pk_mexpr__eval(e2, lookup, NULL, &v2);
				check(e2rc == e1 && (e1 || same(v1, v2)));
			}
			pk_mexpr__free(e2);
		} else {
			check(runtime || (r2 == -EINVAL && strstr(err.msg, "nested")) ||
			      r2 == -E2BIG);
		}
	}
	free(p1);
	free(p2);
	free(needed);
	pk_mexpr__free(e);
	free(text);
	return 0;
}
