/* SPDX-License-Identifier: MIT */
/*
 * stat-shadow.c — perf's built-in ("shadow") metrics beside a count, from the
 * library (pmukit/shadow.h): the frame's counts as pk_shadow_value rows (built
 * once per frame, when a line first needs them), each metric as a stat_metric.
 */
#include <stdlib.h>
#include <string.h>

#include "stat.h"

void stat_metric__set(struct stat_metric *m, const char *fmt, double val, const char *label)
{
	memset(m, 0, sizeof(*m));
	m->threshold = -1;
	m->fmt = fmt;
	m->val = val;
	m->valid = fmt != NULL;
	snprintf(m->label, sizeof(m->label), "%s", label ? label : "");
}

/* the frame's values, id by id (NULL: out of memory) */
static const struct pk_shadow_value *frame_values(struct stat_printer *p,
						  const struct stat_frame *fr)
{
	if (p->shadow)
		return p->shadow;
	size_t n = fr->nr_id * fr->nr_ev;
	struct pk_shadow_value *v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t id = 0; id < fr->nr_id; id++)
		for (size_t e = 0; e < fr->nr_ev; e++) {
			const struct stat_ev *ev = &fr->ev[e];
			const struct stat_cell *c = stat_frame__cell(fr, id, e);
			v[id * fr->nr_ev + e] = (struct pk_shadow_value){
				.sz = sizeof(*v), .kind = ev->kind, .ctx = ev->ctx, .pmu = ev->pmu,
				.value = c->val, .scale = ev->scale, .status = c->status,
			};
		}
	return p->shadow = v;
}

void stat_printer__frame_done(struct stat_printer *p)
{
	free(p->shadow);
	p->shadow = NULL;
}

size_t stat_printer__shadow(struct stat_printer *p, const struct stat_frame *fr, size_t id,
			    size_t e, struct stat_metric *m)
{
	const struct stat_ev *ev = &fr->ev[e];
	struct pk_shadow_metric sm[PK_SHADOW_MAX_METRICS];
	if (p->o.no_metric_shadow)
		return 0;
	/* a rate needs a clock: none in this frame, no rows (thousands of events in --counts) */
	if (ev->kind == PK_SHADOW_OTHER && !(p->kinds & (1u << PK_SHADOW_NSECS)))
		return 0;
	const struct pk_shadow_value *v = frame_values(p, fr);
	if (!v)
		return 0;
	v += id * fr->nr_ev;
	size_t n, nr = fr->nr_ev;
	if (p->cgroups) {
		/* -G: as perf, an event's metrics read events of its own cgroup (or of none) */
		struct pk_shadow_value *same = malloc(fr->nr_ev * sizeof(*same));
		if (!same)
			return 0;
		size_t at = 0;
		nr = 0;
		for (size_t k = 0; k < fr->nr_ev; k++) {
			const char *a = fr->ev[k].cgroup, *b = ev->cgroup;
			if (a != b && (!a || !b || strcmp(a, b)))
				continue;
			if (k == e)
				at = nr;
			same[nr++] = v[k];
		}
		n = pk_shadow__metrics(same, nr, at, fr->wall_ns, sm);
		free(same);
	} else {
		n = pk_shadow__metrics(v, nr, e, fr->wall_ns, sm);
	}
	for (size_t i = 0; i < n; i++)
		stat_metric__set(&m[i], sm[i].fmt, sm[i].value, sm[i].label);
	return n;
}
