/* SPDX-License-Identifier: MIT */
/*
 * events/catalog.c — read access to a tables image (built-in, loaded from a
 * JSON tree at run time, or any validated blob): models, mapfile rows, events
 * and metrics with O(1) case-insensitive lookup, descriptions decompressed
 * block by block on first use.
 */
#include <pmukit/cpuid.h>
#include <pmukit/events.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <zstd.h>

#include "events/catalog_int.h"
#include "events/image.h"
#include "events/ir.h"
#include "util/error.h"
#include "util/opts.h"

struct pk_catalog {
	const unsigned char *img;
	size_t size;
	void *owned;
	const struct pk_img_header *h;
	char **blocks;		/* decompressed description blocks, lazily */
	ZSTD_DCtx *dctx;	/* created on the first compressed block */
};

static const char *str(const struct pk_catalog *c, uint32_t ref)
{
	return (const char *)c->img + c->h->strings_off + ref;
}

static const char *opt_str(const struct pk_catalog *c, uint32_t ref)
{
	return ref ? str(c, ref) : NULL;
}

static const uint32_t *pool(const struct pk_catalog *c, uint32_t idx)
{
	return (const uint32_t *)(c->img + c->h->pool_off) + idx;
}

static const struct pk_img_model *model(const struct pk_catalog *c, size_t i)
{
	return (const struct pk_img_model *)(c->img + c->h->models_off) + i;
}

static const char *desc(struct pk_catalog *c, uint32_t ref)
{
	if (!ref)
		return NULL;
	uint32_t off = ref - 1, bi = off / PK_IMG_BLOCK;
	const struct pk_img_block *b = (const struct pk_img_block *)(c->img + c->h->blocks_off) + bi;
	if (!c->blocks[bi]) {
		char *raw = malloc(b->raw_size);
		if (!raw)
			return NULL;
		if (b->size == b->raw_size) {
			memcpy(raw, c->img + b->off, b->raw_size);
		} else {
			if (!c->dctx && !(c->dctx = ZSTD_createDCtx())) {
				free(raw);
				return NULL;
			}
			size_t n = ZSTD_decompressDCtx(c->dctx, raw, b->raw_size, c->img + b->off,
						       b->size);
			if (ZSTD_isError(n) || n != b->raw_size) {
				free(raw);
				return NULL;
			}
		}
		raw[b->raw_size - 1] = '\0';	/* a corrupt block can not run past its end */
		c->blocks[bi] = raw;
	}
	return c->blocks[bi] + off % PK_IMG_BLOCK;
}

static int bad(struct pk_error *err, const char *what)
{
	return pk_error__set(err, -EINVAL, NULL, 0, 0, "corrupt tables image: %s", what);
}

static int in_range(size_t size, uint64_t off, uint64_t n, uint64_t elem)
{
	return off <= size && n * elem <= size - off;
}

static int str_ok(const struct pk_img_header *h, uint32_t ref)
{
	return ref < h->strings_size;
}

static int desc_ok(const struct pk_img_header *h, uint32_t ref)
{
	if (!ref)
		return 1;
	const struct pk_img_block *bl = (const void *)((const char *)h + h->blocks_off);
	uint32_t bi = (ref - 1) / PK_IMG_BLOCK;
	return bi < h->nr_blocks && (ref - 1) % PK_IMG_BLOCK < bl[bi].raw_size;
}

static int list_ok(const struct pk_img_header *h, const uint32_t *p, uint32_t first,
		   uint32_t n, uint32_t limit)
{
	if ((uint64_t)first + n > h->pool_size)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (p[first + i] >= limit)
			return 0;
	return 1;
}

