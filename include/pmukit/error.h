/* SPDX-License-Identifier: MIT */
/*
 * pmukit/error.h — the error reports filled by functions that fail: what went
 * wrong and where. Two, because "where" is two different things:
 *
 *   struct pk_error       a place in a file or the system the library read
 *                         (a JSON file and its line and column, a perf.data,
 *                         a sysfs PMU): file, line, column. Most functions.
 *   struct pk_spec_error  bytes of a string the caller passed in (an event
 *                         spec, a metric list, a metric expression): offset,
 *                         length and a hint ("did you mean..."), shown with
 *                         carets under the text by pk_spec_error__format.
 *
 * Each is filled only when the pointer passed is not NULL; code is the
 * negative errno the function returns.
 */
#ifndef PMUKIT_ERROR_H
#define PMUKIT_ERROR_H

#include <stddef.h>

#include <pmukit/api.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_error {
	int code;		/* negative errno-style code, 0 when unset */
	char file[256];		/* input file, or "" */
	unsigned line;		/* 1-based, 0 when unknown */
	unsigned column;	/* 1-based, 0 when unknown */
	char msg[512];
};

/* "file:line:col: msg" (parts omitted when unknown) into buf. */
PK_API const char *pk_error__format(const struct pk_error *err, char *buf, size_t len);

/* An error that points at bytes of the caller's text (spec, metric list or expression). */
struct pk_spec_error {
	int code;		/* negative errno */
	unsigned off, len;	/* offending bytes in the text */
	char msg[256];		/* what was expected / why it is refused */
	char hint[128];		/* "did you mean 'umask'?" or "" */
};

/*
 * Three lines: the text, a caret under the offending bytes, and the message
 * with its hint. Returns buf.
 */
PK_API const char *pk_spec_error__format(const struct pk_spec_error *err, const char *text,
					 char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
