/* SPDX-License-Identifier: MIT */
/*
 * data/writer/write.c — the perf.data writer (pmukit/data_write.h): its state, the
 * attrs, groups and DSOs it is given, the order of calls, the sticky write
 * error and what every record passes through (sample times for SAMPLE_TIME,
 * compression). File mode is in write_file.c, pipe mode in write_pipe.c,
 * compression in write_compress.c, the feature sections in feat*.c and
 * buildid.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/time.h>
#include <unistd.h>

#include "data/bytes.h"
#include "data/writer/write_int.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"

#define PKW_DEFAULT_VERSION "pmukit 0.1.0"

int pkw_fail(struct pk_data_writer *w, struct pk_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	char msg[sizeof(w->err.msg)];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!w->err_code) {	/* the first error is the one that sticks */
		w->err_code = code;
		pk_error__set(&w->err, code, NULL, 0, 0, "%s", msg);
	}
	return pk_error__set(err, code, NULL, 0, 0, "%s", msg);
}

int pkw_sticky(const struct pk_data_writer *w, struct pk_error *err)
{
	if (!w->err_code)
		return 0;
	if (err)
		*err = w->err;
	return w->err_code;
}

int pk_data_writer__new(struct pk_data_writer **out, int fd, const struct pk_data_writer_opts *opts,
			struct pk_error *err)
{
	struct pk_data_writer_opts o = { .sz = sizeof(o) };

	*out = NULL;
	if (PK_OPTS_LOAD(&o, opts))	/* an older caller's struct is shorter: the rest stays zero */
		return pk_opts__error(err, "pk_data_writer_opts", opts->sz);
	if (fd < 0)
		return pk_error__set(err, -EBADF, NULL, 0, 0, "perf.data writer: bad file descriptor");
	if (o.compress_level < 0 || o.compress_level > 22)
		return pk_error__set(err, -EINVAL, NULL, 0, 0,
				     "compression level %d out of range (1..22)", o.compress_level);
	if (!o.pipe && lseek(fd, 0, SEEK_CUR) < 0)
		return pk_error__set(err, -ESPIPE, NULL, 0, 0,
				     "perf.data output is not seekable (a pipe needs pipe mode)");

	struct pk_data_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	w->fd = fd;
	w->pipe = o.pipe;
	w->comp_level = o.compress_level;
	w->clockid = o.clockid;
	w->use_clockid = o.use_clockid;
	w->sysroot = strdup(o.sysroot && *o.sysroot ? o.sysroot : "/");
	w->version = strdup(o.version ? o.version : PKW_DEFAULT_VERSION);
	bool ok = w->sysroot && w->version;
	if (ok && o.argc > 0 && o.argv) {
		w->argv = calloc((size_t)o.argc, sizeof(*w->argv));
		ok = w->argv;
		for (int i = 0; ok && i < o.argc; i++) {
			w->argv[i] = strdup(o.argv[i] ? o.argv[i] : "");
			ok = w->argv[i];
			w->argc = i + 1;
		}
	}
	if (!ok) {
		pk_data_writer__free(w);
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	}
	*out = w;
	return 0;
}

void pk_data_writer__free(struct pk_data_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].attr);
		free(w->attrs[i].name);
		free(w->attrs[i].ids);
	}
	free(w->attrs);
	for (size_t i = 0; i < w->nr_groups; i++)
		free(w->groups[i].name);
	free(w->groups);
	for (size_t i = 0; i < w->nr_dsos; i++)
		free(w->dsos[i].filename);
	free(w->dsos);
	for (int i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	free(w->sysroot);
	free(w->version);
	pk_topology__free(w->topo);
	pkw_comp_free(w);
	pk_buf__free(&w->tail);
	for (size_t i = 0; i < sizeof(w->feat_cache) / sizeof(w->feat_cache[0]); i++)
		pk_buf__free(&w->feat_cache[i].bytes);
	for (size_t i = 0; i < w->nr_texts; i++) {
		free(w->texts[i].rel);
		pk_buf__free(&w->texts[i].text);
	}
	free(w->texts);
	free(w->ids);
	free(w);
}

/* --- what is recorded -------------------------------------------------------- */

