/* SPDX-License-Identifier: MIT */
/*
 * fuzz_symbol_text.c — libFuzzer target for the symbolizer's text parsers:
 * the input is read as a /tmp/perf-PID.map (perf's "START SIZE name" lines,
 * written by JITs, i.e. untrusted) and as a kallsyms file. Every symbol must
 * then be findable: sorted starts, end >= start, names without newlines,
 * the lookup of each symbol's start returning a symbol that holds it.
 *   build/fuzz/bin/fuzz_symbol_text -max_total_time=300 CORPUS
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/symbol.h>

static void check(int ok)
{
	if (!ok)
		abort();
}

static void verify(const struct pk_sym_table *t)
{
	size_t n = pk_sym_table__nr(t);
	for (size_t i = 0; i < n; i++) {
		const struct pk_sym *s = pk_sym_table__sym(t, i);
		check(s && s->name && !strchr(s->name, '\n'));
		check(i == 0 || pk_sym_table__sym(t, i - 1)->start <= s->start);
		const struct pk_sym *f = pk_sym_table__find(t, s->start);
		check(!f || (f->start <= s->start &&
			     (s->start < f->end || (s->start == f->start && f->end <= f->start) ||
			      f->end < f->start)));
	}
	check(pk_sym_table__sym(t, n) == NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_sym_table *t = NULL;
	if (pk_sym_table__parse_perf_map(&t, (const char *)data, size) == 0) {
		verify(t);
		pk_sym_table__free(t);
	}
	t = NULL;
	if (pk_sym_table__parse_kallsyms(&t, (const char *)data, size) == 0) {
		verify(t);
		for (size_t i = 0; i < pk_sym_table__nr(t); i++)
			check(pk_sym_table__sym(t, i)->end >= pk_sym_table__sym(t, i)->start);
		pk_sym_table__free(t);
	}
	return 0;
}
