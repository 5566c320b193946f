/* SPDX-License-Identifier: MIT */
/*
 * test_export_gecko.c — Firefox Profiler output (PK_EXPORT_GECKO), read back
 * with json-c: the processed-profile (version 48) fields and types the
 * profiler's loader and upgraders use; every index in range (stack → frame →
 * func → string/resource → lib, prefixes before their stacks, categories);
 * one thread per (pid, tid) in order; sample times non-decreasing; and every
 * sample's stack, read back through the tables, is the profile's, in time
 * order, with inline depths for inlined frames.
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

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

/* cpu-clock and page-faults samples in 4 threads of 2 processes, times out of order */
static struct pk_profile *build(size_t nsamples)
{
	struct pk_profile *p;
	assert_int_equal(pk_profile__new(&p), 0);
	pk_profile__add_event(p, &(struct pk_profile_event){ .name = "cpu-clock", .unit = "nanoseconds",
		.period = 250000 });
	pk_profile__add_event(p, &(struct pk_profile_event){ .name = "page-faults" });
	uint32_t fr[12], th[4];
	const char *names[] = { "main", "parse", "eval", "alloc", "memcpy", "write" };
	for (int i = 0; i < 6; i++)
		pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = names[i],
			.dso = i < 4 ? "/usr/bin/tool" : "/lib/x86_64-linux-gnu/libc.so.6",
			.file = i < 4 ? "tool.c" : NULL, .line = i < 4 ? 10u * (unsigned)i + 1 : 0,
			.addr = 0x1000u * (unsigned)(i + 1) }, &fr[i]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "vfs_write",
		.dso = "[kernel.kallsyms]", .kind = PK_FRAME_KERNEL, .addr = 0xffffffff81100000 }, &fr[6]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "jit_loop",
		.dso = "/tmp/perf-77.map", .kind = PK_FRAME_JIT, .addr = 0x7f1000 }, &fr[7]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .dso = "/lib/x86_64-linux-gnu/libc.so.6",
		.addr = 0x7f2000 }, &fr[8]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "inner_inl", .dso = "/usr/bin/tool",
		.inlined = true, .addr = 0x9000 }, &fr[9]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "outer_inl", .dso = "/usr/bin/tool",
		.inlined = true, .addr = 0x9000 }, &fr[10]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "host \"q\" <x>", .dso = "/usr/bin/tool",
		.addr = 0x9000 }, &fr[11]);
	pk_profile__intern_thread(p, 300, 300, "tool", &th[0]);
	pk_profile__intern_thread(p, 300, 302, "tool:worker", &th[1]);
	pk_profile__intern_thread(p, 20, 20, "sh", &th[2]);
	pk_profile__intern_thread(p, 300, 300, "tool-renamed", &th[3]);	/* same tid, new comm */
	for (size_t i = 0; i < nsamples; i++) {
		uint32_t st[16];
		size_t n = 0;
		switch (rnd(5)) {
		case 0: st[n++] = fr[6]; st[n++] = fr[5]; break;
		case 1: st[n++] = fr[9]; st[n++] = fr[10]; st[n++] = fr[11]; break;
		case 2: st[n++] = fr[7]; break;
		case 3: st[n++] = fr[8]; st[n++] = fr[4]; break;
		default: break;
		}
		for (size_t d = rnd(4); d > 0; d--)
			st[n++] = fr[1 + rnd(3)];
		st[n++] = fr[0];
		uint32_t s;
		pk_profile__intern_stack(p, st, rnd(20) ? n : 0, &s);
		uint32_t ev = rnd(4) == 0;
		uint64_t t = 1000000000ull + (uint64_t)i * 100000 + rnd(300000);	/* not sorted */
		uint32_t thr = th[rnd(4)];
		assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s,
			.thread = thr, .event = ev, .time = t, .period = ev ? 1 : 250000 + rnd(100) }), 0);
	}
	return p;
}

static json_object *write_json(const struct pk_profile *p, int event, enum pk_export_value v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pk_error err = { 0 };
	assert_int_equal(pk_export__write(p, PK_EXPORT_GECKO, f, &(struct pk_export_opts){
		.sz = sizeof(struct pk_export_opts), .event_nr = (unsigned)(event + 1), .value = v }, &err), 0);
	fclose(f);
	enum json_tokener_error jerr;
	json_object *o = json_tokener_parse_verbose(buf, &jerr);
	if (!o)
		print_message("JSON: %s\n", json_tokener_error_desc(jerr));
	assert_non_null(o);
	free(buf);
	return o;
}

