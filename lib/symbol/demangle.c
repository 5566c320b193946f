/* SPDX-License-Identifier: MIT */
/*
 * symbol/demangle.c — names as perf 6.1 demangles them: libiberty's
 * cplus_demangle in its automatic style (C++ Itanium ABI, Rust legacy and v0)
 * without parameters (perf adds DMGL_PARAMS | DMGL_ANSI only with -v), then
 * OCaml's "camlModule__name" when that found nothing.
 */
#include "symbol/symbol_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* OCaml: "caml" + an upper-case letter; "__" is ".", "$xx" a hex byte */
static char *ocaml_demangle(const char *s)
{
	if (strncmp(s, "caml", 4) || !isupper((unsigned char)s[4]))
		return NULL;
	size_t len = strlen(s);
	char *r = malloc(len + 1), *o = r;
	if (!r)
		return NULL;
	for (size_t i = 4; i < len;) {
		if (s[i] == '_' && s[i + 1] == '_') {
			*o++ = '.';
			i += 2;
		} else if (s[i] == '$' && isxdigit((unsigned char)s[i + 1]) &&
			   isxdigit((unsigned char)s[i + 2])) {
			*o++ = (char)(hexval((unsigned char)s[i + 1]) << 4 | hexval((unsigned char)s[i + 2]));
			i += 3;
		} else {
			*o++ = s[i++];
		}
	}
	*o = '\0';
	return r;
}

char *demangle__sym(const char *name, unsigned flags)
{
	if (flags & PK_SYMBOLIZER_NO_DEMANGLE)
		return NULL;
	int dm = flags & PK_SYMBOLIZER_DEMANGLE_PARAMS ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS;
	char *r = cplus_demangle(name, dm);
	if (!r)
		r = ocaml_demangle(name);
	return r;
}

char *pk_demangle(const char *name, unsigned flags)
{
	return name ? demangle__sym(name, flags) : NULL;
}
