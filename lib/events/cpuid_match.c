/* SPDX-License-Identifier: MIT */
/*
 * events/cpuid_match.c — CPU identifiers against mapfile.csv patterns: perf's
 * per-arch match rules, a caller-owned cache of compiled patterns, guessing an
 * identifier's arch from its shape, and a distance used to name the known
 * models closest to an unknown identifier. Reading identifiers is cpuid.c.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L	/* strdup */
#endif
#include <pmukit/cpuid.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/edit_distance.h"

enum rules { RULES_REGEX, RULES_X86, RULES_ARM64, RULES_POWERPC, RULES_RISCV };

static enum rules rules_of(const char *arch, const char *cpuid)
{
	if (!arch)
		arch = pk_cpuid__guess_arch(cpuid);
	if (!arch)
		return RULES_REGEX;
	if (!strcmp(arch, "x86"))
		return RULES_X86;
	if (!strcmp(arch, "arm64"))
		return RULES_ARM64;
	if (!strcmp(arch, "powerpc"))
		return RULES_POWERPC;
	if (!strcmp(arch, "riscv"))
		return RULES_RISCV;
	return RULES_REGEX;	/* s390, nds32, test, ...: perf's default rule */
}

/* ---- small parsers ---- */

static size_t hex_digits(const char *s)
{
	size_t n = 0;
	while (isxdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* "0x" then exactly want hex digits (want 0: 1..16) and end of string. */
static bool is_0x_hex(const char *s, size_t want)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	size_t n = hex_digits(s + 2);
	if (s[2 + n])
		return false;
	return want ? n == want : n >= 1 && n <= 16;
}

/* Optional "0x", 1..16 hex digits, end of string. */
static bool parse_hex(const char *s, uint64_t *out)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	size_t n = hex_digits(s);
	if (!n || s[n])
		return false;
	while (n > 16 && *s == '0')
		s++, n--;
	if (n > 16)
		return false;
	*out = strtoull(s, NULL, 16);
	return true;
}

static unsigned count_dashes(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		n += *s == '-';
	return n;
}

struct x86_id {
	char vendor[32];
	unsigned family, model, stepping;
};

/* "Vendor-F-M[-S]": F decimal, M and S upper- or lower-case hex. */
static bool x86_parse(const char *s, struct x86_id *out)
{
	const char *dash = strchr(s, '-');
	size_t vlen = dash ? (size_t)(dash - s) : 0;
	if (!vlen || vlen >= sizeof(out->vendor) || memchr(s, ',', vlen))
		return false;
	memcpy(out->vendor, s, vlen);
	out->vendor[vlen] = '\0';
	const char *p = dash + 1;
	size_t n = 0;
	unsigned family = 0;
	while (n < 3 && isdigit((unsigned char)p[n]))
		family = family * 10 + (unsigned)(p[n++] - '0');
	if (!n || p[n] != '-')
		return false;
	p += n + 1;
	n = hex_digits(p);
	if (n < 1 || n > 2)
		return false;
	out->family = family;
	out->model = (unsigned)strtoul(p, NULL, 16);
	p += n;
	out->stepping = 0;
	if (*p == '-') {
		p++;
		n = hex_digits(p);
		if (n < 1 || n > 2)
			return false;
		out->stepping = (unsigned)strtoul(p, NULL, 16);
		p += n;
	}
	return *p == '\0';
}

/* riscv "0x..-0x..-0x..". */
static bool is_riscv_id(const char *s)
{
	for (int field = 0; field < 3; field++) {
		if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
			return false;
		size_t n = hex_digits(s + 2);
		if (n < 1 || n > 16)
			return false;
		s += 2 + n;
		if (field < 2 && *s++ != '-')
			return false;
	}
	return *s == '\0';
}

const char *pk_cpuid__guess_arch(const char *cpuid)
{
	struct x86_id x;
	if (!cpuid)
		return NULL;
	if (!strncmp(cpuid, "IBM,", 4))
		return "s390";
	if (is_riscv_id(cpuid))
		return "riscv";
	if (is_0x_hex(cpuid, 16))
		return "arm64";
	if (is_0x_hex(cpuid, 8))
		return "powerpc";
	if (x86_parse(cpuid, &x))
		return "x86";
	return NULL;
}

/* ---- compiled patterns and their cache ---- */

