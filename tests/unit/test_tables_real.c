/* SPDX-License-Identifier: MIT */
/*
 * test_tables_real.c — the built-in tables against the real vendor tree they
 * were compiled from ($PMUKIT_ARCH_DIR): loading that tree at run time gives
 * the same models, map rows, events, metrics and groups, field for field; every
 * event is found by O(1) lookup in any letter case; real CPU identifiers pick
 * the right models.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/pmukit.h>

#include "events/image.h"

static const char *arch_dir(void)
{
	const char *d = getenv("PMUKIT_ARCH_DIR");
	return d ? d : "build/arch";
}

static void same_str(const char *a, const char *b, const char *what, const char *model,
		     const char *name)
{
	if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
		fail_msg("%s %s: %s differs: '%s' vs '%s'", model, name, what, a ? a : "(null)",
			 b ? b : "(null)");
}

/* The built-in image is opened without validation, so the test validates it. */
static void test_builtin_image_valid(void **state)
{
	(void)state;
	size_t size;
	const void *img = pk_builtin__image(&size);
	struct pk_error err = { 0 };
	assert_int_equal(pk_image__validate(img, size, &err), 0);
}

static void test_builtin_equals_events_dir(void **state)
{
	(void)state;
	struct pk_catalog *bi, *dir;
	struct pk_error err = { 0 };
	assert_int_equal(pk_catalog__open_builtin(&bi), 0);
	if (pk_catalog__open_dir(&dir, arch_dir(), NULL, &err)) {
		char msg[1024];
		fail_msg("open_dir %s: %s", arch_dir(), pk_error__format(&err, msg, sizeof(msg)));
	}
	assert_int_equal(pk_catalog__nr_models(bi), pk_catalog__nr_models(dir));
	assert_int_equal(pk_catalog__nr_maps(bi), pk_catalog__nr_maps(dir));
	size_t nev = 0, nmt = 0, archs_seen = 0;
	const char *last_arch = "";
	for (size_t mi = 0; mi < pk_catalog__nr_models(bi); mi++) {
		struct pk_model a, b;
		pk_catalog__model(bi, mi, &a);
		pk_catalog__model(dir, mi, &b);
		assert_string_equal(a.arch, b.arch);
		assert_string_equal(a.name, b.name);
		assert_int_equal(a.sys, b.sys);
		assert_int_equal(a.nr_events, b.nr_events);
		assert_int_equal(a.nr_metrics, b.nr_metrics);
		assert_int_equal(a.nr_groups, b.nr_groups);
		if (strcmp(a.arch, last_arch)) {
			archs_seen++;
			last_arch = a.arch;
		}
		for (size_t i = 0; i < a.nr_events; i++, nev++) {
			struct pk_event x = { .sz = sizeof(x) }, y = { .sz = sizeof(y) };
			pk_catalog__event(bi, mi, i, &x);
			pk_catalog__event(dir, mi, i, &y);
			same_str(x.name, y.name, "name", a.name, x.name);
			same_str(x.pmu, y.pmu, "pmu", a.name, x.name);
			same_str(x.topic, y.topic, "topic", a.name, x.name);
			same_str(x.encoding, y.encoding, "encoding", a.name, x.name);
			same_str(x.desc, y.desc, "desc", a.name, x.name);
			same_str(x.long_desc, y.long_desc, "long_desc", a.name, x.name);
			same_str(x.compat, y.compat, "compat", a.name, x.name);
			same_str(x.unit, y.unit, "unit", a.name, x.name);
			assert_int_equal(x.deprecated, y.deprecated);
			assert_int_equal(x.perpkg, y.perpkg);
			assert_int_equal(x.experimental, y.experimental);
		}
		for (size_t i = 0; i < a.nr_metrics; i++, nmt++) {
			struct pk_metric x = { .sz = sizeof(x) }, y = { .sz = sizeof(y) };
			pk_catalog__metric(bi, mi, i, &x);
			pk_catalog__metric(dir, mi, i, &y);
			same_str(x.name, y.name, "metric", a.name, x.name);
			same_str(x.expr, y.expr, "expr", a.name, x.name);
			same_str(x.groups, y.groups, "groups", a.name, x.name);
			same_str(x.threshold, y.threshold, "threshold", a.name, x.name);
			same_str(x.desc, y.desc, "desc", a.name, x.name);
			same_str(x.unit, y.unit, "unit", a.name, x.name);
			assert_int_equal(x.aggr_mode, y.aggr_mode);
			assert_int_equal(x.grouping, y.grouping);
		}
		for (size_t i = 0; i < a.nr_groups; i++) {
			struct pk_metric_group x, y;
			pk_catalog__metric_group(bi, mi, i, &x);
			pk_catalog__metric_group(dir, mi, i, &y);
			same_str(x.name, y.name, "group", a.name, x.name);
			same_str(x.desc, y.desc, "group desc", a.name, x.name);
		}
	}
	for (size_t i = 0; i < pk_catalog__nr_maps(bi); i++) {
		struct pk_map_entry x, y;
		pk_catalog__map(bi, i, &x);
		pk_catalog__map(dir, i, &y);
		assert_string_equal(x.cpuid, y.cpuid);
		assert_int_equal(x.model, y.model);
	}
	/* the real 6.12 tree: ~47k events and ~6k metrics over 6 arches */
	assert_true(nev > 40000);
	assert_true(nmt > 5000);
	assert_true(archs_seen >= 6);
	print_message("# compared %zu models, %zu events, %zu metrics\n",
		      pk_catalog__nr_models(bi), nev, nmt);
	pk_catalog__free(bi);
	pk_catalog__free(dir);
}

