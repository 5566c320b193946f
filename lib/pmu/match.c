/* SPDX-License-Identifier: MIT */
/*
 * pmu/match.c — deciding whether an event table's PMU name ("uncore_cha",
 * "hisi_sccl,ddrc", "default_core") or a sys event's Compat pattern designates
 * a discovered PMU, with perf's rules (instance suffixes, token lists).
 */
#include <pmukit/pmu.h>

#include "pmu/lookup.h"
#include "pmu/pmu_int.h"

#include <regex.h>
#include <string.h>


static bool is_dec(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex(char c)
{
	return is_dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * Is s, up to the end of the string, an instance suffix: an optional '_' then
 * at least one digit, all decimal or, with a hex letter, more than two?
 */
static bool is_instance_suffix(const char *s)
{
	const char *d = *s == '_' ? s + 1 : s;
	size_t n = 0;
	bool hex_letter = false;

	for (; d[n]; n++) {
		if (!is_hex(d[n]))
			return false;
		if (!is_dec(d[n]))
			hex_letter = true;
	}
	if (n == 0)
		return false;
	return !hex_letter || n > 2;
}

/* name == tok, or name == tok followed by an instance suffix. */
static bool match_ignoring_suffix(const char *name, const char *tok, size_t toklen)
{
	if (strncmp(name, tok, toklen))
		return false;
	return name[toklen] == '\0' || is_instance_suffix(name + toklen);
}

/*
 * "a,b,c": each token found in order in name (searching on after the previous
 * find), the last one's first occurrence followed by nothing or an instance
 * suffix. Empty tokens are skipped.
 */
static bool match_token_list(const char *name, const char *list)
{
	const char *p = list;
	const char *at = name;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *next = end ? end + 1 : p + len;
		bool last = true;

		for (const char *q = next; *q; q++)
			if (*q != ',') {
				last = false;
				break;
			}
		if (len == 0) {
			p = next;
			continue;
		}
		/* find p[0..len) in at */
		const char *hit = NULL;
		for (const char *s = at; *s; s++)
			if (!strncmp(s, p, len)) {
				hit = s;
				break;
			}
		if (!hit)
			return false;
		if (last)
			return match_ignoring_suffix(hit, p, len);
		at = hit + len;
		p = next;
	}
	return false;	/* no token at all */
}

void pk_table_pmu__init(struct pk_table_pmu *t, const char *name)
{
	t->name = name;
	t->len = strlen(name);
	t->list = memchr(name, ',', t->len) != NULL;
	t->default_core = t->len == 12 && !memcmp(name, "default_core", 12);
}

bool pk_pmu__matches_prepared(const struct pk_pmu *pmu, const struct pk_table_pmu *t)
{
	const char *name = pmu->name, *tp = t->name;

	/* most pairs differ in their first byte: then only default_core and lists can match */
	if (name[0] == tp[0] && !strcmp(name, tp))
		return true;
	if (t->default_core && pmu->is_core)
		return true;
	if (!pmu->is_uncore)
		return false;
	if (t->list)
		return match_token_list(name, tp);
	if (t->len && name[0] != tp[0])
		return false;	/* not a prefix of name */
	return match_ignoring_suffix(name, tp, t->len);
}

bool pk_pmu__matches_table_pmu(const struct pk_pmu *pmu, const char *table_pmu)
{
	struct pk_table_pmu t;

	if (!pmu || !table_pmu)
		return false;
	pk_table_pmu__init(&t, table_pmu);
	return pk_pmu__matches_prepared(pmu, &t);
}

bool pk_pmu__matches_compat(const struct pk_pmu *pmu, const char *compat)
{
	const char *id;
	regex_t re;
	regmatch_t m;
	bool ok;

	if (!pmu || !compat || !(id = pk_pmu__identifier(pmu)))
		return false;
	if (regcomp(&re, compat, REG_EXTENDED) != 0)
		return false;
	ok = regexec(&re, id, 1, &m, 0) == 0 && m.rm_so == 0 && (size_t)m.rm_eo == strlen(id);
	regfree(&re);
	return ok;
}
