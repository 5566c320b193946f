/* SPDX-License-Identifier: MIT */
/*
 * test_evspec_internal.c — the internal pieces the spec encoder's fast path
 * rests on, each against an independent statement of what it must do:
 *
 * - encode_fixed_index: perf's fixed term names (parse-events' config_term
 *   names) each found, each at its own index, everything else refused;
 * - encode_place_bits: a value's bits spread low to high into a format mask's
 *   set bits, against a bit-by-bit reference, for single and split ranges;
 * - pk_arena__init_buf: a lent first chunk used first, zeroed, aligned, then
 *   heap chunks, and never freed by the arena;
 * - alias encodings split into terms: a value is a number exactly when
 *   strtoull(value, &end, 0) reads all of it without overflow (0x hex,
 *   0 octal, decimal), checked on a PMU tree written here (sysfs values are
 *   trimmed when read);
 * - the scratch of pk_evlist__add: events stay valid after it is gone.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/pmukit.h>
#include <pmukit/spec.h>

#include "evspec/evlist_int.h"
#include "util/arena.h"

/* --- fixed terms -------------------------------------------------------------------------- */

static void test_fixed_index(void **state)
{
	(void)state;
	/* perf 6.1's config_term_names that pmukit takes (tools/perf/util/parse-events.c) */
	static const char *const fixed[] = {
		"config", "config1", "config2", "config3", "name", "period", "freq",
		"branch_type", "time", "call-graph", "stack-size", "max-stack", "nr", "inherit",
		"no-inherit", "overwrite", "no-overwrite", "percore", "aux-output",
		"aux-sample-size", "metric-id", "ratio-to-prev",
	};
	const size_t n = sizeof(fixed) / sizeof(fixed[0]);
	int seen[64] = { 0 };
	for (size_t i = 0; i < n; i++) {
		int k = encode_fixed_index(fixed[i]);
		if (k < 0)
			fail_msg("%s is not found", fixed[i]);
		assert_true(k < 64);
		if (seen[k])
			fail_msg("%s has the index of another term", fixed[i]);
		seen[k] = 1;
		/* a term built with its index cached answers the same */
		struct spec_term t = { .name = fixed[i], .fixed = k + 2 };
		assert_int_equal(encode_term_fixed(&t), k);
		t.fixed = 0;
		assert_int_equal(encode_term_fixed(&t), k);
	}
	static const char *const other[] = {
		"", "event", "umask", "conf", "config4", "configs", "Config", "CONFIG", "nam",
		"names", "periodx", "call_graph", "stack-sizes", "no-overwritex",
		"aux-sample-size2", "ratio-to-pre", "l1d.replacement", "max-stackk", "n",
		"aux-sample-sizeX", "ratio-to-prevratio-to-prev",
	};
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (encode_fixed_index(other[i]) != -1)
			fail_msg("'%s' taken for a fixed term", other[i]);
}

/* --- format bits ------------------------------------------------------------------------- */

/* The documented rule, one bit at a time. */
static uint64_t place_ref(uint64_t mask, uint64_t value)
{
	uint64_t out = 0;
	unsigned vb = 0;
	for (unsigned b = 0; b < 64; b++)
		if (mask >> b & 1) {
			if (vb < 64 && (value >> vb & 1))
				out |= UINT64_C(1) << b;
			vb++;
		}
	return out;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_place_bits(void **state)
{
	(void)state;
	static const uint64_t masks[] = {
		0, 1, 0xff, 0xff00, 0xffff0000, UINT64_MAX, UINT64_C(1) << 63,
		UINT64_C(0xff) << 56, UINT64_C(0xf) << 32 | 0xff, 0x5, 0x0f0f, 0xfffull << 5,
	};
	uint64_t s = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++)
		for (int k = 0; k < 200; k++) {
			uint64_t v = k < 70 ? (k < 64 ? UINT64_C(1) << k : (uint64_t)k) : rnd(&s);
			if (encode_place_bits(masks[i], v) != place_ref(masks[i], v))
				fail_msg("mask %#llx value %#llx", (unsigned long long)masks[i],
					 (unsigned long long)v);
		}
	for (int k = 0; k < 2000; k++) {
		uint64_t m = rnd(&s), v = rnd(&s);
		if (k & 1) {	/* a single range */
			unsigned lo = (unsigned)(m % 64), w = (unsigned)(m >> 8) % (64 - lo) + 1;
			m = (w == 64 ? UINT64_MAX : ((UINT64_C(1) << w) - 1)) << lo;
		}
		assert_true(encode_place_bits(m, v) == place_ref(m, v));
	}
}