int pk_image__validate(const void *img, size_t size, struct pk_error *err)
{
	const unsigned char *base = img;
	const struct pk_img_header *h = img;
	if (size < sizeof(*h) || memcmp(h->magic, PK_IMG_MAGIC, 8) || h->version != PK_IMG_VERSION)
		return bad(err, "bad header");
	if (h->size != size || !in_range(size, h->strings_off, h->strings_size, 1) ||
	    !h->strings_size || base[h->strings_off + h->strings_size - 1] != '\0' ||
	    !in_range(size, h->blocks_off, h->nr_blocks, sizeof(struct pk_img_block)) ||
	    !in_range(size, h->events_off, h->nr_events, sizeof(struct pk_img_event)) ||
	    !in_range(size, h->metrics_off, h->nr_metrics, sizeof(struct pk_img_metric)) ||
	    !in_range(size, h->models_off, h->nr_models, sizeof(struct pk_img_model)) ||
	    !in_range(size, h->maps_off, h->nr_maps, sizeof(struct pk_img_map)) ||
	    !in_range(size, h->pool_off, h->pool_size, 4) ||
	    (h->blocks_off | h->events_off | h->metrics_off | h->models_off | h->maps_off |
	     h->pool_off) % 4)
		return bad(err, "section out of bounds");
	const struct pk_img_block *bl = (const void *)(base + h->blocks_off);
	for (uint32_t i = 0; i < h->nr_blocks; i++)
		if (!in_range(size, bl[i].off, bl[i].size, 1) || !bl[i].raw_size ||
		    bl[i].raw_size > PK_IMG_BLOCK)
			return bad(err, "description block out of bounds");
	const struct pk_img_event *ev = (const void *)(base + h->events_off);
	for (uint32_t i = 0; i < h->nr_events; i++)
		if (!str_ok(h, ev[i].name) || !str_ok(h, ev[i].pmu) || !str_ok(h, ev[i].topic) ||
		    !str_ok(h, ev[i].encoding) || !str_ok(h, ev[i].compat) ||
		    !str_ok(h, ev[i].unit) || !desc_ok(h, ev[i].desc) || !desc_ok(h, ev[i].long_desc))
			return bad(err, "event record");
	const struct pk_img_metric *mt = (const void *)(base + h->metrics_off);
	for (uint32_t i = 0; i < h->nr_metrics; i++)
		if (!str_ok(h, mt[i].name) || !str_ok(h, mt[i].pmu) || !desc_ok(h, mt[i].expr) ||
		    !desc_ok(h, mt[i].threshold) || !str_ok(h, mt[i].groups) ||
		    !str_ok(h, mt[i].nogroup) || !str_ok(h, mt[i].default_group) ||
		    !str_ok(h, mt[i].unit) || !str_ok(h, mt[i].compat) || !desc_ok(h, mt[i].desc) ||
		    !desc_ok(h, mt[i].long_desc))
			return bad(err, "metric record");
	const uint32_t *p = (const void *)(base + h->pool_off);
	const struct pk_img_model *md = (const void *)(base + h->models_off);
	for (uint32_t i = 0; i < h->nr_models; i++) {
		const struct pk_img_model *m = &md[i];
		if (!str_ok(h, m->arch) || !str_ok(h, m->name) ||
		    !list_ok(h, p, m->events, m->nr_events, h->nr_events) ||
		    !list_ok(h, p, m->ev_hash, m->ev_hash_size, m->nr_events + 1) ||
		    !list_ok(h, p, m->metrics, m->nr_metrics, h->nr_metrics) ||
		    !list_ok(h, p, m->mt_hash, m->mt_hash_size, m->nr_metrics + 1) ||
		    (m->ev_hash_size & (m->ev_hash_size - 1)) ||
		    (m->mt_hash_size & (m->mt_hash_size - 1)) ||
		    (m->nr_events && m->ev_hash_size <= m->nr_events) ||
		    (m->nr_metrics && m->mt_hash_size <= m->nr_metrics) ||
		    (uint64_t)m->groups + 2ull * m->nr_groups > h->pool_size)
			return bad(err, "model record");
		for (uint32_t g = 0; g < m->nr_groups; g++)
			if (!str_ok(h, p[m->groups + 2 * g]) || !desc_ok(h, p[m->groups + 2 * g + 1]))
				return bad(err, "metric group");
	}
	const struct pk_img_map *mp = (const void *)(base + h->maps_off);
	for (uint32_t i = 0; i < h->nr_maps; i++)
		if (!str_ok(h, mp[i].arch) || !str_ok(h, mp[i].cpuid) || !str_ok(h, mp[i].version) ||
		    !str_ok(h, mp[i].type) || mp[i].model >= h->nr_models)
			return bad(err, "mapfile row");
	return 0;
}

/*
 * trusted: the image compiled into the library (built by eventc, checked by
 * the tests with pk_image__validate): only the header is checked, so opening
 * it does not page in all of it.
 */
