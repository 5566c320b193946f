/* SPDX-License-Identifier: MIT */
/*
 * events/json_std.c — the two hash tables of the JSON tree reader: an arch's
 * standard events (the entries of its top-level *.json files) that
 * ArchStdEvent names refer to, keyed by the lower-cased EventName or
 * MetricName, a later definition replacing an earlier one as in perf's
 * dictionary; and the per-thread table that stores each description once
 * (9 MB of descriptions in the real tree are 2.8 MB of distinct text).
 */
#include "events/json_event.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct json_std_slot {
	const char *key;	/* lower-cased */
	uint32_t hash;
	const struct json_entry *e;
};

static uint32_t hash_lower(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + 32);
		h = (h ^ c) * 16777619u;
	}
	return h;
}

static bool eq_lower(const char *key, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		if (key[i] != c)
			return false;
	}
	return key[len] == '\0';
}

static int std_put(struct json_std_table *t, struct pk_arena *a, const char *name,
		   const struct json_entry *e)
{
	if ((t->nr + 1) * 2 > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		struct json_std_slot *ns = calloc(ncap, sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		for (size_t i = 0; i < t->cap; i++) {
			if (!t->slots[i].key)
				continue;
			size_t j = t->slots[i].hash & (ncap - 1);
			while (ns[j].key)
				j = (j + 1) & (ncap - 1);
			ns[j] = t->slots[i];
		}
		free(t->slots);
		t->slots = ns;
		t->cap = ncap;
	}
	size_t len = strlen(name);
	uint32_t h = hash_lower(name, len);
	size_t j = h & (t->cap - 1);
	for (; t->slots[j].key; j = (j + 1) & (t->cap - 1)) {
		if (t->slots[j].hash == h && eq_lower(t->slots[j].key, name, len)) {
			t->slots[j].e = e; /* a later definition wins, as in perf's dict */
			return 0;
		}
	}
	char *key = pk_arena__alloc(a, len + 1);
	if (!key)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++)
		key[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
	t->slots[j] = (struct json_std_slot){ .key = key, .hash = h, .e = e };
	t->nr++;
	return 0;
}

int json_std__add(struct json_std_table *t, struct pk_arena *arena, const struct json_entry *e)
{
	struct json_entry *copy = pk_arena__alloc(arena, sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	*copy = *e;
	int rc = 0;
	if (e->name)
		rc = std_put(t, arena, e->name, copy);
	if (!rc && e->metric_name)
		rc = std_put(t, arena, e->metric_name, copy);
	return rc;
}

const struct json_entry *json_std__find(const struct json_std_table *t, const char *name,
					size_t len)
{
	if (!t->cap)
		return NULL;
	uint32_t h = hash_lower(name, len);
	for (size_t j = h & (t->cap - 1); t->slots[j].key; j = (j + 1) & (t->cap - 1))
		if (t->slots[j].hash == h && eq_lower(t->slots[j].key, name, len))
			return t->slots[j].e;
	return NULL;
}

void json_std__free(struct json_std_table *t)
{
	free(t->slots);
	t->slots = NULL;
	t->cap = t->nr = 0;
}

struct json_strtab_slot {
	uint64_t hash;
	const char *s;
	size_t len;
};

static uint64_t hash_more(uint64_t h, const char *s, size_t n)
{
	for (; n >= 8; s += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	uint64_t w = 0;
	memcpy(&w, s, n);
	h = (h ^ w ^ n) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 32);
}

static int strtab_grow(struct json_strtab *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 1024;
	struct json_strtab_slot *ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].s)
			continue;
		size_t j = t->slots[i].hash & (ncap - 1);
		while (ns[j].s)
			j = (j + 1) & (ncap - 1);
		ns[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = ns;
	t->cap = ncap;
	return 0;
}

const char *json_strtab__join(struct json_strtab *t, struct pk_arena *arena, const char *s,
			      size_t len, const char *extra, size_t elen)
{
	if ((t->nr + 1) * 2 > t->cap && strtab_grow(t))
		return NULL;
	uint64_t h = hash_more(hash_more(0, s, len), extra, elen);
	size_t j = h & (t->cap - 1);
	for (; t->slots[j].s; j = (j + 1) & (t->cap - 1)) {
		const struct json_strtab_slot *o = &t->slots[j];
		if (o->hash == h && o->len == len + elen && !memcmp(o->s, s, len) &&
		    !memcmp(o->s + len, extra, elen))
			return o->s;
	}
	char *p = pk_arena__alloc(arena, len + elen + 1);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	memcpy(p + len, extra, elen);
	t->slots[j] = (struct json_strtab_slot){ .hash = h, .s = p, .len = len + elen };
	t->nr++;
	return p;
}

void json_strtab__free(struct json_strtab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->cap = t->nr = 0;
}
