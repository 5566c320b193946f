/* SPDX-License-Identifier: MIT */
/*
 * events/json_event.h — one object of a vendor JSON event file turned into
 * the attributes perf's jevents.py derives from it (lower-cased name, PMU,
 * alias encoding, fixed-up descriptions, metric fields), including
 * ArchStdEvent resolution against an arch's standard-event table; and the
 * conversion of those attributes into IR events and metrics.
 */
#ifndef PMUKIT_EVENTS_JSON_EVENT_H
#define PMUKIT_EVENTS_JSON_EVENT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>
#include <pmukit/error.h>

#include "events/ir.h"
#include "util/arena.h"

/*
 * perf's PerPkg/Deprecated values are strings that Python tests for
 * truthiness (absent or "" is false and may be filled from an ArchStdEvent,
 * "0" is true for that test but stored as 0).
 */
enum json_flag { JSON_FLAG_NONE = 0, JSON_FLAG_ZERO, JSON_FLAG_ONE };

/* Every attribute jevents.py keeps; NULL is Python's None (or ""). */
struct json_entry {
	const char *name;	/* lower-cased EventName: an event when set */
	const char *event;	/* alias encoding */
	const char *desc, *long_desc;
	const char *pmu;
	const char *compat, *unit;
	const char *metric_name; /* a metric when set */
	const char *metric_expr, *metric_threshold, *metric_group;
	const char *nogroup, *default_group;
	unsigned char perpkg, deprecated; /* enum json_flag */
	unsigned char aggr_mode, grouping; /* 0: none, else enum pk_aggr_mode / pk_event_grouping */
	bool experimental;
	unsigned index;		/* position in the file's top-level array */
};

/* Standard events of one arch (its top-level *.json files), by lower-cased name. */
struct json_std_table {
	struct json_std_slot *slots;
	size_t cap, nr;
};

int json_std__add(struct json_std_table *t, struct pk_arena *arena,
		  const struct json_entry *e);
const struct json_entry *json_std__find(const struct json_std_table *t, const char *name,
					size_t len);
void json_std__free(struct json_std_table *t);

/* Descriptions interned per thread: vendor files repeat them across models. */
struct json_strtab {
	struct json_strtab_slot *slots;
	size_t cap, nr;
};

/* s[0..len) then extra[0..elen) as one arena string, or an equal one made before
 * (NULL on ENOMEM). */
const char *json_strtab__join(struct json_strtab *t, struct pk_arena *arena, const char *s,
			      size_t len, const char *extra, size_t elen);
void json_strtab__free(struct json_strtab *t);

/* Where the object comes from, for errors and for the topic. */
struct json_ctx {
	struct pk_arena *arena;
	const struct json_std_table *std; /* NULL: no standard events */
	const char *path;	/* file, as shown in errors */
	const char *text;	/* file text, to locate errors */
	size_t len;
	const char *arch;	/* for messages */
	/* one-entry cache for the Unit -> PMU name mapping */
	const char *last_unit, *last_pmu;
	size_t last_unit_len;
	/* key_hint[k]: the key that followed key k last time (entries share a key order) */
	unsigned char key_hint[64];
	/* keys no entry of perf 6.12 uses, skipped as jevents skips them */
	unsigned long nr_ignored_keys;
	struct json_strtab strtab; /* freed by the owner of the context */
};

/*
 * Translate one JSON object (element `index` of the file's array) into *out.
 * Unknown keys, wrong types, bad numbers, unknown ArchStdEvent/MSRIndex/enum
 * values fail with a negative errno and err located at the offending key.
 */
int json_entry__parse(struct json_ctx *ctx, json_object *obj, unsigned index,
		      struct json_entry *out, struct pk_error *err);

/* Fill IR records (strings are shared, not copied). */
void json_entry__to_event(const struct json_entry *e, const char *topic, const char *file,
			  struct ir_event *out);
void json_entry__to_metric(const struct json_entry *e, const char *file, struct ir_metric *out);

/* Report err at element `index` (key may be NULL) of the file in ctx. */
int json_ctx__error(const struct json_ctx *ctx, struct pk_error *err, long index,
		    const char *key, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#ifdef __clang_analyzer__
/* the analyzer does not follow variadic functions: tell it that this one returns -EINVAL */
#define json_ctx__error(...) (json_ctx__error(__VA_ARGS__), -EINVAL)
#endif

/* Exposed for tests: index of a known key or -1; perf's "int(s, base)" on a string. */
int json_key__lookup(const char *name);
bool json_py_int(const char *s, size_t len, int base, bool *neg, unsigned long long *mag);
/* Write (-)v in decimal or as 0x<lower hex> into buf (>= 24 bytes); returns the length. */
size_t json_fmt_num(char *buf, bool neg, unsigned long long v, bool hex);
/* perf's llx(): 0..9 in decimal, anything else as (-)0x<lower hex>. */
size_t json_fmt_llx(char *buf, bool neg, unsigned long long v);

#endif
