/* SPDX-License-Identifier: MIT */
/*
 * evspec/spec_error.c — showing spec errors: pk_spec_error__format, which shows the spec with carets under the
 * offending bytes:
 *
 *   cpu/event=0x3c,umsak=1/
 *                  ^^^^^
 *   unknown term 'umsak' (did you mean 'umask'?)
 *
 * One byte is one column: tabs and other blanks print as spaces, other
 * control or non-ASCII bytes as '?', so the carets stay aligned. A spec
 * longer than SHOW_MAX is cut around the error, cut ends marked "..".
 * No trailing newline after the third line.
 */
#include <pmukit/spec.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "evspec/lex.h"
#include "util/buf.h"

#define SHOW_MAX 72	/* spec bytes shown on the first line */

static size_t bounded_len(const char *s, size_t max)
{
	const char *z = memchr(s, '\0', max);
	return z ? (size_t)(z - s) : max;
}

static char shown(unsigned char c)
{
	if (c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
		return ' ';
	return c < 0x20 || c >= 0x7f ? '?' : (char)c;
}

const char *pk_spec_error__format(const struct pk_spec_error *err, const char *spec, char *buf,
				  size_t len)
{
	if (!buf || !len)
		return buf;
	buf[0] = '\0';
	if (!err)
		return buf;
	if (!spec)
		spec = "";

	struct pk_buf o;	/* on buf: cut when full, always NUL-terminated */
	pk_buf__init_fixed(&o, buf, len);
	size_t n = strlen(spec);
	size_t off = err->off < n ? err->off : n;
	size_t elen = err->len ? err->len : 1;
	if (off == n)
		elen = 1;		/* "unexpected end": one caret after the spec */
	else if (elen > n - off)
		elen = n - off;

	/* The window [start, end) of the spec shown, keeping the error in view. */
	size_t start = 0, end = n;
	if (n > SHOW_MAX) {
		start = off > SHOW_MAX / 3 ? off - SHOW_MAX / 3 : 0;
		end = start + SHOW_MAX < n ? start + SHOW_MAX : n;
		if (end - start < SHOW_MAX)
			start = end - SHOW_MAX;
	}
	const char *lead = start ? ".." : "";
	size_t lead_len = strlen(lead);
	size_t carets = elen;
	if (off + carets > end)
		carets = off < end ? end - off : 1;

	pk_buf__add(&o, lead, lead_len);
	for (size_t i = start; i < end; i++)
		pk_buf__putc(&o, shown((unsigned char)spec[i]));
	if (end < n)
		pk_buf__add(&o, "..", 2);
	pk_buf__putc(&o, '\n');

	for (size_t i = 0; i < lead_len + (off - start); i++)
		pk_buf__putc(&o, ' ');
	for (size_t i = 0; i < carets; i++)
		pk_buf__putc(&o, '^');
	pk_buf__putc(&o, '\n');

	pk_buf__add(&o, err->msg, bounded_len(err->msg, sizeof(err->msg)));
	size_t hlen = bounded_len(err->hint, sizeof(err->hint));
	if (hlen) {
		pk_buf__add(&o, " (", 2);
		pk_buf__add(&o, err->hint, hlen);
		pk_buf__putc(&o, ')');
	}
	return buf;
}