static int not_new(struct pk_data_writer *w, struct pk_error *err, const char *what)
{
	if (w->state == PKW_NEW)
		return 0;
	return pk_error__set(err, -EINVAL, NULL, 0, 0, "perf.data writer: %s after begin()", what);
}

int pk_data_writer__add_attr(struct pk_data_writer *w, const struct perf_event_attr *attr,
			     const char *name, const uint64_t *ids, size_t nr_ids,
			     struct pk_error *err)
{
	int r;

	if ((r = not_new(w, err, "add_attr")))
		return r;
	uint32_t size = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > 4096 || size % 8)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "perf_event_attr size %u not valid",
				     attr->size);
	if (PK_GROW(w->attrs, w->cap_attrs, w->nr_attrs + 1))
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	struct pkw_attr *a = &w->attrs[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->size = size;
	a->attr = malloc(size);
	a->name = strdup(name && *name ? name : "unknown");
	if (!a->attr || !a->name) {
		free(a->attr);
		free(a->name);
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	}
	memcpy(a->attr, attr, size);
	((struct perf_event_attr *)a->attr)->size = size;
	w->nr_attrs++;
	if (nr_ids && (r = pk_data_writer__add_ids(w, w->nr_attrs - 1, ids, nr_ids, err))) {
		w->nr_attrs--;
		free(a->attr);
		free(a->name);
		return r;
	}
	return 0;
}

int pk_data_writer__add_ids(struct pk_data_writer *w, size_t idx, const uint64_t *ids,
			    size_t nr_ids, struct pk_error *err)
{
	int r;

	if ((r = not_new(w, err, "add_ids")))
		return r;
	if (idx >= w->nr_attrs)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "no attr number %zu", idx);
	struct pkw_attr *a = &w->attrs[idx];
	if (!nr_ids)
		return 0;
	if (nr_ids > (SIZE_MAX / 8) - a->nr_ids)
		return pk_error__set(err, -EOVERFLOW, NULL, 0, 0, "too many ids");
	if (PK_GROW(a->ids, a->cap_ids, a->nr_ids + nr_ids))
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	memcpy(a->ids + a->nr_ids, ids, nr_ids * sizeof(*a->ids));
	a->nr_ids += nr_ids;
	return 0;
}

int pk_data_writer__add_group(struct pk_data_writer *w, size_t leader, size_t nr_members,
			      const char *name, struct pk_error *err)
{
	int r;

	if ((r = not_new(w, err, "add_group")))
		return r;
	if (nr_members < 1 || leader >= w->nr_attrs || nr_members > w->nr_attrs - leader)
		return pk_error__set(err, -EINVAL, NULL, 0, 0,
				     "group of %zu attrs from %zu: only %zu attrs", nr_members, leader,
				     w->nr_attrs);
	for (size_t i = 0; i < w->nr_groups; i++) {
		const struct pkw_group *g = &w->groups[i];
		if (leader < g->leader + g->nr && g->leader < leader + nr_members)
			return pk_error__set(err, -EINVAL, NULL, 0, 0,
					     "group at attr %zu overlaps the group at attr %u",
					     leader, g->leader);
	}
	/* perf's name of a group without one; a name written "{a,b}" is that case too */
	if (!name || !*name || name[0] == '{' || !strcmp(name, "anon"))
		name = "{anon_group}";
	if (PK_GROW(w->groups, w->cap_groups, w->nr_groups + 1))
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	struct pkw_group *g = &w->groups[w->nr_groups];
	g->leader = (uint32_t)leader;
	g->nr = (uint32_t)nr_members;
	g->name = strdup(name);
	if (!g->name)
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	w->nr_groups++;
	return 0;
}

int pk_data_writer__add_dso(struct pk_data_writer *w, int32_t pid, uint16_t misc,
			    const char *filename)
{
	if (!filename || !*filename)
		return -EINVAL;
	for (size_t i = 0; i < w->nr_dsos; i++)
		if (w->dsos[i].pid == pid && !strcmp(w->dsos[i].filename, filename))
			return 0;
	if (PK_GROW(w->dsos, w->cap_dsos, w->nr_dsos + 1))
		return -ENOMEM;
	struct pkw_dso *d = &w->dsos[w->nr_dsos];
	d->pid = pid;
	d->misc = misc;
	d->filename = strdup(filename);
	if (!d->filename)
		return -ENOMEM;
	w->nr_dsos++;
	return 0;
}

