/* SPDX-License-Identifier: MIT */
/*
 * pmukit/error.h — the error report filled by functions that parse input:
 * what went wrong and where (file, line, column or offset into a string).
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

#ifdef __cplusplus
}
#endif
#endif
