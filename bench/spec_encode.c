/* SPDX-License-Identifier: MIT */
/*
 * bench/spec_encode.c — cost of turning a spec into perf_event_attrs
 * (parse + resolve + encode + the stat defaults): every table event of the
 * Skylake-SP model as "cpu/NAME/" (core events) and as bare "NAME" (all that
 * resolve on the x86-skl fixture, uncore ones expanding to every instance),
 * plus the symbolic and cache events, each added to a fresh event list.
 * Usage: spec_encode [BUILD_DIR [ARCH_DIR]]; the fixture is found under
 * $PMUKIT_SRC (default "."). Prints `name value` lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pmukit/pmukit.h>
#include <pmukit/spec.h>

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

struct specs {
	char **v;
	size_t n, cap;
};

static void add(struct specs *s, const char *text)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			exit(1);
	}
	s->v[s->n++] = strdup(text);
}

/* Keep only the specs that encode (table events of PMUs the fixture lacks do not). */
static size_t keep_valid(struct specs *s, const struct pk_spec_opts *o)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct pk_evlist *el = pk_evlist__new();
		struct pk_spec_error err;
		if (!pk_evlist__add(el, s->v[i], o, &err))
			s->v[k++] = s->v[i];
		else
			free(s->v[i]);
		pk_evlist__free(el);
	}
	return s->n = k;
}

static double run(const struct specs *s, const struct pk_spec_opts *o, size_t rounds,
		  size_t *evsels)
{
	double t0 = now_ns();
	*evsels = 0;
	for (size_t r = 0; r < rounds; r++)
		for (size_t i = 0; i < s->n; i++) {
			struct pk_evlist *el = pk_evlist__new();
			struct pk_spec_error err;
			if (pk_evlist__add(el, s->v[i], o, &err))
				exit(2);
			*evsels += pk_evlist__nr(el);
			pk_evlist__free(el);
		}
	return now_ns() - t0;
}

int main(void)
{
	const char *src = getenv("PMUKIT_SRC") ? getenv("PMUKIT_SRC") : ".";
	char root[4096];
	struct pk_catalog *cat;
	struct pk_pmu_tree *tree;
	struct pk_error perr;
	size_t model;
	struct pk_model md;

	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/x86-skl", src);
	if (pk_catalog__open_builtin(&cat) || pk_catalog__find_model(cat, "x86/skylakex", &model) ||
	    pk_catalog__model(cat, model, &md)) {
		fprintf(stderr, "spec_encode: no x86/skylakex model in the built-in tables\n");
		return 1;
	}
	if (pk_pmu_tree__open(&tree, root, &perr)) {
		fprintf(stderr, "spec_encode: %s: cannot open the fixture\n", root);
		return 1;
	}
	struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_STAT, .cat = cat,
				  .model = model, .pmus = tree, .workload = true };
	struct specs s = { 0 };
	char buf[512];
	for (size_t i = 0; i < md.nr_events; i++) {
		struct pk_event e = { .sz = sizeof(e) };
		if (pk_catalog__event(cat, model, i, &e))
			continue;
		if (!strcmp(e.pmu, "default_core") || !strcmp(e.pmu, "cpu")) {
			snprintf(buf, sizeof(buf), "cpu/%s/", e.name);
			add(&s, buf);
		}
		add(&s, e.name);
	}
	for (size_t i = 0; i < pk_symbols__count(); i++)
		add(&s, pk_symbols__get(i)->name);
	for (size_t i = 0; i < pk_symbols__nr_cache(); i++) {
		pk_symbols__cache(i, buf, sizeof(buf));
		add(&s, buf);
	}
	size_t total = s.n;
	keep_valid(&s, &o);
	size_t evsels;
	run(&s, &o, 1, &evsels);	/* warm up */
	size_t rounds = 1;
	double ns;
	while ((ns = run(&s, &o, rounds, &evsels)) < 5e8 && rounds < 1024)
		rounds *= 2;
	double specs_done = (double)s.n * (double)rounds;
	printf("spec_encode_specs %zu\n", s.n);
	printf("spec_encode_skipped %zu\n", total - s.n);
	printf("spec_encode_per_s %.0f\n", specs_done / (ns / 1e9));
	printf("spec_encode_evsels_per_s %.0f\n", (double)evsels / (ns / 1e9));
	printf("spec_encode_ns %.0f\n", ns / specs_done);

	/* record mode and a typical multi-event spec */
	o.mode = PK_SPEC_RECORD;
	struct specs one = { 0 };
	add(&one, "{cycles,instructions,cpu/event=0x3c,umask=0x1/u,inst_retired.any:pp}:S");
	rounds = 1;
	while ((ns = run(&one, &o, rounds, &evsels)) < 2e8 && rounds < (1u << 24))
		rounds *= 2;
	printf("spec_encode_group_record_ns %.0f\n", ns / (double)rounds);
	for (size_t i = 0; i < s.n; i++)
		free(s.v[i]);
	free(s.v);
	free(one.v[0]);
	free(one.v);
	pk_pmu_tree__free(tree);
	pk_catalog__free(cat);
	return 0;
}
