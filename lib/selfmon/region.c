/* SPDX-License-Identifier: MIT */
/*
 * region.c — named code regions over a self-monitoring group: begin reads
 * the group, end reads it again and adds the deltas (raw and scaled per
 * event, the leader's enabled/running, and on TopDown groups the slots per
 * metric) to the region's totals; fetch and print the totals. Each begin and
 * end is exactly one group read (user pages, or one read(2)).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/selfmon.h>

#include "selfmon/selfmon_int.h"
#include "util/grow.h"

void selfmon_regions_free(struct pk_selfmon *g)
{
	for (size_t i = 0; i < g->nr_regions; i++) {
		struct sm_region *r = &g->regions[i];
		free(r->name);
		free(r->begin_raw);
		free(r->begin_scaled);
		free(r->sum_raw);
		free(r->sum_scaled);
	}
	free(g->regions);
	g->regions = NULL;
	g->nr_regions = g->cap_regions = 0;
}

static int region_lookup(const struct pk_selfmon *g, const char *name)
{
	if (g->last_region < g->nr_regions && !strcmp(g->regions[g->last_region].name, name))
		return (int)g->last_region;
	for (size_t i = 0; i < g->nr_regions; i++)
		if (!strcmp(g->regions[i].name, name))
			return (int)i;
	return -ENOENT;
}

int pk_selfmon__region_id(struct pk_selfmon *g, const char *name)
{
	struct sm_region *r;
	int id;

	if (!g || !name)
		return -EINVAL;
	id = region_lookup(g, name);
	if (id >= 0) {
		g->last_region = (size_t)id;
		return id;
	}
	if (g->nr_regions > (size_t)0x7fffffff - 1)
		return -ENOSPC;
	if (PK_GROW(g->regions, g->cap_regions, g->nr_regions + 1))
		return -ENOMEM;
	r = &g->regions[g->nr_regions];
	memset(r, 0, sizeof(*r));
	r->name = strdup(name);
	r->begin_raw = calloc(g->nr, sizeof(*r->begin_raw));
	r->begin_scaled = calloc(g->nr, sizeof(*r->begin_scaled));
	r->sum_raw = calloc(g->nr, sizeof(*r->sum_raw));
	r->sum_scaled = calloc(g->nr, sizeof(*r->sum_scaled));
	if (!r->name || !r->begin_raw || !r->begin_scaled || !r->sum_raw || !r->sum_scaled) {
		free(r->name);
		free(r->begin_raw);
		free(r->begin_scaled);
		free(r->sum_raw);
		free(r->sum_scaled);
		return -ENOMEM;
	}
	g->last_region = g->nr_regions;
	return (int)g->nr_regions++;
}

int pk_selfmon__region_begin_id(struct pk_selfmon *g, int id)
{
	struct sm_region *r;
	struct td_point td;
	int rc;

	if (!g || id < 0 || (size_t)id >= g->nr_regions)
		return -EINVAL;
	r = &g->regions[id];
	if (r->open)
		return -EBUSY;
	if (g->topdown) {
		rc = selfmon_topdown_maybe_reset(g);
		if (rc)
			return rc;
	}
	rc = selfmon_read_all(g, g->scratch, g->topdown ? &td : NULL);
	if (rc)
		return rc;
	for (size_t i = 0; i < g->nr; i++) {
		r->begin_raw[i] = g->scratch[i].raw;
		r->begin_scaled[i] = g->scratch[i].scaled;
	}
	r->begin_enabled = g->scratch[0].enabled;
	r->begin_running = g->scratch[0].running;
	r->begin_epoch = g->epoch;
	if (g->topdown) {
		r->begin_td = td;
		g->td_open++;
	}
	r->open = true;
	return 0;
}

int pk_selfmon__region_end_id(struct pk_selfmon *g, int id)
{
	struct sm_region *r;
	struct td_point td;
	int rc;

	if (!g || id < 0 || (size_t)id >= g->nr_regions)
		return -EINVAL;
	r = &g->regions[id];
	if (!r->open)
		return -EINVAL;
	rc = selfmon_read_all(g, g->scratch, g->topdown ? &td : NULL);
	r->open = false;
	if (g->topdown)
		g->td_open--;
	if (rc)
		return rc;
	if (r->begin_epoch != g->epoch) {	/* pk_selfmon__reset in between */
		r->lost++;
		return 0;
	}
	for (size_t i = 0; i < g->nr; i++) {
		r->sum_raw[i] += g->scratch[i].raw - r->begin_raw[i];
		r->sum_scaled[i] += g->scratch[i].scaled - r->begin_scaled[i];
	}
	r->sum_enabled += g->scratch[0].enabled - r->begin_enabled;
	r->sum_running += g->scratch[0].running - r->begin_running;
	r->calls++;
	if (g->topdown) {
		struct pk_topdown d;
		selfmon_topdown_point_delta(g, &r->begin_td, &td, &d);
		pk_topdown__add(&r->td, &d);
	}
	return 0;
}

