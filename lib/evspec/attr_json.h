/* SPDX-License-Identifier: MIT */
/*
 * evspec/attr_json.h — the json-c object form behind pmukit/attr.h's text API,
 * for callers that put the attr inside a larger JSON document (`pmukit
 * explain --json`, `pmukit record -v`, the perf oracle shim). Internal: the
 * public API never hands out json-c types.
 */
#ifndef PMUKIT_SPEC_ATTR_JSON_H
#define PMUKIT_SPEC_ATTR_JSON_H

#include <linux/perf_event.h>

struct json_object;

/* A new JSON object for attr in *out (the caller puts it). 0, or -ENOMEM. */
int attr_json__to_object(const struct perf_event_attr *attr, struct json_object **out);

/* The inverse, as pk_attr__from_json() on text (obj NULL or not an object: -EINVAL). */
int attr_json__from_object(struct json_object *obj, struct perf_event_attr *attr);

#endif
