/* SPDX-License-Identifier: MIT */
/*
 * test_image.c — the tables image: build from a hand-made IR, read back through
 * the catalog API (lookups, ranges, descriptions, sharing between models) and
 * refuse corrupt images.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/events.h>

#include "events/image.h"
#include "events/ir.h"

static struct ir_event ev(const char *name, const char *pmu, const char *enc, const char *desc)
{
	return (struct ir_event){ .name = name, .pmu = pmu, .topic = "cache", .encoding = enc,
				  .desc = desc, .long_desc = desc ? "long text" : NULL };
}

/* Two models sharing one identical event; the second has a hybrid name clash. */
static struct ir_event m0_events[] = {
	{ .name = "l1d.replacement", .pmu = "default_core", .topic = "cache",
	  .encoding = "event=0x51,period=2000003,umask=0x1", .desc = "L1D lines in",
	  .long_desc = "Counts L1D lines brought in", .perpkg = false, .deprecated = true },
	{ .name = "unc_cha_clockticks", .pmu = "uncore_cha", .topic = "uncore other",
	  .encoding = "event=0x0", .desc = "Clockticks", .perpkg = true, .unit = "64Bytes" },
};
static struct ir_event m1_events[4];
static struct ir_metric m0_metrics[] = {
	{ .name = "IPC", .pmu = "default_core", .expr = "INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD",
	  .groups = "Ret;Summary", .desc = "Instructions per cycle", .threshold = "IPC < 1",
	  .aggr_mode = 2, .grouping = 1 },
};
static struct ir_group m0_groups[] = { { "Ret", "Retirement" }, { "Summary", NULL } };

static void make_tree(struct ir_tree *t, struct ir_model *models, struct ir_map *maps)
{
	m1_events[0] = m0_events[0];	/* shared record */
	m1_events[1] = ev("inst_retired.any", "cpu_core", "event=0xc0,period=2000003", "Instr");
	m1_events[2] = ev("inst_retired.any", "cpu_atom", "event=0xc0,period=2000003", "Instr atom");
	m1_events[3] = ev("br_misp_retired.all_branches", "cpu_core", "event=0xc5,period=400009",
			  NULL);
	models[0] = (struct ir_model){ .arch = "x86", .name = "skylake", .events = m0_events,
				       .nr_events = 2, .metrics = m0_metrics, .nr_metrics = 1,
				       .groups = m0_groups, .nr_groups = 2 };
	models[1] = (struct ir_model){ .arch = "x86", .name = "alderlake", .events = m1_events,
				       .nr_events = 4 };
	maps[0] = (struct ir_map){ .arch = "x86", .cpuid = "GenuineIntel-6-(4E|5E)", .version = "v58",
				   .dir = "skylake", .type = "core", .model = 0 };
	maps[1] = (struct ir_map){ .arch = "x86", .cpuid = "GenuineIntel-6-(97|9A)", .version = "v1",
				   .dir = "alderlake", .type = "core", .model = 1 };
	*t = (struct ir_tree){ .models = models, .nr_models = 2, .maps = maps, .nr_maps = 2 };
}

static struct pk_catalog *open_built(int level, void **img_out, size_t *size_out)
{
	struct ir_model models[2];
	struct ir_map maps[2];
	struct ir_tree t;
	make_tree(&t, models, maps);
	struct pk_img_build_opts o = { .zstd_level = level };
	void *img;
	size_t size;
	struct pk_error err = { 0 };
	assert_int_equal(pk_image__build(&t, &o, &img, &size, &err), 0);
	if (img_out) {
		*img_out = malloc(size);
		memcpy(*img_out, img, size);
		*size_out = size;
	}
	struct pk_catalog *c = NULL;
	assert_int_equal(pk_catalog__open_image(&c, img, size, true, &err), 0);
	return c;
}

