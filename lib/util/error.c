/* SPDX-License-Identifier: MIT */
/* util/error.c — formatting struct pk_error, and filling it and struct pk_spec_error. */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *pk_error__format(const struct pk_error *err, char *buf, size_t len)
{
	if (err->file[0] && err->line && err->column)
		snprintf(buf, len, "%s:%u:%u: %s", err->file, err->line, err->column, err->msg);
	else if (err->file[0] && err->line)
		snprintf(buf, len, "%s:%u: %s", err->file, err->line, err->msg);
	else if (err->file[0])
		snprintf(buf, len, "%s: %s", err->file, err->msg);
	else
		snprintf(buf, len, "%s", err->msg);
	return buf;
}

#undef pk_error__set	/* scan-build's stand-in (error.h): this is the function */
int pk_error__set(struct pk_error *err, int code, const char *file, unsigned line,
		  unsigned column, const char *fmt, ...)
{
	if (!err)
		return code;
	err->code = code;
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = line;
	err->column = column;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

int pk_spec_error__vset(struct pk_spec_error *err, int code, unsigned off, unsigned len,
			const char *hint, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	err->off = off;
	err->len = len;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	snprintf(err->hint, sizeof(err->hint), "%s", hint ? hint : "");
	return code;
}

int pk_spec_error__set(struct pk_spec_error *err, int code, unsigned off, unsigned len,
		       const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pk_spec_error__vset(err, code, off, len, hint, fmt, ap);
	va_end(ap);
	return code;
}