static int open_image(void *buf, size_t size, bool owned, bool trusted, struct pk_catalog **out,
		      struct pk_error *err)
{
	const struct pk_img_header *h = buf;
	int ret = trusted ? (size < sizeof(*h) || memcmp(h->magic, PK_IMG_MAGIC, 8) ||
					     h->version != PK_IMG_VERSION || h->size != size
				     ? bad(err, "bad header")
				     : 0)
			  : pk_image__validate(buf, size, err);
	struct pk_catalog *c = NULL;
	if (!ret) {
		char **blocks = calloc(((const struct pk_img_header *)buf)->nr_blocks + 1,
				       sizeof(char *));
		c = blocks ? calloc(1, sizeof(*c)) : NULL;
		if (c) {
			c->blocks = blocks;
		} else {
			free(blocks);
			ret = pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		}
	}
	if (ret) {
		if (owned)
			free(buf);
		return ret;
	}
	c->img = buf;
	c->size = size;
	c->owned = owned ? buf : NULL;
	c->h = buf;
	*out = c;
	return 0;
}

int pk_catalog__open_image(struct pk_catalog **out, void *buf, size_t size, bool owned,
			   struct pk_error *err)
{
	return open_image(buf, size, owned, false, out, err);
}

int pk_catalog__open_trusted(const void *img, size_t size, struct pk_catalog **out)
{
	return open_image((void *)img, size, false, true, out, NULL);
}

int pk_catalog__open_dir(struct pk_catalog **out, const char *dir,
			 const struct pk_catalog_dir_opts *opts, struct pk_error *err)
{
	struct ir_load_opts lo = { 0 };
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_catalog_dir_opts", opts->sz);
	lo.only_arch = PK_OPTS_GET(opts, only_arch, NULL);
	lo.only_model = PK_OPTS_GET(opts, only_model, NULL);
	lo.only_cpuid = PK_OPTS_GET(opts, only_cpuid, NULL);
	struct ir_tree tree = { 0 };
	int ret = ir_tree__load(&tree, dir, &lo, err);
	if (ret)
		return ret;
	void *img;
	size_t size;
	/* Stored uncompressed: run-time loading favours speed over size. */
	struct pk_img_build_opts bo = { .zstd_level = 0 };
	ret = pk_image__build(&tree, &bo, &img, &size, err);
	ir_tree__free(&tree);
	if (ret)
		return ret;
	return pk_catalog__open_image(out, img, size, true, err);
}

void pk_catalog__free(struct pk_catalog *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->h->nr_blocks; i++)
		free(c->blocks[i]);
	free(c->blocks);
	ZSTD_freeDCtx(c->dctx);
	free(c->owned);
	free(c);
}

size_t pk_catalog__nr_models(const struct pk_catalog *c)
{
	return c->h->nr_models;
}

int pk_catalog__model(const struct pk_catalog *c, size_t idx, struct pk_model *out)
{
	if (idx >= c->h->nr_models)
		return -ENOENT;
	const struct pk_img_model *m = model(c, idx);
	*out = (struct pk_model){
		.arch = str(c, m->arch),
		.name = str(c, m->name),
		.sys = m->sys,
		.nr_events = m->nr_events,
		.nr_metrics = m->nr_metrics,
		.nr_groups = m->nr_groups,
	};
	return 0;
}

/* The last component of a model name: "arm/neoverse-n1" -> "neoverse-n1". */
static const char *basename_of(const char *n)
{
	const char *s = strrchr(n, '/');
	return s ? s + 1 : n;
}

int pk_catalog__find_model(const struct pk_catalog *c, const char *name, size_t *idx)
{
	const char *slash = strchr(name, '/');
	size_t alen = slash ? (size_t)(slash - name) : 0;
	/* pass 0: "arch/name"; pass 1: "name" (may contain '/'); pass 2: its last component */
	for (size_t pass = 0; pass < 3; pass++) {
		for (uint32_t i = 0; i < c->h->nr_models; i++) {
			const struct pk_img_model *m = model(c, i);
			const char *a = str(c, m->arch), *n = str(c, m->name);
			bool hit = pass == 0 ? slash && strlen(a) == alen && !strncmp(a, name, alen) &&
						   !strcasecmp(n, slash + 1)
				   : pass == 1 ? !strcasecmp(n, name)
					       : !m->sys && !strcasecmp(basename_of(n), name);
			if (hit) {
				*idx = i;
				return 0;
			}
		}
	}
	return -ENOENT;
}

size_t pk_catalog__nr_maps(const struct pk_catalog *c)
{
	return c->h->nr_maps;
}

int pk_catalog__map(const struct pk_catalog *c, size_t idx, struct pk_map_entry *out)
{
	if (idx >= c->h->nr_maps)
		return -ENOENT;
	const struct pk_img_map *m = (const struct pk_img_map *)(c->img + c->h->maps_off) + idx;
	*out = (struct pk_map_entry){
		.arch = str(c, m->arch),
		.cpuid = str(c, m->cpuid),
		.version = str(c, m->version),
		.type = str(c, m->type),
		.model = m->model,
	};
	return 0;
}

