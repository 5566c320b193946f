/* SPDX-License-Identifier: MIT */
/*
 * test_export_flamegraph.c — flame graphs (PK_EXPORT_SVG, PK_EXPORT_HTML):
 * the frames drawn, with their counts, are the call tree of the profile's
 * samples (computed here from the samples themselves); the HTML page's
 * embedded data is a consistent preorder tree (children inside their parent,
 * self = total - children); pages load nothing from the network; output is
 * the same on every run; --inverted and the title reach the page.
 *
 * `test_export_flamegraph --write DIR` writes DIR/flame.html, icicle.html,
 * flame.svg and expect.txt (hottest frames, a zoom target, a search and its
 * share) for tests/integration/flamegraph_browser.sh, which opens them in
 * headless Chromium.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include <pmukit/export.h>
#include <pmukit/profile.h>

static uint64_t rng_state = 0x853c49e6748fea9bull;
static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

enum { F_MAIN, F_LOOP, F_HOT, F_HASH, F_PARSE, F_WRITE, F_SYS, F_INL, F_JIT, F_LIBC, F_TINY, F_KUNK, NF };

/* A server's profile: main -> run_loop -> {compute_hot -> hash_lookup, parse_input, write_out -> sys_write}. */
static struct pk_profile *build(size_t n)
{
	struct pk_profile *p;
	assert_int_equal(pk_profile__new(&p), 0);
	pk_profile__add_event(p, &(struct pk_profile_event){ .name = "cpu-clock", .unit = "nanoseconds",
		.period = 1000000 });
	pk_profile__add_event(p, &(struct pk_profile_event){ .name = "page-faults" });
	static const struct pk_profile_frame fr[NF] = {
		[F_MAIN] = { .name = "main", .dso = "/srv/server", .addr = 0x1000 },
		[F_LOOP] = { .name = "run_loop", .dso = "/srv/server", .addr = 0x2000 },
		[F_HOT] = { .name = "compute_hot", .dso = "/srv/server", .addr = 0x3000 },
		[F_HASH] = { .name = "hash_lookup", .dso = "/srv/server", .addr = 0x4000 },
		[F_PARSE] = { .name = "parse_input<T&>", .dso = "/srv/server", .addr = 0x5000 },
		[F_WRITE] = { .name = "write_out", .dso = "/srv/server", .addr = 0x6000 },
		[F_SYS] = { .name = "sys_write", .dso = "[kernel.kallsyms]", .kind = PK_FRAME_KERNEL,
			    .addr = 0xffffffff81000000 },
		[F_INL] = { .name = "inl_helper", .dso = "/srv/server", .inlined = true, .addr = 0x5000 },
		[F_JIT] = { .name = "jit_fn", .dso = "/tmp/perf-1.map", .kind = PK_FRAME_JIT, .addr = 0x7000 },
		[F_LIBC] = { .dso = "/lib/libc.so.6", .addr = 0x8000 },
		[F_TINY] = { .name = "tiny_fn", .dso = "/srv/server", .addr = 0x9000 },
		[F_KUNK] = { .dso = "[kernel.kallsyms]", .kind = PK_FRAME_KERNEL, .addr = 0xffffffff81000100 },
	};
	uint32_t id[NF], th[2];
	for (int i = 0; i < NF; i++)
		pk_profile__intern_frame(p, &fr[i], &id[i]);
	pk_profile__intern_thread(p, 10, 10, "server", &th[0]);
	pk_profile__intern_thread(p, 10, 11, "worker bee", &th[1]);
	for (size_t i = 0; i < n; i++) {
		uint32_t st[8];
		size_t k = 0;
		uint32_t r = rnd(100);
		if (r < 45) {
			if (rnd(3))
				st[k++] = id[F_HASH];
			st[k++] = id[F_HOT];
		} else if (r < 70) {
			if (rnd(2))
				st[k++] = id[F_INL];
			st[k++] = id[F_PARSE];
		} else if (r < 85) {
			if (rnd(4) == 0)
				st[k++] = id[F_KUNK];
			st[k++] = id[F_SYS];
			st[k++] = id[F_WRITE];
		} else if (r < 93) {
			st[k++] = id[F_JIT];
		} else if (r < 99) {
			st[k++] = id[F_LIBC];
		} else {
			st[k++] = id[F_TINY];
		}
		st[k++] = id[F_LOOP];
		st[k++] = id[F_MAIN];
		uint32_t s;
		pk_profile__intern_stack(p, st, k, &s);
		uint32_t ev = rnd(10) == 0;
		pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s, .thread = th[rnd(4) == 0],
			.event = ev, .time = 1000 + i, .period = ev ? 1 : 1000000 });
	}
	return p;
}

