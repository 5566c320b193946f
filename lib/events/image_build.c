/* SPDX-License-Identifier: MIT */
/*
 * events/image_build.c — turn an IR tree into the compact tables image
 * (format in image.h): strings and event records stored once across models,
 * descriptions compressed in blocks, per-model sorted lists and hash indexes.
 */
#include "events/image.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <zstd.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/intern.h"

struct builder {
	struct pk_intern strings;
	struct pk_intern descs;		/* raw description stream, blocks of PK_IMG_BLOCK */
	struct pk_intern events;	/* struct pk_img_event records */
	struct pk_intern metrics;	/* struct pk_img_metric records */
	struct pk_buf models, maps, pool;
	int oom;
	const char *too_long;	/* first text that does not fit a block */
};

static uint32_t str_ref(struct builder *b, const char *s)
{
	if (!s || !*s)
		return 0;
	long off = pk_intern__add(&b->strings, s, strlen(s), 1);
	if (off < 0) {
		b->oom = 1;
		return 0;
	}
	return (uint32_t)off;
}

/*
 * Text read rarely (descriptions, metric expressions) goes to the compressed
 * stream. Strings never straddle a block: pad to the next block when one would.
 */
static uint32_t desc_ref(struct builder *b, const char *s)
{
	if (!s || !*s)
		return 0;
	size_t n = strlen(s);
	if (n >= PK_IMG_BLOCK) {	/* the longest in the 6.12 tree is 2,242 bytes */
		if (!b->too_long)
			b->too_long = s;
		return 0;
	}
	long off = pk_intern__find(&b->descs, s, n);
	if (off < 0) {
		size_t used = b->descs.buf.len % PK_IMG_BLOCK;
		if (used + n + 1 > PK_IMG_BLOCK) {
			static const char zeros[256];
			for (size_t pad = PK_IMG_BLOCK - used; pad && !b->oom;) {
				size_t k = pad < sizeof(zeros) ? pad : sizeof(zeros);
				if (pk_buf__append(&b->descs.buf, zeros, k) < 0)
					b->oom = 1;
				pad -= k;
			}
		}
		off = pk_intern__add(&b->descs, s, n, 1);
	}
	if (off < 0 || off >= (long)UINT32_MAX) {
		b->oom = 1;
		return 0;
	}
	return (uint32_t)off + 1;
}

/* Sort helpers: order an index array by (name, pmu, original position). */
struct sort_key {
	const char *name, *pmu;
	size_t pos;
};

static int key_cmp(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	int c = strcasecmp(x->name, y->name);
	if (!c)
		c = strcmp(x->pmu ? x->pmu : "", y->pmu ? y->pmu : "");
	if (!c)
		c = (x->pos > y->pos) - (x->pos < y->pos);
	return c;
}

static size_t hash_size(size_t n)
{
	size_t s = 4;
	while (s < n + n / 4 + 1)
		s *= 2;
	return n ? s : 0;
}

/*
 * Append the list (record ids in key order) and its hash index to the pool.
 * Only the first entry of a run of equal names goes into the hash.
 */
static int emit_index(struct builder *b, const struct sort_key *keys, const uint32_t *ids,
		      size_t n, uint32_t *list, uint32_t *hash, uint32_t *hsize)
{
	size_t hs = hash_size(n);
	*list = (uint32_t)(b->pool.len / 4);
	for (size_t i = 0; i < n; i++)
		if (pk_buf__append_u32(&b->pool, ids[i]))
			return -ENOMEM;
	*hash = (uint32_t)(b->pool.len / 4);
	*hsize = (uint32_t)hs;
	if (pk_buf__reserve(&b->pool, hs * 4))
		return -ENOMEM;
	if (!hs)
		return 0;	/* an empty model: no slots (and pool.data may still be NULL) */
	uint32_t *slots = (uint32_t *)(b->pool.data + b->pool.len);
	memset(slots, 0, hs * 4);
	b->pool.len += hs * 4;
	for (size_t i = 0; i < n; i++) {
		if (i && !strcasecmp(keys[i].name, keys[i - 1].name))
			continue;
		size_t j = pk_img__hash(keys[i].name) & (hs - 1);
		while (slots[j])
			j = (j + 1) & (hs - 1);
		slots[j] = (uint32_t)i + 1;
	}
	return 0;
}

/* One event or metric as its image record, strings interned. */
static void event_record(struct builder *b, const void *src, void *rec)
{
	const struct ir_event *e = src;
	*(struct pk_img_event *)rec = (struct pk_img_event){
		.name = str_ref(b, e->name),
		.pmu = str_ref(b, e->pmu),
		.topic = str_ref(b, e->topic),
		.encoding = str_ref(b, e->encoding),
		.compat = str_ref(b, e->compat),
		.unit = str_ref(b, e->unit),
		.desc = desc_ref(b, e->desc),
		.long_desc = desc_ref(b, e->long_desc),
		.flags = (e->deprecated ? PK_IMG_EV_DEPRECATED : 0) |
			 (e->perpkg ? PK_IMG_EV_PERPKG : 0) |
			 (e->experimental ? PK_IMG_EV_EXPERIMENTAL : 0),
	};
}