static void test_models_and_maps(void **state)
{
	(void)state;
	struct pk_catalog *c = open_built(3, NULL, NULL);
	assert_int_equal(pk_catalog__nr_models(c), 2);
	struct pk_model m;
	assert_int_equal(pk_catalog__model(c, 1, &m), 0);
	assert_string_equal(m.arch, "x86");
	assert_string_equal(m.name, "alderlake");
	assert_int_equal(m.nr_events, 4);
	assert_int_equal(pk_catalog__model(c, 2, &m), -ENOENT);
	size_t idx = 9;
	assert_int_equal(pk_catalog__find_model(c, "x86/SkyLake", &idx), 0);
	assert_int_equal(idx, 0);
	assert_int_equal(pk_catalog__find_model(c, "alderlake", &idx), 0);
	assert_int_equal(idx, 1);
	assert_int_equal(pk_catalog__find_model(c, "arm64/alderlake", &idx), -ENOENT);
	assert_int_equal(pk_catalog__nr_maps(c), 2);
	struct pk_map_entry e;
	assert_int_equal(pk_catalog__map(c, 1, &e), 0);
	assert_string_equal(e.cpuid, "GenuineIntel-6-(97|9A)");
	assert_string_equal(e.version, "v1");
	assert_string_equal(e.type, "core");
	assert_int_equal(e.model, 1);
	pk_catalog__free(c);
}

static void test_event_lookup(void **state)
{
	(void)state;
	struct pk_catalog *c = open_built(3, NULL, NULL);
	size_t first, count;
	/* case-insensitive, both hybrid PMUs found as one range */
	assert_int_equal(pk_catalog__find_event(c, 1, "INST_RETIRED.ANY", NULL, &first, &count), 0);
	assert_int_equal(count, 2);
	struct pk_event e = { .sz = sizeof(e) };
	assert_int_equal(pk_catalog__event(c, 1, first, &e), 0);
	assert_string_equal(e.pmu, "cpu_atom");	/* sorted by (name, pmu) */
	assert_string_equal(e.desc, "Instr atom");
	assert_int_equal(pk_catalog__event(c, 1, first + 1, &e), 0);
	assert_string_equal(e.pmu, "cpu_core");
	assert_string_equal(e.encoding, "event=0xc0,period=2000003");
	/* restricted to a PMU */
	assert_int_equal(pk_catalog__find_event(c, 1, "inst_retired.any", "cpu_core", &first, &count),
			 0);
	assert_int_equal(count, 1);
	assert_int_equal(pk_catalog__event(c, 1, first, &e), 0);
	assert_string_equal(e.pmu, "cpu_core");
	assert_int_equal(pk_catalog__find_event(c, 1, "inst_retired.any", "uncore_cha", &first,
						&count),
			 -ENOENT);
	assert_int_equal(pk_catalog__find_event(c, 1, "inst_retired", NULL, &first, &count), -ENOENT);
	/* flags, optional fields */
	assert_int_equal(pk_catalog__find_event(c, 0, "unc_cha_clockticks", NULL, &first, &count), 0);
	assert_int_equal(pk_catalog__event(c, 0, first, &e), 0);
	assert_true(e.perpkg);
	assert_false(e.deprecated);
	assert_string_equal(e.unit, "64Bytes");
	assert_null(e.compat);
	assert_null(e.long_desc);
	assert_string_equal(e.topic, "uncore other");
	assert_int_equal(pk_catalog__find_event(c, 0, "L1D.Replacement", NULL, &first, &count), 0);
	assert_int_equal(pk_catalog__event(c, 0, first, &e), 0);
	assert_true(e.deprecated);
	assert_string_equal(e.long_desc, "Counts L1D lines brought in");
	/* no description at all */
	assert_int_equal(pk_catalog__find_event(c, 1, "br_misp_retired.all_branches", NULL, &first,
						&count),
			 0);
	assert_int_equal(pk_catalog__event(c, 1, first, &e), 0);
	assert_null(e.desc);
	assert_int_equal(pk_catalog__event(c, 1, 4, &e), -ENOENT);
	pk_catalog__free(c);
}