static json_object *get(json_object *o, const char *key, json_type type)
{
	json_object *v = NULL;
	if (!json_object_object_get_ex(o, key, &v))
		print_message("missing \"%s\"\n", key);
	assert_non_null(v);
	if (!json_object_is_type(v, type))
		print_message("\"%s\": type %s\n", key, json_type_to_name(json_object_get_type(v)));
	assert_true(json_object_is_type(v, type));
	return v;
}

/* A table: columns are arrays of `length` entries. Returns length. */
static size_t table(json_object *t, const char *const *cols)
{
	size_t n = (size_t)json_object_get_int64(get(t, "length", json_type_int));
	for (; *cols; cols++)
		assert_int_equal(json_object_array_length(get(t, *cols, json_type_array)), n);
	return n;
}

/* v[i] is an int in [lo, hi), or null when allowed */
static int64_t idx(json_object *arr, size_t i, int64_t lo, int64_t hi, int nullable)
{
	json_object *v = json_object_array_get_idx(arr, i);
	if (!v) {
		assert_true(nullable);
		return -2;
	}
	assert_true(json_object_is_type(v, json_type_int));
	int64_t x = json_object_get_int64(v);
	if (x < lo || x >= hi)
		print_message("index %" PRId64 " not in [%" PRId64 ", %" PRId64 ")\n", x, lo, hi);
	assert_true(x >= lo && x < hi);
	return x;
}

static const char *frame_name(const struct pk_profile *p, uint32_t id, char *tmp, size_t len)
{
	struct pk_profile_frame f;
	pk_profile__frame(p, id, &f);
	if (f.name)
		return f.name;
	const char *b = strrchr(f.dso, '/');
	snprintf(tmp, len, "[%s]", b ? b + 1 : f.dso);
	return tmp;
}

struct ref {
	uint64_t time;
	size_t idx;
};

