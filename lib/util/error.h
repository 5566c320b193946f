/* SPDX-License-Identifier: MIT */
/* util/error.h — internal helper to fill a struct pk_error. */
#ifndef PMUKIT_UTIL_ERROR_H
#define PMUKIT_UTIL_ERROR_H

#include <pmukit/error.h>

/* Fill err (when not NULL) and return code, so callers can `return pk_error__set(...)`. */
int pk_error__set(struct pk_error *err, int code, const char *file, unsigned line,
		  unsigned column, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#ifdef __clang_analyzer__
/* scan-build looks at one file at a time: tell it that the result is code, so it does not
 * follow paths where `ret = pk_error__set(err, -ENOMEM, ...)` left ret 0. */
#define pk_error__set(err, code, ...) (pk_error__set(err, code, __VA_ARGS__), (code))
#endif

#endif
