/* SPDX-License-Identifier: MIT */
/*
 * evspec/tracepoint.c — events the kernel defines without a PMU tree entry:
 * hardware breakpoints (mem:ADDR[/LEN][:rwx], perf's defaults: read+write,
 * 4 bytes, or sizeof(long) for x) and tracepoints SYS:NAME, globs included,
 * whose config is the id tracefs gives them. Ids are read from
 * $PMUKIT_TRACEFS/events/SYS/NAME/id when that variable is set (tests), else
 * from wherever tracefs is mounted, mounting it first when it is nowhere, as
 * perf does (util/tracefs.c); globs expand in readdir order, as perf does.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/hw_breakpoint.h>

#include "evspec/evlist_int.h"
#include "util/grow.h"
#include "util/tracefs.h"

int resolve_breakpoint(struct rctx *rc, const struct spec_event *e, struct ev_vec *out)
{
	unsigned type = 0;
	if (e->nr_terms)
		return rctx_error(rc, 0, e->terms[0].pos, NULL, "breakpoints take no terms");
	for (const char *p = e->bp_access; *p; p++) {
		unsigned bit = *p == 'r' ? HW_BREAKPOINT_R : *p == 'w' ? HW_BREAKPOINT_W
			       : *p == 'x' ? HW_BREAKPOINT_X : 0;
		if (!bit || (type & bit))
			return rctx_error(rc, 0, e->bp_access_pos, NULL,
					  "breakpoint access is r, w, x or rw, each letter once");
		type |= bit;
	}
	if (!type)
		type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	struct ev *ev = ev_new(rc, e);
	if (!ev)
		return resolve_push(rc, out, NULL);
	ev->attr0.type = PERF_TYPE_BREAKPOINT;
	ev->attr0.bp_type = type;
	ev->attr0.bp_addr = e->raw;
	ev->attr0.bp_len = e->bp_len ? e->bp_len : type == HW_BREAKPOINT_X ? sizeof(long) : 4;
	ev->attr0.sample_period = 1;
	ev->pub.pmu = "breakpoint";
	/* perf 6.1 names mem:ADDR/LEN... by the text before the slash ("mem:0x1000") */
	const char *slash = memchr(rc->text + e->pos.off, '/', e->pos.len);
	if (slash)
		ev->pub.name = ev->perf_name =
			pk_arena__strndup(rc->arena, rc->text + e->pos.off,
					  (size_t)(slash - (rc->text + e->pos.off)));
	if (!ev->pub.name)
		return resolve_push(rc, out, NULL);
	return resolve_push(rc, out, ev);
}

/* --- tracepoints -------------------------------------------------------------------------- */

static int tp_id(const char *root, const char *sys, const char *name, uint64_t *id)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, sys, name);
	FILE *f = fopen(path, "r");
	if (!f) {
		int r = -errno;	/* < 0 after a failure: said so for scan-build */
		return r < 0 ? r : -EIO;
	}
	unsigned long long v;
	int ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*id = v;
	return 0;
}

/* Directory entries of path matching glob, in readdir order as perf; skips perf's non-events. */
static size_t glob_dir(const char *path, const char *glob, char ***out)
{
	DIR *d = opendir(path);
	size_t n = 0, cap = 0;
	char **v = NULL;
	*out = NULL;
	if (!d)
		return 0;
	for (struct dirent *de; (de = readdir(d));) {
		const char *nm = de->d_name;
		if (nm[0] == '.' || !strcmp(nm, "enable") || !strcmp(nm, "filter") ||
		    !strcmp(nm, "header_event") || !strcmp(nm, "header_page") || fnmatch(glob, nm, 0))
			continue;
		if (PK_GROW(v, cap, n + 1))
			break;
		if (!(v[n] = strdup(nm)))
			break;
		n++;
	}
	closedir(d);
	*out = v;
	return n;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int add_tp_one(struct rctx *rc, const struct spec_event *e, const char *root,
		      const char *sys, const char *name, struct ev_vec *out)
{
	uint64_t id;
	int r = tp_id(root, sys, name, &id);
	if (r)
		return rctx_error(rc, 0, e->name_pos.len ? spec_pos_make(e->name_pos.off,
							e->arg_pos.off + e->arg_pos.len - e->name_pos.off) : e->pos,
				  r == -EACCES ? "tracefs needs root (or its mount options)" : NULL,
				  "%s tracepoint %s:%s (%s/events/%s/%s/id)",
				  r == -EACCES ? "cannot read" : "unknown", sys, name, root, sys, name);
	struct ev *ev = ev_new(rc, e);
	if (!ev)
		return resolve_push(rc, out, NULL);
	ev->attr0.type = PERF_TYPE_TRACEPOINT;
	ev->attr0.config = id;
	ev->attr0.sample_period = 1;
	ev->attr0.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				PERF_SAMPLE_PERIOD;
	/* perf names a tracepoint SYS:NAME, globs expanded and modifiers left out */
	char *nm = pk_arena__alloc(rc->arena, strlen(sys) + strlen(name) + 2);
	if (!nm)
		return resolve_push(rc, out, NULL);
	sprintf(nm, "%s:%s", sys, name);
	ev->pub.name = ev->perf_name = nm;
	if ((r = resolve_common_terms(rc, ev, e, true)))
		return r;
	ev->pub.pmu = "tracepoint";
	return resolve_push(rc, out, ev);
}

int resolve_tracepoint(struct rctx *rc, const struct spec_event *e, struct ev_vec *out)
{
	const char *why;
	const char *root = pk_tracefs__root(&why);
	const char *sys = e->name, *name = e->tp_event;
	if (!root)
		return rctx_error(rc, 0, e->pos, NULL, "tracepoint %s:%s: %s", sys, name, why);
	bool gsys = strpbrk(sys, "*?[") != NULL, gname = strpbrk(name, "*?[") != NULL;
	if (!gsys && !gname)
		return add_tp_one(rc, e, root, sys, name, out);
	char **syss = NULL;
	size_t nsys = 1, before = out->nr;
	int r = 0;
	char path[4096];
	if (gsys) {
		snprintf(path, sizeof(path), "%s/events", root);
		nsys = glob_dir(path, sys, &syss);
	}
	for (size_t i = 0; i < nsys && !r; i++) {
		const char *s = gsys ? syss[i] : sys;
		if (!gname) {
			uint64_t id;
			if (!tp_id(root, s, name, &id))
				r = add_tp_one(rc, e, root, s, name, out);
			continue;
		}
		char **names;
		snprintf(path, sizeof(path), "%s/events/%s", root, s);
		size_t nn = glob_dir(path, name, &names);
		for (size_t k = 0; k < nn && !r; k++)
			r = add_tp_one(rc, e, root, s, names[k], out);
		free_names(names, nn);
	}
	free_names(syss, gsys ? nsys : 0);
	if (!r && out->nr == before)
		r = rctx_error(rc, 0, e->pos, NULL, "no tracepoint matches %s:%s under %s/events",
			       sys, name, root);
	return r;
}
