/* SPDX-License-Identifier: MIT */
/*
 * session/loc_srcline.c — source lines and inline chains of locations, cached
 * in the location (the symbolizer caches per DSO and address as well), and
 * their preparation in parallel: the locations are grouped by DSO (the
 * symbolizer serializes the source-line engine of one DSO) and the groups
 * are spread over the session's workers.
 */
#include "session/session_int.h"

#include <errno.h>
#include <stdlib.h>

#include "util/error.h"
#include "util/opts.h"

static void do_srcline(struct sess_loc *l)
{
	if (l->srcline_done)
		return;
	if (l->pub.dso && l->pub.map)
		l->srcline = pk_dso__srcline_str(l->pub.dso, l->pub.addr);
	l->srcline_done = 1;
}

static void do_inlines(struct sess_loc *l)
{
	if (l->inlines_done)
		return;
	l->inl = (struct pk_srcline){ .sz = sizeof(l->inl) };
	if (l->pub.dso && l->pub.map) {
		int rc = pk_dso__srcline(l->pub.dso, l->pub.addr, &l->inl);
		if (rc < 0) {
			l->inlines_err = rc;
			l->inl.nr_frames = 0;
			l->inl.frames = NULL;
		}
	}
	l->inlines_done = 1;
}

const char *pk_session__loc_srcline(struct pk_session *s, const struct pk_loc *pl)
{
	(void)s;
	struct sess_loc *l = (struct sess_loc *)pl;
	do_srcline(l);
	return l->srcline;
}

int pk_session__loc_inlines(struct pk_session *s, const struct pk_loc *pl, struct pk_srcline *out)
{
	(void)s;
	struct sess_loc *l = (struct sess_loc *)pl;
	do_inlines(l);
	if (pk_opts__fill(out, &l->inl, sizeof(l->inl)))	/* only the fields within out->sz */
		return -EINVAL;
	return l->inlines_err;
}

struct prep {
	struct sess_loc **v;
	size_t *group;		/* start of each group; group[nr_groups] = n */
	unsigned what;
};

static void prep_group(void *arg, size_t g)
{
	struct prep *p = arg;
	for (size_t i = p->group[g]; i < p->group[g + 1]; i++) {
		if (p->what & PK_PREPARE_SRCLINE)
			do_srcline(p->v[i]);
		if (p->what & PK_PREPARE_INLINES)
			do_inlines(p->v[i]);
	}
}

static int by_dso(const void *a, const void *b)
{
	const struct sess_loc *x = *(struct sess_loc *const *)a, *y = *(struct sess_loc *const *)b;
	uintptr_t dx = (uintptr_t)x->pub.dso, dy = (uintptr_t)y->pub.dso;
	if (dx != dy)
		return dx < dy ? -1 : 1;
	return x->pub.addr < y->pub.addr ? -1 : x->pub.addr > y->pub.addr;
}

int pk_session__prepare_srclines(struct pk_session *s, const struct pk_loc *const *locs, size_t n,
				 unsigned what, struct pk_error *err)
{
	struct prep p = { .what = what };
	size_t m = 0;
	p.v = malloc((n ? n : 1) * sizeof(*p.v));
	p.group = malloc((n + 1) * sizeof(*p.group));
	if (!p.v || !p.group) {
		free(p.v);
		free(p.group);
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		struct sess_loc *l = (struct sess_loc *)locs[i];
		if (!l->pub.dso || !l->pub.map)
			continue;
		if ((!(what & PK_PREPARE_SRCLINE) || l->srcline_done) &&
		    (!(what & PK_PREPARE_INLINES) || l->inlines_done))
			continue;
		p.v[m++] = l;
	}
	qsort(p.v, m, sizeof(*p.v), by_dso);
	size_t ng = 0;
	for (size_t i = 0; i < m; i++)
		if (!i || p.v[i]->pub.dso != p.v[i - 1]->pub.dso)
			p.group[ng++] = i;
	p.group[ng] = m;
	workers__run(s, ng, prep_group, &p);
	free(p.v);
	free(p.group);
	return 0;
}
