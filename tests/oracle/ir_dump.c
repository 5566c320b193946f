/* SPDX-License-Identifier: MIT */
/*
 * tests/oracle/ir_dump.c — print what ir_tree__load() reads from an arch/
 * tree as JSON lines, in the same shape as tests/oracle/jevents_dump.py
 * prints perf's view, so tests/integration/jevents_oracle.sh can diff them.
 *
 *   ir_dump [-t THREADS] [-a ARCH] [-m MODEL] [-T] ROOT
 *     -T  print only the load time and counts (to stderr) and no lines
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "events/ir.h"

/* JSON string as Python's json.dumps(ensure_ascii=False) writes it. */
static void put_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (c < 0x20)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
	}
	fputc('"', f);
}

static void key(FILE *f, const char *k, const char *v, bool last)
{
	fprintf(f, "\"%s\": ", k);
	put_str(f, v);
	fputs(last ? "}\n" : ", ", f);
}

int main(int argc, char **argv)
{
	struct ir_load_opts opts = { 0 };
	bool timing = false;
	int c;
	while ((c = getopt(argc, argv, "t:a:m:T")) != -1) {
		switch (c) {
		case 't': opts.threads = atoi(optarg); break;
		case 'a': opts.only_arch = optarg; break;
		case 'm': opts.only_model = optarg; break;
		case 'T': timing = true; break;
		default:
			fprintf(stderr, "usage: ir_dump [-t N] [-a ARCH] [-m MODEL] [-T] ROOT\n");
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: ir_dump [-t N] [-a ARCH] [-m MODEL] [-T] ROOT\n");
		return 2;
	}
	struct ir_tree t;
	struct pk_error err = { 0 };
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = ir_tree__load(&t, argv[optind], &opts, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc) {
		char buf[1024];
		fprintf(stderr, "ir_dump: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return 1;
	}
	if (timing) {
		size_t ne = 0, nm = 0;
		for (size_t i = 0; i < t.nr_models; i++) {
			ne += t.models[i].nr_events;
			nm += t.models[i].nr_metrics;
		}
		fprintf(stderr, "load %.4f s: %zu models, %zu map rows, %zu events, %zu metrics\n",
			(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
			t.nr_models, t.nr_maps, ne, nm);
		ir_tree__free(&t);
		return 0;
	}
	FILE *f = stdout;
	char model[512];
	for (size_t i = 0; i < t.nr_models; i++) {
		const struct ir_model *m = &t.models[i];
		snprintf(model, sizeof(model), "%s/%s", m->arch, m->name);
		for (size_t k = 0; k < m->nr_groups; k++) {
			fputs("{\"kind\": \"group\", ", f);
			key(f, "model", model, false);
			key(f, "name", m->groups[k].name, false);
			key(f, "desc", m->groups[k].desc, true);
		}
		for (size_t k = 0; k < m->nr_events; k++) {
			const struct ir_event *e = &m->events[k];
			fputs("{\"kind\": \"event\", ", f);
			key(f, "model", model, false);
			key(f, "name", e->name, false);
			key(f, "pmu", e->pmu, false);
			key(f, "topic", e->topic, false);
			key(f, "encoding", e->encoding, false);
			key(f, "desc", e->desc, false);
			key(f, "long_desc", e->long_desc, false);
			key(f, "compat", e->compat, false);
			key(f, "unit", e->unit, false);
			fprintf(f, "\"deprecated\": %s, \"perpkg\": %s}\n",
				e->deprecated ? "true" : "false", e->perpkg ? "true" : "false");
		}
		for (size_t k = 0; k < m->nr_metrics; k++) {
			const struct ir_metric *x = &m->metrics[k];
			fputs("{\"kind\": \"metric\", ", f);
			key(f, "model", model, false);
			key(f, "name", x->name, false);
			key(f, "pmu", x->pmu, false);
			key(f, "groups", x->groups, false);
			key(f, "desc", x->desc, true);
		}
	}
	ir_tree__free(&t);
	return ferror(f) ? 1 : 0;
}