static void metric_record(struct builder *b, const void *src, void *rec)
{
	const struct ir_metric *e = src;
	*(struct pk_img_metric *)rec = (struct pk_img_metric){
		.name = str_ref(b, e->name),
		.pmu = str_ref(b, e->pmu),
		.expr = desc_ref(b, e->expr),
		.threshold = desc_ref(b, e->threshold),
		.groups = str_ref(b, e->groups),
		.nogroup = str_ref(b, e->nogroup),
		.default_group = str_ref(b, e->default_group),
		.unit = str_ref(b, e->unit),
		.compat = str_ref(b, e->compat),
		.desc = desc_ref(b, e->desc),
		.long_desc = desc_ref(b, e->long_desc),
		.aggr_mode = (uint16_t)e->aggr_mode,
		.grouping = (uint16_t)e->grouping,
	};
}

/*
 * Sort n IR entries (elem bytes apart, name and pmu at the given offsets) by
 * (name, pmu), store each as a unique record, and emit the model's list and
 * hash index of them.
 */
static int add_records(struct builder *b, const void *items, size_t n, size_t elem,
		       size_t name_off, size_t pmu_off, struct pk_intern *store, size_t rec_size,
		       void (*record)(struct builder *, const void *, void *), uint32_t *list,
		       uint32_t *hash, uint32_t *hsize)
{
	struct sort_key *keys = calloc(n ? n : 1, sizeof(*keys));
	uint32_t *ids = calloc(n ? n : 1, sizeof(*ids));
	unsigned char rec[64];
	int ret = -ENOMEM;
	if (!keys || !ids || rec_size > sizeof(rec))
		goto out;
	for (size_t i = 0; i < n; i++) {
		const char *item = (const char *)items + i * elem;
		keys[i] = (struct sort_key){ *(const char *const *)(item + name_off),
					     *(const char *const *)(item + pmu_off), i };
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (size_t i = 0; i < n; i++) {
		record(b, (const char *)items + keys[i].pos * elem, rec);
		long off = pk_intern__add(store, rec, rec_size, 0);
		if (off < 0 || b->oom)
			goto out;
		ids[i] = (uint32_t)(off / (long)rec_size);
	}
	ret = emit_index(b, keys, ids, n, list, hash, hsize);
out:
	free(keys);
	free(ids);
	return ret;
}

static int add_model(struct builder *b, const struct ir_model *m)
{
	struct pk_img_model im = {
		.arch = str_ref(b, m->arch),
		.name = str_ref(b, m->name),
		.sys = m->sys,
	};
	int ret = add_records(b, m->events, m->nr_events, sizeof(*m->events),
			      offsetof(struct ir_event, name), offsetof(struct ir_event, pmu), &b->events,
			      sizeof(struct pk_img_event), event_record, &im.events, &im.ev_hash,
			      &im.ev_hash_size);
	if (!ret)
		ret = add_records(b, m->metrics, m->nr_metrics, sizeof(*m->metrics),
				  offsetof(struct ir_metric, name), offsetof(struct ir_metric, pmu),
				  &b->metrics, sizeof(struct pk_img_metric), metric_record, &im.metrics,
				  &im.mt_hash, &im.mt_hash_size);
	if (ret)
		return ret;
	im.nr_events = (uint32_t)m->nr_events;
	im.nr_metrics = (uint32_t)m->nr_metrics;
	im.groups = (uint32_t)(b->pool.len / 4);
	im.nr_groups = (uint32_t)m->nr_groups;
	for (size_t i = 0; i < m->nr_groups; i++) {
		if (pk_buf__append_u32(&b->pool, str_ref(b, m->groups[i].name)) ||
		    pk_buf__append_u32(&b->pool, desc_ref(b, m->groups[i].desc)))
			return -ENOMEM;
	}
	return pk_buf__append(&b->models, &im, sizeof(im)) < 0 || b->oom ? -ENOMEM : 0;
}

/* Compress the description stream block by block into out. */
static int emit_blocks(struct builder *b, struct pk_buf *out, int level, struct pk_img_header *h)
{
	size_t raw = b->descs.buf.len;
	size_t nblocks = (raw + PK_IMG_BLOCK - 1) / PK_IMG_BLOCK;
	struct pk_img_block *blocks = calloc(nblocks ? nblocks : 1, sizeof(*blocks));
	size_t cap = ZSTD_compressBound(PK_IMG_BLOCK);
	void *tmp = malloc(cap);
	ZSTD_CCtx *cctx = level ? ZSTD_createCCtx() : NULL;
	int ret = -ENOMEM;
	if (!blocks || !tmp || (level && !cctx))
		goto out;
	for (size_t i = 0; i < nblocks; i++) {
		const unsigned char *src = b->descs.buf.data + i * PK_IMG_BLOCK;
		size_t n = raw - i * PK_IMG_BLOCK < PK_IMG_BLOCK ? raw - i * PK_IMG_BLOCK : PK_IMG_BLOCK;
		const void *data = src;
		size_t size = n;
		if (level) {
			size_t c = ZSTD_compressCCtx(cctx, tmp, cap, src, n, level);
			if (!ZSTD_isError(c) && c < n) {
				data = tmp;
				size = c;
			}
		}
		long off = pk_buf__append(out, data, size);
		if (off < 0)
			goto out;
		blocks[i] = (struct pk_img_block){ (uint32_t)off, (uint32_t)size, (uint32_t)n, 0 };
	}
	if (pk_buf__align(out, 8))
		goto out;
	h->blocks_off = (uint32_t)out->len;
	h->nr_blocks = (uint32_t)nblocks;
	h->desc_raw_size = (uint32_t)raw;
	if (pk_buf__append(out, blocks, nblocks * sizeof(*blocks)) < 0)
		goto out;
	ret = 0;
out:
	ZSTD_freeCCtx(cctx);
	free(tmp);
	free(blocks);
	return ret;
}

static int section(struct pk_buf *out, const struct pk_buf *sec, uint32_t *off)
{
	if (pk_buf__align(out, 8))
		return -ENOMEM;
	*off = (uint32_t)out->len;
	return pk_buf__append(out, sec->data, sec->len) < 0 ? -ENOMEM : 0;
}

int pk_image__build(const struct ir_tree *tree, const struct pk_img_build_opts *opts, void **out,
		    size_t *size, struct pk_error *err)
{
	struct builder b = { 0 };
	struct pk_buf img = { 0 };
	struct pk_img_header h = { .version = PK_IMG_VERSION };
	int level = opts ? opts->zstd_level : 0;
	int ret = -ENOMEM;

	memcpy(h.magic, PK_IMG_MAGIC, 8);
	if (pk_intern__add(&b.strings, "", 0, 1) != 0)
		goto out;
	for (size_t i = 0; i < tree->nr_models; i++)
		if ((ret = add_model(&b, &tree->models[i])))
			goto out;
	for (size_t i = 0; i < tree->nr_maps; i++) {
		const struct ir_map *m = &tree->maps[i];
		struct pk_img_map im = {
			.arch = str_ref(&b, m->arch),
			.cpuid = str_ref(&b, m->cpuid),
			.version = str_ref(&b, m->version),
			.type = str_ref(&b, m->type),
			.model = (uint32_t)m->model,
		};
		if (pk_buf__append(&b.maps, &im, sizeof(im)) < 0)
			goto out;
	}
	if (b.too_long) {
		ret = pk_error__set(err, -E2BIG, NULL, 0, 0,
				    "a description or metric expression is %zu bytes, over the %u-byte "
				    "limit of a text block: \"%.60s...\"",
				    strlen(b.too_long), PK_IMG_BLOCK - 1, b.too_long);
		goto out;
	}
	ret = -ENOMEM;
	if (b.oom || pk_buf__append(&img, &h, sizeof(h)) < 0)
		goto out;
	if (section(&img, &b.strings.buf, &h.strings_off))
		goto out;
	h.strings_size = (uint32_t)b.strings.buf.len;
	if (emit_blocks(&b, &img, level, &h))
		goto out;
	if (section(&img, &b.events.buf, &h.events_off) ||
	    section(&img, &b.metrics.buf, &h.metrics_off) ||
	    section(&img, &b.models, &h.models_off) || section(&img, &b.maps, &h.maps_off) ||
	    section(&img, &b.pool, &h.pool_off) || pk_buf__align(&img, 8))
		goto out;
	h.nr_events = (uint32_t)(b.events.buf.len / sizeof(struct pk_img_event));
	h.nr_metrics = (uint32_t)(b.metrics.buf.len / sizeof(struct pk_img_metric));
	h.nr_models = (uint32_t)tree->nr_models;
	h.nr_maps = (uint32_t)tree->nr_maps;
	h.pool_size = (uint32_t)(b.pool.len / 4);
	if (img.len > UINT32_MAX) {
		ret = pk_error__set(err, -EFBIG, NULL, 0, 0, "tables image larger than 4 GiB");
		goto out;
	}
	h.size = (uint32_t)img.len;
	memcpy(img.data, &h, sizeof(h));
	*out = img.data;
	*size = img.len;
	img.data = NULL;
	ret = 0;
out:
	if (ret == -ENOMEM)
		pk_error__set(err, ret, NULL, 0, 0, "out of memory building the tables image");
	pk_buf__free(&img);
	pk_intern__free(&b.strings);
	pk_intern__free(&b.descs);
	pk_intern__free(&b.events);
	pk_intern__free(&b.metrics);
	pk_buf__free(&b.models);
	pk_buf__free(&b.maps);
	pk_buf__free(&b.pool);
	return ret;
}
