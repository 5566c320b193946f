/* SPDX-License-Identifier: MIT */
/*
 * data/writer/feat_trace.c — TRACING_DATA: what perf needs to decode tracepoint
 * samples (perf 6.1 refuses a file with tracepoint attrs and without it).
 * The layout perf's trace-event reader takes, from tracefs under the
 * writer's sysroot (sys/kernel/tracing, else sys/kernel/debug/tracing):
 *
 *   "\027\010\104tracing", "0.6\0", endianness byte, sizeof(long) byte, u32 page size,
 *   "header_page\0" u64 size + events/header_page,
 *   "header_event\0" u64 size + events/header_event,
 *   u32 count + (u64 size + format) of the ftrace events named like a traced event,
 *   u32 systems; each: name\0, u32 count, (u64 size + format) of its traced events,
 *   u32 0 (kallsyms, left empty as perf 6.12 does), u32 size + printk_formats,
 *   u64 size + saved_cmdlines.
 *
 * Each tracepoint attr is found by its name ("sys:event", when that event's
 * id is the attr's config) or else by scanning the events' ids.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/writer/write_int.h"
#include "util/grow.h"

struct tp {
	char *sys, *name;
};

struct tps {
	struct tp *v;
	size_t n, cap;
};

static void tps_free(struct tps *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].sys);
		free(t->v[i].name);
	}
	free(t->v);
}

bool pkw_has_tracepoints(const struct pk_data_writer *w)
{
	for (size_t i = 0; i < w->nr_attrs; i++)
		if (((const struct perf_event_attr *)w->attrs[i].attr)->type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

/* the events/ directory of tracefs under the sysroot into dir */
static int events_dir(struct pk_data_writer *w, char *dir, size_t len)
{
	static const char *const roots[] = { "sys/kernel/tracing/events",
					     "sys/kernel/debug/tracing/events" };
	struct stat st;

	for (size_t i = 0; i < 2; i++)
		if (stat(pkw_path(w, roots[i], dir, len), &st) == 0 && S_ISDIR(st.st_mode))
			return 0;
	return -ENOENT;
}

/* the id in DIR/sys/name/id; -1 when unreadable */
static long long event_id(const char *dir, const char *sys, const char *name, struct pk_buf *t)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s/id", dir, sys, name);
	if (pkw_read_file(path, t) || !t->len)
		return -1;
	return strtoll((const char *)t->data, NULL, 10);
}

static int add_tp(struct tps *t, const char *sys, size_t sl, const char *name)
{
	if (PK_GROW(t->v, t->cap, t->n + 1))
		return -ENOMEM;
	struct tp *v = t->v;
	v[t->n].sys = strndup(sys, sl);
	v[t->n].name = strdup(name);
	if (!v[t->n].sys || !v[t->n].name) {
		free(v[t->n].sys);
		free(v[t->n].name);
		return -ENOMEM;
	}
	t->n++;
	return 0;
}

/* the (system, event) of tracepoint id config: by the attr's name, else by scanning */
static int find_tp(const char *dir, const char *aname, uint64_t config, struct tps *t,
		   struct pk_buf *tmp)
{
	const char *colon = strchr(aname, ':');

	if (colon && !strchr(colon + 1, ':') && !strchr(colon + 1, '/')) {
		char sys[NAME_MAX + 1];
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - aname), aname);
		if (event_id(dir, sys, colon + 1, tmp) == (long long)config)
			return add_tp(t, aname, (size_t)(colon - aname), colon + 1);
	}
	DIR *d = opendir(dir);
	if (!d)
		return -ENOENT;
	int r = -ENOENT;
	for (struct dirent *s; r == -ENOENT && (s = readdir(d));) {
		if (s->d_name[0] == '.')
			continue;
		char sub[PATH_MAX + NAME_MAX + 2];
		snprintf(sub, sizeof(sub), "%s/%s", dir, s->d_name);
		DIR *e = opendir(sub);
		if (!e)
			continue;
		for (struct dirent *ev; r == -ENOENT && (ev = readdir(e));)
			if (ev->d_name[0] != '.' &&
			    event_id(dir, s->d_name, ev->d_name, tmp) == (long long)config)
				r = add_tp(t, s->d_name, strlen(s->d_name), ev->d_name);
		closedir(e);
	}
	closedir(d);
	return r;
}

static bool name_traced(const struct tps *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return true;
	return false;
}

static bool system_traced(const struct tps *t, const char *sys)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].sys, sys))
			return true;
	return false;
}