/*
 * A cheap necessary condition for a regular-expression mapfile pattern to
 * match: its literal head (up to the first metacharacter, minus a character
 * made optional by ?, * or {) must occur in the id. Saves compiling ~100
 * regexes per lookup. Patterns with a top-level '|' are always compiled.
 */
static bool may_match(const char *arch, const char *pattern, const char *cpuid)
{
	if (!strcmp(arch, "arm64"))
		return true;	/* compared numerically, already cheap */
	size_t n = strcspn(pattern, ".[]()*+?{}|^$\\");
	if (pattern[n] == '?' || pattern[n] == '*' || pattern[n] == '{')
		n = n ? n - 1 : 0;
	int depth = 0;
	for (const char *p = pattern; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == '|' && depth <= 0)
			return true;
	}
	char head[128];
	if (n >= sizeof(head))
		return true;
	memcpy(head, pattern, n);
	head[n] = '\0';
	return strstr(cpuid, head) != NULL;
}

int pk_catalog__match_cpuid(const struct pk_catalog *c, const char *arch, const char *cpuid,
			    size_t *map_idx)
{
	for (uint32_t i = 0; i < c->h->nr_maps; i++) {
		struct pk_map_entry e;
		pk_catalog__map(c, i, &e);
		if (arch && strcmp(arch, e.arch))
			continue;
		if (may_match(e.arch, e.cpuid, cpuid) && pk_cpuid__match(e.arch, e.cpuid, cpuid) == 0) {
			*map_idx = i;
			return 0;
		}
	}
	return -ENOENT;
}

static const struct pk_img_event *event_rec(const struct pk_catalog *c, const struct pk_img_model *m,
					    size_t pos)
{
	return (const struct pk_img_event *)(c->img + c->h->events_off) + pool(c, m->events)[pos];
}

static const struct pk_img_metric *metric_rec(const struct pk_catalog *c,
					      const struct pk_img_model *m, size_t pos)
{
	return (const struct pk_img_metric *)(c->img + c->h->metrics_off) + pool(c, m->metrics)[pos];
}

static int fill_event(struct pk_catalog *c, size_t mi, size_t idx, bool with_desc,
		      struct pk_event *out)
{
	if (mi >= c->h->nr_models || idx >= model(c, mi)->nr_events)
		return -ENOENT;
	const struct pk_img_event *e = event_rec(c, model(c, mi), idx);
	const struct pk_event full = {
		.sz = sizeof(full),
		.name = str(c, e->name),
		.pmu = str(c, e->pmu),
		.topic = str(c, e->topic),
		.encoding = str(c, e->encoding),
		.desc = with_desc ? desc(c, e->desc) : NULL,
		.long_desc = with_desc ? desc(c, e->long_desc) : NULL,
		.compat = opt_str(c, e->compat),
		.unit = opt_str(c, e->unit),
		.deprecated = e->flags & PK_IMG_EV_DEPRECATED,
		.perpkg = e->flags & PK_IMG_EV_PERPKG,
		.experimental = e->flags & PK_IMG_EV_EXPERIMENTAL,
	};
	return pk_opts__fill(out, &full, sizeof(full));	/* only the fields within out->sz */
}

int pk_catalog__event_text(struct pk_catalog *c, size_t mi, size_t idx, const char **name,
			   const char **encoding, const char **desc_out)
{
	if (mi >= c->h->nr_models || idx >= model(c, mi)->nr_events)
		return -ENOENT;
	const struct pk_img_event *e = event_rec(c, model(c, mi), idx);
	*name = str(c, e->name);
	*encoding = str(c, e->encoding);
	*desc_out = desc(c, e->desc);
	return 0;
}

const char *pk_catalog__event_pmu(const struct pk_catalog *c, size_t mi, size_t idx)
{
	if (mi >= c->h->nr_models || idx >= model(c, mi)->nr_events)
		return NULL;
	return str(c, event_rec(c, model(c, mi), idx)->pmu);
}

int pk_catalog__event(struct pk_catalog *c, size_t mi, size_t idx, struct pk_event *out)
{
	return fill_event(c, mi, idx, true, out);
}

int pk_catalog__event_brief(const struct pk_catalog *c, size_t mi, size_t idx, struct pk_event *out)
{
	return fill_event((struct pk_catalog *)c, mi, idx, false, out);
}