static void test_metrics_and_groups(void **state)
{
	(void)state;
	struct pk_catalog *c = open_built(0, NULL, NULL);
	size_t idx;
	assert_int_equal(pk_catalog__find_metric(c, 0, "ipc", &idx), 0);
	struct pk_metric m = { .sz = sizeof(m) };
	assert_int_equal(pk_catalog__metric(c, 0, idx, &m), 0);
	assert_string_equal(m.name, "IPC");
	assert_string_equal(m.expr, "INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD");
	assert_string_equal(m.groups, "Ret;Summary");
	assert_string_equal(m.threshold, "IPC < 1");
	assert_string_equal(m.desc, "Instructions per cycle");
	assert_int_equal(m.aggr_mode, PK_AGGR_PER_CORE);
	assert_int_equal(m.grouping, PK_GROUPING_NO_GROUP_EVENTS);
	assert_null(m.nogroup);
	assert_int_equal(pk_catalog__find_metric(c, 1, "IPC", &idx), -ENOENT);
	struct pk_metric_group g;
	assert_int_equal(pk_catalog__metric_group(c, 0, 0, &g), 0);
	assert_string_equal(g.name, "Ret");
	assert_string_equal(g.desc, "Retirement");
	assert_int_equal(pk_catalog__metric_group(c, 0, 1, &g), 0);
	assert_null(g.desc);
	pk_catalog__free(c);
}

/* The record shared by both models is stored once; compressed and stored images agree. */
static void test_sharing_and_compression(void **state)
{
	(void)state;
	void *img0, *img9;
	size_t s0, s9;
	struct pk_catalog *c0 = open_built(0, &img0, &s0), *c9 = open_built(9, &img9, &s9);
	const struct pk_img_header *h = img0;
	assert_int_equal(h->nr_events, 5);	/* 6 events, one shared */
	for (size_t mi = 0; mi < 2; mi++) {
		struct pk_model m;
		pk_catalog__model(c0, mi, &m);
		for (size_t i = 0; i < m.nr_events; i++) {
			struct pk_event a = { .sz = sizeof(a) }, b = { .sz = sizeof(b) };
			pk_catalog__event(c0, mi, i, &a);
			pk_catalog__event(c9, mi, i, &b);
			assert_string_equal(a.name, b.name);
			assert_string_equal(a.encoding, b.encoding);
			if (a.desc)
				assert_string_equal(a.desc, b.desc);
			else
				assert_null(b.desc);
		}
	}
	free(img0);
	free(img9);
	pk_catalog__free(c0);
	pk_catalog__free(c9);
}

static void test_corrupt_images_refused(void **state)
{
	(void)state;
	void *img;
	size_t size;
	struct pk_catalog *c = open_built(3, &img, &size);
	pk_catalog__free(c);
	struct pk_error err = { 0 };
	/* truncated */
	assert_int_equal(pk_image__validate(img, size - 8, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "corrupt tables image"));
	/* bad magic */
	unsigned char *b = img;
	b[0] ^= 0xff;
	assert_int_equal(pk_image__validate(img, size, &err), -EINVAL);
	b[0] ^= 0xff;
	assert_int_equal(pk_image__validate(img, size, &err), 0);
	/* an event record pointing past the strings */
	struct pk_img_header *h = img;
	struct pk_img_event *e = (struct pk_img_event *)(b + h->events_off);
	uint32_t saved = e->encoding;
	e->encoding = h->strings_size + 10;
	assert_int_equal(pk_image__validate(img, size, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "event record"));
	e->encoding = saved;
	/* a map row pointing at a missing model */
	struct pk_img_map *mp = (struct pk_img_map *)(b + h->maps_off);
	mp->model = 7;
	assert_int_equal(pk_image__validate(img, size, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "mapfile row"));
	mp->model = 0;
	/* every single-byte truncation point is refused without crashing */
	for (size_t n = 0; n < size; n += 7)
		assert_int_equal(pk_image__validate(img, n, &err), -EINVAL);
	/* open_image frees an owned buffer it refuses */
	void *copy = malloc(size);
	memcpy(copy, img, size);
	((unsigned char *)copy)[1] = 'X';
	assert_int_equal(pk_catalog__open_image(&c, copy, size, true, &err), -EINVAL);
	free(img);
}

