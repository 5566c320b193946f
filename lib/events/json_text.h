/* SPDX-License-Identifier: MIT */
/*
 * events/json_text.h — helpers over the raw text of a JSON event file, used
 * by the arch/ tree reader: read a file with one read(), check UTF-8, turn a
 * byte offset into line:column, and find where an entry (or one of its keys)
 * starts so that errors can name a line. Locating is only done when an error
 * is reported; the fast path never scans the text twice.
 */
#ifndef PMUKIT_EVENTS_JSON_TEXT_H
#define PMUKIT_EVENTS_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/*
 * Read the whole file into buf (emptied first; NUL-terminated), a buffer one
 * thread reuses from file to file. Returns 0 or a negative errno.
 */
int json_text__read(const char *path, struct pk_buf *buf);

/* 1-based line and column (in bytes) of offset off. */
void json_text__linecol(const char *text, size_t len, size_t off, unsigned *line,
			unsigned *col);

/* true when text is valid UTF-8; otherwise *bad is the offset of the first bad byte. */
bool json_text__utf8_ok(const char *text, size_t len, size_t *bad);

#define JSON_TEXT_NOT_FOUND ((size_t)-1)

/*
 * Offset of element `entry` of the top-level array (entry < 0: the top-level
 * value itself), or of the key `key` inside it when key is not NULL and the
 * element is an object that has it (the last occurrence, the one parsers
 * keep). Falls back to the element start when the key is absent; returns
 * JSON_TEXT_NOT_FOUND when the element does not exist.
 */
size_t json_text__find(const char *text, size_t len, long entry, const char *key);

#endif
