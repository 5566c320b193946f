/* SPDX-License-Identifier: MIT */
/*
 * fuzz_counts_file.c — libFuzzer target for the perf stat -j counts reader
 * (pmukit/countsfile.h): the input bytes (NULs included) are parsed as a
 * counts file. On error the report must name a line and column inside the
 * input; on success every record is checked (status and value agree, the
 * line exists), the sets must partition the records, each record's raw
 * count is taken, and the Skylake TopdownL1 + IPC metrics of the built-in
 * tables are computed for every set (names matched against whatever the
 * input calls its events). Seeds: tests/fixtures/counts
 *   build/fuzz/bin/fuzz_counts_file -max_total_time=300 CORPUS tests/fixtures/counts
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/countsfile.h>
#include <pmukit/metricgroup.h>

static void check(int ok)
{
	if (!ok)
		abort();
}

static int facts(void *ctx, const struct pk_mexpr_id *id, double *v)
{
	(void)ctx;
	if (id->kind != PK_MEXPR_ID_LITERAL)
		return -ENOENT;
	*v = 1;
	return 0;
}

/* One selection for the whole run (the fuzzer's state, not the library's). */
static struct pk_metricgroup *metrics(void)
{
	static struct pk_catalog *cat;
	static struct pk_metricgroup *mg;
	static bool tried;
	if (tried)
		return mg;
	tried = true;
	size_t model;
	struct pk_metricgroup_opts o = { .sz = sizeof(o), .consts = facts };
	if (pk_catalog__open_builtin(&cat) || pk_catalog__find_model(cat, "skylake", &model) ||
	    pk_metricgroup__new(&mg, cat, model,
				"TopdownL1,tma_info_thread_ipc,tma_info_system_dram_bw_use", &o, NULL))
		mg = NULL;
	return mg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_counts *c = (void *)1;
	struct pk_error err = { 0 };
	const char *text = (const char *)data;
	unsigned lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	int rc = pk_counts__parse(&c, text, size, "fuzz", &err);
	if (rc) {
		check(rc == -EINVAL && !c && err.code == rc && err.msg[0]);
		check(err.line >= 1 && err.line <= lines && err.column >= 1);
		return 0;
	}
	size_t nr = pk_counts__nr_records(c);
	check(nr + pk_counts__nr_skipped(c) <= lines);
	for (size_t i = 0; i < nr; i++) {
		const struct pk_counts_record *r = pk_counts__record(c, i);
		check(r->line >= 1 && r->line <= lines && r->event && r->aggr_id && r->unit);
		check(r->status == PK_COUNTS_OK || isnan(r->value));
		check(r->has_interval == !isnan(r->interval));
		bool known;
		double raw = pk_counts__raw(c, i, metrics(), &known);
		check(r->status != PK_COUNTS_NOT_SUPPORTED || isnan(raw));
		check(r->status != PK_COUNTS_NOT_COUNTED || raw == 0);
	}
	size_t total = 0;
	unsigned char *seen = calloc(nr + 1, 1);
	struct pk_metricgroup *mg = metrics();
	struct pk_metricgroup_value v[16];
	check(!mg || pk_metricgroup__nr_metrics(mg) <= 16);
	for (size_t s = 0; s < pk_counts__nr_sets(c); s++) {
		const struct pk_counts_set *set = pk_counts__set(c, s);
		check(set->nr_records > 0 && set->aggr_id);
		for (size_t k = 0; k < set->nr_records; k++) {
			check(set->records[k] < nr && seen && !seen[set->records[k]]);
			seen[set->records[k]] = 1;
		}
		total += set->nr_records;
		if (mg)
			check(pk_counts__eval(c, s, mg, v) == 0);
	}
	check(total == nr);
	check(pk_counts__set(c, pk_counts__nr_sets(c)) == NULL);
	free(seen);
	pk_counts__free(c);
	return 0;
}
