/* SPDX-License-Identifier: MIT */
/*
 * events/json_mapfile.c — mapfile.csv parsing for the arch/ tree reader:
 * header line skipped, '#' and empty lines skipped, CR LF accepted, four
 * columns per row, each row remembering its line for later error messages.
 */
#include "events/json_mapfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"

int json_mapfile__parse(const char *path, const char *text, size_t len, struct pk_arena *arena,
			struct json_map_row **rows, size_t *nr, struct pk_error *err)
{
	struct json_map_row *r = NULL;
	size_t n = 0, cap = 0;
	unsigned line = 0;
	*rows = NULL;
	*nr = 0;
	for (size_t pos = 0; pos < len;) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - s) : len - pos;
		pos += l + (nl ? 1 : 0);
		line++;
		if (l && s[l - 1] == '\r')
			l--;
		if (line == 1 || l == 0 || s[0] == '#')
			continue;
		const char *f[4];
		size_t fl[4], k = 0;
		const char *p = s, *end = s + l;
		for (;;) {
			const char *c = memchr(p, ',', (size_t)(end - p));
			if (k == 4) {
				free(r);
				return pk_error__set(
					err, -EINVAL, path, line, (unsigned)(p - s) + 1,
					"more than 4 columns (CPUID,Version,Dir,Type)");
			}
			f[k] = p;
			fl[k++] = c ? (size_t)(c - p) : (size_t)(end - p);
			if (!c)
				break;
			p = c + 1;
		}
		if (k != 4) {
			free(r);
			return pk_error__set(
				err, -EINVAL, path, line, 0,
				"expected 4 columns (CPUID,Version,Dir,Type), found %zu", k);
		}
		if (PK_GROW(r, cap, n + 1)) {
			free(r);
			return pk_error__set(err, -ENOMEM, path, 0, 0, "out of memory");
		}
		struct json_map_row *row = &r[n++];
		const char **dst[4] = { &row->cpuid, &row->version, &row->dir, &row->type };
		for (size_t i = 0; i < 4; i++) {
			*dst[i] = pk_arena__strndup(arena, f[i], fl[i]);
			if (!*dst[i]) {
				free(r);
				return pk_error__set(err, -ENOMEM, path, 0, 0, "out of memory");
			}
		}
		row->line = line;
		row->dir_col = (unsigned)(f[2] - s) + 1;
	}
	*rows = r;
	*nr = n;
	return 0;
}