/* --- arena with a lent buffer --------------------------------------------------------------- */

static void test_arena_lent_buffer(void **state)
{
	(void)state;
	struct pk_arena a;
	alignas(max_align_t) unsigned char buf[1024];
	memset(buf, 0xa5, sizeof(buf));
	pk_arena__init_buf(&a, buf, sizeof(buf));
	unsigned char *p = pk_arena__alloc(&a, 100);
	assert_non_null(p);
	assert_true(p >= buf && p + 100 <= buf + sizeof(buf));	/* from the buffer */
	assert_true((uintptr_t)p % alignof(max_align_t) == 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(p[i], 0);			/* zeroed */
	char *s = pk_arena__strndup(&a, "cycles:u", 6);
	assert_string_equal(s, "cycles");
	assert_true((unsigned char *)s >= buf && (unsigned char *)s < buf + sizeof(buf));
	/* beyond the buffer: heap chunks, still zeroed and aligned */
	unsigned char *big = NULL;
	for (int i = 0; i < 40; i++) {
		big = pk_arena__alloc(&a, 200);
		assert_non_null(big);
		assert_true((uintptr_t)big % alignof(max_align_t) == 0);
		for (int k = 0; k < 200; k++)
			assert_int_equal(big[k], 0);
	}
	assert_true(big < buf || big >= buf + sizeof(buf));
	assert_string_equal(s, "cycles");	/* earlier allocations untouched */
	pk_arena__free(&a);			/* frees the heap chunks, not buf */
	assert_null(a.head);

	/* a buffer too small for a chunk: the arena starts empty and works from the heap */
	pk_arena__init_buf(&a, buf, 8);
	assert_null(a.head);
	p = pk_arena__alloc(&a, 10);
	assert_non_null(p);
	assert_true(p < buf || p >= buf + sizeof(buf));
	pk_arena__free(&a);
	/* a misaligned buffer is aligned within */
	pk_arena__init_buf(&a, buf + 3, sizeof(buf) - 3);
	p = pk_arena__alloc(&a, 16);
	assert_true(p > buf && p < buf + sizeof(buf));
	assert_true((uintptr_t)p % alignof(max_align_t) == 0);
	pk_arena__free(&a);
}

/* --- alias encodings ---------------------------------------------------------------------- */

struct st {
	char tmp[64];
	struct pk_pmu_tree *tree;
};

static void mkfile(const char *root, const char *rel, const char *content)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

/* values written after event= in the aliases of the tree below */
static const char *const values[] = {
	"10", "010", "0x1F", "0X1f", "0", "00", "08", "0x", "0xg", "1a", "255",
	"0x00000000000000ff", "18446744073709551615", "18446744073709551616",
	"0x10000000000000000", "0777", "0778", "abc", "",
};
#define NR_VALUES (sizeof(values) / sizeof(values[0]))

static int alias_setup(void **state)
{
	struct st *st = calloc(1, sizeof(*st));
	char rel[64], body[128];
	strcpy(st->tmp, "/tmp/pmukit-test-internal-XXXXXX");
	if (!mkdtemp(st->tmp)) {
		free(st);
		return -1;
	}
	mkfile(st->tmp, "cpu/type", "4\n");
	mkfile(st->tmp, "cpu/format/event", "config:0-63\n");
	mkfile(st->tmp, "cpu/format/umask", "config1:0-63\n");
	for (size_t i = 0; i < NR_VALUES; i++) {
		snprintf(rel, sizeof(rel), "cpu/events/v%zu", i);
		snprintf(body, sizeof(body), "event=%s", values[i]);
		mkfile(st->tmp, rel, body);
	}
	/* blanks and empty terms between terms are skipped; a blank before '=' is dropped */
	mkfile(st->tmp, "cpu/events/spaced", " ,event=0x3c,, umask =7");
	mkfile(st->tmp, "cpu/events/flag", "event=1,umask");
	mkfile(st->tmp, "software/type", "1\n");
	struct pk_error err;
	if (pk_pmu_tree__open(&st->tree, st->tmp, &err))
		return -1;
	*state = st;
	return 0;
}

static int alias_teardown(void **state)
{
	struct st *st = *state;
	char cmd[128];
	pk_pmu_tree__free(st->tree);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", st->tmp);
	if (system(cmd))
		return -1;
	free(st);
	return 0;
}

static int add(struct st *st, const char *spec, struct pk_evlist **el, struct pk_spec_error *err)
{
	struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_STAT, .model = PK_NO_MODEL,
				  .pmus = st->tree, .workload = true };
	*el = pk_evlist__new();
	assert_non_null(*el);
	return pk_evlist__add(*el, spec, &o, err);
}

