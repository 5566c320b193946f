/* SPDX-License-Identifier: MIT */
/*
 * util/error.h — the library's one way to fill its error reports: struct
 * pk_error (a place in a file) and struct pk_spec_error (bytes of a spec, a
 * metric list or a metric expression). Both return code, so callers can
 * `return ..._set(...)`.
 */
#ifndef PMUKIT_UTIL_ERROR_H
#define PMUKIT_UTIL_ERROR_H

#include <stdarg.h>

#include <pmukit/error.h>
#include <pmukit/spec.h>

/* Fill err (when not NULL) and return code. */
int pk_error__set(struct pk_error *err, int code, const char *file, unsigned line,
		  unsigned column, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Fill err (when not NULL: code, the offending bytes, the hint or "", the message). */
int pk_spec_error__set(struct pk_spec_error *err, int code, unsigned off, unsigned len,
		       const char *hint, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
int pk_spec_error__vset(struct pk_spec_error *err, int code, unsigned off, unsigned len,
			const char *hint, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

#ifdef __clang_analyzer__
/* scan-build looks at one file at a time: tell it that the result is code, so it does not
 * follow paths where `ret = pk_error__set(err, -ENOMEM, ...)` left ret 0. */
#define pk_error__set(err, code, ...) (pk_error__set(err, code, __VA_ARGS__), (code))
#endif

#endif