/* Position of the first entry named name (of hash h) in a model's sorted list, via its hash. */
static int hash_find(const struct pk_catalog *c, uint32_t hash, uint32_t hsize, const char *name,
		     uint32_t h,
		     const char *(*name_at)(const struct pk_catalog *, const struct pk_img_model *,
					    size_t),
		     const struct pk_img_model *m, size_t *pos)
{
	if (!hsize)
		return -ENOENT;
	const uint32_t *slots = pool(c, hash);
	for (uint32_t j = h & (hsize - 1), n = 0; n < hsize;
	     j = (j + 1) & (hsize - 1), n++) {
		if (!slots[j])
			return -ENOENT;
		if (!strcasecmp(name_at(c, m, slots[j] - 1), name)) {
			*pos = slots[j] - 1;
			return 0;
		}
	}
	return -ENOENT;
}

static const char *event_name_at(const struct pk_catalog *c, const struct pk_img_model *m,
				 size_t pos)
{
	return str(c, event_rec(c, m, pos)->name);
}

static const char *metric_name_at(const struct pk_catalog *c, const struct pk_img_model *m,
				  size_t pos)
{
	return str(c, metric_rec(c, m, pos)->name);
}

int pk_catalog__find_event(const struct pk_catalog *c, size_t mi, const char *name,
			   const char *pmu, size_t *first, size_t *count)
{
	return pk_catalog__find_event_hashed(c, mi, name, pk_img__hash(name), pmu, first, count);
}

int pk_catalog__find_event_hashed(const struct pk_catalog *c, size_t mi, const char *name,
				  uint32_t hash, const char *pmu, size_t *first, size_t *count)
{
	if (mi >= c->h->nr_models)
		return -ENOENT;
	const struct pk_img_model *m = model(c, mi);
	size_t pos;
	if (hash_find(c, m->ev_hash, m->ev_hash_size, name, hash, event_name_at, m, &pos))
		return -ENOENT;
	size_t end = pos + 1;	/* pos has that name */
	while (end < m->nr_events && !strcasecmp(event_name_at(c, m, end), name))
		end++;
	if (pmu) {
		while (pos < end && strcmp(str(c, event_rec(c, m, pos)->pmu), pmu))
			pos++;
		size_t e2 = pos;
		while (e2 < end && !strcmp(str(c, event_rec(c, m, e2)->pmu), pmu))
			e2++;
		end = e2;
	}
	if (pos == end)
		return -ENOENT;
	*first = pos;
	*count = end - pos;
	return 0;
}

int pk_catalog__metric(struct pk_catalog *c, size_t mi, size_t idx, struct pk_metric *out)
{
	if (mi >= c->h->nr_models || idx >= model(c, mi)->nr_metrics)
		return -ENOENT;
	const struct pk_img_metric *e = metric_rec(c, model(c, mi), idx);
	const struct pk_metric full = {
		.sz = sizeof(full),
		.name = str(c, e->name),
		.pmu = str(c, e->pmu),
		.expr = desc(c, e->expr),
		.threshold = desc(c, e->threshold),
		.groups = opt_str(c, e->groups),
		.nogroup = opt_str(c, e->nogroup),
		.default_group = opt_str(c, e->default_group),
		.desc = desc(c, e->desc),
		.long_desc = desc(c, e->long_desc),
		.unit = opt_str(c, e->unit),
		.compat = opt_str(c, e->compat),
		.aggr_mode = (enum pk_aggr_mode)e->aggr_mode,
		.grouping = (enum pk_event_grouping)e->grouping,
	};
	return pk_opts__fill(out, &full, sizeof(full));	/* only the fields within out->sz */
}

int pk_catalog__find_metric(const struct pk_catalog *c, size_t mi, const char *name, size_t *idx)
{
	if (mi >= c->h->nr_models)
		return -ENOENT;
	const struct pk_img_model *m = model(c, mi);
	return hash_find(c, m->mt_hash, m->mt_hash_size, name, pk_img__hash(name), metric_name_at, m,
			 idx);
}

int pk_catalog__metric_group(struct pk_catalog *c, size_t mi, size_t idx,
			     struct pk_metric_group *out)
{
	if (mi >= c->h->nr_models || idx >= model(c, mi)->nr_groups)
		return -ENOENT;
	const uint32_t *g = pool(c, model(c, mi)->groups + 2 * (uint32_t)idx);
	out->name = str(c, g[0]);
	out->desc = desc(c, g[1]);
	return 0;
}