struct pattern {
	char *text;
	uint64_t hash;
	int status;		/* 0 compiled, else a negative errno */
	regex_t re;
};

struct pk_cpuid_cache {
	struct pattern **slots;	/* open addressing, power-of-two size */
	size_t cap, used;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int compile(regex_t *re, const char *text)
{
	int rc = regcomp(re, text, REG_EXTENDED);
	if (rc == 0)
		return 0;
	return rc == REG_ESPACE ? -ENOMEM : -EINVAL;
}

struct pk_cpuid_cache *pk_cpuid_cache__new(void)
{
	struct pk_cpuid_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cap = 64;
	c->slots = calloc(c->cap, sizeof(*c->slots));
	if (!c->slots) {
		free(c);
		return NULL;
	}
	return c;
}

void pk_cpuid_cache__free(struct pk_cpuid_cache *cache)
{
	if (!cache)
		return;
	for (size_t i = 0; i < cache->cap; i++) {
		struct pattern *p = cache->slots[i];
		if (!p)
			continue;
		if (!p->status)
			regfree(&p->re);
		free(p->text);
		free(p);
	}
	free(cache->slots);
	free(cache);
}

static int cache_grow(struct pk_cpuid_cache *c)
{
	size_t cap = c->cap * 2;
	struct pattern **slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < c->cap; i++) {
		struct pattern *p = c->slots[i];
		if (!p)
			continue;
		size_t j = p->hash & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = p;
	}
	free(c->slots);
	c->slots = slots;
	c->cap = cap;
	return 0;
}

/* The cached entry for text, compiled on first use; NULL on ENOMEM. */
static struct pattern *cache_get(struct pk_cpuid_cache *c, const char *text)
{
	uint64_t h = hash_str(text);
	size_t j = h & (c->cap - 1);
	for (; c->slots[j]; j = (j + 1) & (c->cap - 1)) {
		struct pattern *p = c->slots[j];
		if (p->hash == h && !strcmp(p->text, text))
			return p;
	}
	if ((c->used + 1) * 2 > c->cap) {
		if (cache_grow(c))
			return NULL;
		j = h & (c->cap - 1);
		while (c->slots[j])
			j = (j + 1) & (c->cap - 1);
	}
	struct pattern *p = calloc(1, sizeof(*p));
	if (!p || !(p->text = strdup(text))) {
		free(p);
		return NULL;
	}
	p->hash = h;
	p->status = compile(&p->re, text);
	c->slots[j] = p;
	c->used++;
	return p;
}

/* A compiled pattern borrowed from the cache or compiled for one call. */
struct compiled {
	const regex_t *re;
	regex_t own;
	bool owned;
};

static int compiled_get(struct pk_cpuid_cache *cache, const char *text, struct compiled *out)
{
	out->owned = false;
	struct pattern *p = cache ? cache_get(cache, text) : NULL;
	if (p) {
		out->re = &p->re;
		return p->status;
	}
	int ret = compile(&out->own, text);
	if (ret)
		return ret;
	out->re = &out->own;
	out->owned = true;
	return 0;
}

static void compiled_put(struct compiled *c)
{
	if (c->owned)
		regfree(&c->own);
	c->owned = false;
}

/* ---- match rules ---- */

/* The leftmost-longest match of re in s is exactly need characters long. */
static bool covers(const regex_t *re, const char *s, size_t need)
{
	regmatch_t m[1];
	if (regexec(re, s, 1, m, 0))
		return false;
	return (size_t)(m[0].rm_eo - m[0].rm_so) == need;
}

/* A "full" x86 identifier or pattern is vendor-family-model-stepping. */
static int x86_rule(const regex_t *re, bool full_map, const char *id)
{
	bool full_id = count_dashes(id) == 3;
	if (full_map && !full_id)
		return 1;
	size_t need = !full_map && full_id ? (size_t)(strrchr(id, '-') - id) : strlen(id);
	return covers(re, id, need) ? 0 : 1;
}

#define MIDR_VARIANT(m) (((m) >> 20) & 0xf)
#define MIDR_REVISION(m) ((m) & 0xf)
#define MIDR_VERSION_MASK ((uint64_t)0xf << 20 | 0xf)

