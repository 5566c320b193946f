/* SPDX-License-Identifier: MIT */
/*
 * pmu/format.c — parsing a PMU format file body ("config:0-7",
 * "config1:0-63", "config:8-15,32-57", "config:21") into which config word a
 * format term sits in and which bits of it the term occupies.
 */
#include <pmukit/pmu.h>

#include <errno.h>

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A decimal bit number 0..63; NULL when absent or out of range. */
static const char *parse_bit(const char *p, unsigned *bit)
{
	unsigned v = 0;
	const char *start = p;

	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > 63)
			return NULL;
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

int pk_pmu_format__parse(const char *body, struct pk_pmu_format *f)
{
	static const char kw[] = "config";
	const char *p;
	int config = 0;
	uint64_t mask = 0;

	if (!body || !f)
		return -EINVAL;
	p = skip_blanks(body);
	for (size_t i = 0; i < sizeof(kw) - 1; i++, p++)
		if (*p != kw[i])
			return -EINVAL;
	if (*p >= '1' && *p <= '3')
		config = *p++ - '0';
	p = skip_blanks(p);
	if (*p++ != ':')
		return -EINVAL;
	for (;;) {
		unsigned lo, hi;

		p = parse_bit(skip_blanks(p), &lo);
		if (!p)
			return -EINVAL;
		hi = lo;
		p = skip_blanks(p);
		if (*p == '-') {
			p = parse_bit(skip_blanks(p + 1), &hi);
			if (!p || hi < lo)
				return -EINVAL;
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
		return -EINVAL;
	f->config = config;
	f->mask = mask;
	f->width = popcount64(mask);
	return 0;
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