static int cmp_ref(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static void check(const struct pk_profile *p, json_object *root, int event, enum pk_export_value v)
{
	json_object *meta = get(root, "meta", json_type_object);
	assert_int_equal(json_object_get_int(get(meta, "preprocessedProfileVersion", json_type_int)), 48);
	get(meta, "version", json_type_int);
	get(meta, "startTime", json_type_double);
	get(meta, "product", json_type_string);
	assert_int_equal(json_object_array_length(get(meta, "markerSchema", json_type_array)), 0);
	json_object *cats = get(meta, "categories", json_type_array);
	size_t ncat = json_object_array_length(cats);
	int grey = 0;
	for (size_t i = 0; i < ncat; i++) {
		json_object *c = json_object_array_get_idx(cats, i);
		get(c, "name", json_type_string);
		grey |= !strcmp(json_object_get_string(get(c, "color", json_type_string)), "grey");
		json_object *sub = get(c, "subcategories", json_type_array);
		assert_string_equal(json_object_get_string(json_object_array_get_idx(sub, 0)), "Other");
	}
	assert_true(grey);	/* the default category */
	if (event == 0)
		assert_true(fabs(json_object_get_double(get(meta, "interval", json_type_double)) - 0.25) < 1e-9);
	json_object *libs = get(root, "libs", json_type_array);
	size_t nlibs = json_object_array_length(libs);
	for (size_t i = 0; i < nlibs; i++) {
		json_object *l = json_object_array_get_idx(libs, i);
		static const char *const keys[] = { "arch", "name", "path", "debugName", "debugPath", "breakpadId" };
		for (size_t k = 0; k < 6; k++)
			get(l, keys[k], json_type_string);
	}

	/* the profile's samples of the event, per (pid, tid), in time order */
	size_t ns = pk_profile__nr_samples(p);
	struct ref *refs = calloc(ns, sizeof(*refs));
	uint64_t t0 = UINT64_MAX;
	for (size_t i = 0; i < ns; i++) {
		struct pk_profile_sample s;
		pk_profile__sample(p, i, &s);
		if ((int)s.event == event && s.time < t0)
			t0 = s.time;
	}
	json_object *threads = get(root, "threads", json_type_array);
	size_t nth = json_object_array_length(threads), seen = 0;
	int64_t last_pid = INT64_MIN, last_tid = INT64_MIN;
	for (size_t ti = 0; ti < nth; ti++) {
		json_object *th = json_object_array_get_idx(threads, ti);
		const char *pid_s = json_object_get_string(get(th, "pid", json_type_string));
		int64_t pid = strtoll(pid_s, NULL, 10);
		int64_t tid = json_object_get_int64(get(th, "tid", json_type_int));
		assert_true(pid > last_pid || (pid == last_pid && tid > last_tid));	/* sorted, one per tid */
		last_pid = pid;
		last_tid = tid;
		assert_int_equal(json_object_get_boolean(get(th, "isMainThread", json_type_boolean)), pid == tid);
		get(th, "name", json_type_string);
		get(th, "processName", json_type_string);
		assert_string_equal(json_object_get_string(get(th, "processType", json_type_string)), "default");
		get(th, "registerTime", json_type_int);
		get(th, "pausedRanges", json_type_array);

		json_object *strs = get(th, "stringArray", json_type_array);
		int64_t nstr = (int64_t)json_object_array_length(strs);
		json_object *res = get(th, "resourceTable", json_type_object);
		int64_t nres = (int64_t)table(res, (const char *const[]){ "lib", "name", "host", "type", NULL });
		for (int64_t i = 0; i < nres; i++) {
			idx(get(res, "lib", json_type_array), (size_t)i, 0, (int64_t)nlibs, 0);
			idx(get(res, "name", json_type_array), (size_t)i, 0, nstr, 0);
			assert_null(json_object_array_get_idx(get(res, "host", json_type_array), (size_t)i));
		}
		json_object *fn = get(th, "funcTable", json_type_object);
		int64_t nfn = (int64_t)table(fn, (const char *const[]){ "name", "isJS", "relevantForJS",
			"resource", "fileName", "lineNumber", "columnNumber", NULL });
		for (int64_t i = 0; i < nfn; i++) {
			idx(get(fn, "name", json_type_array), (size_t)i, 0, nstr, 0);
			idx(get(fn, "resource", json_type_array), (size_t)i, -1, nres, 0);
			idx(get(fn, "fileName", json_type_array), (size_t)i, 0, nstr, 1);
		}
		json_object *frt = get(th, "frameTable", json_type_object);
		int64_t nfr = (int64_t)table(frt, (const char *const[]){ "address", "inlineDepth", "category",
			"subcategory", "func", "nativeSymbol", "innerWindowID", "implementation", "line",
			"column", NULL });
		for (int64_t i = 0; i < nfr; i++) {
			idx(get(frt, "func", json_type_array), (size_t)i, 0, nfn, 0);
			idx(get(frt, "category", json_type_array), (size_t)i, 0, (int64_t)ncat, 0);
			idx(get(frt, "subcategory", json_type_array), (size_t)i, 0, 1, 0);
			idx(get(frt, "inlineDepth", json_type_array), (size_t)i, 0, 16, 0);
		}
		json_object *stt = get(th, "stackTable", json_type_object);
		int64_t nst = (int64_t)table(stt, (const char *const[]){ "frame", "prefix", "category",
			"subcategory", NULL });
		for (int64_t i = 0; i < nst; i++) {
			idx(get(stt, "frame", json_type_array), (size_t)i, 0, nfr, 0);
			idx(get(stt, "prefix", json_type_array), (size_t)i, 0, i, 1);	/* before it */
			idx(get(stt, "category", json_type_array), (size_t)i, 0, (int64_t)ncat, 0);
		}
		json_object *sam = get(th, "samples", json_type_object);
		size_t n = table(sam, (const char *const[]){ "stack", "time", NULL });
		const char *wt = json_object_get_string(get(sam, "weightType", json_type_string));
		if (v == PK_EXPORT_VALUE_SAMPLES) {
			assert_string_equal(wt, "samples");
			assert_true(json_object_object_get_ex(sam, "weight", NULL));
		} else {
			assert_string_equal(wt, event == 0 ? "tracing-ms" : "samples");
			table(sam, (const char *const[]){ "weight", NULL });
		}
		assert_true(n > 0);
		json_object *markers = get(th, "markers", json_type_object);
		assert_int_equal(table(markers, (const char *const[]){ "data", "name", "startTime",
			"endTime", "phase", "category", NULL }), 0);
		get(get(th, "nativeSymbols", json_type_object), "length", json_type_int);

		/* this thread's samples in the profile */
		size_t nref = 0;
		for (size_t i = 0; i < ns; i++) {
			struct pk_profile_sample s;
			struct pk_profile_thread t;
			pk_profile__sample(p, i, &s);
			pk_profile__thread(p, s.thread, &t);
			if ((int)s.event == event && t.pid == pid && t.tid == tid)
				refs[nref++] = (struct ref){ s.time, i };
		}
		qsort(refs, nref, sizeof(*refs), cmp_ref);
		assert_int_equal(n, nref);
		seen += n;
		json_object *stack = get(sam, "stack", json_type_array), *time = get(sam, "time", json_type_array);
		double last = -1;
		for (size_t i = 0; i < n; i++) {
			double tm = json_object_get_double(json_object_array_get_idx(time, i));
			assert_true(tm >= last);
			last = tm;
			assert_true(fabs(tm - (double)(refs[i].time - t0) / 1e6) < 1e-6);
			struct pk_profile_sample s;
			pk_profile__sample(p, refs[i].idx, &s);
			if (v != PK_EXPORT_VALUE_SAMPLES) {
				json_object *w = json_object_array_get_idx(get(sam, "weight", json_type_array), i);
				double want = event == 0 ? (double)s.period / 1e6 : (double)s.period;
				assert_true(fabs(json_object_get_double(w) - want) < 1e-6);
			}
			/* walk the stack leaf to root next to the profile's frames */
			uint32_t fr[32];
			size_t depth = pk_profile__stack_frames(p, s.stack, fr, 32);
			int64_t sk = idx(stack, i, 0, nst, 1);
			for (size_t d = 0; d < depth; d++) {
				assert_true(sk >= 0);
				int64_t f = json_object_get_int64(json_object_array_get_idx(get(stt, "frame", json_type_array), (size_t)sk));
				int64_t fu = json_object_get_int64(json_object_array_get_idx(get(frt, "func", json_type_array), (size_t)f));
				int64_t nm = json_object_get_int64(json_object_array_get_idx(get(fn, "name", json_type_array), (size_t)fu));
				char tmp[64];
				assert_string_equal(json_object_get_string(json_object_array_get_idx(strs, (size_t)nm)),
						    frame_name(p, fr[d], tmp, sizeof(tmp)));
				struct pk_profile_frame pf;
				pk_profile__frame(p, fr[d], &pf);
				int64_t depth_in = json_object_get_int64(json_object_array_get_idx(
					get(frt, "inlineDepth", json_type_array), (size_t)f));
				/* inner_inl <- outer_inl <- host, all at one address */
				int64_t want_depth = pf.name && !strcmp(pf.name, "inner_inl") ? 2 :
						     pf.name && !strcmp(pf.name, "outer_inl") ? 1 : 0;
				assert_int_equal(depth_in, want_depth);
				int64_t cat = json_object_get_int64(json_object_array_get_idx(
					get(frt, "category", json_type_array), (size_t)f));
				const char *cname = json_object_get_string(get(json_object_array_get_idx(cats, (size_t)cat),
									       "name", json_type_string));
				assert_string_equal(cname, pf.kind == PK_FRAME_KERNEL ? "Kernel" :
						    pf.kind == PK_FRAME_JIT ? "JIT" : "User");
				json_object *pre = json_object_array_get_idx(get(stt, "prefix", json_type_array), (size_t)sk);
				sk = pre ? json_object_get_int64(pre) : -1;
			}
			assert_int_equal(sk, depth ? -1 : -2);	/* no frames left; an empty stack is null */
		}
	}
	size_t want_total = 0;
	for (size_t i = 0; i < ns; i++) {
		struct pk_profile_sample s;
		pk_profile__sample(p, i, &s);
		want_total += (int)s.event == event;
	}
	assert_int_equal(seen, want_total);
	free(refs);
}

static void test_gecko(void **state)
{
	(void)state;
	struct pk_profile *p = build(4000);
	json_object *o = write_json(p, -1, PK_EXPORT_VALUE_SAMPLES);	/* the first sample's event */
	struct pk_profile_sample s0;
	pk_profile__sample(p, 0, &s0);
	check(p, o, (int)s0.event, PK_EXPORT_VALUE_SAMPLES);
	/* three (pid, tid): the renamed thread is the same one, named by its latest comm */
	json_object *threads = get(o, "threads", json_type_array);
	assert_int_equal(json_object_array_length(threads), 3);
	json_object_put(o);
	o = write_json(p, 0, PK_EXPORT_VALUE_COUNT);
	check(p, o, 0, PK_EXPORT_VALUE_COUNT);
	json_object_put(o);
	o = write_json(p, 1, PK_EXPORT_VALUE_SAMPLES);
	check(p, o, 1, PK_EXPORT_VALUE_SAMPLES);
	json_object_put(o);
	pk_profile__free(p);
}

/* No samples at all: still a loadable profile, with no threads. */
static void test_empty(void **state)
{
	(void)state;
	struct pk_profile *p;
	assert_int_equal(pk_profile__new(&p), 0);
	json_object *o = write_json(p, -1, PK_EXPORT_VALUE_SAMPLES);
	assert_int_equal(json_object_array_length(get(o, "threads", json_type_array)), 0);
	json_object_put(o);
	pk_profile__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gecko),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
