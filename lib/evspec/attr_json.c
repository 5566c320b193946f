/* SPDX-License-Identifier: MIT */
/*
 * evspec/attr_json.c — struct perf_event_attr to and from the JSON of
 * pmukit/attr.h (`pmukit explain --json`, the perf oracle shim): the json-c
 * object form of evspec/attr_json.h, and the public text form on top of it.
 * One table lists the fields in struct order; the bitfields, which have no
 * address, get a getter and a setter each from one X-macro list.
 */
#include "evspec/attr_json.h"

#include <pmukit/attr.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

/* Every bitfield of the 6.1 uapi attr, in struct order, with its width. */
#define PK_ATTR_BITS(X)                                                                   \
	X(disabled, 1) X(inherit, 1) X(pinned, 1) X(exclusive, 1) X(exclude_user, 1)      \
	X(exclude_kernel, 1) X(exclude_hv, 1) X(exclude_idle, 1) X(mmap, 1) X(comm, 1)    \
	X(freq, 1) X(inherit_stat, 1) X(enable_on_exec, 1) X(task, 1) X(watermark, 1)     \
	X(precise_ip, 2) X(mmap_data, 1) X(sample_id_all, 1) X(exclude_host, 1)           \
	X(exclude_guest, 1) X(exclude_callchain_kernel, 1) X(exclude_callchain_user, 1)   \
	X(mmap2, 1) X(comm_exec, 1) X(use_clockid, 1) X(context_switch, 1)               \
	X(write_backward, 1) X(namespaces, 1) X(ksymbol, 1) X(bpf_event, 1)               \
	X(aux_output, 1) X(cgroup, 1) X(text_poke, 1) X(build_id, 1)                      \
	X(inherit_thread, 1) X(remove_on_exec, 1) X(sigtrap, 1)

#define BIT_GET(n, w)                                                      \
	static uint64_t get_##n(const struct perf_event_attr *a)          \
	{                                                                  \
		return a->n;                                               \
	}                                                                  \
	static void set_##n(struct perf_event_attr *a, uint64_t v)         \
	{                                                                  \
		a->n = v;                                                  \
	}
PK_ATTR_BITS(BIT_GET)
#undef BIT_GET

enum fkind {
	F_HEX,		/* u64 as "0x..." */
	F_U64,
	F_U32,
	F_U16,
	F_S32,
	F_BIT,
	F_PERIOD,	/* sample_period / sample_freq union */
	F_CONFIG3,	/* "0x0" when the header has no config3 */
};

struct field {
	const char *name;
	enum fkind kind;
	size_t off;		/* plain fields */
	unsigned width;		/* bitfields */
	uint64_t (*get)(const struct perf_event_attr *a);
	void (*set)(struct perf_event_attr *a, uint64_t v);
};

#define PLAIN(n, k) { #n, k, offsetof(struct perf_event_attr, n), 0, NULL, NULL },
#define BIT(n, w) { #n, F_BIT, 0, w, get_##n, set_##n },

static const struct field fields[] = {
	PLAIN(type, F_U32)
	PLAIN(size, F_U32)
	PLAIN(config, F_HEX)
	PLAIN(config1, F_HEX)
	PLAIN(config2, F_HEX)
	{ "config3", F_CONFIG3, 0, 0, NULL, NULL },
	{ "sample_period", F_PERIOD, offsetof(struct perf_event_attr, sample_period), 0, NULL, NULL },
	PLAIN(sample_type, F_U64)
	PLAIN(read_format, F_U64)
	PK_ATTR_BITS(BIT)
	PLAIN(wakeup_events, F_U32)
	PLAIN(bp_type, F_U32)
	PLAIN(branch_sample_type, F_U64)
	PLAIN(sample_regs_user, F_U64)
	PLAIN(sample_stack_user, F_U32)
	PLAIN(clockid, F_S32)
	PLAIN(sample_regs_intr, F_U64)
	PLAIN(aux_watermark, F_U32)
	PLAIN(sample_max_stack, F_U16)
	PLAIN(aux_sample_size, F_U32)
	PLAIN(sig_data, F_U64)
};
#undef PLAIN
#undef BIT

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static uint64_t load(const struct perf_event_attr *a, const struct field *f)
{
	const unsigned char *p = (const unsigned char *)a + f->off;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	switch (f->kind) {
	case F_HEX:
	case F_U64:
	case F_PERIOD:
		memcpy(&v64, p, sizeof(v64));
		return v64;
	case F_U32:
	case F_S32:
		memcpy(&v32, p, sizeof(v32));
		return v32;
	case F_U16:
		memcpy(&v16, p, sizeof(v16));
		return v16;
	case F_BIT:
		return f->get(a);
	case F_CONFIG3:
#ifdef PERF_ATTR_SIZE_VER8
		return a->config3;
#else
		return 0;
#endif
	}
	return 0;
}

/* Stores v, which the caller has range-checked. */
static void store(struct perf_event_attr *a, const struct field *f, uint64_t v)
{
	unsigned char *p = (unsigned char *)a + f->off;
	uint32_t v32 = (uint32_t)v;
	uint16_t v16 = (uint16_t)v;

	switch (f->kind) {
	case F_HEX:
	case F_U64:
	case F_PERIOD:
		memcpy(p, &v, sizeof(v));
		break;
	case F_U32:
	case F_S32:
		memcpy(p, &v32, sizeof(v32));
		break;
	case F_U16:
		memcpy(p, &v16, sizeof(v16));
		break;
	case F_BIT:
		f->set(a, v);
		break;
	case F_CONFIG3:
#ifdef PERF_ATTR_SIZE_VER8
		a->config3 = v;
#endif
		break;
	}
}

