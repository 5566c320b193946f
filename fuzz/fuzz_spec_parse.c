/* SPDX-License-Identifier: MIT */
/*
 * fuzz_spec_parse.c — libFuzzer target for the event spec parser: the input
 * bytes (up to the first NUL) are parsed as a spec; a tree is walked and its
 * positions checked against the spec, an error is formatted; then freed.
 * Seeds: fuzz/corpus/spec.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/spec.h>

#include "evspec/ast.h"
#include "evspec/suggest.h"

static const char *const term_names[] = { "event", "umask", "cmask", "edge", "inv", "period",
					  "config1", "call-graph", "name", "metric-id" };

static void check(int ok)
{
	if (!ok)
		abort();
}

static void walk(const struct spec_ast *ast, size_t n)
{
	check(ast->nr_groups > 0 && strlen(ast->text) == n);
	for (size_t g = 0; g < ast->nr_groups; g++) {
		const struct spec_group *gr = &ast->groups[g];
		check(gr->pos.off + gr->pos.len <= n && gr->nr_events > 0);
		for (size_t e = 0; e < gr->nr_events; e++) {
			const struct spec_event *ev = &gr->events[e];
			check(ev->pos.off >= gr->pos.off &&
			      ev->pos.off + ev->pos.len <= gr->pos.off + gr->pos.len);
			check(ev->mods.precise >= 0 && ev->mods.precise <= 3);
			if (ev->name)
				(void)strlen(ev->name);
			if (ev->tp_event)
				(void)strlen(ev->tp_event);
			for (size_t t = 0; t < ev->nr_terms; t++) {
				const struct spec_term *tm = &ev->terms[t];
				check(tm->pos.off >= ev->pos.off &&
				      tm->pos.off + tm->pos.len <= ev->pos.off + ev->pos.len);
				(void)spec_suggest(tm->name, term_names,
						   sizeof(term_names) / sizeof(term_names[0]));
				if (tm->str)
					(void)strlen(tm->str);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';

	struct spec_ast ast;
	struct pk_spec_error err;
	if (spec_parse(spec, &ast, &err) == 0) {
		walk(&ast, strlen(spec));
		spec_ast__free(&ast);
	} else {
		check(err.code < 0 && err.off <= strlen(spec) && err.msg[0]);
		struct pk_spec_error pe;
		char buf[512];
		memcpy(&pe, &err, sizeof(pe));
		pk_spec_error__format(&pe, spec, buf, sizeof(buf));
		pk_spec_error__format(&pe, spec, buf, 17);
	}
	free(spec);
	return 0;
}
