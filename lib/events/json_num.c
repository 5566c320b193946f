/* SPDX-License-Identifier: MIT */
/*
 * events/json_num.c — numbers as perf's jevents.py reads and prints them:
 * Python's int(s, base) on a string (surrounding whitespace, sign, base
 * prefixes, '_' between digits, no leading zeros for base 0) and the
 * "%#llx-like" form (0..9 in decimal, else lower-case hex).
 */
#include "events/json_event.h"

#include <limits.h>

static bool py_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	return 99;
}

bool json_py_int(const char *s, size_t len, int base, bool *neg, unsigned long long *mag)
{
	size_t i = 0, e = len;
	while (i < e && py_space(s[i]))
		i++;
	while (e > i && py_space(s[e - 1]))
		e--;
	bool n = false, prefixed = false;
	if (i < e && (s[i] == '+' || s[i] == '-'))
		n = s[i++] == '-';
	int b = base;
	if (e - i >= 2 && s[i] == '0') {
		char p = (char)(s[i + 1] | 0x20);
		if ((base == 0 || base == 16) && p == 'x')
			b = 16, prefixed = true;
		else if (base == 0 && p == 'o')
			b = 8, prefixed = true;
		else if (base == 0 && p == 'b')
			b = 2, prefixed = true;
	}
	if (prefixed)
		i += 2;
	if (b == 0)
		b = 10;
	bool leading_zero = !prefixed && i < e && s[i] == '0';
	bool allow_us = prefixed, pending_us = false;
	size_t ndig = 0;
	unsigned long long v = 0;
	for (; i < e; i++) {
		if (s[i] == '_') {
			if (!allow_us)
				return false;
			allow_us = false;
			pending_us = true;
			continue;
		}
		int d = digit_value(s[i]);
		if (d >= b)
			return false;
		if (v > (ULLONG_MAX - (unsigned)d) / (unsigned)b)
			return false; /* Python has no limit; we refuse what does not fit */
		v = v * (unsigned)b + (unsigned)d;
		ndig++;
		allow_us = true;
		pending_us = false;
	}
	if (!ndig || pending_us)
		return false;
	/* int(s, 0) refuses "010": only zero may have leading zeros */
	if (base == 0 && leading_zero && v)
		return false;
	*neg = n && v;
	*mag = v;
	return true;
}

/* perf's "%#llx-like" form: 0..9 in decimal, anything else in lower-case hex. */
size_t json_fmt_num(char *buf, bool neg, unsigned long long v, bool hex)
{
	char tmp[24];
	size_t n = 0, k = 0;
	do {
		unsigned d = (unsigned)(hex ? v & 15 : v % 10);
		tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
		v = hex ? v >> 4 : v / 10;
	} while (v);
	if (neg)
		buf[k++] = '-';
	if (hex) {
		buf[k++] = '0';
		buf[k++] = 'x';
	}
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = '\0';
	return k;
}

size_t json_fmt_llx(char *buf, bool neg, unsigned long long v)
{
	return json_fmt_num(buf, neg, v, neg || v >= 10);
}