static void test_alias_numbers(void **state)
{
	struct st *st = *state;
	char spec[64];
	for (size_t i = 0; i < NR_VALUES; i++) {
		/* what strtoull makes of it */
		char *end;
		errno = 0;
		unsigned long long want = strtoull(values[i], &end, 0);
		int number = values[i][0] >= '0' && values[i][0] <= '9' && !*end && !errno;

		struct pk_evlist *el;
		struct pk_spec_error err;
		snprintf(spec, sizeof(spec), "v%zu", i);
		int r = add(st, spec, &el, &err);
		if (number) {
			if (r)
				fail_msg("event=%s: refused: %s", values[i], err.msg);
			assert_int_equal(pk_evlist__nr(el), 1);
			if (pk_evlist__evsel(el, 0)->attr.config != want)
				fail_msg("event=%s: config %#llx, strtoull says %#llx", values[i],
					 (unsigned long long)pk_evlist__evsel(el, 0)->attr.config, want);
		} else {
			if (!r)
				fail_msg("event=%s taken for a number", values[i]);
			assert_non_null(strstr(err.msg, "expects a number"));
		}
		pk_evlist__free(el);
	}
	struct pk_evlist *el;
	struct pk_spec_error err;
	assert_int_equal(add(st, "spaced", &el, &err), 0);
	assert_true(pk_evlist__evsel(el, 0)->attr.config == 0x3c);
	assert_true(pk_evlist__evsel(el, 0)->attr.config1 == 7);
	pk_evlist__free(el);
	assert_int_equal(add(st, "flag", &el, &err), 0);	/* a flag term is 1 */
	assert_true(pk_evlist__evsel(el, 0)->attr.config == 1);
	assert_true(pk_evlist__evsel(el, 0)->attr.config1 == 1);
	pk_evlist__free(el);
}

/* Names and strings of the events outlive the add's scratch (ASan checks it too). */
static void test_events_outlive_scratch(void **state)
{
	struct st *st = *state;
	struct pk_evlist *el;
	struct pk_spec_error err;
	char spec[4096];
	assert_int_equal(add(st, "v0", &el, &err), 0);
	/* a long spec: its syntax tree overflows the stack part of the scratch */
	size_t len = 0;
	for (int i = 0; i < 60; i++)
		len += (size_t)snprintf(spec + len, sizeof(spec) - len, "%scpu/event=%d,name=n%d/u",
					i ? "," : "", i, i);
	struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_STAT, .model = PK_NO_MODEL,
				  .pmus = st->tree, .workload = true };
	assert_int_equal(pk_evlist__add(el, spec, &o, &err), 0);
	assert_int_equal(pk_evlist__add(el, "{v2,spaced}:k", &o, &err), 0);
	memset(spec, 'x', sizeof(spec) - 1);	/* the caller's text is gone too */
	assert_int_equal(pk_evlist__nr(el), 63);
	assert_string_equal(pk_evlist__evsel(el, 0)->name, "v0");
	char want[16];
	for (int i = 0; i < 60; i++) {
		snprintf(want, sizeof(want), "n%d", i);
		assert_string_equal(pk_evlist__evsel(el, 1 + (size_t)i)->name, want);
		assert_true(pk_evlist__evsel(el, 1 + (size_t)i)->attr.config == (uint64_t)i);
	}
	assert_string_equal(pk_evlist__evsel(el, 61)->name, "v2");
	assert_string_equal(pk_evlist__evsel(el, 62)->name, "spaced");
	assert_int_equal(pk_evlist__evsel(el, 62)->leader, 61);
	pk_evlist__free(el);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_index),
		cmocka_unit_test(test_place_bits),
		cmocka_unit_test(test_arena_lent_buffer),
		cmocka_unit_test(test_alias_numbers),
		cmocka_unit_test(test_events_outlive_scratch),
	};
	/* the alias tests share one tree, written by the group setup */
	return cmocka_run_group_tests_name("spec_internal", tests, alias_setup, alias_teardown);
}
