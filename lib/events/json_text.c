/* SPDX-License-Identifier: MIT */
/*
 * events/json_text.c — raw-text helpers for the JSON tree reader: whole-file
 * read, UTF-8 check with an ASCII fast path, offset to line:column, and a
 * small scanner that finds the N-th element of the top-level array (and a key
 * inside it) so that error messages can point at a line.
 */
#include "events/json_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int json_text__read(const char *path, struct pk_buf *buf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	pk_buf__reset(buf);
	/* one read() for a regular file; more only when it grew meanwhile */
	int rc = pk_buf__read_fd(buf, fd, (size_t)st.st_size);
	close(fd);
	return rc;
}

void json_text__linecol(const char *text, size_t len, size_t off, unsigned *line, unsigned *col)
{
	unsigned l = 1;
	size_t bol = 0;
	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			l++;
			bol = i + 1;
		}
	}
	*line = l;
	*col = (unsigned)(off - bol) + 1;
}

static bool utf8_check_from(const unsigned char *s, size_t len, size_t i, size_t *bad)
{
	while (i < len) {
		unsigned c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t n;
		unsigned min;
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			min = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			min = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			min = 0x10000;
		} else {
			*bad = i;
			return false;
		}
		if (len - i <= n) {
			*bad = i;
			return false;
		}
		unsigned cp = c & (0x3fu >> n);
		for (size_t k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80) {
				*bad = i;
				return false;
			}
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
			*bad = i;
			return false;
		}
		i += n + 1;
	}
	return true;
}

bool json_text__utf8_ok(const char *text, size_t len, size_t *bad)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;
	/* Most vendor files are pure ASCII: test 8 bytes at a time first. */
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		if (w & 0x8080808080808080ull)
			break;
	}
	while (i < len && s[i] < 0x80)
		i++;
	if (i == len)
		return true;
	return utf8_check_from(s, len, i, bad);
}

static size_t skip_ws(const char *t, size_t len, size_t i)
{
	while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
		i++;
	return i;
}

static size_t skip_string(const char *t, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (t[i] == '\\')
			i++;
		else if (t[i] == '"')
			return i + 1;
	}
	return len;
}

static size_t skip_value(const char *t, size_t len, size_t i)
{
	if (i >= len)
		return len;
	if (t[i] == '"')
		return skip_string(t, len, i);
	if (t[i] == '[' || t[i] == '{') {
		unsigned depth = 0;
		while (i < len) {
			char c = t[i];
			if (c == '"') {
				i = skip_string(t, len, i);
				continue;
			}
			if (c == '[' || c == '{') {
				depth++;
			} else if (c == ']' || c == '}') {
				if (--depth == 0)
					return i + 1;
			}
			i++;
		}
		return len;
	}
	while (i < len && !memchr(",]} \t\r\n", t[i], 7))
		i++;
	return i;
}

size_t json_text__find(const char *t, size_t len, long entry, const char *key)
{
	size_t i = skip_ws(t, len, 0), start;
	if (i >= len)
		return JSON_TEXT_NOT_FOUND;
	if (entry < 0) {
		start = i;
	} else {
		if (t[i] != '[')
			return JSON_TEXT_NOT_FOUND;
		i++;
		for (long k = 0;; k++) {
			i = skip_ws(t, len, i);
			if (i >= len || t[i] == ']')
				return JSON_TEXT_NOT_FOUND;
			if (k == entry)
				break;
			i = skip_ws(t, len, skip_value(t, len, i));
			if (i >= len || t[i] != ',')
				return JSON_TEXT_NOT_FOUND;
			i++;
		}
		start = i;
	}
	if (!key || t[start] != '{')
		return start;
	size_t found = JSON_TEXT_NOT_FOUND, klen = strlen(key);
	i = start + 1;
	for (;;) {
		i = skip_ws(t, len, i);
		if (i >= len || t[i] != '"')
			break;
		size_t kstart = i, kend = skip_string(t, len, i);
		if (kend - kstart == klen + 2 && !memcmp(t + kstart + 1, key, klen))
			found = kstart;
		i = skip_ws(t, len, kend);
		if (i >= len || t[i] != ':')
			break;
		i = skip_ws(t, len, skip_value(t, len, skip_ws(t, len, i + 1)));
		if (i >= len || t[i] != ',')
			break;
		i++;
	}
	return found != JSON_TEXT_NOT_FOUND ? found : start;
}
