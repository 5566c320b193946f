/* SPDX-License-Identifier: MIT */
/*
 * events/json_jobs.c — the parsing half of the arch/ tree reader. A file is
 * read with one read() and parsed by json-c; each object is translated
 * (json_event.c) straight into the model's IR arrays. Models are parsed by a
 * few threads (biggest first), each thread with its own tokener, read buffer
 * and arena; a model's files are read in name order by one thread, so the
 * result does not depend on scheduling. The standard-event files are read in
 * order on the calling thread. Also perf's duplicate-event check, which reads
 * the files again only to name the lines of an error.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "events/json_tree.h"
#include "util/grow.h"

#define MAX_THREADS 64

struct worker {
	struct loader *L;
	struct pk_arena arena;
	json_tokener *tok;
	struct pk_buf buf;
	struct json_ctx ctx;
	struct pk_error err;
	char path[PATH_MAX];
};

/* Where an event comes from: enough to name its line in an error. */
struct ev_src {
	unsigned file, index;
};

static int parse_text(json_tokener *tok, const struct pk_buf *b, const char *path,
		      json_object **out, struct pk_error *err)
{
	size_t bad;
	unsigned line, col;
	if (!json_text__utf8_ok((const char *)b->data, b->len, &bad)) {
		json_text__linecol((const char *)b->data, b->len, bad, &line, &col);
		return pk_error__set(err, -EINVAL, path, line, col, "invalid UTF-8");
	}
	json_tokener_reset(tok);
	/* Pass the NUL too, so that a truncated file reads as "unexpected end". */
	json_object *o = json_tokener_parse_ex(tok, (const char *)b->data, (int)b->len + 1);
	if (!o) {
		enum json_tokener_error je = json_tokener_get_error(tok);
		size_t off = json_tokener_get_parse_end(tok);
		json_text__linecol((const char *)b->data, b->len, off, &line, &col);
		return pk_error__set(err, -EINVAL, path, line, col, "invalid JSON: %s",
				     json_tokener_error_desc(je));
	}
	*out = o;
	return 0;
}

int json_tree__read_parse(json_tokener *tok, struct pk_buf *b, const char *path,
			  json_object **out, struct pk_error *err)
{
	int rc = json_text__read(path, b);
	if (rc)
		return pk_error__set(err, rc, path, 0, 0, "cannot read: %s", strerror(-rc));
	if (b->len > INT_MAX - 1)
		return pk_error__set(err, -EFBIG, path, 0, 0, "file too large");
	return parse_text(tok, b, path, out, err);
}

static int check_array(const struct json_ctx *ctx, json_object *top, struct pk_error *err)
{
	if (json_object_is_type(top, json_type_array))
		return 0;
	return json_ctx__error(ctx, err, -1, NULL,
			       "the top-level value must be an array of objects, not %s",
			       json_type_to_name(json_object_get_type(top)));
}

static int parse_one(struct json_ctx *ctx, json_object *top, size_t i, struct json_entry *e,
		     struct pk_error *err)
{
	json_object *o = json_object_array_get_idx(top, i);
	if (!json_object_is_type(o, json_type_object))
		return json_ctx__error(ctx, err, (long)i, NULL,
				       "entry %zu must be an object, not %s", i,
				       json_type_to_name(json_object_get_type(o)));
	return json_entry__parse(ctx, o, (unsigned)i, e, err);
}

