/* SPDX-License-Identifier: MIT */
/*
 * examples/expose.c — a program that counts itself and writes its counts
 * as Prometheus metrics with libpmukit's exposition (pmukit/expose.h): what
 * an application's own /metrics endpoint could answer.
 *
 *   build/examples/expose [--openmetrics] ["SPEC"]
 *       (default "task-clock,context-switches,page-faults")
 *
 * The events are counted for this process (any CPU) around some work, then
 * written in the text format 0.0.4, or OpenMetrics 1.0 with --openmetrics.
 */
#define _DEFAULT_SOURCE	/* usleep under -std=c11 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmukit/count.h>
#include <pmukit/expose.h>
#include <pmukit/spec.h>

int main(int argc, char **argv)
{
	enum pk_expose_format fmt = PK_EXPOSE_PROMETHEUS;
	const char *spec = "task-clock,context-switches,page-faults";
	struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT };
	struct pk_count_opts co = { .sz = sizeof(co) };	/* this process, any CPU */
	struct pk_spec_error serr;
	struct pk_error err;
	struct pk_counter *c;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--openmetrics"))
			fmt = PK_EXPOSE_OPENMETRICS;
		else
			spec = argv[i];
	}
	struct pk_evlist *el = pk_evlist__new();
	if (!el || pk_evlist__add(el, spec, &so, &serr)) {
		fprintf(stderr, "expose: bad event specification %s\n", spec);
		return 1;
	}
	if (pk_counter__open(&c, el, &co, &err) || pk_counter__enable(c, &err)) {
		fprintf(stderr, "expose: %s\n", err.msg);
		return 1;
	}

	/* some work: pages touched (kept, so that the compiler keeps the writes), a few sleeps */
	static char *keep[5];
	for (int i = 0; i < 5; i++) {
		keep[i] = malloc(1 << 20);
		if (keep[i])
			memset(keep[i], i + 1, 1 << 20);
		usleep(1000);
	}

	size_t nr = pk_counter__nr(c);
	struct pk_expose_count *counts = calloc(nr ? nr : 1, sizeof(*counts));
	if (!counts || pk_counter__read(c, &err))
		return 1;
	for (size_t i = 0; i < nr; i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		counts[i].event = e->name;
		counts[i].pmu = e->pmu;
		pk_counter__value(c, i, &counts[i].value);
	}
	struct pk_expose_set set = { .counts = counts, .nr_counts = nr };
	struct pk_expose_opts eo = { .sz = sizeof(eo), .format = fmt };
	char *text;
	if (pk_expose__write(&set, &eo, &text, NULL, &err)) {
		fprintf(stderr, "expose: %s\n", err.msg);
		return 1;
	}
	fputs(text, stdout);
	free(text);
	free(counts);
	for (int i = 0; i < 5; i++)
		free(keep[i]);
	pk_counter__free(c);
	pk_evlist__free(el);
	return 0;
}
