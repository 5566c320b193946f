/* SPDX-License-Identifier: MIT */
/*
 * evspec/alias_terms.c — an alias encoding ("event=0x3c,umask=0x1,period=2000003",
 * from sysfs events/ or a table event) cut into spec terms, as they replace
 * the term naming the alias: blanks and empty terms between terms skipped, a
 * blank before '=' dropped, a value a number when strtoull(value, &end, 0)
 * reads all of it without overflow, a term without '=' a flag. In one pass
 * over the text, in the add's scratch arena: it runs for every PMU event.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "evspec/evlist_int.h"

/*
 * s (starting with a digit) read as strtoull(s, &end, 0) would, when that
 * reads all of it without overflow: 0x hex, 0 octal, else decimal.
 */
static bool whole_number(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	char c2 = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? s[2] : 0;
	if ((c2 >= '0' && c2 <= '9') || (c2 >= 'a' && c2 <= 'f') || (c2 >= 'A' && c2 <= 'F')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return false;
		if (d >= base)
			return false;
		if (base == 16) {	/* ERANGE when bits would fall off the top */
			if (v >> 60)
				return false;
			v = v << 4 | d;
		} else if (base == 8) {
			if (v >> 61)
				return false;
			v = v << 3 | d;
		} else if (__builtin_mul_overflow(v, (uint64_t)10, &v) ||
			   __builtin_add_overflow(v, d, &v)) {
			return false;
		}
	}
	*out = v;
	return true;
}

/* Where a term of an alias encoding starts, has its first '=' (+1; 0: none) and ends. */
struct cut {
	unsigned start, eq, end;
};

/* Cut enc into terms (at most cap recorded); the number of terms, *len set to strlen(enc). */
static size_t cut_terms(const char *enc, struct cut *cut, size_t cap, size_t *len)
{
	/* the bytes that end a run inside a term: NUL, ',' and '=' */
	static const unsigned char stop[256] = { [0] = 1, [','] = 1, ['='] = 1 };
	size_t n = 0, i = 0;
	for (;;) {
		while (enc[i] == ' ' || enc[i] == ',')
			i++;
		if (!enc[i])
			break;
		unsigned start = (unsigned)i, eq = 0;
		for (;;) {
			while (!stop[(unsigned char)enc[i]])
				i++;
			if (enc[i] != '=')
				break;
			if (!eq)
				eq = (unsigned)i + 1;
			i++;
		}
		if (n < cap)
			cut[n] = (struct cut){ start, eq, (unsigned)i };
		n++;
		if (!enc[i])
			break;
		i++;
	}
	*len = i;
	return n;
}

int resolve_alias_terms(struct rctx *rc, const char *enc, struct spec_pos at,
			struct spec_term **out, size_t *nr)
{
	struct cut small[16], *cut = small;
	size_t len, n = cut_terms(enc, small, 16, &len);
	if (n > 16) {
		if (!(cut = pk_arena__alloc(rc->scratch, n * sizeof(*cut))))
			return -ENOMEM;
		cut_terms(enc, cut, n, &len);
	}
	struct spec_term *v = pk_arena__alloc(rc->scratch, (n ? n : 1) * sizeof(*v));
	char *buf = pk_arena__strndup(rc->scratch, enc, len);	/* split in place */
	if (!v || !buf)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct spec_term *t = &v[i];
		char *p = buf + cut[i].start, *end = buf + cut[i].end;
		char *eq = cut[i].eq ? buf + cut[i].eq - 1 : NULL;
		*end = '\0';
		char *ne = eq ? eq : end;
		while (ne > p && ne[-1] == ' ')
			ne--;
		*ne = '\0';
		t->name = p;
		t->fixed = encode_fixed_index(p) + 2;
		t->pos = t->val_pos = t->name_pos = at;
		if (!eq) {
			t->kind = SPEC_TERM_FLAG;
			t->num = 1;
		} else {
			char *val = eq + 1;
			uint64_t x;
			t->str = val;
			if (*val >= '0' && *val <= '9' && whole_number(val, &x)) {
				t->kind = SPEC_TERM_NUM;
				t->num = x;
			} else {
				t->kind = SPEC_TERM_STR;
			}
		}
	}
	*out = v;
	*nr = n;
	return 0;
}