/* An event file's entries, appended to the model. */
static int add_entries(struct worker *w, json_object *top, struct model_tmp *M, unsigned file,
		       const char *rel, const char *topic, struct ev_src **src, size_t *cap_src,
		       struct pk_error *err)
{
	struct ir_model *out = &M->out;
	int rc = check_array(&w->ctx, top, err);
	if (rc)
		return rc;
	size_t n = json_object_array_length(top), need = out->nr_events + n;
	if (need < n || pk_grow(&out->events, &out->cap_events, need, sizeof(*out->events)) ||
	    pk_grow(src, cap_src, need, sizeof(**src)))
		return json_tree__oom(err);
	for (size_t i = 0; i < n; i++) {
		struct json_entry e;
		if ((rc = parse_one(&w->ctx, top, i, &e, err)))
			return rc;
		if (e.name) {
			(*src)[out->nr_events] = (struct ev_src){ file, (unsigned)i };
			json_entry__to_event(&e, topic, rel, &out->events[out->nr_events++]);
		}
		if (e.metric_name) {
			if (pk_grow(&out->metrics, &out->cap_metrics, out->nr_metrics + 1,
				    sizeof(*out->metrics)))
				return json_tree__oom(err);
			json_entry__to_metric(&e, rel, &out->metrics[out->nr_metrics++]);
		}
	}
	return 0;
}

/* metricgroups.json: an object, group name -> description. */
static int add_groups(struct json_ctx *ctx, json_object *top, struct ir_model *out,
		      struct pk_error *err)
{
	if (!json_object_is_type(top, json_type_object))
		return json_ctx__error(ctx, err, -1, NULL,
				       "metricgroups.json must hold an object, not %s",
				       json_type_to_name(json_object_get_type(top)));
	size_t n = (size_t)json_object_object_length(top);
	if (pk_grow(&out->groups, &out->cap_groups, out->nr_groups + n, sizeof(*out->groups)))
		return json_tree__oom(err);
	json_object_object_foreach(top, key, val) {
		enum json_type t = json_object_get_type(val);
		if (strlen(key) < 2) /* perf asserts on one-letter group names */
			return json_ctx__error(ctx, err, -1, key,
					       "metric group name \"%s\" is too short", key);
		if (t != json_type_string && t != json_type_int)
			return json_ctx__error(ctx, err, -1, key,
					       "description of metric group \"%s\" must be a "
					       "string, not %s", key, json_type_to_name(t));
		struct ir_group *g = &out->groups[out->nr_groups];
		g->name = pk_arena__strdup(ctx->arena, key);
		g->desc = pk_arena__strdup(ctx->arena, json_object_get_string(val));
		if (!g->name || !g->desc)
			return json_tree__oom(err);
		out->nr_groups++;
	}
	return 0;
}

/* Name the line of an event (its EventName key, else its '{') by reading the file again. */
static void locate(const char *path, unsigned index, unsigned *line, unsigned *col)
{
	struct pk_buf b = { 0 };
	*line = *col = 0;
	if (!json_text__read(path, &b)) {
		size_t off = json_text__find((const char *)b.data, b.len, index, "EventName");
		if (off != JSON_TEXT_NOT_FOUND)
			json_text__linecol((const char *)b.data, b.len, off, line, col);
	}
	pk_buf__free(&b);
}