/* Every event of every model is found by name, upper-cased, with its PMU. */
static void test_every_event_found(void **state)
{
	(void)state;
	struct pk_catalog *c;
	assert_int_equal(pk_catalog__open_builtin(&c), 0);
	for (size_t mi = 0; mi < pk_catalog__nr_models(c); mi++) {
		struct pk_model m;
		pk_catalog__model(c, mi, &m);
		for (size_t i = 0; i < m.nr_events; i++) {
			struct pk_event e = { .sz = sizeof(e) };
			pk_catalog__event(c, mi, i, &e);
			char up[256];
			size_t k = 0;
			for (; k < sizeof(up) - 1 && e.name[k]; k++)
				up[k] = (char)(e.name[k] >= 'a' && e.name[k] <= 'z' ? e.name[k] - 32
										    : e.name[k]);
			up[k] = '\0';
			size_t first, count;
			if (pk_catalog__find_event(c, mi, up, e.pmu, &first, &count))
				fail_msg("%s/%s: %s (%s) not found", m.arch, m.name, up, e.pmu);
			assert_int_equal(first, i);
			assert_int_equal(count, 1);
		}
		for (size_t i = 0; i < m.nr_metrics; i++) {
			struct pk_metric x = { .sz = sizeof(x) };
			size_t idx;
			pk_catalog__metric(c, mi, i, &x);
			assert_int_equal(pk_catalog__find_metric(c, mi, x.name, &idx), 0);
			struct pk_metric y = { .sz = sizeof(y) };
			pk_catalog__metric(c, mi, idx, &y);
			assert_string_equal(x.name, y.name);
		}
	}
	pk_catalog__free(c);
}

static void expect_model(struct pk_catalog *c, const char *arch, const char *cpuid,
			 const char *model)
{
	size_t map;
	if (pk_catalog__match_cpuid(c, arch, cpuid, &map))
		fail_msg("%s: no match", cpuid);
	struct pk_map_entry e;
	struct pk_model m;
	pk_catalog__map(c, map, &e);
	pk_catalog__model(c, e.model, &m);
	if (strcmp(m.name, model))
		fail_msg("%s: got %s/%s, want %s", cpuid, m.arch, m.name, model);
}

static void test_cpuids_pick_models(void **state)
{
	(void)state;
	struct pk_catalog *c;
	assert_int_equal(pk_catalog__open_builtin(&c), 0);
	expect_model(c, "x86", "GenuineIntel-6-55-4", "skylakex");
	expect_model(c, "x86", "GenuineIntel-6-55-7", "cascadelakex");
	expect_model(c, "x86", "GenuineIntel-6-9A-3", "alderlake");
	expect_model(c, "x86", "AuthenticAMD-25-1-1", "amdzen3");
	expect_model(c, NULL, "AuthenticAMD-23-31-0", "amdzen2");
	expect_model(c, "arm64", "0x00000000410fd0c0", "arm/neoverse-n1");
	expect_model(c, NULL, "0x00000000410fd0c0", "arm/neoverse-n1");
	expect_model(c, "powerpc", "0x004e1200", "power9");
	expect_model(c, NULL, "0x00800200", "power10");
	size_t map, idx, idx2;
	assert_int_equal(pk_catalog__match_cpuid(c, NULL, "GenuineIntel-6-FF-0", &map), -ENOENT);
	/* a model by its full name, with its arch, or by its last component */
	assert_int_equal(pk_catalog__find_model(c, "neoverse-n1", &idx), 0);
	assert_int_equal(pk_catalog__find_model(c, "arm64/arm/neoverse-n1", &idx2), 0);
	assert_int_equal(idx, idx2);
	assert_int_equal(pk_catalog__find_model(c, "arm/neoverse-n1", &idx2), 0);
	assert_int_equal(idx, idx2);
	pk_catalog__free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_image_valid),
		cmocka_unit_test(test_builtin_equals_events_dir),
		cmocka_unit_test(test_every_event_found),
		cmocka_unit_test(test_cpuids_pick_models),
	};
	return cmocka_run_group_tests_name("tables_real", tests, NULL, NULL);
}