static int arm64_rule(const char *map, const char *id)
{
	uint64_t m, i;
	if (!parse_hex(map, &m))
		return -EINVAL;
	if (!parse_hex(id, &i))
		return 1;
	if ((m & ~MIDR_VERSION_MASK) != (i & ~MIDR_VERSION_MASK))
		return 1;
	/* rVpR compared as a two-part version: r1p0 > r0p9. */
	unsigned mv = (unsigned)(MIDR_VARIANT(m) << 4 | MIDR_REVISION(m));
	unsigned iv = (unsigned)(MIDR_VARIANT(i) << 4 | MIDR_REVISION(i));
	return iv >= mv ? 0 : 1;
}

/* The regex rules of arch family rules with an already compiled pattern. */
static int match_compiled(enum rules rules, const regex_t *re, const char *map, const char *id)
{
	if (rules == RULES_X86)
		return x86_rule(re, count_dashes(map) == 3, id);
	return covers(re, id, strlen(id)) ? 0 : 1;
}

int pk_cpuid_cache__match(struct pk_cpuid_cache *cache, const char *arch, const char *map_cpuid,
			  const char *cpuid)
{
	if (!map_cpuid || !cpuid)
		return -EINVAL;
	enum rules rules = rules_of(arch, cpuid);
	if (rules == RULES_ARM64)
		return arm64_rule(map_cpuid, cpuid);
	struct compiled c;
	int ret = compiled_get(cache, map_cpuid, &c);
	if (ret)
		return ret;
	ret = match_compiled(rules, c.re, map_cpuid, cpuid);
	compiled_put(&c);
	return ret;
}

int pk_cpuid__match(const char *arch, const char *map_cpuid, const char *cpuid)
{
	return pk_cpuid_cache__match(NULL, arch, map_cpuid, cpuid);
}

/* ---- distance ---- */

/* Does the x86 pattern accept model m of the id's vendor and family (any stepping)? */
static bool x86_accepts_model(const regex_t *re, bool full_map, const struct x86_id *x, unsigned m)
{
	char cand[64];
	if (!full_map) {
		snprintf(cand, sizeof(cand), "%s-%u-%X", x->vendor, x->family, m);
		return x86_rule(re, false, cand) == 0;
	}
	for (unsigned s = 0; s < 16; s++) {
		snprintf(cand, sizeof(cand), "%s-%u-%X-%X", x->vendor, x->family, m, s);
		if (x86_rule(re, true, cand) == 0)
			return true;
	}
	return false;
}

/*
 * Length of the literal text every match of the ERE pat starts with (after a
 * leading '^'): letters, digits and '-' up to the first operator, less a last
 * character that a quantifier makes optional; 0 when pat has a top-level '|'.
 */
static size_t literal_prefix(const char *pat, const char **start)
{
	int depth = 0;
	for (const char *p = pat; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[') {		/* skip a bracket expression */
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p && *p != ']') {
				if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
					const char *close = strchr(p + 2, p[1]);
					p = close && close[1] == ']' ? close + 1 : p;
				}
				p++;
			}
			if (!*p)
				return 0;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			depth--;
		} else if (*p == '|' && depth <= 0) {
			return 0;
		}
	}
	if (*pat == '^')
		pat++;
	*start = pat;
	size_t n = 0;
	while (isalnum((unsigned char)pat[n]) || pat[n] == '-')
		n++;
	if (n && (pat[n] == '*' || pat[n] == '?' || pat[n] == '{' || pat[n] == '+'))
		n--;
	return n;
}

/*
 * Can any "Vendor-Family-..." candidate match? Candidates are accepted only by
 * a match that covers them from their first character, so a pattern whose
 * literal prefix disagrees with "Vendor-Family-" accepts none.
 */
static bool x86_prefix_possible(const char *map, const struct x86_id *x)
{
	char head[48];
	snprintf(head, sizeof(head), "%s-%u-", x->vendor, x->family);
	const char *lit = map;
	size_t n = literal_prefix(map, &lit), h = strlen(head);
	return strncmp(lit, head, n < h ? n : h) == 0;
}

/* Nearest accepted model, searching outwards from the id's model. */
static unsigned x86_distance(const regex_t *re, const char *map, const char *id)
{
	struct x86_id x;
	if (!x86_parse(id, &x) || x.model > 0xff || !x86_prefix_possible(map, &x))
		return UINT_MAX;
	bool full_map = count_dashes(map) == 3;
	for (unsigned d = 0; d <= 0xff; d++) {
		if (x.model >= d && x86_accepts_model(re, full_map, &x, x.model - d))
			return d ? d : 1;
		if (d && x.model + d <= 0xff && x86_accepts_model(re, full_map, &x, x.model + d))
			return d;
	}
	return UINT_MAX;
}