static int add(struct json_object *obj, const char *key, struct json_object *val)
{
	if (!val)
		return -ENOMEM;
	if (json_object_object_add(obj, key, val)) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

int attr_json__to_object(const struct perf_event_attr *attr, struct json_object **out)
{
	struct json_object *obj = json_object_new_object();
	char hex[24];
	int rc = 0;

	*out = NULL;
	if (!obj)
		return -ENOMEM;
	for (size_t i = 0; i < NFIELDS && !rc; i++) {
		const struct field *f = &fields[i];
		uint64_t v = load(attr, f);

		switch (f->kind) {
		case F_HEX:
		case F_CONFIG3:
			snprintf(hex, sizeof(hex), "0x%" PRIx64, v);
			rc = add(obj, f->name, json_object_new_string(hex));
			break;
		case F_PERIOD:
			rc = add(obj, attr->freq ? "sample_freq" : "sample_period",
				 json_object_new_uint64(v));
			break;
		case F_S32:
			rc = add(obj, f->name, json_object_new_int((int32_t)(uint32_t)v));
			break;
		default:
			rc = add(obj, f->name, json_object_new_uint64(v));
			break;
		}
	}
	if (rc) {
		json_object_put(obj);
		return rc;
	}
	*out = obj;
	return 0;
}

/* "0x" then 1..16 hex digits. */
static int parse_hex(struct json_object *val, uint64_t *v)
{
	const char *s;
	size_t n;
	uint64_t r = 0;

	if (!json_object_is_type(val, json_type_string))
		return -EINVAL;
	s = json_object_get_string(val);
	n = (size_t)json_object_get_string_len(val);
	if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x' || strlen(s) != n)
		return -EINVAL;
	for (size_t i = 2; i < n; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -EINVAL;
		r = r << 4 | d;
	}
	*v = r;
	return 0;
}

/*
 * A JSON integer: json-c keeps values above INT64_MAX as uint64, for which
 * get_int64 saturates at INT64_MAX (>= 0) and get_uint64 is exact; a
 * negative value reads < 0 from get_int64.
 */
static int parse_int(struct json_object *val, int64_t *sv, uint64_t *uv, int *neg)
{
	if (!json_object_is_type(val, json_type_int))
		return -EINVAL;
	*sv = json_object_get_int64(val);
	*neg = *sv < 0;
	*uv = *neg ? 0 : json_object_get_uint64(val);
	return 0;
}

static int parse_field(const struct field *f, struct json_object *val, uint64_t *v)
{
	int64_t sv;
	uint64_t uv;
	int neg;

	if (f->kind == F_HEX || f->kind == F_CONFIG3) {
		if (parse_hex(val, v))
			return -EINVAL;
#ifndef PERF_ATTR_SIZE_VER8
		if (f->kind == F_CONFIG3 && *v)
			return -EINVAL;
#endif
		return 0;
	}
	if (parse_int(val, &sv, &uv, &neg))
		return -EINVAL;
	if (f->kind == F_S32) {
		if (sv < INT32_MIN || sv > INT32_MAX)
			return -EINVAL;
		*v = (uint32_t)(int32_t)sv;
		return 0;
	}
	if (neg)
		return -EINVAL;
	switch (f->kind) {
	case F_U32:
		if (uv > UINT32_MAX)
			return -EINVAL;
		break;
	case F_U16:
		if (uv > UINT16_MAX)
			return -EINVAL;
		break;
	case F_BIT:
		if (uv >> f->width)
			return -EINVAL;
		break;
	default:
		break;
	}
	*v = uv;
	return 0;
}

static const struct field *find_field(const char *key)
{
	if (!strcmp(key, "sample_freq"))
		key = "sample_period";
	for (size_t i = 0; i < NFIELDS; i++)
		if (!strcmp(fields[i].name, key))
			return &fields[i];
	return NULL;
}

int attr_json__from_object(struct json_object *obj, struct perf_event_attr *attr)
{
	int have_period = 0;
	uint64_t period = 0;

	memset(attr, 0, sizeof(*attr));
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	json_object_object_foreach(obj, key, val) {
		const struct field *f = find_field(key);
		uint64_t v;

		if (!f || parse_field(f, val, &v))
			return -EINVAL;
		if (f->kind == F_PERIOD) {
			if (have_period && v != period)
				return -EINVAL;
			have_period = 1;
			period = v;
		}
		store(attr, f, v);
	}
	return 0;
}

int pk_attr__to_json(const struct perf_event_attr *attr, char **out)
{
	struct json_object *obj;
	const char *text;
	int rc;

	*out = NULL;
	rc = attr_json__to_object(attr, &obj);
	if (rc)
		return rc;
	text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN);
	*out = text ? strdup(text) : NULL;
	json_object_put(obj);
	return *out ? 0 : -ENOMEM;
}

int pk_attr__from_json(const char *json, struct perf_event_attr *attr)
{
	struct json_tokener *tok;
	struct json_object *obj;
	size_t len, end;
	int rc = -EINVAL;

	memset(attr, 0, sizeof(*attr));
	if (!json)
		return -EINVAL;
	len = strlen(json);
	if (len > INT_MAX)
		return -EINVAL;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);	/* JSON, not json-c's extensions */
	obj = json_tokener_parse_ex(tok, json, (int)len);
	if (obj && json_tokener_get_error(tok) == json_tokener_success) {
		/* one object and nothing after it but whitespace */
		end = json_tokener_get_parse_end(tok);
		while (end < len && isspace((unsigned char)json[end]))
			end++;
		if (end == len)
			rc = attr_json__from_object(obj, attr);
	}
	json_object_put(obj);
	json_tokener_free(tok);
	if (rc)
		memset(attr, 0, sizeof(*attr));
	return rc;
}