static uint32_t hash_event(const struct ir_event *e)
{
	uint32_t h = 2166136261u;
	for (const char *s = e->name; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	h = (h ^ 0xff) * 16777619u;
	for (const char *s = e->pmu; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int dup_error(const struct model_tmp *M, const struct ev_src *a, const struct ev_src *b,
		     const struct ir_event *e, struct pk_error *err)
{
	char pa[PATH_MAX], pb[PATH_MAX];
	unsigned l1, c1, l2, c2;
	snprintf(pa, sizeof(pa), "%s/%s", M->dir, M->files[a->file]);
	snprintf(pb, sizeof(pb), "%s/%s", M->dir, M->files[b->file]);
	locate(pa, a->index, &l1, &c1);
	locate(pb, b->index, &l2, &c2);
	return pk_error__set(err, -EINVAL, pb, l2, c2,
			     "duplicate event \"%s\" for PMU \"%s\" (first defined at %s:%u:%u)",
			     e->name, e->pmu, pa, l1, c1);
}

/* perf refuses two events of one name for one PMU in a model: so do we. */
static int check_dups(const struct model_tmp *M, const struct ev_src *src, struct pk_error *err)
{
	const struct ir_model *out = &M->out;
	size_t cap = 16;
	while (cap < out->nr_events * 2)
		cap *= 2;
	uint32_t *slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return json_tree__oom(err);
	int rc = 0;
	for (size_t i = 0; !rc && i < out->nr_events; i++) {
		const struct ir_event *e = &out->events[i];
		size_t s = hash_event(e) & (cap - 1);
		for (; slots[s]; s = (s + 1) & (cap - 1)) {
			const struct ir_event *o = &out->events[slots[s] - 1];
			if (!strcmp(o->name, e->name) && !strcmp(o->pmu, e->pmu)) {
				rc = dup_error(M, &src[slots[s] - 1], &src[i], e, err);
				break;
			}
		}
		slots[s] = (uint32_t)i + 1;
	}
	free(slots);
	return rc;
}

/* perf's topic: "*metrics.json" -> "metrics", else the name without ".json", '-' -> ' '. */
static const char *topic_of(struct pk_arena *a, const char *file)
{
	if (json_tree__ends_with(file, "metrics.json"))
		return "metrics";
	size_t n = strlen(file) - 5;
	char *t = pk_arena__strndup(a, file, n);
	for (size_t i = 0; t && i < n; i++)
		if (t[i] == '-')
			t[i] = ' ';
	return t;
}

static int parse_model(struct worker *w, struct model_tmp *M, struct pk_error *err)
{
	const struct arch *A = &w->L->arches[M->arch];
	struct ev_src *src = NULL;	/* where each event is from, for check_dups() */
	size_t cap_src = 0;
	char *base = json_tree__path(&w->arena, A->name, M->name);
	int rc = base ? 0 : json_tree__oom(err);
	w->ctx.std = &A->std;
	w->ctx.arch = A->name;
	w->ctx.path = w->path;
	for (size_t f = 0; !rc && f < M->nr_files; f++) {
		json_object *top = NULL;
		const char *rel = json_tree__path(&w->arena, base, M->files[f]);
		if ((size_t)snprintf(w->path, sizeof(w->path), "%s/%s", M->dir, M->files[f]) >=
		    sizeof(w->path))
			rc = pk_error__set(err, -ENAMETOOLONG, M->dir, 0, 0, "path too long");
		else if (!rel)
			rc = json_tree__oom(err);
		else
			rc = json_tree__read_parse(w->tok, &w->buf, w->path, &top, err);
		if (rc)
			break;
		w->ctx.text = (const char *)w->buf.data;
		w->ctx.len = w->buf.len;
		if (!strcmp(M->files[f], "metricgroups.json")) {
			rc = add_groups(&w->ctx, top, &M->out, err);
		} else {
			const char *topic = topic_of(&w->arena, M->files[f]);
			rc = topic ? add_entries(w, top, M, (unsigned)f, rel, topic, &src, &cap_src, err)
				   : json_tree__oom(err);
		}
		json_object_put(top);
	}
	if (!rc && src)	/* (NULL: no event file) */
		rc = check_dups(M, src, err);
	free(src);
	return rc;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct loader *L = w->L;
	for (;;) {
		size_t k = atomic_fetch_add(&L->next, 1);
		if (k >= L->nr_models)
			break;
		size_t i = L->order[k];
		if (i > atomic_load(&L->first_err))
			continue; /* a model before it already failed */
		struct model_tmp *M = &L->models[i];
		M->rc = parse_model(w, M, &w->err);
		if (!M->rc)
			continue;
		M->err = malloc(sizeof(*M->err));
		if (M->err)
			*M->err = w->err;
		size_t cur = atomic_load(&L->first_err);
		while (i < cur && !atomic_compare_exchange_weak(&L->first_err, &cur, i))
			;
	}
	return NULL;
}

static int default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 4 ? 4 : (int)n;
}

static int cmp_size(const void *a, const void *b, void *arg)
{
	const struct model_tmp *m = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (m[x].bytes != m[y].bytes)
		return m[x].bytes > m[y].bytes ? -1 : 1;
	return x < y ? -1 : x > y;
}

int json_tree__parse_models(struct loader *L, struct pk_error *err)
{
	int nt = L->opts && L->opts->threads > 0 ? L->opts->threads : default_threads();
	if (nt > MAX_THREADS)
		nt = MAX_THREADS;
	if ((size_t)nt > L->nr_models)
		nt = L->nr_models ? (int)L->nr_models : 1;
	L->order = malloc((L->nr_models ? L->nr_models : 1) * sizeof(*L->order));
	struct worker *ws = calloc((size_t)nt, sizeof(*ws));
	if (!L->order || !ws) {
		free(ws);
		return json_tree__oom(err);
	}
	for (size_t i = 0; i < L->nr_models; i++)
		L->order[i] = i;
	qsort_r(L->order, L->nr_models, sizeof(*L->order), cmp_size, L->models);
	atomic_store(&L->next, 0);
	atomic_store(&L->first_err, SIZE_MAX);

	pthread_t th[MAX_THREADS];
	int started = 0, rc = 0;
	for (int i = 0; !rc && i < nt; i++) {
		ws[i].L = L;
		ws[i].ctx.arena = &ws[i].arena;
		ws[i].tok = json_tokener_new();
		if (!ws[i].tok)
			rc = json_tree__oom(err);
		else
			json_tokener_set_flags(ws[i].tok, JSON_TOKENER_STRICT);
	}
	for (int i = 1; !rc && i < nt; i++) {
		if (pthread_create(&th[i], NULL, worker_main, &ws[i]))
			break; /* fewer threads: the others take over */
		started = i;
	}
	if (!rc)
		worker_main(&ws[0]);
	for (int i = 1; i <= started; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < nt; i++) {
		if (ws[i].tok)
			json_tokener_free(ws[i].tok);
		json_strtab__free(&ws[i].ctx.strtab);
		pk_buf__free(&ws[i].buf);
		pk_arena__merge(&L->tree->arena, &ws[i].arena);
	}
	free(ws);
	if (rc)
		return rc;
	size_t first = atomic_load(&L->first_err);
	if (first == SIZE_MAX)
		return 0;
	const struct model_tmp *M = &L->models[first];
	if (!M->err)
		return json_tree__oom(err);
	if (err)
		*err = *M->err;
	return M->rc;
}

/* The arch's top-level *.json files, in name order: each one's entries may refer
 * to the standard events of the files before it (as perf builds its table). */
int json_tree__load_std(struct loader *L, struct arch *A, char **files, size_t nr,
			json_tokener *tok, struct pk_buf *buf, struct pk_error *err)
{
	struct json_ctx ctx = { .arena = &L->tree->arena, .std = &A->std, .arch = A->name };
	int rc = 0;
	for (size_t i = 0; !rc && i < nr; i++) {
		char *path = json_tree__path(&L->scratch, A->dir, files[i]);
		json_object *top = NULL;
		if (!path)
			return json_tree__oom(err);
		rc = json_tree__read_parse(tok, buf, path, &top, err);
		if (!rc) {
			ctx.path = path;
			ctx.text = (const char *)buf->data;
			ctx.len = buf->len;
			rc = check_array(&ctx, top, err);
		}
		size_t n = rc ? 0 : json_object_array_length(top);
		struct json_entry *e = n ? pk_arena__alloc(&L->tree->arena, n * sizeof(*e)) : NULL;
		if (n && !e)
			rc = json_tree__oom(err);
		for (size_t k = 0; !rc && k < n; k++)
			rc = parse_one(&ctx, top, k, &e[k], err);
		json_object_put(top);
		/* added after the whole file, as perf adds a file's events once it is read */
		for (size_t k = 0; !rc && k < n; k++)
			if (json_std__add(&A->std, &L->tree->arena, &e[k]))
				rc = json_tree__oom(err);
	}
	json_strtab__free(&ctx.strtab);
	return rc;
}
