/* SPDX-License-Identifier: MIT */
/*
 * fuzz_spec_encode.c — libFuzzer target for the whole spec path: parse,
 * resolve against the built-in tables and a fake PMU tree, encode, and format
 * any error with its caret; a spec that pk_spec__needs_context() calls
 * context-free must encode the same without the tables and the tree. The
 * first input byte picks the tree (x86 Skylake, Ice Lake with TopDown, hybrid
 * with ACR, arm64 with thresholds) and the mode (stat or record); the rest is
 * the spec. Run from the repository root (or
 * set PMUKIT_SRC) so the fixtures are found.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/pmukit.h>
#include <pmukit/spec.h>

static const char *const trees[][2] = {
	{ "x86-skl", "x86/skylakex" },
	{ "x86-icl", "x86/icelakex" },
	{ "x86-acr", "x86/alderlake" },
	{ "arm64-het", "arm64/arm/neoverse-v1" },
};
#define NR_TREES (sizeof(trees) / sizeof(trees[0]))

static struct pk_catalog *cat;
static struct pk_pmu_tree *pmus[NR_TREES];
static size_t models[NR_TREES];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *src = getenv("PMUKIT_SRC") ? getenv("PMUKIT_SRC") : ".";
	if (pk_catalog__open_builtin(&cat))
		abort();
	for (size_t i = 0; i < NR_TREES; i++) {
		char path[4096];
		struct pk_error err;
		snprintf(path, sizeof(path), "%s/tests/fixtures/sysfs/%s", src, trees[i][0]);
		if (pk_pmu_tree__open(&pmus[i], path, &err) ||
		    pk_catalog__find_model(cat, trees[i][1], &models[i])) {
			fprintf(stderr, "fuzz_spec_encode: %s: run from the repository root\n", path);
			abort();
		}
	}
	return 0;
}

/* A spec said to need no context encodes the same without tables and tree. */
static void check_context_free(const char *spec, const struct pk_spec_opts *full,
			       const struct pk_evlist *want)
{
	struct pk_spec_opts bare = *full;
	bare.cat = NULL;
	bare.model = PK_NO_MODEL;
	bare.pmus = NULL;
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_error err;
	if (!el)
		return;
	if (pk_evlist__add(el, spec, &bare, &err) || pk_evlist__nr(el) != pk_evlist__nr(want))
		abort();
	for (size_t i = 0; i < pk_evlist__nr(el); i++) {
		const struct pk_evsel *a = pk_evlist__evsel(el, i), *b = pk_evlist__evsel(want, i);
		if (memcmp(&a->attr, &b->attr, sizeof(a->attr)) || strcmp(a->name, b->name) ||
		    a->leader != b->leader)
			abort();
	}
	pk_evlist__free(el);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t t = data[0] % NR_TREES;
	char *spec = malloc(size);
	if (!spec)
		return 0;
	memcpy(spec, data + 1, size - 1);
	spec[size - 1] = '\0';
	struct pk_spec_opts o = {
		.sz = sizeof(o),
		.mode = data[0] & 0x80 ? PK_SPEC_RECORD : PK_SPEC_STAT,
		.cat = cat,
		.model = models[t],
		.pmus = pmus[t],
		.workload = !(data[0] & 0x40),
		.system_wide = data[0] & 0x20,
		.period = data[0] & 0x10 ? 100000 : 0,
	};
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_error err;
	if (el && pk_evlist__add(el, spec, &o, &err)) {
		char buf[1024];
		pk_spec_error__format(&err, spec, buf, sizeof(buf));
		if (err.off > strlen(spec))
			abort();	/* an error must point inside the spec (or just past it) */
	} else if (el) {
		for (size_t i = 0; i < pk_evlist__nr(el); i++) {
			const struct pk_evsel *e = pk_evlist__evsel(el, i);
			if (e->leader >= pk_evlist__nr(el) || e->spec_off + e->spec_len > strlen(spec))
				abort();
		}
		if (!pk_spec__needs_context(spec, o.mode))
			check_context_free(spec, &o, el);
	}
	pk_evlist__free(el);
	free(spec);
	return 0;
}