/* --- writing ----------------------------------------------------------------- */

int pkw_write_all(struct pk_data_writer *w, const void *p, size_t len, size_t *done,
		  struct pk_error *err)
{
	size_t n = 0;

	while (n < len) {
		ssize_t r = write(w->fd, (const char *)p + n, len - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int e = r < 0 ? errno : EIO;	/* no progress: a short write */
			*done = n;
			return pkw_fail(w, err, -e, "writing perf.data: %s (%zu of %zu bytes written)",
					strerror(e), n, len);
		}
		n += (size_t)r;
	}
	*done = n;
	return 0;
}

int pkw_emit(struct pk_data_writer *w, const void *p, size_t len, struct pk_error *err)
{
	size_t done;
	int r;

	if ((r = pkw_sticky(w, err)))
		return r;
	if (!w->pipe)
		return pkw_file_emit(w, p, len, err);
	r = pkw_write_all(w, p, len, &done, err);
	w->pipe_bytes += done;
	if (!r)
		w->data_size += len;
	return r;
}

/* --- sample times (SAMPLE_TIME) ---------------------------------------------- */

static uint64_t sample_type(const struct pkw_attr *a)
{
	return ((const struct perf_event_attr *)a->attr)->sample_type;
}

static int cmp_id(const void *a, const void *b)
{
	const struct pkw_id *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* the sample types of the attrs: one for all, or a sorted id -> sample_type table */
static int index_ids(struct pk_data_writer *w)
{
	free(w->ids);
	w->ids = NULL;
	w->nr_ids = 0;
	w->same_type = true;
	for (size_t i = 1; i < w->nr_attrs; i++)
		w->same_type = w->same_type && sample_type(&w->attrs[i]) == sample_type(&w->attrs[0]);
	if (w->same_type)
		return 0;
	size_t n = 0;
	for (size_t i = 0; i < w->nr_attrs; i++)
		n += w->attrs[i].nr_ids;
	w->ids = calloc(n ? n : 1, sizeof(*w->ids));
	if (!w->ids)
		return -ENOMEM;
	for (size_t i = 0; i < w->nr_attrs; i++)
		for (size_t j = 0; j < w->attrs[i].nr_ids; j++)
			w->ids[w->nr_ids++] = (struct pkw_id){ w->attrs[i].ids[j],
							       sample_type(&w->attrs[i]) };
	qsort(w->ids, w->nr_ids, sizeof(*w->ids), cmp_id);
	return 0;
}

void pkw_scan_times(struct pk_data_writer *w, const unsigned char *recs, size_t len)
{
	size_t off = 0;

	if (!w->nr_attrs)
		return;
	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;
		memcpy(&h, recs + off, sizeof(h));
		size_t rlen = pkw_record_bytes(recs + off, len - off);
		if (!rlen)
			return;
		const unsigned char *body = recs + off + sizeof(h);
		size_t blen = h.size - sizeof(h);
		off += rlen;
		if (h.type != PERF_RECORD_SAMPLE)
			continue;
		uint64_t st = sample_type(&w->attrs[0]);
		if (!w->same_type) {	/* mixed types: the sample names its attr first */
			struct pkw_id key = { 0 };
			if (!(st & PERF_SAMPLE_IDENTIFIER) || blen < 8)
				continue;
			key.id = data_rd64(body);
			const struct pkw_id *f = bsearch(&key, w->ids, w->nr_ids, sizeof(key), cmp_id);
			if (!f)
				continue;
			st = f->sample_type;
		}
		if (!(st & PERF_SAMPLE_TIME))
			continue;
		size_t at = 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
				 !!(st & PERF_SAMPLE_TID));
		uint64_t t;
		if (at + 8 > blen)
			continue;
		t = data_rd64(body + at);
		if (!w->have_time || t < w->first_time)
			w->first_time = t;
		if (!w->have_time || t > w->last_time)
			w->last_time = t;
		w->have_time = true;
	}
}

/* --- begin / write / finish -------------------------------------------------- */