int pk_selfmon__region_begin(struct pk_selfmon *g, const char *name)
{
	int id = pk_selfmon__region_id(g, name);

	return id < 0 ? id : pk_selfmon__region_begin_id(g, id);
}

int pk_selfmon__region_end(struct pk_selfmon *g, const char *name)
{
	int id;

	if (!g || !name)
		return -EINVAL;
	id = region_lookup(g, name);
	if (id < 0)
		return -EINVAL;
	g->last_region = (size_t)id;
	return pk_selfmon__region_end_id(g, id);
}

size_t pk_selfmon__nr_regions(const struct pk_selfmon *g)
{
	return g ? g->nr_regions : 0;
}

int pk_selfmon__region(const struct pk_selfmon *g, size_t idx, struct pk_selfmon_region *out)
{
	const struct sm_region *r;

	if (!g || !out || idx >= g->nr_regions)
		return -EINVAL;
	r = &g->regions[idx];
	memset(out, 0, sizeof(*out));
	out->name = r->name;
	out->calls = r->calls;
	out->lost = r->lost;
	out->nr = g->nr;
	out->scaled = r->sum_scaled;
	out->raw = r->sum_raw;
	out->enabled = r->sum_enabled;
	out->running = r->sum_running;
	out->has_topdown = g->topdown;
	out->topdown = r->td;
	return 0;
}

int pk_selfmon__find_region(const struct pk_selfmon *g, const char *name,
			    struct pk_selfmon_region *out)
{
	int id;

	if (!g || !name)
		return -EINVAL;
	id = region_lookup(g, name);
	return id < 0 ? id : pk_selfmon__region(g, (size_t)id, out);
}

static void print_topdown(FILE *f, const struct pk_topdown *td)
{
	double ratio[PK_TOPDOWN_NR];
	unsigned col = 0;

	if (!td->periods) {
		fprintf(f, "    TopDown: no period decoded (%llu lost)\n",
			(unsigned long long)td->lost);
		return;
	}
	pk_topdown__ratios(td, ratio);
	fprintf(f, "    TopDown over %.0f slots", td->slots);
	if (td->lost)
		fprintf(f, " (%llu periods lost)", (unsigned long long)td->lost);
	fputc('\n', f);
	for (unsigned i = 0; i < PK_TOPDOWN_NR; i++) {
		if (!(td->valid >> i & 1))
			continue;
		fprintf(f, "%s%-20s %6.2f%%", col % 3 ? "   " : "      ",
			pk_topdown__name((enum pk_topdown_metric)i), ratio[i] * 100.0);
		if (++col % 3 == 0)
			fputc('\n', f);
	}
	if (col % 3)
		fputc('\n', f);
}

int pk_selfmon__region_print(const struct pk_selfmon *g, FILE *f)
{
	if (!g || !f)
		return -EINVAL;
	for (size_t k = 0; k < g->nr_regions; k++) {
		const struct sm_region *r = &g->regions[k];

		fprintf(f, "region %s: %llu call%s", r->name, (unsigned long long)r->calls,
			r->calls == 1 ? "" : "s");
		if (r->lost)
			fprintf(f, " (%llu lost to resets)", (unsigned long long)r->lost);
		fprintf(f, ", enabled %.3f ms, running %.3f ms\n", (double)r->sum_enabled / 1e6,
			(double)r->sum_running / 1e6);
		for (size_t i = 0; i < g->nr; i++) {
			fprintf(f, "  %20.0f  %-32s", r->sum_scaled[i], g->ev[i].name);
			if (r->calls)
				fprintf(f, "  %.1f per call", r->sum_scaled[i] / (double)r->calls);
			fputc('\n', f);
		}
		if (g->topdown)
			print_topdown(f, &r->td);
	}
	return 0;
}
