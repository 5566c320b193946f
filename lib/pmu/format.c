/* SPDX-License-Identifier: MIT */
/*
 * pmu/format.c — parsing a PMU format file body ("config:0-7",
 * "config1:0-63", "config:8-15,32-57", "config:21") into which config word a
 * format term sits in and which bits of it the term occupies.
 */
#include <pmukit/pmu.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A decimal bit number; NULL when there are no digits. *bit saturates above 63. */
static const char *parse_bit(const char *p, unsigned *bit)
{
	unsigned v = 0;
	const char *start = p;

	while (*p >= '0' && *p <= '9') {
		if (v <= 63)
			v = v * 10 + (unsigned)(*p - '0');
		p++;
	}
	if (p == start)
		return NULL;
	*bit = v;
	return p;
}

static uint64_t bit_range(unsigned lo, unsigned hi)
{
	uint64_t top = hi == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (hi + 1)) - 1;
	return top & ~((UINT64_C(1) << lo) - 1);
}

static unsigned popcount64(uint64_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* Fill why (when not NULL) and return -EINVAL. */
static int refuse(char *why, size_t len, const char *fmt, const char *at)
{
	if (why && len) {
		char shown[24];
		size_t n = strcspn(at, "\n");
		snprintf(shown, sizeof(shown), "%.*s%s", (int)(n > 16 ? 16 : n), at, n > 16 ? "..." : "");
		snprintf(why, len, fmt, *at && *at != '\n' ? shown : "end of file");
	}
	return -EINVAL;
}

/* A bit number above 63 at p: say which. */
static int beyond(char *why, size_t len, const char *p)
{
	if (why && len)
		snprintf(why, len, "bit %.*s is beyond 63 (a config word has 64 bits)",
			 (int)(strspn(p, "0123456789") > 20 ? 20 : strspn(p, "0123456789")), p);
	return -EINVAL;
}

int pk_pmu_format__parse_why(const char *body, struct pk_pmu_format *f, char *why, size_t len)
{
	static const char kw[] = "config";
	const char *p = NULL;
	int config = 0;
	uint64_t mask = 0;

	if (!body || !f || !*(p = skip_blanks(body)) || *p == '\n') {
		if (why && len)
			snprintf(why, len, "empty: expected config[123]:BITS, e.g. config:0-7");
		return -EINVAL;
	}
	if (strncmp(p, kw, sizeof(kw) - 1))
		return refuse(why, len, "expected config, config1, config2 or config3 at '%s'", p);
	p += sizeof(kw) - 1;
	if (*p >= '1' && *p <= '3')
		config = *p++ - '0';
	p = skip_blanks(p);
	if (*p != ':')
		return refuse(why, len, "expected ':' after the config word at '%s'", p);
	p++;
	for (;;) {
		unsigned lo, hi;
		const char *at = skip_blanks(p);

		p = parse_bit(at, &lo);
		if (!p)
			return refuse(why, len, "expected a bit number at '%s'", at);
		if (lo > 63)
			return beyond(why, len, at);
		hi = lo;
		p = skip_blanks(p);
		if (*p == '-') {
			const char *hat = skip_blanks(p + 1);
			p = parse_bit(hat, &hi);
			if (!p)
				return refuse(why, len, "expected the range's last bit at '%s'", hat);
			if (hi > 63)
				return beyond(why, len, hat);
			if (hi < lo)
				return refuse(why, len, "the range '%s' ends below its start", at);
			p = skip_blanks(p);
		}
		mask |= bit_range(lo, hi);
		if (*p != ',')
			break;
		p++;
	}
	/* Only white space (one trailing newline or several) may follow. */
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p)
		return refuse(why, len, "unexpected '%s' after the bits", p);
	f->config = config;
	f->mask = mask;
	f->width = popcount64(mask);
	return 0;
}

int pk_pmu_format__parse(const char *body, struct pk_pmu_format *f)
{
	return pk_pmu_format__parse_why(body, f, NULL, 0);
}

int pk_pmu_format__place(const struct pk_pmu_format *f, uint64_t value, uint64_t config[4])
{
	if (f->config < 0 || f->config > 3)
		return -EINVAL;
	if (f->width < 64 && (value >> f->width))
		return -ERANGE;
	uint64_t word = config[f->config] & ~f->mask;
	for (unsigned bit = 0; bit < 64 && value; bit++) {
		if (!(f->mask & (1ull << bit)))
			continue;
		if (value & 1)
			word |= 1ull << bit;
		value >>= 1;
	}
	config[f->config] = word;
	return 0;
}

uint64_t pk_pmu_format__extract(const struct pk_pmu_format *f, const uint64_t config[4])
{
	if (f->config < 0 || f->config > 3)
		return 0;
	uint64_t v = 0;
	unsigned out = 0;
	for (unsigned bit = 0; bit < 64; bit++) {
		if (!(f->mask & (1ull << bit)))
			continue;
		if (config[f->config] & (1ull << bit))
			v |= 1ull << out;
		out++;
	}
	return v;
}
