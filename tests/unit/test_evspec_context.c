/* SPDX-License-Identifier: MIT */
/*
 * test_evspec_context.c — pk_spec__needs_context: which specs `pmukit stat`
 * may encode without loading the tables and the PMU tree, and the property
 * that makes skipping them safe: every spec it calls context-free encodes to
 * the same attrs, names and groups with each fixture tree (hybrid x86 among
 * them) and CPU model as with none, under each stat option that changes attrs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/pmukit.h>
#include <pmukit/spec.h>

/* Software and tool events in every grammar form that can name them. */
static const char *const context_free[] = {
	"task-clock",
	"task-clock:u",
	"page-faults:k",
	"cs,migrations,faults",
	"{task-clock,context-switches}",
	"{minor-faults,major-faults}:u",
	"duration_time",
	"duration_time,user_time,system_time",
	"cpu-clock/period=1000/",
	"alignment-faults/name=af/",
	"1:2",
	"1:0x3:u",
	"dummy,bpf-output",
	"task-clock:D",
};

/* Each needs a PMU, a table, a precise level, tracefs or a parse error report. */
static const char *const needs_context[] = {
	"cycles",
	"instructions:u",
	"{task-clock,cycles}",
	"task-clock,branch-misses",
	"L1-dcache-load-misses",
	"r01c2",
	"4:0x3c",
	"cpu/event=0x3c/",
	"software/task-clock/",	/* a PMU name, not the symbol */
	"sched:sched_switch",
	"mem:0x1000",
	"inst_retired.any",
	"task-clock:p",
	"{task-clock,cs}:P",
	"task-clock:zz",	/* does not parse: the full context reports it */
	"task-clock,",
	"",
};

static void test_classes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(context_free) / sizeof(context_free[0]); i++) {
		if (pk_spec__needs_context(context_free[i], PK_SPEC_STAT))
			fail_msg("'%s' should be context-free in stat mode", context_free[i]);
		/* record adds tracking events by the machine's PMUs (hybrid) */
		if (!pk_spec__needs_context(context_free[i], PK_SPEC_RECORD))
			fail_msg("'%s' should need the context in record mode", context_free[i]);
	}
	for (size_t i = 0; i < sizeof(needs_context) / sizeof(needs_context[0]); i++)
		if (!pk_spec__needs_context(needs_context[i], PK_SPEC_STAT))
			fail_msg("'%s' should need the context", needs_context[i]);
	assert_true(pk_spec__needs_context(NULL, PK_SPEC_STAT));
}

struct fixture {
	const char *dir, *cpuid;
};

static const struct fixture fixtures[] = {
	{ "x86-hybrid", "GenuineIntel-6-97-2" },
	{ "x86-skl", "GenuineIntel-6-55-4" },
	{ "arm64-het", "0x00000000410fd0c0" },
	{ "amd-zen3", "AuthenticAMD-25-1-0" },
};

/* Everything an event list tells its user, one line per event. */
static char *describe(const struct pk_evlist *el)
{
	size_t len = 0, cap = 256;
	char *s = malloc(cap);
	assert_non_null(s);
	s[0] = '\0';
	for (size_t i = 0; i < pk_evlist__nr(el); i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		char line[512];
		int n = snprintf(line, sizeof(line), "%s|%s|%zu|%zu|%s|%s|%d\n", e->name,
				 e->pmu ? e->pmu : "-", e->leader, e->nr_members,
				 e->table_event ? e->table_event : "-",
				 e->metric_id ? e->metric_id : "-", e->tpebs);
		assert_true(n > 0 && (size_t)n < sizeof(line));
		while (len + (size_t)n + 1 > cap) {
			char *ns = realloc(s, cap *= 2);
			assert_non_null(ns);
			s = ns;
		}
		memcpy(s + len, line, (size_t)n + 1);
		len += (size_t)n;
	}
	return s;
}

static struct pk_evlist *encode(const char *spec, const struct pk_spec_opts *o)
{
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_error err;
	assert_non_null(el);
	if (pk_evlist__add(el, spec, o, &err))
		fail_msg("'%s' refused: %s", spec, err.msg);
	return el;
}

/* The same attrs, names and groups: 0, else a description of the difference. */
static int same(const struct pk_evlist *a, const struct pk_evlist *b)
{
	if (pk_evlist__nr(a) != pk_evlist__nr(b))
		return 1;
	for (size_t i = 0; i < pk_evlist__nr(a); i++)
		if (memcmp(&pk_evlist__evsel(a, i)->attr, &pk_evlist__evsel(b, i)->attr,
			   sizeof(struct perf_event_attr)))
			return 1;
	char *da = describe(a), *db = describe(b);
	int r = strcmp(da, db) != 0;
	free(da);
	free(db);
	return r;
}

static void test_same_without_context(void **state)
{
	const char *src = getenv("PMUKIT_SRC") ? getenv("PMUKIT_SRC") : ".";
	struct pk_catalog *cat;
	(void)state;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	/* the attr options of stat: a workload, -a, -i */
	static const struct { bool workload, system_wide, no_inherit; } modes[] = {
		{ true, false, false }, { false, true, false }, { true, false, true },
	};
	size_t compared = 0;
	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		char path[512];
		struct pk_pmu_tree *t;
		struct pk_error err;
		size_t map;
		struct pk_map_entry me;
		snprintf(path, sizeof(path), "%s/tests/fixtures/sysfs/%s", src, fixtures[f].dir);
		assert_int_equal(pk_pmu_tree__open(&t, path, &err), 0);
		assert_int_equal(pk_catalog__match_cpuid(cat, NULL, fixtures[f].cpuid, &map), 0);
		assert_int_equal(pk_catalog__map(cat, map, &me), 0);
		for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			struct pk_spec_opts full = {
				.sz = sizeof(full), .mode = PK_SPEC_STAT, .cat = cat, .model = me.model,
				.pmus = t, .workload = modes[m].workload,
				.system_wide = modes[m].system_wide, .no_inherit = modes[m].no_inherit,
			};
			struct pk_spec_opts bare = full;
			bare.cat = NULL;
			bare.model = PK_NO_MODEL;
			bare.pmus = NULL;
			for (size_t i = 0; i < sizeof(context_free) / sizeof(context_free[0]); i++) {
				struct pk_evlist *a = encode(context_free[i], &full);
				struct pk_evlist *b = encode(context_free[i], &bare);
				if (same(a, b))
					fail_msg("%s: '%s' encodes differently without the context",
						 fixtures[f].dir, context_free[i]);
				pk_evlist__free(a);
				pk_evlist__free(b);
				compared++;
			}
			/* the comparison can tell: on the hybrid tree cycles is one event per core PMU */
			if (!strcmp(fixtures[f].dir, "x86-hybrid")) {
				struct pk_evlist *a = encode("cycles", &full);
				struct pk_evlist *b = encode("cycles", &bare);
				assert_int_equal(pk_evlist__nr(a), 2);
				assert_true(same(a, b));
				pk_evlist__free(a);
				pk_evlist__free(b);
			}
		}
		pk_pmu_tree__free(t);
	}
	pk_catalog__free(cat);
	assert_int_equal(compared, 4 * 3 * sizeof(context_free) / sizeof(context_free[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_same_without_context),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