static char *write(const struct pk_profile *p, enum pk_export_format fmt, unsigned flags, const char *title)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pk_error err = { 0 };
	int r = pk_export__write(p, fmt, f, &(struct pk_export_opts){ .sz = sizeof(struct pk_export_opts),
		.event_nr = 1, .flags = flags, .title = title }, &err);
	fclose(f);
	assert_int_equal(r, 0);
	return buf;
}

/* ---- the expected tree: every path "all;comm;root;...;frame" with its total ------------ */

struct path {
	char *s;
	uint64_t total;
};

static size_t npaths;
static struct path paths[256];

static void add_path(const char *s, uint64_t v)
{
	for (size_t i = 0; i < npaths; i++)
		if (!strcmp(paths[i].s, s)) {
			paths[i].total += v;
			return;
		}
	assert_true(npaths < 256);
	paths[npaths].s = strdup(s);
	paths[npaths++].total = v;
}

static const char *label(const struct pk_profile *p, uint32_t f, char *tmp, size_t len)
{
	struct pk_profile_frame fr;
	pk_profile__frame(p, f, &fr);
	if (fr.name)
		return fr.name;
	if (fr.dso[0] == '[')
		return fr.dso;		/* [kernel.kallsyms] as it is */
	snprintf(tmp, len, "[%s]", strrchr(fr.dso, '/') + 1);
	return tmp;
}

static void expected_tree(const struct pk_profile *p, int event)
{
	for (size_t i = 0; i < npaths; i++)
		free(paths[i].s);
	npaths = 0;
	for (size_t i = 0; i < pk_profile__nr_samples(p); i++) {
		struct pk_profile_sample s;
		struct pk_profile_thread t;
		pk_profile__sample(p, i, &s);
		if ((int)s.event != event)
			continue;
		pk_profile__thread(p, s.thread, &t);
		char path[1024] = "all";
		add_path(path, 1);
		strcat(path, ";");
		strcat(path, t.comm);
		add_path(path, 1);
		uint32_t fr[16];
		size_t d = pk_profile__stack_frames(p, s.stack, fr, 16);
		while (d-- > 0) {
			char tmp[64];
			strcat(path, ";");
			strcat(path, label(p, fr[d], tmp, sizeof(tmp)));
			add_path(path, 1);
		}
	}
}

static const char *last(const char *path)
{
	const char *s = strrchr(path, ';');
	return s ? s + 1 : path;
}

