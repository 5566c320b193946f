/* SPDX-License-Identifier: MIT */
/*
 * events/image.h — the compact tables image: one relocation-free blob that
 * eventc emits as a C array and the run-time loader builds in memory.
 *
 * Layout (all offsets in bytes from the image start, host byte order, every
 * section 8-byte aligned):
 *   header
 *   strings      NUL-terminated strings, each stored once; ref 0 is ""
 *   desc blocks  text read rarely (descriptions, metric expressions and
 *                thresholds), zstd-compressed in independent blocks of
 *                PK_IMG_BLOCK bytes (16 KiB: listing one model decompresses
 *                little it does not need); a desc ref is the offset in the
 *                uncompressed stream plus one (block = offset / PK_IMG_BLOCK),
 *                0 meaning none
 *   events       unique event records (shared by models that have the same event)
 *   metrics      unique metric records
 *   models       per model: its event list (sorted by name, pmu), a hash
 *                index over it, the same for metrics, and metric groups
 *   maps         mapfile rows
 *   u32 pool     the lists and hash slots the models point into
 */
#ifndef PMUKIT_EVENTS_IMAGE_H
#define PMUKIT_EVENTS_IMAGE_H

#include "util/hash.h"
#include <stddef.h>
#include <stdint.h>

#include <pmukit/error.h>

#include "events/ir.h"

#define PK_IMG_MAGIC "PMUKIMG1"
#define PK_IMG_VERSION 1
#define PK_IMG_BLOCK 16384u

struct pk_img_header {
	char magic[8];
	uint32_t version;
	uint32_t size;		/* whole image */
	uint32_t strings_off, strings_size;
	uint32_t blocks_off, nr_blocks;	/* struct pk_img_block[] */
	uint32_t events_off, nr_events;	/* struct pk_img_event[] */
	uint32_t metrics_off, nr_metrics; /* struct pk_img_metric[] */
	uint32_t models_off, nr_models;	/* struct pk_img_model[] */
	uint32_t maps_off, nr_maps;	/* struct pk_img_map[] */
	uint32_t pool_off, pool_size;	/* uint32_t[] */
	uint32_t desc_raw_size;		/* total uncompressed description bytes */
	uint32_t reserved;
};

struct pk_img_block {
	uint32_t off;		/* compressed bytes at image + off */
	uint32_t size;		/* compressed size; == raw_size means stored uncompressed */
	uint32_t raw_size;
	uint32_t reserved;
};

enum {
	PK_IMG_EV_DEPRECATED = 1u << 0,
	PK_IMG_EV_PERPKG = 1u << 1,
	PK_IMG_EV_EXPERIMENTAL = 1u << 2,
};

struct pk_img_event {
	uint32_t name, pmu, topic, encoding, compat, unit; /* string refs */
	uint32_t desc, long_desc;			  /* desc refs */
	uint32_t flags;
};

struct pk_img_metric {
	uint32_t name, pmu, groups, nogroup, default_group, unit, compat; /* string refs */
	uint32_t expr, threshold, desc, long_desc;			   /* desc refs */
	uint16_t aggr_mode, grouping;
};

struct pk_img_model {
	uint32_t arch, name;	/* string refs */
	uint32_t sys;
	uint32_t events, nr_events;	/* pool index of event-record indexes */
	uint32_t ev_hash, ev_hash_size;	/* pool index of slots (pos + 1, 0 empty); size power of 2 */
	uint32_t metrics, nr_metrics;
	uint32_t mt_hash, mt_hash_size;
	uint32_t groups, nr_groups;	/* pool index of (name, desc) string-ref pairs */
};

struct pk_img_map {
	uint32_t arch, cpuid, version, type; /* string refs */
	uint32_t model;
};

/* FNV-1a over the lower-cased name: the hash both sides use (util/hash.h). */
static inline uint32_t pk_img__hash(const char *s)
{
	return pk_hash__casefold(s);
}

struct pk_img_build_opts {
	int zstd_level;		/* 0: store descriptions uncompressed */
};

/* Build an image from a tree. *out is malloc()ed. */
int pk_image__build(const struct ir_tree *tree, const struct pk_img_build_opts *opts,
		    void **out, size_t *size, struct pk_error *err);

/* Check the header and every offset and ref of an image before trusting it. */
int pk_image__validate(const void *img, size_t size, struct pk_error *err);

/*
 * Open an image compiled into the library: only its header is checked, so
 * opening does not page all of it in (the tests validate it in full).
 */
struct pk_catalog;
int pk_catalog__open_trusted(const void *img, size_t size, struct pk_catalog **out);
/* The built-in image itself (for the test that validates it). */
const void *pk_builtin__image(size_t *size);

#endif