/* a file as u32 or u64 size (sz) then its bytes; a missing file: size 0 */
static int put_sized(struct pk_buf *b, const char *path, int sz, struct pk_buf *tmp)
{
	int r = pkw_read_file(path, tmp);
	if (r == -ENOMEM)
		return r;
	if (r)
		tmp->len = 0;
	if ((sz == 4 ? pkw_put_u32(b, (uint32_t)tmp->len) : pkw_put_u64(b, tmp->len)) ||
	    pk_buf__append(b, tmp->data, tmp->len) < 0)
		return -ENOMEM;
	return 0;
}

/* u32 count, then u64 size + format of each event of system dir sys that is traced */
static int put_system(struct pk_buf *b, const char *sysdir, const struct tps *t,
		      struct pk_buf *tmp)
{
	struct pk_buf body = { 0 };
	uint32_t n = 0;
	int r = 0;
	DIR *d = opendir(sysdir);

	if (d) {
		for (struct dirent *e; !r && (e = readdir(d));) {
			char fmt[PATH_MAX];
			struct stat st;
			if (e->d_name[0] == '.' || !name_traced(t, e->d_name))
				continue;
			snprintf(fmt, sizeof(fmt), "%s/%s/format", sysdir, e->d_name);
			if (stat(fmt, &st))
				continue;
			r = put_sized(&body, fmt, 8, tmp);
			n++;
		}
		closedir(d);
	}
	if (!r && (pkw_put_u32(b, n) || pk_buf__append(b, body.data, body.len) < 0))
		r = -ENOMEM;
	pk_buf__free(&body);
	return r;
}

int pkw_feat_tracing_data(struct pk_data_writer *w, struct pk_buf *b)
{
	char dir[PATH_MAX], path[PATH_MAX + NAME_MAX + 64];
	struct tps t = { 0 };
	struct pk_buf tmp = { 0 }, sys = { 0 };
	int r = 0;

	if (!pkw_has_tracepoints(w) || events_dir(w, dir, sizeof(dir)))
		return 0;
	for (size_t i = 0; i < w->nr_attrs && !r; i++) {
		const struct perf_event_attr *a = (const void *)w->attrs[i].attr;
		if (a->type == PERF_TYPE_TRACEPOINT)
			r = find_tp(dir, w->attrs[i].name, a->config, &t, &tmp);
	}
	if (r)
		goto out;	/* an unknown tracepoint: left out (-ENOMEM passed on) */

	static const unsigned char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	uint16_t one = 1;
	unsigned char endian = *(unsigned char *)&one ? 0 : 1, lsize = sizeof(long);
	r = -ENOMEM;
	if (pk_buf__append(b, magic, sizeof(magic)) < 0 || pk_buf__append(b, "0.6", 4) < 0 ||
	    pk_buf__append(b, &endian, 1) < 0 || pk_buf__append(b, &lsize, 1) < 0 ||
	    pkw_put_u32(b, (uint32_t)sysconf(_SC_PAGESIZE)))
		goto out;
	snprintf(path, sizeof(path), "%s/header_page", dir);
	if (pk_buf__append(b, "header_page", 12) < 0 || put_sized(b, path, 8, &tmp))
		goto out;
	snprintf(path, sizeof(path), "%s/header_event", dir);
	if (pk_buf__append(b, "header_event", 13) < 0 || put_sized(b, path, 8, &tmp))
		goto out;
	snprintf(path, sizeof(path), "%s/ftrace", dir);
	if (put_system(b, path, &t, &tmp))
		goto out;
	/* the systems of the traced events, in directory order */
	uint32_t nsys = 0;
	DIR *d = opendir(dir);
	if (!d)
		goto out;
	int e = 0;
	for (struct dirent *s; !e && (s = readdir(d));) {
		if (s->d_name[0] == '.' || !strcmp(s->d_name, "ftrace") ||
		    !system_traced(&t, s->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, s->d_name);
		e = pk_buf__append(&sys, s->d_name, strlen(s->d_name) + 1) < 0 ||
		    put_system(&sys, path, &t, &tmp);
		nsys++;
	}
	closedir(d);
	if (e || pkw_put_u32(b, nsys) || pk_buf__append(b, sys.data, sys.len) < 0)
		goto out;
	if (pkw_put_u32(b, 0))	/* kallsyms */
		goto out;
	snprintf(path, sizeof(path), "%s/../printk_formats", dir);
	if (put_sized(b, path, 4, &tmp))
		goto out;
	snprintf(path, sizeof(path), "%s/../saved_cmdlines", dir);
	if (put_sized(b, path, 8, &tmp))
		goto out;
	r = 1;
out:
	if (r == -ENOENT)
		r = 0;
	tps_free(&t);
	pk_buf__free(&tmp);
	pk_buf__free(&sys);
	return r;
}