/* "name total" lines of the expected tree, sorted */
static int cmp_s(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char *expected_pairs(void)
{
	char **l = calloc(npaths, sizeof(*l));
	for (size_t i = 0; i < npaths; i++)
		assert_true(asprintf(&l[i], "%s %" PRIu64, last(paths[i].s), paths[i].total) > 0);
	qsort(l, npaths, sizeof(*l), cmp_s);
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	for (size_t i = 0; i < npaths; i++) {
		fprintf(o, "%s\n", l[i]);
		free(l[i]);
	}
	fclose(o);
	free(l);
	return out;
}

static char *sorted_lines(char **l, size_t n)
{
	qsort(l, n, sizeof(*l), cmp_s);
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	for (size_t i = 0; i < n; i++) {
		fprintf(o, "%s\n", l[i]);
		free(l[i]);
	}
	fclose(o);
	return out;
}

/* ---- SVG ---------------------------------------------------------------------------- */

static void unescape(char *s)
{
	static const char *const ents[][2] = { { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" },
					       { "&quot;", "\"" }, { "&#39;", "'" } };
	for (char *c = s; *c; c++)
		for (size_t k = 0; k < 5; k++) {
			size_t l = strlen(ents[k][0]);
			if (!strncmp(c, ents[k][0], l)) {
				*c = ents[k][1][0];
				memmove(c + 1, c + l, strlen(c + l) + 1);
			}
		}
}

static void test_svg(void **state)
{
	(void)state;
	struct pk_profile *p = build(3000);
	expected_tree(p, 0);
	char *svg = write(p, PK_EXPORT_SVG, 0, "CPU <flame> & co");
	char *again = write(p, PK_EXPORT_SVG, 0, "CPU <flame> & co");
	assert_string_equal(svg, again);
	assert_non_null(strstr(svg, "<svg "));
	assert_non_null(strstr(svg, "</svg>\n"));
	assert_non_null(strstr(svg, ">CPU &lt;flame&gt; &amp; co</text>"));
	/* every frame: <g><title>NAME (N samples, P%)</title><rect ...> */
	char **l = calloc(256, sizeof(*l));
	size_t n = 0;
	double root_w = 0;
	for (const char *c = svg; (c = strstr(c, "<g><title>")); c++) {
		char name[128];
		uint64_t v;
		double pct, x, y, w;
		const char *t = c + 10, *e = strstr(t, "</title>");
		const char *open = e;
		while (open > t && open[0] != '(')
			open--;
		assert_int_equal(sscanf(open, "(%" SCNu64 " samples, %lf%%)", &v, &pct), 2);
		snprintf(name, sizeof(name), "%.*s", (int)(open - 1 - t), t);
		unescape(name);
		assert_int_equal(sscanf(e, "</title><rect x=\"%lf\" y=\"%lf\" width=\"%lf\"", &x, &y, &w), 3);
		if (!n)
			root_w = w;
		assert_true(fabs(w - root_w * (double)v / (double)paths[0].total) < 0.11);
		assert_true(n < 256);
		assert_true(asprintf(&l[n++], "%s %" PRIu64, name, v) > 0);
	}
	char *got = sorted_lines(l, n), *want = expected_pairs();
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(l);
	free(svg);
	free(again);
	pk_profile__free(p);
}

/* ---- HTML ----------------------------------------------------------------------------- */

static json_object *page_data(const char *html)
{
	const char *open = "<script id=\"pk-data\" type=\"application/json\">";
	const char *s = strstr(html, open);
	assert_non_null(s);
	s += strlen(open);
	const char *e = strstr(s, "</script>");
	assert_non_null(e);
	char *js = strndup(s, (size_t)(e - s));
	json_object *o = json_tokener_parse(js);
	assert_non_null(o);
	free(js);
	return o;
}

static json_object *col(json_object *o, const char *k)
{
	json_object *v;
	assert_true(json_object_object_get_ex(o, k, &v));
	return v;
}

static int64_t at(json_object *o, const char *k, size_t i)
{
	return json_object_get_int64(json_object_array_get_idx(col(o, k), i));
}

static void check_page(const struct pk_profile *p, const char *html, int inverted, const char *title)
{
	/* self-contained: no URL, no external resource */
	assert_null(strstr(html, "http:"));
	assert_null(strstr(html, "https:"));
	assert_null(strstr(html, " src="));
	assert_null(strstr(html, " href="));
	assert_non_null(strstr(html, "<!DOCTYPE html>"));
	json_object *d = page_data(html);
	assert_string_equal(json_object_get_string(col(d, "title")), title);
	assert_int_equal(json_object_get_boolean(col(d, "inverted")), inverted);
	assert_string_equal(json_object_get_string(col(d, "unit")), "samples");
	assert_string_equal(json_object_get_string(col(d, "event")), "cpu-clock");
	size_t n = json_object_array_length(col(d, "name"));
	json_object *names = col(d, "names");
	static const char *const cols[] = { "depth", "x", "total", "self", "kind" };
	for (size_t k = 0; k < 5; k++)
		assert_int_equal(json_object_array_length(col(d, cols[k])), n);
	assert_int_equal(at(d, "depth", 0), 0);
	assert_int_equal(at(d, "x", 0), 0);
	expected_tree(p, 0);
	assert_int_equal(n, npaths);
	char **l = calloc(n, sizeof(*l));
	int64_t stack[64];
	for (size_t i = 0; i < n; i++) {
		int64_t dep = at(d, "depth", i), x = at(d, "x", i), tot = at(d, "total", i);
		const char *nm = json_object_get_string(json_object_array_get_idx(names,
								(size_t)at(d, "name", i)));
		if (i) {
			assert_true(dep >= 1 && dep <= at(d, "depth", i - 1) + 1);	/* preorder */
			int64_t par = stack[dep - 1];
			assert_true(x >= at(d, "x", (size_t)par));
			assert_true(x + tot <= at(d, "x", (size_t)par) + at(d, "total", (size_t)par));
		}
		stack[dep] = (int64_t)i;
		/* self = total - the children's totals */
		int64_t kids = 0;
		for (size_t j = i + 1; j < n && at(d, "depth", j) > dep; j++)
			if (at(d, "depth", j) == dep + 1)
				kids += at(d, "total", j);
		assert_int_equal(at(d, "self", i), tot - kids);
		assert_true(asprintf(&l[i], "%s %" PRId64, nm, tot) > 0);
	}
	char *got = sorted_lines(l, n), *want = expected_pairs();
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(l);
	json_object_put(d);
}

static void test_html(void **state)
{
	(void)state;
	struct pk_profile *p = build(3000);
	char *h = write(p, PK_EXPORT_HTML, 0, NULL);
	char *h2 = write(p, PK_EXPORT_HTML, 0, NULL);
	assert_string_equal(h, h2);
	check_page(p, h, 0, "Flame Graph");
	free(h);
	free(h2);
	h = write(p, PK_EXPORT_HTML, PK_EXPORT_INVERTED, "</script><b>x</b>");
	check_page(p, h, 1, "</script><b>x</b>");
	assert_non_null(strstr(h, "<title>&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;</title>"));
	free(h);
	pk_profile__free(p);
}

/* ---- files for the browser test --------------------------------------------------------- */

static int write_files(const char *dir)
{
	struct pk_profile *p = build(5000);
	static const struct { const char *file; enum pk_export_format f; unsigned flags; } out[] = {
		{ "flame.html", PK_EXPORT_HTML, 0 },
		{ "icicle.html", PK_EXPORT_HTML, PK_EXPORT_INVERTED },
		{ "flame.svg", PK_EXPORT_SVG, 0 },
	};
	for (size_t i = 0; i < 3; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, out[i].file);
		FILE *f = fopen(path, "w");
		if (!f || pk_export__write(p, out[i].f, f, &(struct pk_export_opts){
			.sz = sizeof(struct pk_export_opts), .event_nr = 1, .flags = out[i].flags,
			.title = i == 1 ? "pmukit icicle" : "pmukit flame graph" }, NULL))
			return 1;
		fclose(f);
	}
	/* what the page must show: from the page's own data, checked above against the samples */
	char *html = write(p, PK_EXPORT_HTML, 0, NULL);
	json_object *d = page_data(html);
	size_t n = json_object_array_length(col(d, "name"));
	json_object *names = col(d, "names");
#define NAME(i) json_object_get_string(json_object_array_get_idx(names, (size_t)at(d, "name", (i))))
	char path[4096];
	snprintf(path, sizeof(path), "%s/expect.txt", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return 1;
	int64_t total = at(d, "total", 0);
	/* hottest frames by self samples */
	for (int k = 0; k < 3; k++) {
		size_t best = 0;
		for (size_t i = 1; i < n; i++)
			if (at(d, "self", i) > at(d, "self", best))
				best = i;
		fprintf(f, "hot %s\n", NAME(best));
		json_object_array_put_idx(col(d, "self"), best, json_object_new_int64(-1));	/* next */
	}
	/* zoom: the server's parse_input<T&>; inside: inl_helper; outside: hash_lookup; above: run_loop */
	for (size_t i = 0; i < n; i++) {
		if (strcmp(NAME(i), "parse_input<T&>"))
			continue;
		fprintf(f, "zoom %zu\ninside inl_helper\noutside hash_lookup\nancestor run_loop\n", i);
		break;
	}
	/* search "hash|sys_": matched share of all samples, as the page prints it */
	int64_t matched = 0;
	for (size_t i = 0; i < n; i++)
		if (strstr(NAME(i), "hash") || strstr(NAME(i), "sys_"))
			matched += at(d, "total", i);	/* neither has a matching ancestor here */
	fprintf(f, "search hash|sys_ %.2f%%\n", 100.0 * (double)matched / (double)total);
#undef NAME
	fclose(f);
	json_object_put(d);
	free(html);
	pk_profile__free(p);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_files(argv[2]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_html),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