static unsigned arm64_distance(const char *map, const char *id)
{
	uint64_t m, i;
	if (!parse_hex(map, &m) || !parse_hex(id, &i))
		return UINT_MAX;
	if (((m >> 24) & 0xff) != ((i >> 24) & 0xff))
		return UINT_MAX;
	unsigned mp = (unsigned)(m >> 4) & 0xfff, ip = (unsigned)(i >> 4) & 0xfff;
	unsigned d = mp > ip ? mp - ip : ip - mp;
	return d ? d : 1;
}

#define PVR_RADIUS 0x100

/* Nearest PVR version (upper 16 bits) the pattern accepts with the id's revision. */
static unsigned powerpc_distance(const regex_t *re, const char *id)
{
	uint64_t pvr;
	if (!is_0x_hex(id, 8) || !parse_hex(id, &pvr))
		return UINT_MAX;
	unsigned ver = (unsigned)(pvr >> 16), rev = (unsigned)pvr & 0xffff;
	char cand[16];
	for (unsigned d = 0; d <= PVR_RADIUS; d++) {
		for (int side = 0; side < 2; side++) {
			if ((side && !d) || (side ? ver + d > 0xffff : ver < d))
				continue;
			unsigned v = side ? ver + d : ver - d;
			snprintf(cand, sizeof(cand), "0x%04x%04x", v, rev);
			if (covers(re, cand, strlen(cand)))
				return d ? d : 1;
		}
	}
	return UINT_MAX;
}

/*
 * The rule of the arches without their own: pk_edit_distance (Levenshtein,
 * case counts), at least 1 (the identifiers are known not to match), and
 * "far" (UINT_MAX - 1) for identifiers over 4096 bytes.
 */
static unsigned levenshtein_rule(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 4096 || lb > 4096)
		return UINT_MAX - 1;
	size_t d = pk_edit_distance(a, la, b, lb, 0, SIZE_MAX);
	if (d == SIZE_MAX)
		return UINT_MAX - 1;
	return d ? (unsigned)d : 1;
}

/* riscv: different literal mvendorids are unrelated CPUs. */
static unsigned riscv_distance(const char *map, const char *id)
{
	char mv[32], iv[32];
	const char *md = strchr(map, '-'), *id_d = strchr(id, '-');
	if (md && id_d && (size_t)(md - map) < sizeof(mv) && (size_t)(id_d - id) < sizeof(iv)) {
		snprintf(mv, sizeof(mv), "%.*s", (int)(md - map), map);
		snprintf(iv, sizeof(iv), "%.*s", (int)(id_d - id), id);
		uint64_t a, b;
		if (parse_hex(mv, &a) && parse_hex(iv, &b) && a != b)
			return UINT_MAX;
	}
	return levenshtein_rule(map, id);
}

unsigned pk_cpuid_cache__distance(struct pk_cpuid_cache *cache, const char *arch,
				  const char *map_cpuid, const char *cpuid)
{
	if (!map_cpuid || !cpuid)
		return UINT_MAX;
	enum rules rules = rules_of(arch, cpuid);
	if (rules == RULES_ARM64) {
		int r = arm64_rule(map_cpuid, cpuid);
		return r == 0 ? 0 : r < 0 ? UINT_MAX : arm64_distance(map_cpuid, cpuid);
	}
	struct compiled c;
	if (compiled_get(cache, map_cpuid, &c))
		return UINT_MAX;
	unsigned d = 0;
	if (match_compiled(rules, c.re, map_cpuid, cpuid) == 0)
		d = 0;
	else if (rules == RULES_X86)
		d = x86_distance(c.re, map_cpuid, cpuid);
	else if (rules == RULES_POWERPC)
		d = powerpc_distance(c.re, cpuid);
	else if (rules == RULES_RISCV)
		d = riscv_distance(map_cpuid, cpuid);
	else
		d = levenshtein_rule(map_cpuid, cpuid);
	compiled_put(&c);
	return d;
}

unsigned pk_cpuid__distance(const char *arch, const char *map_cpuid, const char *cpuid)
{
	return pk_cpuid_cache__distance(NULL, arch, map_cpuid, cpuid);
}
