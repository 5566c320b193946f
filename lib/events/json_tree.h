/* SPDX-License-Identifier: MIT */
/*
 * events/json_tree.h — internal to the arch/ tree reader: the loader state
 * shared by json_tree.c (directory walk, mapfiles, ir_tree__load) and
 * json_jobs.c (parsing files on worker threads, standard events, merging the
 * per-file results into models with the duplicate check).
 */
#ifndef PMUKIT_EVENTS_JSON_TREE_H
#define PMUKIT_EVENTS_JSON_TREE_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "events/ir.h"
#include "events/json_event.h"
#include "events/json_text.h"
#include "util/error.h"

#define MAX_MODEL_DEPTH 4

struct arch {
	const char *name;	/* tree arena */
	char *dir;		/* scratch */
	struct json_std_table std;
};

/* A model directory found by the walk, then the result of parsing it. */
struct model_tmp {
	size_t arch;
	const char *name;	/* relative to the arch, tree arena */
	char *dir;		/* scratch */
	char **files;		/* sorted *.json names, scratch */
	size_t nr_files;
	size_t bytes;		/* total size of the files: biggest models go first */
	bool sys;
	struct ir_model out;	/* events, metrics, groups (malloc()ed arrays) */
	struct pk_error *err;	/* malloc()ed on failure */
	int rc;
};

struct loader {
	struct ir_tree *tree;
	const char *root;
	const struct ir_load_opts *opts;
	struct pk_arena scratch;
	struct arch *arches;
	size_t nr_arches, cap_arches;
	struct model_tmp *models;
	size_t nr_models, cap_models;
	size_t *order;		/* models by decreasing size: the dispatch order */
	atomic_size_t next, first_err;
};

static inline char *json_tree__path(struct pk_arena *a, const char *x, const char *y)
{
	size_t lx = strlen(x), ly = strlen(y);
	char *p = pk_arena__alloc(a, lx + ly + 2);
	if (p) {
		memcpy(p, x, lx);
		p[lx] = '/';
		memcpy(p + lx + 1, y, ly);
	}
	return p;
}

static inline int json_tree__oom(struct pk_error *err)
{
	return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
}

static inline int json_tree__cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline bool json_tree__ends_with(const char *s, const char *sfx)
{
	size_t ls = strlen(s), lx = strlen(sfx);
	return ls >= lx && !memcmp(s + ls - lx, sfx, lx);
}

/* Read and parse one file (UTF-8 checked; errors located). */
int json_tree__read_parse(json_tokener *tok, struct pk_buf *b, const char *path,
			  json_object **out, struct pk_error *err);
/* The arch's top-level files, in order, into A->std. */
int json_tree__load_std(struct loader *L, struct arch *A, char **files, size_t nr,
			json_tokener *tok, struct pk_buf *buf, struct pk_error *err);
/*
 * Parse every model (L->models, sorted) on a few threads into its .out, with
 * perf's duplicate-event check. On failure, the error of the first failing
 * model in L->models order is returned.
 */
int json_tree__parse_models(struct loader *L, struct pk_error *err);

#endif