/* Text longer than a compressed block is refused with a message, not cut. */
static void test_too_long_text_refused(void **state)
{
	(void)state;
	struct ir_model models[2];
	struct ir_map maps[2];
	struct ir_tree t;
	make_tree(&t, models, maps);
	char *big = malloc(PK_IMG_BLOCK + 10);
	memset(big, 'x', PK_IMG_BLOCK + 9);
	big[PK_IMG_BLOCK + 9] = '\0';
	struct ir_event saved = m0_events[1];
	m0_events[1].long_desc = big;
	struct pk_img_build_opts o = { .zstd_level = 1 };
	void *img = NULL;
	size_t size;
	struct pk_error err = { 0 };
	assert_int_equal(pk_image__build(&t, &o, &img, &size, &err), -E2BIG);
	assert_non_null(strstr(err.msg, "over the"));
	assert_null(img);
	m0_events[1] = saved;
	free(big);
}

/*
 * An older caller's smaller pk_event / pk_metric (sz covers the first fields
 * only): those are filled, and no byte past sz is written (the canary after
 * them stays); sz below the sz field is refused.
 */
static void test_older_out_structs(void **state)
{
	(void)state;
	struct pk_catalog *c = open_built(3, NULL, NULL);
	size_t first, count;
	assert_int_equal(pk_catalog__find_event(c, 1, "inst_retired.any", "cpu_core", &first, &count),
			 0);
	struct pk_event full = { .sz = sizeof(full) };
	assert_int_equal(pk_catalog__event(c, 1, first, &full), 0);

	const size_t old_sz = offsetof(struct pk_event, encoding) + sizeof(full.encoding);
	union {
		struct pk_event e;
		unsigned char b[sizeof(struct pk_event)];
	} old;
	memset(&old, 0xa5, sizeof(old));
	old.e.sz = old_sz;
	assert_int_equal(pk_catalog__event(c, 1, first, &old.e), 0);
	assert_int_equal(old.e.sz, old_sz);
	assert_string_equal(old.e.name, full.name);
	assert_string_equal(old.e.pmu, "cpu_core");
	assert_string_equal(old.e.encoding, full.encoding);
	for (size_t i = old_sz; i < sizeof(old); i++)
		assert_int_equal(old.b[i], 0xa5);
	memset(&old, 0xa5, sizeof(old));
	old.e.sz = old_sz;
	assert_int_equal(pk_catalog__event_brief(c, 1, first, &old.e), 0);
	for (size_t i = old_sz; i < sizeof(old); i++)
		assert_int_equal(old.b[i], 0xa5);
	struct pk_event unset = { .sz = 0 };
	assert_int_equal(pk_catalog__event(c, 1, first, &unset), -EINVAL);
	assert_null(unset.name);

	struct pk_model md;
	size_t mi = 0;
	while (!pk_catalog__model(c, mi, &md) && !md.nr_metrics)
		mi++;
	assert_true(md.nr_metrics > 0);
	struct pk_metric fm = { .sz = sizeof(fm) };
	assert_int_equal(pk_catalog__metric(c, mi, 0, &fm), 0);
	const size_t old_msz = offsetof(struct pk_metric, expr) + sizeof(fm.expr);
	union {
		struct pk_metric m;
		unsigned char b[sizeof(struct pk_metric)];
	} om;
	memset(&om, 0xa5, sizeof(om));
	om.m.sz = old_msz;
	assert_int_equal(pk_catalog__metric(c, mi, 0, &om.m), 0);
	assert_string_equal(om.m.name, fm.name);
	assert_string_equal(om.m.expr, fm.expr);
	for (size_t i = old_msz; i < sizeof(om); i++)
		assert_int_equal(om.b[i], 0xa5);
	struct pk_metric munset = { .sz = 2 };
	assert_int_equal(pk_catalog__metric(c, mi, 0, &munset), -EINVAL);
	pk_catalog__free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_models_and_maps),
		cmocka_unit_test(test_event_lookup),
		cmocka_unit_test(test_older_out_structs),
		cmocka_unit_test(test_metrics_and_groups),
		cmocka_unit_test(test_sharing_and_compression),
		cmocka_unit_test(test_corrupt_images_refused),
		cmocka_unit_test(test_too_long_text_refused),
	};
	return cmocka_run_group_tests_name("image", tests, NULL, NULL);
}