static void clock_refs(struct pk_data_writer *w)
{
	struct timespec ts, res;
	struct timeval tv;

	if (!w->use_clockid)
		return;
	gettimeofday(&tv, NULL);
	if (clock_gettime(w->clockid, &ts) == 0)
		w->clockid_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	w->tod_ns = (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
	if (clock_getres(w->clockid, &res) == 0)
		w->clockid_res_ns = (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec;
}

int pk_data_writer__begin(struct pk_data_writer *w, struct pk_error *err)
{
	int r;

	if ((r = not_new(w, err, "begin")))
		return r;
	if (!w->nr_attrs)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "perf.data writer: no attrs");
	w->attr_size = 0;
	for (size_t i = 0; i < w->nr_attrs; i++)
		if (w->attrs[i].size > w->attr_size)
			w->attr_size = w->attrs[i].size;
	for (size_t i = 0; i < w->nr_attrs; i++) {	/* every entry as large as the largest */
		struct pkw_attr *a = &w->attrs[i];
		if (a->size == w->attr_size)
			continue;
		unsigned char *n = realloc(a->attr, w->attr_size);
		if (!n)
			return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		memset(n + a->size, 0, w->attr_size - a->size);
		((struct perf_event_attr *)n)->size = w->attr_size;
		a->attr = n;
	}
	if (index_ids(w))
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	clock_refs(w);
	if (w->comp_level && (r = pkw_comp_init(w, err)))
		return r;
	r = w->pipe ? pkw_pipe_begin(w, err) : pkw_file_begin(w, err);
	if (!r || w->err_code)	/* a write error sticks: later calls return it */
		w->state = PKW_BEGUN;
	return r;
}

static int begun(struct pk_data_writer *w, struct pk_error *err, const char *what)
{
	if (w->state == PKW_BEGUN)
		return 0;
	return pk_error__set(err, -EINVAL, NULL, 0, 0, "perf.data writer: %s %s", what,
			     w->state == PKW_NEW ? "before begin()" : "after finish()");
}

int pk_data_writer__write(struct pk_data_writer *w, const void *recs, size_t len,
			  struct pk_error *err)
{
	int r;

	if ((r = begun(w, err, "write")) || (r = pkw_sticky(w, err)))
		return r;
	if (pkw_whole_records(recs, len) != len)
		return pk_error__set(err, -EINVAL, NULL, 0, 0,
				     "perf.data writer: %zu bytes are not whole records", len);
	pkw_scan_times(w, recs, len);
	w->data_bytes += len;
	if (w->comp_level)
		return pkw_comp_write(w, recs, len, err);
	return pkw_emit(w, recs, len, err);
}

int pk_data_writer__finished_round(struct pk_data_writer *w, struct pk_error *err)
{
	struct perf_event_header h = { .type = PK_RECORD_FINISHED_ROUND, .size = sizeof(h) };
	int r;

	if ((r = begun(w, err, "finished_round")) || (r = pkw_sticky(w, err)))
		return r;
	if (w->comp_level && (r = pkw_comp_flush(w, err)))
		return r;
	w->data_bytes += sizeof(h);
	return pkw_emit(w, &h, sizeof(h), err);
}

uint64_t pk_data_writer__data_bytes(const struct pk_data_writer *w)
{
	return w->data_bytes;
}

uint64_t pk_data_writer__file_bytes(const struct pk_data_writer *w)
{
	return w->data_size;
}

int pk_data_writer__gather(struct pk_data_writer *w, struct pk_error *err)
{
	int r;

	if ((r = begun(w, err, "gather")))
		return r;
	/* only the features that depend on the machine and the attrs alone (cached) */
	for (int f = 1; f < PK_FEAT_LAST && r >= 0; f++)
		r = pkw_feature_prefetch(w, f);
	return r < 0 ? pk_error__set(err, r, NULL, 0, 0, "out of memory") : 0;
}

int pk_data_writer__finish(struct pk_data_writer *w, struct pk_error *err)
{
	int r, sticky;

	if ((r = begun(w, err, "finish")))
		return r;
	w->state = PKW_FINISHED;
	if (w->comp_level && !w->err_code)
		(void)pkw_comp_flush(w, NULL);
	sticky = w->err_code;
	if (w->pipe)
		r = sticky ? 0 : pkw_pipe_finish(w, err);
	else
		r = pkw_file_finish(w, err);
	if (sticky)	/* the first error is the one to report */
		return pkw_sticky(w, err);
	return r;
}
